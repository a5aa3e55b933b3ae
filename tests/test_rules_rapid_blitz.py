"""Rapid & blitz and the player facts, checked against the rulebook (shared/spec/fide-rules.md).

Every expected number is derived by hand below from the rulebook's sections and tables, never
from running tracker code. Rows of table 8.1.2 used (d_min,d_max,p_high,p_low):
0,3,0.50,0.50 | 279,290,0.84,0.16 | 392,411,0.92,0.08. Rows of 8.1.1 used: 0.50 -> 0, 0.64 -> 102.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest

from tests.builders import Replay
from tracker.fide import (
    EDITIONS,
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
    one_off_adjustment,
    rate_period,
    standard_seed,
)
from tracker.model import RatingList
from tracker.periods import PlayerInfo

STD, RAPID, BLITZ = RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ
RB = [RAPID, BLITZ]
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)


class Season(Replay):
    """A tiny season for the pure replay on list `rl` (tests/builders.py's Replay: one game
    per tournament, played on its start)."""

    def __init__(self, rl: RatingList) -> None:
        super().__init__(rl=rl)

    def game(self, day: str, opponent: int, score: Fraction) -> None:
        self.event(day, (opponent, score))

    def rows(self, player: PlayerInfo | None = None) -> dict[str, tuple[int | None, int | None]]:
        """(K, published rating) by period."""
        return {str(r.period): (r.k, r.published) for r in self.run(player=player).rows}

    def assumed(self, player: PlayerInfo | None = None) -> dict[str, set[str]]:
        """The facts each period's K was assumed on, by period."""
        return {
            str(r.period): {a.fact for a in r.assumptions} for r in self.run(player=player).rows
        }


# --- the official K of a list published under other K rules -----------------------------------


@pytest.mark.parametrize("rl", RB)
def test_official_k_of_the_flat_era_does_not_decide_oct_2022(rl: RatingList) -> None:
    # Sep 2022 official 1800 with K 20: the flat K of everyone (section 3, "Rapid & blitz
    # before 1 Oct 2022: K 20 for everyone"). Born 2008. Win vs 1800 on 2022-09-10 -> the Oct
    # 2022 list (section 1.1, 3 closing days). K follows the list date (section 2): Oct 2022
    # brings the standard scheme to rapid & blitz, so K is derived under it: junior
    # (2022 - 2008 = 14 <= 18), never 2300 -> K 40 (section 3 rule 2).
    # D = 0 -> PD 0.50 -> +0.50 x 40 = +20 -> 1820 (the stale flat K 20 would give 1810).
    s = Season(rl)
    s.off("2022-09", 1800, k=20)
    s.game("2022-09-10", 1800, ONE)
    assert s.rows(PlayerInfo(birth_year=2008))["2022-10"] == (40, 1820)


@pytest.mark.parametrize("rl", RB)
def test_official_k_within_the_ladder_era_still_wins(rl: RatingList) -> None:
    # Same junior, official Oct 2022 K 20 (Oct and Nov 2022 share the K rules): the recorded
    # official K wins over the derived junior K 40 (section 3). D = 0 -> +0.50 x 20 = +10.
    s = Season(rl)
    s.off("2022-10", 1800, k=20)
    s.game("2022-10-10", 1800, ONE)
    assert s.rows(PlayerInfo(birth_year=2008))["2022-11"] == (20, 1810)


def test_official_k_of_jun_2014_does_not_decide_jul_2014() -> None:
    # Standard, official Jun 2014 1800 K 15 (the K 30/15/10 scheme), adult with 100 games.
    # Win vs 1800 on 2014-06-10 -> Jul 2014 list, under K 40/20/10 (section 2, 1 Jul 2014):
    # 100 games, never 2400, adult -> K 20 (section 3 rule 4). +0.50 x 20 = +10 -> 1810
    # (the old K 15 would give 7.5 -> 8 -> 1808).
    s = Season(STD)
    s.off("2014-06", 1800, k=15)
    s.game("2014-06-10", 1800, ONE)
    assert s.rows(PlayerInfo(birth_year=1980, rated_games=100))["2014-07"] == (20, 1810)


