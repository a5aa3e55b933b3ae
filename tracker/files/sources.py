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
- The same file named twice (directly and through a folder, say) is listed once; two
  members of one archive with the same name (a zip written twice over, a tar with a newer
  copy appended by `tar -r`) are both kept, the later ones named `"a.tar:x.pgn (copy 2)"`.
- A folder or glob never stops at one bad entry: a damaged or unrelated archive, a
  dangling symbolic link, a link loop or a subfolder that cannot be read becomes a source
  that fails with a line saying why when imported; the other files are imported. A `**`
  pattern visits each real folder once (symbolic link loops end).
- `Limits` bounds what one source may cost (issue 19): the bytes out of each decompressing
  stream (gzip, bzip2, xz, a zip member) and their ratio to the bytes read in, and what
  standard input (or a pipe) may spool; past one, reading raises `LimitExceeded` (a
  BadInput whose `stops_run` asks the importer to stop: a bomb is not one bad file among
  good ones). A zip's members share one open archive (its central directory is read once).
- `Source.stamp()` is the size, times and inode of the file on disk (None for standard
  input): the importer compares it before and after a source to fail one that changed.
"""

from __future__ import annotations

import bz2
import errno
import fnmatch
import glob
import gzip
import io
import lzma
import operator
import os
import stat
import sys
import tarfile
import tempfile
import threading
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, BinaryIO, SupportsIndex, cast

from tracker.errors import BadInput, NotFound
from tracker.pgn.stream import READ_ERRORS

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
_READ_ERRORS = READ_ERRORS + (tarfile.TarError, RuntimeError, NotImplementedError)
"""What reading a source may raise: the stream's (tracker.pgn.stream) and an archive's."""

Opener = Callable[[], BinaryIO]
Stamp = tuple[int, ...]

KiB = 1 << 10
MiB = 1 << 20
GiB = 1 << 30

RATIO_FLOOR = 16 * MiB
"""The ratio limit is looked at only past this many decompressed bytes: a small file may
well shrink a thousand times (one game repeated), a bomb is big."""


@dataclass(frozen=True)
class Limits:
    """What one source may cost (`tracker import --max-size/--max-ratio`)."""

    max_size: int = 16 * GiB
    """Bytes out of one decompressing stream (a .gz, .bz2, .xz, a zip member, a .tar.gz as
    a whole), and bytes spooled from standard input or a pipe."""
    max_ratio: int = 1000
    """Decompressed bytes per compressed byte (past RATIO_FLOOR). PGN shrinks 5 to 15 times;
    100 GiB of zeros in a 76 KB .bz2 is 1,400,000 times."""
    on_spool: Callable[[str, int], None] | None = field(default=None, compare=False)
    """Called with (name, bytes so far) while standard input or a pipe is read, every 16 MiB
    (progress), then with (name, -1) when it is read, if it was called before."""


class LimitExceeded(BadInput):
    """A source went past a `Limits` bound: refused, and the import stops there."""

    stops_run = True


def size_text(n: int) -> str:
    """A byte count as the options take it: 16G, 1M, 512K, 100 (exact, binary units)."""
    for unit, size in (("T", 1 << 40), ("G", GiB), ("M", MiB), ("K", KiB)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def parse_size(text: str) -> int:
    """`--max-size`: bytes, or a number with K, M, G or T (binary: 1K = 1024)."""
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = 1
    if t[-1:] in ("K", "M", "G", "T"):
        scale = {"K": KiB, "M": MiB, "G": GiB, "T": 1 << 40}[t[-1]]
        t = t[:-1]
    try:
        value = float(t)
    except ValueError:
        value = -1.0
    if not t or not value >= 1 or value * scale > 1 << 60:
        raise BadInput(f"--max-size {text!r} is not a size: give bytes, or a number with K, "
                       "M, G or T (for example 20G)")
    return int(value * scale)


@dataclass(frozen=True)
class Source:
    """One PGN stream the user named: a file, an archive member or standard input."""

    name: str
    """What the user sees in reports: "games.pgn", "twic1427g.zip:twic1427.pgn", "-"."""
    opener: Callable[[], BinaryIO] = field(repr=False, compare=False)
    size: int | None = field(default=None, compare=False)
    """Bytes on disk (compressed size for archives) when known: for progress display."""
    stamp: Callable[[], Stamp | None] | None = field(default=None, repr=False, compare=False)
    """The state of the file on disk (size, modification and change times, inode), or None
    when it cannot be read; no stamp at all for a spool (standard input, a pipe)."""

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


def iter_sources(paths: Sequence[str], limits: Limits | None = None) -> Iterator[Source]:
    """Every PGN source the arguments name, in order (resolved eagerly: errors come first).

    Raises NotFound for a missing path, a glob that matches nothing or a folder without PGN,
    BadInput for an archive without PGN members, a `.zip` that is not a zip at all, a tar
    that cannot be read, a device, a link loop or a folder that cannot be read: each when
    named itself. What a folder or a glob finds never raises: a bad entry becomes a source
    that fails alone (see the module docstring). LimitExceeded for standard input (or a
    pipe) holding more than `limits.max_size`.
    """
    limits = limits or Limits()
    found: list[Source] = []
    seen: set[str] = set()

    def add_file(path: str, *, named: bool) -> None:
        top = shown(path)
        try:
            real = os.path.realpath(path)
            if not named:
                _not_a_pipe(path)
            entries = _file_sources(path, limits)
        except LimitExceeded:
            raise
        except (BadInput, NotFound) as exc:
            if named:
                raise
            real, entries = path, [_refused(top, str(exc))]  # this entry fails, not the run
        for source in entries:
            key = real + source.name[len(top):]  # the member inside an archive, if any
            if key not in seen:
                seen.add(key)
                found.append(source)

    def add_folder(folder: str, *, named: bool) -> None:
        files = _walk(folder)
        if files and files[0][1] is not None and files[0][0] == folder:
            if named:
                raise BadInput(files[0][1])
            found.append(_refused(shown(folder), files[0][1]))
            return
        if named and not files:
            raise NotFound(
                f"folder {shown(folder)} holds no PGN files ({', '.join(PGN_SUFFIXES)}); "
                "name the files or another folder"
            )
        for path, error in files:
            if error is None:
                add_file(path, named=False)
            else:
                found.append(_refused(shown(path), error))

    if not paths:
        raise BadInput("no file named: give PGN files, folders, glob patterns or - for stdin")
    for arg in paths:
        if arg == "-":
            for source in _stdin_sources(limits):
                if source.name not in seen:
                    seen.add(source.name)
                    found.append(source)
        elif os.path.isdir(arg):
            add_folder(arg, named=True)
        elif os.path.lexists(arg):  # a file (or a link that leads nowhere: said so)
            add_file(arg, named=True)
        elif any(c in arg for c in _GLOB_CHARS):
            matches = _glob(arg)
            if not matches:
                raise NotFound(f"no file matches {shown(arg)}; check the pattern")
            for match in matches:
                if os.path.isdir(match):
                    add_folder(match, named=False)
                else:
                    add_file(match, named=False)
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


def _walk(folder: str) -> list[tuple[str, str | None]]:
    """The PGN files under `folder` in sorted order, with (path, why) for each subfolder that
    cannot be read (os.walk would skip it without a word). Links to folders are not
    followed (a loop would never end); a link to a file is a file."""
    files: list[tuple[str, str | None]] = []

    def unreadable(exc: OSError) -> None:
        path = exc.filename if isinstance(exc.filename, str) else folder
        why = exc.strerror or str(exc)
        files.append((path, f"folder {shown(path)} cannot be read ({why}); nothing in it was "
                            "imported: check its rights"))

    for root, dirs, names in os.walk(folder, onerror=unreadable):
        dirs.sort()
        files.extend((os.path.join(root, n), None) for n in sorted(names) if _is_pgn_name(n))
    return files


def _glob(pattern: str) -> list[str]:
    """glob.glob, sorted; a `**` visits each real folder once, so that links that loop
    (`a/b -> ..`) end the search instead of repeating it without end."""
    if "**" not in pattern:
        return sorted(glob.glob(pattern, recursive=True))
    absolute = os.path.isabs(pattern)
    parts = [p for p in pattern.split(os.sep) if p]
    paths = [os.sep if absolute else ""]
    seen: set[tuple[int, int]] = set()
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        found: list[str] = []
        for base in paths:
            if part == "**":
                found.extend(_every_folder(base, seen, files=last))
            elif any(c in part for c in _GLOB_CHARS):
                try:
                    names = sorted(os.listdir(base or os.curdir))
                except OSError:
                    continue
                found.extend(os.path.join(base, n) for n in names
                             if fnmatch.fnmatchcase(n, part)
                             and (part.startswith(".") or not n.startswith(".")))
            elif os.path.lexists(os.path.join(base, part)):
                found.append(os.path.join(base, part))
        paths = found if last else [p for p in found if os.path.isdir(p or os.curdir)]
    return sorted({p for p in paths if p})


def _every_folder(base: str, seen: set[tuple[int, int]], *, files: bool) -> list[str]:
    """`base` and every folder below it (links followed, each real folder once, hidden ones
    left out as glob does); with `files`, the files in them too (a `**` at the end)."""
    found: list[str] = []
    todo = [base]
    while todo:
        folder = todo.pop()
        try:
            st = os.stat(folder or os.curdir)
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            entries = sorted(os.scandir(folder or os.curdir), key=lambda e: e.name,
                             reverse=True)
        except OSError:
            continue
        found.append(folder)
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = os.path.join(folder, entry.name)
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                todo.append(path)
            elif files:
                found.append(path)
    return found


def _as_binary(stream: object) -> BinaryIO:
    return cast(BinaryIO, stream)


# -- files ----------------------------------------------------------------------------------


def _file_sources(path: str, limits: Limits) -> list[Source]:
    """The sources of one file: itself (decompressed), or the members of an archive."""
    name = shown(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(path):
            raise NotFound(f"{name} is a symbolic link to {shown(os.readlink(path))}, which "
                           "does not exist; fix or remove the link") from None
        raise NotFound(f"no such file: {name}") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise BadInput(f"{name} is a symbolic link that leads back to itself (a loop); "
                           "fix or remove the link") from None
        if exc.errno == errno.EACCES:
            raise BadInput(f"{name}: permission denied; check the rights of its folders") \
                from None
        raise BadInput(f"{name} cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(mode):  # pragma: no cover - callers pass files
        return []
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return _spool_sources(name, _spool_path(path, name, limits), limits)
    if not stat.S_ISREG(mode):
        raise BadInput(
            f"{name} is a device, not a file; name a PGN file, or pipe it: tracker import -"
        )
    size: int | None = os.path.getsize(path)

    def opener() -> BinaryIO:
        return _as_binary(open(path, "rb"))  # noqa: SIM115 - the caller closes it

    def stamp() -> Stamp | None:
        return _stamp(path)

    try:
        with opener() as f:
            head = f.read(_HEAD)
    except OSError:
        return [Source(name, opener, size, stamp)]  # open() will say what is wrong
    known = _compression(head) is not None or _is_tar(head)
    if path.lower().endswith(".zip") and not known:
        return _zip_sources(name, opener, 1, limits, stamp)  # or "not a readable zip"
    return _sources_of(name, opener, size, head, 1, limits, stamp)


def _not_a_pipe(path: str) -> None:
    """A pipe or device found in a folder (or by a glob) is not read: opening a named pipe
    waits for a writer that may never come. Named itself, it is read (see _file_sources)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # _file_sources says what is wrong
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        raise BadInput(f"{shown(path)} is a named pipe, not a file: not read from a folder "
                       "(it could wait for ever); name it itself to read it")
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise BadInput(f"{shown(path)} is a device, not a file; name PGN files")


