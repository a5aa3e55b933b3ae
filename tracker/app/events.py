"""The user's word on a tournament (`tracker event set`): pin it to another list or period,
exclude it, or give the Ro FIDE used. The rules decide whether the list can rate it
(tracker.periods.check_pin); the store records it."""

from __future__ import annotations

from tracker.model import Period, RatingList
from tracker.periods import check_pin
from tracker.store import Store
from tracker.store.reading import UNSET, OverrideChange, Unset, get_tournament
from tracker.store.reading import record_override as store_override

__all__ = ["record_override"]


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