def test_official_k_of_jun_2017_does_not_decide_jul_2017() -> None:
    # Standard, born 1999, official Jun 2017 1900 K 20 (2014 rule: junior only before the
    # 18th birthday; policy: list year - birth year <= 17). Win vs 1900 on 2017-06-10 -> Jul
    # 2017 list: junior to the end of the year of the 18th birthday (policy 2017): 2017 -
    # 1999 = 18 -> K 40. +0.50 x 40 = +20 -> 1920.
    s = Season(STD)
    s.off("2017-06", 1900, k=20)
    s.game("2017-06-10", 1900, ONE)
    assert s.rows(PlayerInfo(birth_year=1999, rated_games=100))["2017-07"] == (40, 1920)


# --- the player facts on rapid and blitz -------------------------------------------------------


@pytest.mark.parametrize("rl", RB)
def test_flat_k_20_says_nothing_about_games_completed(rl: RatingList) -> None:
    # Replay starts from the May 2019 official 1800 with K 20. Before Oct 2022 K 20 is every
    # player's K, so it does not show 30 games completed (the ASSUMED_GAMES_WHEN_ESTABLISHED
    # policy reads an official K below the newcomer K of its edition; here that is 20).
    # No rapid/blitz games known, adult (born 1980). Win vs 1800 on 2022-10-10 -> Nov 2022
    # list: the games completed stay unknown (the flat K showed nothing), so the count is
    # the policy's (GAMES_COMPLETED_WHEN_UNKNOWN: a player rated when the replay starts has
    # completed 30 or more) and the row says it was assumed: K 20, +0.50 x 20 = +10 -> 1810.
    # (Read as a count, K 20 would have set 30 games and no assumption would be said.)
    s = Season(rl)
    s.off("2019-05", 1800, k=20)
    s.game("2022-10-10", 1800, ONE)
    assert s.rows(PlayerInfo(birth_year=1980))["2022-11"] == (20, 1810)
    assert s.assumed(PlayerInfo(birth_year=1980))["2022-11"] == {"rated-games"}


def test_standard_k_20_below_the_newcomer_k_shows_30_games() -> None:
    # The same on the standard list: official K 20 in 2019 is below the newcomer K 40 of
    # the 2017 edition -> 30 games taken as completed -> K 20: +10 -> 1810.
    s = Season(STD)
    s.off("2019-05", 1800, k=20)
    s.game("2022-10-10", 1800, ONE)
    assert s.rows(PlayerInfo(birth_year=1980))["2022-11"] == (20, 1810)


@pytest.mark.parametrize("rl", RB)
def test_birth_year_applies_to_rapid_and_blitz(rl: RatingList) -> None:
    # The birth year is a fact of the person, not of a list (section 3 rule 2, and section 2,
    # 1 Oct 2022: "juniors" on rapid & blitz). Official Sep 2025 1800 K 20 (below the
    # newcomer K 40 -> 30 games taken as completed); the Oct 2025 list has no entry, so
    # the Nov 2025 K is derived. Win vs 1800 on 2025-10-10 -> Nov 2025.
    # Born 2010 (2025 - 2010 = 15), never 2300 -> K 40: +20 -> 1820. Adult -> K 20: +10.
    s = Season(rl)
    s.off("2025-09", 1800, k=20)
    s.game("2025-10-10", 1800, ONE)
    assert s.rows(PlayerInfo(birth_year=2010))["2025-11"] == (40, 1820)
    assert s.rows(PlayerInfo(birth_year=1980))["2025-11"] == (20, 1810)
    # a birth year known only from an official entry counts the same
    s = Season(rl)
    s.off("2025-09", 1800, k=20, birth_year=2010)
    s.game("2025-10-10", 1800, ONE)
    assert s.rows()["2025-11"] == (40, 1820)


