"""The byte stream as the readers see it: whole lines of UTF-8 (or a single-byte code
page) with LF line ends (standard library only).

`blocks` reads a binary stream (a read error is a `BadInput` naming the source), converts
UTF-16/32 to UTF-8 and every line end (CRLF, CR CR LF, CR alone) to one LF; `chunks` cuts
the blocks at whole lines, with the line cap `MAX_LINE`; `text_lines` decodes them one by
one; `LineCount` counts lines as `blocks` does, `drop_boms` removes byte order marks. Line
ends are converted and counted by the C extension when it runs (`native`). The
line machine (`machine`), the fast scanner (`scan`) and the reference reader (`reference`)
all read through here.
"""

from __future__ import annotations

import codecs
import lzma
import re
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from tracker.errors import BadInput
from tracker.pgn.decode import decode_text
from tracker.pgn.native import SPEEDUPS, Speedups

MAX_LINE = 1 << 20
"""Longest line kept (bytes); the rest of a longer line is dropped with a problem."""
BLOCK = MAX_LINE
"""Bytes read from the stream at a time (at most MAX_LINE: see `chunks`)."""
BOM = b"\xef\xbb\xbf"


def drop_boms(data: bytes) -> bytes:
    """`data` without byte order marks, also those that removing one makes (b"\xef" + BOM +
    b"\xbb\xbf"): removing them again finds none (the fast scanner and the line machine
    both remove them, so one pass must leave nothing for the other)."""
    while BOM in data:
        data = data.replace(BOM, b"")
    return data


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


def blocks(stream: BinaryIO, source: str, speedups: Speedups | None = SPEEDUPS) -> Iterator[bytes]:
    """The bytes of `stream` as UTF-8 or a single-byte code page with LF line ends; a read
    error is a BadInput naming the source.

    A UTF-16 or UTF-32 stream (`wide_encoding`) is converted to UTF-8. Each line end
    (`_LINE_END`: CRLF, CR CR LF, CR alone) becomes one LF, so line numbers count a CR alone
    as a line end. `speedups`: the C extension's conversion (`native`), or None.
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
            if speedups is not None:
                block = speedups.to_lf(block)
            else:
                block = block.replace(b"\r\n", b"\n")
                if b"\r" in block:
                    block = _LINE_END.sub(b"\n", block)
        if block:
            yield block
    if held:
        yield b"\n" * len(held)


class LineCount:
    """The lines of a stream read in pieces, counted as `blocks` counts them (for the import
    workers, which number the games of a part by the lines of the parts before it).
    `speedups`: the C extension's count (`native`), or None."""

    def __init__(self, speedups: Speedups | None = SPEEDUPS) -> None:
        self._ends = 0
        self._held = 0  # CRs the last piece ended in (one line end each unless an LF follows)
        self._speedups = speedups

    def feed(self, data: bytes) -> None:
        if self._speedups is not None:
            ends, self._held = self._speedups.line_ends(data, self._held)
            self._ends += ends
            return
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
    stream: BinaryIO, source: str, first_line: int = 1, speedups: Speedups | None = SPEEDUPS
) -> Iterator[tuple[bytes, int, dict[int, str]]]:
    """(whole lines each ending in a newline, number of the first line, cut lines' problems).

    `first_line` is the number of the stream's first line (a part of a file: see
    `scan.game_cuts`); `speedups` as for `blocks`.

    A line longer than MAX_LINE bytes keeps its first MAX_LINE bytes; the rest is dropped.
    Lines within one block are never longer than BLOCK <= MAX_LINE, so only a line that
    spans blocks can be too long.
    """
    lineno = first_line
    rest = b""
    skipping = False  # dropping the tail of an over-long line
    for block in blocks(stream, source, speedups):
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
        lineno += whole.count(b"\n") if speedups is None else speedups.count_lf(whole)
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
