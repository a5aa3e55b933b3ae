"""What `tracker event show` reads of one tournament: the tournaments a name or an id may
mean, the players of a tournament, and its games by list. Plain values out; the players'
facts are read by tracker.store.reading (`facts_of_players`)."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import func, select, union

from tracker.model import RatingList, TournamentSummary
from tracker.store.db import Store
from tracker.store.reading import tag_dates
from tracker.store.schema import games, tournaments

__all__ = ["list_counts", "players_of", "tournament_summaries"]


def tournament_summaries(store: Store, ids: list[int] | None = None) -> list[TournamentSummary]:
    """Every tournament (or those of `ids`) with its number of games, by id; one without a
    whole date with what its date tags say (a year, a month)."""
    counts = (
        select(games.c.tournament_id, func.count().label("n"))
        .group_by(games.c.tournament_id)
        .subquery()
    )
    stmt = (
        select(
            tournaments.c.id,
            tournaments.c.event,
            tournaments.c.site,
            tournaments.c.start_date,
            tournaments.c.end_date,
            func.coalesce(counts.c.n, 0),
        )
        .outerjoin(counts, counts.c.tournament_id == tournaments.c.id)
        .order_by(tournaments.c.id)
    )
    if ids is not None:
        stmt = stmt.where(tournaments.c.id.in_(ids))
    with store.engine.connect() as conn:
        found = [
            TournamentSummary(int(i), str(name), str(site), start, end, int(n))
            for i, name, site, start, end, n in conn.execute(stmt)
        ]
        if all(t.start is not None for t in found):
            return found
        tags = tag_dates(conn, ids)
    return [
        replace(t, tag_year=tags[t.id].year, tag_month=tags[t.id].month) if t.id in tags else t
        for t in found
    ]


def players_of(store: Store, tournament_id: int) -> list[int]:
    """The ids of the players with a game in the tournament."""
    stmt = union(
        select(games.c.white_id.label("p")).where(games.c.tournament_id == tournament_id),
        select(games.c.black_id.label("p")).where(games.c.tournament_id == tournament_id),
    )
    with store.engine.connect() as conn:
        return sorted(int(p) for (p,) in conn.execute(stmt))


def list_counts(store: Store, tournament_id: int) -> dict[RatingList, int]:
    """The tournament's games by the list each game is on (its own, before a pin)."""
    stmt = (
        select(games.c.list, func.count())
        .where(games.c.tournament_id == tournament_id)
        .group_by(games.c.list)
    )
    with store.engine.connect() as conn:
        return {RatingList(str(rl)): int(n) for rl, n in conn.execute(stmt)}
