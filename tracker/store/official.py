"""Official list entries: what FIDE published for a player on a list in a period.

`add_entry` / `entries_for` / `remove_entry` serve `tracker official add|list|remove` and the
check; `import_entries` writes a whole published list (rows from `tracker.fidelists`), in
batches, inside one transaction per file: a file that fails half way leaves nothing behind.

Replace semantics: FIDE re-issues lists, so the newest file wins. Importing a list for a
period already recorded replaces those players' entries for that period (counted in
`ImportSummary.replaced`); a player the new file lists with an empty rating loses the old
entry for that list and period (counted in `ImportSummary.cleared`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from sqlalchemy import Connection, Row, and_, bindparam, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from tracker.errors import BadInput, NotFound
from tracker.fidelists import ListRow
from tracker.model import OfficialEntry, Period, RatingList
from tracker.names import normalize_name
from tracker.store.db import Store
from tracker.store.schema import official_ratings, player_names, players

BATCH = 5_000
_LIST_ORDER = {lst: i for i, lst in enumerate(RatingList)}


def _entry(row: Row[tuple[object, ...]]) -> OfficialEntry:
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


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def add_entry(store: Store, entry: OfficialEntry) -> bool:
    """Record one entry; True when it replaced an entry for the same player, list, period."""
    if entry.rating is not None and not 0 < entry.rating < 4000:
        raise BadInput(f"rating {entry.rating} is out of range: give a rating from 1 to 3999")
    for what, value in (("games", entry.games), ("K", entry.k)):
        if value is not None and value < 0:
            raise BadInput(f"{what} {value} is negative: give 0 or more")
    with store.engine.begin() as conn:
        exists = conn.execute(
            select(players.c.id).where(players.c.id == entry.player_id)
        ).first()
        if exists is None:
            raise NotFound(f"no player with id {entry.player_id}: import their games first")
        replaced = conn.execute(
            delete(official_ratings).where(
                _key_clause(entry.player_id, entry.list, entry.period)
            )
        ).rowcount
        try:
            conn.execute(insert(official_ratings).values(**_values(entry, _now())))
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
        found = [_entry(r) for r in conn.execute(query)]
    found.sort(key=lambda e: (_LIST_ORDER[e.list], e.period))
    return found


def remove_entry(
    store: Store, player_id: int, rating_list: RatingList, period: Period
) -> bool:
    """Delete one entry; True when there was one."""
    with store.engine.begin() as conn:
        gone = conn.execute(
            delete(official_ratings).where(_key_clause(player_id, rating_list, period))
        ).rowcount
    return bool(gone)


@dataclass
class ImportSummary:
    """What an import did, for the command's report."""

    source: str
    rows: int = 0  # players read from the file
    kept: int = 0  # players matched in the database (or created with keep_all)
    created: int = 0  # players created (keep_all)
    skipped: int = 0  # players not in the database (not keep_all)
    entries: int = 0  # entries written
    replaced: int = 0  # entries of an earlier file replaced by this one
    cleared: int = 0  # earlier entries removed because this file lists no rating
    duplicates: int = 0  # rows whose FIDE ID appeared earlier in this file (the last wins)
    birth_years: int = 0  # players whose birth year was filled from the list
    problems: int = 0  # malformed rows the reader skipped (set by the caller)
    periods: set[Period] = field(default_factory=set)
    lists: set[RatingList] = field(default_factory=set)


def _batches(rows: Iterable[ListRow], size: int) -> Iterator[list[ListRow]]:
    it = iter(rows)
    while chunk := list(islice(it, size)):
        yield chunk


def _known(conn: Connection, fide_ids: Sequence[int]) -> dict[int, tuple[int, bool]]:
    """fide_id -> (player id, birth year missing) for the players already recorded."""
    found: dict[int, tuple[int, bool]] = {}
    result = conn.execute(
        select(players.c.id, players.c.fide_id, players.c.birth_year).where(
            players.c.fide_id.in_(fide_ids)
        )
    )
    for pid, fid, birth in result:
        found[int(fid)] = (int(pid), birth is None)
    return found


