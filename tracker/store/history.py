"""What the period replay reads from the store, and the user's tournament overrides.

Plain values out (tracker.periods.GameFact / TournamentFact, tracker.model values); no ORM
row leaves this module. The replay itself is pure (tracker.periods); this module only
gathers the facts: a player's games with both sides' Elo and each game's tournament, the
tournaments with their overrides (pinned period or list, excluded, the Ro FIDE used), and
records those overrides (`tracker event set`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import Row, and_, delete, insert, literal, or_, select, update
from sqlalchemy.sql import Select

from tracker.errors import BadInput, NotFound
from tracker.model import Period, RatingList
from tracker.periods import GameFact, TournamentFact
from tracker.store.db import Store
from tracker.store.schema import games, players, ro_overrides, tournaments

__all__ = [
    "UNSET",
    "games_of",
    "get_tournament",
    "record_override",
    "tournaments_of",
]


_WHITE_SCORE = {"1-0": Fraction(1), "0-1": Fraction(0), "1/2-1/2": Fraction(1, 2)}
_BLACK_SCORE = {"1-0": Fraction(0), "0-1": Fraction(1), "1/2-1/2": Fraction(1, 2)}
_LISTS = {str(rl): rl for rl in RatingList}


def games_of(store: Store, player_id: int) -> list[GameFact]:
    """Every game of the player on every list, each seen from the player's side, in date
    order (undated games last). The list is the game's own; tournament pins are applied by
    the replay."""
    opp = players.alias("opp")
    base: Select[tuple[object, ...]] = select(
        games.c.id,
        games.c.tournament_id,
        games.c.date,
        games.c.round,
        games.c.result,
        games.c.white_id,
        games.c.black_id,
        games.c.white_elo,
        games.c.black_elo,
        games.c.white_elo_tag,
        games.c.black_elo_tag,
        games.c.list,
        games.c.rated,
        games.c.not_rated_reason,
        opp.c.id.label("opp_id"),
        opp.c.name.label("opp_name"),
        opp.c.fide_id.label("opp_fide_id"),
    )
    out: list[GameFact] = []
    with store.engine.connect() as conn:
        for white in (True, False):
            own_col, opp_col = (
                (games.c.white_id, games.c.black_id) if white else (games.c.black_id,
                                                                    games.c.white_id)
            )
            stmt = base.join(opp, opp.c.id == opp_col).where(own_col == player_id)
            for row in conn.execute(stmt).all():
                out.append(_game_fact(row, white))
    out.sort(key=lambda g: (g.date is None, g.date or dt.date.min, g.tournament_id,
                            g.round or "", g.id))
    return out


def _game_fact(row: Row[tuple[object, ...]], white: bool) -> GameFact:
    values: tuple[Any, ...] = tuple(row)
    (gid, tid, date, round_, result, _w, _b, white_elo, black_elo, white_tag, black_tag,
     rating_list, rated, reason, opp_id, opp_name, opp_fide) = values
    if white:
        own_elo, opp_elo, own_tag, opp_tag = white_elo, black_elo, white_tag, black_tag
    else:
        own_elo, opp_elo, own_tag, opp_tag = black_elo, white_elo, black_tag, white_tag
    return GameFact(
        id=int(gid),
        tournament_id=int(tid),
        date=date,
        round=round_,
        white=white,
        opponent_id=int(opp_id),
        opponent=str(opp_name),
        opponent_fide_id=opp_fide,
        own_elo=own_elo,
        opponent_elo=opp_elo,
        own_elo_tag=own_tag,
        opponent_elo_tag=opp_tag,
        result=str(result),
        score=(_WHITE_SCORE if white else _BLACK_SCORE).get(result),
        rating_list=_LISTS[str(rating_list)],
        rated=bool(rated),
        not_rated_reason=reason,
    )


def _tournament_select(player_id: int | None) -> Select[tuple[object, ...]]:
    if player_id is None:
        return select(tournaments, literal(None).label("ro"))
    return select(tournaments, ro_overrides.c.rating.label("ro")).outerjoin(
        ro_overrides,
        and_(ro_overrides.c.tournament_id == tournaments.c.id,
             ro_overrides.c.player_id == player_id),
    )


def _tournament_fact(row: Row[tuple[object, ...]]) -> TournamentFact:
    m = row._mapping
    pinned_period = m["pinned_period"]
    pinned_list = m["pinned_list"]
    return TournamentFact(
        id=int(m["id"]),
        name=str(m["event"]),
        site=str(m["site"]),
        start=m["start_date"],
        end=m["end_date"],
        online=bool(m["online"]),
        pinned_period=Period.parse(pinned_period) if pinned_period else None,
        pinned_list=RatingList(pinned_list) if pinned_list else None,
        excluded=bool(m["excluded"]),
        ro=m["ro"],
    )


def tournaments_of(store: Store, player_id: int) -> list[TournamentFact]:
    """The tournaments the player has games in, with the user's overrides (the Ro override
    is this player's)."""
    own = select(games.c.tournament_id).where(
        or_(games.c.white_id == player_id, games.c.black_id == player_id)
    )
    stmt = _tournament_select(player_id).where(tournaments.c.id.in_(own)).order_by(
        tournaments.c.start_date, tournaments.c.id
    )
    with store.engine.connect() as conn:
        return [_tournament_fact(r) for r in conn.execute(stmt)]


