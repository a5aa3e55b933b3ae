"""The fast path of `read_games`: whole blocks of bytes, split at blank lines, standard library.

The stream is read in blocks of whole lines (`stream.chunks`: UTF-8 or a single-byte code
page, LF line ends), normalised (byte order marks dropped, whitespace-only lines emptied:
python-chess treats them as blank) and split into paragraphs at blank lines. A *group* runs
from a paragraph that starts a game (a line `[` + letter or digit, after a blank line,
following a paragraph that ends in a movetext line) to the next one. A group that is one
plain header paragraph (every line a tag pair, no name twice, no NUL) plus one plain
movetext paragraph (no `;`, no `%` escape line, comments closed, no `[` outside comments,
ending with the result of the Result tag) is read here with a few C-level calls: one regex
`findall` for the tags, bytes methods for the moves. Every other group goes line by line
through `machine.Machine`, which defines the rules; both give the same games (tested).
Where the C extension runs (`native`), the loop over the groups, the tags and the moves of
the plain case are its `groups`; the groups it leaves go to the same line machine
(tests/test_pgn_native.py compares both paths).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import BinaryIO

from tracker.model import RawGame
from tracker.pgn.decode import decode_text, unescape
from tracker.pgn.machine import GAME_START, IDLE, JUNK, MAX_TAGS, MAX_VALUE, Machine
from tracker.pgn.moves import DROP, NUMBERING, RESULT_ENDS, canonical, digest_of, split_result
from tracker.pgn.native import SPEEDUPS, Speedups
from tracker.pgn.stream import chunks, drop_boms, wide_encoding

CARRY_CAP = 8 << 20
"""A group still open after this many bytes is read line by line (bounded memory)."""

_FAST_TAG = re.compile(r'\n\[([A-Za-z0-9]\w*) "(.*)"\](?=\n)', re.ASCII)
"""A tag line as python-chess reads it, in its most common form only: one space before the
value, nothing after the `]` (anything else goes to the line machine)."""
_COMMENT = re.compile(rb"\{[^}]*\}")
_PAREN = re.compile(rb"[()]")
_OPEN = ord("(")
_WS_FIND = re.compile(rb"\n[ \t\r\x0b\x0c]+\n")
_WS_LINES = re.compile(rb"^[ \t\r\x0b\x0c]+$", re.M)
_HEADERISH = b"[%;"
_NOT_MOVES = b"[%;\n"
_SPECIALS = b";{}()[%$"


def _normalize(data: bytes, native: Speedups | None) -> bytes:
    """`data` (from `stream.chunks`: no CR left) without BOMs, whitespace-only lines empty."""
    if b"\xef" in data:
        data = drop_boms(data)
    if native is not None:
        return native.normalize(data)
    if (data[:1] in b" \t\r\x0b\x0c" and data[:1]) or _WS_FIND.search(data):
        data = _WS_LINES.sub(b"", data)
    return data


def _fast_tags(h: bytes) -> dict[str, str] | None:
    """The tags of a plain header paragraph, or None when it needs the line machine."""
    try:
        text = h.decode()
    except UnicodeDecodeError:
        text = "\n".join(map(decode_text, h.split(b"\n")))
    pairs = _FAST_TAG.findall("\n" + text + "\n")
    n = len(pairs)
    if n != h.count(b"\n") + 1 or n > MAX_TAGS or "\r" in text:
        return None
    tags = dict(pairs)
    if len(tags) != n:
        return None
    if "\\" in text:
        tags = {k: unescape(v) for k, v in tags.items()}
    if len(text) > MAX_VALUE and max(map(len, tags.values())) > MAX_VALUE:
        return None
    return tags


def _fast_canonical(m: bytes) -> bytes | None:
    """The canonical mainline of a movetext paragraph, or None (for the line machine)."""
    full = _fast_full(m)
    return None if full is None else split_result(full)[0]


def _fast_full(m: bytes) -> bytes | None:
    """`_fast_canonical` with the result still at the end (`split_result` cuts it off)."""
    if len(m.translate(None, _SPECIALS)) == len(m):  # the usual case: nothing to remove
        return canonical(m, final=False)
    if b";" in m:
        return None
    if b"{" in m:
        if m.rfind(b"{") > m.rfind(b"}"):
            return None
        m = _COMMENT.sub(b" ", m)
    if b"[" in m or m[:1] == b"%" or b"\n%" in m:
        return None
    if b"}" in m:
        m = m.replace(b"}", b" ")
    if b"(" in m:
        found = _strip_variations(m)
        if found is None:
            return None
        m = found
    if b")" in m:
        m = m.replace(b")", b" ")
    return canonical(m, final=False)


def _strip_variations(m: bytes) -> bytes | None:
    """`m` with each outermost variation `(...)` (nested ones inside it) replaced by one
    space, in one pass over its parentheses (linear in the nesting depth); None when a `(`
    is never closed. A stray `)` is left (the caller makes it whitespace)."""
    parts = []
    depth = 0
    kept_from = 0
    for paren in _PAREN.finditer(m):
        pos = paren.start()
        if m[pos] == _OPEN:
            if not depth:
                parts.append(m[kept_from:pos])
            depth += 1
        elif depth:
            depth -= 1
            if not depth:
                parts.append(b" ")
                kept_from = pos + 1
    if depth:
        return None
    parts.append(m[kept_from:])
    return b"".join(parts)


_RESULT_BYTES = {end.decode("ascii"): end for end in RESULT_ENDS}
"""The bytes of each result, by the value of a Result tag."""

_is_start = re.compile(rb"\n*\[[A-Za-z0-9]").match
"""Whether a paragraph starts a game (after the blank lines it may begin with)."""


def _ends_in_moves(p: bytes) -> bool:
    """Whether the line machine surely left the header after this paragraph: its last line
    is neither a tag, escape nor comment line (so a game may start after it)."""
    return p[p.rfind(b"\n") + 1 :][:1] not in _HEADERISH


class _Reader:
    def __init__(self, native: Speedups | None) -> None:
        self.machine = Machine()
        self.native = native
        self.cuts: dict[int, str] = {}
        self.pending: list[str] = []  # problems of cut lines for the next game (as in
        # `read_games_slow`: a cut line outside any game, a `%` line, concerns the next one)
        self.open_group: tuple[int, int] | None = None

    # -- the line machine

    def feed(self, text: bytes, lineno: int) -> RawGame | None:
        machine = self.machine
        done = machine.feed(text, lineno)
        if self.cuts:
            # this line's, and those of blank lines the groups skipped (the machine, IDLE
            # there, would have kept them for the next game)
            for cut in sorted(n for n in self.cuts if n <= lineno):
                if cut == lineno:
                    machine.line_was_cut()
                self.pending.append(self.cuts.pop(cut))
        if self.pending:
            if machine.state != IDLE:
                for problem in self.pending:
                    machine.add_problem(problem)
                self.pending.clear()
            elif done is not None:
                done = replace(done, problems=(*done.problems, *self.pending))
                self.pending.clear()
        return done

    def slow(self, data: bytes, lineno: int) -> Iterator[RawGame]:
        """A group's bytes through the line machine, then its last game."""
        self.machine.blank_before = True
        feed = self.feed
        lines = data.split(b"\n")
        lines.pop()  # after the last newline: the next group's first line
        for text in lines:
            done = feed(text, lineno)
            if done is not None:
                yield done
            lineno += 1
        done = self.machine.finish()
        if done is not None:
            yield done

    def stream_until_boundary(
        self, data: bytes, lineno: int, games: list[RawGame]
    ) -> tuple[bytes, int] | None:
        """Feed lines to the machine up to the next line that surely starts a game.

        Returns the rest of `data` from that line (and its number), or None when all of
        `data` was consumed.
        """
        machine = self.machine
        off = 0
        lines = data.split(b"\n")
        lines.pop()
        for text in lines:
            if (
                machine.blank_before
                and (machine.state in (IDLE, JUNK) or machine.in_comment)
                and GAME_START.match(text)
            ):
                done = machine.finish()
                if done is not None:
                    games.append(done)
                return data[off:], lineno
            done = self.feed(text, lineno)
            if done is not None:
                games.append(done)
            off += len(text) + 1
            lineno += 1
        return None

    # -- groups

    def groups(self, buf: bytes, base_line: int, final: bool) -> Iterable[RawGame]:
        """The games of `buf` (whole lines; it starts a group). Unless `final`, the group
        still open at the end is left for the next block: `self.open_group` is set to its
        (offset, line) once they are all read."""
        if self.native is not None and not (self.cuts or self.pending):
            # The same loop in C (`_speedups.groups`): its games, and the groups it leaves
            # to the line machine (None: a NUL byte in buf, read here).
            found = self.native.groups(buf, base_line, final)
            if found is not None:
                games, slow, self.open_group = found
                return self._with_slow(buf, games, slow) if slow else games
        return self._groups(buf, base_line, final)

    def _with_slow(
        self, buf: bytes, games: list[RawGame], slow: list[tuple[int, int, int, int]]
    ) -> Iterator[RawGame]:
        """`games`, and before games[index] those of buf[start:end] read by the line
        machine, for each (index, start, end, line) of `slow`."""
        at = 0
        for index, start, end, line in slow:
            yield from games[at:index]
            yield from self.slow(buf[start:end], line)
            at = index
        yield from games[at:]

    def _groups(self, buf: bytes, base_line: int, final: bool) -> Iterator[RawGame]:
        force_slow = bool(self.cuts or self.pending) or b"\x00" in buf
        paras = buf.split(b"\n\n")
        n = len(paras)
        last = n - 1 if final else n - 2  # a fast pair (i, i + 1) needs i < last
        fast_tags = _fast_tags
        fast_full = _fast_full
        result_bytes = _RESULT_BYTES
        i = 0
        off = 0
        line = base_line
        while i < n:
            h = paras[i]
            if h[:1] == b"\n":  # more blank lines
                k = len(h) - len(h.lstrip(b"\n"))
                h = paras[i] = h[k:]
                off += k
                line += k
            if not h:
                off += 2
                line += 2
                i += 1
                continue
            if not force_slow and i < last:
                # The usual case: a header paragraph, a movetext paragraph, then a game.
                m = raw_m = paras[i + 1]
                if m[:1] == b"\n":  # two blank lines after the header: still one game
                    m = m.lstrip(b"\n")
                if (
                    h[:1] == b"["
                    and m
                    and m[:1] not in _NOT_MOVES
                    and (i + 2 == n or _is_start(paras[i + 2]))
                    and h[1:2].isalnum()
                ):
                    tags = fast_tags(h)
                    if tags is not None:
                        full = fast_full(m)
                        # Moves that end with the Result tag's result (`split_result`: each
                        # result ends in a byte of its own); others go to the line machine,
                        # which says how they end (RawGame.moves_end).
                        result = result_bytes.get(tags.get("Result", ""))
                        if full is not None and result is not None and full.endswith(result):
                            digest = digest_of(full[: -len(result)])
                            yield RawGame(tags, digest, bool(digest), line, ())
                            i += 2
                            off += len(h) + len(raw_m) + 4
                            line += h.count(b"\n") + raw_m.count(b"\n") + 4
                            continue
            # Anything else: the group runs to the next paragraph that starts a game after
            # a paragraph ending in a movetext line; the line machine reads it, with the
            # blank lines before that paragraph (a cut one among them concerns the game
            # before when the machine is still in it: text outside any game, a comment).
            moves = _ends_in_moves(h)
            end = off + len(h) + 2
            j = i + 1
            while j < n:
                p = paras[j]
                if p[:1] == b"\n":
                    p = p.lstrip(b"\n")
                if p:
                    if moves and _is_start(p):
                        blanks = len(paras[j]) - len(p)
                        end += blanks
                        paras[j] = p
                        break
                    moves = _ends_in_moves(p)
                end += len(paras[j]) + 2
                j += 1
            if j == n and not final:
                self.open_group = (off, line)
                return
            end = min(end, len(buf))
            yield from self.slow(buf[off:end], line)
            line += buf.count(b"\n", off, end)
            off = end
            i = j


