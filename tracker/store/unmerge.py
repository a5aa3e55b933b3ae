"""The merges recorded (tracker.store.merges.merge_rows), and undoing one.

`unmerge_rows` puts a merge back: the removed player comes back (under its id, where that
is still free) with its games, spellings, official entries, the lists it was looked up on
and its overrides, and the kept player gets back each fact the merge changed, unless it was
changed again since. What came to the kept player after the merge (games imported since
under the other's spelling, a newer list's entries) stays with it. A merge is undone only
after every later merge of the kept player into another: in the reverse order.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from tracker.errors import BadInput, NotFound
from tracker.store.merges import ENTRY_COLUMNS, FACTS, MergeHow, add_spelling, player_facts
from tracker.store.schema import (
    games,
    merge_checked,
    merge_entries,
    merge_games,
    merge_names,
    merge_overrides,
    merge_players,
    official_checked,
    official_ratings,
    player_merges,
    player_names,
    players,
    ro_overrides,
    tournaments,
)


@dataclass(frozen=True)
class MergeRecord:
    """A merge recorded: its number, the player kept (id and name now), the one removed (id
    and name as it was), what made it and when."""

    id: int
    kept_id: int
    kept: str
    gone_id: int
    gone: str
    how: MergeHow
    source: str | None
    made_at: dt.datetime


@dataclass(frozen=True)
class Unmerged:
    """What undoing a merge put back: the player kept, the one restored (its id now) and
    how many games, spellings, official entries and overrides went back to it."""

    merge: int
    kept_id: int
    restored_id: int
    games: int
    spellings: int
    entries: int
    overrides: int


def _merge_record(conn: Connection, row: Any) -> MergeRecord:
    """A player_merges row as a value: the kept player's name now, or (merged away since)
    as the merge left it."""
    names = dict(
        conn.execute(
            select(merge_players.c.role, merge_players.c.name).where(
                merge_players.c.merge_id == row.id
            )
        ).all()
    )
    away = conn.execute(
        select(player_merges.c.id).where(
            player_merges.c.gone_id == row.kept_id, player_merges.c.id > row.id
        )
    ).first()
    kept = (
        None
        if away is not None
        else conn.execute(select(players.c.name).where(players.c.id == row.kept_id)).scalar()
    )
    return MergeRecord(
        id=int(row.id),
        kept_id=int(row.kept_id),
        kept=str(names["after"] if kept is None else kept),
        gone_id=int(row.gone_id),
        gone=str(names["gone"]),
        how=MergeHow(row.how),
        source=row.source,
        made_at=row.made_at,
    )


def latest_merges(conn: Connection, limit: int) -> list[MergeRecord]:
    """The last `limit` merges recorded, the latest first."""
    rows = conn.execute(
        select(player_merges).order_by(player_merges.c.id.desc()).limit(limit)
    ).all()
    return [_merge_record(conn, r) for r in rows]


def merge_into(conn: Connection, player_id: int, norm: str = "") -> int | None:
    """The merge to undo for a player named by a spelling `norm` (normalized): the latest
    merge into the player that brought that spelling (or whose removed player had that
    name), else the latest merge into the player; None when no merge into them is
    recorded."""
    ids = list(
        conn.execute(
            select(player_merges.c.id)
            .where(player_merges.c.kept_id == player_id)
            .order_by(player_merges.c.id.desc())
        ).scalars()
    )
    if not ids:
        return None
    if norm:
        named = set(
            conn.execute(
                select(merge_names.c.merge_id).where(
                    merge_names.c.merge_id.in_(ids),
                    merge_names.c.norm_name == norm,
                    merge_names.c.added.is_(False),
                )
            ).scalars()
        ) | set(
            conn.execute(
                select(merge_players.c.merge_id).where(
                    merge_players.c.merge_id.in_(ids),
                    merge_players.c.role == "gone",
                    merge_players.c.norm_name == norm,
                )
            ).scalars()
        )
        for mid in ids:
            if mid in named:
                return int(mid)
    return int(ids[0])


def unmerge_rows(conn: Connection, merge_id: int) -> Unmerged:
    """Undo merge `merge_id` in the caller's transaction (see the module docstring) and
    forget it. Refused (NotFound, BadInput) when no such merge is recorded, when the player
    it kept has been merged into another since (undo that first) or is gone."""
    keep_id, gone_id = _undoable(conn, merge_id)
    gone = _facts_back(conn, merge_id, keep_id)
    restored = _player_back(conn, merge_id, gone_id, gone)
    moved_games = _games_back(conn, merge_id, keep_id, restored)
    spellings = _spellings_back(conn, merge_id, keep_id, restored, str(gone["norm_name"]))
    entries = _entries_back(conn, merge_id, keep_id, restored)
    _lists_back(conn, merge_id, keep_id, restored)
    overrides = _overrides_back(conn, merge_id, keep_id, restored)
    _forget(conn, merge_id)
    return Unmerged(merge_id, keep_id, restored, moved_games, spellings, entries, overrides)


def _undoable(conn: Connection, merge_id: int) -> tuple[int, int]:
    """The kept and the removed player's ids of merge `merge_id`, refused (NotFound,
    BadInput) when it cannot be undone now."""
    rec = conn.execute(select(player_merges).where(player_merges.c.id == merge_id)).first()
    if rec is None:
        raise NotFound(f"no merge {merge_id} is recorded (made, and not undone)")
    keep_id, gone_id = int(rec.kept_id), int(rec.gone_id)
    later = conn.execute(
        select(player_merges)
        .where(player_merges.c.gone_id == keep_id, player_merges.c.id > merge_id)
        .order_by(player_merges.c.id.desc())
    ).first()
    if later is not None:
        done = _merge_record(conn, later)
        raise BadInput(
            f"merge {merge_id} kept {done.gone}, merged into {done.kept} since (merge "
            f"{done.id}): undo that first (`tracker player unmerge --merge {done.id}`)"
        )
    return keep_id, gone_id


def _facts_back(conn: Connection, merge_id: int, keep_id: int) -> dict[str, Any]:
    """The kept player: each fact the merge changed and nobody changed since, as it was.
    Returns the removed player's facts as the merge recorded them."""
    keep = conn.execute(select(players).where(players.c.id == keep_id)).first()
    if keep is None:
        raise NotFound(
            f"the player merge {merge_id} kept is no longer in the database: the merge "
            "cannot be undone"
        )
    snaps = {
        str(r.role): player_facts(r)
        for r in conn.execute(select(merge_players).where(merge_players.c.merge_id == merge_id))
    }
    before, after, gone = snaps["before"], snaps["after"], snaps["gone"]
    now = player_facts(keep)
    back = {
        col: before[col]
        for col in FACTS
        if not _same(before[col], after[col]) and _same(now[col], after[col])
    }
    if back:
        conn.execute(update(players).where(players.c.id == keep_id).values(**back))
    return gone


