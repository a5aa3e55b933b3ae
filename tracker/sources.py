"""Opening what the user names: files, folders, glob patterns, archives, standard input.

Pure standard library. `iter_sources(paths)` resolves every argument first (so a missing
path or an empty folder is reported before anything is imported) and hands out `Source`s:
a user-facing `name` and an `open()` that returns a fresh binary stream on every call.

- What a file holds is told by its first bytes, whatever its name: gzip, bzip2 and xz are
  decompressed while streaming, a zip or a tar (plain or compressed: `.tar.gz`, `.tgz`,
  `.tar.bz2`, `.tar.xz`...) yields its members, anything else is read as PGN (the user named
  it). Nothing is ever unpacked to disk. A `.zip` name holding none of these is refused.
- A folder is searched recursively for `PGN_SUFFIXES` (case-insensitive), in sorted order;
  other files are left alone.
- An archive yields one source per member named like a PGN file or an archive (in the
  archive's order), named `"archive.zip:member.pgn"`; an archive inside an archive is read
  the same way (`"a.zip:b.tar.gz:c.pgn"`), down to `MAX_NESTING` archives; deeper, the member
  is refused with a clear line when imported.
- An argument that does not exist but contains `*`, `?` or `[` is a glob pattern
  (`**` recurses).
- `-` is standard input, and a pipe named as a path (`<(cat f.pgn)`, `/dev/stdin`, a FIFO)
  is read once too: kept in memory up to 32 MB, beyond in a temporary file, so it can be
  opened again (and by two readers at once: reads never share a file position).
  A device (a terminal, /dev/zero) is refused.
- Names shown and stored are valid text: bytes of a file name that are not UTF-8 are shown
  escaped (`Open_\\x8e.pgn`), while the file itself is still opened by its real name.
- The same file named twice (directly and through a folder, say) is listed once.
"""

from __future__ import annotations

import bz2
import glob
import gzip
import io
import lzma
import os
import stat
import sys
import tarfile
import tempfile
import threading
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, BinaryIO, cast

from tracker.errors import BadInput, NotFound

PGN_SUFFIXES = (
    ".pgn", ".pgn.gz", ".pgn.bz2", ".pgn.xz", ".zip",
    ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz",
)
"""What a folder search picks up, and which archive members are read (case-insensitive)."""

MAX_NESTING = 3
"""Archives inside archives read at most this deep (the outermost counts as 1)."""

_GLOB_CHARS = "*?["
_SPOOL_MEMORY = 32 * 1024 * 1024
_HEAD = 512  # bytes looked at to tell what a stream holds (a tar header is 512)

_MAGIC_GZIP = b"\x1f\x8b"
_MAGIC_BZIP2 = b"BZh"
_MAGIC_XZ = b"\xfd7zXZ\x00"
_MAGIC_ZIP = (b"PK\x03\x04", b"PK\x05\x06")  # a zip, an empty zip
_READ_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error, zipfile.BadZipFile,
                tarfile.TarError, RuntimeError, NotImplementedError)

Opener = Callable[[], BinaryIO]


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
        except RuntimeError as exc:
            if "encrypted" in str(exc):
                raise BadInput(f"{self.name}: the archive member is encrypted; unpack it with "
                               "its password and import the files") from None
            raise BadInput(f"{self.name}: cannot be opened ({exc}); is it damaged?") from None
        except _READ_ERRORS as exc:
            raise BadInput(f"{self.name}: cannot be opened ({exc}); is it damaged?") from None


