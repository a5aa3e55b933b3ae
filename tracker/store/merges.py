"""Merges of two players, recorded so that each can be undone.

`merge_rows` makes one player of two in the caller's transaction (`tracker player merge`,
`player set --fide-id N --merge`, a list row whose FIDE ID another player holds) and records
what it moved (tables player_merges and merge_*, migration 0010); `unmerge_rows` puts it
back: the removed player comes back (under its id, where that is still free) with its games,
spellings, official entries, the lists it was looked up on and its overrides, and the kept
player gets back each fact the merge changed, unless it was changed again since. What came
to the kept player after the merge (games imported since under the other's spelling, a newer
list's entries) stays with it. A merge is undone only after every later merge of the kept
player into another: in the reverse order.

`not_one_person` says why a FIDE ID alone does not make two players one (they played each
other, or their names do not fit: tracker.identity.names.names_apart).
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, func, insert, literal, select, tuple_, update

from tracker.errors import BadInput, NotFound
from tracker.identity.names import NamesApart, names_apart, normalize_name
from tracker.store.db import utc_now
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

FACTS = (
    "name",
    "norm_name",
    "fide_id",
    "title",
    "federation",
    "birth_year",
    "rated_games",
    "ever_2400",
    "is_me",
)
"""The columns of a players row a merge records (all but the id)."""
FILLED = ("fide_id", "title", "federation", "birth_year", "rated_games", "ever_2400")
"""The facts the removed player gives the kept one where it has none."""
ENTRY_COLUMNS = (
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


class MergeHow(enum.Enum):
    """What made a merge."""

    COMMAND = "merge"  # tracker player merge
    FIDE_ID = "fide-id"  # tracker player set NAME --fide-id N --merge
    LIST = "list"  # a list row that fit a name, whose FIDE ID another player held


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


@dataclass(frozen=True)
class NotOnePerson:
    """Why two players one FIDE ID names are not merged: they played each other (`met`
    games), or a name does not fit the FIDE ID's holder's (`names`, against `other`)."""

    met: int = 0
    names: NamesApart | None = None
    other: str = ""


def games_between(conn: Connection, a: int, b: int) -> int:
    """The games two players played each other."""
    return int(
        conn.execute(
            select(func.count())
            .select_from(games)
            .where(
                ((games.c.white_id == a) & (games.c.black_id == b))
                | ((games.c.white_id == b) & (games.c.black_id == a))
            )
        ).scalar_one()
    )


def not_one_person(
    conn: Connection, holder: int, holder_name: str, other: int, *names: str
) -> NotOnePerson | None:
    """Why the player `other` (known by `names`: its own, the list's) is not the FIDE ID's
    `holder`: they played each other, or one of `names` does not fit `holder_name`
    (tracker.identity.names.names_fit); None when a FIDE ID may make them one."""
    met = games_between(conn, holder, other)
    if met:
        return NotOnePerson(met=met)
    for name in names:
        apart = names_apart(holder_name, name)
        if apart is not None:
            return NotOnePerson(names=apart, other=name)
    return None


def add_spelling(conn: Connection, player_id: int, norm: str) -> bool:
    """Record `norm` as a spelling of the player, unless it is empty or another player's
    already; True when it was recorded."""
    if not norm:
        return False
    exists = conn.execute(
        select(player_names.c.player_id).where(player_names.c.norm_name == norm)
    ).first()
    if exists is not None:
        return False
    conn.execute(insert(player_names).values(norm_name=norm, player_id=player_id))
    return True


def _facts(row: Any) -> dict[str, Any]:
    m = row._mapping
    return {col: m[col] for col in FACTS}


def _snapshot(conn: Connection, merge_id: int, role: str, facts: Mapping[str, Any]) -> None:
    values = dict(facts)
    values["is_me"] = bool(values["is_me"])
    conn.execute(insert(merge_players).values(merge_id=merge_id, role=role, **values))


def merge_rows(
    conn: Connection,
    keep_id: int,
    other_id: int,
    *,
    how: MergeHow,
    name: str | None = None,
    source: str | None = None,
) -> int:
    """Make `other` the same person as `keep` in the caller's transaction, and record it:
    its games, spellings (aliases in player_names), official entries, the lists it was
    looked up on and overrides move to `keep`, its facts fill those `keep` lacks, and it is
    removed; `name` (a list's spelling) becomes `keep`'s name. Returns the merge's number
    (`unmerge_rows` undoes it). Refused (BadInput, before anything is written) when they
    have different FIDE IDs, played each other or have different official ratings for one
    list and period.
    """
    if keep_id == other_id:
        raise BadInput("that is the same player twice: name two different players")
    rows = {
        int(r.id): r
        for r in conn.execute(select(players).where(players.c.id.in_((keep_id, other_id))))
    }
    for pid in (keep_id, other_id):
        if pid not in rows:
            raise NotFound(f"no player with id {pid}")
    keep, other = rows[keep_id], rows[other_id]
    if keep.fide_id is not None and other.fide_id is not None and keep.fide_id != other.fide_id:
        raise BadInput(
            f"{keep.name} (FIDE ID {keep.fide_id}) and {other.name} (FIDE ID "
            f"{other.fide_id}) have different FIDE IDs: they are not the same person"
        )
    met = games_between(conn, keep_id, other_id)
    if met:
        raise BadInput(
            f"{keep.name} and {other.name} played each other ({met} games): they cannot "
            "be one person"
        )
    # Official entries: the same list and period twice must agree.
    mine = {
        (r.list, r.period): r.rating
        for r in conn.execute(
            select(
                official_ratings.c.list, official_ratings.c.period, official_ratings.c.rating
            ).where(official_ratings.c.player_id == keep_id)
        )
    }
    theirs = conn.execute(
        select(official_ratings).where(official_ratings.c.player_id == other_id)
    ).all()
    twice: list[int] = []
    for r in theirs:
        key = (r.list, r.period)
        if key in mine:
            if mine[key] != r.rating:
                raise BadInput(
                    f"{keep.name} and {other.name} have different official {r.list} "
                    f"ratings for {r.period} ({mine[key]} and {r.rating}): they are not "
                    "the same person, or remove one entry first"
                )
            twice.append(int(r.id))

    merge_id = _record(conn, keep, other, how, source, theirs, set(twice))

    if twice:
        conn.execute(delete(official_ratings).where(official_ratings.c.id.in_(twice)))
    conn.execute(
        update(official_ratings)
        .where(official_ratings.c.player_id == other_id)
        .values(player_id=keep_id)
    )
    looked_up = select(official_checked.c.list, official_checked.c.period).where(
        official_checked.c.player_id == keep_id
    )
    conn.execute(
        delete(official_checked).where(
            official_checked.c.player_id == other_id,
            tuple_(official_checked.c.list, official_checked.c.period).in_(looked_up),
        )
    )
    conn.execute(
        update(official_checked)
        .where(official_checked.c.player_id == other_id)
        .values(player_id=keep_id)
    )
    overridden = (
        select(ro_overrides.c.tournament_id)
        .where(ro_overrides.c.player_id == keep_id)
        .scalar_subquery()
    )
    conn.execute(
        delete(ro_overrides).where(
            ro_overrides.c.player_id == other_id, ro_overrides.c.tournament_id.in_(overridden)
        )
    )
    conn.execute(
        update(ro_overrides).where(ro_overrides.c.player_id == other_id).values(player_id=keep_id)
    )
    conn.execute(update(games).where(games.c.white_id == other_id).values(white_id=keep_id))
    conn.execute(update(games).where(games.c.black_id == other_id).values(black_id=keep_id))
    conn.execute(
        update(player_names).where(player_names.c.player_id == other_id).values(player_id=keep_id)
    )
    facts: dict[str, Any] = {}
    for col in FILLED:
        if getattr(keep, col) is None and getattr(other, col) is not None:
            facts[col] = getattr(other, col)
    if other.is_me and not keep.is_me:
        facts["is_me"] = True
    spellings = [other.norm_name]
    if name is not None and name != keep.name:
        facts["name"] = name
        facts["norm_name"] = normalize_name(name)
        spellings.append(facts["norm_name"])
    for norm in spellings:
        if add_spelling(conn, keep_id, norm):
            conn.execute(insert(merge_names).values(merge_id=merge_id, norm_name=norm, added=True))
    conn.execute(delete(players).where(players.c.id == other_id))
    if facts:
        conn.execute(update(players).where(players.c.id == keep_id).values(**facts))
    after = conn.execute(select(players).where(players.c.id == keep_id)).one()
    _snapshot(conn, merge_id, "after", _facts(after))
    return merge_id


def _record(
    conn: Connection,
    keep: Any,
    other: Any,
    how: MergeHow,
    source: str | None,
    entries: Any,
    dropped: set[int],
) -> int:
    """The record of a merge about to be made (before anything moves): the players as they
    are, the games, spellings, entries, lists looked up on and overrides of `other`."""
    keep_id, other_id = int(keep.id), int(other.id)
    key = conn.execute(
        insert(player_merges).values(
            kept_id=keep_id, gone_id=other_id, how=how.value, source=source, made_at=utc_now()
        )
    ).inserted_primary_key
    assert key is not None
    merge_id = int(key[0])
    _snapshot(conn, merge_id, "gone", _facts(other))
    _snapshot(conn, merge_id, "before", _facts(keep))
    mid = literal(merge_id)
    for side, column in (("white", games.c.white_id), ("black", games.c.black_id)):
        conn.execute(
            insert(merge_games).from_select(
                ["merge_id", "game_id", "side"],
                select(mid, games.c.id, literal(side)).where(column == other_id),
            )
        )
    conn.execute(
        insert(merge_names).from_select(
            ["merge_id", "norm_name", "added"],
            select(mid, player_names.c.norm_name, literal(False)).where(
                player_names.c.player_id == other_id
            ),
        )
    )
    if entries:
        conn.execute(
            insert(merge_entries),
            [
                {
                    "merge_id": merge_id,
                    "entry_id": int(e.id),
                    **{col: e._mapping[col] for col in ENTRY_COLUMNS},
                    "moved": int(e.id) not in dropped,
                }
                for e in entries
            ],
        )
    kept_lists = {
        (str(r.list), str(r.period))
        for r in conn.execute(
            select(official_checked.c.list, official_checked.c.period).where(
                official_checked.c.player_id == keep_id
            )
        )
    }
    checked = [
        {"merge_id": merge_id, "list": r.list, "period": r.period}
        for r in conn.execute(
            select(official_checked.c.list, official_checked.c.period).where(
                official_checked.c.player_id == other_id
            )
        )
    ]
    if checked:
        conn.execute(
            insert(merge_checked),
            [{**c, "moved": (str(c["list"]), str(c["period"])) not in kept_lists} for c in checked],
        )
    kept_overrides = set(
        conn.execute(
            select(ro_overrides.c.tournament_id).where(ro_overrides.c.player_id == keep_id)
        ).scalars()
    )
    overrides = conn.execute(
        select(ro_overrides.c.tournament_id, ro_overrides.c.rating).where(
            ro_overrides.c.player_id == other_id
        )
    ).all()
    if overrides:
        conn.execute(
            insert(merge_overrides),
            [
                {
                    "merge_id": merge_id,
                    "tournament_id": int(t),
                    "rating": int(r),
                    "moved": t not in kept_overrides,
                }
                for t, r in overrides
            ],
        )
    return merge_id


# --- the merges recorded, and undoing one ---------------------------------------------------


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
    keep = conn.execute(select(players).where(players.c.id == keep_id)).first()
    if keep is None:
        raise NotFound(
            f"the player merge {merge_id} kept is no longer in the database: the merge "
            "cannot be undone"
        )
    snaps = {
        str(r.role): _facts(r)
        for r in conn.execute(select(merge_players).where(merge_players.c.merge_id == merge_id))
    }
    before, after, gone = snaps["before"], snaps["after"], snaps["gone"]
    now = _facts(keep)
    # The kept player: each fact the merge changed and nobody changed since, as it was.
    back = {
        col: before[col]
        for col in FACTS
        if not _same(before[col], after[col]) and _same(now[col], after[col])
    }
    if back:
        conn.execute(update(players).where(players.c.id == keep_id).values(**back))
    # The removed player, under its id where that is free.
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
    if add_spelling(conn, restored, str(gone["norm_name"])):
        spellings += 1
    entries = _entries_back(conn, merge_id, keep_id, restored)
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
    return Unmerged(merge_id, keep_id, restored, moved_games, spellings, entries, overrides)


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