def _stamp(path: str) -> Stamp | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def _sources_of(name: str, opener: Opener, size: int | None, head: bytes, depth: int,
                limits: Limits, stamp: Callable[[], Stamp | None] | None) -> list[Source]:
    """What a stream starting with `head` holds: an archive's members, or itself as PGN
    (decompressed). `depth` counts the archives this stream would be (1: a file)."""
    inner = _decompressor(head, opener, name, limits)
    if inner is not None:
        try:
            with inner() as f:
                head = f.read(_HEAD)
        except _READ_ERRORS:
            return [Source(name, inner, size, stamp)]  # damaged: reading it will say so
        opener = inner
    if head.startswith(_MAGIC_ZIP) or _is_tar(head):
        if depth > MAX_NESTING:
            return [_refused(name, f"an archive inside {MAX_NESTING} archives; unpack the "
                                   "outer ones and import the inner archive")]
        if _is_tar(head):
            return _tar_sources(name, opener, depth, limits, stamp)
        return _zip_sources(name, opener, depth, limits, stamp)
    return [Source(name, opener, size, stamp)]


def _is_tar(head: bytes) -> bool:
    return len(head) >= 262 and head[257:262] == b"ustar"


def _compression(head: bytes) -> Callable[[BinaryIO, str, Limits], _Limited] | None:
    """The decompressing stream class for a stream starting with `head` (gzip, bzip2, xz)."""
    if head.startswith(_MAGIC_GZIP):
        return _Gzip
    if head.startswith(_MAGIC_BZIP2) and head[3:4].isdigit():  # BZh1..BZh9
        return _Bzip2
    if head.startswith(_MAGIC_XZ):
        return _Xz
    return None


