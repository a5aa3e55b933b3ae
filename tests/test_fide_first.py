"""First ratings (spec section 4) under each edition; derivations from the spec and tables."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

from tracker.fide import EngineReason, EngineWhy, GameIn, TournamentIn, first_rating, standard_seed
from tracker.fide.first import FirstEventShort
from tracker.model import RatingList

STD, RAPID = RatingList.STANDARD, RatingList.RAPID
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)
LIST = dt.date(2025, 11, 1)


def _t(start: dt.date, *games: tuple[int | None, Fraction], label: str = "") -> TournamentIn:
    return TournamentIn(start, None, tuple(GameIn(r, s) for r, s in games), label)


def test_2024_issue_example() -> None:
    # tracker calc --unrated --date 2025-11-01 1850:1 1700:0 2010:0.5 1600:1 1750:0
    # Ra = (1850 + 1700 + 2010 + 1600 + 1750 + 2 x 1800) / 7 = 12510 / 7 = 1787.14;
    # p = (2.5 + 1) / 7 = 0.50 -> dp 0; Ru = 1787.14 -> 1787
    t = _t(LIST, (1850, ONE), (1700, ZERO), (2010, HALF), (1600, ONE), (1750, ZERO))
    out = first_rating([t], rating_list=STD, list_date=LIST)
    assert out.rating == 1787 and out.reason is None
    assert out.games == 5 and out.points == Fraction(5, 2)
    assert out.p == Fraction(1, 2)


def test_2024_p_rounded_half_up() -> None:
    # 6 games against 1800, 4 points: Ra = (6 x 1800 + 3600) / 8 = 1800; p = 5/8 = 0.625 ->
    # 0.63 (half up) -> dp 95 -> 1895
    t = _t(LIST, *[(1800, ONE)] * 4, *[(1800, ZERO)] * 2)
    assert first_rating([t], rating_list=STD, list_date=LIST).rating == 1895


def test_2024_below_the_floor() -> None:
    # 5 games vs 1500, 0.5 points (not zero, so the event counts):
    # Ra = (7500 + 3600) / 7 = 1585.71; p = 1.5 / 7 = 0.214 -> 0.21 -> dp -230;
    # Ru = 1355.71 -> 1356 < 1400
    t = _t(LIST, (1500, HALF), *[(1500, ZERO)] * 4)
    out = first_rating([t], rating_list=STD, list_date=LIST)
    assert out.rating is None
    assert out.reason == EngineReason(EngineWhy.FIRST_BELOW_FLOOR, 1356, 1400)


def test_2024_zero_first_event_is_ignored() -> None:
    # first event 0/3 is disregarded; the second, 5 draws against 1800: Ra 1800, p 0.5 -> 1800
    first = _t(dt.date(2025, 3, 1), *[(1900, ZERO)] * 3, label="spring open")
    second = _t(dt.date(2025, 9, 1), *[(1800, HALF)] * 5, label="autumn open")
    out = first_rating([second, first], rating_list=STD, list_date=LIST)
    assert out.ignored == ("spring open",)
    assert out.used_tournaments == ("autumn open",)
    assert out.games == 5 and out.rating == 1800


def test_2024_zero_only_in_the_first_event() -> None:
    # a zero in a later event counts: 5 draws vs 1800 then 0/2 vs 1800:
    # Ra = 1800, p = (2.5 + 1) / 9 = 0.389 -> 0.39 -> dp -80 -> 1720
    first = _t(dt.date(2025, 3, 1), *[(1800, HALF)] * 5, label="a")
    later = _t(dt.date(2025, 9, 1), *[(1800, ZERO)] * 2, label="b")
    out = first_rating([first, later], rating_list=STD, list_date=LIST)
    assert out.ignored == () and out.rating == 1720


def test_26_month_window_by_start_date() -> None:
    # list Nov 2025: 26 months back is 1 Sep 2023 (policy); an event from 31 Aug 2023 is out
    old = _t(dt.date(2023, 8, 31), *[(2000, HALF)] * 5, label="old")
    edge = _t(dt.date(2023, 9, 1), *[(2000, HALF)] * 5, label="edge")
    assert first_rating([old], rating_list=STD, list_date=LIST).rating is None
    out = first_rating([old, edge], rating_list=STD, list_date=LIST)
    assert out.ignored == ("old",) and out.games == 5


def test_unrated_opponents_do_not_count() -> None:
    t = _t(LIST, *[(1800, HALF)] * 4, (None, ONE))
    out = first_rating([t], rating_list=STD, list_date=LIST)
    assert out.rating is None
    assert out.reason == EngineReason(EngineWhy.FIRST_TOO_FEW_GAMES, 4, 5)


def test_2014_2024_bonus_and_dp() -> None:
    on = dt.date(2020, 1, 1)
    # above 50%: 5 games vs 2000, 3.5 points: 1 point = 2 half points above 50% x 20 -> 2040
    up = _t(on, (2000, ONE), (2000, ONE), (2000, ONE), (2000, HALF), (2000, ZERO))
    assert first_rating([up], rating_list=STD, list_date=on).rating == 2040
    # below 50%: 1.5 / 5 = 0.30 -> dp -149 -> 1851
    down = _t(on, (2000, ONE), (2000, HALF), (2000, ZERO), (2000, ZERO), (2000, ZERO))
    out = first_rating([down], rating_list=STD, list_date=on)
    assert out.rating == 1851 and out.average == Decimal(2000)
    # no 2200 cap in this edition: 5 wins vs 2300 are 2.5 points above 50%, 5 half points
    # x 20 = +100 -> 2400
    strong = _t(on, *[(2300, ONE)] * 5)
    assert first_rating([strong], rating_list=STD, list_date=on).rating == 2400
    # A zero score in the first event is disregarded in this edition too (spec section 4,
    # "1 Jul 2014 - 29 Feb 2024: ... a zero score in the first event is disregarded here
    # too"; "No list ever published a rating computed from a player's zero score: a tool
    # that prints one (Ra - 800) is wrong"): 0/5 vs 2000 gives no rating, not 2000 - 800.
    zero = _t(on, *[(2000, ZERO)] * 5)
    out = first_rating([zero], rating_list=STD, list_date=on)
    assert out.rating is None and out.games == 0
    assert out.ignored_reasons == (FirstEventShort(ZERO, HALF),)


def test_before_2014_nine_games_and_bonus() -> None:
    # 9 games vs 2000, 6 points: 1.5 above 50% = 3 half points.
    # K 30 era (Jul 2011 - Jun 2014, policy 15 a half point): 2045.
    # K 25 era (policy 12.5): 2037.5 -> 2038 (half up).
    scores = [ONE] * 6 + [ZERO] * 3
    t13 = TournamentIn(dt.date(2013, 1, 1), None, tuple(GameIn(2000, s) for s in scores))
    assert first_rating([t13], rating_list=STD, list_date=dt.date(2013, 2, 1)).rating == 2045
    t10 = TournamentIn(dt.date(2010, 1, 1), None, tuple(GameIn(2000, s) for s in scores))
    assert first_rating([t10], rating_list=STD, list_date=dt.date(2010, 3, 1)).rating == 2038


def test_rapid_with_a_standard_rating_uses_it() -> None:
    # Section 4: rapid/blitz, a standard rating -> the standard rating (standard_seed); the
    # games are then rated from it (rate_period, tests/test_calc_seed.py). first_rating knows
    # only the games: 1 game against a rated opponent, 5 needed -> no first rating.
    t = _t(LIST, (1500, ONE))
    assert standard_seed(RAPID, LIST, 1720) == 1720
    out = first_rating([t], rating_list=RAPID, list_date=LIST)
    assert out.rating is None and out.games == 1
