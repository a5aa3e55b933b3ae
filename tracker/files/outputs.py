"""The files commands write (CSV, charts, reports, backups): never the database, never half a
file, never a device or a FIFO replaced (standard library only).

`check_output(path, database, force=...)` refuses a path that resolves to the database or
one of SQLite's files beside it, a folder, and an existing file unless `force`;
`resolve_output` decides how a path is written: a regular file through a temporary file
renamed into place when complete, a character device or a FIFO written into, anything else
refused. `remove_leftovers` removes the temporary files (`.NAME.XXXXXXXX.part`) of killed
writes that no live write holds. docs/architecture.md, section tracker/files/, has the
details.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tracker.errors import BadInput, TrackerError

if sys.platform != "win32":
    import fcntl

DATABASE_COMPANIONS = ("", "-wal", "-shm", "-journal")
"""SQLite's files for a database `X`: `X` itself and the ones it keeps beside it."""

CHUNK = 1 << 20  # bytes copied at a time into a device or a FIFO


def _real(path: Path) -> str:
    return os.path.realpath(path)


def _same_file(a: Path, b: Path) -> bool:
    if _real(a) == _real(b):
        return True
    try:
        return os.path.samefile(a, b)  # hard links
    except OSError:
        return False


def protected_files(database: Path) -> list[tuple[str, Path]]:
    """The database file and its companions (suffix, path), as given and as its real path
    names them."""
    real = _real(database)
    return [
        (suffix, Path(f"{base}{suffix}"))
        for suffix in DATABASE_COMPANIONS
        for base in (str(database), real)
    ]


@dataclass(frozen=True)
class Output:
    """An output as `check_output` found it: `path` as given; `file`, the file written when
    it is replaced (`path`, or the regular file a symlink at `path` points to); `into`,
    whether it is a character device or a FIFO (written into); `stdout`, whether it is
    the process's own standard output (a command's summary line then goes to stderr)."""

    path: Path
    file: Path
    into: bool
    stdout: bool

    def __str__(self) -> str:
        return str(self.path)


def resolve_output(path: Path) -> tuple[Path, bool]:
    """(the file to replace, False) for a new file, a regular file or a symlink to one (the
    file it points to); (`path`, True) for a character device or a FIFO (or a symlink to
    one), written into. Anything else is refused (BadInput)."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        if os.path.islink(path):
            raise BadInput(
                f"{path} is a symlink to {os.readlink(path)}, which does not exist: "
                "give the file itself"
            ) from None
        return path, False
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise BadInput(f"{path} is a symlink loop: give a file name") from None
        raise BadInput(f"cannot use {path}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise BadInput(f"{path} is a folder: give a file name")
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return path, True
    if stat.S_ISREG(mode):
        return (Path(_real(path)) if os.path.islink(path) else path), False
    what = (
        "a block device"
        if stat.S_ISBLK(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "not a regular file"
    )
    raise BadInput(f"{path} is {what}: give a regular file, a character device or a FIFO")


def is_stdout(path: Path) -> bool:
    """Whether `path` is the file, device or pipe of this process's standard output."""
    try:
        return os.path.samestat(os.fstat(1), os.stat(path))
    except (OSError, ValueError):
        return False


def check_output(path: Path, database: Path | None, *, force: bool) -> Output:
    """Refuse `path` as an output file when it is (or resolves to) the database, is a
    folder, lies in a folder that does not exist, exists as a regular file and `force` is
    not given, or is neither a file, a character device nor a FIFO; else say what it is."""
    if database is not None:
        for suffix, guarded in protected_files(database):
            if _same_file(path, guarded):
                what = f"the database's {suffix} file" if suffix else "the database"
                raise BadInput(
                    f"{path} is {what} ({database}): writing there would destroy "
                    "it; give another file name"
                )
    file, into = resolve_output(path)
    if not into:
        if not file.parent.is_dir():
            raise BadInput(f"the folder {file.parent} does not exist: create it first")
        if file.exists() and not force:
            if file != path:
                raise BadInput(
                    f"{path} already exists (a symlink to {file}): give another "
                    f"name, or --force to replace {file}"
                )
            raise BadInput(f"{path} already exists: give another name, or --force to replace it")
    return Output(path, file, into, is_stdout(path))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _lock(fd: int) -> bool:
    """Lock the open file `fd` for this process's life (False: another holds it)."""
    if sys.platform == "win32":  # an open file cannot be removed there anyway
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def _part_file(folder: Path | None, prefix: str) -> tuple[int, Path]:
    """A new temporary file (`PREFIXXXXXXXXX.part`, in `folder` or the system's), open and
    locked as this write's own: (its descriptor, its path)."""
    where = tempfile.gettempdir() if folder is None else folder
    try:
        fd, name = tempfile.mkstemp(prefix=prefix, suffix=".part", dir=folder)
    except OSError as exc:
        why = exc.strerror or str(exc)
        if exc.errno == errno.ENOENT and os.path.isdir(where):  # /proc: it makes no file
            why = "a folder of the system, where no file can be made"
        raise BadInput(
            f"cannot write in {where} ({why}): name a file in a folder "
            "where you can write (the current folder, your home)"
        ) from None
    _lock(fd)
    return fd, Path(name)