def _player_back(conn: Connection, merge_id: int, gone_id: int, gone: dict[str, Any]) -> int:
    """The removed player, under its id where that is free (its FIDE ID where nobody holds
    it, marked as the user where nobody is); returns its id now."""
    values = dict(gone)
    if values["fide_id"] is not None:
        held = conn.execute(
            select(players.c.id).where(players.c.fide_id == values["fide_id"])
        ).first()
        if held is not None:
            values["fide_id"] = None
    marked = conn.execute(select(players.c.id).where(players.c.is_me.is_(True))).first()
    values["is_me"] = bool(gone["is_me"]) and marked is None
    taken = conn.execute(select(players.c.id).where(players.c.id == gone_id)).first()
    if taken is None:
        values["id"] = gone_id
    key = conn.execute(insert(players).values(**values)).inserted_primary_key
    assert key is not None
    restored = int(key[0])
    if restored != gone_id:  # earlier merges into it name it by its new id
        conn.execute(
            update(player_merges)
            .where(player_merges.c.kept_id == gone_id, player_merges.c.id < merge_id)
            .values(kept_id=restored)
        )
    return restored


def _games_back(conn: Connection, merge_id: int, keep_id: int, restored: int) -> int:
    """The games the merge moved, still the kept player's, back to the restored one."""
    moved_games = 0
    for side, column in (("white", games.c.white_id), ("black", games.c.black_id)):
        moved = select(merge_games.c.game_id).where(
            merge_games.c.merge_id == merge_id, merge_games.c.side == side
        )
        moved_games += int(
            conn.execute(
                update(games)
                .where(column == keep_id, games.c.id.in_(moved))
                .values({column.name: restored})
            ).rowcount
            or 0
        )
    return moved_games


