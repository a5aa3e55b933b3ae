"""The reading rules, one line at a time (standard library only).

`Machine` is the definition of what `read_games` yields; the fast scanner (`scan`) hands it
everything that is not a plain header block followed by plain movetext. `lines_of` and
`read_games_slow` read a whole stream through it alone (tests compare both paths).
"""

from __future__ import annotations

import codecs
import hashlib
import lzma
import re
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import BinaryIO

from tracker.errors import BadInput
from tracker.model import RawGame
from tracker.pgn.decode import decode_text, unescape
from tracker.pgn.moves import canonical, digest_of, has_move, new_hasher

MAX_LINE = 1 << 20
"""Longest line kept (bytes); the rest of a longer line is dropped with a problem."""
MAX_TAGS = 500
"""Most tags kept per game; further tags are dropped with one problem, except STORED_TAGS."""
STORED_TAGS = frozenset({
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteElo", "BlackElo",
    "WhiteFideId", "BlackFideId", "WhiteTitle", "BlackTitle", "TimeControl", "EventDate",
    "Termination", "Variant", "FEN", "SetUp", "WhiteRatingDiff", "BlackRatingDiff", "WhiteRD",
    "BlackRD",
})
"""The tags the importer reads: kept wherever they stand, even past MAX_TAGS (a game whose
White tag came after 500 others was skipped for want of a White player)."""
MAX_VALUE = 4096
"""Longest tag value kept (characters); a longer value is cut with a problem."""
KEPT_CAP = 1 << 18
"""Mainline text held before it is folded into the digest (bytes)."""
BLOCK = MAX_LINE
"""Bytes read from the stream at a time (at most MAX_LINE: see `chunks`)."""

TAG_LINE = re.compile(r"^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+\"([^\r]*)\"\]\s*$")
"""python-chess's TAG_REGEX: what a tag line is, applied to one decoded line."""
GAME_START = re.compile(rb"\[[A-Za-z0-9]")
BOM = b"\xef\xbb\xbf"
_SPECIAL = re.compile(rb"[{}();]")

IDLE, HEADER, GAP, MOVES, JUNK = range(5)