SQLITE_COMPANIONS = ("-journal", "-wal", "-shm")
"""What SQLite may leave beside a temporary file it was writing (a backup's)."""

INTO_PREFIX = ".tracker-output."
"""The temporary files of the writes into a device or a FIFO (in the system's folder)."""


def clean_before(output: Output) -> list[Path]:
    """`remove_leftovers` of the files a write of `output` makes: beside the file it
    replaces, or (written into) in the system's temporary folder."""
    if output.into:
        return remove_leftovers(Path(tempfile.gettempdir()) / INTO_PREFIX[1:-1])
    return remove_leftovers(output.file)


def remove_leftovers(file: Path) -> list[Path]:
    """Remove what writes of `file` that were killed before their end left beside it: their
    temporary files (`.NAME.XXXXXXXX.part`, with SQLite's -journal, -wal or -shm) that no
    live write holds locked. Returns the paths removed (the temporary files)."""
    part = re.compile(rf"\.{re.escape(file.name)}\.[a-z0-9_]{{8}}\.part")
    removed: list[Path] = []
    try:
        with os.scandir(file.parent) as entries:
            found = [
                e.name
                for e in entries
                if e.name.startswith(f".{file.name}.")
                and e.name.endswith(".part")
                and part.fullmatch(e.name)
                and e.is_file(follow_symlinks=False)
            ]
    except OSError:
        return removed
    for name in sorted(found):
        path = file.parent / name
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if not _lock(fd):  # a write still running
                continue
            for companion in SQLITE_COMPANIONS:
                with contextlib.suppress(OSError):
                    os.unlink(f"{path}{companion}")
            os.unlink(path)
            removed.append(path)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def write_atomic(path: Path, write: Callable[[Path], object], *, mode: int | None = None) -> int:
    """Call `write(tmp)` for a temporary file, then rename it to `path` (or to the regular
    file a symlink at `path` points to), or copy it into `path` when that is a character
    device or a FIFO; the file gets `mode` (default: what the umask gives a new file).
    Returns the bytes written."""
    file, into = resolve_output(path)
    if into:
        return _write_into(path, write)
    fd, tmp = _part_file(file.parent, f".{file.name}.")
    try:
        os.chmod(tmp, 0o666 & ~_umask() if mode is None else mode)
        write(tmp)
        size = tmp.stat().st_size
        os.replace(tmp, file)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise TrackerError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    finally:
        os.close(fd)
    return size


def _write_into(path: Path, write: Callable[[Path], object]) -> int:
    """`write` into a temporary file of the system's, then its bytes into the device or
    FIFO `path` (opened as it is: never created, never truncated)."""
    fd, tmp = _part_file(None, INTO_PREFIX)
    try:
        write(tmp)
        out = os.open(path, os.O_WRONLY | os.O_NOCTTY)
        try:
            return _copy_into(tmp, out)
        finally:
            os.close(out)
    except OSError as exc:
        raise TrackerError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
        os.close(fd)


def _copy_into(source: Path, out: int) -> int:
    done = 0
    with source.open("rb") as fh:
        while chunk := fh.read(CHUNK):
            view = memoryview(chunk)
            while view:
                n = os.write(out, view)
                view = view[n:]
                done += n
    return done
