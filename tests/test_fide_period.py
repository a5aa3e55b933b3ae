"""One rating period (spec section 1 and 3): K precedence, the 700 rule over all the period's
games, games that do not count, rounding once per period, the floor.
Numbers from table 8.1.2 and the spec, derivations inline.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest

from tracker.errors import BadInput
from tracker.fide import (
    Cut700,
    EngineReason,
    EngineWhy,
    GameIn,
    KSaid,
    KSource,
    PlayerFacts,
    TournamentIn,
    derive_k_why,
    k_said,
    rate_period,
)
from tracker.model import RatingList
from tracker.reports.rulewords import k_text

STD = RatingList.STANDARD
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)
LIST = dt.date(2025, 11, 1)


def _t(
    start: dt.date, ro: int | None, *games: tuple[int | None, Fraction], label: str = ""
) -> TournamentIn:
    return TournamentIn(start, ro, tuple(GameIn(r, s) for r, s in games), label)


def test_rounding_once_per_period_not_per_tournament() -> None:
    # Two tournaments, K 20, each 1500 vs 1500 (0.50)... use D = 4 (4-10 -> 0.51):
    # each tournament: a draw, 0.5 - 0.51 = -0.01 -> K x = -0.2 (rounds to 0 alone);
    # a third: a draw at D = 4 again. Period: 3 x -0.2 = -0.6 -> -1 (per-tournament would be 0).
    ts = [_t(dt.date(2025, 10, d), 1504, (1500, HALF)) for d in (1, 8, 15)]
    out = rate_period(1504, ts, rating_list=STD, list_date=LIST, facts=PlayerFacts(rated_games=100))
    assert out.k == 20
    assert [t.k_change for t in out.tournaments] == [Decimal("-0.20")] * 3
    assert out.change_exact == Decimal("-0.60")
    assert out.change == -1 and out.rating_after == 1503


def test_tournament_uses_its_own_ro() -> None:
    # Ro of each tournament is the list rating in force at its start (here 1500, then 1520)
    ts = [_t(dt.date(2025, 9, 20), 1500, (1500, ONE)), _t(dt.date(2025, 10, 5), 1520, (1500, ONE))]
    out = rate_period(1520, ts, rating_list=STD, list_date=LIST, facts=PlayerFacts(), k=20)
    # 1 - 0.50 = 0.50; D = 20 (18-25 -> 0.53): 1 - 0.53 = 0.47; 20 x 0.97 = 19.4 -> 19
    assert [t.change for t in out.tournaments] == [Decimal("0.50"), Decimal("0.47")]
    assert out.change == 19 and out.rating_after == 1539


def test_own_rating_none_falls_back_to_rating_before() -> None:
    out = rate_period(
        1600,
        [_t(LIST, None, (1800, ONE))],
        rating_list=STD,
        list_date=LIST,
        facts=PlayerFacts(),
        k=20,
    )
    assert out.tournaments[0].own_rating == 1600
    assert out.change_exact == Decimal("15.20")  # 20 x (1 - 0.24)


def test_unrated_opponent_does_not_count() -> None:
    out = rate_period(
        1600,
        [_t(LIST, 1600, (None, ONE), (1800, ONE))],
        rating_list=STD,
        list_date=LIST,
        facts=PlayerFacts(),
        k=20,
    )
    g0, g1 = out.tournaments[0].games
    assert not g0.counted and g0.reason == "unrated-opponent" and g0.change is None
    assert g1.counted and out.games == 1 and out.points == 1
    assert out.change_exact == Decimal("15.20")


@pytest.mark.parametrize(
    "facts,rating,k,why",
    [
        # 1. a published 2400 ever -> 10, permanently (even a junior, even with few games)
        (PlayerFacts(birth_year=2010, rated_games=5, ever_2400=True), 2350, 10, "2400 reached"),
        (PlayerFacts(rated_games=5), 2400, 10, "2400 reached"),
        # 2. a junior (list year - birth year <= 18) never at 2300 -> 40
        (PlayerFacts(birth_year=2007, rated_games=300), 2250, 40, "junior (born 2007, under 2300)"),
        (
            PlayerFacts(birth_year=2007, rated_games=300, reached_2300=True),
            2250,
            20,
            "300 games completed, under 2400",
        ),
        (
            PlayerFacts(birth_year=2007, rated_games=300),
            2300,
            20,
            "300 games completed, under 2400",
        ),
        # 3. fewer than 30 games -> 40
        (PlayerFacts(rated_games=29), 1800, 40, "fewer than 30 games (29 completed)"),
        # 4. otherwise 20
        (PlayerFacts(rated_games=30, birth_year=2006), 1800, 20, "30 games completed, under 2400"),
    ],
)
def test_k_precedence(facts: PlayerFacts, rating: int, k: int, why: str) -> None:
    said = k_said(STD, LIST, facts, rating)
    assert (said.k, k_text(said)) == (k, why)
    assert derive_k_why(STD, LIST, facts, rating) == (k, said.why)


def test_official_k_wins_and_given_k_wins_over_official() -> None:
    t = [_t(LIST, 1600, (1800, ONE))]
    facts = PlayerFacts(rated_games=5, official_k=20)
    out = rate_period(1600, t, rating_list=STD, list_date=LIST, facts=facts)
    assert (out.k, out.k_reason) == (20, KSaid(KSource.OFFICIAL, 20))
    assert k_text(out.k_reason) == "official K"
    out = rate_period(1600, t, rating_list=STD, list_date=LIST, facts=facts, k=10)
    assert (out.k, out.k_reason) == (10, KSaid(KSource.GIVEN, 10))
    assert k_text(out.k_reason) == "K given"


def test_700_rule_counts_all_games_of_the_period() -> None:
    # K 40 (new player); 9 + 9 = 18 games over two tournaments: 18 x 40 = 720 > 700 -> 38
    ts = [
        _t(dt.date(2025, 10, 1), 1500, *[(1500, HALF)] * 9),
        _t(dt.date(2025, 10, 15), 1500, *[(1500, HALF)] * 9),
    ]
    out = rate_period(1500, ts, rating_list=STD, list_date=LIST, facts=PlayerFacts(rated_games=0))
    assert (out.k_base, out.k, out.games) == (40, 38, 18)
    assert out.k_reason.cut == Cut700(18, 40, 38)
    assert (
        k_text(out.k_reason)
        == "fewer than 30 games (0 completed); 700 rule: 18 games x 40 > 700 -> 38"
    )


def test_700_rule_period_games_when_larger() -> None:
    # 3 games given, 36 in the period: K 20 x 36 = 720 -> 19; 20 x 35 = 700 keeps 20
    t = [_t(LIST, 1500, (1500, ONE), (1500, ONE), (1500, ONE))]
    facts = PlayerFacts(rated_games=100)
    assert (
        rate_period(1500, t, rating_list=STD, list_date=LIST, facts=facts, period_games=36).k == 19
    )
    assert (
        rate_period(1500, t, rating_list=STD, list_date=LIST, facts=facts, period_games=35).k == 20
    )
    assert (
        rate_period(1500, t, rating_list=STD, list_date=LIST, facts=facts, period_games=1).k == 20
    )


def test_floor_1400_makes_the_player_unrated() -> None:
    # 1405, K 20, loses to 1405: 20 x -0.5 = -10 -> 1395 < 1400
    out = rate_period(
        1405,
        [_t(LIST, 1405, (1405, ZERO))],
        rating_list=STD,
        list_date=LIST,
        facts=PlayerFacts(rated_games=100),
    )
    assert out.change == -10 and out.rating_after is None
    assert out.reason == EngineReason(EngineWhy.BELOW_FLOOR, 0, 1400)
    # exactly at the floor stays rated: 1410 -> 1400
    out = rate_period(
        1410,
        [_t(LIST, 1410, (1410, ZERO))],
        rating_list=STD,
        list_date=LIST,
        facts=PlayerFacts(rated_games=100),
    )
    assert out.rating_after == 1400


def test_half_away_from_zero_on_the_period() -> None:
    # The example: 2813, K 10, 7 Nov 2025 (Ro >= 2650: true D).
    # D 1026 -> 1.00, 788 -> 1.00, 503 -> 0.96, 413 -> 0.93, 308 (303-315) -> 0.86.
    # changes 0, 0, +0.04, +0.07, 0.5 - 0.86 = -0.36: sum -0.25; x 10 = -2.5 -> -3 -> 2810.
    t = _t(
        dt.date(2025, 11, 7), 2813, (1787, ONE), (2025, ONE), (2310, ONE), (2400, ONE), (2505, HALF)
    )
    out = rate_period(
        2813, [t], rating_list=STD, list_date=dt.date(2025, 11, 7), facts=PlayerFacts(), k=10
    )
    assert out.change_exact == Decimal("-2.5")
    assert out.change == -3 and out.rating_after == 2810


@pytest.mark.parametrize("bad", [Fraction(2), Fraction(1, 4), Fraction(-1)])
def test_bad_score(bad: Fraction) -> None:
    with pytest.raises(BadInput):
        rate_period(
            1500,
            [_t(LIST, 1500, (1500, bad))],
            rating_list=STD,
            list_date=LIST,
            facts=PlayerFacts(),
            k=20,
        )


def test_k_zero_is_bad_input() -> None:
    with pytest.raises(BadInput):
        rate_period(
            1500,
            [_t(LIST, 1500, (1500, ONE))],
            rating_list=STD,
            list_date=LIST,
            facts=PlayerFacts(),
            k=0,
        )


def test_empty_period() -> None:
    out = rate_period(1500, [], rating_list=STD, list_date=LIST, facts=PlayerFacts())
    assert out.change == 0 and out.rating_after == 1500 and out.games == 0


@pytest.mark.parametrize("counts", [True, False])
def test_seeded_rating_and_k_follow_the_policy(
    monkeypatch: pytest.MonkeyPatch, counts: bool
) -> None:
    # A rapid player rated at the standard rating 2405 (spec section 4, from Mar 2024), Nov
    # 2025 list, no rapid game completed, adult. Loss vs 2300: D +105 -> row 99,106 -> 0.64.
    # SEED_COUNTS_AS_PUBLISHED_FOR_K True: the seed is a published 2400 (rule 1) -> K 10,
    #   -0.64 x 10 = -6.40 -> -6 -> 2399. False: the facts alone -> K 40 (rule 3),
    #   -0.64 x 40 = -25.60 -> -26 -> 2379.
    from tracker.fide import policies, seeded_facts

    monkeypatch.setattr(policies, "SEED_COUNTS_AS_PUBLISHED_FOR_K", counts)
    rapid = RatingList.RAPID
    t = _t(dt.date(2025, 10, 10), None, (2300, ZERO))
    out = rate_period(
        2405, [t], rating_list=rapid, list_date=LIST, facts=PlayerFacts(), seeded=True
    )
    assert (out.k, out.rating_after) == ((10, 2399) if counts else (40, 2379))
    assert seeded_facts(PlayerFacts(), 2405) == PlayerFacts(ever_2400=counts, reached_2300=counts)
    assert seeded_facts(PlayerFacts(), 2300) == PlayerFacts(reached_2300=counts)
    assert seeded_facts(PlayerFacts(), 2299) == PlayerFacts()
    # Not seeded, 2405 is a published rating: K 10 whatever the policy.
    assert rate_period(2405, [t], rating_list=rapid, list_date=LIST, facts=PlayerFacts()).k == 10
    # derive_k_why without a published rating: the facts alone decide (junior: born 2010, 15).
    assert derive_k_why(rapid, LIST, PlayerFacts(), None)[0] == 40
    assert derive_k_why(rapid, LIST, PlayerFacts(ever_2400=True), None)[0] == 10
    assert derive_k_why(rapid, LIST, PlayerFacts(birth_year=2010, rated_games=50), None)[0] == 40
    assert (
        derive_k_why(
            rapid, LIST, PlayerFacts(birth_year=2010, rated_games=50, reached_2300=True), None
        )[0]
        == 20
    )
