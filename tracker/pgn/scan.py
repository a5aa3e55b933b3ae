"""The fast path of `read_games`: whole blocks of bytes, split at blank lines, standard library.

The stream is read in blocks of whole lines (`machine.chunks`), normalised (CRLF to LF, byte
order marks dropped, whitespace-only lines emptied: python-chess treats them as blank) and
split into paragraphs at blank lines. A *group* runs from a paragraph that starts a game (a
line `[` + letter or digit, after a blank line, following a paragraph with a movetext line)
to the next one. A group that is one plain header paragraph (every line a tag pair, no name
twice, no NUL) plus one plain movetext paragraph (no `;`, no `%` escape line, comments
closed, no `[` outside comments) is read here with a few C-level calls: one regex
`findall` for the tags, bytes methods for the moves. Every other group goes line by line
through `machine.Machine`, which defines the rules; both give the same games (tested).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO

from tracker.model import RawGame
from tracker.pgn.decode import decode_text, unescape
from tracker.pgn.machine import (
    BOM,
    GAME_START,
    IDLE,
    JUNK,
    MAX_TAGS,
    MAX_VALUE,
    Machine,
    chunks,
)
from tracker.pgn.moves import canonical, digest_of

CARRY_CAP = 8 << 20
"""A group still open after this many bytes is read line by line (bounded memory)."""

_FAST_TAG = re.compile(r'^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)[ \t]+"([^\r\n]*)"\][ \t]*$', re.M)
_COMMENT = re.compile(rb"\{[^}]*\}")
_VARIATION = re.compile(rb"\([^()]*\)")
_WS_FIND = re.compile(rb"\n[ \t\r\x0b\x0c]+\n")
_WS_LINES = re.compile(rb"^[ \t\r\x0b\x0c]+$", re.M)
_HEADERISH = b"[%;"


def _normalize(data: bytes) -> bytes:
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    if BOM in data:
        data = data.replace(BOM, b"")
    if (data[:1] in b" \t\r\x0b\x0c" and data[:1]) or _WS_FIND.search(data):
        data = _WS_LINES.sub(b"", data)
    return data


def _fast_tags(h: bytes) -> dict[str, str] | None:
    """The tags of a plain header paragraph, or None when it needs the line machine."""
    try:
        text = h.decode()
    except UnicodeDecodeError:
        text = "\n".join(map(decode_text, h.split(b"\n")))
    pairs = _FAST_TAG.findall(text)
    n = h.count(b"\n") + 1
    if len(pairs) != n or n > MAX_TAGS:
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
    """The canonical mainline of a plain movetext paragraph, or None (line machine)."""
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
        while True:
            m, n = _VARIATION.subn(b" ", m)
            if not n:
                break
        if b"(" in m:
            return None
    if b")" in m:
        m = m.replace(b")", b" ")
    return canonical(m)


class _Reader:
    def __init__(self) -> None:
        self.machine = Machine()
        self.cuts: dict[int, str] = {}

    # -- the line machine

    def feed(self, text: bytes, lineno: int) -> RawGame | None:
        machine = self.machine
        done = machine.feed(text, lineno)
        if self.cuts and lineno in self.cuts:
            problem = self.cuts.pop(lineno)
            if machine.state != IDLE:
                machine.add_problem(problem)
            elif done is not None:
                done = RawGame(
                    done.tags, done.moves_digest, done.has_moves, done.line,
                    (*done.problems, problem),
                )
        return done

    def slow(self, data: bytes, lineno: int) -> Iterator[RawGame]:
        """A group's bytes through the line machine, then its last game."""
        self.machine.blank_before = True
        feed = self.feed
        for text in data.split(b"\n"):
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

    def groups(
        self, buf: bytes, base_line: int, final: bool
    ) -> Iterator[RawGame | tuple[int, int]]:
        """The games of `buf` (whole lines); last, unless final, (offset, line) of the
        group left open, to be carried into the next block."""
        force_slow = bool(self.cuts) or b"\x00" in buf
        count = buf.count
        off = 0
        g_off = -1  # offset of the current group's first paragraph
        g_paras: list[bytes] = []
        count_off, count_line = 0, base_line
        prev_moves = True
        for raw in buf.split(b"\n\n"):
            start = off
            off += len(raw) + 2
            c = raw
            if c[:1] == b"\n":
                c = c.lstrip(b"\n")
                start += len(raw) - len(c)
            if c[-1:] == b"\n":
                c = c.rstrip(b"\n")
            if not c:
                continue
            first = c[:1]
            if first in _HEADERISH:
                is_start = first == b"[" and GAME_START.match(c) is not None
                if is_start and prev_moves:
                    if g_off >= 0:
                        count_line += count(b"\n", count_off, g_off)
                        count_off = g_off
                        yield from self.group(buf, g_off, start, count_line, g_paras, force_slow)
                    g_off = start
                    g_paras = [c]
                else:
                    if g_off < 0:
                        g_off = start
                    g_paras.append(c)
                nl = c.count(b"\n")
                if first == b"[" and c.count(b"\n[") == nl:
                    prev_moves = False
                else:
                    prev_moves = any(
                        line[:1] not in _HEADERISH or not line for line in c.split(b"\n")
                    )
            else:
                if g_off < 0:
                    g_off = start
                g_paras.append(c)
                prev_moves = True
        if g_off < 0:
            return
        count_line += count(b"\n", count_off, g_off)
        if final:
            yield from self.group(buf, g_off, len(buf), count_line, g_paras, force_slow)
        else:
            yield (g_off, count_line)

    def group(
        self, buf: bytes, start: int, end: int, line: int, paras: list[bytes], force_slow: bool
    ) -> Iterator[RawGame]:
        if not force_slow and len(paras) <= 2 and paras[0][:1] == b"[":
            tags = _fast_tags(paras[0])
            if tags is not None:
                if len(paras) == 1:
                    yield RawGame(tags, "", False, line, ())
                    return
                m = paras[1]
                if m[:1] != b"[":
                    canon = _fast_canonical(m)
                    if canon is not None:
                        yield RawGame(tags, digest_of(canon), bool(canon), line, ())
                        return
        yield from self.slow(buf[start:end], line)


def read_games(stream: BinaryIO, source: str) -> Iterator[RawGame]:
    """Every game of a binary PGN stream, in order (see `tracker.pgn`)."""
    reader = _Reader()
    carry = b""
    carry_line = 1
    streaming = False
    for data, first, cuts in chunks(stream, source):
        data = _normalize(data)
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
        for item in reader.groups(buf, line, final=False):
            if isinstance(item, RawGame):
                yield item
            else:
                g_off, carry_line = item
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
        for item in reader.groups(carry, carry_line, final=True):
            if isinstance(item, RawGame):
                yield item
