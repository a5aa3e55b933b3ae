"""The user's word on a tournament (`tracker event set`): pin it to another list or period,
exclude it, or give the Ro FIDE used. The rules decide whether the list can rate it
(tracker.periods.check_pin); the store records it."""

from __future__ import annotations

from dataclasses import dataclass

from tracker.errors import NotFound
from tracker.model import Period, RatingList
from tracker.periods import check_pin
from tracker.periods.inputs import TournamentFact
from tracker.store import Store
from tracker.store.reading import (
    UNSET,
    OverrideChange,
    Unset,
    dated_only_by_year,
    get_tournament,
    record_group_override,
)
from tracker.store.reading import record_override as store_override

__all__ = ["GroupChange", "record_override", "record_year_override"]


def record_override(
    store: Store,
    tournament_id: int,
    *,
    period: Period | None | Unset = UNSET,
    rating_list: RatingList | None | Unset = UNSET,
    excluded: bool | Unset = UNSET,
    ro: tuple[int, int | None] | Unset = UNSET,
    force: bool = False,
) -> OverrideChange:
    """Record the overrides of one tournament (tracker.store.reading.record_override), once
    the rules accept a pinned `period` for it (`force`: even before its last round)."""
    if isinstance(period, Period):
        before = get_tournament(store, tournament_id)  # NotFound with a clear sentence
        on = before.pinned_list if isinstance(rating_list, Unset) else rating_list
        check_pin(before, period, on or RatingList.STANDARD, force=force)
    return store_override(
        store, tournament_id, period=period, rating_list=rating_list, excluded=excluded, ro=ro
    )


@dataclass(frozen=True)
class GroupChange:
    """What `record_year_override` changed: the tournaments dated only by `year`, and the
    overrides recorded for each (in words, as `OverrideChange.changes`)."""

    year: int
    tournaments: tuple[TournamentFact, ...]
    changes: tuple[str, ...]


def record_year_override(
    store: Store,
    year: int,
    *,
    period: Period | None | Unset = UNSET,
    rating_list: RatingList | None | Unset = UNSET,
    excluded: bool | Unset = UNSET,
    force: bool = False,
) -> GroupChange:
    """Record the same overrides for every tournament dated only by `year` (its games' date
    tags give the year and no month: `2011.??.??`), all or none: a pinned `period` must
    suit each of them (`check_pin`: not a list dated before the year began, unless
    `force`)."""
    found = dated_only_by_year(store, year)
    if not found:
        raise NotFound(
            f"--year {year}: no tournament is dated only by the year {year} (Date tags like "
            f"{year}.??.?? and no whole date); `tracker event list` shows the tournaments"
        )
    if isinstance(period, Period):
        for t in found:
            on = t.pinned_list if isinstance(rating_list, Unset) else rating_list
            check_pin(t, period, on or RatingList.STANDARD, force=force)
    changes = record_group_override(
        store, [t.id for t in found], period=period, rating_list=rating_list, excluded=excluded
    )
    return GroupChange(year, tuple(found), changes)
