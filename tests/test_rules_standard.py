"""The standard list, edition by edition, checked against the rulebook (shared/spec/fide-rules.md).

A second pair of eyes on sections 1 (one period), 2 (editions), 3 (K), 4 (first ratings) and
5 (one-off adjustments) where the older test files leave gaps: edges of every threshold, the
rules that decide by a date on both sides of it, and a few whole seasons through the replay.
Every expected number is derived by hand below from the rulebook and its two tables, never
from running tracker code. Rows of table 8.1.2 used (d_min,d_max,p_high,p_low):
0,3,0.50,0.50 | 40,46,0.56,0.44 | 146,153,0.70,0.30 | 392,411,0.92,0.08 |
433,456,0.94,0.06 | 485,517,0.96,0.04 | 560,619,0.98,0.02.
Rows of table 8.1.1 used: 0.22 -> -220 | 0.40 -> -72 | 0.50 -> 0 | 0.86 -> 309.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from tests.builders import Replay
from tests.conftest import run_cli
from tracker.fide import (
    EngineReason,
    EngineWhy,
    GameIn,
    PlayerFacts,
    TournamentIn,
    derive_k_why,
    edition_for,
    first_rating,
    one_off_adjustment,
    rate_period,
)
from tracker.model import Period, RatingList
from tracker.periods import PlayerInfo

STD = RatingList.STANDARD
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)
ADULT = PlayerFacts(birth_year=1980, rated_games=100)


def _t(
    start: dt.date, ro: int | None, *games: tuple[int | None, Fraction], label: str = ""
) -> TournamentIn:
    return TournamentIn(start, ro, tuple(GameIn(r, s) for r, s in games), label)


def _d(day: str) -> dt.date:
    return dt.date.fromisoformat(day)


class Season(Replay):
    """A tiny standard season for the pure replay (tests/builders.py's Replay): `event(...)`
    one tournament a call, its games played on its start day."""

    def rows(self, player: PlayerInfo) -> dict[str, tuple[int | None, int | None]]:
        """(K, published rating) by period."""
        return {str(r.period): (r.k, r.published) for r in self.run(player=player).rows}


# --- section 1.4: per game, the two sides of one game -------------------------------------------


def test_two_sides_of_one_game_from_oct_2025() -> None:
    # 2700 beats 2200 in a tournament starting 10 Oct 2025 (Nov 2025 list). The 2700 side
    # (Ro >= 2650) uses the true D = 500 -> 485-517 -> PD 0.96, +0.04 x K 10 = +0.4 -> 0.
    # The 2200 side (Ro < 2650) caps D = -500 at -400 -> 392-411 -> PD 0.08,
    # -0.08 x K 20 = -1.6 -> -2. "The opponent's rating never decides this" (1.4).
    on, nov = _d("2025-10-10"), _d("2025-11-01")
    high = rate_period(
        2700,
        [_t(on, 2700, (2200, ONE))],
        rating_list=STD,
        list_date=nov,
        facts=PlayerFacts(ever_2400=True, rated_games=500),
    )
    low = rate_period(
        2200, [_t(on, 2200, (2700, ZERO))], rating_list=STD, list_date=nov, facts=ADULT
    )
    assert (high.k, high.change_exact, high.rating_after) == (10, Decimal("0.40"), 2700)
    assert (low.k, low.change_exact, low.rating_after) == (20, Decimal("-1.60"), 2198)
    g_high, g_low = high.tournaments[0].games[0], low.tournaments[0].games[0]
    assert (g_high.difference_used, g_high.capped) == (500, False)
    assert (g_low.difference_used, g_low.capped) == (-400, True)


# --- section 1.5: the 700 rule at its edges, over several tournaments ---------------------------


@pytest.mark.parametrize(
    "k,n,cut", [(40, 17, 40), (40, 18, 38), (20, 35, 20), (20, 36, 19), (10, 70, 10), (10, 71, 9)]
)
def test_700_rule_edges_over_two_tournaments(k: int, n: int, cut: int) -> None:
    # 1.5: "K 40 is cut from 18 games, K 20 from 36, K 10 from 71": 17 x 40 = 680 keeps 40,
    # 18 x 40 = 720 -> 700 // 18 = 38; 35 x 20 = 700 keeps 20, 36 -> 19; 70 x 10 = 700
    # keeps 10, 71 -> 9. n is *all* the period's games: split over two tournaments, the
    # first of 10 wins at D = 0 (+0.50 each, +5.00), the rest draws at D = 0 (0 each).
    # Change = cut x 5.00 for the period and for the first tournament.
    first = _t(_d("2025-09-05"), 1800, *[(1800, ONE)] * 10, label="A")
    second = _t(_d("2025-10-01"), 1800, *[(1800, HALF)] * (n - 10), label="B")
    out = rate_period(
        1800, [first, second], rating_list=STD, list_date=_d("2025-11-01"), facts=ADULT, k=k
    )
    assert (out.k_base, out.k, out.games) == (k, cut, n)
    assert out.tournaments[0].k_change == Decimal(cut) * Decimal("5.00")
    assert out.rating_after == 1800 + 5 * cut


def test_no_700_rule_before_jul_2017() -> None:
    # Section 2: the 700 rule from 1 Jul 2017 (policy). A new player (K 40 from Jul 2014)
    # with 18 draws at D = 0 and one win at D = 0 (19 games): the Jun 2017 list keeps K 40
    # (+0.50 x 40 = +20); the Jul 2017 list cuts it to 700 // 19 = 36 (+18).
    games = [(1800, HALF)] * 18 + [(1800, ONE)]
    facts = PlayerFacts(birth_year=1980, rated_games=0)
    jun = rate_period(
        1800,
        [_t(_d("2017-05-01"), 1800, *games)],
        rating_list=STD,
        list_date=_d("2017-06-01"),
        facts=facts,
    )
    jul = rate_period(
        1800,
        [_t(_d("2017-06-01"), 1800, *games)],
        rating_list=STD,
        list_date=_d("2017-07-01"),
        facts=facts,
    )
    assert (jun.k, jun.rating_after) == (40, 1820)
    assert (jul.k_base, jul.k, jul.rating_after) == (40, 36, 1818)


# --- section 1.6: one rounding per period, .5 away from zero -------------------------------------


@pytest.mark.parametrize("opponent,score,change", [(1650, ONE, 5), (1950, ZERO, -5)])
def test_half_away_from_zero_with_k_15(opponent: int, score: Fraction, change: int) -> None:
    # Jul 2013 list (K 30/15/10): an established adult has K 15. Ro 1800 beats 1650
    # (D 150 -> 146-153 -> 0.70): +0.30 x 15 = +4.50 -> +5; loses to 1950 (D -150 -> 0.30):
    # -0.30 x 15 = -4.50 -> -5 (away from zero, not to even: +4 / -4).
    out = rate_period(
        1800,
        [_t(_d("2013-06-10"), 1800, (opponent, score))],
        rating_list=STD,
        list_date=_d("2013-07-01"),
        facts=ADULT,
    )
    assert out.k == 15 and abs(out.change_exact) == Decimal("4.50")
    assert (out.change, out.rating_after) == (change, 1800 + change)


def test_two_halves_in_one_period_make_a_whole() -> None:
    # Two tournaments of the same period, each +4.50 (as above): rounded once, +9.00 -> +9
    # (rounding each tournament would give +5 +5 = +10).
    a = _t(_d("2013-06-01"), 1800, (1650, ONE), label="A")
    b = _t(_d("2013-06-10"), 1800, (1650, ONE), label="B")
    out = rate_period(1800, [a, b], rating_list=STD, list_date=_d("2013-07-01"), facts=ADULT)
    assert (out.change_exact, out.change, out.rating_after) == (Decimal("9.00"), 9, 1809)


# --- section 1.7 and 2: the floor of each edition, at its edge ----------------------------------


@pytest.mark.parametrize(
    "list_date,floor",
    [
        ("2009-04-01", 1400),  # before Jul 2009: policy FLOOR_BEFORE_JUL_2009
        ("2010-01-01", 1200),  # 1 Jul 2009
        ("2013-01-01", 1000),  # 1 Jul 2012
        ("2024-02-01", 1000),
        ("2024-04-01", 1400),  # 1 Mar 2024 (Apr: no compression on that list)
    ],
)
def test_floor_edge_by_edition(list_date: str, floor: int) -> None:
    # A loss at D = 0 with K 20: -0.50 x 20 = -10. From floor + 10 the result is the floor
    # itself: published. From floor + 9 it is floor - 1: "published as unrated" (1.7).
    on = _d(list_date)
    start = Period.of(on).prev().list_date

    def after(ro: int) -> int | None:
        return rate_period(
            ro, [_t(start, ro, (ro, ZERO))], rating_list=STD, list_date=on, facts=ADULT, k=20
        ).rating_after

    assert edition_for(STD, on).floor == floor
    assert after(floor + 10) == floor
    assert after(floor + 9) is None


# --- section 2: per-game rules follow each tournament's start, in one period --------------------


def test_cap_of_each_tournament_by_its_own_start_in_one_period() -> None:
    # Feb 2022 list. Ro 2000, draws against 1500 (D 500) and 1550 (D 450) in two tournaments:
    # - A started 28 Dec 2021 (cap in every game): both count as 400 -> 0.92; 2 x (0.50 -
    #   0.92) = -0.84;
    # - B started 5 Jan 2022 (once per tournament): only the largest |D| (500) is capped
    #   -> 0.92, the 450 is true -> 433-456 -> 0.94; -0.42 - 0.44 = -0.86.
    # Total -1.70 x K 20 = -34 -> 1966.
    a = _t(_d("2021-12-28"), 2000, (1500, HALF), (1550, HALF), label="A")
    b = _t(_d("2022-01-05"), 2000, (1500, HALF), (1550, HALF), label="B")
    out = rate_period(2000, [a, b], rating_list=STD, list_date=_d("2022-02-01"), facts=ADULT)
    used = [[g.difference_used for g in t.games] for t in out.tournaments]
    assert used == [[400, 400], [400, 450]]
    assert [t.change for t in out.tournaments] == [Decimal("-0.84"), Decimal("-0.86")]
    assert (out.k, out.change_exact, out.rating_after) == (20, Decimal("-34.00"), 1966)


def test_once_per_tournament_for_the_lower_side_too() -> None:
    # Jan 2022 - Feb 2024, policy CAP_ONCE_APPLIES_TO_LOWER_SIDE: Ro 1500 loses to 2000
    # (D -500) and to 1950 (D -450), tournament started Jun 2023: only the -500 is capped
    # (-400 -> 0.08); the -450 is true (0.06). -0.08 - 0.06 = -0.14 x 20 = -2.8 -> -3.
    t = _t(_d("2023-06-01"), 1500, (2000, ZERO), (1950, ZERO))
    out = rate_period(1500, [t], rating_list=STD, list_date=_d("2023-07-01"), facts=ADULT)
    assert [g.difference_used for g in out.tournaments[0].games] == [-400, -450]
    assert (out.change_exact, out.rating_after) == (Decimal("-2.80"), 1497)


# --- section 3: K, precedence and the edges of each rule ----------------------------------------


@pytest.mark.parametrize(
    "facts,rating,k",
    [
        # rule 1 beats rule 2: a junior who once had a published 2400 -> 10
        (PlayerFacts(birth_year=2010, rated_games=5, ever_2400=True), 2350, 10),
        # rule 1 from the rating before the period alone (published 2400 on the previous list)
        (PlayerFacts(birth_year=1980, rated_games=5), 2400, 10),
        # rule 2 needs "never reached 2300": a junior who did falls to rule 3 (under 30 games) ...
        (PlayerFacts(birth_year=2010, rated_games=29, reached_2300=True), 2250, 40),
        # ... or rule 4
        (PlayerFacts(birth_year=2010, rated_games=30, reached_2300=True), 2250, 20),
        # the rating before the period at 2300 is "reached" too
        (PlayerFacts(birth_year=2010, rated_games=30), 2300, 20),
        (PlayerFacts(birth_year=2010, rated_games=30), 2299, 40),
    ],
)
def test_k_precedence_edges(facts: PlayerFacts, rating: int, k: int) -> None:
    assert derive_k_why(STD, _d("2025-11-01"), facts, rating)[0] == k


@pytest.mark.parametrize(
    "list_date,k",
    [
        ("2025-12-01", 40),
        ("2026-01-01", 40),
        ("2026-02-01", 20),
    ],
)
def test_junior_to_the_end_of_the_year_of_the_18th_birthday(list_date: str, k: int) -> None:
    # Spec section 3 rule 2 (Handbook B02: K 40 "until the end of the year of their 18th
    # birthday"): "the list" is the one that publishes the K, the previous list of the
    # period: "a junior born in 2007 plays December 2025 with K 40, and that period is rated
    # on the January 2026 list with K 40; the K printed on the January 2026 list (20) is
    # used from February". Dec 2025 list (Nov 2025 games): 2025 - 2007 = 18 -> 40; Jan 2026
    # list (Dec 2025 games): still 2025 - 2007 = 18 -> 40; Feb 2026: 2026 - 2007 = 19 -> 20.
    # (The old reading took the year of the rated list: K 20 from the Jan 2026 list.)
    facts = PlayerFacts(birth_year=2007, rated_games=200)
    assert derive_k_why(STD, _d(list_date), facts, 2000)[0] == k


@pytest.mark.parametrize(
    "list_date,games,k",
    [
        # before Jul 2011: K 25 (new) / 15 / 10; no junior rule (a 13-year-old is a new player)
        ("2010-01-01", 29, 25),
        ("2010-01-01", 30, 15),
        # Jul 2011: K 30 (new) / 15 / 10 (policy K30_FROM)
        ("2011-05-01", 29, 25),
        ("2011-07-01", 29, 30),
        ("2014-06-01", 30, 15),
        # Jul 2014: 40 / 20 / 10
        ("2014-07-01", 29, 40),
        ("2014-07-01", 30, 20),
    ],
)
def test_k_of_a_new_and_an_established_adult_by_edition(list_date: str, games: int, k: int) -> None:
    facts = PlayerFacts(birth_year=1980, rated_games=games)
    assert derive_k_why(STD, _d(list_date), facts, 1800)[0] == k
    assert (
        derive_k_why(
            STD,
            _d(list_date),
            PlayerFacts(birth_year=1980, rated_games=games, ever_2400=True),
            2300,
        )[0]
        == 10
    )


@pytest.mark.parametrize(
    "list_date,born,k",
    [
        ("2014-06-01", 2000, 15),  # no junior rule before Jul 2014 (established, 100 games)
        ("2014-07-01", 1997, 40),  # 2014 - 1997 = 17: before the 18th birthday (policy <= 17)
        ("2014-07-01", 1996, 20),  # 18: the birthday may be past (policy: not a junior)
        ("2017-07-01", 1999, 40),  # from Jul 2017: to the end of the year of the 18th birthday
    ],
)
def test_junior_rule_by_edition(list_date: str, born: int, k: int) -> None:
    facts = PlayerFacts(birth_year=born, rated_games=100)
    assert derive_k_why(STD, _d(list_date), facts, 1800)[0] == k


def test_first_rating_games_count_toward_the_30() -> None:
    # Section 3 (UNSETTLED, policy: they count). Adult, unrated. Oct 2025 event of 25 draws
    # vs 1800 (ends 10 Oct -> Nov 2025 list): Ra = (25 x 1800 + 2 x 1800) / 27 = 1800,
    # p = 13.5 / 27 = 0.50 -> dp 0 -> first rating 1800.
    # Nov 2025 event, 5 draws vs 1800 -> Dec 2025: 25 games completed -> K 40, change 0.
    # Dec 2025 event, 1 win vs 1800 -> Jan 2026: 30 completed -> K 20: +10 -> 1810 (had the
    # first-rating games not counted: 5 completed, K 40, +20 -> 1820).
    s = Season()
    s.event("2025-10-01", *[(1800, HALF)] * 25, end="2025-10-10")
    s.event("2025-11-10", *[(1800, HALF)] * 5)
    s.event("2025-12-10", (1800, ONE))
    rows = s.rows(PlayerInfo(birth_year=1980))
    assert rows["2025-11"] == (None, 1800)
    assert rows["2025-12"] == (40, 1800)
    assert rows["2026-01"] == (20, 1810)


def test_k_10_stays_after_the_rating_drops_below_2400() -> None:
    # Rule 1 "permanently", through the replay: official Sep 2025 2395 K 20, adult, 100 games.
    # Oct 2025 list: win vs 2395 (D 0): +0.50 x 20 = +10 -> 2405 (a published 2400).
    # Nov 2025 list: loss vs 2405 (D 0): K 10 -> -5 -> 2400. Dec: loss vs 2400 -> -5 -> 2395.
    # Jan 2026: win vs 2395 -> still K 10 -> +5 -> 2400 (K 20 would give 2405).
    s = Season()
    s.off("2025-09", 2395, k=20)
    s.event("2025-09-10", (2395, ONE))
    s.event("2025-10-10", (2405, ZERO))
    s.event("2025-11-10", (2400, ZERO))
    s.event("2025-12-10", (2395, ONE))
    rows = s.rows(PlayerInfo(birth_year=1980, rated_games=100))
    assert [rows[p] for p in ("2025-10", "2025-11", "2025-12", "2026-01")] == [
        (20, 2405),
        (10, 2400),
        (10, 2395),
        (10, 2400),
    ]


# --- section 4: first ratings at the edges ------------------------------------------------------


NOV_2025 = _d("2025-11-01")


@pytest.mark.parametrize(
    "ratings,published",
    [
        # 6 opponents summing 7596, 3/6: Ra = (7596 + 3600) / 8 = 1399.5, p = 4/8 = 0.50 ->
        # dp 0; Ru = 1399.5 -> 1400 (nearest, half up) -> at the floor: published.
        ([1266] * 6, 1400),
        # summing 7594: Ra = 11194 / 8 = 1399.25 -> 1399 < 1400: not published.
        ([1266] * 5 + [1264], None),
    ],
)
def test_first_rating_2024_floor_after_rounding(ratings: list[int], published: int | None) -> None:
    games = [(r, ONE if i < 3 else ZERO) for i, r in enumerate(ratings)]
    out = first_rating([_t(_d("2025-10-01"), None, *games)], rating_list=STD, list_date=NOV_2025)
    assert out.rating == published


@pytest.mark.parametrize(
    "ratings,rating,reason",
    [
        # 5 wins; p = (5 + 1) / 7 = 0.857 -> 0.86 -> dp 309.
        # opponents sum 9644: Ra = 13244 / 7 = 1892, Ru = 2201 -> capped at 2200.
        ([1929] * 4 + [1928], 2200, EngineReason(EngineWhy.FIRST_CAPPED, 2201, 2200)),
        # sum 9637: Ra = 13237 / 7 = 1891, Ru = 2200: at the cap, nothing to say.
        ([1929] * 2 + [1927] + [1926] * 2, 2200, None),
    ],
)
def test_first_rating_2024_cap_edge(
    ratings: list[int], rating: int, reason: EngineReason | None
) -> None:
    out = first_rating(
        [_t(_d("2025-10-01"), None, *[(r, ONE) for r in ratings])],
        rating_list=STD,
        list_date=NOV_2025,
    )
    assert (out.rating, out.reason) == (rating, reason)


@pytest.mark.parametrize(
    "scores,rating",
    [
        ([ONE, ONE, ZERO, ZERO, ZERO], 1528),  # 2/5 = 0.40 -> dp -72: 1600 - 72
        ([ONE, ONE, ONE, HALF, ZERO], 1640),  # 3.5: 1 point = 2 half points above 2.5: +40
        ([ONE, ONE, ONE, ZERO, ZERO, ZERO], 1600),  # exactly 50%: Ru = Ra
    ],
)
def test_first_rating_2014_to_2024(scores: list[Fraction], rating: int) -> None:
    # Jul 2014 - Feb 2024: Ra of the rated opponents only (all 1600 here), no fictitious
    # games, no 2200 cap, 5 games.
    out = first_rating(
        [_t(_d("2023-05-01"), None, *[(1600, s) for s in scores])],
        rating_list=STD,
        list_date=_d("2023-06-01"),
    )
    assert out.rating == rating


@pytest.mark.parametrize("list_date,rating", [("2011-05-01", 1838), ("2011-07-01", 1845)])
def test_first_rating_before_2014_bonus_and_half_up(list_date: str, rating: int) -> None:
    # Before Jul 2014: 9 games; 6/9 vs 1800 is 1.5 points = 3 half points above 4.5.
    # K 25 era: +12.5 each = +37.5 -> 1837.5 -> 1838 (half up); K 30 era (from Jul 2011,
    # policy FIRST_BONUS_K30): +15 each = +45 -> 1845.
    scores = [ONE] * 6 + [ZERO] * 3
    out = first_rating(
        [_t(_d("2011-03-01"), None, *[(1800, s) for s in scores])],
        rating_list=STD,
        list_date=_d(list_date),
    )
    assert out.rating == rating


@pytest.mark.parametrize("list_date,rating", [("2011-01-01", None), ("2013-01-01", 1080)])
def test_first_rating_floor_1200_then_1000(list_date: str, rating: int | None) -> None:
    # 2/9 vs 1300: p = 0.222 -> 0.22 -> dp -220 -> 1080: below the 1200 floor of Jul 2009,
    # above the 1000 floor of Jul 2012.
    scores = [ONE] * 2 + [ZERO] * 7
    out = first_rating(
        [_t(_d("2010-12-01"), None, *[(1300, s) for s in scores])],
        rating_list=STD,
        list_date=_d(list_date),
    )
    assert out.rating == rating


def test_zero_first_event_disregarded_before_mar_2024_too() -> None:
    # Spec section 4: "1 Jul 2014 - 29 Feb 2024: ... a zero score in the first event is
    # disregarded here too" (the old reading let it count before Mar 2024: 0/2 then 3/3 vs
    # 1600 pooled on the Feb 2024 list gave 3/5, +20 -> 1620). Feb 2024 and Mar 2024 lists
    # alike: the zero event is disregarded and 3 games are not enough (5 needed).
    zero = _t(_d("2023-12-01"), None, (1600, ZERO), (1600, ZERO), label="zero")
    wins = _t(_d("2024-01-10"), None, (1600, ONE), (1600, ONE), (1600, ONE), label="wins")
    feb = first_rating([zero, wins], rating_list=STD, list_date=_d("2024-02-01"))
    mar = first_rating([zero, wins], rating_list=STD, list_date=_d("2024-03-01"))
    assert (feb.rating, feb.games, feb.ignored) == (None, 3, ("zero",))
    assert (mar.rating, mar.games, mar.ignored) == (None, 3, ("zero",))
    assert feb.reason == EngineReason(EngineWhy.FIRST_TOO_FEW_GAMES, 3, 5)


# --- section 5: the Mar 2024 compression --------------------------------------------------------


@pytest.mark.parametrize(
    "rating,after",
    [
        (1000, 1400),
        (1600, 1760),  # FIDE's own examples
        (1001, 1401),  # 1001 + 399.6 = 1400.6 -> 1401
        (1999, 1999),  # 1999 + 0.4 = 1999.4 -> 1999
        (2000, None),  # "2000 unchanged": nothing applied
    ],
)
def test_compression_edges(rating: int, after: int | None) -> None:
    got = one_off_adjustment(STD, _d("2024-03-01"), rating)
    assert (got[0] if got else None) == after
    assert one_off_adjustment(STD, _d("2024-04-01"), rating) is None
    assert one_off_adjustment(STD, _d("2024-02-01"), rating) is None


def test_compression_after_the_march_change_through_the_replay() -> None:
    # Policy COMPRESSION_BASE: February rating + the March change, then compressed.
    # Official Feb 2024 1500, K 20. Win vs 1500 (D 0) on 10 Feb -> Mar 2024 list: +10 ->
    # 1510 -> 1510 + 0.4 x 490 = 1706. (Compressing first: 1700 + 10 = 1710.)
    # Apr 2024: win vs 1706 (D 0): +10 -> 1716, no second compression.
    s = Season()
    s.off("2024-02", 1500, k=20)
    s.event("2024-02-10", (1500, ONE))
    s.event("2024-03-10", (1706, ONE))
    rows = s.rows(PlayerInfo(birth_year=1980, rated_games=100))
    assert rows["2024-03"] == (20, 1706)
    assert rows["2024-04"] == (20, 1716)


# --- end to end: a hand-written PGN through `tracker import`, `history`, `explain`, `next`, calc --


def _pgn(event: str, start: str, rows: list[tuple[str, str, str, int, int, str]]) -> str:
    """A PGN of one event: rows of (date, white "Name:FideId", black, white Elo, black Elo,
    result), 90 min + 30 s from move 1 (standard at every rating)."""
    out = []
    for i, (day, white, black, w_elo, b_elo, result) in enumerate(rows, 1):
        (wn, wid), (bn, bid) = white.split(":"), black.split(":")
        out.append(
            f'[Event "{event}"]\n[Site "Here"]\n[Date "{day}"]\n[Round "{i}"]\n'
            f'[White "{wn}"]\n[Black "{bn}"]\n[Result "{result}"]\n[WhiteElo "{w_elo}"]\n'
            f'[BlackElo "{b_elo}"]\n[WhiteFideId "{wid}"]\n[BlackFideId "{bid}"]\n'
            f'[EventDate "{start}"]\n[TimeControl "5400+30"]\n\n1. e4 e5 2. Nf3 Nc6 {result}\n'
        )
    return "\n".join(out)


ANNA, LEO, TINA, MAX = (
    "Audit, Anna:99000001",
    "Low, Leo:99000002",
    "Top, Tina:99000003",
    "Mid, Max:99000004",
)


@pytest.fixture
def cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., str]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)

    def run(*args: str) -> str:
        db = () if args[0] == "calc" else ("--db", "audit.db")
        code, out, err = run_cli(capsys, monkeypatch, *args, *db)
        assert code == 0, err
        return out

    return run


def test_cli_2650_rule_from_import_to_history_explain_next_and_calc(
    tmp_path: Path, cli: Callable[..., str]
) -> None:
    # Anna, official Oct 2025 2660 with K 10, plays Cap Open (10-12 Oct 2025 -> the Nov 2025
    # list, 3 closing days). Ro 2660 >= 2650: true differences (section 1.4, from 1 Oct 2025).
    #   beats Leo 2100: D 560 -> 560-619 -> 0.98: +0.02
    #   draws Tina 2700: D -40 -> 40-46 -> 0.44: +0.06
    #   loses to Max 2160: D 500 -> 485-517 -> 0.96: -0.96
    # Sum -0.88 x 10 = -8.80 -> -9 -> 2651. (Capped at 400 it would be 0.92 twice:
    # +0.08 + 0.06 - 0.92 = -0.78 -> -7.8 -> -8 -> 2652.)
    # Leo's side of his game: Ro 2100 < 2650, D -560 capped at -400 -> 0.08; no facts: rated
    # from his own Elo tag, so 30 or more games completed by policy
    # (GAMES_COMPLETED_WHEN_UNKNOWN, said as an assumption) -> K 20: -1.60 -> -2 -> 2098.
    (tmp_path / "cap.pgn").write_text(
        _pgn(
            "Cap Open",
            "2025.10.10",
            [
                ("2025.10.10", ANNA, LEO, 2660, 2100, "1-0"),
                ("2025.10.11", TINA, ANNA, 2700, 2660, "1/2-1/2"),
                ("2025.10.12", ANNA, MAX, 2660, 2160, "0-1"),
            ],
        ),
        encoding="utf-8",
    )
    cli("import", "cap.pgn")
    cli("official", "add", "99000001", "--period", "2025-10", "--rating", "2660", "--k", "10")
    rows = {r["period"]: r for r in json.loads(cli("history", "99000001", "-f", "json"))}
    nov = rows["2025-11"]
    assert (
        nov["rating_before"],
        nov["k"],
        nov["change_exact"],
        nov["change"],
        nov["rating_after"],
    ) == (2660, 10, "-8.80", -9, 2651)
    text = cli("explain", "99000001", "2025-11")
    assert "    Low, Leo     2100  tag   560  0.98      1  +0.02    +0.20" in text
    assert "    Mid, Max     2160  tag   500  0.96      0  -0.96    -9.60" in text
    assert "Rating after: 2660 -9 = 2651" in text
    assert "Expected standard rating on the 2025-11 list: 2651" in cli("next", "99000001")
    calc = json.loads(
        cli(
            "calc",
            "--rating",
            "2660",
            "--k",
            "10",
            "--date",
            "2025-10-10",
            "--format",
            "json",
            "2100:1",
            "2700:0.5",
            "2160:0",
        )
    )
    assert (calc["period"], calc["change_exact"], calc["rating_after"]) == (
        "2025-11",
        "-8.80",
        2651,
    )
    leo = json.loads(cli("history", "99000002", "-f", "json"))
    assert [(r["period"], r["k"], r["change_exact"], r["rating_after"]) for r in leo] == [
        ("2025-11", 20, "-1.60", 2098)
    ]
    assert [a["fact"] for a in leo[0]["assumptions"]] == ["rated-games", "birth-year"]


def test_cli_two_monthly_era_closing_days_cap_400_and_k_15(
    tmp_path: Path, cli: Callable[..., str]
) -> None:
    # Jul 2009 - May 2012: lists every two months, a tournament must finish 7 days before the
    # list date (section 2). Anna, official Jul 2010 1800 with K 15 (below the newcomer K 25:
    # 30 games taken as completed). "Late Summer" ends 26 Aug 2010, 6 days before 1 Sep:
    # rated on the Nov 2010 list, from the Jul 2010 rating (the list in force at its start).
    #   beats 1650: D 150 -> 0.70: +0.30;  loses to 1950: D -150 -> 0.30: -0.30;
    #   beats 1300: D 500 capped at 400 (cap 400 from Jul 2009) -> 0.92: +0.08.
    # Sum +0.08 x K 15 (K 25/15/10 until Jul 2011) = +1.20 -> +1 -> 1801.
    (tmp_path / "old.pgn").write_text(
        _pgn(
            "Late Summer",
            "2010.08.20",
            [
                ("2010.08.20", ANNA, "A:99000011", 1800, 1650, "1-0"),
                ("2010.08.22", "B:99000012", ANNA, 1950, 1800, "1-0"),
                ("2010.08.26", ANNA, "C:99000013", 1800, 1300, "1-0"),
            ],
        ),
        encoding="utf-8",
    )
    cli("import", "old.pgn")
    cli("official", "add", "99000001", "--period", "2010-07", "--rating", "1800", "--k", "15")
    rows = json.loads(cli("history", "99000001", "-f", "json"))
    assert [(r["period"], r["k"], r["change_exact"], r["rating_after"]) for r in rows] == [
        ("2010-07", None, None, 1800),
        ("2010-11", 15, "1.20", 1801),
    ]
