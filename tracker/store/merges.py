"""Merges of two players, recorded so that each can be undone.

`merge_rows` makes one player of two in the caller's transaction (`tracker player merge`,
`player set --fide-id N --merge`, a list row whose FIDE ID another player holds) and records
what it moved (tables player_merges and merge_*, migration 0010); tracker.store.unmerge
lists the merges recorded and puts one back (`unmerge_rows`).

`not_one_person` says why a FIDE ID alone does not make two players one (they played each
other, or their names do not fit: tracker.identity.names.names_apart).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, delete, func, insert, literal, select, tuple_, update

from tracker.errors import BadInput, NotFound
from tracker.identity.names import names_apart, normalize_name
from tracker.model import NotOnePerson
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


def player_facts(row: Any) -> dict[str, Any]:
    """The facts of a players row (FACTS) a merge records."""
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
    (tracker.store.unmerge.unmerge_rows undoes it). Refused (BadInput, before anything is
    written) when they have different FIDE IDs, played each other or have different
    official ratings for one list and period.
    """
    keep, other = _mergeable(conn, keep_id, other_id)
    theirs, twice = _entries_to_merge(conn, keep, other)
    merge_id = _record(conn, keep, other, how, source, theirs, set(twice))
    _move_entries(conn, keep_id, other_id, twice)
    _move_lists(conn, keep_id, other_id)
    _move_overrides(conn, keep_id, other_id)
    conn.execute(update(games).where(games.c.white_id == other_id).values(white_id=keep_id))
    conn.execute(update(games).where(games.c.black_id == other_id).values(black_id=keep_id))
    conn.execute(
        update(player_names).where(player_names.c.player_id == other_id).values(player_id=keep_id)
    )
    _merge_facts(conn, merge_id, keep, other, name)
    return merge_id


def _mergeable(conn: Connection, keep_id: int, other_id: int) -> tuple[Any, Any]:
    """The players rows of `keep_id` and `other_id`, refused (NotFound, BadInput) when they
    are one, missing, of different FIDE IDs or played each other."""
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
    return keep, other


def _entries_to_merge(conn: Connection, keep: Any, other: Any) -> tuple[Any, list[int]]:
    """`other`'s official entries, and the ids of those `keep` has for the same list and
    period (dropped by the merge); refused (BadInput) when two of them disagree."""
    mine = {
        (r.list, r.period): r.rating
        for r in conn.execute(
            select(
                official_ratings.c.list, official_ratings.c.period, official_ratings.c.rating
            ).where(official_ratings.c.player_id == keep.id)
        )
    }
    theirs = conn.execute(
        select(official_ratings).where(official_ratings.c.player_id == other.id)
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
    return theirs, twice


def _move_entries(conn: Connection, keep_id: int, other_id: int, twice: list[int]) -> None:
    """`other`'s official entries, `keep`'s (those `keep` has already, `twice`, dropped)."""
    if twice:
        conn.execute(delete(official_ratings).where(official_ratings.c.id.in_(twice)))
    conn.execute(
        update(official_ratings)
        .where(official_ratings.c.player_id == other_id)
        .values(player_id=keep_id)
    )


def _move_lists(conn: Connection, keep_id: int, other_id: int) -> None:
    """The lists `other` was looked up on, `keep`'s (those `keep` was on already dropped)."""
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


def _move_overrides(conn: Connection, keep_id: int, other_id: int) -> None:
    """`other`'s overrides, `keep`'s (those of a tournament `keep` has one for dropped)."""
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


def _merge_facts(conn: Connection, merge_id: int, keep: Any, other: Any, name: str | None) -> None:
    """`keep` with the facts `other` had that it lacks, `name` (and its spelling) and
    `other`'s spelling; `other` removed; `keep` as it is now recorded."""
    keep_id = int(keep.id)
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
    conn.execute(delete(players).where(players.c.id == other.id))
    if facts:
        conn.execute(update(players).where(players.c.id == keep_id).values(**facts))
    after = conn.execute(select(players).where(players.c.id == keep_id)).one()
    _snapshot(conn, merge_id, "after", player_facts(after))


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
    _snapshot(conn, merge_id, "gone", player_facts(other))
    _snapshot(conn, merge_id, "before", player_facts(keep))
    _record_games_and_names(conn, merge_id, other_id)
    _record_entries(conn, merge_id, entries, dropped)
    _record_lists(conn, merge_id, keep_id, other_id)
    _record_overrides(conn, merge_id, keep_id, other_id)
    return merge_id


def _record_games_and_names(conn: Connection, merge_id: int, other_id: int) -> None:
    """`other`'s games (id and side) and spellings, in the record of merge `merge_id`."""
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


def _record_entries(conn: Connection, merge_id: int, entries: Any, dropped: set[int]) -> None:
    """`other`'s official entries, whole, each moved or (in `dropped`) dropped."""
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


def _record_lists(conn: Connection, merge_id: int, keep_id: int, other_id: int) -> None:
    """The lists `other` was looked up on, each moved or (`keep` was on it) dropped."""
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


def _record_overrides(conn: Connection, merge_id: int, keep_id: int, other_id: int) -> None:
    """`other`'s overrides, each moved or (`keep` has one for the tournament) dropped."""
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