@pytest.mark.parametrize("rl", RB)
def test_recorded_rated_games_do_not_reach_rapid_and_blitz(rl: RatingList) -> None:
    # The recorded games are standard games (PLAYER_FACTS_LISTS; section 3 counts the games
    # on the list whose K it is). Start from an official Sep 2025 1800 without K, adult:
    # no rapid/blitz games known, whatever the standard count: the rapid/blitz count is the
    # policy's (GAMES_COMPLETED_WHEN_UNKNOWN, 30 or more: K 20, +10 -> 1810), said as an
    # assumption, which a count that reached these lists would not be.
    s = Season(rl)
    s.off("2025-09", 1800)
    s.game("2025-10-10", 1800, ONE)
    assert s.rows(PlayerInfo(birth_year=1980, rated_games=500))["2025-11"] == (20, 1810)
    assert s.assumed(PlayerInfo(birth_year=1980, rated_games=500))["2025-11"] == {"rated-games"}
    std = Season(STD)
    std.off("2025-09", 1800)
    std.game("2025-10-10", 1800, ONE)
    assert std.assumed(PlayerInfo(birth_year=1980, rated_games=500))["2025-11"] == set()


@pytest.mark.parametrize("rl", [STD, RAPID, BLITZ])
def test_official_k_10_keeps_k_10_for_good(rl: RatingList) -> None:
    # Section 3 rule 1: K 10 comes only from a published 2400 on that list, "permanently".
    # Official Sep 2025 2350 with K 10 (the 2400 was before the replay); adult.
    # Win vs 2350 on 2025-09-10 -> Oct 2025: the official K 10 -> +0.50 x 10 = +5 -> 2355.
    # Win vs 2355 on 2025-10-10 -> Nov 2025, no official entry: still K 10 -> +5 -> 2360
    # (forgetting the 2400 would give K 20 -> +10 -> 2365). The only way rapid and blitz
    # learn a 2400 before the replay: the recorded --ever-2400 is standard-only.
    s = Season(rl)
    s.off("2025-09", 2350, k=10)
    s.game("2025-09-10", 2350, ONE)
    s.game("2025-10-10", 2355, ONE)
    rows = s.rows(PlayerInfo(birth_year=1980))
    assert (rows["2025-10"], rows["2025-11"]) == ((10, 2355), (10, 2360))


def test_which_official_k_shows_a_2400() -> None:
    for eds in EDITIONS.values():
        for e in eds:
            ladder = e.k_scheme.value == "ladder"
            assert e.k_shows_2400(10) is ladder, e.name  # K 10: top rung of every ladder
            assert not any(e.k_shows_2400(k) for k in (15, 20, 25, 30, 40)), e.name


# --- K on rapid and blitz, edition by edition (section 3) -------------------------------------


@pytest.mark.parametrize("rl", RB)
def test_flat_k_20_for_juniors_and_new_players_before_oct_2022(rl: RatingList) -> None:
    young = PlayerFacts(birth_year=2008, rated_games=0)
    assert derive_k_why(rl, dt.date(2013, 1, 1), young, 1500)[0] == 20
    assert derive_k_why(rl, dt.date(2022, 9, 1), young, 1500)[0] == 20
    assert derive_k_why(rl, dt.date(2022, 9, 1), PlayerFacts(ever_2400=True), 2500)[0] == 20
    # from Oct 2022 the ladder: junior 40, 2400 ever 10, established adult 20
    assert derive_k_why(rl, dt.date(2022, 10, 1), young, 1500)[0] == 40
    assert derive_k_why(rl, dt.date(2022, 10, 1), PlayerFacts(ever_2400=True), 2300)[0] == 10
    established = PlayerFacts(birth_year=1980, rated_games=30)
    assert derive_k_why(rl, dt.date(2022, 10, 1), established, 1500)[0] == 20