def _decompressor(head: bytes, opener: Opener, name: str, limits: Limits) -> Opener | None:
    """How to open the decompressed stream, when `head` starts a gzip, bzip2 or xz stream."""
    kind = _compression(head)
    if kind is None:
        return None
    return lambda: _as_binary(kind(opener(), name, limits))


class _Limited(io.BufferedIOBase):
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
                "refused (a decompression bomb?); if the file is genuine, raise --max-size")
        if out > RATIO_FLOOR:
            packed = max(1, self._raw.tell())
            if out > packed * self._limits.max_ratio:
                raise LimitExceeded(
                    f"{self._name}: decompresses to over {self._limits.max_ratio:,} times its "
                    "size: refused as a decompression bomb; if the file is genuine, raise "
                    "--max-ratio")

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


class _Gzip(_Limited, gzip.GzipFile):
    def __init__(self, raw: BinaryIO, name: str, limits: Limits) -> None:
        self._setup(raw, name, limits)
        super().__init__(fileobj=raw, mode="rb")


class _Bzip2(_Limited, bz2.BZ2File):
    def __init__(self, raw: BinaryIO, name: str, limits: Limits) -> None:
        self._setup(raw, name, limits)
        super().__init__(raw, "rb")


class _Xz(_Limited, lzma.LZMAFile):
    def __init__(self, raw: BinaryIO, name: str, limits: Limits) -> None:
        self._setup(raw, name, limits)
        super().__init__(raw, "rb")