def _configured() -> Speedups | None:
    """The C extension given the rules' constants (None: the pure Python code runs)."""
    if SPEEDUPS is not None:
        SPEEDUPS.configure(RawGame, _fast_tags, MAX_TAGS, MAX_VALUE, RESULT_ENDS, DROP, NUMBERING)
    return SPEEDUPS


NATIVE = _configured()
"""The extension `read_games` uses (`native.SPEEDUPS`), or None."""


def read_games(stream: BinaryIO, source: str, first_line: int = 1) -> Iterator[RawGame]:
    """Every game of a binary PGN stream, in order (see `tracker.pgn`). `first_line` is the
    number of the stream's first line: a part of a file that starts at a cut given by
    `game_cuts` reads as that part of the whole file does."""
    return _read(stream, source, first_line, NATIVE)


def read_games_pure(stream: BinaryIO, source: str, first_line: int = 1) -> Iterator[RawGame]:
    """`read_games` in pure Python, the C extension not used (the tests and the benchmark
    compare both)."""
    return _read(stream, source, first_line, None)


def _read(
    stream: BinaryIO, source: str, first_line: int, native: Speedups | None
) -> Iterator[RawGame]:
    reader = _Reader(native)
    carry = b""
    carry_line = first_line
    streaming = False
    for data, first, cuts in chunks(stream, source, first_line, native):
        data = _normalize(data, native)
        if cuts:
            reader.cuts.update(cuts)
        if streaming:
            games: list[RawGame] = []
            resumed = reader.stream_until_boundary(data, first, games)
            yield from games
            if resumed is None:
                continue
            streaming = False
            data, first = resumed
        if carry:
            buf, line = carry + data, carry_line
        else:
            buf, line = data, first
        carry = b""
        reader.open_group = None
        yield from reader.groups(buf, line, final=False)
        if reader.open_group is not None:
            g_off, carry_line = reader.open_group
            carry = buf[g_off:]
        if len(carry) > CARRY_CAP:
            games = []
            reader.machine.blank_before = True
            for text in carry.split(b"\n")[:-1]:
                done = reader.feed(text, carry_line)
                if done is not None:
                    games.append(done)
                carry_line += 1
            yield from games
            carry = b""
            streaming = True
    if streaming:
        done = reader.machine.finish()
        if done is not None:
            yield done
    elif carry:
        yield from reader.groups(carry, carry_line, final=True)


