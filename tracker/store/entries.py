"""Official list entries one at a time: `add_entry` / `entries_for` / `remove_entry` serve
`tracker official add|list|remove` and the check (a whole list: tracker.store.official).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Row, and_, delete, insert, select
from sqlalchemy.exc import IntegrityError

from tracker.errors import BadInput, NotFound
from tracker.model import MAX_K, MAX_RATING, OfficialEntry, Period, RatingList
from tracker.store.db import Store, utc_now, writing
from tracker.store.schema import official_ratings, players

_LIST_ORDER = {lst: i for i, lst in enumerate(RatingList)}


def entry_order(entry: OfficialEntry) -> tuple[int, Period]:
    """How entries are listed: by list (standard, rapid, blitz), then by period."""
    return _LIST_ORDER[entry.list], entry.period


def official_entry(row: Row[tuple[object, ...]]) -> OfficialEntry:
    """An official_ratings row as the value the store hands out."""
    m = row._mapping
    return OfficialEntry(
        player_id=int(m["player_id"]),
        list=RatingList(m["list"]),
        period=Period.parse(str(m["period"])),
        rating=m["rating"],
        games=m["games"],
        k=m["k"],
        flag=m["flag"],
        title=m["title"],
        birth_year=m["birth_year"],
        source=str(m["source"]),
    )


def _values(entry: OfficialEntry, recorded_at: dt.datetime) -> dict[str, Any]:
    return {
        "player_id": entry.player_id,
        "list": str(entry.list),
        "period": str(entry.period),
        "rating": entry.rating,
        "games": entry.games,
        "k": entry.k,
        "flag": entry.flag,
        "title": entry.title,
        "birth_year": entry.birth_year,
        "source": entry.source,
        "recorded_at": recorded_at,
    }


def _key_clause(player_id: int, rating_list: RatingList, period: Period) -> Any:
    return and_(
        official_ratings.c.player_id == player_id,
        official_ratings.c.list == str(rating_list),
        official_ratings.c.period == str(period),
    )


def add_entry(store: Store, entry: OfficialEntry) -> bool:
    """Record one entry; True when it replaced an entry for the same player, list, period."""
    if entry.rating is not None and not 1 <= entry.rating <= MAX_RATING:
        raise BadInput(
            f"rating {entry.rating} is out of range: give a rating from 1 to {MAX_RATING}"
        )
    if entry.games is not None and entry.games < 0:
        raise BadInput(f"games {entry.games} is negative: give 0 or more")
    if entry.k is not None and not 1 <= entry.k <= MAX_K:
        raise BadInput(
            f"K {entry.k} is not a K FIDE prints: give one from 1 to {MAX_K} "
            "(10, 15, 20, 25, 30 or 40), or leave --k out"
        )
    with writing(store) as conn:
        exists = conn.execute(select(players.c.id).where(players.c.id == entry.player_id)).first()
        if exists is None:
            raise NotFound(f"no player with id {entry.player_id}: import their games first")
        replaced = conn.execute(
            delete(official_ratings).where(_key_clause(entry.player_id, entry.list, entry.period))
        ).rowcount
        try:
            conn.execute(insert(official_ratings).values(**_values(entry, utc_now())))
        except IntegrityError as exc:  # pragma: no cover - guarded above
            raise BadInput(f"cannot record the entry: {exc.orig}") from None
    return bool(replaced)


def entries_for(
    store: Store, player_id: int, rating_list: RatingList | None = None
) -> list[OfficialEntry]:
    """A player's entries, ordered by list (standard, rapid, blitz), then period."""
    query = select(official_ratings).where(official_ratings.c.player_id == player_id)
    if rating_list is not None:
        query = query.where(official_ratings.c.list == str(rating_list))
    with store.engine.connect() as conn:
        found = [official_entry(r) for r in conn.execute(query)]
    found.sort(key=entry_order)
    return found


def remove_entry(store: Store, player_id: int, rating_list: RatingList, period: Period) -> bool:
    """Delete one entry; True when there was one."""
    with writing(store) as conn:
        gone = conn.execute(
            delete(official_ratings).where(_key_clause(player_id, rating_list, period))
        ).rowcount
    return bool(gone)
