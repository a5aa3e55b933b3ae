"""Zip and tar archives (plain or compressed, nested) read as the sources of their members,
never unpacked to disk; and what a stream holds, told by its first bytes. A zip's members
share one open archive; a tar's are read as slices of one stream that goes on from member to
member. Both are reopened in a forked worker, which must not share a file position with its
parent.
"""

from __future__ import annotations

import io
import os
import tarfile
import threading
import zipfile
from collections.abc import Callable, Sequence
from typing import IO, BinaryIO

from tracker.errors import BadInput, NotFound
from tracker.files.compressed import compression, decompressor
from tracker.files.source import (
    RATIO_FLOOR,
    SOURCE_ERRORS,
    LimitExceeded,
    Limits,
    Opener,
    Source,
    Stamp,
    as_binary,
    is_fide_list,
    is_pgn_name,
    not_games,
    refused,
    shown,
    size_text,
)

MAX_NESTING = 3
"""Archives inside archives read at most this deep (the outermost counts as 1)."""
HEAD = 512  # bytes looked at to tell what a stream holds (a tar header is 512)
_MAGIC_ZIP = (b"PK\x03\x04", b"PK\x05\x06")  # a zip, an empty zip


def sources_of(
    name: str,
    opener: Opener,
    size: int | None,
    head: bytes,
    depth: int,
    limits: Limits,
    stamp: Callable[[], Stamp | None] | None,
) -> list[Source]:
    """What a stream starting with `head` holds: an archive's members, or itself as PGN
    (decompressed). `depth` counts the archives this stream would be (1: a file)."""
    inner = decompressor(head, opener, name, limits)
    if inner is not None:
        try:
            with inner() as f:
                head = f.read(HEAD)
        except SOURCE_ERRORS:
            return [Source(name, inner, size, stamp)]  # damaged: reading it will say so
        opener = inner
    if is_fide_list(head):
        return _nested_failure(name, depth, not_games(name))
    if head.startswith(_MAGIC_ZIP) or is_tar(head):
        if depth > MAX_NESTING:
            return [
                refused(
                    name,
                    f"an archive inside {MAX_NESTING} archives; unpack the "
                    "outer ones and import the inner archive",
                )
            ]
        if is_tar(head):
            return _tar_sources(name, opener, depth, limits, stamp)
        return zip_sources(name, opener, depth, limits, stamp)
    return [Source(name, opener, size, stamp)]


def is_tar(head: bytes) -> bool:
    return len(head) >= 262 and head[257:262] == b"ustar"


def _nested_failure(name: str, depth: int, exc: BadInput) -> list[Source]:
    """An archive's error: fatal for an archive the user named (errors come first), one
    failed member for an archive inside an archive (the other members are imported)."""
    if depth == 1:
        raise exc
    return [refused(name, str(exc))]


def _copies(names: Sequence[str]) -> list[str]:
    """Member names made unique: the second member named `x.pgn` is `x.pgn (copy 2)`, and so
    on (a zip written twice over; a tar with a newer copy appended by `tar -r`)."""
    count: dict[str, int] = {}
    unique = []
    for n in names:
        count[n] = count.get(n, 0) + 1
        unique.append(n if count[n] == 1 else f"{n} (copy {count[n]})")
    return unique


# -- zip ------------------------------------------------------------------------------------


def zip_sources(
    name: str, opener: Opener, depth: int, limits: Limits, stamp: Callable[[], Stamp | None] | None
) -> list[Source]:
    """A zip's members named like PGN (or archives), in the archive's order. The members
    are read through one open archive (`_OpenZip`)."""
    archive = _OpenZip(opener)
    try:
        with archive.listing() as zf:
            files = [i for i in zf.infolist() if not i.is_dir()]
            members = [i for i in files if is_pgn_name(i.filename)]
            heads = [_zip_head(zf, i) for i in members]
            # a FIDE list zipped as FIDE publishes it: one .txt or .xml member
            listed = not members and any(
                is_fide_list(_first_bytes(zf, i)) for i in files[:LIST_MEMBERS]
            )
    except FileNotFoundError:
        raise NotFound(f"no such file: {name}") from None
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        return _nested_failure(
            name, depth, BadInput(f"{name} is not a readable zip archive ({exc})")
        )
    if listed:
        return _nested_failure(name, depth, not_games(name))
    if not members:
        return _nested_failure(
            name, depth, BadInput(f"{name} holds no .pgn file; name a zip with PGN inside")
        )
    sources: list[Source] = []
    unique = _copies([i.filename for i in members])
    for info, head, member_name in zip(members, heads, unique, strict=True):

        def member(info: zipfile.ZipInfo = info) -> BinaryIO:
            return archive.open(info)

        full = f"{name}:{member_name}"
        packed = max(1, info.compress_size)
        if info.file_size > limits.max_size:
            sources.append(
                refused(
                    full,
                    f"more than {size_text(limits.max_size)} once "
                    "decompressed: refused (a decompression bomb?); if "
                    "the file is genuine, raise --max-size",
                    LimitExceeded,
                )
            )
        elif info.file_size > RATIO_FLOOR and info.file_size > packed * limits.max_ratio:
            sources.append(
                refused(
                    full,
                    f"decompresses to over {limits.max_ratio:,} times "
                    "its size: refused as a decompression bomb; if the "
                    "file is genuine, raise --max-ratio",
                    LimitExceeded,
                )
            )
        elif head is None:  # cannot be read (encrypted, damaged): open() will say why
            sources.append(Source(full, member, info.compress_size, stamp))
        else:
            sources.extend(
                sources_of(full, member, info.compress_size, head, depth + 1, limits, stamp)
            )
    return sources


