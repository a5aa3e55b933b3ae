"""FIDE's published lists into the store (`tracker official import`), and which lists can
have been published yet (`check_published`: `official add` and `official import` take the
same periods).

`list_targets(paths)` finds the list files named (a folder: its .txt, .xml and .zip files,
its subfolders too, in name order); `import_lists(store, targets, ...)` imports them one file
per transaction and yields what each file gave (`FileOutcome`: its `ImportSummary`, or why it
was not imported when several files came, so the others still go in; a single file's error
is raised). The reading is tracker.lists', the writing tracker.store.official's; this
module is the use case between them. Nothing here prints.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tracker.errors import BadInput, NotFound
from tracker.lists import ListFile, open_list
from tracker.model import ListRow, Period, RatingList
from tracker.store import Store
from tracker.store.official import (
    ImportSummary,
    add_entry,
    entries_for,
    import_entries,
    known_fide_ids,
    remove_entry,
)

__all__ = ["FileOutcome", "ImportSummary", "ListTarget", "add_entry", "check_published",
           "entries_for", "import_lists", "latest_published", "list_targets", "remove_entry"]

LIST_SUFFIXES = (".txt", ".xml", ".zip")
"""What a folder search picks up (case-insensitive)."""
NAMES_SHOWN = 10
"""The most paths a message names."""
PROBLEMS_SHOWN = 10
"""The malformed rows of a file said one by one (the others are counted)."""


def latest_published(today: dt.date) -> Period:
    """The latest list FIDE can have published by `today`: next month's (it comes out a day
    or two before the 1st)."""
    return Period.of(today).next()


def check_published(period: Period, today: dt.date | None = None, *,
                    what: str | None = None) -> None:
    """Refuse a list FIDE cannot have published yet (after next month's): `official add`,
    and each file of `official import` (`what` names it)."""
    today = today or dt.date.today()
    latest = latest_published(today)
    if period > latest:
        said = f"--period {period} is a future list" if what is None else (
            f"{what} is the list of {period}, a future list")
        raise BadInput(f"{said}: today is {today.isoformat()}, and the latest list FIDE can "
                       f"have published is {latest}")


def _published(lst: ListFile, label: str) -> Iterator[ListRow]:
    """The rows of `lst`, refused (`check_published`) before the first is written when the
    list's period (given, or read from the file's name or header; known once the first row
    is read) is a future list."""
    rows = iter(lst)
    first = next(rows, None)
    if first is None:
        return
    if lst.period is not None:
        check_published(lst.period, what=label)
    yield first
    yield from rows


class ListTarget:
    """One file to import: its path, the name shown, its size on disk (for the progress
    bar), or why it cannot be read (an unreadable folder, say)."""

    def __init__(self, path: Path, label: str, problem: str | None = None) -> None:
        self.path = path
        self.label = label
        self.problem = problem
        try:
            self.size = path.stat().st_size if problem is None else 0
        except OSError:
            self.size = 0


def list_targets(files: Sequence[Path]) -> tuple[list[ListTarget], bool]:
    """The files named, a folder's list files in name order (recursively, symlinked folders
    not followed); every missing path is refused before anything is imported. Also whether
    several files may come (then a failing file does not stop the others)."""
    missing = [str(p) for p in files if not p.exists() and not p.is_symlink()]
    if missing:
        raise NotFound(f"{missing[0]}: no such file: check the path" if len(missing) == 1
                       else f"no such files: {', '.join(missing[:NAMES_SHOWN])}: check the "
                            "paths")
    out: list[ListTarget] = []
    seen: set[str] = set()

    def add(path: Path, label: str, problem: str | None = None) -> None:
        try:
            key = str(path.resolve())
        except (OSError, RuntimeError):
            key = str(path)
        if problem is None and key in seen:
            return
        seen.add(key)
        out.append(ListTarget(path, label, problem))

    folders = False
    for arg in files:
        if not arg.is_dir():
            add(arg, str(arg))
            continue
        folders = True
        found: list[Path] = []
        unreadable: list[Path] = []

        def note(exc: OSError, where: list[Path] = unreadable) -> None:
            where.append(Path(exc.filename or ""))

        for root, dirs, names in os.walk(arg, onerror=note):
            dirs.sort()
            found.extend(Path(root) / n for n in names if n.lower().endswith(LIST_SUFFIXES))
        for bad in unreadable:
            add(bad, str(bad), f"{bad}: cannot read the folder (permission denied?)")
        if not found and not unreadable:
            raise NotFound(f"{arg}: no .txt, .xml or .zip list files in this folder")
        for path in sorted(found):
            add(path, str(path))
    return out, folders or len(out) > 1


@dataclass
class FileOutcome:
    """What one file gave: its summary, or (several files) the error that stopped it."""

    target: ListTarget
    summary: ImportSummary | None = None
    error: BadInput | NotFound | None = None
    problems: list[str] = field(default_factory=list)  # the first PROBLEMS_SHOWN, said


Progress = Callable[[ListTarget, float], None]
"""Told the file being read and the bytes of all the files done so far (on disk)."""


def import_lists(store: Store, targets: Sequence[ListTarget], *, several: bool,
                 period: Period | None = None, rating_list: RatingList | None = None,
                 keep_all: bool = False, progress: Progress | None = None
                 ) -> Iterator[FileOutcome]:
    """Import each of `targets`, one transaction per file, and yield what it gave.

    `period`/`rating_list`: the list month and list when the file does not say them (a
    combined file keeps only `rating_list`). `keep_all`: every player of the list (created),
    not only those in the database. With `several`, a file that fails is yielded with its
    error and the next one is imported; otherwise its error is raised.
    """
    only = None if keep_all else known_fide_ids(store)
    done = 0
    for target in targets:
        if progress is not None:
            progress(target, done)

        def advance(part: float, at: int = done, target: ListTarget = target) -> None:
            if progress is not None:
                progress(target, at + part)

        try:
            if target.problem is not None:
                raise BadInput(target.problem)
            outcome = _import_one(store, target, period, rating_list, keep_all, only, advance)
        except (BadInput, NotFound) as exc:
            if not several:
                raise
            outcome = FileOutcome(target, error=exc)
        yield outcome
        done += target.size


def _import_one(store: Store, target: ListTarget, period: Period | None,
                rating_list: RatingList | None, keep_all: bool,
                only: set[int] | None, advance: Callable[[float], None]) -> FileOutcome:
    path = target.path
    with open_list(path, period=period, rating_list=rating_list, only=only,
                   label=target.label) as lst:
        scale = target.size / lst.size if lst.size else 0.0
        lst.on_read = lambda: advance(lst.position * scale)
        summary = import_entries(store, _published(lst, target.label), keep_all=keep_all,
                                 source=path.name)
        if lst.period is not None:  # (every row skipped: the period is checked all the same)
            check_published(lst.period, what=target.label)
        # Players skipped by the reader (not in the database) count as read and skipped.
        summary.rows += lst.filtered
        summary.skipped += lst.filtered
        if lst.period is not None:
            summary.periods.add(lst.period)
        summary.lists.update(lst.lists)
        summary.source = target.label
        if summary.rows == 0:
            first = (f" ({lst.problem_count:,} malformed; the first: {lst.problems[0]})"
                     if lst.problems else "")
            raise BadInput(f"{target.label}: no players in the list{first}: is it the right "
                           "file?")
        summary.problems = lst.problem_count
        return FileOutcome(target, summary, problems=list(lst.problems[:PROBLEMS_SHOWN]))
