"""Every edition boundary of the spec's table (shared/spec/fide-rules.md section 2), tested on
both sides of its date. Numbers come from the spec and from table 8.1.2 (derivations inline).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest

from tracker.errors import BadInput
from tracker.fide import (
    EngineReason,
    EngineWhy,
    GameIn,
    PlayerFacts,
    TournamentIn,
    apply_700_rule,
    classify_time_control,
    derive_k_why,
    edition_for,
    first_rating,
    k_said,
    list_calendar,
    one_off_adjustment,
    rate_period,
)
from tracker.fide.adjust import Adjustment, OneOff
from tracker.fide.timecontrol import OffTheLists
from tracker.model import Period, RatingList
from tracker.reports.rulewords import adjustment_text, k_text

STD, RAPID, BLITZ = RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)
DAY = dt.timedelta(days=1)


def _games(
    ro: int,
    opponents: list[int],
    start: dt.date,
    rl: RatingList = STD,
    list_date: dt.date | None = None,
) -> list[tuple[int | None, Decimal | None]]:
    """(difference used, expected) per game, K 20, all draws."""
    t = TournamentIn(start, ro, tuple(GameIn(r, HALF) for r in opponents))
    out = rate_period(
        ro,
        [t],
        rating_list=rl,
        list_date=list_date or start,
        facts=PlayerFacts(rated_games=100),
        k=20,
    )
    return [(g.difference_used, g.expected) for g in out.tournaments[0].games]


def test_before_2008_is_not_replayed() -> None:
    with pytest.raises(BadInput, match="tournament average"):
        edition_for(STD, dt.date(2007, 12, 31))
    assert edition_for(STD, dt.date(2008, 1, 1)).cap == 350


# 1 Jul 2009: cap 350 -> 400 (per game, tournament start); floor 1200; two-monthly lists
def test_2009_07_cap_350_to_400() -> None:
    # Ro 2000 vs 1500, D = 500: capped at 350 (345-357 -> 0.89), then at 400 (392-411 -> 0.92)
    before = dt.date(2009, 7, 1) - DAY
    assert _games(2000, [1500], before, list_date=dt.date(2009, 7, 1)) == [(350, Decimal("0.89"))]
    assert _games(2000, [1500], dt.date(2009, 7, 1)) == [(400, Decimal("0.92"))]


def test_2009_07_floor() -> None:
    assert edition_for(STD, dt.date(2009, 6, 30)).floor == 1400  # policy (spec names none)
    assert edition_for(STD, dt.date(2009, 7, 1)).floor == 1200


def test_2009_07_calendar() -> None:
    cal = list_calendar(dt.date(2009, 7, 1))
    assert list_calendar(dt.date(2009, 6, 30)).era.value == "quarterly"
    assert cal.era.value == "two-monthly"
    # quarterly: Jan/Apr/Jul/Oct; two-monthly: Jan, Mar, May, Jul, Sep, Nov
    assert cal.is_list_month(Period(2009, 4)) and not cal.is_list_month(Period(2009, 5))
    assert cal.is_list_month(Period(2009, 9)) and not cal.is_list_month(Period(2009, 10))
    # the two-monthly Jul 2009 list needs 7 days: an event ending 24 Jun (7 days before) is
    # on it, one ending 25 Jun goes to the next list, Sep 2009
    assert cal.default_period(dt.date(2009, 6, 24)) == Period(2009, 7)
    assert cal.default_period(dt.date(2009, 6, 25)) == Period(2009, 9)
    # quarterly era: a tournament ending in May 2009 is on the Jul 2009 list
    assert cal.default_period(dt.date(2009, 5, 20)) == Period(2009, 7)


# 1 Jul 2011: K for new players 25 -> 30 (date UNSETTLED, policy 1 Jul 2011)
def test_2011_07_k_new_player() -> None:
    facts = PlayerFacts(rated_games=10)
    assert derive_k_why(STD, dt.date(2011, 6, 30), facts, 1800)[0] == 25
    assert derive_k_why(STD, dt.date(2011, 7, 1), facts, 1800)[0] == 30
    # established players keep 15, 2400 players 10 (K 30 / 15 / 10)
    assert derive_k_why(STD, dt.date(2011, 7, 1), PlayerFacts(rated_games=30), 1800)[0] == 15
    assert derive_k_why(STD, dt.date(2011, 7, 1), PlayerFacts(ever_2400=True), 2300)[0] == 10


# 1 Jan 2012: rapid & blitz ratings begin, K 20 for everyone
@pytest.mark.parametrize("rl", [RAPID, BLITZ])
def test_2012_01_rapid_blitz_begin(rl: RatingList) -> None:
    with pytest.raises(BadInput, match="2012"):
        edition_for(rl, dt.date(2011, 12, 31))
    said = k_said(rl, dt.date(2012, 1, 1), PlayerFacts(rated_games=0), 1500)
    assert (said.k, k_text(said)) == (20, f"K 20 for everyone on the {rl} list")
    # 25 minutes for 60 moves is not rated before 2012, rapid from 2012
    assert (
        classify_time_control("1500", on=dt.date(2011, 12, 31), max_rating=1500).rating_list is None
    )
    assert (
        classify_time_control("1500", on=dt.date(2012, 1, 1), max_rating=1500).rating_list is RAPID
    )


# 1 Jul 2012: monthly lists closing 3 days before; floor 1000; first rapid and blitz lists
def test_2012_07_floor_and_calendar() -> None:
    assert edition_for(STD, dt.date(2012, 6, 30)).floor == 1200
    assert edition_for(STD, dt.date(2012, 7, 1)).floor == 1000
    cal = list_calendar(dt.date(2012, 7, 1))
    assert cal.era.value == "monthly"
    assert not cal.is_list_month(Period(2012, 6)) and cal.is_list_month(Period(2012, 8))
    # Jul 2012 (monthly, 3 days): ending 28 Jun is on it, ending 29 Jun goes to Aug 2012
    assert cal.default_period(dt.date(2012, 6, 28)) == Period(2012, 7)
    assert cal.default_period(dt.date(2012, 6, 29)) == Period(2012, 8)
    # rapid games from 1 Jan 2012 land on the first rapid list, Jul 2012
    rapid = list_calendar(dt.date(2012, 3, 1), RAPID)
    assert rapid.default_period(dt.date(2012, 3, 10)) == Period(2012, 7)
    assert not rapid.is_list_month(Period(2012, 5))


def test_2012_07_floor_effect() -> None:
    # Ro 1205, K 15, a loss to 1205 (D 0 -> 0.50): 15 x -0.5 = -7.5 -> -8 -> 1197.
    # Under the Jun 2012 floor of 1200 that is unrated; under the Jul 2012 floor 1000 it is not.
    t = TournamentIn(dt.date(2012, 5, 1), 1205, (GameIn(1205, ZERO),))
    facts = PlayerFacts(rated_games=100)
    may = rate_period(1205, [t], rating_list=STD, list_date=dt.date(2012, 5, 1), facts=facts)
    jul = rate_period(1205, [t], rating_list=STD, list_date=dt.date(2012, 7, 1), facts=facts)
    assert may.k == jul.k == 15
    assert may.rating_after is None and may.reason == (EngineReason(EngineWhy.BELOW_FLOOR, 0, 1200))
    assert jul.rating_after == 1197 and jul.reason is None


# 1 Jul 2014: K 40/20/10, junior K 40; a first rating needs 5 games (was 9)
def test_2014_07_k() -> None:
    before, after = dt.date(2014, 6, 1), dt.date(2014, 7, 1)
    assert derive_k_why(STD, before, PlayerFacts(rated_games=10), 1800)[0] == 30
    assert derive_k_why(STD, after, PlayerFacts(rated_games=10), 1800)[0] == 40
    assert derive_k_why(STD, before, PlayerFacts(rated_games=50), 1800)[0] == 15
    assert derive_k_why(STD, after, PlayerFacts(rated_games=50), 1800)[0] == 20
    junior = PlayerFacts(birth_year=2000, rated_games=50)  # 14 in 2014
    assert derive_k_why(STD, before, junior, 1800)[0] == 15
    said = k_said(STD, after, junior, 1800)
    assert (said.k, k_text(said)) == (40, "junior (born 2000, under 2300)")


def test_2014_07_first_rating_games() -> None:
    # 5 draws against 2000: 5 games. Under 9 needed before, Ru = Ra = 2000 after (50%).
    t = TournamentIn(dt.date(2014, 5, 1), None, tuple(GameIn(2000, HALF) for _ in range(5)))
    before = first_rating([t], rating_list=STD, list_date=dt.date(2014, 6, 1))
    after = first_rating([t], rating_list=STD, list_date=dt.date(2014, 7, 1))
    assert before.rating is None
    assert before.reason == EngineReason(EngineWhy.FIRST_TOO_FEW_GAMES, 5, 9)
    assert after.rating == 2000


# 1 Jul 2017 (policy): junior K 40 to the end of the year of the 18th birthday; 700 rule
def test_2017_07_junior_end_of_year() -> None:
    # born 1999: 2017 - 1999 = 18. Before: "until the 18th birthday" (policy: age <= 17 by
    # birth year) -> not a junior, K 20; after: through the year of turning 18 -> K 40.
    facts = PlayerFacts(birth_year=1999, rated_games=100)
    assert derive_k_why(STD, dt.date(2017, 6, 1), facts, 1900)[0] == 20
    assert derive_k_why(STD, dt.date(2017, 7, 1), facts, 1900)[0] == 40


def test_2017_07_700_rule() -> None:
    assert apply_700_rule(40, 20, edition_for(STD, dt.date(2017, 6, 30))) == 40
    assert apply_700_rule(40, 20, edition_for(STD, dt.date(2017, 7, 1))) == 35
    # rapid & blitz had it all along (K 20 reduced beyond 35 games): 36 x 20 = 720 -> 19
    assert apply_700_rule(20, 36, edition_for(RAPID, dt.date(2016, 1, 1))) == 19


# 1 Jan 2022: the 400 cap once per tournament; standard bands 1800/2400 (were 1600/2200)
@pytest.mark.parametrize("rl", [STD, RAPID, BLITZ])
def test_2022_01_cap_once_per_tournament(rl: RatingList) -> None:
    # Ro 2000 vs 1500 (D 500) and 1550 (D 450). Before: both capped, 0.92 and 0.92.
    # After: only the largest (500) is capped -> 0.92; 450 uses the table (433-456) -> 0.94.
    before = _games(2000, [1500, 1550], dt.date(2021, 12, 31), rl, dt.date(2022, 2, 1))
    after = _games(2000, [1500, 1550], dt.date(2022, 1, 1), rl, dt.date(2022, 2, 1))
    assert before == [(400, Decimal("0.92")), (400, Decimal("0.92"))]
    assert after == [(400, Decimal("0.92")), (450, Decimal("0.94"))]


def test_2022_01_cap_once_lower_side_policy() -> None:
    # UNSETTLED, policy: the lower-rated side gets the same single-game cap.
    # Ro 1500 vs 2000 (D -500) and 1950 (D -450): -500 capped -> -400 (0.08); -450 -> 0.06.
    assert _games(1500, [2000, 1950], dt.date(2022, 6, 1)) == [
        (-400, Decimal("0.08")),
        (-450, Decimal("0.06")),
    ]


def test_2022_01_time_control_bands() -> None:
    # 75 minutes for 60 moves with a 1700 player: below the 1600 band's 90 before 2022 (not
    # rated); standard after (the band is 1800)
    before = classify_time_control("4500", on=dt.date(2021, 12, 31), max_rating=1700)
    after = classify_time_control("4500", on=dt.date(2022, 1, 1), max_rating=1700)
    assert before.rating_list is None
    assert (before.reason, before.band) == (OffTheLists.STANDARD_TOO_FAST, 1600)
    assert after.rating_list is STD
    # 100 minutes with a 2300 player: the 2200 band needs 120 before, 1800 band 90 after
    assert (
        classify_time_control("6000", on=dt.date(2021, 12, 31), max_rating=2300).rating_list is None
    )
    assert classify_time_control("6000", on=dt.date(2022, 1, 1), max_rating=2300).rating_list is STD


# 1 Oct 2022: rapid & blitz K as standard; one-off raise to standard - 100
@pytest.mark.parametrize("rl", [RAPID, BLITZ])
def test_2022_10_rapid_blitz_k(rl: RatingList) -> None:
    new = PlayerFacts(rated_games=5)
    assert derive_k_why(rl, dt.date(2022, 9, 1), new, 1500)[0] == 20
    assert derive_k_why(rl, dt.date(2022, 10, 1), new, 1500)[0] == 40
    assert derive_k_why(rl, dt.date(2022, 10, 1), PlayerFacts(ever_2400=True), 2300)[0] == 10
    assert apply_700_rule(40, 20, edition_for(rl, dt.date(2022, 10, 1))) == 35


@pytest.mark.parametrize("rl", [RAPID, BLITZ])
def test_2022_10_raise(rl: RatingList) -> None:
    # a rapid rating more than 100 below the standard rating is raised to standard - 100
    assert one_off_adjustment(rl, dt.date(2022, 9, 1), 1500, standard_rating=1800) is None
    adj = one_off_adjustment(rl, dt.date(2022, 10, 1), 1500, standard_rating=1800)
    assert adj == (1700, Adjustment(OneOff.RAISE, rl, 1500, 1700, 1800))
    assert adjustment_text(adj[1]) == (
        f"Oct 2022 {rl} raise: 1500 is more than 100 below the standard rating 1800, raised to 1700"
    )
    assert one_off_adjustment(rl, dt.date(2022, 11, 1), 1500, standard_rating=1800) is None
    # exactly 100 below: unchanged
    assert one_off_adjustment(rl, dt.date(2022, 10, 1), 1700, standard_rating=1800) is None
    assert one_off_adjustment(STD, dt.date(2022, 10, 1), 1500, standard_rating=1800) is None


# 1 Mar 2024: floor 1400; new first-rating formula; cap in every game again; compression
def test_2024_03_floor() -> None:
    assert edition_for(STD, dt.date(2024, 2, 29)).floor == 1000
    assert edition_for(STD, dt.date(2024, 3, 1)).floor == 1400


@pytest.mark.parametrize("rl", [STD, RAPID, BLITZ])
def test_2024_03_cap_every_game_again(rl: RatingList) -> None:
    # Ro 2000 vs 1500 and 1550: once per tournament before (0.92, 0.94), every game after
    before = _games(2000, [1500, 1550], dt.date(2024, 2, 29), rl, dt.date(2024, 4, 1))
    after = _games(2000, [1500, 1550], dt.date(2024, 3, 1), rl, dt.date(2024, 4, 1))
    assert before == [(400, Decimal("0.92")), (450, Decimal("0.94"))]
    assert after == [(400, Decimal("0.92")), (400, Decimal("0.92"))]


def test_2024_03_first_rating_formula() -> None:
    # 5 games against 2000, 3.5 points.
    # Feb 2024 (2014 formula): Ra 2000, 1 point above 50% = 2 half points x 20 -> 2040.
    # Mar 2024: Ra = (10000 + 3600) / 7 = 1942.857; p = 4.5 / 7 = 0.643 -> 0.64 -> dp 102;
    # Ru = 2044.857 -> 2045.
    scores = [ONE, ONE, ONE, HALF, ZERO]
    t = TournamentIn(dt.date(2024, 1, 10), None, tuple(GameIn(2000, s) for s in scores))
    assert first_rating([t], rating_list=STD, list_date=dt.date(2024, 2, 1)).rating == 2040
    assert first_rating([t], rating_list=STD, list_date=dt.date(2024, 3, 1)).rating == 2045


@pytest.mark.parametrize("rl", [STD, RAPID, BLITZ])
def test_2024_03_compression(rl: RatingList) -> None:
    # FIDE's examples: 1000 -> 1400, 1600 -> 1760, 2000 unchanged (0.4 x (2000 - R))
    assert one_off_adjustment(rl, dt.date(2024, 2, 1), 1600) is None
    mar = dt.date(2024, 3, 1)
    adj = one_off_adjustment(rl, mar, 1000)
    assert adj == (1400, Adjustment(OneOff.COMPRESSION, rl, 1000, 1400))
    assert adjustment_text(adj[1]) == "Mar 2024 compression: 1000 + 0.4 x (2000 - 1000) = 1400"
    assert _adjusted(rl, mar, 1600) == 1760
    assert one_off_adjustment(rl, mar, 2000) is None
    assert one_off_adjustment(rl, dt.date(2024, 4, 1), 1600) is None
    # rounded half up: 1001 + 0.4 x 999 = 1400.6 -> 1401; 1999 + 0.4 = 1999.4 -> 1999
    assert _adjusted(rl, mar, 1001) == 1401
    assert _adjusted(rl, mar, 1999) == 1999


def _adjusted(rating_list: RatingList, list_date: dt.date, rating: int) -> int:
    """The rating a one-off adjustment gives (there must be one)."""
    adjustment = one_off_adjustment(rating_list, list_date, rating)
    assert adjustment is not None, (rating_list, list_date, rating)
    return adjustment[0]


def test_2024_03_floor_checked_after_compression() -> None:
    # Feb 1100 loses 10 points in March: 1090 -> 1090 + 0.4 x 910 = 1454 >= 1400: stays rated
    t = TournamentIn(dt.date(2024, 2, 5), 1100, (GameIn(1100, ZERO),))
    out = rate_period(
        1100,
        [t],
        rating_list=STD,
        list_date=dt.date(2024, 3, 1),
        facts=PlayerFacts(rated_games=100),
        k=20,
    )
    assert out.rating_after == 1090 and out.reason is None
    assert _adjusted(STD, dt.date(2024, 3, 1), 1090) == 1454


# 1 Dec 2024: rapid & blitz, 600+ apart with one above 2600 is not rated
@pytest.mark.parametrize("rl", [RAPID, BLITZ])
def test_2024_12_600_rule(rl: RatingList) -> None:
    def one(start: dt.date, ro: int, opp: int) -> tuple[bool, str | None]:
        t = TournamentIn(start, ro, (GameIn(opp, ONE),))
        out = rate_period(
            ro,
            [t],
            rating_list=rl,
            list_date=dt.date(2025, 1, 1),
            facts=PlayerFacts(rated_games=100),
            k=20,
        )
        g = out.tournaments[0].games[0]
        return g.counted, g.reason

    assert one(dt.date(2024, 11, 30), 2700, 2100) == (True, None)
    assert one(dt.date(2024, 12, 1), 2700, 2100) == (False, "rb-600-rule")
    assert one(dt.date(2024, 12, 1), 2100, 2700) == (False, "rb-600-rule")
    assert one(dt.date(2024, 12, 1), 2700, 2101) == (True, None)  # 599 apart
    assert one(dt.date(2024, 12, 1), 2600, 2000) == (True, None)  # nobody above 2600


def test_2024_12_600_rule_not_standard() -> None:
    assert _games(2700, [2100], dt.date(2025, 1, 1)) == [(400, Decimal("0.92"))]


# 1 Oct 2025: standard, Ro >= 2650 uses the true difference
def test_2025_10_2650_exemption() -> None:
    # Ro 2700 vs 2200 (D 500): capped to 400 (0.92) before; true 500 (485-517 -> 0.96) after
    assert _games(2700, [2200], dt.date(2025, 9, 30)) == [(400, Decimal("0.92"))]
    assert _games(2700, [2200], dt.date(2025, 10, 1)) == [(500, Decimal("0.96"))]
    # decided by the player's own rating: 2649 is still capped; the opponent's does not matter
    assert _games(2649, [2149], dt.date(2025, 10, 1)) == [(400, Decimal("0.92"))]
    assert _games(2200, [2700], dt.date(2025, 10, 1)) == [(-400, Decimal("0.08"))]


@pytest.mark.parametrize("rl", [RAPID, BLITZ])
def test_2025_10_not_in_rapid_blitz(rl: RatingList) -> None:
    assert _games(2700, [2250], dt.date(2025, 10, 1), rl) == [(400, Decimal("0.92"))]


def test_every_edition_has_distinct_increasing_dates() -> None:
    from tracker.fide import EDITIONS

    for eds in EDITIONS.values():
        dates = [e.effective_from for e in eds]
        assert dates == sorted(set(dates))
        for e in eds:
            assert edition_for(e.rating_list, e.effective_from) == e
