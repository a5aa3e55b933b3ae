"""gzip, bzip2 and xz, told by their first bytes and decompressed while streaming, within
the `Limits` of the source: bytes out, and bytes out per byte in.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import operator
import os
from collections.abc import Callable
from typing import BinaryIO, SupportsIndex

from tracker.files.source import (
    RATIO_FLOOR,
    LimitExceeded,
    Limits,
    MiB,
    Opener,
    as_binary,
    size_text,
)

_MAGIC_GZIP = b"\x1f\x8b"
_MAGIC_BZIP2 = b"BZh"
_MAGIC_XZ = b"\xfd7zXZ\x00"


def compression(head: bytes) -> Callable[[BinaryIO, str, Limits], Limited] | None:
    """The decompressing stream class for a stream starting with `head` (gzip, bzip2, xz)."""
    if head.startswith(_MAGIC_GZIP):
        return _Gzip
    if head.startswith(_MAGIC_BZIP2) and head[3:4].isdigit():  # BZh1..BZh9
        return _Bzip2
    if head.startswith(_MAGIC_XZ):
        return _Xz
    return None


def decompressor(head: bytes, opener: Opener, name: str, limits: Limits) -> Opener | None:
    """How to open the decompressed stream, when `head` starts a gzip, bzip2 or xz stream."""
    kind = compression(head)
    if kind is None:
        return None
    return lambda: as_binary(kind(opener(), name, limits))


class Limited(io.BufferedIOBase):
    """A decompressing stream (first in the bases of a gzip/bz2/lzma file class) that keeps
    to `Limits` (bytes out, and bytes out per byte in: checked at every read, which is never
    of more than a MiB at a time) and closes the stream it reads from with it."""

    _raw: BinaryIO
    _name: str
    _limits: Limits

    def _setup(self, raw: BinaryIO, name: str, limits: Limits) -> None:
        self._raw = raw
        self._name = name
        self._limits = limits

    def _check(self) -> None:
        # The decompressed position (GzipFile's own tell() is a seek(0, 1): back to here).
        out: int = vars(self)["_buffer"].tell()
        if out > self._limits.max_size:
            raise LimitExceeded(
                f"{self._name}: more than {size_text(self._limits.max_size)} once decompressed: "
                "refused (a decompression bomb?); if the file is genuine, raise --max-size"
            )
        if out > RATIO_FLOOR:
            packed = max(1, self._raw.tell())
            if out > packed * self._limits.max_ratio:
                raise LimitExceeded(
                    f"{self._name}: decompresses to over {self._limits.max_ratio:,} times its "
                    "size: refused as a decompression bomb; if the file is genuine, raise "
                    "--max-ratio"
                )

    def position(self) -> int | None:
        """How far into the compressed bytes the decompression has read (for progress);
        None when the stream beneath cannot tell (a member of a zip)."""
        try:
            return int(self._raw.tell())
        except (OSError, ValueError, AttributeError):
            return None

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0 or size > MiB:
            parts = []
            left = -1 if size is None or size < 0 else size
            while left and (part := self.read(MiB if left < 0 else min(left, MiB))):
                parts.append(part)
                left = left - len(part) if left > 0 else left
            return b"".join(parts)
        data: bytes = super().read(size)
        self._check()
        return data

    def read1(self, size: int = -1) -> bytes:
        data: bytes = super().read1(MiB if size < 0 or size > MiB else size)
        self._check()
        return data

    def readline(self, size: SupportsIndex | None = -1) -> bytes:
        parts = []
        left = -1 if size is None else max(-1, operator.index(size))
        while left:
            part: bytes = super().readline(MiB if left < 0 else min(left, MiB))
            self._check()
            if not part:
                break
            parts.append(part)
            if part.endswith(b"\n"):
                break
            left = left - len(part) if left > 0 else left
        return b"".join(parts)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        if whence == os.SEEK_END:  # the end is found by reading to it: a MiB at a time
            while self.read(MiB):
                pass
        elif whence == os.SEEK_SET and offset > self.tell() + MiB:
            while self.tell() < offset - MiB and self.read(MiB):  # forward, likewise
                pass
        pos: int = super().seek(offset, whence)
        self._check()
        return pos

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._raw.close()


class _Gzip(Limited, gzip.GzipFile):
    def __init__(self, raw: BinaryIO, name: str, limits: Limits) -> None:
        self._setup(raw, name, limits)
        super().__init__(fileobj=raw, mode="rb")


class _Bzip2(Limited, bz2.BZ2File):
    def __init__(self, raw: BinaryIO, name: str, limits: Limits) -> None:
        self._setup(raw, name, limits)
        super().__init__(raw, "rb")


class _Xz(Limited, lzma.LZMAFile):
    def __init__(self, raw: BinaryIO, name: str, limits: Limits) -> None:
        self._setup(raw, name, limits)
        super().__init__(raw, "rb")
