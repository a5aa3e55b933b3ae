"""The files commands write (CSV, charts, reports): never the database, never half a file.

`check_output(path, database, force=...)` refuses a path that resolves (through symlinks or
hard links) to the database file or one of SQLite's files beside it (`-wal`, `-shm`,
`-journal`), and an existing file unless `force`. `write_atomic(path, write)` lets `write`
fill a temporary file in the same folder and renames it into place only when complete, so an
interrupted or failed write leaves the old file (or nothing) under `path`, and a symlink
given with `--force` is replaced itself: the file it pointed to is never written through.

Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from tracker.errors import BadInput, TrackerError

DATABASE_COMPANIONS = ("", "-wal", "-shm", "-journal")
"""SQLite's files for a database `X`: `X` itself and the ones it keeps beside it."""


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
    return [(suffix, Path(f"{base}{suffix}")) for suffix in DATABASE_COMPANIONS
            for base in (str(database), real)]


def check_output(path: Path, database: Path | None, *, force: bool) -> None:
    """Refuse `path` as an output file when it is (or resolves to) the database, is a
    folder, lies in a folder that does not exist, or exists and `force` is not given."""
    if database is not None:
        for suffix, guarded in protected_files(database):
            if _same_file(path, guarded):
                what = f"the database's {suffix} file" if suffix else "the database"
                raise BadInput(f"{path} is {what} ({database}): writing there would destroy "
                               "it; give another file name")
    if path.is_dir():
        raise BadInput(f"{path} is a folder: give a file name")
    if not path.parent.is_dir():
        raise BadInput(f"the folder {path.parent} does not exist: create it first")
    if (path.exists() or path.is_symlink()) and not force:
        raise BadInput(f"{path} already exists: give another name, or --force to replace it")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, write: Callable[[Path], object], *,
                 mode: int | None = None) -> None:
    """Call `write(tmp)` for a temporary file beside `path`, then rename it to `path`; the
    file gets `mode` (default: what the umask gives a new file)."""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise BadInput(f"cannot write in {path.parent}: {exc.strerror or exc}") from None
    os.close(fd)
    tmp = Path(name)
    try:
        os.chmod(tmp, 0o666 & ~_umask() if mode is None else mode)
        write(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise TrackerError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
