"""Standard input and pipes, read once into a spool (in memory, or a temporary file past
`_SPOOL_MEMORY`) so that they can be opened again, by two readers at once. The process's
state (`_STDIN`, and `_SPOOL_MEMORY`, the spool's cap in memory) lives here and is read from
here when the code runs, so a patch on this module takes effect.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from typing import IO, BinaryIO, cast

from tracker.errors import BadInput
from tracker.files.archives import HEAD, Positioned, sources_of
from tracker.files.source import LimitExceeded, Limits, MiB, Source, size_text

_SPOOL_MEMORY = 32 * 1024 * 1024

# Standard input is read once per process and kept, so that it can be opened again.
_STDIN: IO[bytes] | None = None


def stdin_sources(limits: Limits) -> list[Source]:
    global _STDIN
    if _STDIN is None:
        _STDIN = _spool(sys.stdin.buffer, "-", limits)
    return spool_sources("-", _STDIN, limits)


def spool_path(path: str, name: str, limits: Limits) -> IO[bytes]:
    """A pipe named as a path, read once (it cannot be read a second time)."""
    try:
        with open(path, "rb") as f:
            return _spool(f, name, limits)
    except PermissionError:
        raise BadInput(f"{name}: permission denied; check the file's rights") from None
    except OSError as exc:
        raise BadInput(f"{name}: cannot be read ({exc})") from None


def _spool(stream: IO[bytes], name: str, limits: Limits) -> IO[bytes]:
    """All of `stream`: in memory up to 32 MB, beyond that in a temporary file; at most
    `limits.max_size` bytes (`cat /dev/zero | tracker import -` must not fill the disk)."""
    said = 0

    def count(block: bytes, total: int) -> int:
        nonlocal said
        total += len(block)
        if total > limits.max_size:
            raise LimitExceeded(
                f"{_spool_name(name)} holds more than {size_text(limits.max_size)}: refused "
                "(nothing of it was imported); if it is genuine, raise --max-size or name "
                "the file instead"
            )
        if limits.on_spool is not None and total - said >= 16 * MiB:
            said = total
            limits.on_spool(name, total)
        return total

    try:
        return _spooled(stream, name, count)
    finally:
        if said and limits.on_spool is not None:
            limits.on_spool(name, -1)


def _spooled(stream: IO[bytes], name: str, count: Callable[[bytes, int], int]) -> IO[bytes]:
    memory = io.BytesIO()
    total = 0
    while block := stream.read(1 << 20):
        total = count(block, total)
        memory.write(block)
        if memory.tell() > _SPOOL_MEMORY:
            try:
                disk = tempfile.TemporaryFile()  # noqa: SIM115 - kept for the process
                disk.write(memory.getbuffer())
                del memory
                while block := stream.read(1 << 20):
                    total = count(block, total)
                    disk.write(block)
                disk.flush()
            except LimitExceeded:
                disk.close()
                raise
            except OSError as exc:
                raise BadInput(
                    f"{name}: cannot be kept in a temporary file ({exc}); "
                    "free disk space or name a file instead"
                ) from None
            return disk
    return memory


def _spool_name(name: str) -> str:
    return "standard input" if name == "-" else name


def spool_source(name: str, spool: IO[bytes], limits: Limits | None = None) -> Source:
    """The first Source of `spool_sources` (a zip's first PGN member)."""
    return spool_sources(name, spool, limits or Limits())[0]


def spool_sources(name: str, spool: IO[bytes], limits: Limits) -> list[Source]:
    """The Sources over a seekable byte stream held elsewhere (standard input, a pipe, tests).

    Each `open()` reads from the start with its own position; what the stream holds
    (compressed data, a zip or tar and its members) is told by its first bytes.
    """
    reader = _SpoolReader(spool)

    def raw() -> BinaryIO:
        return cast(BinaryIO, io.BufferedReader(_SpoolView(reader), 1 << 20))

    head = reader.pread(0, HEAD)
    return sources_of(name, raw, reader.size(), head, 1, limits, None)


class _SpoolReader:
    """Reads at a position of a spool without a shared file position: threads (the content
    hash) and forked workers may read it at the same time."""

    def __init__(self, spool: IO[bytes]) -> None:
        self._spool = spool
        self._fd: int | None = None
        self._lock = threading.Lock()
        if not isinstance(spool, io.BytesIO):
            try:
                spool.flush()
                self._fd = spool.fileno()
            except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
                self._fd = None

    def size(self) -> int:
        if self._fd is not None:
            return os.fstat(self._fd).st_size
        if isinstance(self._spool, io.BytesIO):
            return len(self._spool.getbuffer())
        with self._lock:
            return self._spool.seek(0, os.SEEK_END)

    def pread(self, pos: int, n: int) -> bytes:
        if self._fd is not None:
            return os.pread(self._fd, n, pos)
        if isinstance(self._spool, io.BytesIO):
            with self._spool.getbuffer() as view:
                return bytes(view[pos : pos + n])
        with self._lock:
            self._spool.seek(pos)
            return self._spool.read(n)


class _SpoolView(Positioned):
    """An independent read position over a shared spool."""

    def __init__(self, reader: _SpoolReader) -> None:
        super().__init__()
        self._reader = reader
        self._pos = 0

    def _length(self) -> int:
        return self._reader.size()

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._reader.pread(self._pos, len(buffer))
        n = len(data)
        buffer[:n] = data
        self._pos += n
        return n