def _spellings_back(
    conn: Connection, merge_id: int, keep_id: int, restored: int, gone_norm: str
) -> int:
    """The spellings the merge moved back to the restored player (those it added to the
    kept one removed), and the restored player's own name; returns how many it has back."""
    names = conn.execute(
        select(merge_names.c.norm_name, merge_names.c.added).where(
            merge_names.c.merge_id == merge_id
        )
    ).all()
    spellings = 0
    for norm, added in names:
        mine = (player_names.c.norm_name == norm) & (player_names.c.player_id == keep_id)
        if added:
            conn.execute(delete(player_names).where(mine))
        else:
            spellings += int(
                conn.execute(update(player_names).where(mine).values(player_id=restored)).rowcount
                or 0
            )
    if add_spelling(conn, restored, gone_norm):
        spellings += 1
    return spellings


def _lists_back(conn: Connection, merge_id: int, keep_id: int, restored: int) -> None:
    """The lists the removed player was looked up on, its again (the kept player's no more
    where the merge moved them)."""
    for lst, period, moved_list in conn.execute(
        select(merge_checked.c.list, merge_checked.c.period, merge_checked.c.moved).where(
            merge_checked.c.merge_id == merge_id
        )
    ).all():
        conn.execute(insert(official_checked).values(player_id=restored, list=lst, period=period))
        if moved_list:
            conn.execute(
                delete(official_checked).where(
                    official_checked.c.player_id == keep_id,
                    official_checked.c.list == lst,
                    official_checked.c.period == period,
                )
            )


def _overrides_back(conn: Connection, merge_id: int, keep_id: int, restored: int) -> int:
    """The removed player's overrides, its again where their tournament is still there (the
    kept player's no more where the merge moved them); returns how many."""
    overrides = 0
    for tid, rating, moved_override in conn.execute(
        select(merge_overrides.c.tournament_id, merge_overrides.c.rating, merge_overrides.c.moved)
        .where(merge_overrides.c.merge_id == merge_id)
        .order_by(merge_overrides.c.tournament_id)
    ).all():
        there = conn.execute(select(tournaments.c.id).where(tournaments.c.id == tid)).first()
        if there is None:  # (the tournament was removed since, with its overrides)
            continue
        conn.execute(
            insert(ro_overrides).values(tournament_id=tid, player_id=restored, rating=rating)
        )
        overrides += 1
        if moved_override:
            conn.execute(
                delete(ro_overrides).where(
                    ro_overrides.c.tournament_id == tid,
                    ro_overrides.c.player_id == keep_id,
                    ro_overrides.c.rating == rating,
                )
            )
    return overrides


def _forget(conn: Connection, merge_id: int) -> None:
    """The record of merge `merge_id`, deleted."""
    for table in (
        merge_overrides,
        merge_checked,
        merge_entries,
        merge_names,
        merge_games,
        merge_players,
    ):
        conn.execute(delete(table).where(table.c.merge_id == merge_id))
    conn.execute(delete(player_merges).where(player_merges.c.id == merge_id))


def _same(a: Any, b: Any) -> bool:
    """Whether two values of a players column are the same (a boolean column reads back
    as 0/1 on SQLite)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return (None if a is None else bool(a)) == (None if b is None else bool(b))
    return bool(a == b)


def _entries_back(conn: Connection, merge_id: int, keep_id: int, restored: int) -> int:
    """The removed player's official entries, back to it: the one the merge moved where it
    is still the kept player's as it was, else a copy (under its id where that is free), for
    each list and period the restored player has none of. Returns how many."""
    back = 0
    for e in conn.execute(
        select(merge_entries)
        .where(merge_entries.c.merge_id == merge_id)
        .order_by(merge_entries.c.list, merge_entries.c.period)
    ).all():
        if e.moved:
            moved = conn.execute(
                update(official_ratings)
                .where(
                    official_ratings.c.id == e.entry_id,
                    official_ratings.c.player_id == keep_id,
                    official_ratings.c.list == e.list,
                    official_ratings.c.period == e.period,
                    official_ratings.c.source == e.source,
                    official_ratings.c.recorded_at == e.recorded_at,
                )
                .values(player_id=restored)
            ).rowcount
            if moved:
                back += 1
                continue
        has = conn.execute(
            select(official_ratings.c.id).where(
                official_ratings.c.player_id == restored,
                official_ratings.c.list == e.list,
                official_ratings.c.period == e.period,
            )
        ).first()
        if has is not None:
            continue
        values = {col: e._mapping[col] for col in ENTRY_COLUMNS}
        free = conn.execute(
            select(official_ratings.c.id).where(official_ratings.c.id == e.entry_id)
        ).first()
        if free is None:
            values["id"] = int(e.entry_id)
        conn.execute(insert(official_ratings).values(player_id=restored, **values))
        back += 1
    return back
