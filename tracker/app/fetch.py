"""`tracker official fetch`: which list files the database needs, fetched from FIDE's
download folder into the cache (tracker.lists.fetch, the one module that reaches the
network), then imported as `official import` imports a file
(tracker.app.official.import_lists).

What is needed (`needed_lists`): for every dated tournament not excluded, the list in force
at its start, on the tournament's list (its opponents are rated with it); for the tracked
player, the list of every period of their replay on each list (the official rating each
period is checked against, and the one the replay starts from) and, for their rapid and
blitz tournaments, the standard list in force at the start (a player unrated there is rated
at their standard rating). Or the months asked for (`asked_lists`). The verb
(`fetch_lists`) returns a typed `FetchOutcome`; tracker.reports.fetch words it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from tracker.app.histories import load_history
from tracker.app.official import (
    FileOutcome,
    ListTarget,
    import_lists,
    latest_published,
    list_month_problem,
)
from tracker.errors import BadInput, Unavailable
from tracker.lists.fetch import (
    ARCHIVE_FROM,
    FIDE_DOWNLOADS,
    MAX_UNZIPPED,
    STOPS_THE_RUN,
    Fetched,
    FetchSettings,
    ListFetcher,
    Missing,
    Outcome,
    Progress,
    Why,
    check_base_url,
    default_cache,
    file_names,
)
from tracker.model import Period, RatingList
from tracker.periods import list_in_force
from tracker.store import Store
from tracker.store.players import me
from tracker.store.reading import tournament_starts

__all__ = [
    "ARCHIVE_FROM",
    "FIDE_DOWNLOADS",
    "MAX_UNZIPPED",
    "FetchOutcome",
    "FetchSettings",
    "Fetched",
    "ListImport",
    "ListMonth",
    "Missing",
    "Why",
    "asked_lists",
    "check_base_url",
    "default_cache",
    "fetch_files",
    "fetch_lists",
    "import_fetched",
    "file_names",
    "lists_to_fetch",
    "needed_lists",
]


class ListMonth(NamedTuple):
    """One list of one month (sorted by month, then standard, rapid, blitz)."""

    period: Period
    rating_list: RatingList

    @property
    def order(self) -> tuple[Period, int]:
        return (self.period, list(RatingList).index(self.rating_list))


def _sorted(months: Iterable[ListMonth]) -> list[ListMonth]:
    return sorted(set(months), key=lambda m: m.order)


def needed_lists(store: Store, lists: Sequence[RatingList] = ()) -> list[ListMonth]:
    """The list months the database's replays read (module docstring), of `lists` (all
    three when empty)."""
    chosen = set(lists or RatingList)
    need: set[ListMonth] = set()
    for start, rating_list in tournament_starts(store):
        on = list_in_force(start, rating_list)
        if on is not None:
            need.add(ListMonth(on, rating_list))
    tracked = me(store)
    if tracked is not None:
        history = load_history(store, tracked)
        for rating_list, replay in history.replays.items():
            need.update(ListMonth(row.period, rating_list) for row in replay.rows)
            if rating_list is RatingList.STANDARD:
                continue
            for unit in replay.units:
                on = list_in_force(unit.start, RatingList.STANDARD) if unit.start else None
                if on is not None:
                    need.add(ListMonth(on, RatingList.STANDARD))
    return _sorted(m for m in need if m.rating_list in chosen)


def asked_lists(
    lists: Sequence[RatingList],
    period: Period | None,
    first: Period | None,
    last: Period | None,
    today: dt.date,
) -> list[ListMonth]:
    """The list months named on the command line: `period`, or every month from `first` to
    `last` (default: the latest list out), of `lists` (all three when empty) where FIDE
    published that list. BadInput (a bad value: exit 2) for a month before FIDE's folder,
    a range upside down, or a month no asked list has."""
    chosen = list(lists or RatingList)
    if period is not None and (first is not None or last is not None):
        raise BadInput("give either --period or --from/--to, not both")
    if last is not None and first is None:
        raise BadInput(f"--to {last}: give --from too (the first month wanted)")
    for option, month in (("--period", period), ("--from", first)):
        if month is not None and month < ARCHIVE_FROM:
            raise BadInput(
                f"{option} {month}: FIDE's download folder starts with the list of "
                f"{ARCHIVE_FROM}; older lists are not available there: give a month from "
                f"{ARCHIVE_FROM} on"
            )
    if period is not None:
        found = [ListMonth(period, rl) for rl in chosen if list_month_problem(rl, period) is None]
        if not found:
            problem = list_month_problem(chosen[0], period)
            raise BadInput(f"--period {period}: {problem}: give the month of a published list")
        return found
    assert first is not None
    end = last if last is not None else latest_published(today)
    if end < first:
        raise BadInput(f"--from {first} is after --to {end}: give the earlier month first")
    found = []
    month = first
    while month <= end:
        found += [ListMonth(month, rl) for rl in chosen if list_month_problem(rl, month) is None]
        month = month.next()
    if not found:
        names = " or ".join(str(rl) for rl in chosen)
        raise BadInput(
            f"--from {first} --to {end}: FIDE published no {names} list in those months: "
            "give a wider range"
        )
    return _sorted(found)


def lists_to_fetch(
    store: Store,
    lists: Sequence[RatingList],
    period: Period | None,
    first: Period | None,
    last: Period | None,
    today: dt.date,
) -> list[ListMonth]:
    """The months asked for, else those the database needs; NotFound when it needs none."""
    if period is not None or first is not None or last is not None:
        return asked_lists(lists, period, first, last, today)
    needed = needed_lists(store, lists)
    if not needed:
        which = "" if not lists else " on the " + " or ".join(str(rl) for rl in lists) + " list"
        raise Unavailable(
            f"nothing to fetch: the database has no dated tournament{which} since 2008 "
            "(import your games with `tracker import`), or name the months: --period "
            "YYYY-MM or --from YYYY-MM"
        )
    return needed


@dataclass(frozen=True)
class ListImport:
    """What importing one fetched file gave (`official import`'s FileOutcome)."""

    month: ListMonth
    outcome: FileOutcome


@dataclass
class FetchOutcome:
    """What `fetch_lists` did: each month asked for, fetched or missing (in order); the
    months not tried after a failure every next one would meet too (`stopped`); and what
    each file imported gave."""

    wanted: list[ListMonth]
    results: list[Outcome] = field(default_factory=list)
    stopped: Missing | None = None
    untried: list[ListMonth] = field(default_factory=list)
    imports: list[ListImport] = field(default_factory=list)

    @property
    def had(self) -> list[Fetched]:
        """The months whose file is in the cache now (fetched or found there)."""
        return [r for r in self.results if isinstance(r, Fetched)]

    @property
    def fetched(self) -> list[Fetched]:
        return [r for r in self.results if isinstance(r, Fetched) and not r.cached]

    @property
    def cached(self) -> list[Fetched]:
        return [r for r in self.results if isinstance(r, Fetched) and r.cached]

    @property
    def missing(self) -> list[Missing]:
        """The months not had, but for the lists not out yet."""
        return [r for r in self.results if isinstance(r, Missing) and r.why is not Why.NOT_YET]

    @property
    def due(self) -> list[Missing]:
        """The lists not out yet."""
        return [r for r in self.results if isinstance(r, Missing) and r.why is Why.NOT_YET]

    @property
    def not_imported(self) -> list[ListImport]:
        return [i for i in self.imports if i.outcome.error is not None]

    @property
    def failed(self) -> bool:
        """Whether anything asked for is not in the database now (exit 1)."""
        return bool(self.missing or self.untried or self.not_imported)


def fetch_files(
    wanted: Sequence[ListMonth],
    settings: FetchSettings,
    *,
    today: dt.date | None = None,
    on_result: Callable[[Outcome], None] | None = None,
    on_download: Progress | None = None,
) -> FetchOutcome:
    """Fetch each of `wanted` into the cache (from the cache itself when it is there, else
    from the network unless `settings.offline`), in order; stop at a failure every next one
    would meet too (no network, a full disk). `on_result` is told each month as it is had or
    missed, `on_download` the bytes of each download. The database is not touched."""
    now = Period.of(today or dt.date.today())
    fetcher = ListFetcher(settings, on_download)
    outcome = FetchOutcome(list(wanted))
    for i, month in enumerate(wanted):
        got = fetcher.get(month.rating_list, month.period, today=now)
        outcome.results.append(got)
        if on_result is not None:
            on_result(got)
        if isinstance(got, Missing) and got.why in STOPS_THE_RUN:
            outcome.stopped = got
            outcome.untried = list(wanted[i + 1 :])
            break
    return outcome


def import_fetched(
    store: Store,
    outcome: FetchOutcome,
    *,
    on_import: Callable[[ListImport], None] | None = None,
    on_import_progress: Callable[[ListTarget, float], None] | None = None,
) -> FetchOutcome:
    """Import the files `fetch_files` had, one transaction a file (a file that fails
    leaves nothing and the next is imported), into `outcome.imports`; `on_import` is told
    each as it is done."""
    had = outcome.had
    months = {r.path: ListMonth(r.period, r.rating_list) for r in had}
    targets = [ListTarget(r.path, r.path.name) for r in had]
    if not targets:
        return outcome
    # A fetched file is FIDE's whole list of its month.
    for done in import_lists(store, targets, several=True, progress=on_import_progress, whole=True):
        one = ListImport(months[done.target.path], done)
        outcome.imports.append(one)
        if on_import is not None:
            on_import(one)
    return outcome


def fetch_lists(
    store: Store,
    wanted: Sequence[ListMonth],
    settings: FetchSettings,
    *,
    today: dt.date | None = None,
    on_result: Callable[[Outcome], None] | None = None,
    on_download: Progress | None = None,
    on_import: Callable[[ListImport], None] | None = None,
    on_import_progress: Callable[[ListTarget, float], None] | None = None,
) -> FetchOutcome:
    """`fetch_files`, then `import_fetched`: the whole of `tracker official fetch`."""
    outcome = fetch_files(
        wanted, settings, today=today, on_result=on_result, on_download=on_download
    )
    return import_fetched(
        store, outcome, on_import=on_import, on_import_progress=on_import_progress
    )