class _OpenZip:
    """One zip archive, opened once and shared by its members (reading the central directory
    again for every member would make a zip of many members quadratic). zipfile reads
    each member through its own position (a lock around seek and read), so the content hash
    and the games may read two members, or one twice, at the same time.

    The archive is reopened in a forked worker (its file position must not be shared with
    the parent's). At most `_IDLE` archives with no member open stay open, over all zips.
    """

    def __init__(self, opener: Opener) -> None:
        self._opener = opener
        self._lock_made = (0, threading.Lock())  # (by process, lock): see _locked
        self._zf: zipfile.ZipFile | None = None
        self._stream: BinaryIO | None = None
        self._pid = 0
        self._users = 0

    def _locked(self) -> threading.Lock:
        """This archive's lock, made again in a forked worker (the parent's may have been
        held by another thread at the fork: it would never be released here)."""
        pid, lock = self._lock_made
        if pid != os.getpid():
            lock = threading.Lock()
            self._lock_made = (os.getpid(), lock)
        return lock

    def _take(self) -> zipfile.ZipFile:
        new = False
        with self._locked():
            if self._zf is None or self._pid != os.getpid():
                stream = self._opener()
                try:
                    self._zf = zipfile.ZipFile(stream)
                except BaseException:
                    stream.close()
                    raise
                self._stream, self._pid, self._users, new = stream, os.getpid(), 0, True
            self._users += 1
            zf = self._zf
        if new:
            _keep_open(self)
        return zf

    def release(self) -> None:
        with self._locked():
            self._users -= 1

    def listing(self) -> _Listing:
        return _Listing(self)

    def open(self, info: zipfile.ZipInfo) -> BinaryIO:
        zf = self._take()
        try:
            member = zf.open(info)
        except BaseException:
            self.release()
            raise
        return as_binary(io.BufferedReader(_Member(member, self.release), 1 << 20))

    def close_if_idle(self) -> bool:
        with self._locked():
            if self._users or self._zf is None:
                return False
            zf, stream, self._zf, self._stream = self._zf, self._stream, None, None
            mine = self._pid == os.getpid()
        if mine:  # an archive opened by the parent process is the parent's to close
            zf.close()
            if stream is not None:
                stream.close()
        return True


class _Listing:
    """`with archive.listing() as zf`: the open archive, for listing its members."""

    def __init__(self, archive: _OpenZip) -> None:
        self._archive = archive

    def __enter__(self) -> zipfile.ZipFile:
        return self._archive._take()

    def __exit__(self, *exc: object) -> None:
        self._archive.release()


_OPEN_ZIPS: list[_OpenZip] = []
_OPEN_ZIPS_LOCK = threading.Lock()


def _new_locks() -> None:
    """In a forked worker, the module's locks are made again: another thread of the parent
    (the content hash) may have held one at the fork."""
    global _OPEN_ZIPS_LOCK, _IDLE_LOCK
    _OPEN_ZIPS_LOCK = threading.Lock()
    _IDLE_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_new_locks)


def _keep_open(archive: _OpenZip) -> None:
    """Note an archive just opened; close the oldest idle ones beyond `_IDLE`."""
    with _OPEN_ZIPS_LOCK:
        if archive in _OPEN_ZIPS:
            _OPEN_ZIPS.remove(archive)
        _OPEN_ZIPS.append(archive)
        older = _OPEN_ZIPS[:-1]
    excess = len(older) + 1 - _IDLE
    for other in older:
        if excess <= 0:
            break
        if other.close_if_idle():
            with _OPEN_ZIPS_LOCK:
                if other in _OPEN_ZIPS:
                    _OPEN_ZIPS.remove(other)
            excess -= 1


