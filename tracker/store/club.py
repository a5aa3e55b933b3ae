"""Which players a club's list shows (`tracker club`): the players the database tracks, with
the federation it has for them, and the players a file of FIDE IDs names.

A player is tracked when the database knows more of them than a name in a game: they have
games and a FIDE ID, an official entry or a fact the user recorded (birth year, rated games,
ever 2400); the player marked as the user's (`--me`) always is. The other players with
games are opponents known by name only (counted, so that the list can say so). The
players FIDE's lists brought in without a game (`official import --all`) are not
tracked: there is nothing of theirs to rate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Subquery, exists, or_, select, union

from tracker.store.db import Store, chunks
from tracker.store.schema import games, official_ratings, players

__all__ = ["Candidate", "players_of_fide_ids", "tracked_players"]


@dataclass(frozen=True)
class Candidate:
    """A player a club's list may show: who, and the federation the database has for them
    (from the FIDE list that created the player)."""

    id: int
    name: str
    fide_id: int | None
    federation: str | None


def _with_games() -> Subquery:
    """The ids of the players with a game (either side): one pass over the two indexes."""
    return union(select(games.c.white_id.label("pid")), select(games.c.black_id)).subquery()


def _tracked_clause() -> ColumnElement[bool]:
    official = exists().where(official_ratings.c.player_id == players.c.id)
    return or_(
        players.c.fide_id.is_not(None),
        official,
        players.c.birth_year.is_not(None),
        players.c.rated_games.is_not(None),
        players.c.ever_2400.is_not(None),
    )


def tracked_players(store: Store) -> tuple[list[Candidate], list[str]]:
    """The tracked players (by normalized name, then id), and the names of the players with
    games who are not tracked (opponents known by name only), in the same order."""
    with_games = _with_games()
    tracked = _tracked_clause()
    stmt = (
        select(
            players.c.id,
            players.c.name,
            players.c.fide_id,
            players.c.federation,
            players.c.is_me,
            tracked.label("tracked"),
        )
        .where(or_(players.c.is_me.is_(True), players.c.id.in_(select(with_games.c.pid))))
        .order_by(players.c.norm_name, players.c.id)
    )
    found: list[Candidate] = []
    untracked: list[str] = []
    with store.engine.connect() as conn:
        for r in conn.execute(stmt):
            if not (r.is_me or r.tracked):
                untracked.append(str(r.name))
                continue
            found.append(Candidate(int(r.id), str(r.name), r.fide_id, r.federation))
    return found, untracked


def players_of_fide_ids(store: Store, fide_ids: Sequence[int]) -> list[Candidate]:
    """The players with these FIDE IDs (by normalized name, then id); an ID no player has is
    left out (the caller tells which)."""
    rows: list[tuple[str, int, Candidate]] = []
    with store.engine.connect() as conn:
        for chunk in chunks(sorted(set(fide_ids))):
            stmt = select(
                players.c.id,
                players.c.name,
                players.c.norm_name,
                players.c.fide_id,
                players.c.federation,
            ).where(players.c.fide_id.in_(list(chunk)))
            for r in conn.execute(stmt):
                who = Candidate(int(r.id), str(r.name), r.fide_id, r.federation)
                rows.append((str(r.norm_name), int(r.id), who))
    rows.sort(key=lambda x: (x[0], x[1]))
    return [c for _, _, c in rows]
