"""`tracker calc` for a player unrated in rapid/blitz but rated in standard (spec section 4:
"Rapid/blitz: a player unrated there but with a standard rating uses the standard rating").

The reading kept is the period replay's: from the Mar 2024 list the player is rated at the
standard rating, and the period's games change it with the player's K (policy
SEED_COUNTS_AS_PUBLISHED_FOR_K: the seed counts as a rating published on that list, for good:
2400 or more is "a published 2400 ever" (rule 1, K 10 permanently), 2300 or more means the
rating reached 2300 (rule 2, no junior K 40)). calc must give the replay's numbers for the
same games, date and facts.

Expected numbers are derived by hand from shared/spec/fide-rules.md and table 8.1.2 (D ->
PD; columns d_min,d_max,p_high,p_low; p_high for D >= 0, p_low for D < 0), never from
running tracker code. Rows used: 0,3,0.50,0.50 | 4,10,0.51,0.49 | 11,17,0.52,0.48 |
18,25,0.53,0.47 | 47,53,0.57,0.43 | 99,106,0.64,0.36 | 146,153,0.70,0.30 | 216,225,0.78,0.22.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from tracker.cli import app
from tracker.fide import EDITIONS, policies, seeds_from_standard, standard_seed
from tracker.model import Period, RatingList
from tracker.periods import (
    GameFact,
    PlayerInfo,
    RatingSource,
    ReplayInputs,
    TournamentFact,
    replay,
)
from tracker.periods.rows import PeriodRow
from tracker.reports.rulewords import k_text

RAPID = RatingList.RAPID
BLITZ = RatingList.BLITZ
runner = CliRunner()
_SCORES = {"1": Fraction(1), "0.5": Fraction(1, 2), "0": Fraction(0)}


def _calc(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["calc", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _replay_row(
    rl: RatingList, start: str, seed: int, opponents: list[str], birth_year: int | None = None
) -> PeriodRow:
    """The replay of one tournament of `opponents` (RATING:SCORE) on `rl`, started on
    `start`, by a player with no `rl` rating and the standard rating `seed` on the list in
    force then; the row of the list that rates it."""
    on = dt.date.fromisoformat(start)
    t = TournamentFact(1, "Rapid open", start=on, end=on)
    games = []
    for n, text in enumerate(opponents, 1):
        rating, _, score = text.partition(":")
        games.append(
            GameFact(
                id=n,
                tournament_id=1,
                date=on,
                round=str(n),
                white=n % 2 == 1,
                opponent_id=100 + n,
                opponent=f"Opp {n}",
                own_elo=None,
                opponent_elo=int(rating),
                result="*",
                score=_SCORES[score],
                rating_list=rl,
            )
        )
    rp = replay(
        ReplayInputs(
            rl,
            games,
            [t],
            [],
            PlayerInfo(birth_year=birth_year),
            standard_ratings={Period.of(on): seed},
        )
    )
    rows = [r for r in rp.rows if r.tournaments]
    assert len(rows) == 1
    return rows[0]


def test_audit_example_by_hand() -> None:
    # Unrated in rapid, standard 1720, tournament 10 Oct 2025 -> the Nov 2025 rapid list.
    # Rated at Ro 1720 (spec section 4). K: no rapid game completed, adult -> K 40 (spec
    # section 3 rule 3).
    #   vs 1500: D = 1720 - 1500 = +220 -> row 216,225 -> PD 0.78; win: 1 - 0.78 = +0.22
    #   vs 1700: D = 1720 - 1700 = +20  -> row 18,25   -> PD 0.53; win: 1 - 0.53 = +0.47
    #   sum +0.69; x K 40 = +27.60 -> rounded +28 -> 1748.
    data = _calc(
        "--unrated",
        "--list",
        "rapid",
        "--standard-rating",
        "1720",
        "--date",
        "2025-10-10",
        "1500:1",
        "1700:1",
    )
    assert data["period"] == "2025-11"
    assert data["rating_before"] == 1720
    assert data["rating_before_source"] == "standard rating"
    assert [g["expected"] for g in data["games"]] == ["0.78", "0.53"]
    assert [g["change"] for g in data["games"]] == ["0.22", "0.47"]
    assert data["k"] == 40 and data["k_reason"].startswith("fewer than 30 games (0 completed")
    assert data["change_exact"] == "27.60" and data["change"] == 28
    assert data["rating_after"] == 1748 and data["adjusted_rating"] is None


def test_audit_example_table_says_the_standard_rating_was_used() -> None:
    result = runner.invoke(
        app,
        [
            "calc",
            "--unrated",
            "--list",
            "rapid",
            "--standard-rating",
            "1720",
            "--date",
            "2025-10-10",
            "1500:1",
            "1700:1",
        ],
    )
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "rated at the standard rating 1720" in out
    assert "not a first rating from the games" in out
    assert "new rating 1748" in out
    assert "first rating" not in out.replace("not a first rating", "")
    assert "ignored" not in out


# (list, start, seed, birth year, opponents, K, K reason starts with, exact change, result)
CASES = [
    # the audit's example (above)
    (
        RAPID,
        "2025-10-10",
        1720,
        None,
        ["1500:1", "1700:1"],
        40,
        "fewer than 30 games",
        "27.60",
        1748,
    ),
    # seed 2450 >= 2400: K 10 (rule 1, the seed counts as published: policy).
    #   vs 2300: D +150 -> row 146,153 -> 0.70; win +0.30
    #   vs 2500: D -50  -> row 47,53 p_low -> 0.43; draw 0.5 - 0.43 = +0.07
    #   +0.37 x 10 = +3.70 -> +4 -> 2454
    (BLITZ, "2025-10-10", 2450, None, ["2300:1", "2500:0.5"], 10, "2400 reached", "3.70", 2454),
    # seed 2400 exactly: K 10. vs 2400: D 0 -> row 0,3 -> 0.50; loss -0.50 x 10 = -5 -> 2395
    (RAPID, "2025-10-10", 2400, None, ["2400:0"], 10, "2400 reached", "-5.00", 2395),
    # seed 2399: K 40 (new player). vs 2399: D 0 -> 0.50; loss -0.50 x 40 = -20 -> 2379
    (RAPID, "2025-10-10", 2399, None, ["2399:0"], 40, "fewer than 30 games", "-20.00", 2379),
    # junior (2025 - 2012 = 13 <= 18), seed 2250 under 2300: junior K 40 (rule 2).
    #   vs 2200: D +50 -> 0.57; draw -0.07. vs 2300: D -50 -> 0.43; loss -0.43.
    #   -0.50 x 40 = -20 -> 2230
    (RAPID, "2025-10-10", 2250, 2012, ["2200:0.5", "2300:0"], 40, "junior", "-20.00", 2230),
    # junior, seed 2350 >= 2300: no junior K (the seed counts); rule 3, no rapid game -> 40.
    #   vs 2300: D +50 -> 0.57; win +0.43. vs 2400: D -50 -> 0.43; draw +0.07.
    #   +0.50 x 40 = +20 -> 2370
    (
        RAPID,
        "2025-10-10",
        2350,
        2012,
        ["2300:1", "2400:0.5"],
        40,
        "fewer than 30 games",
        "20.00",
        2370,
    ),
]


@pytest.mark.parametrize("rl,start,seed,born,opponents,k,why,exact,after", CASES)
def test_calc_equals_the_replay(
    rl: RatingList,
    start: str,
    seed: int,
    born: int | None,
    opponents: list[str],
    k: int,
    why: str,
    exact: str,
    after: int,
) -> None:
    args = ["--unrated", "--list", str(rl), "--standard-rating", str(seed), "--date", start]
    if born is not None:
        args += ["--birth-year", str(born)]
    data = _calc(*args, *opponents)
    row = _replay_row(rl, start, seed, opponents, born)
    assert row.out is not None and row.first is None
    assert row.rating_before == seed and row.rating_before_source.source is RatingSource.STANDARD
    # by hand
    assert data["k"] == k and data["k_reason"].startswith(why)
    assert data["change_exact"] == exact and data["rating_after"] == after
    # calc == replay
    assert str(row.period) == data["period"]
    assert (row.out.k, row.out.k_base) == (data["k"], data["k_base"])
    assert k_text(row.out.k_reason).startswith(why)
    assert str(row.out.change_exact) == data["change_exact"]
    assert row.out.change == data["change"]
    assert row.replayed == data["rating_after"] and row.published == after


def test_seeded_on_the_march_2024_list_is_compressed_like_the_replay() -> None:
    # Started 10 Feb 2024 -> the Mar 2024 list (the first seeding list). Standard 1720 (the
    # Feb list, in force at the start). vs 1720: D 0 -> 0.50; draw: change 0 -> 1720. Then
    # the Mar 2024 compression (spec 5, policy: all three lists): 1720 + 0.4 x (2000 - 1720)
    # = 1720 + 112 = 1832.
    data = _calc(
        "--unrated",
        "--list",
        "rapid",
        "--standard-rating",
        "1720",
        "--date",
        "2024-02-10",
        "1720:0.5",
    )
    assert data["period"] == "2024-03"
    assert data["rating_after"] == 1720 and data["adjusted_rating"] == 1832
    row = _replay_row(RAPID, "2024-02-10", 1720, ["1720:0.5"])
    assert row.replayed == 1832 and row.adjustment is not None


def test_seeded_player_700_rule_and_given_facts() -> None:
    # 20 games: 20 x 40 = 800 > 700 -> K 35 (spec 1.5). 20 draws vs 1720 (D 0, 0.50): 0 -> 1720.
    data = _calc(
        "--unrated",
        "--list",
        "rapid",
        "--standard-rating",
        "1720",
        "--date",
        "2025-10-10",
        *["1720:0.5"] * 20,
    )
    assert data["k_base"] == 40 and data["k"] == 35
    # --rated-games 40 on the rapid list (e.g. before a drop below the floor): K 20 (rule 4).
    data = _calc(
        "--unrated",
        "--list",
        "rapid",
        "--standard-rating",
        "1720",
        "--rated-games",
        "40",
        "--date",
        "2025-10-10",
        "1720:0",
    )
    assert data["k"] == 20 and data["rating_after"] == 1710
    # --k applies: the player is rated at the seed.
    data = _calc(
        "--unrated",
        "--list",
        "rapid",
        "--standard-rating",
        "1720",
        "--k",
        "20",
        "--date",
        "2025-10-10",
        "1720:0",
    )
    assert data["k"] == 20 and data["k_reason"] == "K given"


def test_before_march_2024_the_games_give_a_first_rating() -> None:
    # Started 10 Jan 2024 -> Feb 2024 list, 2014 formula: 5 draws vs 2000, 50% -> Ru = Ra =
    # 2000; the standard rating is not used, and calc says so.
    data = _calc(
        "--unrated",
        "--list",
        "rapid",
        "--standard-rating",
        "1720",
        "--date",
        "2024-01-10",
        *["2000:0.5"] * 5,
    )
    assert data["period"] == "2024-02" and data["rating"] == 2000
    assert data["note"].startswith("--standard-rating not used")
    # on the standard list it seeds nothing either
    data = _calc(
        "--unrated", "--standard-rating", "1720", "--date", "2025-10-10", *["2000:0.5"] * 5
    )
    assert data["note"] == "--standard-rating not used: it seeds only rapid and blitz ratings"


def test_the_rule_is_one_engine_function_and_the_replay_asks_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Spec section 4, under "From 1 Mar 2024": rapid and blitz only, from the Mar 2024 list.
    # Checked the day before and the day of every edition boundary of every list.
    checked = 0
    for rl, editions in EDITIONS.items():
        first_day = min(ed.effective_from for ed in editions)
        for ed in editions:
            for on in (ed.effective_from - dt.timedelta(days=1), ed.effective_from):
                if on < first_day:
                    continue
                expected = rl != RatingList.STANDARD and on >= dt.date(2024, 3, 1)
                assert seeds_from_standard(rl, on) is expected, (rl, on)
                checked += 1
    assert checked > 20
    assert standard_seed(RAPID, dt.date(2024, 3, 1), 1720) == 1720
    assert standard_seed(RAPID, dt.date(2024, 2, 1), 1720) is None
    assert standard_seed(RatingList.STANDARD, dt.date(2025, 3, 1), 1720) is None
    assert standard_seed(BLITZ, dt.date(2025, 3, 1), None) is None
    # The replay has no copy of the rule: it asks tracker.fide.seeds_from_standard. Told
    # "no", it pools the games toward a first rating instead of rating them from 1720.
    assert _replay_row(RAPID, "2025-10-10", 1720, ["1500:1"]).rating_before == 1720
    asked: list[tuple[RatingList, dt.date]] = []

    def no(rl: RatingList, on: dt.date) -> bool:
        asked.append((rl, on))
        return False

    replay_module = importlib.import_module("tracker.periods.replay")  # not the function
    monkeypatch.setattr(replay_module, "seeds_from_standard", no)
    row = _replay_row(RAPID, "2025-10-10", 1720, ["1500:1"])
    assert asked == [(RAPID, dt.date(2025, 11, 1))]
    assert row.rating_before is None and row.out is None and row.first is not None


def _two_periods(
    seed: int, born: int | None, first: list[int], first_scores: list[Fraction], second: int
) -> tuple[PeriodRow, PeriodRow]:
    """Rapid replay: standard `seed` on the Oct 2025 list, no rapid rating; a tournament on
    10 Oct 2025 (opponents `first`, scores `first_scores`: the Nov 2025 list, seeded) and one
    on 10 Nov 2025 (a loss against `second`: the Dec 2025 list)."""
    dates = [dt.date(2025, 10, 10), dt.date(2025, 11, 10)]
    ts = [TournamentFact(i, f"T{i}", start=d, end=d) for i, d in enumerate(dates, 1)]
    games = [(1, dates[0], opp, sc) for opp, sc in zip(first, first_scores, strict=True)]
    games.append((2, dates[1], second, Fraction(0)))
    gs = [
        GameFact(
            id=n,
            tournament_id=tid,
            date=d,
            round=str(n),
            white=True,
            opponent_id=50 + n,
            opponent=f"Opp {n}",
            own_elo=None,
            opponent_elo=opp,
            result="*",
            score=sc,
            rating_list=RAPID,
        )
        for n, (tid, d, opp, sc) in enumerate(games, 1)
    ]
    rp = replay(
        ReplayInputs(
            RAPID,
            gs,
            ts,
            [],
            PlayerInfo(birth_year=born),
            standard_ratings={Period(2025, 10): seed},
        )
    )
    nov, dec = rp.row(Period(2025, 11)), rp.row(Period(2025, 12))
    assert nov is not None and nov.out is not None and dec is not None and dec.out is not None
    assert nov.rating_before == seed and nov.rating_before_source.source is RatingSource.STANDARD
    return nov, dec


def test_a_seed_of_2400_is_a_published_2400_for_good(monkeypatch: pytest.MonkeyPatch) -> None:
    # Policy SEED_COUNTS_AS_PUBLISHED_FOR_K (docs/rules.md): the seed counts as a rating
    # published on the rapid list, so a seed >= 2400 is "a published rating of 2400 or more,
    # ever, on that list" (spec section 3 rule 1): K 10, permanently.
    # Nov 2025 (seeded at 2405): K 10 (rule 1). Loss vs 2300: D = 2405 - 2300 = +105 ->
    #   row 99,106 -> PD 0.64 (p_high); 0 - 0.64 = -0.64; x 10 = -6.40 -> -6 -> 2399.
    # Dec 2025: Ro 2399 (the replayed Nov rapid list, in force on 10 Nov). Rule 1 still holds
    #   (2400 ever, from the seed), although 2399 < 2400: K 10. Loss vs 2395: D = +4 ->
    #   row 4,10 -> PD 0.51; -0.51 x 10 = -5.10 -> -5 -> 2394.
    # (Before this policy was made consistent the Dec period fell back to K 40.)
    from tests.conftest import REPO

    assert "`SEED_COUNTS_AS_PUBLISHED_FOR_K`" in (REPO / "docs" / "rules.md").read_text(
        encoding="utf-8"
    )
    monkeypatch.setattr(policies, "SEED_COUNTS_AS_PUBLISHED_FOR_K", True)
    nov, dec = _two_periods(2405, None, [2300], [Fraction(0)], 2395)
    assert nov.out is not None and dec.out is not None
    assert nov.out.k == 10 and nov.published == 2399
    assert k_text(nov.out.k_reason) == "2400 reached"
    assert nov.facts.ever_2400 and dec.facts.ever_2400
    assert dec.rating_before == 2399 and dec.out.k == 10
    assert k_text(dec.out.k_reason) == "2400 reached"
    assert str(dec.out.change_exact) == "-5.10" and dec.published == 2394
    # calc on the seeded period gives the same
    data = _calc(
        "--unrated",
        "--list",
        "rapid",
        "--standard-rating",
        "2405",
        "--date",
        "2025-10-10",
        "2300:0",
    )
    assert data["k"] == 10 and data["rating_after"] == 2399


def test_a_seed_of_2400_without_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    # SEED_COUNTS_AS_PUBLISHED_FOR_K False: the seed is only where the rating starts; K from
    # the rapid facts alone.
    # Nov 2025: no rapid game completed, adult -> K 40 (rule 3). Loss vs 2300: D +105 -> 0.64;
    #   -0.64 x 40 = -25.60 -> -26 -> 2379.
    # Dec 2025: 1 rapid game completed -> K 40 (rule 3). Ro 2379, loss vs 2395: D = -16 ->
    #   row 11,17 -> PD 0.48 (p_low); -0.48 x 40 = -19.20 -> -19 -> 2360.
    monkeypatch.setattr(policies, "SEED_COUNTS_AS_PUBLISHED_FOR_K", False)
    nov, dec = _two_periods(2405, None, [2300], [Fraction(0)], 2395)
    assert nov.out is not None and dec.out is not None
    assert nov.out.k == 40 and k_text(nov.out.k_reason).startswith("fewer than 30 games")
    assert str(nov.out.change_exact) == "-25.60" and nov.published == 2379
    assert not dec.facts.ever_2400
    assert dec.out.k == 40 and str(dec.out.change_exact) == "-19.20" and dec.published == 2360
    data = _calc(
        "--unrated",
        "--list",
        "rapid",
        "--standard-rating",
        "2405",
        "--date",
        "2025-10-10",
        "2300:0",
    )
    assert data["k"] == 40 and data["change_exact"] == "-25.60" and data["rating_after"] == 2379


# A junior (born 2012: 2025 - 2012 = 13 <= 18) seeded at 2300 plays 30 games in Nov 2025
# (29 draws, 1 loss, all vs 2300: D 0 -> PD 0.50; sum 29 x 0 - 0.50 = -0.50), then loses
# once in Dec 2025 against an opponent rated as they are then (D 0 -> 0.50: -0.50).
#   Nov, K: rule 1 no (2300 < 2400). Rule 2 is the policy's question. Rule 3: no rapid game
#   completed -> 40 either way. 700 rule: 30 x 40 = 1200 > 700 -> K = 700 // 30 = 23.
#   -0.50 x 23 = -11.50 -> -12 (.5 away from zero) -> 2288.
#   Dec: 30 rapid games completed (rule 3 no longer applies).
JUNIOR_NOV = ([2300] * 30, [Fraction(1, 2)] * 29 + [Fraction(0)])


def test_a_seed_of_2300_ends_the_junior_k_for_good(monkeypatch: pytest.MonkeyPatch) -> None:
    # Policy True: the seed 2300 "reached 2300" (rule 2): in Dec the junior, rated 2288, is
    # not on junior K 40: rule 4, K 20. -0.50 x 20 = -10.00 -> -10 -> 2278.
    monkeypatch.setattr(policies, "SEED_COUNTS_AS_PUBLISHED_FOR_K", True)
    nov, dec = _two_periods(2300, 2012, *JUNIOR_NOV, 2288)
    assert nov.out is not None and dec.out is not None
    assert (nov.out.k_base, nov.out.k) == (40, 23) and nov.published == 2288
    assert dec.facts.reached_2300 and dec.facts.rated_games == 30
    assert dec.out.k == 20 and k_text(dec.out.k_reason).startswith("30 games completed")
    assert str(dec.out.change_exact) == "-10.00" and dec.published == 2278


def test_a_seed_of_2300_without_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    # Policy False: the junior never reached 2300 on the rapid list (2288 published): in Dec
    # rule 2 gives K 40. -0.50 x 40 = -20.00 -> -20 -> 2268. In Nov the junior K 40 applies
    # as well (rule 2 before rule 3; same 40, cut to 23 by the 700 rule).
    monkeypatch.setattr(policies, "SEED_COUNTS_AS_PUBLISHED_FOR_K", False)
    nov, dec = _two_periods(2300, 2012, *JUNIOR_NOV, 2288)
    assert nov.out is not None and dec.out is not None
    assert nov.out.k == 23 and nov.published == 2288
    assert k_text(nov.out.k_reason).startswith("junior")
    assert not dec.facts.reached_2300
    assert dec.out.k == 40 and k_text(dec.out.k_reason).startswith("junior")
    assert str(dec.out.change_exact) == "-20.00" and dec.published == 2268