class Machine:
    """Feeds on lines (bytes without the newline) and completes games."""

    def __init__(self) -> None:
        self.state = IDLE
        self.blank_before = True  # the previous line was blank (or there was none)
        self._reset(0)

    def _reset(self, line: int) -> None:
        self.line = line
        self.tags: dict[str, str] = {}
        self.problems: list[str] = []
        self.kept: list[bytes] = []
        self.kept_len = 0
        self.hasher: hashlib.blake2b | None = None
        self.moved = False
        self.in_comment = False
        self.comment_line = 0
        self.depth = 0
        self.dropped_tags = 0
        self.nul_seen = False

    # -- games

    def _game(self) -> RawGame:
        if self.in_comment:
            self.problems.append(
                f"line {self.comment_line}: a comment opened with {{ is never closed"
            )
        if self.dropped_tags:
            self.problems.append(f"{self.dropped_tags} tags beyond the first {MAX_TAGS} ignored")
        if self.state == JUNK:
            game = RawGame({}, "", False, self.line, tuple(self.problems))
        else:
            canon = canonical(b"\n".join(self.kept))
            hasher = self.hasher
            if hasher is None:
                hex_digest = digest_of(canon)
            else:  # a long movetext, folded into the hash as it came
                hasher.update(canon)
                hex_digest = hasher.hexdigest() if self.moved or has_move(canon) else ""
            game = RawGame(self.tags, hex_digest, bool(hex_digest), self.line, tuple(self.problems))
        self.state = IDLE
        self._reset(0)
        return game

    def finish(self) -> RawGame | None:
        """The game in progress, if any (at the end of the stream or before a new game)."""
        if self.state == IDLE:
            return None
        return self._game()

    def add_problem(self, problem: str) -> None:
        self.problems.append(problem)

    # -- lines

    def feed(self, text: bytes, lineno: int) -> RawGame | None:
        """Consume one line; return the game this line completed, if any."""
        if text.endswith(b"\r"):
            text = text.rstrip(b"\r")
        if BOM in text:
            text = drop_boms(text)
        blank = not text.strip()
        blank_before, self.blank_before = self.blank_before, blank
        state = self.state
        if self.in_comment:
            if blank:
                return None
            if blank_before and GAME_START.match(text):
                done = self._game()
                self._start_header(text, lineno)
                return done
            self._movetext(text, lineno)
            return None
        if blank:
            if state == HEADER:
                self.state = GAP
            elif state == MOVES:
                return self._game()
            return None
        first = text[:1]
        if first == b"%":
            return None
        if state == IDLE:
            if first == b"[":
                self._start_header(text, lineno)
            elif first != b";":
                self._reset(lineno)
                self.state = JUNK
                self.problems.append("text outside any game (no tag header before it): ignored")
            return None
        if state == JUNK:
            if first == b"[" and GAME_START.match(text):
                done = self._game()
                self._start_header(text, lineno)
                return done
            return None
        if first == b";":
            return None
        if state != MOVES:  # HEADER or GAP
            if first == b"[":
                if state == GAP:
                    name = _tag_name(text)
                    if name is not None and name in self.tags:
                        done = self._game()
                        self._start_header(text, lineno)
                        return done
                self.state = HEADER
                self._tag(text, lineno)
                return None
            self.state = MOVES
            self._movetext(text, lineno)
            return None
        if first == b"[" and _tag_name(text) is not None:
            done = self._game()
            self._start_header(text, lineno)
            return done
        self._movetext(text, lineno)
        return None

    def _start_header(self, text: bytes, lineno: int) -> None:
        self._reset(lineno)
        self.state = HEADER
        self._tag(text, lineno)

    def _tag(self, text: bytes, lineno: int) -> None:
        line = decode_text(text)
        m = TAG_LINE.match(line)
        if m is None:
            shown = line if len(line) <= 60 else line[:57] + "..."
            shown = shown.replace("\x00", "\\x00")
            self.problems.append(f"line {lineno}: not a tag pair, ignored: {shown}")
            return
        name, value = m.group(1), unescape(m.group(2))
        if "\x00" in value:
            # Never stored: a NUL would make another player, event... that looks the same.
            value = value.replace("\x00", "")
            self.problems.append(
                f"line {lineno}: NUL bytes in tag {name}: removed; is this a binary file?"
            )
        if name in self.tags:
            self.problems.append(f"line {lineno}: tag {name} given twice; the last is kept")
        elif len(self.tags) >= MAX_TAGS and name not in STORED_TAGS:
            self.dropped_tags += 1
            return
        if len(value) > MAX_VALUE:
            self.problems.append(
                f"line {lineno}: tag {name} is longer than {MAX_VALUE} characters: cut"
            )
            value = value[:MAX_VALUE]
        self.tags[name] = value

    def _movetext(self, text: bytes, lineno: int) -> None:
        if b"\x00" in text and not self.nul_seen:
            self.nul_seen = True
            self.problems.append(f"line {lineno}: NUL bytes in the moves: is this a binary file?")
        pos = 0
        end = len(text)
        kept: list[bytes] = []
        while pos < end:
            if self.in_comment:
                close = text.find(b"}", pos)
                if close < 0:
                    break
                self.in_comment = False
                pos = close + 1
                continue
            m = _SPECIAL.search(text, pos)
            stop = end if m is None else m.start()
            if self.depth == 0 and stop > pos:
                kept.append(text[pos:stop])
            if m is None:
                break
            pos = stop + 1
            c = text[stop]
            if c == 0x7B:  # {
                self.in_comment = True
                self.comment_line = lineno
            elif c == 0x3B:  # ;
                break
            elif c == 0x28:  # (
                self.depth += 1
            elif c == 0x29 and self.depth:  # )
                self.depth -= 1
        if kept:
            piece = b" ".join(kept)
            self.kept.append(piece)
            self.kept_len += len(piece) + 1
            if self.kept_len > KEPT_CAP:
                self._fold()

    def _fold(self) -> None:
        """Fold the mainline text held so far into the digest, up to its last whitespace."""
        held = b"\n".join(self.kept)
        cut = max(held.rfind(b" "), held.rfind(b"\n"), held.rfind(b"\t"))
        if cut <= 0:
            return
        head, tail = held[:cut], held[cut:]
        canon = canonical(head, final=False)
        if canon:
            if self.hasher is None:
                self.hasher = new_hasher()
            self.hasher.update(canon)
            self.moved = self.moved or has_move(canon)
        self.kept = [tail]
        self.kept_len = len(tail)