@pytest.mark.parametrize("rl", RB)
def test_flat_era_700_rule_from_the_first_day(rl: RatingList) -> None:
    # Section 3: K 20 "reduced when n exceeds 35 so that K x n <= 700": 35 x 20 = 700 stays
    # 20; 36 -> 700 // 36 = 19; 71 -> 9. In 2012, when the standard list had no 700 rule.
    ed = edition_for(rl, dt.date(2012, 3, 1))
    assert [apply_700_rule(20, n, ed) for n in (35, 36, 71)] == [20, 19, 9]
    assert apply_700_rule(25, 36, edition_for(STD, dt.date(2012, 3, 1))) == 25


# --- the 400-point rule on rapid and blitz, edition by edition --------------------------------


def _used(
    rl: RatingList, ro: int, opponents: list[int], start: dt.date, list_date: dt.date
) -> list[tuple[int | None, Decimal | None]]:
    t = TournamentIn(start, ro, tuple(GameIn(r, HALF) for r in opponents))
    out = rate_period(
        ro, [t], rating_list=rl, list_date=list_date, facts=PlayerFacts(rated_games=100), k=20
    )
    return [(g.difference_used, g.expected) for g in out.tournaments[0].games]


@pytest.mark.parametrize("rl", RB)
def test_cap_400_in_every_game_from_2012(rl: RatingList) -> None:
    # Section 2, 1 Jan 2012 (UNSETTLED, policy 400, not 735 and not the standard 350 of
    # 2008): Ro 2000 vs 1500 (D 500) and 1550 (D 450): both count as 400 -> 0.92.
    assert _used(rl, 2000, [1500, 1550], dt.date(2012, 2, 1), dt.date(2012, 7, 1)) == [
        (400, Decimal("0.92")),
        (400, Decimal("0.92")),
    ]


@pytest.mark.parametrize("rl", RB)
def test_no_2650_exemption_and_cap_for_both_sides_from_2025(rl: RatingList) -> None:
    # Section 2, 1 Oct 2025 "Not in rapid & blitz": Ro 2700 vs 2250 (D 450) is capped to
    # 400 -> 0.92, and the lower side 2250 vs 2700 (D -450) to -400 -> 0.08 (both in
    # 2026, the 600 rule does not apply: 450 apart).
    on = dt.date(2026, 1, 10)
    assert _used(rl, 2700, [2250], on, dt.date(2026, 2, 1)) == [(400, Decimal("0.92"))]
    assert _used(rl, 2250, [2700], on, dt.date(2026, 2, 1)) == [(-400, Decimal("0.08"))]


@pytest.mark.parametrize("rl", RB)
def test_600_rule_game_is_not_in_the_700_count(rl: RatingList) -> None:
    # Section 2, 1 Dec 2024: 2700 vs 2100 (600 apart, one above 2600) is not rated, so it is
    # not one of the "rated games in the period" of the 700 rule (section 1.5).
    # K 40 given; 18 rated games + 1 excluded: 18 x 40 = 720 > 700 -> K 38 (700 // 18); counting the
    # excluded game it would be 700 // 19 = 36.
    games = (GameIn(2100, ONE),) + tuple(GameIn(2700, HALF) for _ in range(18))
    t = TournamentIn(dt.date(2025, 1, 5), 2700, games)
    out = rate_period(
        2700, [t], rating_list=rl, list_date=dt.date(2025, 2, 1), facts=PlayerFacts(), k=40
    )
    assert (out.k_base, out.games, out.k) == (40, 18, 38)


# --- floor and first ratings on rapid and blitz -----------------------------------------------