def _refused(name: str, why: str, error: type[BadInput] = BadInput) -> Source:
    """A member that cannot be read: it fails (with `why`) when imported, the others go on."""

    def fail() -> BinaryIO:
        raise error(why if why.startswith(name) else f"{name}: {why}")

    return Source(name, fail)


def _nested_failure(name: str, depth: int, exc: BadInput) -> list[Source]:
    """An archive's error: fatal for an archive the user named (errors come first), one
    failed member for an archive inside an archive (the other members are imported)."""
    if depth == 1:
        raise exc
    return [_refused(name, str(exc))]


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


def _zip_sources(name: str, opener: Opener, depth: int, limits: Limits,
                 stamp: Callable[[], Stamp | None] | None) -> list[Source]:
    """A zip's members named like PGN (or archives), in the archive's order. The members
    are read through one open archive (`_OpenZip`)."""
    archive = _OpenZip(opener)
    try:
        with archive.listing() as zf:
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
    unique = _copies([i.filename for i in members])
    for info, head, member_name in zip(members, heads, unique, strict=True):

        def member(info: zipfile.ZipInfo = info) -> BinaryIO:
            return archive.open(info)

        full = f"{name}:{member_name}"
        packed = max(1, info.compress_size)
        if info.file_size > limits.max_size:
            sources.append(_refused(full, f"more than {size_text(limits.max_size)} once "
                                          "decompressed: refused (a decompression bomb?); if "
                                          "the file is genuine, raise --max-size",
                                    LimitExceeded))
        elif info.file_size > RATIO_FLOOR and info.file_size > packed * limits.max_ratio:
            sources.append(_refused(full, f"decompresses to over {limits.max_ratio:,} times "
                                          "its size: refused as a decompression bomb; if the "
                                          "file is genuine, raise --max-ratio", LimitExceeded))
        elif head is None:  # cannot be read (encrypted, damaged): open() will say why
            sources.append(Source(full, member, info.compress_size, stamp))
        else:
            sources.extend(_sources_of(full, member, info.compress_size, head, depth + 1,
                                       limits, stamp))
    return sources