_CUT = re.compile(rb"\n(?:\r?\n)\[[A-Za-z0-9]")
"""A blank line (empty, or a lone CR) and a line starting a tag pair after it."""
_NOT_MOVETEXT_START = b"[%;\xef \t\r\x0b\x0c"
CUT_LOOK = 1 << 16
"""Bytes looked at around each place `game_cuts` tries (before it, and after it)."""


def game_cuts(stream: BinaryIO, size: int, step: int) -> list[int]:
    """Offsets where a seekable stream of `size` bytes can be cut into parts read one by
    one (each by `read_games` with the number of its first line): 0, one cut at or after
    each multiple of `step` where one is found within `CUT_LOOK` bytes, and `size`.

    A cut is the start of a line `[` + letter or digit, after an empty line, after a line
    whose first byte is neither `[`, `%`, `;`, whitespace nor a byte order mark's first byte
    (lines end at LF, CRLF or CR alone, as `stream.blocks` reads them). A UTF-16 or UTF-32
    stream is never cut. Whatever the line machine's state before such a line (moves, a
    header block given a movetext line, text outside any game, a comment left open), the
    empty line and the `[` line end the game before and start a new one, as they do at the
    start of a stream: reading the parts gives the games of the whole (tested).
    """
    cuts = [0]
    stream.seek(0)
    if wide_encoding(stream.read(4)) is not None:  # UTF-16/32: read whole, as one part
        stream.seek(0)
        return [0, size]
    for pos in range(step, size, step):
        if pos <= cuts[-1]:
            continue
        back = min(pos, CUT_LOOK)
        stream.seek(pos - back)
        window = stream.read(back + CUT_LOOK)
        search = _CUT.search
        at = back - 1
        while True:
            m = search(window, at)
            if m is None:
                break
            at = end = m.start()
            while window[end - 1 : end] == b"\r":  # CRLF, CR CR LF
                end -= 1
            prev = max(window.rfind(b"\n", 0, end), window.rfind(b"\r", 0, end))  # CR alone
            line = window[prev + 1 : end]
            if (prev >= 0 or pos == back) and line and line[:1] not in _NOT_MOVETEXT_START:
                cuts.append(pos - back + m.end() - 2)
                break
            at += 1
    cuts.append(size)
    stream.seek(0)
    return cuts
