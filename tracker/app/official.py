"""FIDE's published lists into the store (`tracker official import`), and which lists and
entries can exist at all (`check_published`, `check_entry`, `list_month_problem`,
`lowest_rating`: a month FIDE published that list in, a rating from the floor of that list's
edition to MAX_RATING), so that `official add` and `official import` refuse the same.

`list_targets(paths)` finds the list files named; `import_lists(store, targets, ...)`
imports them one file per transaction and yields what each file gave (`FileOutcome`), so
one bad file of several does not stop the others. The reading is tracker.lists', the
writing tracker.store.official's; this module is the use case between them and prints
nothing. How the players known only by name are found in a list's bytes before its rows are
cut (`name_sieve`): docs/architecture.md, section tracker/app/.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tracker.errors import BadInput, NotFound
from tracker.fide import edition_for, list_calendar, policies
from tracker.fide.calendar import RAPID_BLITZ_FIRST_LIST
from tracker.lists import ListFile, open_list
from tracker.lists.sieve import NameSieve
from tracker.lists.whole import WHOLE_FLOORS, kind_of, whole_floor
from tracker.model import (
    MAX_RATING,
    ImportSummary,
    ListKind,
    ListRow,
    OfficialEntry,
    Period,
    RatingList,
)
from tracker.store import Store, entries
from tracker.store.lists import NameIndex, unmatched_players
from tracker.store.official import import_entries, known_fide_ids

__all__ = [
    "FileOutcome",
    "ListTarget",
    "add_entry",
    "check_entry",
    "check_published",
    "import_lists",
    "latest_published",
    "list_month_problem",
    "list_targets",
    "lowest_rating",
    "name_sieve",
    "official_entries",
    "rating_problem",
    "remove_entry",
    "whole_floor",
]

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


def check_published(
    period: Period, today: dt.date | None = None, *, what: str | None = None
) -> None:
    """Refuse a list FIDE cannot have published yet (after next month's): `official add`,
    and each file of `official import` (`what` names it)."""
    today = today or dt.date.today()
    latest = latest_published(today)
    if period > latest:
        said = (
            f"--period {period} is a future list"
            if what is None
            else (f"{what} is the list of {period}, a future list")
        )
        raise BadInput(
            f"{said}: today is {today.isoformat()}, and the latest list FIDE can "
            f"have published is {latest}"
        )


def list_month_problem(rating_list: RatingList, period: Period) -> str | None:
    """Why FIDE published no `rating_list` list in `period` (None: it did), by the list
    calendar of that era (tracker.fide.calendar): quarterly lists before Jul 2009,
    two-monthly to May 2012, monthly since; no rapid or blitz list before Jul 2012."""
    calendar = list_calendar(period.list_date, rating_list)
    if calendar.is_list_month(period):
        return None
    if rating_list is not RatingList.STANDARD and period < RAPID_BLITZ_FIRST_LIST:
        return (
            f"FIDE published no {rating_list} list before {RAPID_BLITZ_FIRST_LIST}, "
            f"its first {rating_list} list"
        )
    before, after = period.shift(-1), period.next()
    while not calendar.is_list_month(before):
        before = before.shift(-1)
    while not calendar.is_list_month(after):
        after = after.next()
    return (
        f"FIDE published no {rating_list} list in {period} ({calendar.era} lists then: "
        f"the nearest are {before} and {after})"
    )


def lowest_rating(rating_list: RatingList, period: Period) -> int:
    """The lowest rating FIDE prints on `rating_list`'s list of `period`: the floor of the
    edition in force on its date (a result below it is published as unrated). Before 2008
    (no edition: the tracker does not replay that era) the floor of 2008,
    policies.FLOOR_BEFORE_JUL_2009: FIDE only lowered its floor until 2024, so no earlier
    list printed a lower rating."""
    try:
        return edition_for(rating_list, period.list_date).floor
    except BadInput:
        return policies.FLOOR_BEFORE_JUL_2009


def rating_problem(rating_list: RatingList, period: Period, rating: int) -> str | None:
    """Why `rating` cannot be on `rating_list`'s list of `period` (None: it can): below
    `lowest_rating`, or above MAX_RATING (FIDE's lists print four digits)."""
    if rating > MAX_RATING:
        return f"{rating} is above {MAX_RATING}, the highest rating a FIDE list can print"
    floor = lowest_rating(rating_list, period)
    if rating < floor:
        return (
            f"{rating} is below {floor}, the lowest rating on FIDE's {rating_list} list of "
            f"{period} (the floor: a result below it is published as unrated)"
        )
    return None


def check_entry(
    rating_list: RatingList, period: Period, rating: int | None, today: dt.date | None = None
) -> None:
    """Refuse (BadInput, in the words of `official add`'s options) an entry no FIDE list can
    hold: a list after next month's (`check_published`), a month FIDE published no such
    list in (`list_month_problem`), a rating outside `rating_problem`'s range."""
    check_published(period, today)
    month = list_month_problem(rating_list, period)
    if month is not None:
        raise BadInput(f"--period {period}: {month}: give the month of a published list")
    if rating is not None:
        bad = rating_problem(rating_list, period, rating)
        if bad is not None:
            raise BadInput(f"--rating {bad}: give the rating as the list printed it")


def add_entry(store: Store, entry: OfficialEntry) -> bool:
    """Record one entry (`check_entry` first: an impossible one is refused before the store
    is touched); True when it replaced an entry for the same player, list and period."""
    check_entry(entry.list, entry.period, entry.rating)
    return entries.add_entry(store, entry)


def official_entries(
    store: Store, player_id: int, rating_list: RatingList | None = None
) -> list[OfficialEntry]:
    """A player's official entries (`tracker official list`), by list (standard, rapid,
    blitz), then period."""
    return entries.entries_for(store, player_id, rating_list)


def remove_entry(store: Store, player_id: int, rating_list: RatingList, period: Period) -> bool:
    """Delete one official entry (`tracker official remove`); True when there was one."""
    return entries.remove_entry(store, player_id, rating_list, period)


def check_list(period: Period, lists: Iterable[RatingList], what: str) -> None:
    """Refuse a list file (`what` names it) whose month FIDE cannot have published yet
    (`check_published`) or published no list of its kind in (`list_month_problem`)."""
    check_published(period, what=what)
    for one in lists:
        month = list_month_problem(one, period)
        if month is not None:
            raise BadInput(
                f"{what} is the {one} list of {period}, but {month}: check the month "
                "(the file name, the header or --period)"
            )


def _published(lst: ListFile, label: str, kept: list[int]) -> Iterator[ListRow]:
    """The rows of `lst`, the file refused (`check_list`) before the first is written when
    the list's period (given, or read from the file's name or header; known once the first
    row is read) is a future list or a month of no such list, and every row with a rating
    no list of that month can print (`rating_problem`) skipped as a malformed one is (said
    in `lst.problems`, counted in `lst.problem_count`). `kept[0]`: the rows yielded."""
    rows = iter(lst)
    first = next(rows, None)
    if first is None:
        return
    if lst.period is not None:
        check_list(lst.period, lst.lists, label)
    period = first.period  # (every row's: the file's)
    floors = {one: lowest_rating(one, period) for one in RatingList}
    for row in itertools.chain((first,), rows):
        for figures in row.ratings:  # (above MAX_RATING: the reader refuses it already)
            if figures.rating is not None and figures.rating < floors[figures.list]:
                said = rating_problem(figures.list, period, figures.rating)
                lst.skip_row(row.position, f"{figures.list} rating {said}")
                break
        else:
            kept[0] += 1
            yield row


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
        raise NotFound(
            f"{missing[0]}: no such file: check the path"
            if len(missing) == 1
            else f"no such files: {', '.join(missing[:NAMES_SHOWN])}: check the paths"
        )
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


def import_lists(
    store: Store,
    targets: Sequence[ListTarget],
    *,
    several: bool,
    period: Period | None = None,
    rating_list: RatingList | None = None,
    keep_all: bool = False,
    progress: Progress | None = None,
    whole: bool | None = None,
) -> Iterator[FileOutcome]:
    """Import each of `targets`, one transaction per file, and yield what it gave.

    `period`/`rating_list`: the list month and list when the file does not say them (a
    combined file keeps only `rating_list`). `keep_all`: every player of the list (created),
    not only those in the database. With `several`, a file that fails is yielded with its
    error and the next one is imported; otherwise its error is raised. `whole`: True, every
    file is FIDE's whole list (a player it lacks is unrated for FIDE: `--whole`, a fetched
    list); False, an excerpt (a player it lacks keeps what they had: `--excerpt`); None,
    judged by its rows (`tracker.lists.whole.kind_of`).
    """
    only = None if keep_all else known_fide_ids(store)
    names = unmatched_players(store)
    earlier: list[tuple[RatingList, Period]] = []  # of this run's files (keep_all)
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
            outcome = _import_one(
                store,
                target,
                period,
                rating_list,
                keep_all,
                only,
                names,
                earlier,
                advance,
                whole=whole,
            )
        except (BadInput, NotFound) as exc:
            if not several:
                raise
            outcome = FileOutcome(target, error=exc)
        s = outcome.summary
        if s is not None and s.matched:  # players now known by FIDE ID, or merged away
            only = None if keep_all else known_fide_ids(store)
            names = unmatched_players(store)
        yield outcome
        done += target.size


def _import_one(
    store: Store,
    target: ListTarget,
    period: Period | None,
    rating_list: RatingList | None,
    keep_all: bool,
    only: set[int] | None,
    names: NameIndex,
    earlier: list[tuple[RatingList, Period]],
    advance: Callable[[float], None],
    *,
    whole: bool | None = None,
) -> FileOutcome:
    path = target.path
    with open_list(
        path,
        period=period,
        rating_list=rating_list,
        only=only,
        names=name_sieve(names) if only is not None and names else None,
        label=target.label,
    ) as lst:
        scale = target.size / lst.size if lst.size else 0.0
        lst.on_read = lambda: advance(lst.position * scale)
        kept = [0]  # the rows _published let through

        def held() -> list[tuple[RatingList, Period]]:
            # (inside the file's transaction: a future list is refused before it commits)
            if lst.period is not None:
                check_list(lst.period, lst.lists, target.label)
            if lst.period is None or not (kept[0] or lst.filtered):
                return []  # (no row: the file is refused below, nothing written)
            return [(one, lst.period) for one in lst.lists]

        def kind() -> ListKind:
            # (once every row is read: the file's rows, the skipped and malformed ones too)
            if whole is not None:
                return ListKind.WHOLE if whole else ListKind.EXCERPT
            if lst.period is None:
                return ListKind.EXCERPT  # (no row: the file is refused below)
            return kind_of(kept[0] + lst.filtered + lst.problem_count, lst.lists, lst.period)

        summary = import_entries(
            store,
            _published(lst, target.label, kept),
            keep_all=keep_all,
            source=path.name,
            names=names,
            held=held,
            list_source=_absolute(path),
            earlier=earlier if keep_all else (),
            kind=kind,
            listed=_LISTED_UP_TO if whole is None else 0 if whole else sys.maxsize,
        )
        if lst.period is not None:  # (every row skipped: the period is checked all the same)
            check_list(lst.period, lst.lists, target.label)
        # Players skipped by the reader (not in the database) count as read and skipped.
        summary.rows += lst.filtered
        summary.skipped += lst.filtered
        if lst.period is not None:
            summary.periods.add(lst.period)
        summary.lists.update(lst.lists)
        summary.source = target.label
        if summary.rows == 0:
            first = (
                f" ({lst.problem_count:,} malformed; the first: {lst.problems[0]})"
                if lst.problems
                else ""
            )
            raise BadInput(f"{target.label}: no players in the list{first}: is it the right file?")
        summary.problems = lst.problem_count
        if summary.kind is ListKind.WHOLE:  # (a player an excerpt lacks is not known)
            earlier.extend(held())
        return FileOutcome(target, summary, problems=list(lst.problems[:PROBLEMS_SHOWN]))


_LISTED_UP_TO = max(floor for _, *floors in WHOLE_FLOORS for floor in floors)
"""The players a file judged by its rows lists that the import keeps (their ids), until it
has more rows than any excerpt has (then it is whole)."""


def _absolute(path: Path) -> str:
    """The file's path as official_lists records it: absolute, symbolic links resolved."""
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):
        return str(path.absolute())


def name_sieve(index: NameIndex) -> NameSieve:
    """What the list reader keeps of the rows that are not asked for by FIDE ID: those whose
    name fits a player of `index` (the players without a FIDE ID), found from the rows'
    bytes before they are cut (tracker.lists.sieve); the store then settles each name."""
    return NameSieve(index.words, lambda name: bool(index.fits(name)))
