"""Build small hand-made histories straight into the schema tables (SQLAlchemy Core), so the
replay and report tests do not depend on the PGN importer.

`Season(store)` creates the tracked player; `season.tournament(...)` a tournament; then
`season.game(t, opponent_rating, score, ...)` a game of the tracked player (as white unless
told otherwise) against a fresh or named opponent. `season.official(...)` records an official
entry straight into official_ratings.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from fractions import Fraction

from sqlalchemy import insert

from tracker.model import RatingList
from tracker.names import normalize_name
from tracker.store import Store
from tracker.store.schema import (
    games,
    official_ratings,
    player_names,
    players,
    tournaments,
)


def _d(text: str | dt.date | None) -> dt.date | None:
    if text is None or isinstance(text, dt.date):
        return text
    return dt.date.fromisoformat(text)


@dataclass
class Season:
    store: Store
    name: str = "Novák, Tomáš"
    fide_id: int | None = 99012345
    birth_year: int | None = None
    rated_games: int | None = None
    ever_2400: bool | None = None
    me: bool = True
    player_id: int = 0
    _opponents: dict[str, int] = field(default_factory=dict)
    _counter: int = 0

    def __post_init__(self) -> None:
        self.player_id = self.player(self.name, self.fide_id, birth_year=self.birth_year,
                                     rated_games=self.rated_games, ever_2400=self.ever_2400,
                                     is_me=self.me)

    def player(self, name: str, fide_id: int | None = None, **facts: object) -> int:
        norm = normalize_name(name)
        with self.store.engine.begin() as conn:
            pid = int(conn.execute(insert(players).values(
                name=name, norm_name=norm, fide_id=fide_id, **facts)).inserted_primary_key[0])
            conn.execute(insert(player_names).values(norm_name=norm, player_id=pid))
        return pid

    def tournament(self, event: str, start: str | dt.date | None, end: str | dt.date | None,
                   *, site: str = "Somewhere", online: bool = False) -> int:
        key = f"{event}|{site}|{start}"
        with self.store.engine.begin() as conn:
            return int(conn.execute(insert(tournaments).values(
                event=event, site=site, start_date=_d(start), end_date=_d(end), key=key,
                online=online)).inserted_primary_key[0])

    def opponent(self, name: str) -> int:
        if name not in self._opponents:
            self._opponents[name] = self.player(name)
        return self._opponents[name]

    def game(
        self,
        tournament_id: int,
        opponent_rating: int | None,
        score: Fraction | int | str,
        *,
        own_elo: int | None = None,
        date: str | dt.date | None = None,
        opponent: str | None = None,
        white: bool = True,
        rating_list: RatingList | str = RatingList.STANDARD,
        rated: bool = True,
        reason: str | None = None,
        round: str | None = None,
        result: str | None = None,
    ) -> int:
        self._counter += 1
        opp_name = opponent or f"Opponent {self._counter:04d}"
        opp_id = self.opponent(opp_name)
        s = Fraction(score)
        if result is None:
            result = {Fraction(1): "1-0", Fraction(0): "0-1", Fraction(1, 2): "1/2-1/2"}[s]
            if not white:
                result = {"1-0": "0-1", "0-1": "1-0"}.get(result, result)
        own, opp = (self.player_id, opp_id)
        w, b = (own, opp) if white else (opp, own)
        we, be = (own_elo, opponent_rating) if white else (opponent_rating, own_elo)
        ident = hashlib.sha256(f"{self._counter}|{tournament_id}|{opp_name}".encode()).hexdigest()
        with self.store.engine.begin() as conn:
            return int(conn.execute(insert(games).values(
                identity=ident, tournament_id=tournament_id, white_id=w, black_id=b,
                date=_d(date), round=round or str(self._counter), result=result,
                white_elo=we, black_elo=be,
                white_elo_tag=None if we is None else str(we),
                black_elo_tag=None if be is None else str(be),
                has_moves=True, list=str(rating_list), rated=rated,
                not_rated_reason=reason)).inserted_primary_key[0])

    def official(self, period: str, rating: int | None, *, k: int | None = None,
                 games_count: int | None = None, rating_list: str = "standard",
                 birth_year: int | None = None) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(insert(official_ratings).values(
                player_id=self.player_id, list=rating_list, period=period, rating=rating,
                games=games_count, k=k, birth_year=birth_year, source="test",
                recorded_at=dt.datetime(2026, 1, 1)))