@pytest.mark.parametrize("rl", RB)
def test_floor_by_edition(rl: RatingList) -> None:
    # 2012 policy 1000 (RAPID_BLITZ_FLOOR_2012), 1000 from Jul 2012, 1400 from Mar 2024.
    assert edition_for(rl, dt.date(2012, 1, 1)).floor == 1000
    assert edition_for(rl, dt.date(2024, 2, 29)).floor == 1000
    assert edition_for(rl, dt.date(2024, 3, 1)).floor == 1400
    # Apr 2024: 1405, K 20, loss vs 1405 (D 0): -0.50 x 20 = -10 -> 1395 < 1400: unrated.
    t = TournamentIn(dt.date(2024, 3, 10), 1405, (GameIn(1405, ZERO),))
    out = rate_period(
        1405,
        [t],
        rating_list=rl,
        list_date=dt.date(2024, 4, 1),
        facts=PlayerFacts(rated_games=100),
        k=20,
    )
    assert out.rating_after is None and out.reason == (EngineReason(EngineWhy.BELOW_FLOOR, 0, 1400))


@pytest.mark.parametrize("rl", RB)
def test_first_rating_before_jul_2014_nine_games_bonus_12_5(rl: RatingList) -> None:
    # Section 4, before Jul 2014: 9 games, +12.5 per half point above 50% (the K 30 bonus of
    # 15 is a standard-list matter: rapid & blitz K was 20; policy 12.5). Nine games vs 1800,
    # 6.5 points: 2 points = 4 half points above 4.5 -> Ra 1800 + 50 = 1850. 8 games: none.
    scores = [ONE] * 6 + [HALF, ZERO, ZERO]
    t = TournamentIn(dt.date(2013, 3, 1), None, tuple(GameIn(1800, s) for s in scores))
    assert first_rating([t], rating_list=rl, list_date=dt.date(2013, 5, 1)).rating == 1850
    t8 = TournamentIn(dt.date(2013, 3, 1), None, tuple(GameIn(1800, s) for s in scores[:8]))
    assert first_rating([t8], rating_list=rl, list_date=dt.date(2013, 5, 1)).rating is None


@pytest.mark.parametrize("rl", RB)
def test_first_rating_2024_formula_on_rapid_and_blitz(rl: RatingList) -> None:
    # Section 4 "standard, rapid and blitz alike": 5 games vs 2000, 3.5 points.
    # Ra = (5 x 2000 + 2 x 1800) / 7 = 13600 / 7 = 1942.857; p = 4.5 / 7 = 0.643 -> 0.64 ->
    # dp 102; Ru = 2044.857 -> 2045. (Feb 2024, 2014 formula: Ra 2000 + 2 x 20 = 2040.)
    scores = [ONE, ONE, ONE, HALF, ZERO]
    t = TournamentIn(dt.date(2024, 1, 10), None, tuple(GameIn(2000, s) for s in scores))
    assert first_rating([t], rating_list=rl, list_date=dt.date(2024, 2, 1)).rating == 2040
    assert first_rating([t], rating_list=rl, list_date=dt.date(2024, 3, 1)).rating == 2045


@pytest.mark.parametrize("rl", RB)
def test_standard_rating_seeds_only_from_mar_2024(rl: RatingList) -> None:
    # Section 4 (under "From 1 Mar 2024"): unrated in rapid/blitz with a standard rating ->
    # "uses the standard rating": rated at 1720, and the games change it like a rated
    # player's (not a first rating from the games). Tournament from 10 Jan 2024: 5 draws vs
    # 2000.
    t = TournamentIn(dt.date(2024, 1, 10), None, tuple(GameIn(2000, HALF) for _ in range(5)))
    # Feb 2024 list (2014 formula): no seed; the games decide: 50% -> Ru = Ra = 2000.
    feb_list, mar_list = dt.date(2024, 2, 1), dt.date(2024, 3, 1)
    assert standard_seed(rl, feb_list, 1720) is None
    assert first_rating([t], rating_list=rl, list_date=feb_list).rating == 2000
    # Mar 2024 list: seed 1720. K (section 3, standard scheme for rapid & blitz since Oct
    # 2022): no rapid/blitz game completed, adult -> 40; 700 rule: 5 x 40 = 200 <= 700.
    # Per game (cap by the start, Jan 2024: once per tournament; |D| 280 < 400, no cap):
    # D = 1720 - 2000 = -280 -> row 279,290 -> PD 0.16 (p_low); draw 0.5 - 0.16 = +0.34.
    # 5 x 0.34 = +1.70; x 40 = +68.00 -> 1788. Then the Mar 2024 compression (section 5,
    # policy: all three lists, on February + the March change, half up): 1788 + 0.4 x
    # (2000 - 1788) = 1788 + 84.8 = 1872.8 -> 1873.
    seed = standard_seed(rl, mar_list, 1720)
    assert seed == 1720
    out = rate_period(
        seed, [t], rating_list=rl, list_date=mar_list, facts=PlayerFacts(), seeded=True
    )
    assert (out.k, out.change_exact, out.rating_after) == (40, Decimal("68.00"), 1788)
    adjusted = one_off_adjustment(rl, mar_list, 1788)
    assert adjusted is not None and adjusted[0] == 1873