def get_tournament(store: Store, tournament_id: int, player_id: int | None = None
                   ) -> TournamentFact:
    """One tournament by id (with `player_id`'s Ro override when given)."""
    stmt = _tournament_select(player_id).where(tournaments.c.id == tournament_id)
    with store.engine.connect() as conn:
        row = conn.execute(stmt).first()
    if row is None:
        raise NotFound(
            f"no tournament with id {tournament_id}: see `tracker event list` for the ids"
        )
    return _tournament_fact(row)


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()
"""Marks an override left as it is (None clears it)."""


@dataclass(frozen=True)
class OverrideChange:
    """What `record_override` changed, for the command's confirmation line."""

    tournament: TournamentFact
    changes: tuple[str, ...]


def record_override(
    store: Store,
    tournament_id: int,
    *,
    period: Period | None | _Unset = UNSET,
    rating_list: RatingList | None | _Unset = UNSET,
    excluded: bool | _Unset = UNSET,
    ro: tuple[int, int | None] | _Unset = UNSET,
) -> OverrideChange:
    """Record the user's overrides of one tournament in one transaction.

    `period` pins the tournament to a list month (None: back to the default), `rating_list`
    pins it to a list (None: back to each game's own list), `excluded` marks a tournament
    that was never rated, `ro=(player_id, rating)` records the Ro FIDE used for that player
    (rating None removes it). Arguments left UNSET are unchanged.
    """
    get_tournament(store, tournament_id)  # NotFound with a clear sentence
    values: dict[str, object] = {}
    changes: list[str] = []
    if not isinstance(period, _Unset):
        values["pinned_period"] = None if period is None else str(period)
        changes.append(f"period {'default' if period is None else period}")
    if not isinstance(rating_list, _Unset):
        values["pinned_list"] = None if rating_list is None else str(rating_list)
        changes.append(f"list {'from each game' if rating_list is None else rating_list}")
    if not isinstance(excluded, _Unset):
        values["excluded"] = excluded
        changes.append("excluded" if excluded else "included")
    with store.engine.begin() as conn:
        if values:
            conn.execute(
                update(tournaments).where(tournaments.c.id == tournament_id).values(**values)
            )
        if not isinstance(ro, _Unset):
            player_id, rating = ro
            if rating is not None and not 0 < rating < 4000:
                raise BadInput(f"--ro {rating} is not a rating: give a number like 1850")
            conn.execute(
                delete(ro_overrides).where(
                    and_(ro_overrides.c.tournament_id == tournament_id,
                         ro_overrides.c.player_id == player_id)
                )
            )
            if rating is not None:
                conn.execute(insert(ro_overrides).values(
                    tournament_id=tournament_id, player_id=player_id, rating=rating))
            changes.append(f"Ro {rating}" if rating is not None else "Ro from the lists")
    player = ro[0] if not isinstance(ro, _Unset) else None
    return OverrideChange(get_tournament(store, tournament_id, player), tuple(changes))