class _OpenZip:
    """One zip archive, opened once and shared by its members (issue 19: reading the central
    directory again for every member made a zip of 10,000 members quadratic). zipfile reads
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
        return _as_binary(io.BufferedReader(_Member(member, self.release), 1 << 20))

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


def _zip_head(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes | None:
    try:
        with zf.open(info) as f:
            return _packed(f.read(_HEAD))
    except _READ_ERRORS:
        return None


def _packed(head: bytes) -> bytes:
    """A member's first bytes, kept only when they start compressed data or an archive
    (plain PGN needs none of them: a zip of many members stays small in memory)."""
    if _compression(head) is not None or _is_tar(head):
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


def _tar_sources(name: str, opener: Opener, depth: int, limits: Limits,
                 stamp: Callable[[], Stamp | None] | None) -> list[Source]:
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
    unique = _copies([member_name for member_name, *_ in found])
    for (_, offset, size, sparse, head), member_name in zip(found, unique, strict=True):
        full = f"{name}:{member_name}"
        if sparse:
            sources.append(_refused(full, "a sparse tar member; unpack the archive first"))
            continue

        def member(offset: int = offset, size: int = size) -> BinaryIO:
            stream = streams.take(offset)
            return _as_binary(io.BufferedReader(_Slice(stream, offset, size, streams), 1 << 20))

        sources.extend(_sources_of(full, member, size, head, depth + 1, limits, stamp))
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


def _stdin_sources(limits: Limits) -> list[Source]:
    global _STDIN
    if _STDIN is None:
        _STDIN = _spool(sys.stdin.buffer, "-", limits)
    return _spool_sources("-", _STDIN, limits)


def _spool_path(path: str, name: str, limits: Limits) -> IO[bytes]:
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
                "the file instead")
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
                raise BadInput(f"{name}: cannot be kept in a temporary file ({exc}); "
                               "free disk space or name a file instead") from None
            return disk
    return memory


def _spool_name(name: str) -> str:
    return "standard input" if name == "-" else name


def spool_source(name: str, spool: IO[bytes], limits: Limits | None = None) -> Source:
    """The first Source of `spool_sources` (a zip's first PGN member)."""
    return _spool_sources(name, spool, limits or Limits())[0]


def _spool_sources(name: str, spool: IO[bytes], limits: Limits) -> list[Source]:
    """The Sources over a seekable byte stream held elsewhere (standard input, a pipe, tests).

    Each `open()` reads from the start with its own position; what the stream holds
    (compressed data, a zip or tar and its members) is told by its first bytes.
    """
    reader = _SpoolReader(spool)

    def raw() -> BinaryIO:
        return cast(BinaryIO, io.BufferedReader(_SpoolView(reader), 1 << 20))

    head = reader.pread(0, _HEAD)
    return _sources_of(name, raw, reader.size(), head, 1, limits, None)


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