# --- which list (section 6), the 2012-2013 bands at their edges --------------------------------


@pytest.mark.parametrize(
    "tag,on,expected",
    [
        # 2012-2013 (section 2: "rapid 15-60 min, blitz 5-15 min at first"; section 6:
        # "2012-2013: from 15" / "from 5"; policy TIME_BANDS_CHANGE 1 Jan 2014)
        ("300", dt.date(2012, 1, 1), BLITZ),  # 5 minutes: from 5
        ("299", dt.date(2013, 12, 31), None),  # under 5
        ("899", dt.date(2013, 12, 31), BLITZ),  # just under 15
        ("900", dt.date(2012, 1, 1), RAPID),  # 15: from 15
        ("3540", dt.date(2013, 6, 1), RAPID),  # 59: under 60
        ("3600", dt.date(2013, 6, 1), STD),  # 60, both under 1600: standard
        # from 2014: rapid over 10 and under 60, blitz over 3 and at most 10
        ("300", dt.date(2014, 1, 1), BLITZ),
        ("900", dt.date(2014, 1, 1), RAPID),
        ("601", dt.date(2014, 1, 1), RAPID),  # 10 min 1 s: over 10
        ("181", dt.date(2014, 1, 1), BLITZ),  # over 3
    ],
)
def test_rapid_blitz_bands_at_their_edges(
    tag: str, on: dt.date, expected: RatingList | None
) -> None:
    assert classify_time_control(tag, on=on, max_rating=1500).rating_list is expected


FIRST_FIELDS = (
    "first_formula",
    "first_min_games",
    "first_window_months",
    "first_bonus",
    "first_cap",
    "first_fictitious_rating",
    "first_fictitious_games",
    "event_min_points",
    "event_min_rated_opponents",
    "floor",
)


@pytest.mark.parametrize("rl", RB)
@pytest.mark.parametrize(
    "on",
    [
        dt.date(2014, 7, 1),
        dt.date(2020, 1, 1),
        dt.date(2024, 2, 29),
        dt.date(2024, 3, 1),
        dt.date(2026, 1, 1),
    ],
)
def test_first_ratings_and_floor_as_on_the_standard_list_from_jul_2014(
    rl: RatingList, on: dt.date
) -> None:
    # Section 4: from Mar 2024 "standard, rapid and blitz alike"; Jul 2014 - Feb 2024 the
    # same rules with no list named (5 games, 26 months, +20, floor 1000) but for the first
    # event: "Rapid and blitz before 2022: at least 1 point in the first event" (standard
    # from Jul 2014: a zero score in the first event is disregarded, i.e. at least 1/2).
    fast, std = edition_for(rl, on), edition_for(STD, on)
    assert [getattr(fast, f) for f in FIRST_FIELDS] == [getattr(std, f) for f in FIRST_FIELDS]
    assert std.first_event_min_points == Fraction(1, 2)
    assert fast.first_event_min_points == (
        Fraction(1) if on < dt.date(2022, 1, 1) else Fraction(1, 2)
    )