LIST_MEMBERS = 3  # a zip without PGN: this many of its first members looked at for a list


def _first_bytes(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A member's first HEAD bytes (none when it cannot be read)."""
    try:
        with zf.open(info) as f:
            return f.read(HEAD)
    except SOURCE_ERRORS:
        return b""


def _zip_head(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes | None:
    try:
        with zf.open(info) as f:
            return _packed(f.read(HEAD))
    except SOURCE_ERRORS:
        return None


def _packed(head: bytes) -> bytes:
    """A member's first bytes, kept only when they start compressed data or an archive
    (plain PGN needs none of them: a zip of many members stays small in memory)."""
    if compression(head) is not None or is_tar(head):
        return head
    return head[:4] if head.startswith(_MAGIC_ZIP) else b""


class _Member(io.RawIOBase):
    """A zip member's stream that tells its archive when it is closed."""

    def __init__(self, member: IO[bytes], closed: Callable[[], None]) -> None:
        super().__init__()
        self._member = member
        self._closed = closed

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
                self._closed()
        super().close()


# -- tar ------------------------------------------------------------------------------------


def _tar_sources(
    name: str, opener: Opener, depth: int, limits: Limits, stamp: Callable[[], Stamp | None] | None
) -> list[Source]:
    """A tar's regular members named like PGN (or archives), in the archive's order.

    Listed in one streaming pass (tarfile's "r|" mode: no member is held in memory); each
    member is then read as the slice of the (decompressed) archive that holds its bytes.
    """
    found: list[tuple[str, int, int, bool, bytes]] = []  # name, offset, size, sparse, head
    try:
        with opener() as stream, tarfile.open(fileobj=stream, mode="r|", encoding="utf-8") as tf:
            while (info := tf.next()) is not None:
                if info.isreg() and is_pgn_name(info.name):
                    sparse = info.sparse is not None
                    head = b""
                    if not sparse:
                        extracted = tf.extractfile(info)
                        head = _packed(extracted.read(HEAD)) if extracted is not None else b""
                    member_name = shown(info.name).removeprefix("./")  # tar -C dir .
                    found.append((member_name, info.offset_data, info.size, sparse, head))
                listed: list[tarfile.TarInfo] = vars(tf)["members"]
                listed.clear()  # a tar of a million members stays small in memory
    except FileNotFoundError:
        raise NotFound(f"no such file: {name}") from None
    except SOURCE_ERRORS as exc:
        return _nested_failure(
            name, depth, BadInput(f"{name} is not a readable tar archive ({exc}); is it damaged?")
        )
    if not found:
        return _nested_failure(
            name, depth, BadInput(f"{name} holds no .pgn file; name a tar with PGN inside")
        )
    sources: list[Source] = []
    streams = _Streams(opener)
    unique = _copies([member_name for member_name, *_ in found])
    for (_, offset, size, sparse, head), member_name in zip(found, unique, strict=True):
        full = f"{name}:{member_name}"
        if sparse:
            sources.append(refused(full, "a sparse tar member; unpack the archive first"))
            continue

        def member(offset: int = offset, size: int = size) -> BinaryIO:
            stream = streams.take(offset)
            return as_binary(io.BufferedReader(_Slice(stream, offset, size, streams), 1 << 20))

        sources.extend(sources_of(full, member, size, head, depth + 1, limits, stamp))
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


def close_idle() -> None:
    """Close the archives and tar streams kept open for the next member (`_IDLE` of each)
    that no member reads now, once the caller is done with them (the end of an import): an
    archive left open until the process ends is a file never closed (a ResourceWarning)."""
    with _OPEN_ZIPS_LOCK:
        zips = list(_OPEN_ZIPS)
    for archive in zips:
        if archive.close_if_idle():
            with _OPEN_ZIPS_LOCK:
                if archive in _OPEN_ZIPS:
                    _OPEN_ZIPS.remove(archive)
    pid = os.getpid()
    with _IDLE_LOCK:
        mine = [s for _, opened_by, s in _IDLE_STREAMS if opened_by == pid]
        _IDLE_STREAMS[:] = [e for e in _IDLE_STREAMS if e[1] != pid]
    for stream in mine:
        stream.close()


class Positioned(io.RawIOBase):
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


class _Slice(Positioned):
    """`size` bytes from `offset` of a (decompressed) archive: a tar member. Closes the
    archive stream with it (or hands it back to `streams` for the next member); an archive
    that ends early is an error, not a short member."""

    def __init__(
        self, stream: BinaryIO, offset: int, size: int, streams: _Streams | None = None
    ) -> None:
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