def _insert_ignoring_conflicts(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Add name spellings, keeping the first player a spelling already points to."""
    if not rows:
        return
    dialect = conn.dialect.name
    if dialect == "sqlite":
        conn.execute(sqlite.insert(player_names).on_conflict_do_nothing(), rows)
    elif dialect == "postgresql":
        conn.execute(postgresql.insert(player_names).on_conflict_do_nothing(), rows)
    else:  # other backends: names stay unrecorded, FIDE ID lookup still works
        return


def _create_players(conn: Connection, chunk: dict[int, ListRow]) -> None:
    if not chunk:
        return
    conn.execute(
        insert(players),
        [
            {
                "name": row.name,
                "norm_name": normalize_name(row.name),
                "fide_id": fid,
                "title": row.title or row.women_title,
                "federation": row.federation,
                "birth_year": row.birth_year,
            }
            for fid, row in chunk.items()
        ],
    )


def import_entries(
    store: Store,
    rows: Iterable[ListRow],
    *,
    keep_all: bool,
    source: str,
    progress: Callable[[int], None] | None = None,
) -> ImportSummary:
    """Write the entries of one list file (all in one transaction).

    Players are matched by FIDE ID; by default the others are skipped, with `keep_all` they
    are created. Each list of a row with a rating becomes an entry for the row's period,
    replacing an earlier file's entry; an empty rating clears an earlier entry. The player's
    birth year is filled from the list when the database has none. `progress` is called
    with the number of rows read so far after each batch.
    """
    summary = ImportSummary(source=source)
    stamp = _now()
    with store.engine.begin() as conn:
        for chunk in _batches(rows, BATCH):
            _import_batch(conn, chunk, summary, keep_all=keep_all, source=source, stamp=stamp)
            if progress is not None:
                progress(summary.rows)
    return summary


def _import_batch(
    conn: Connection,
    chunk: list[ListRow],
    summary: ImportSummary,
    *,
    keep_all: bool,
    source: str,
    stamp: dt.datetime,
) -> None:
    summary.rows += len(chunk)
    known = _known(conn, list({r.fide_id for r in chunk}))
    if keep_all:
        missing: dict[int, ListRow] = {}
        for row in chunk:
            if row.fide_id not in known and row.fide_id not in missing:
                missing[row.fide_id] = row
        if missing:
            _create_players(conn, missing)
            summary.created += len(missing)
            created = _known(conn, list(missing))
            _insert_ignoring_conflicts(
                conn,
                [
                    {"norm_name": key, "player_id": created[fid][0]}
                    for fid, row in missing.items()
                    if (key := normalize_name(row.name))
                ],
            )
            # Their birth year came with the row: nothing to fill in.
            known.update({fid: (pid, False) for fid, (pid, _) in created.items()})

    # The last row of a FIDE ID in the batch wins; earlier batches are handled by `stamp`.
    latest: dict[int, ListRow] = {}
    for row in chunk:
        if row.fide_id in latest:
            summary.duplicates += 1
        latest[row.fide_id] = row

    births: list[dict[str, Any]] = []
    groups: dict[tuple[RatingList, Period], list[tuple[int, ListRow, int | None, int | None,
                                                      int | None]]] = {}
    for fid, row in latest.items():
        hit = known.get(fid)
        if hit is None:
            summary.skipped += 1
            continue
        pid, birth_missing = hit
        summary.kept += 1
        summary.periods.add(row.period)
        if birth_missing and row.birth_year is not None:
            births.append({"pid": pid, "birth": row.birth_year})
        for figures in row.ratings:
            summary.lists.add(figures.list)
            groups.setdefault((figures.list, row.period), []).append(
                (pid, row, figures.rating, figures.games, figures.k)
            )

    if births:
        conn.execute(
            update(players)
            .where(players.c.id == bindparam("pid"), players.c.birth_year.is_(None))
            .values(birth_year=bindparam("birth")),
            births,
        )
        summary.birth_years += len(births)

    for (rating_list, period), items in groups.items():
        ids = [pid for pid, *_ in items]
        scope = and_(
            official_ratings.c.player_id.in_(ids),
            official_ratings.c.list == str(rating_list),
            official_ratings.c.period == str(period),
        )
        # Entries of this same file (an earlier batch) are duplicates, not replacements.
        again = conn.execute(
            delete(official_ratings).where(scope, official_ratings.c.recorded_at == stamp)
        ).rowcount
        summary.duplicates += again
        summary.entries -= again
        old = conn.execute(
            select(official_ratings.c.player_id).where(scope)
        ).scalars().all()
        if old:
            conn.execute(delete(official_ratings).where(scope))
        rated_ids = {pid for pid, _row, rating, _g, _k in items if rating is not None}
        summary.replaced += sum(1 for pid in old if pid in rated_ids)
        summary.cleared += sum(1 for pid in old if pid not in rated_ids)
        values = [
            {
                "player_id": pid,
                "list": str(rating_list),
                "period": str(period),
                "rating": rating,
                "games": games,
                "k": k,
                "flag": row.flag,
                "title": row.title or row.women_title,
                "birth_year": row.birth_year,
                "source": source,
                "recorded_at": stamp,
            }
            for pid, row, rating, games, k in items
            if rating is not None
        ]
        if values:
            conn.execute(insert(official_ratings), values)
            summary.entries += len(values)

