"""Opening what the user names: files, folders, glob patterns, archives, standard input.

Pure standard library. `iter_sources(paths)` resolves every argument first (so a missing
path or an empty folder is reported before anything is imported) and hands out `Source`s: a
user-facing `name` and an `open()` that returns a fresh binary stream on every call. What a
file holds is told by its first bytes, never unpacked to disk, and one bad entry of a folder
fails alone; the rules, one by one, are in docs/architecture.md, section tracker/files/.
This module resolves the paths; the readers are its neighbours: `source` (Source, Limits),
`compressed` (gzip, bzip2, xz), `archives` (zip, tar) and `spool` (standard input, pipes).
"""

from __future__ import annotations

import errno
import fnmatch
import glob
import os
import stat
from collections.abc import Iterator, Sequence
from typing import BinaryIO

from tracker.errors import BadInput, NotFound
from tracker.files.archives import (
    HEAD,
    MAX_NESTING,
    close_idle,
    is_tar,
    sources_of,
    zip_sources,
)
from tracker.files.compressed import compression
from tracker.files.source import (
    PGN_SUFFIXES,
    RATIO_FLOOR,
    GiB,
    KiB,
    LimitExceeded,
    Limits,
    MiB,
    Opener,
    Source,
    Stamp,
    as_binary,
    is_pgn_name,
    parse_size,
    refused,
    shown,
    size_text,
)
from tracker.files.spool import spool_path, spool_source, spool_sources, stdin_sources

__all__ = [
    "MAX_NESTING",
    "PGN_SUFFIXES",
    "RATIO_FLOOR",
    "GiB",
    "KiB",
    "LimitExceeded",
    "Limits",
    "MiB",
    "Opener",
    "Source",
    "Stamp",
    "close_idle",
    "iter_sources",
    "parse_size",
    "shown",
    "size_text",
    "spool_source",
]

_GLOB_CHARS = "*?["


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
            real, entries = path, [refused(top, str(exc))]  # this entry fails, not the run
        for source in entries:
            key = real + source.name[len(top) :]  # the member inside an archive, if any
            if key not in seen:
                seen.add(key)
                found.append(source)

    def add_folder(folder: str, *, named: bool) -> None:
        files = _walk(folder)
        if files and files[0][1] is not None and files[0][0] == folder:
            if named:
                raise BadInput(files[0][1])
            found.append(refused(shown(folder), files[0][1]))
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
                found.append(refused(shown(path), error))

    if not paths:
        raise BadInput("no file named: give PGN files, folders, glob patterns or - for stdin")
    for arg in paths:
        if arg == "-":
            for source in stdin_sources(limits):
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


def _walk(folder: str) -> list[tuple[str, str | None]]:
    """The PGN files under `folder` in sorted order, with (path, why) for each subfolder that
    cannot be read (os.walk would skip it without a word). Links to folders are not
    followed (a loop would never end); a link to a file is a file."""
    files: list[tuple[str, str | None]] = []

    def unreadable(exc: OSError) -> None:
        path = exc.filename if isinstance(exc.filename, str) else folder
        why = exc.strerror or str(exc)
        files.append(
            (
                path,
                f"folder {shown(path)} cannot be read ({why}); nothing in it was "
                "imported: check its rights",
            )
        )

    for root, dirs, names in os.walk(folder, onerror=unreadable):
        dirs.sort()
        files.extend((os.path.join(root, n), None) for n in sorted(names) if is_pgn_name(n))
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
                found.extend(
                    os.path.join(base, n)
                    for n in names
                    if fnmatch.fnmatchcase(n, part)
                    and (part.startswith(".") or not n.startswith("."))
                )
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
            entries = sorted(os.scandir(folder or os.curdir), key=lambda e: e.name, reverse=True)
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


# -- files ----------------------------------------------------------------------------------


def _file_sources(path: str, limits: Limits) -> list[Source]:
    """The sources of one file: itself (decompressed), or the members of an archive."""
    name = shown(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(path):
            raise NotFound(
                f"{name} is a symbolic link to {shown(os.readlink(path))}, which "
                "does not exist; fix or remove the link"
            ) from None
        raise NotFound(f"no such file: {name}") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise BadInput(
                f"{name} is a symbolic link that leads back to itself (a loop); "
                "fix or remove the link"
            ) from None
        if exc.errno == errno.EACCES:
            raise BadInput(f"{name}: permission denied; check the rights of its folders") from None
        raise BadInput(f"{name} cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(mode):  # pragma: no cover - callers pass files
        return []
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return spool_sources(name, spool_path(path, name, limits), limits)
    if not stat.S_ISREG(mode):
        raise BadInput(
            f"{name} is a device, not a file; name a PGN file, or pipe it: tracker import -"
        )
    size: int | None = os.path.getsize(path)

    def opener() -> BinaryIO:
        return as_binary(open(path, "rb"))  # noqa: SIM115 - the caller closes it

    def stamp() -> Stamp | None:
        return _stamp(path)

    try:
        with opener() as f:
            head = f.read(HEAD)
    except OSError:
        return [Source(name, opener, size, stamp)]  # open() will say what is wrong
    known = compression(head) is not None or is_tar(head)
    if path.lower().endswith(".zip") and not known:
        return zip_sources(name, opener, 1, limits, stamp)  # or "not a readable zip"
    return sources_of(name, opener, size, head, 1, limits, stamp)


def _not_a_pipe(path: str) -> None:
    """A pipe or device found in a folder (or by a glob) is not read: opening a named pipe
    waits for a writer that may never come. Named itself, it is read (see _file_sources)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # _file_sources says what is wrong
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        raise BadInput(
            f"{shown(path)} is a named pipe, not a file: not read from a folder "
            "(it could wait for ever); name it itself to read it"
        )
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise BadInput(f"{shown(path)} is a device, not a file; name PGN files")


def _stamp(path: str) -> Stamp | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)
