"""The seasons tests build: one builder per shape, with parameters where tests differ only in
values (issue 16 item 7).

- `Replay()`: a player's facts by hand for the pure replay (no database): `b.t(...)` a
  tournament, `b.g(t, opponent_rating, score, ...)` a game, `b.off(...)` an official entry,
  `b.run(...)` the replay.
- `Season(store)`: a hand-made history straight into the schema tables (SQLAlchemy Core), so
  the replay and report tests do not depend on the PGN importer. It creates the tracked
  player; `season.tournament(...)` a tournament; then `season.game(t, opponent_rating, score,
  ...)` a game of the tracked player (as white unless told otherwise) against a fresh or named
  opponent. `season.official(...)` records an official entry straight into official_ratings.
- `sample_season_db(db)`: the sample season (`sample_pgns/`) imported into a database;
  `demo_folder(...)`: the sample season as `tracker demo` records it.
- `two_opens_season(db)`: a small hand-made season of two opens (the QA run's).
- `long_career(db)`: years of monthly standard tournaments (a career's report to fold).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import CursorResult, insert

from tests.conftest import SAMPLES
from tracker.identity.names import normalize_name
from tracker.model import OfficialEntry, Period, RatingList
from tracker.periods import GameFact, PlayerInfo, ReplayInputs, TournamentFact, replay
from tracker.periods import Replay as ReplayResult
from tracker.store import Store
from tracker.store.schema import (
    games,
    official_ratings,
    player_names,
    players,
    tournaments,
)

STD = RatingList.STANDARD


class Replay:
    """A tiny season for the pure replay (player id 1; game n is against opponent id 1000 + n,
    named "Opp n" unless `name` is given, result "*", round n, on its tournament's start
    unless `day` is given). `player` is the replay's PlayerInfo when `run` is given none
    (PlayerInfo() if None); `rl` the list of the games and entries unless they say."""

    def __init__(self, player: PlayerInfo | None = None, rl: RatingList = STD) -> None:
        self.player = player
        self.rl = rl
        self.games: list[GameFact] = []
        self.tournaments: list[TournamentFact] = []
        self.official: list[OfficialEntry] = []

    def t(self, name: str, start: str, end: str, **kw: Any) -> int:
        tid = len(self.tournaments) + 1
        self.tournaments.append(
            TournamentFact(
                tid, name, start=dt.date.fromisoformat(start), end=dt.date.fromisoformat(end), **kw
            )
        )
        return tid

    def g(
        self,
        tid: int,
        opp: int | None,
        score: Fraction | int,
        *,
        own: int | None = None,
        day: str | None = None,
        rl: RatingList | None = None,
        rated: bool = True,
        reason: str | None = None,
        name: str | None = None,
    ) -> None:
        t = self.tournaments[tid - 1]
        n = len(self.games) + 1
        self.games.append(
            GameFact(
                id=n,
                tournament_id=tid,
                date=dt.date.fromisoformat(day) if day else t.start,
                round=str(n),
                white=True,
                opponent_id=1000 + n,
                opponent=name or f"Opp {n}",
                own_elo=own,
                opponent_elo=opp,
                result="*",
                score=Fraction(score),
                rating_list=rl or self.rl,
                rated=rated,
                not_rated_reason=reason,
            )
        )

    def event(
        self,
        start: str,
        *games: tuple[int, Fraction | int],
        end: str | None = None,
        name: str | None = None,
    ) -> int:
        """A tournament (named "T<id>" unless `name` is given) of `games` (opponent rating,
        score), all played on its start."""
        tid = self.t(name or f"T{len(self.tournaments) + 1}", start, end or start)
        for opp, score in games:
            self.g(tid, opp, score)
        return tid

    def off(
        self,
        period: str,
        rating: int | None,
        *,
        k: int | None = None,
        rl: RatingList | None = None,
        games: int | None = None,
        birth_year: int | None = None,
    ) -> None:
        self.official.append(
            OfficialEntry(
                1,
                rl or self.rl,
                Period.parse(period),
                rating,
                games=games,
                k=k,
                birth_year=birth_year,
            )
        )

    def inputs(
        self,
        rl: RatingList | None = None,
        player: PlayerInfo | None = None,
        until: str | None = None,
        standard: dict[Period, int] | None = None,
    ) -> ReplayInputs:
        """What the replay of list `rl` (the season's by default) is given."""
        return ReplayInputs(
            rl or self.rl,
            self.games,
            self.tournaments,
            self.official,
            player or self.player or PlayerInfo(),
            standard_ratings=standard or {},
            until=Period.parse(until) if until else None,
        )

    def run(
        self,
        rl: RatingList | PlayerInfo | None = None,
        player: PlayerInfo | None = None,
        until: str | None = None,
        standard: dict[Period, int] | None = None,
    ) -> ReplayResult:
        """The replay of list `rl`; `run(player)` alone is the season list's for `player`."""
        if isinstance(rl, PlayerInfo):
            rl, player = None, rl
        return replay(self.inputs(rl, player, until, standard))


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key of the row an INSERT of one row made (SQLAlchemy types it optional)."""
    key = result.inserted_primary_key
    assert key is not None, "not an INSERT of one row"
    return int(key[0])


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
        self.player_id = self.player(
            self.name,
            self.fide_id,
            birth_year=self.birth_year,
            rated_games=self.rated_games,
            ever_2400=self.ever_2400,
            is_me=self.me,
        )

    def player(self, name: str, fide_id: int | None = None, **facts: object) -> int:
        norm = normalize_name(name)
        with self.store.engine.begin() as conn:
            pid = inserted_id(
                conn.execute(
                    insert(players).values(name=name, norm_name=norm, fide_id=fide_id, **facts)
                )
            )
            conn.execute(insert(player_names).values(norm_name=norm, player_id=pid))
        return pid

    def tournament(
        self,
        event: str,
        start: str | dt.date | None,
        end: str | dt.date | None,
        *,
        site: str = "Somewhere",
        online: bool = False,
    ) -> int:
        key = f"{event}|{site}|{start}"
        with self.store.engine.begin() as conn:
            return inserted_id(
                conn.execute(
                    insert(tournaments).values(
                        event=event,
                        site=site,
                        start_date=_d(start),
                        end_date=_d(end),
                        key=key,
                        online=online,
                    )
                )
            )

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
        ident = hashlib.sha256(f"{self._counter}|{tournament_id}|{opp_name}".encode()).digest()[:16]
        with self.store.engine.begin() as conn:
            return inserted_id(
                conn.execute(
                    insert(games).values(
                        identity=ident,
                        tournament_id=tournament_id,
                        white_id=w,
                        black_id=b,
                        date=_d(date),
                        round=round or str(self._counter),
                        result=result,
                        white_elo=we,
                        black_elo=be,
                        white_elo_tag=None if we is None else str(we),
                        black_elo_tag=None if be is None else str(be),
                        has_moves=True,
                        list=str(rating_list),
                        rated=rated,
                        not_rated_reason=reason,
                    )
                )
            )

    def official(
        self,
        period: str,
        rating: int | None,
        *,
        k: int | None = None,
        games_count: int | None = None,
        rating_list: str = "standard",
        birth_year: int | None = None,
    ) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                insert(official_ratings).values(
                    player_id=self.player_id,
                    list=rating_list,
                    period=period,
                    rating=rating,
                    games=games_count,
                    k=k,
                    birth_year=birth_year,
                    source="test",
                    recorded_at=dt.datetime(2026, 1, 1),
                )
            )


def sample_season_db(db: Path) -> Path:
    """A database of the sample season at `db` (every file of sample_pgns/ imported with the
    default options)."""
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.store import open_store

    with open_store(str(db)) as store:
        import_paths(store, [str(SAMPLES)], ImportOptions())
    return db


def copy_db(template: Path, folder: Path, name: str = "season.db") -> str:
    """A fresh copy of a module's template database in `folder` (each test changes its own)."""
    import shutil

    target = folder / name
    shutil.copyfile(template, target)
    return str(target)


def two_opens_season(db: Path) -> Path:
    """Hand-made (Season below): official Oct 2025 1850 (K 20); "Autumn Open"
    4-5 Oct 2025 (default list 2025-11): a win vs 1700, a loss vs 2000; "Weinviertel Open
    2025" 21-23 Nov 2025 (default list 2025-12, and no earlier list can rate it: its last
    round is after 1 Nov): a draw vs 1800, a win vs 1900. The player's tag 1850 throughout."""
    from tracker.store import open_store

    with open_store(str(db)) as store:
        s = Season(store, birth_year=1988, rated_games=100)
        t = s.tournament("Autumn Open", "2025-10-04", "2025-10-05")
        s.game(t, 1700, 1, own_elo=1850, date="2025-10-04")
        s.game(t, 2000, 0, own_elo=1850, date="2025-10-05")
        w = s.tournament("Weinviertel Open 2025", "2025-11-21", "2025-11-23")
        s.game(w, 1800, "1/2", own_elo=1850, date="2025-11-21")
        s.game(w, 1900, 1, own_elo=1850, date="2025-11-23")
        s.official("2025-10", 1850, k=20)
    return db


def long_career(db: Path, years: int = 12, games: int = 8) -> Path:
    """Hand-made: official Jan 2013 2000 (an adult, 100 rated games, never 2400), then a
    tournament of `games` standard games (two a day from the 3rd) every month for `years`
    years, against a pool of 40 opponents rated 1900 to 2099, the scores in a fixed
    pattern: a period on every monthly list, the rating wandering."""
    from tracker.store import open_store

    with open_store(str(db)) as store:
        s = Season(store, birth_year=1980, rated_games=100, ever_2400=False)
        s.official("2013-01", 2000, k=20)
        month = Period(2013, 1)
        for m in range(years * 12):
            start = dt.date(month.year, month.month, 3)
            t = s.tournament(f"Club Open {month}", start, start + dt.timedelta(days=games // 2))
            for i in range(games):
                k = (m * games + i) % 40
                score = (Fraction(0), Fraction(1, 2), Fraction(1))[(m * 7 + i * 3) % 5 % 3]
                s.game(
                    t,
                    1900 + (k * 37) % 200,
                    score,
                    own_elo=None,
                    date=start + dt.timedelta(days=i // 2),
                    opponent=f"Opponent {k:02d}",
                )
            month = month.next()
    return db


def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run `tracker demo` into a fresh folder (database, CSV, chart, season.html)."""
    folder = tmp_path_factory.mktemp("demo") / "demo-out"
    mp = pytest.MonkeyPatch()
    try:
        import io
        import sys

        out, err = io.StringIO(), io.StringIO()
        mp.setattr(sys, "stdout", out)
        mp.setattr(sys, "stderr", err)
        from tracker.cli import main

        try:
            mp.setattr(
                sys,
                "argv",
                ["tracker", "demo", "--samples", str(SAMPLES), "--output-dir", str(folder)],
            )
            main()
        except SystemExit as exc:
            assert exc.code in (0, None), err.getvalue()
    finally:
        mp.undo()
    return folder