def drop_boms(data: bytes) -> bytes:
    """`data` without byte order marks, also those that removing one makes (b"\xef" + BOM +
    b"\xbb\xbf"): removing them again finds none (the fast scanner and the line machine
    both remove them, so one pass must leave nothing for the other)."""
    while BOM in data:
        data = data.replace(BOM, b"")
    return data


def _tag_name(text: bytes) -> str | None:
    m = TAG_LINE.match(decode_text(text))
    return m.group(1) if m else None


# ---------------------------------------------------------------------------------------
# The stream in chunks of whole lines, with the line cap.

READ_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error, zipfile.BadZipFile)


_WIDE = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE: its BOM starts the same
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_WIDE_TAG = re.compile(rb"\[\x00[A-Za-z0-9]\x00|\x00\[\x00[A-Za-z0-9]")


def wide_encoding(head: bytes) -> str | None:
    """The codec of a stream starting with `head` when it is UTF-16 or UTF-32: by its byte
    order mark (Windows PowerShell's `>` writes UTF-16 LE with one), or UTF-16 without one
    when it starts with a tag (`[` and a letter, each with a zero byte). None otherwise."""
    for bom, codec in _WIDE:
        if head.startswith(bom):
            return codec
    m = _WIDE_TAG.match(head)
    if m is None:
        return None
    return "utf-16-le" if head[:1] == b"[" else "utf-16-be"


def _as_utf8(first: bytes, rest: Iterator[bytes], codec: str) -> Iterator[bytes]:
    """UTF-16/32 blocks as UTF-8 (a broken character becomes U+FFFD, never an error)."""
    decoder = codecs.getincrementaldecoder(codec)(errors="replace")
    for block in _chain(first, rest):
        text = decoder.decode(block).encode()
        for at in range(0, len(text), BLOCK):  # at most BLOCK bytes, as `chunks` expects
            yield text[at : at + BLOCK]
    yield decoder.decode(b"", final=True).encode()


def _read_blocks(stream: BinaryIO, source: str) -> Iterator[bytes]:
    while True:
        try:
            block = stream.read(BLOCK)
        except READ_ERRORS as exc:
            raise BadInput(
                f"{source}: the file cannot be read to the end ({exc}); is it damaged?"
            ) from None
        if not block:
            return
        yield block


_LINE_END = re.compile(rb"\r+\n|\r")
"""Where a line ends besides LF: CRLF (CR CR LF too: a CRLF file converted once more by a
text-mode copy, one line end as `grep -n` and vim count it), or CR alone (old Mac files; a
stray CR in a LF file, as Python's universal newlines and most editors read it)."""


def _line_ends_of(data: bytes) -> int:
    if b"\r\r" in data:
        return len(_LINE_END.findall(data)) + data.count(b"\n") - data.count(b"\r\n")
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


def blocks(stream: BinaryIO, source: str) -> Iterator[bytes]:
    """The bytes of `stream` as UTF-8 or a single-byte code page with LF line ends; a read
    error is a BadInput naming the source.

    A UTF-16 or UTF-32 stream (`wide_encoding`) is converted to UTF-8. Each line end
    (`_LINE_END`: CRLF, CR CR LF, CR alone) becomes one LF, so line numbers count a CR alone
    as a line end.
    """
    raw = _read_blocks(stream, source)
    first = next(raw, b"")
    if not first:
        return
    codec = wide_encoding(first[:4])
    stream_blocks: Iterable[bytes] = (
        _as_utf8(first, raw, codec) if codec is not None else _chain(first, raw)
    )
    held = b""  # the CRs the last block ended in: an LF may follow in the next one
    for block in stream_blocks:
        if held:
            block = held + block
            held = b""
        if b"\r" in block:
            if block[-1:] == b"\r":
                kept = block.rstrip(b"\r")
                held = block[len(kept) :]
                block = kept
            block = block.replace(b"\r\n", b"\n")
            if b"\r" in block:
                block = _LINE_END.sub(b"\n", block)
        if block:
            yield block
    if held:
        yield b"\n" * len(held)


