""" "K fixed by the rating at the tournament start" (spec section 2, row "1 Jul 2009").

From the Jul 2009 list each tournament of a period is rated with the K the player had at its
start: the K of the list in force on its start date (section 1.2: the list whose ratings it
uses), from what was known then, or the official K recorded on that list (section 3). The
change is the sum over tournaments of K_t x (its sum of Deltas), rounded once per period
(section 1.6). When the rule ended is UNSETTLED: policy K_BY_TOURNAMENT_START_UNTIL, the Jul
2017 edition (its 700 rule cuts one K over all the period's games, section 1.5).

Every expected number is derived by hand below from the rulebook and table 8.1.2, never from
running tracker code. Rows of table 8.1.2 used (d_min,d_max,p_high,p_low):
0,3,0.50,0.50 | 47,53,0.57,0.43 | 84,91,0.62,0.38 | 92,98,0.63,0.37 | 99,106,0.64,0.36.
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
from tests.test_rules_standard import _pgn
from tracker.check import BASE_CORRECTION, K_DIFFERS, CheckRow, reconcile
from tracker.fide import (
    EDITIONS,
    GameIn,
    KAtStart,
    KSaid,
    KSource,
    PlayerFacts,
    TournamentIn,
    edition_for,
    policies,
    rate_period,
)
from tracker.model import OfficialEntry, Period, RatingList
from tracker.periods import PlayerInfo, replay
from tracker.reports.causes import cause_text
from tracker.reports.rulewords import k_text

STD = RatingList.STANDARD
ONE, HALF = Fraction(1), Fraction(1, 2)
ESTABLISHED = PlayerInfo(birth_year=1970, rated_games=100)


def _d(day: str) -> dt.date:
    return dt.date.fromisoformat(day)


def _official_at(k: int) -> KAtStart:
    """The K `k` printed on the Jan 2010 list (rating 2390), in force at a start."""
    return KAtStart(Period(2010, 1), 2390, KSaid(KSource.OFFICIAL, k))


def _t(
    start: str, ro: int, *games: tuple[int, Fraction], label: str, k_start: int | None = None
) -> TournamentIn:
    return TournamentIn(
        _d(start),
        ro,
        tuple(GameIn(r, s) for r, s in games),
        label,
        k_start=k_start,
        k_start_reason=None if k_start is None else _official_at(k_start),
    )


class Season(Replay):
    """A tiny standard season for the pure replay (tests/builders.py's Replay: player id 1,
    opponents get fresh ids)."""

    def __init__(self, info: PlayerInfo = ESTABLISHED) -> None:
        super().__init__(info)

    def tournament(
        self, name: str, start: str, end: str, *games: tuple[str, int, Fraction]
    ) -> None:
        """A tournament of `games` (day, opponent rating, score)."""
        tid = self.t(name, start, end)
        for day, r, s in games:
            self.g(tid, r, s, day=day)


def _crossing_2400(s: Season) -> None:
    # Jan 2010 list 2390 (under 2400, 100 games completed: K 15 in the K 25/15/10 era),
    # Mar 2010 list 2405 (2400 reached: K 10 for good). Lists every two months, 7 closing
    # days (section 2, Jul 2009).
    # "Winter League" starts 20 Feb 2010 under the Jan list (Ro 2390, K 15) and ends 20 Apr,
    # 11 days before 1 May: the May 2010 list. Beats 2300: D 90 -> 84-91 -> 0.62: +0.38;
    # draws 2390: D 0 -> 0.50: 0.
    # "Spring Open" starts 10 Mar 2010 under the Mar list (Ro 2405, K 10), ends 12 Mar: the
    # May list too. Beats 2300: D 105 -> 99-106 -> 0.64: +0.36.
    s.off("2010-01", 2390)
    s.off("2010-03", 2405)
    s.tournament(
        "Winter League",
        "2010-02-20",
        "2010-04-20",
        ("2010-02-20", 2300, ONE),
        ("2010-04-20", 2390, HALF),
    )
    s.tournament("Spring Open", "2010-03-10", "2010-03-12", ("2010-03-10", 2300, ONE))


# --- the editions ------------------------------------------------------------------------------


def test_the_editions_flag_from_jul_2009_to_the_policy_end() -> None:
    # Section 2: "1 Jul 2009 ... K fixed by the rating at the tournament start"; the end is
    # the policy (Jul 2017, with the 700 rule); a standard-list row: never rapid or blitz.
    until = policies.K_BY_TOURNAMENT_START_UNTIL
    assert until == dt.date(2017, 7, 1)
    flags = [
        (d, edition_for(STD, _d(d)).k_by_tournament_start)
        for d in (
            "2009-06-30",
            "2009-07-01",
            "2011-07-01",
            "2014-07-01",
            "2017-06-30",
            "2017-07-01",
            "2025-10-01",
        )
    ]
    assert flags == [
        ("2009-06-30", False),
        ("2009-07-01", True),
        ("2011-07-01", True),
        ("2014-07-01", True),
        ("2017-06-30", True),
        ("2017-07-01", False),
        ("2025-10-01", False),
    ]
    for e in EDITIONS[STD]:
        assert not (e.k_by_tournament_start and e.rule_700)
    for rl in (RatingList.RAPID, RatingList.BLITZ):
        assert not any(e.k_by_tournament_start for e in EDITIONS[rl])


# --- the engine: each tournament with its K, rounded once ----------------------------------------


def test_each_tournament_with_its_start_k_rounded_once() -> None:
    # May 2010 list, period K 10 (2405 >= 2400). Winter League with its start K 15:
    # 15 x 0.38 = 5.70; Spring Open with K 10: 10 x 0.36 = 3.60. Sum 9.30 -> 9 -> 2414.
    # Rounded per tournament it would be 6 + 4 = 10; with one K 10: 7.40 -> 7.
    out = rate_period(
        2405,
        [
            _t("2010-02-20", 2390, (2300, ONE), (2390, HALF), label="Winter League", k_start=15),
            _t("2010-03-10", 2405, (2300, ONE), label="Spring Open", k_start=10),
        ],
        rating_list=STD,
        list_date=_d("2010-05-01"),
        facts=PlayerFacts(rated_games=100),
    )
    assert (out.k, out.k_by_tournament) == (10, True)
    assert [(t.k, t.k_change) for t in out.tournaments] == [
        (15, Decimal("5.70")),
        (10, Decimal("3.60")),
    ]
    assert (out.change_exact, out.change, out.rating_after) == (Decimal("9.30"), 9, 2414)
    said = out.tournaments[0].k_reason
    assert said == KSaid(KSource.AT_START, 15, start=_official_at(15))
    assert k_text(said) == "the K of the 2010-01 list, in force at its start: official K"
    assert out.tournaments[1].k_reason is None


def test_a_given_k_replaces_every_tournament_k() -> None:
    # `k` given (a user's --k, a what-if): K 20 for both: 20 x (0.38 + 0.36) = 14.80 -> 15.
    out = rate_period(
        2405,
        [
            _t("2010-02-20", 2390, (2300, ONE), label="A", k_start=15),
            _t("2010-03-10", 2405, (2300, ONE), label="B"),
        ],
        rating_list=STD,
        list_date=_d("2010-05-01"),
        facts=PlayerFacts(rated_games=100),
        k=20,
    )
    assert [t.k for t in out.tournaments] == [20, 20]
    assert (out.k_by_tournament, out.change_exact, out.rating_after) == (
        False,
        Decimal("14.80"),
        2420,
    )


@pytest.mark.parametrize(
    "list_date,start_a,start_b",
    [
        ("2009-04-01", "2008-12-20", "2009-01-10"),  # quarterly era, before the row
        ("2017-09-01", "2017-05-20", "2017-07-10"),  # after the policy end: one K (section 1.5)
    ],
)
def test_one_k_outside_the_rule(list_date: str, start_a: str, start_b: str) -> None:
    # Same games, K 15 given as A's start K, period K 10: 10 x (0.38 + 0.36) = 7.40 -> 7.
    out = rate_period(
        2405,
        [
            _t(start_a, 2390, (2300, ONE), label="A", k_start=15),
            _t(start_b, 2405, (2300, ONE), label="B"),
        ],
        rating_list=STD,
        list_date=_d(list_date),
        facts=PlayerFacts(rated_games=100),
    )
    assert [t.k for t in out.tournaments] == [10, 10]
    assert (out.k_by_tournament, out.change_exact, out.rating_after) == (
        False,
        Decimal("7.40"),
        2412,
    )


def test_rapid_never_has_it() -> None:
    # Rapid 2013: K 20 for everyone (section 2, 1 Jan 2012); a start K is ignored:
    # 20 x 0.38 = 7.60 -> 8.
    out = rate_period(
        2390,
        [_t("2013-01-10", 2390, (2300, ONE), label="A", k_start=15)],
        rating_list=RatingList.RAPID,
        list_date=_d("2013-03-01"),
        facts=PlayerFacts(rated_games=100),
    )
    assert ([t.k for t in out.tournaments], out.rating_after) == ([20], 2398)


# --- the replay: the K of the list in force at each tournament's start ----------------------------


def test_crossing_2400_between_start_and_period() -> None:
    # See _crossing_2400: K 15 for Winter League (derived on the Jan 2010 list: 2390, 100
    # games), K 10 for Spring Open and the period: 5.70 + 3.60 = 9.30 -> 9 -> 2405 + 9 = 2414.
    s = Season()
    _crossing_2400(s)
    row = replay(s.inputs()).row(Period(2010, 5))
    assert row is not None and row.out is not None
    assert [(t.label, t.k) for t in row.out.tournaments] == [
        ("Winter League", 15),
        ("Spring Open", 10),
    ]
    said = row.out.tournaments[0].k_reason
    assert said is not None and "the K of the 2010-01 list" in k_text(said)
    assert (row.k, row.out.change_exact, row.published) == (10, Decimal("9.30"), 2414)


def test_the_same_season_after_the_policy_end_has_one_k() -> None:
    # The same situation in 2018 (monthly lists, 3 closing days): Jan 2018 list 2390 (K 20 in
    # the 40/20/10 era), Feb 2018 list 2405 (K 10). Winter League starts 20 Jan 2018 (under
    # the Jan list, Ro 2390), ends 20 Mar: the Apr 2018 list; Spring Open starts 10 Mar
    # (under the Mar list, which carries 2405: Ro 2405), ends 12 Mar: Apr too.
    # One K 10 (section 1.5): 10 x (0.38 + 0.36) = 7.40 -> 7 -> 2412 (with Winter League at
    # K 20 it would be 7.60 + 3.60 = 11.20 -> 2416).
    s = Season()
    s.off("2018-01", 2390)
    s.off("2018-02", 2405)
    s.tournament(
        "Winter League",
        "2018-01-20",
        "2018-03-20",
        ("2018-01-20", 2300, ONE),
        ("2018-03-20", 2390, HALF),
    )
    s.tournament("Spring Open", "2018-03-10", "2018-03-12", ("2018-03-10", 2300, ONE))
    row = replay(s.inputs()).row(Period(2018, 4))
    assert row is not None and row.out is not None
    assert [t.k for t in row.out.tournaments] == [10, 10]
    assert (row.k, row.out.change_exact, row.published) == (10, Decimal("7.40"), 2412)


def test_reaching_30_games_between_start_and_period() -> None:
    # Jan 2010 list 1800, 24 games completed before the database: K 25 (fewer than 30,
    # before Jul 2011). "Club Cup" 5-20 Jan 2010 -> Mar 2010 list: 6 draws against 1800
    # (D 0 -> 0.50: 0 each): 1800 + 0 = 1800, and 30 games completed after the Mar list.
    # "Long League" starts 10 Feb under the Jan list (24 games: K 25), ends 20 Apr -> May;
    # Ro 1800, beats 1700: D 100 -> 99-106 -> 0.64: +0.36.
    # "Easter Open" starts 10 Mar under the Mar list (30 games: K 15), ends 12 Mar -> May;
    # Ro 1800 (the Mar list), beats 1750: D 50 -> 47-53 -> 0.57: +0.43.
    # May: 25 x 0.36 + 15 x 0.43 = 9.00 + 6.45 = 15.45 -> 15 -> 1815 (one K 15: 11.85 -> 12).
    s = Season(PlayerInfo(birth_year=1970, rated_games=24))
    s.off("2010-01", 1800)
    s.tournament("Club Cup", "2010-01-05", "2010-01-20", *[("2010-01-05", 1800, HALF)] * 6)
    s.tournament("Long League", "2010-02-10", "2010-04-20", ("2010-02-10", 1700, ONE))
    s.tournament("Easter Open", "2010-03-10", "2010-03-12", ("2010-03-10", 1750, ONE))
    rows = {str(r.period): r for r in replay(s.inputs()).rows}
    assert (rows["2010-03"].k, rows["2010-03"].published) == (25, 1800)
    may = rows["2010-05"]
    assert may.out is not None
    assert [(t.label, t.k) for t in may.out.tournaments] == [
        ("Long League", 25),
        ("Easter Open", 15),
    ]
    assert (may.k, may.out.change_exact, may.published) == (15, Decimal("15.45"), 1815)


def test_official_k_recorded_on_the_start_list_wins() -> None:
    # _crossing_2400 with the official K 25 recorded on the Jan 2010 list (section 3: the
    # official value wins over the derived 15): 25 x 0.38 + 10 x 0.36 = 9.50 + 3.60 = 13.10
    # -> 13 -> 2418.
    s = Season()
    _crossing_2400(s)
    s.official[0] = OfficialEntry(1, STD, Period(2010, 1), 2390, k=25)
    row = replay(s.inputs()).row(Period(2010, 5))
    assert row is not None and row.out is not None
    assert [t.k for t in row.out.tournaments] == [25, 10]
    said = row.out.tournaments[0].k_reason
    assert said is not None and said.start is not None
    assert said.start.said.source is KSource.OFFICIAL and "official K" in k_text(said)
    assert (row.out.change_exact, row.published) == (Decimal("13.10"), 2418)


def test_start_list_before_the_replay_keeps_the_period_k() -> None:
    # Winter League starts 20 Dec 2009, under the Nov 2009 list, before the replay's start
    # (the official Jan 2010 list): the replay knows no K there, the period's K 10 applies:
    # 10 x (0.38 + 0.36) = 7.40 -> 7 -> 2412.
    s = Season()
    s.off("2010-01", 2390)
    s.off("2010-03", 2405)
    s.tournament("Winter League", "2009-12-20", "2010-04-20", ("2009-12-20", 2300, ONE))
    s.tournament("Spring Open", "2010-03-10", "2010-03-12", ("2010-03-10", 2300, ONE))
    row = replay(s.inputs()).row(Period(2010, 5))
    assert row is not None and row.out is not None
    # Winter League's Ro: no list of the replay in force at its start -> Ro 2405 (the rating
    # before the period), D 105 -> 0.64: +0.36; Spring Open +0.36: 10 x 0.72 = 7.20 -> 7.
    assert [t.k for t in row.out.tournaments] == [10, 10]
    assert (row.out.change_exact, row.published) == (Decimal("7.20"), 2412)


# --- check: the what-ifs of such a period --------------------------------------------------------


def _check_row(official_may: int) -> CheckRow:
    s = Season()
    _crossing_2400(s)
    s.off("2010-05", official_may)
    report = reconcile(s.inputs(), player="Test")
    return next(r for r in report.rows if r.period == Period(2010, 5))


def test_check_one_k_for_every_tournament_is_a_cause() -> None:
    # Replay 2414 (K 15 and K 10). FIDE 2412 is one K 10 for the period: 7.40 -> 7 -> 2412.
    row = _check_row(2412)
    assert (row.replayed, row.official, row.k) == (2414, 2412, 10)
    k = [c for c in row.causes if c.kind == K_DIFFERS and c.reproduces]
    assert len(k) == 1
    assert "K 10 for every tournament" in cause_text(k[0])
    assert "K 15 for Winter League" in cause_text(k[0])


def test_check_base_correction_keeps_each_tournament_k() -> None:
    # FIDE 2413: the period started from 2404 (a one-point base correction): Spring Open's
    # Ro 2404 (its Ro was the rating before the period), D 104 -> 0.64, unchanged; Winter League
    # keeps Ro 2390 and K 15: 9.30 -> 9 -> 2413. (Had the what-if given K 10 to both it
    # would be 2404 + 7 = 2411.)
    row = _check_row(2413)
    base = [c for c in row.causes if c.kind == BASE_CORRECTION]
    assert len(base) == 1 and base[0].reproduces
    assert "from 2404" in cause_text(base[0])


# --- end to end: import, official add, player set, history, explain, next ----------------------


@pytest.fixture
def cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., str]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)

    def run(*args: str) -> str:
        code, out, err = run_cli(capsys, monkeypatch, *args, "--db", "k.db")
        assert code == 0, err
        return out

    return run


ANNA = "Audit, Anna:99000001"


def test_cli_each_tournament_with_its_start_k(tmp_path: Path, cli: Callable[..., str]) -> None:
    # _crossing_2400 through the command line: the same numbers (K 15 and K 10, 9.30 -> 2414).
    (tmp_path / "k.pgn").write_text(
        _pgn(
            "Winter League",
            "2010.02.20",
            [
                ("2010.02.20", ANNA, "A:99000011", 2390, 2300, "1-0"),
                ("2010.04.20", "B:99000012", ANNA, 2390, 2390, "1/2-1/2"),
            ],
        )
        + "\n"
        + _pgn(
            "Spring Open",
            "2010.03.10",
            [
                ("2010.03.10", ANNA, "C:99000013", 2405, 2300, "1-0"),
            ],
        ),
        encoding="utf-8",
    )
    cli("import", "k.pgn")
    cli("official", "add", "99000001", "--period", "2010-01", "--rating", "2390")
    cli("official", "add", "99000001", "--period", "2010-03", "--rating", "2405")
    cli("player", "set", "99000001", "--rated-games", "100")
    rows = {r["period"]: r for r in json.loads(cli("history", "99000001", "-f", "json"))}
    may = rows["2010-05"]
    assert (
        may["rating_before"],
        may["k"],
        may["change_exact"],
        may["change"],
        may["rating_after"],
    ) == (2405, 10, "9.30", 9, 2414)
    assert "K by tournament start: Winter League 15" in may["note"]
    text = cli("explain", "99000001", "2010-05")
    assert "K 10: 2400 reached" in text
    assert (
        "  K 15 for this tournament: the K of the 2010-01 list, in force at its start "
        "(2390): 100 games completed, under 2400"
    ) in text
    assert "sum of each tournament's K x chg = +9.30, rounded once" in text
    assert "Rating after: 2405 +9 = 2414" in text
    assert "K 10 (Winter League 15)" in cli("next", "99000001")
