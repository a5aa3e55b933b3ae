"""`tracker check`'s what-ifs (tracker/check/rules.py) follow the rules the replay followed.

A what-if re-rates a period under another treatment (another K, cap, rounding, a base one
point off); the rating it compares with FIDE's must then go through what the replay's period
went through: the list's one-off adjustment (the Mar 2024 compression, the Oct 2022 raise),
the floor after it, and for a player rated at a standard seed, `rate_period(..., seeded=True)`.
Expected numbers are derived by hand from shared/spec/fide-rules.md and its table 8.1.2
(rows used: 0,3,0.50,0.50 | 392,411,0.92,0.08 | 433,456,0.94,0.06 | 485,517,0.96,0.04).
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from tracker.check.rules import _rate, _tournaments_in
from tracker.fide import policies
from tracker.model import OfficialEntry, Period, RatingList
from tracker.periods import (
    GameFact,
    PeriodRow,
    PlayerInfo,
    ReplayInputs,
    TournamentFact,
    replay,
)

STD, RAPID = RatingList.STANDARD, RatingList.RAPID
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)
ADULT = PlayerInfo(birth_year=1980, rated_games=100)


def _row(rl: RatingList, start: str, games: list[tuple[int, Fraction]],
         official: list[tuple[str, int, int | None]], period: str,
         player: PlayerInfo = ADULT, standard: dict[Period, int] | None = None) -> PeriodRow:
    """The replayed row of `period` for one tournament played on `start`."""
    on = dt.date.fromisoformat(start)
    ts = [TournamentFact(1, "T", start=on, end=on)]
    gs = [GameFact(id=i, tournament_id=1, date=on, round=str(i), white=True, opponent_id=100 + i,
                   opponent=f"Opp {i}", own_elo=None, opponent_elo=r, result="*", score=s,
                   rating_list=rl) for i, (r, s) in enumerate(games, 1)]
    entries = [OfficialEntry(1, rl, Period.parse(p), rating, k=k) for p, rating, k in official]
    rep = replay(ReplayInputs(rl, gs, ts, entries, player, standard_ratings=standard or {}))
    row = rep.row(Period.parse(period))
    assert row is not None
    return row


@pytest.mark.parametrize("counts", [True, False])
def test_check_rates_a_seeded_period_as_the_replay_did(monkeypatch: pytest.MonkeyPatch,
                                                       counts: bool) -> None:
    # Unrated in rapid, standard Oct 2025 2450: rated at 2450 from the Nov 2025 rapid list
    # (section 4). Win vs 2450 (D 0) on 10 Oct 2025. Policy SEED_COUNTS_AS_PUBLISHED_FOR_K:
    # True -> the seed is a published 2400: K 10, +5 -> 2455; False -> K from the rapid
    # facts alone: no rapid game, adult -> K 40, +20 -> 2470. Check's what-ifs (`_rate`) must
    # derive the same K as the replay: without `seeded`, False would give K 10 (the 2450
    # taken as a published rapid rating).
    monkeypatch.setattr(policies, "SEED_COUNTS_AS_PUBLISHED_FOR_K", counts)
    row = _row(RAPID, "2025-10-10", [(2450, ONE)], [], "2025-11",
               player=PlayerInfo(birth_year=1980), standard={Period(2025, 10): 2450})
    assert row.seeded and row.out is not None
    k, after = (10, 2455) if counts else (40, 2470)
    assert (row.out.k, row.out.rating_after) == (k, after)
    assert row.rating_before is not None
    again = _rate(row, row.rating_before, _tournaments_in(row.out))
    assert (again.k, again.rating_after) == (k, after)
