"""Opening what the user names: files, folders, glob patterns, archives, standard input.

Pure standard library. `iter_sources(paths)` resolves every argument first (so a missing
path or an empty folder is reported before anything is imported) and hands out `Source`s:
a user-facing `name` and an `open()` that returns a fresh binary stream on every call.

- A file is read as PGN whatever its name (the user named it); `.gz`, `.bz2`, `.xz` and
  `.zip` names are decompressed while streaming, never unpacked to disk.
- A folder is searched recursively for `*.pgn`, `*.pgn.gz`, `*.pgn.bz2`, `*.pgn.xz` and
  `*.zip` (case-insensitive), in sorted order; other files are left alone.
- A zip yields one source per `.pgn` member (in the archive's order), named
  `"archive.zip:member.pgn"`.
- An argument that does not exist but contains `*`, `?` or `[` is a glob pattern
  (`**` recurses).
- `-` is standard input: read once into a `SpooledTemporaryFile` (memory up to 32 MB, then a
  temporary file), so it can be opened again; a gzip/bzip2/xz/zip stream is recognised by its
  first bytes.
- The same file named twice (directly and through a folder, say) is listed once.
"""

from __future__ import annotations

import bz2
import glob
import gzip
import io
import lzma
import os
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, BinaryIO, cast

from tracker.errors import BadInput, NotFound

PGN_SUFFIXES = (".pgn", ".pgn.gz", ".pgn.bz2", ".pgn.xz", ".zip")
"""What a folder search picks up (compared case-insensitively)."""

_GLOB_CHARS = "*?["
_SPOOL_MEMORY = 32 * 1024 * 1024

_MAGIC_GZIP = b"\x1f\x8b"
_MAGIC_BZIP2 = b"BZh"
_MAGIC_XZ = b"\xfd7zXZ\x00"
_MAGIC_ZIP = b"PK\x03\x04"


@dataclass(frozen=True)
class Source:
    """One PGN stream the user named: a file, an archive member or standard input."""

    name: str
    """What the user sees in reports: "games.pgn", "twic1427g.zip:twic1427.pgn", "-"."""
    opener: Callable[[], BinaryIO] = field(repr=False, compare=False)
    size: int | None = field(default=None, compare=False)
    """Bytes on disk (compressed size for archives) when known: for progress display."""

    def open(self) -> BinaryIO:
        """A fresh binary stream over the (decompressed) PGN bytes; the caller closes it."""
        try:
            return self.opener()
        except FileNotFoundError:
            raise NotFound(f"{self.name}: the file has disappeared; check the path") from None
        except PermissionError:
            raise BadInput(f"{self.name}: permission denied; check the file's rights") from None
        except (OSError, zipfile.BadZipFile, EOFError, lzma.LZMAError) as exc:
            raise BadInput(f"{self.name}: cannot be opened ({exc}); is it damaged?") from None


def iter_sources(paths: Sequence[str]) -> Iterator[Source]:
    """Every PGN source the arguments name, in order (resolved eagerly: errors come first).

    Raises NotFound for a missing path, a glob that matches nothing or a folder without PGN,
    BadInput for a zip without `.pgn` members or one that is not a zip at all.
    """
    found: list[Source] = []
    seen: set[str] = set()

    def add(source: Source, key: str) -> None:
        if key not in seen:
            seen.add(key)
            found.append(source)

    if not paths:
        raise BadInput("no file named: give PGN files, folders, glob patterns or - for stdin")
    for arg in paths:
        if arg == "-":
            add(_stdin_source(), "-")
        elif os.path.isdir(arg):
            files = _walk(arg)
            if not files:
                raise NotFound(
                    f"folder {arg} holds no PGN files ({', '.join(PGN_SUFFIXES)}); "
                    "name the files or another folder"
                )
            for path in files:
                for source in _file_sources(path, arg_named=False):
                    add(source, _key(source, path))
        elif os.path.exists(arg):
            for source in _file_sources(arg, arg_named=True):
                add(source, _key(source, arg))
        elif any(c in arg for c in _GLOB_CHARS):
            matches = sorted(glob.glob(arg, recursive=True))
            if not matches:
                raise NotFound(f"no file matches {arg}; check the pattern")
            for match in matches:
                if os.path.isdir(match):
                    for path in _walk(match):
                        for source in _file_sources(path, arg_named=False):
                            add(source, _key(source, path))
                else:
                    for source in _file_sources(match, arg_named=True):
                        add(source, _key(source, match))
        else:
            raise NotFound(f"no such file or folder: {arg}")
    return iter(found)


def _key(source: Source, path: str) -> str:
    real = os.path.realpath(path)
    member = source.name.rpartition(":")[2] if ":" in source.name else ""
    return f"{real}:{member}"


def _is_pgn_name(name: str) -> bool:
    return name.lower().endswith(PGN_SUFFIXES)


def _walk(folder: str) -> list[str]:
    files: list[str] = []
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        files.extend(os.path.join(root, n) for n in sorted(names) if _is_pgn_name(n))
    return files