def iter_sources(paths: Sequence[str]) -> Iterator[Source]:
    """Every PGN source the arguments name, in order (resolved eagerly: errors come first).

    Raises NotFound for a missing path, a glob that matches nothing or a folder without PGN,
    BadInput for an archive without PGN members, a `.zip` that is not a zip at all, a tar
    that cannot be read, or a device.
    """
    found: list[Source] = []
    seen: set[str] = set()

    def add_file(path: str) -> None:
        top = shown(path)
        real = os.path.realpath(path)
        for source in _file_sources(path):
            key = real + source.name[len(top):]  # the member inside an archive, if any
            if key not in seen:
                seen.add(key)
                found.append(source)

    if not paths:
        raise BadInput("no file named: give PGN files, folders, glob patterns or - for stdin")
    for arg in paths:
        if arg == "-":
            for source in _stdin_sources():
                if source.name not in seen:
                    seen.add(source.name)
                    found.append(source)
        elif os.path.isdir(arg):
            files = _walk(arg)
            if not files:
                raise NotFound(
                    f"folder {shown(arg)} holds no PGN files ({', '.join(PGN_SUFFIXES)}); "
                    "name the files or another folder"
                )
            for path in files:
                add_file(path)
        elif os.path.exists(arg):
            add_file(arg)
        elif any(c in arg for c in _GLOB_CHARS):
            matches = sorted(glob.glob(arg, recursive=True))
            if not matches:
                raise NotFound(f"no file matches {shown(arg)}; check the pattern")
            for match in matches:
                if os.path.isdir(match):
                    for path in _walk(match):
                        add_file(path)
                else:
                    add_file(match)
        else:
            raise NotFound(f"no such file or folder: {shown(arg)}")
    return iter(found)


def shown(name: str) -> str:
    """A file name as valid text: bytes that are not UTF-8 (kept by Python as lone
    surrogates) are shown as `\\xNN` escapes, so the name can be printed and stored."""
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def _is_pgn_name(name: str) -> bool:
    return name.lower().endswith(PGN_SUFFIXES)


def _walk(folder: str) -> list[str]:
    files: list[str] = []
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        files.extend(os.path.join(root, n) for n in sorted(names) if _is_pgn_name(n))
    return files


def _as_binary(stream: object) -> BinaryIO:
    return cast(BinaryIO, stream)


# -- files ----------------------------------------------------------------------------------