class LineCount:
    """The lines of a stream read in pieces, counted as `blocks` counts them (for the import
    workers, which number the games of a part by the lines of the parts before it)."""

    def __init__(self) -> None:
        self._ends = 0
        self._held = 0  # CRs the last piece ended in (one line end each unless an LF follows)

    def feed(self, data: bytes) -> None:
        if self._held:
            data = b"\r" * self._held + data
        kept = data.rstrip(b"\r") if data[-1:] == b"\r" else data
        self._held = len(data) - len(kept)
        self._ends += _line_ends_of(kept) if b"\r" in kept else kept.count(b"\n")

    @property
    def lines(self) -> int:
        """Line ends so far (the CRs of the end as if the stream ended there)."""
        return self._ends + self._held


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest


def cut_problem(lineno: int) -> str:
    return f"line {lineno}: longer than {MAX_LINE} bytes: the rest of the line is ignored"


def chunks(
    stream: BinaryIO, source: str, first_line: int = 1
) -> Iterator[tuple[bytes, int, dict[int, str]]]:
    """(whole lines each ending in a newline, number of the first line, cut lines' problems).

    `first_line` is the number of the stream's first line (a part of a file: see
    `scan.game_cuts`).

    A line longer than MAX_LINE bytes keeps its first MAX_LINE bytes; the rest is dropped.
    Lines within one block are never longer than BLOCK <= MAX_LINE, so only a line that
    spans blocks can be too long.
    """
    lineno = first_line
    rest = b""
    skipping = False  # dropping the tail of an over-long line
    for block in blocks(stream, source):
        if skipping:
            nl = block.find(b"\n")
            if nl < 0:
                continue
            skipping = False
            block = block[nl + 1 :]
            if not block:
                continue
        data = rest + block if rest else block
        end = data.rfind(b"\n")
        if end < 0:
            if len(data) > MAX_LINE:
                yield data[:MAX_LINE] + b"\n", lineno, {lineno: cut_problem(lineno)}
                lineno += 1
                rest = b""
                skipping = True
            else:
                rest = data
            continue
        cuts: dict[int, str] = {}
        first = data.find(b"\n")
        if first > MAX_LINE:
            cuts[lineno] = cut_problem(lineno)
            data = data[:MAX_LINE] + data[first:]
            end = data.rfind(b"\n")
        whole, rest = data[: end + 1], data[end + 1 :]
        yield whole, lineno, cuts
        lineno += whole.count(b"\n")
    if rest and not skipping:
        yield rest + b"\n", lineno, {}


def text_lines(stream: BinaryIO, source: str) -> Iterator[str]:
    """The lines of `stream` as `read_games` reads and numbers them (the Nth is line N),
    each decoded by `decode_text` and ending in a newline: UTF-16/32 read as UTF-8, CRLF and
    CR alone ending a line, a line longer than MAX_LINE bytes cut. For `--validate`, which
    hands a game's lines to `validate_moves`."""
    for data, _, _ in chunks(stream, source):
        lines = data.split(b"\n")
        lines.pop()  # after the last newline
        for line in lines:
            yield decode_text(line) + "\n"


def read_games_slow(stream: BinaryIO, source: str) -> Iterator[RawGame]:
    """`read_games` one line at a time through `Machine` (the rules themselves)."""
    machine = Machine()
    pending: list[str] = []
    for data, first, cuts in chunks(stream, source):
        lines = data.split(b"\n")
        lines.pop()  # after the last newline
        for lineno, text in enumerate(lines, first):
            done = machine.feed(text, lineno)
            if cuts and lineno in cuts:
                pending.append(cuts[lineno])
            if pending:
                if machine.state != IDLE:
                    machine.problems.extend(pending)
                    pending.clear()
                elif done is not None:
                    done = replace(done, problems=done.problems + tuple(pending))
                    pending.clear()
            if done is not None:
                yield done
    done = machine.finish()
    if done is not None:
        if pending:
            done = replace(done, problems=done.problems + tuple(pending))
        yield done