def _size(path: str) -> int | None:
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def _file_sources(path: str, *, arg_named: bool) -> list[Source]:
    """The sources of one file: itself, or the `.pgn` members of a zip."""
    lower = path.lower()
    if lower.endswith(".zip"):
        return _zip_sources(path)
    if os.path.isdir(path):  # pragma: no cover - callers pass files
        return []
    if lower.endswith(".gz"):
        return [Source(path, lambda: _as_binary(gzip.open(path, "rb")), _size(path))]
    if lower.endswith(".bz2"):
        return [Source(path, lambda: _as_binary(bz2.open(path, "rb")), _size(path))]
    if lower.endswith(".xz"):
        return [Source(path, lambda: _as_binary(lzma.open(path, "rb")), _size(path))]
    return [Source(path, lambda: _as_binary(open(path, "rb")), _size(path))]


def _zip_members(zf: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    return [i for i in zf.infolist() if not i.is_dir() and i.filename.lower().endswith(".pgn")]


def _zip_sources(path: str) -> list[Source]:
    try:
        with zipfile.ZipFile(path) as zf:
            members = _zip_members(zf)
    except FileNotFoundError:
        raise NotFound(f"no such file: {path}") from None
    except (zipfile.BadZipFile, OSError) as exc:
        raise BadInput(f"{path} is not a readable zip archive ({exc})") from None
    if not members:
        raise BadInput(f"{path} holds no .pgn file; name a zip with PGN inside")
    sources = []
    for info in members:
        name = info.filename

        def opener(name: str = name) -> BinaryIO:
            zf = zipfile.ZipFile(path)
            return _as_binary(io.BufferedReader(_ZipMember(zf, zf.open(name)), 1 << 20))

        sources.append(Source(f"{path}:{name}", opener, info.compress_size))
    return sources


class _ZipMember(io.RawIOBase):
    """A zip member stream that closes its archive with it."""

    def __init__(self, zf: zipfile.ZipFile, member: IO[bytes]) -> None:
        super().__init__()
        self._zf = zf
        self._member = member

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._member.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        return n

    def read(self, size: int = -1) -> bytes:
        return self._member.read(size)

    def close(self) -> None:
        if not self.closed:
            self._member.close()
            self._zf.close()
        super().close()


def _as_binary(stream: object) -> BinaryIO:
    return cast(BinaryIO, stream)


# Standard input is read once per process and kept, so that it can be opened again.
_STDIN: tempfile.SpooledTemporaryFile[bytes] | None = None


def _stdin_source() -> Source:
    global _STDIN
    if _STDIN is None:
        spool: tempfile.SpooledTemporaryFile[bytes] = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            max_size=_SPOOL_MEMORY
        )
        stdin = sys.stdin.buffer
        while True:
            block = stdin.read(1 << 20)
            if not block:
                break
            spool.write(block)
        _STDIN = spool
    return spool_source("-", _STDIN)


def spool_source(name: str, spool: IO[bytes]) -> Source:
    """A Source over a seekable byte stream held elsewhere (standard input, tests).

    Each `open()` reads from the start with its own position; compressed data (gzip, bzip2,
    xz, a zip's first `.pgn` member) is recognised by its first bytes.
    """

    def raw() -> BinaryIO:
        return cast(BinaryIO, io.BufferedReader(_SpoolView(spool), 1 << 20))

    spool.seek(0)
    head = spool.read(8)
    size = spool.seek(0, os.SEEK_END)
    if head.startswith(_MAGIC_GZIP):
        return Source(name, lambda: _as_binary(gzip.GzipFile(fileobj=raw(), mode="rb")), size)
    if head.startswith(_MAGIC_BZIP2):
        return Source(name, lambda: _as_binary(bz2.BZ2File(raw(), "rb")), size)
    if head.startswith(_MAGIC_XZ):
        return Source(name, lambda: _as_binary(lzma.LZMAFile(raw(), "rb")), size)
    if head.startswith(_MAGIC_ZIP):
        try:
            with zipfile.ZipFile(raw()) as zf:
                members = _zip_members(zf)
        except zipfile.BadZipFile as exc:
            raise BadInput(f"{name}: not a readable zip archive ({exc})") from None
        if not members:
            raise BadInput(f"{name}: the zip holds no .pgn file")
        first = members[0].filename

        def member() -> BinaryIO:
            zf = zipfile.ZipFile(raw())
            return _as_binary(io.BufferedReader(_ZipMember(zf, zf.open(first)), 1 << 20))

        return Source(name, member, size)
    return Source(name, raw, size)


class _SpoolView(io.RawIOBase):
    """An independent read position over a shared seekable stream."""

    def __init__(self, spool: IO[bytes]) -> None:
        super().__init__()
        self._spool = spool
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        if whence == os.SEEK_SET:
            self._pos = offset
        elif whence == os.SEEK_CUR:
            self._pos += offset
        else:
            self._pos = self._spool.seek(0, os.SEEK_END) + offset
        return self._pos

    def tell(self) -> int:
        return self._pos

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        self._spool.seek(self._pos)
        data = self._spool.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self._pos += n
        return n
