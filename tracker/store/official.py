"""Official list entries: what FIDE published for a player on a list in a period.

`import_entries` writes a whole published list in one transaction per file: a file that
fails half way leaves nothing behind. FIDE re-issues lists, so the newest file wins, and the
same file again writes nothing; players without a FIDE ID are matched by name
(tracker.store.lists). The replace and merge rules: docs/architecture.md, section
tracker/store/. One entry at a time (`add_entry`, `entries_for`, `remove_entry`):
tracker.store.entries.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

from sqlalchemy import (
    Connection,
    Table,
    bindparam,
    func,
    select,
    text,
    update,
)

from tracker.errors import BadInput
from tracker.identity.names import normalize_name
from tracker.model import (
    ImportSummary,
    ListKind,
    ListRating,
    ListRow,
    NameMatch,
    NotMerged,
    Period,
    RatingList,
)
from tracker.store.db import Store, copy_rows, utc_now, writing
from tracker.store.lists import Found, NameIndex, record_coverage, settle
from tracker.store.merges import MergeHow, add_spelling, merge_rows, not_one_person
from tracker.store.schema import official_checked, official_ratings, player_names, players

BATCH = 2_000
CACHE_KIB = 65_536


def known_fide_ids(store: Store, limit: int = 500_000) -> set[int] | None:
    """The FIDE IDs of the players in the database, to skip everyone else of a list early;
    None when there are more than `limit` (then the import matches row by row instead,
    keeping memory bounded)."""
    with store.engine.connect() as conn:
        ids = (
            conn.execute(
                select(players.c.fide_id).where(players.c.fide_id.is_not(None)).limit(limit + 1)
            )
            .scalars()
            .all()
        )
    return None if len(ids) > limit else {int(i) for i in ids}


def _batches(rows: Iterable[ListRow], size: int) -> Iterator[list[ListRow]]:
    it = iter(rows)
    while chunk := list(islice(it, size)):
        yield chunk


def _ids(values: Iterable[int]) -> str:
    """An SQL list of integers, written inline (they are ints: nothing to escape; this
    spares compiling thousands of bound parameters per batch)."""
    return ", ".join(str(int(v)) for v in values) or "NULL"


Gaps = tuple[bool, bool, bool]
"""Which of a player's birth year, federation and title the database lacks (a list row fills
them in, `_write_rows`)."""
NO_GAPS: Gaps = (False, False, False)


def _known(conn: Connection, fide_ids: Iterable[int]) -> dict[int, tuple[int, Gaps]]:
    """fide_id -> (player id, facts missing) for the players already recorded."""
    found: dict[int, tuple[int, Gaps]] = {}
    result = conn.execute(
        text(
            "SELECT id, fide_id, birth_year, federation, title FROM players "
            f"WHERE fide_id IN ({_ids(fide_ids)})"
        )
    )
    for pid, fid, birth, fed, title in result:
        found[int(fid)] = (int(pid), (birth is None, not fed, not title))
    return found


def _insert_many(
    conn: Connection,
    table: Table,
    columns: tuple[str, ...],
    rows: list[tuple[Any, ...]],
    *,
    ignore_conflicts: bool = False,
) -> None:
    """Insert plain tuples. On SQLite straight through the driver's executemany (the Core
    path costs more per row than SQLite itself, which matters at 1.8 million players); on
    PostgreSQL by COPY, or (rows that may be there already) by multi-row INSERTs that skip
    a conflict (ON CONFLICT DO NOTHING)."""
    if not rows:
        return
    names = ", ".join(f'"{c}"' for c in columns)
    if conn.dialect.name == "sqlite":  # values arrive as the driver takes them (_db_value)
        verb = "INSERT OR IGNORE" if ignore_conflicts else "INSERT"
        marks = ", ".join("?" for _ in columns)
        conn.exec_driver_sql(f'{verb} INTO "{table.name}" ({names}) VALUES ({marks})', rows)
    elif not ignore_conflicts:  # postgresql
        copy_rows(conn, f'"{table.name}"', names, rows)
    else:
        from sqlalchemy.dialects import postgresql  # only there: it is slow to import

        conn.execute(
            postgresql.insert(table).on_conflict_do_nothing(),
            [dict(zip(columns, r, strict=True)) for r in rows],
        )


PLAYER_COLUMNS = ("name", "norm_name", "fide_id", "title", "federation", "birth_year")
CHECKED_COLUMNS = ("player_id", "list", "period")
ENTRY_COLUMNS = (
    "player_id",
    "list",
    "period",
    "rating",
    "games",
    "k",
    "flag",
    "title",
    "birth_year",
    "source",
    "recorded_at",
)


def import_entries(
    store: Store,
    rows: Iterable[ListRow],
    *,
    keep_all: bool,
    source: str,
    progress: Callable[[int], None] | None = None,
    names: NameIndex | None = None,
    held: Callable[[], Iterable[tuple[RatingList, Period]]] | None = None,
    list_source: str | None = None,
    earlier: Iterable[tuple[RatingList, Period]] = (),
    kind: Callable[[], ListKind] | None = None,
    listed: int = 0,
) -> ImportSummary:
    """Write the entries of one list file (all in one transaction).

    Players are matched by FIDE ID; by default the others are skipped, with `keep_all` they
    are created (with their name, title, federation and birth year; a row without a name is
    not: counted in `unnamed` and `skipped`). Each list of a row with
    a rating becomes an entry for the row's period, replacing an earlier file's entry; an
    empty rating clears an earlier entry. The player's birth year, federation and title are
    filled from the list when the database has none. `progress` is called with the number
    of rows read so far after each batch. The rows are read lazily, batch by batch: memory
    stays flat.

    `names`: the players without a FIDE ID, matched by name once every row is read (see
    the module docstring). `held`: the lists and periods the file held, asked once its rows
    are read (default: those of the rows); `list_source` the file's path for
    official_lists (default `source`). `earlier`: the lists and periods of the files
    imported before this one with `keep_all` in the same run: a player this file creates
    was on none of them, so is recorded as looked up there too (the folder imported again
    then writes nothing).

    `kind`: whether the file is FIDE's whole list or an excerpt, asked once its rows are
    read (default: whole). A whole list looks up every player with a FIDE ID, an excerpt
    only those it lists: their ids are kept while there are at most `listed` of them (a
    file with more rows is whole: the caller's `kind` says so).
    """
    summary = ImportSummary(
        source=source, listed=set() if listed > 0 else None, listed_up_to=listed
    )
    stamp = utc_now()
    found: Found = {}
    fresh: set[int] = set()  # FIDE IDs of rows that fit a name, created by this file
    before = sorted({(str(lst), str(period)) for lst, period in earlier})
    with writing(store) as conn:
        # Every batch's SQL is new (its ids are written inline): caching it would only hold
        # hundreds of big statements in memory.
        conn = conn.execution_options(compiled_cache=None)
        if conn.dialect.name == "sqlite":
            # A bigger page cache for the index updates of a big list (bounded: 64 MB).
            conn.exec_driver_sql(f"PRAGMA cache_size = -{CACHE_KIB}")
        stamp_value = _db_value(conn, official_ratings.c.recorded_at, stamp)
        for chunk in _batches(rows, BATCH):
            _import_batch(
                conn,
                chunk,
                summary,
                keep_all=keep_all,
                source=source,
                stamp_value=stamp_value,
                names=names or None,
                found=found,
                fresh=fresh,
                before=before,
            )
            if progress is not None:
                progress(summary.rows)
        if names and found:
            _settle_names(conn, summary, names, found, fresh, source, stamp_value)
        pairs = (
            list(held())
            if held is not None
            else [(lst, period) for lst in summary.lists for period in summary.periods]
        )
        summary.kind = ListKind.WHOLE if kind is None else kind()
        # (an excerpt has fewer rows than `listed`: its players were all kept)
        assert summary.kind is ListKind.WHOLE or summary.listed is not None
        summary.checked += record_coverage(
            conn, pairs, list_source or source, stamp, summary.kind, summary.listed or ()
        )
    return summary


def _import_batch(
    conn: Connection,
    chunk: list[ListRow],
    summary: ImportSummary,
    *,
    keep_all: bool,
    source: str,
    stamp_value: Any,
    names: NameIndex | None,
    found: Found,
    fresh: set[int],
    before: list[tuple[str, str]],
) -> None:
    summary.rows += len(chunk)
    # The last row of a FIDE ID in the batch wins; earlier batches are handled by `stamp`.
    latest: dict[int, ListRow] = {}
    for row in chunk:
        if row.fide_id in latest:
            summary.duplicates += 1
        latest[row.fide_id] = row
        summary.periods.add(row.period)
    for row in chunk[:1]:
        summary.lists.update(f.list for f in row.ratings)

    fitting: set[int] = set()
    if names is not None:  # rows a name of the database fits, weighed once all are read
        for fid, row in latest.items():
            if row.name:
                for pid, rank in names.fits(row.name):
                    found.setdefault(pid, {})[fid] = (rank, row)
                    fitting.add(fid)

    known = _known(conn, list(latest))
    if keep_all:
        missing = [row for fid, row in latest.items() if fid not in known and row.name]
        summary.unnamed += sum(
            1 for fid, row in latest.items() if fid not in known and not row.name
        )
        if missing:
            norms = [normalize_name(row.name) for row in missing]
            _insert_many(
                conn,
                players,
                PLAYER_COLUMNS,
                [
                    (
                        row.name,
                        norm,
                        row.fide_id,
                        row.title or row.women_title,
                        row.federation,
                        row.birth_year,
                    )
                    for row, norm in zip(missing, norms, strict=True)
                ],
            )
            summary.created += len(missing)
            created = _known(conn, [row.fide_id for row in missing])
            _insert_many(
                conn,
                player_names,
                ("norm_name", "player_id"),
                [
                    (norm, created[row.fide_id][0])
                    for row, norm in zip(missing, norms, strict=True)
                    if norm
                ],
                ignore_conflicts=True,
            )
            # Their facts came with the row: nothing to fill in.
            known.update({fid: (pid, NO_GAPS) for fid, (pid, _) in created.items()})
            fresh.update(fitting.intersection(created))
            if before:  # on none of the files imported before in this run
                looked = [
                    (pid, lst, period) for pid, _ in created.values() for lst, period in before
                ]
                _insert_many(conn, official_checked, CHECKED_COLUMNS, looked)
                summary.checked += len(looked)

    hits: list[tuple[int, Gaps, ListRow]] = []
    for fid, row in latest.items():
        hit = known.get(fid)
        if hit is None:
            summary.skipped += 1
            continue
        summary.kept += 1
        hits.append((hit[0], hit[1], row))
    _write_rows(conn, summary, hits, source, stamp_value)


def _write_rows(
    conn: Connection,
    summary: ImportSummary,
    hits: list[tuple[int, Gaps, ListRow]],
    source: str,
    stamp_value: Any,
) -> None:
    """The entries of these rows for their players ((player id, facts missing, row)), and
    the birth years, federations and titles the database lacks (never one it has: a
    player the games brought in first gets them as a player the list creates does)."""
    fills: list[dict[str, Any]] = []
    if summary.listed is not None:  # (while the file may be an excerpt)
        summary.listed.update(pid for pid, _, _ in hits)
        if len(summary.listed) > summary.listed_up_to:
            summary.listed = None
    # period -> id(list) -> (list, items). Keyed by identity: the lists are enum singletons
    # and a file's rows share one Period, and hashing those per row costs at 5 million.
    groups: dict[Period, dict[int, tuple[RatingList, list[tuple[int, ListRow, ListRating]]]]]
    groups = {}
    last: Period | None = None
    buckets: dict[int, tuple[RatingList, list[tuple[int, ListRow, ListRating]]]] = {}
    for pid, gaps, row in hits:
        if any(gaps):
            title = row.title or row.women_title
            birth = row.birth_year if gaps[0] else None
            fed = row.federation if gaps[1] else None
            title = title if gaps[2] else None
            if birth is not None or fed or title:
                fills.append({"pid": pid, "birth": birth, "fed": fed or None, "title": title})
                summary.birth_years += birth is not None
        if row.period is not last:
            last = row.period
            buckets = groups.setdefault(last, {})
        for figures in row.ratings:
            bucket = buckets.get(id(figures.list))
            if bucket is None:
                bucket = buckets[id(figures.list)] = (figures.list, [])
            bucket[1].append((pid, row, figures))

    if fills:
        c = players.c
        conn.execute(
            update(players)
            .where(c.id == bindparam("pid"))
            .values(
                birth_year=func.coalesce(c.birth_year, bindparam("birth")),
                federation=func.coalesce(c.federation, bindparam("fed")),
                title=func.coalesce(c.title, bindparam("title")),
            ),
            fills,
        )

    for period, by_list in groups.items():
        for rating_list, items in by_list.values():
            _write_group(conn, summary, rating_list, period, items, source, stamp_value)


def _settle_names(
    conn: Connection,
    summary: ImportSummary,
    names: NameIndex,
    found: Found,
    fresh: set[int],
    source: str,
    stamp_value: Any,
) -> None:
    """The players rows fit by name, once the whole file is read: a unique fit takes the
    row's FIDE ID and entries (its spelling recorded), or, when another player holds that
    ID, is merged into them (under the list's name, recorded: `tracker player unmerge`)
    unless they played each other or the holder's name does not fit the player's and the
    list's (`NotMerged`, said as a warning); several rows fitting as well are reported, not
    used. A holder this very file created (`fresh`, keep_all) was no other player: the
    name's player is reported as matched, not as merged, and as not new."""
    unique, summary.ambiguous = settle(conn, names, found)
    holders: dict[int, tuple[int, str]] = {}
    wanted = sorted({row.fide_id for _, row in unique})
    if wanted:
        for pid, fid, name in conn.execute(
            text(f"SELECT id, fide_id, name FROM players WHERE fide_id IN ({_ids(wanted)})")
        ):
            holders[int(fid)] = (int(pid), str(name))
    assigned: list[tuple[int, Gaps, ListRow]] = []
    for pid, row in unique:
        player = names.players[pid]
        fid = row.fide_id
        holder = holders.get(fid)
        if holder is None:
            conn.execute(
                update(players)
                .where(players.c.id == pid, players.c.fide_id.is_(None))
                .values(fide_id=fid)
            )
            add_spelling(conn, pid, normalize_name(row.name))
            holders[fid] = (pid, player.name)
            gaps = (player.birth_year is None, True, not player.title)
            assigned.append((pid, gaps, row))
            summary.named.append(NameMatch(player.name, row.name, fid))
            summary.matched += 1
            summary.kept += 1
            summary.skipped -= 1
            continue
        hid, hname = holder
        # One FIDE ID, one person, but only where the names say so too: the holder's name
        # must fit the player's and the list's (tracker.identity.names.names_fit).
        why = not_one_person(conn, hid, hname, pid, player.name, row.name)
        number: int | None = None
        refused: str | None = None
        if why is None:
            try:
                number = merge_rows(conn, hid, pid, how=MergeHow.LIST, name=row.name, source=source)
            except BadInput as exc:
                refused = str(exc)
        if number is None:
            summary.not_merged.append(NotMerged(player.name, row.name, fid, hname, why, refused))
            continue
        holders[fid] = (hid, row.name)
        summary.matched += 1
        if fid in fresh:
            summary.named.append(NameMatch(player.name, row.name, fid))
            summary.created -= 1
        else:
            summary.merged.append(NameMatch(player.name, row.name, fid, hname, number))
    _write_rows(conn, summary, assigned, source, stamp_value)


def _write_group(
    conn: Connection,
    summary: ImportSummary,
    rating_list: RatingList,
    period: Period,
    items: list[tuple[int, ListRow, ListRating]],
    source: str,
    stamp_value: Any,
) -> None:
    """Replace the entries of one list and period for these players. An entry that is
    already as this file has it (same figures, flag, title, birth year and file name) is
    left alone: importing a file again changes nothing."""
    where = "list = :list AND period = :period AND player_id IN ({})"
    key = {"list": str(rating_list), "period": str(period), "stamp": stamp_value}
    old = conn.execute(
        text(
            "SELECT player_id, recorded_at = :stamp, rating, games, k, flag, title, birth_year, "
            f"source FROM official_ratings WHERE {where.format(_ids(pid for pid, _, _ in items))}"
        ),
        key,
    ).all()
    same: set[int] = set()
    if old:
        new = {
            pid: (
                figures.rating,
                figures.games,
                figures.k,
                row.flag,
                row.title or row.women_title,
                row.birth_year,
                source,
            )
            for pid, row, figures in items
        }
        rated = {pid for pid, _, figures in items if figures.rating is not None}
        gone: list[int] = []
        for pid, same_file, *values in old:
            if same_file:  # an earlier batch of this very file: a repeated FIDE ID
                summary.duplicates += 1
                summary.entries -= 1
            elif pid in rated and tuple(values) == new[pid]:
                same.add(pid)
                summary.unchanged += 1
                continue
            elif pid in rated:
                summary.replaced += 1
            else:
                summary.cleared += 1
            gone.append(pid)
        if gone:
            conn.execute(
                text(f"DELETE FROM official_ratings WHERE {where.format(_ids(gone))}"), key
            )
    values = [
        (
            pid,
            key["list"],
            key["period"],
            figures.rating,
            figures.games,
            figures.k,
            row.flag,
            row.title or row.women_title,
            row.birth_year,
            source,
            stamp_value,
        )
        for pid, row, figures in items
        if figures.rating is not None and pid not in same
    ]
    _insert_many(conn, official_ratings, ENTRY_COLUMNS, values)
    summary.entries += len(values)


def _db_value(conn: Connection, column: Any, value: Any) -> Any:
    """`value` as the driver receives it for `column` (SQLite: the stored text; PostgreSQL:
    the value itself, psycopg adapts it)."""
    if conn.dialect.name == "postgresql":
        return value
    process = column.type.bind_processor(conn.dialect)
    if process is not None:
        return process(value)
    if isinstance(value, dt.datetime):  # what the sqlite3 driver's adapter would write
        return value.isoformat(" ")
    return value