def _file_sources(path: str) -> list[Source]:
    """The sources of one file: itself (decompressed), or the members of an archive."""
    name = shown(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise NotFound(f"no such file: {name}") from None
    except OSError:
        mode = stat.S_IFREG  # let open() say what is wrong, for this file only
    if stat.S_ISDIR(mode):  # pragma: no cover - callers pass files
        return []
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return _spool_sources(name, _spool_path(path, name))
    if not stat.S_ISREG(mode):
        raise BadInput(
            f"{name} is a device, not a file; name a PGN file, or pipe it: tracker import -"
        )
    size: int | None = os.path.getsize(path)

    def opener() -> BinaryIO:
        return _as_binary(open(path, "rb"))  # noqa: SIM115 - the caller closes it

    try:
        with opener() as f:
            head = f.read(_HEAD)
    except OSError:
        return [Source(name, opener, size)]  # open() will say what is wrong
    known = _decompressor(head, opener) is not None or _is_tar(head)
    if path.lower().endswith(".zip") and not known:
        return _zip_sources(name, opener, 1)  # a zip, or a clear "not a readable zip"
    return _sources_of(name, opener, size, head, 1)


def _sources_of(name: str, opener: Opener, size: int | None, head: bytes,
                depth: int) -> list[Source]:
    """What a stream starting with `head` holds: an archive's members, or itself as PGN
    (decompressed). `depth` counts the archives this stream would be (1: a file)."""
    inner = _decompressor(head, opener)
    if inner is not None:
        try:
            with inner() as f:
                head = f.read(_HEAD)
        except _READ_ERRORS:
            return [Source(name, inner, size)]  # damaged: reading it will say so
        opener = inner
    if head.startswith(_MAGIC_ZIP) or _is_tar(head):
        if depth > MAX_NESTING:
            return [_refused(name, f"an archive inside {MAX_NESTING} archives; unpack the "
                                   "outer ones and import the inner archive")]
        if _is_tar(head):
            return _tar_sources(name, opener, depth)
        return _zip_sources(name, opener, depth)
    return [Source(name, opener, size)]


def _is_tar(head: bytes) -> bool:
    return len(head) >= 262 and head[257:262] == b"ustar"


def _decompressor(head: bytes, opener: Opener) -> Opener | None:
    """How to open the decompressed stream, when `head` starts a gzip, bzip2 or xz stream."""
    if head.startswith(_MAGIC_GZIP):
        return lambda: _as_binary(_Gzip(opener()))
    if head.startswith(_MAGIC_BZIP2) and head[3:4].isdigit():  # BZh1..BZh9
        return lambda: _as_binary(_Bzip2(opener()))
    if head.startswith(_MAGIC_XZ):
        return lambda: _as_binary(_Xz(opener()))
    return None


class _ClosesRaw(io.BufferedIOBase):
    """A decompressing stream that closes the stream it reads from (first in the bases of
    a gzip/bz2/lzma file class: its `close` runs theirs, then closes `_raw`)."""

    _raw: BinaryIO

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._raw.close()


class _Gzip(_ClosesRaw, gzip.GzipFile):
    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        super().__init__(fileobj=raw, mode="rb")


class _Bzip2(_ClosesRaw, bz2.BZ2File):
    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        super().__init__(raw, "rb")


class _Xz(_ClosesRaw, lzma.LZMAFile):
    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        super().__init__(raw, "rb")


def _refused(name: str, why: str) -> Source:
    """A member that cannot be read: it fails (with `why`) when imported, the others go on."""

    def fail() -> BinaryIO:
        raise BadInput(why if why.startswith(name) else f"{name}: {why}")

    return Source(name, fail)


def _nested_failure(name: str, depth: int, exc: BadInput) -> list[Source]:
    """An archive's error: fatal for an archive the user named (errors come first), one
    failed member for an archive inside an archive (the other members are imported)."""
    if depth == 1:
        raise exc
    return [_refused(name, str(exc))]


# -- zip ------------------------------------------------------------------------------------


def _zip_sources(name: str, opener: Opener, depth: int) -> list[Source]:
    """A zip's members named like PGN (or archives), in the archive's order."""
    try:
        with opener() as stream, zipfile.ZipFile(stream) as zf:
            members = [i for i in zf.infolist() if not i.is_dir() and _is_pgn_name(i.filename)]
            heads = [_zip_head(zf, i) for i in members]
    except FileNotFoundError:
        raise NotFound(f"no such file: {name}") from None
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        return _nested_failure(name, depth, BadInput(
            f"{name} is not a readable zip archive ({exc})"))
    if not members:
        return _nested_failure(name, depth, BadInput(
            f"{name} holds no .pgn file; name a zip with PGN inside"))
    sources: list[Source] = []
    for info, head in zip(members, heads, strict=True):

        def member(info: zipfile.ZipInfo = info) -> BinaryIO:
            stream = opener()
            try:
                zf = zipfile.ZipFile(stream)
                return _as_binary(io.BufferedReader(_Member(zf.open(info), zf, stream), 1 << 20))
            except BaseException:
                stream.close()
                raise

        full = f"{name}:{info.filename}"
        if head is None:  # cannot be read (encrypted, damaged): open() will say why
            sources.append(Source(full, member, info.compress_size))
        else:
            sources.extend(_sources_of(full, member, info.compress_size, head, depth + 1))
    return sources


def _zip_head(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes | None:
    try:
        with zf.open(info) as f:
            return _packed(f.read(_HEAD))
    except _READ_ERRORS:
        return None


def _packed(head: bytes) -> bytes:
    """A member's first bytes, kept only when they start compressed data or an archive
    (plain PGN needs none of them: a zip of many members stays small in memory)."""
    if _decompressor(head, _no_opener) is not None or _is_tar(head):
        return head
    return head[:4] if head.startswith(_MAGIC_ZIP) else b""


def _no_opener() -> BinaryIO:  # pragma: no cover - never called: _packed only asks
    raise AssertionError("not to be opened")


class _Member(io.RawIOBase):
    """An archive member's stream that closes what it was read from with it."""

    def __init__(self, member: IO[bytes], *owned: zipfile.ZipFile | IO[bytes]) -> None:
        super().__init__()
        self._member = member
        self._owned = owned

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._member.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        return n

    def read(self, size: int = -1) -> bytes:
        return self._member.read(size)

    def seekable(self) -> bool:
        return self._member.seekable()

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self._member.seek(offset, whence)

    def tell(self) -> int:
        return self._member.tell()

    def close(self) -> None:
        if not self.closed:
            try:
                self._member.close()
            finally:
                for owned in self._owned:
                    owned.close()
        super().close()


# -- tar ------------------------------------------------------------------------------------


def _tar_sources(name: str, opener: Opener, depth: int) -> list[Source]:
    """A tar's regular members named like PGN (or archives), in the archive's order.

    Listed in one streaming pass (tarfile's "r|" mode: no member is held in memory); each
    member is then read as the slice of the (decompressed) archive that holds its bytes.
    """
    found: list[tuple[str, int, int, bool, bytes]] = []  # name, offset, size, sparse, head
    try:
        with opener() as stream, tarfile.open(fileobj=stream, mode="r|",
                                              encoding="utf-8") as tf:
            while (info := tf.next()) is not None:
                if info.isreg() and _is_pgn_name(info.name):
                    sparse = info.sparse is not None
                    head = b""
                    if not sparse:
                        extracted = tf.extractfile(info)
                        head = _packed(extracted.read(_HEAD)) if extracted is not None else b""
                    member_name = shown(info.name).removeprefix("./")  # tar -C dir .
                    found.append((member_name, info.offset_data, info.size, sparse, head))
                listed: list[tarfile.TarInfo] = vars(tf)["members"]
                listed.clear()  # a tar of a million members stays small in memory
    except FileNotFoundError:
        raise NotFound(f"no such file: {name}") from None
    except _READ_ERRORS as exc:
        return _nested_failure(name, depth, BadInput(
            f"{name} is not a readable tar archive ({exc}); is it damaged?"))
    if not found:
        return _nested_failure(name, depth, BadInput(
            f"{name} holds no .pgn file; name a tar with PGN inside"))
    sources: list[Source] = []
    streams = _Streams(opener)
    for member_name, offset, size, sparse, head in found:
        full = f"{name}:{member_name}"
        if sparse:
            sources.append(_refused(full, "a sparse tar member; unpack the archive first"))
            continue

        def member(offset: int = offset, size: int = size) -> BinaryIO:
            stream = streams.take(offset)
            return _as_binary(io.BufferedReader(_Slice(stream, offset, size, streams), 1 << 20))

        sources.extend(_sources_of(full, member, size, head, depth + 1))
    return sources


class _Streams:
    """The streams over one (decompressed) tar archive, reused: the members are read in
    order, and a compressed stream only seeks forward cheaply (backward it starts again), so
    the stream a member was read with is kept for the next member, which starts after it.
    Reading a .tar.gz of many members costs one pass over it, not one pass per member.

    A stream is reused only in the process that opened it (a forked worker must not share a
    file position with its parent); at most `_IDLE` idle streams are kept, over all archives.
    """

    def __init__(self, opener: Opener) -> None:
        self._opener = opener

    def take(self, offset: int) -> BinaryIO:
        pid = os.getpid()
        with _IDLE_LOCK:
            for i, (owner, opened_by, stream) in enumerate(_IDLE_STREAMS):
                if owner is self and opened_by == pid and stream.tell() <= offset:
                    del _IDLE_STREAMS[i]
                    return stream
        return self._opener()

    def give(self, stream: BinaryIO) -> None:
        stale = None
        with _IDLE_LOCK:
            _IDLE_STREAMS.append((self, os.getpid(), stream))
            if len(_IDLE_STREAMS) > _IDLE:
                stale = _IDLE_STREAMS.pop(0)[2]
        if stale is not None:
            stale.close()


_IDLE = 4
_IDLE_LOCK = threading.Lock()
_IDLE_STREAMS: list[tuple[_Streams, int, BinaryIO]] = []


class _Positioned(io.RawIOBase):
    """A readable, seekable raw stream with its own position over bytes it reads by
    offset (`_length` is their size)."""

    _pos = 0

    def _length(self) -> int:
        raise NotImplementedError

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        if whence == os.SEEK_CUR:
            offset += self._pos
        elif whence == os.SEEK_END:
            offset += self._length()
        self._pos = max(0, offset)
        return self._pos

    def tell(self) -> int:
        return self._pos


class _Slice(_Positioned):
    """`size` bytes from `offset` of a (decompressed) archive: a tar member. Closes the
    archive stream with it (or hands it back to `streams` for the next member); an archive
    that ends early is an error, not a short member."""

    def __init__(self, stream: BinaryIO, offset: int, size: int,
                 streams: _Streams | None = None) -> None:
        super().__init__()
        self._streams = streams
        self._stream = stream
        self._offset = offset
        self._size = size
        self._pos = 0
        self._placed = False

    def _length(self) -> int:
        return self._size

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        self._placed = False
        return super().seek(offset, whence)

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        want = min(len(buffer), self._size - self._pos)
        if want <= 0:
            return 0
        if not self._placed:
            self._stream.seek(self._offset + self._pos)
            self._placed = True
        data = self._stream.read(want)
        if not data:
            raise EOFError("the archive ends inside this member")
        n = len(data)
        buffer[:n] = data
        self._pos += n
        return n

    def close(self) -> None:
        if not self.closed:
            if self._streams is not None and not self._stream.closed:
                self._streams.give(self._stream)
            else:
                self._stream.close()
        super().close()


# -- standard input and pipes ---------------------------------------------------------------

# Standard input is read once per process and kept, so that it can be opened again.
_STDIN: IO[bytes] | None = None


def _stdin_sources() -> list[Source]:
    global _STDIN
    if _STDIN is None:
        _STDIN = _spool(sys.stdin.buffer, "-")
    return _spool_sources("-", _STDIN)


def _spool_path(path: str, name: str) -> IO[bytes]:
    """A pipe named as a path, read once (it cannot be read a second time)."""
    try:
        with open(path, "rb") as f:
            return _spool(f, name)
    except PermissionError:
        raise BadInput(f"{name}: permission denied; check the file's rights") from None
    except OSError as exc:
        raise BadInput(f"{name}: cannot be read ({exc})") from None


def _spool(stream: IO[bytes], name: str) -> IO[bytes]:
    """All of `stream`: in memory up to 32 MB, beyond that in a temporary file."""
    memory = io.BytesIO()
    while block := stream.read(1 << 20):
        memory.write(block)
        if memory.tell() > _SPOOL_MEMORY:
            try:
                disk = tempfile.TemporaryFile()  # noqa: SIM115 - kept for the process
                disk.write(memory.getbuffer())
                del memory
                while block := stream.read(1 << 20):
                    disk.write(block)
                disk.flush()
            except OSError as exc:
                raise BadInput(f"{name}: cannot be kept in a temporary file ({exc}); "
                               "free disk space or name a file instead") from None
            return disk
    return memory


def spool_source(name: str, spool: IO[bytes]) -> Source:
    """The first Source of `spool_sources` (a zip's first PGN member)."""
    return _spool_sources(name, spool)[0]


def _spool_sources(name: str, spool: IO[bytes]) -> list[Source]:
    """The Sources over a seekable byte stream held elsewhere (standard input, a pipe, tests).

    Each `open()` reads from the start with its own position; what the stream holds
    (compressed data, a zip or tar and its members) is told by its first bytes.
    """
    reader = _SpoolReader(spool)

    def raw() -> BinaryIO:
        return cast(BinaryIO, io.BufferedReader(_SpoolView(reader), 1 << 20))

    head = reader.pread(0, _HEAD)
    return _sources_of(name, raw, reader.size(), head, 1)


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
                return bytes(view[pos:pos + n])
        with self._lock:
            self._spool.seek(pos)
            return self._spool.read(n)


class _SpoolView(_Positioned):
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
