"""Why a tournament is left out of a first rating: `first_rating` gives the true reason of
each ignored tournament (`ignored_reasons`), and `tracker calc --unrated` prints it.

Rules (shared/spec/fide-rules.md section 4, from Mar 2024): games pooled over at most 26
months (policy: by tournament start, from the 1st of the month 26 months before the list
month); a zero score in the first event disregards that event. 5 games needed.
"""

from __future__ import annotations

import datetime as dt
import json
from fractions import Fraction
from typing import Any

from typer.testing import CliRunner

from tracker.cli import app
from tracker.fide import GameIn, TournamentIn, first_rating
from tracker.model import RatingList
from tracker.reports.rulewords import ignored_text

STD = RatingList.STANDARD
HALF, ZERO = Fraction(1, 2), Fraction(0)
runner = CliRunner()


def _calc(*args: str) -> tuple[dict[str, Any], str]:
    data = runner.invoke(app, ["calc", "--format", "json", *args])
    assert data.exit_code == 0, data.output
    table = runner.invoke(app, ["calc", *args])
    assert table.exit_code == 0, table.output
    parsed: dict[str, Any] = json.loads(data.stdout)
    return parsed, " ".join(table.stdout.split())


def test_zero_score_in_the_first_event() -> None:
    # Started 1 Nov 2025 -> Dec 2025 list. 0/2: the first (only) event is disregarded.
    data, table = _calc("--unrated", "--date", "2025-11-01", "1800:0", "1700:0")
    assert data["ignored"] == ["the games given"]
    assert data["ignored_reasons"] == ["zero score in the first event"]
    assert data["rating"] is None and data["games_counted"] == 0
    assert "ignored: the games given (zero score in the first event)" in table


def test_outside_the_26_month_window_is_not_called_a_zero_score() -> None:
    # Started 10 Jan 2022, rated (late) on the May 2024 list: the window starts 26 months
    # before May 2024, 1 Mar 2022, so the tournament is out, whatever its score (here 5
    # draws: 2.5 points, not zero).
    why = "started 2022-01-10, outside the 26-month window (from 2022-03-01)"
    data, table = _calc(
        "--unrated", "--date", "2022-01-10", "--period", "2024-05", *["2000:0.5"] * 5
    )
    assert data["ignored_reasons"] == [why]
    assert data["rating"] is None
    assert f"ignored: the games given ({why})" in table
    assert "zero score" not in table
    # a zero score outside the window: the window is the reason (it is checked first)
    data, _ = _calc("--unrated", "--date", "2022-01-10", "--period", "2024-05", *["2000:0"] * 5)
    assert data["ignored_reasons"] == [why]


def test_nothing_ignored_prints_no_ignored_line() -> None:
    data, table = _calc(
        "--unrated", "--date", "2025-11-01", "1850:1", "1700:0", "2010:0.5", "1600:1", "1750:0"
    )
    assert data["ignored"] == [] and data["ignored_reasons"] == []
    assert "ignored" not in table


def _t(start: dt.date, score: Fraction, label: str) -> TournamentIn:
    return TournamentIn(start, None, tuple(GameIn(1800, score) for _ in range(5)), label=label)


def test_engine_gives_one_reason_per_ignored_tournament() -> None:
    # Nov 2025 list: the window starts 1 Sep 2023. "old" (31 Aug 2023) is out; "spring" is
    # the first event of the pool and scores 0/5: disregarded; "autumn" 5 draws vs 1800 ->
    # Ra = 1800, p = 0.50 -> 1800. "late" starts after the list date: out.
    old = _t(dt.date(2023, 8, 31), HALF, "old")
    spring = _t(dt.date(2025, 3, 1), ZERO, "spring")
    autumn = _t(dt.date(2025, 9, 1), HALF, "autumn")
    late = _t(dt.date(2025, 11, 2), HALF, "late")
    out = first_rating([late, autumn, spring, old], rating_list=STD, list_date=dt.date(2025, 11, 1))
    assert out.rating == 1800 and out.used_tournaments == ("autumn",)
    reasons = (ignored_text(why) for why in out.ignored_reasons)
    assert dict(zip(out.ignored, reasons, strict=True)) == {
        "old": "started 2023-08-31, outside the 26-month window (from 2023-09-01)",
        "spring": "zero score in the first event",
        "late": "started 2025-11-02, after the list date",
    }
