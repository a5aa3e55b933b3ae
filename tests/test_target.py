"""`needed_score`: the points needed to reach a rating on the next list.

Every expected number below is derived by hand from FIDE's table 8.1.2
(shared/spec/table-8-1-2.csv) and the spec's K rules (shared/spec/fide-rules.md sections
1 and 3); the derivation is written beside each test. Never from running tracker code.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

import pytest

from tracker.app.target import needed_score, opponents_from
from tracker.errors import BadInput
from tracker.fide import GameIn, PlayerFacts, TournamentIn
from tracker.model import Period, RatingList
from tracker.reports.target import summary_text

JAN26 = Period(2026, 1)
START = dt.date(2025, 12, 10)
ADULT = PlayerFacts(birth_year=1980, rated_games=100)  # K 20 (spec section 3, rule 4)
NEW_PLAYER = PlayerFacts(birth_year=1980, rated_games=10)  # K 40 (rule 3: under 30 games)


def test_five_games_against_equal_opponents() -> None:
    # 1500 vs 1500: D = 0, table row 0-3 -> PD 0.50; five games: sum PD = 2.50; K 20.
    # Need 1500 + round(20 (x - 2.50)) >= 1510, i.e. 20 (x - 2.50) >= 9.5, x >= 2.975:
    # the next half point is 3 (20 x 0.50 = 10 -> 1510). 5/5: 20 x 2.50 = 50 -> 1550.
    out = needed_score(
        1510,
        rating_before=1500,
        played=(),
        opponents=[1500] * 5,
        rating_list=RatingList.STANDARD,
        period=JAN26,
        facts=ADULT,
        start=START,
    )
    assert out.points_needed == 3
    assert out.rating_needed == 1510
    assert out.max_rating == 1550
    assert out.min_rating == 1450  # 20 x (0 - 2.50) = -50
    assert out.k == 20
    assert out.expected == 2.5
    assert out.reachable and not out.already_reached
    assert "3/5" in summary_text(out)


def test_out_of_reach_says_the_maximum() -> None:
    # Same tournament: 5/5 gives 1550 (above), so 1560 cannot be reached.
    out = needed_score(
        1560,
        rating_before=1500,
        played=(),
        opponents=[1500] * 5,
        rating_list=RatingList.STANDARD,
        period=JAN26,
        facts=ADULT,
        start=START,
    )
    assert out.points_needed is None and not out.reachable
    assert out.max_rating == 1550
    assert "out of reach" in summary_text(out) and "1550" in summary_text(out)


def test_already_reached_whatever_the_score() -> None:
    # 0/5 gives 1450 (see above): a target of 1450 needs nothing.
    out = needed_score(
        1450,
        rating_before=1500,
        played=(),
        opponents=[1500] * 5,
        rating_list=RatingList.STANDARD,
        period=JAN26,
        facts=ADULT,
        start=START,
    )
    assert out.points_needed == 0 and out.already_reached
    assert "whatever the score" in summary_text(out)


def test_games_already_played_count_for_change_and_the_700_rule() -> None:
    # A new player (K 40: fewer than 30 games) rated 1600 already has 10 games in the open
    # period against 1600 opponents (D = 0 -> PD 0.50 each) scoring 3: sum of changes
    # 3 - 5.00 = -2.00.
    # New tournament: 9 games against 1700: D = -100, row 99-106 -> p_low 0.36; sum 3.24.
    # 700 rule: 19 games x 40 = 760 > 700 -> K = largest whole K with 19 K <= 700 = 36
    # (36 x 19 = 684; 37 x 19 = 703).
    # Need 36 (-2 + x - 3.24) >= 1650 - 1600 - 0.5 = 49.5 -> x >= 6.615 -> 7:
    #   36 x (7 - 5.24) = 36 x 1.76 = 63.36 -> 63 -> 1663.
    # 6.5 would give 36 x 1.26 = 45.36 -> 45 -> 1645 (short).
    # 9/9: 36 x 3.76 = 135.36 -> 135 -> 1735.
    played = TournamentIn(
        start=dt.date(2025, 12, 1),
        own_rating=1600,
        label="club",
        games=tuple(GameIn(1600, Fraction(1) if i < 3 else Fraction(0)) for i in range(10)),
    )
    out = needed_score(
        1650,
        rating_before=1600,
        played=(played,),
        opponents=[1700] * 9,
        rating_list=RatingList.STANDARD,
        period=JAN26,
        facts=NEW_PLAYER,
        start=START,
    )
    assert out.k == 36
    assert out.games_already == 10
    assert out.points_needed == 7
    assert out.rating_needed == 1663
    assert out.max_rating == 1735
    steps = {s.points: s.rating_after for s in out.steps}
    assert steps[Fraction(13, 2)] == 1645


def test_individual_opponents_and_the_cap() -> None:
    # 1800 (K 20) against 1700, 1900 and 2300:
    #   D = +100 -> row 99-106 p_high 0.64; D = -100 -> p_low 0.36;
    #   D = -500 -> capped at -400 (every game from Mar 2024, Ro under 2650) -> row 392-411
    #   p_low 0.08. Sum PD = 1.08.
    # 20 (x - 1.08) >= 1820 - 1800 - 0.5 = 19.5 -> x >= 2.055 -> 2.5:
    #   20 x 1.42 = 28.4 -> 28 -> 1828; 2.0 gives 20 x 0.92 = 18.4 -> 18 -> 1818.
    out = needed_score(
        1820,
        rating_before=1800,
        played=(),
        opponents=[1700, 1900, 2300],
        rating_list=RatingList.STANDARD,
        period=JAN26,
        facts=ADULT,
        start=START,
    )
    assert out.expected == Fraction(108, 100)
    assert out.points_needed == Fraction(5, 2)
    assert out.rating_needed == 1828


def test_opponents_from_the_command_line() -> None:
    assert opponents_from(3, 1800, []) == (1800, 1800, 1800)
    assert opponents_from(None, None, [1700, 1900]) == (1700, 1900)
    assert opponents_from(2, None, [1700, 1900]) == (1700, 1900)
    args: tuple[Any, ...]
    for args in (
        (3, 1800, [1700]),
        (None, 1800, []),
        (None, None, []),
        (3, None, [1700]),
        (0, 1800, []),
        (2, 99999, []),
    ):
        with pytest.raises(BadInput):
            opponents_from(*args)


def test_target_must_be_a_rating() -> None:
    with pytest.raises(BadInput):
        needed_score(
            0,
            rating_before=1500,
            played=(),
            opponents=[1500],
            rating_list=RatingList.STANDARD,
            period=JAN26,
            facts=ADULT,
            start=START,
        )


def test_through_the_replay_counts_the_open_period() -> None:
    # The same season as test_games_already_played_count_for_change_and_the_700_rule, but as
    # the player's facts: official 1600 with K 40 on the Dec 2025 list; a club tournament of
    # 10 games (1 to 20 Dec, so on the Jan 2026 list) against 1600 scoring 3; the new
    # tournament (9 games against 1700) starts 22 Dec, pinned to the Jan list.
    # Derivation as above: 700 rule 19 x 40 > 700 -> K 36; 7/9 -> 1663, 6.5 -> 1645.
    from tracker.app.target import needed_score_replayed
    from tracker.model import OfficialEntry
    from tracker.periods import GameFact, PlayerInfo, ReplayInputs, TournamentFact

    club = TournamentFact(id=1, name="club", start=dt.date(2025, 12, 1), end=dt.date(2025, 12, 20))
    games = [
        GameFact(
            id=i + 1,
            tournament_id=1,
            date=dt.date(2025, 12, 1 + i),
            round=str(i + 1),
            white=True,
            opponent_id=100 + i,
            opponent=f"o{i}",
            own_elo=1600,
            opponent_elo=1600,
            result="1-0" if i < 3 else "0-1",
            score=Fraction(1) if i < 3 else Fraction(0),
            rating_list=RatingList.STANDARD,
        )
        for i in range(10)
    ]
    inputs = ReplayInputs(
        RatingList.STANDARD,
        games,
        [club],
        [OfficialEntry(1, RatingList.STANDARD, Period(2025, 12), 1600, k=40)],
        PlayerInfo(birth_year=1980),
    )
    out = needed_score_replayed(
        1650, inputs, opponents=[1700] * 9, period=JAN26, start=dt.date(2025, 12, 22)
    )
    assert out.rating_before == 1600
    assert out.games_already == 10
    assert out.k == 36
    assert out.points_needed == 7 and out.rating_needed == 1663
    assert {s.points: s.rating_after for s in out.steps}[Fraction(13, 2)] == 1645


def test_a_first_rating_through_the_replay() -> None:
    # An unrated junior played 3 games in October 2025 (1600: win, 1650: loss, 1700: draw;
    # 1.5 points); the new tournament adds 3 games against 1600 before the Nov 2025 list.
    # First rating (spec section 4, from Mar 2024): Ra = average of the rated opponents and
    # two fictitious 1800s: (1600 + 1650 + 1700 + 3 x 1600 + 2 x 1800) / 8 = 13350 / 8 =
    # 1668.75; p = (points + 1) / (games + 2).
    # 0/3: p = 2.5 / 8 = 0.3125 -> 0.31, table 8.1.1 dp(0.31) = -141: 1527.75 -> 1528.
    # 1.5/3: p = 4 / 8 = 0.50 -> dp 0: 1668.75 -> 1669.
    # So 1500 is reached whatever the score; 1669 needs 1.5.
    from tracker.app.target import needed_score_replayed
    from tracker.periods import GameFact, PlayerInfo, ReplayInputs, TournamentFact

    first = TournamentFact(
        id=1, name="First Open", start=dt.date(2025, 10, 4), end=dt.date(2025, 10, 6)
    )
    games = [
        GameFact(
            id=i + 1,
            tournament_id=1,
            date=dt.date(2025, 10, 4 + i),
            round=str(i + 1),
            white=True,
            opponent_id=100 + i,
            opponent=f"o{i}",
            own_elo=None,
            opponent_elo=opp,
            result=res,
            score=score,
            rating_list=RatingList.STANDARD,
        )
        for i, (opp, score, res) in enumerate(
            (
                (1600, Fraction(1), "1-0"),
                (1650, Fraction(0), "0-1"),
                (1700, Fraction(1, 2), "1/2-1/2"),
            )
        )
    ]
    inputs = ReplayInputs(RatingList.STANDARD, games, [first], [], PlayerInfo(birth_year=2010))
    nov = Period(2025, 11)
    out = needed_score_replayed(
        1500, inputs, opponents=[1600] * 3, period=nov, start=dt.date(2025, 10, 20)
    )
    assert out.rating_before is None and out.k is None
    assert out.already_reached and out.min_rating == 1528
    assert out.steps[0].change_exact is None
    out = needed_score_replayed(
        1669, inputs, opponents=[1600] * 3, period=nov, start=dt.date(2025, 10, 20)
    )
    assert out.points_needed == Fraction(3, 2) and out.rating_needed == 1669
