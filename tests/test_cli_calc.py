"""`tracker calc` (issue 2): table and JSON output, first ratings, bad input.

Expected numbers are derived from FIDE's table 8.1.2 / 8.1.1 and the spec (inline).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import REPO, run_cli
from tracker.cli import app, main

runner = CliRunner()


def _json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["calc", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_dutch_seed_example_json() -> None:
    # 003_5898fcf1537b632d.txt (nl): 1500, K 20: +7.2 +2.8 -8.6 = +1.4 -> 1501
    data = _json(
        "--rating", "1500", "--k", "20", "--date", "2025-11-01", "1400:1", "1600:1/2", "1550:0"
    )
    assert data["k"] == 20
    assert data["change_exact"] == "1.40"
    assert data["change"] == 1
    assert data["rating_after"] == 1501
    assert [g["expected"] for g in data["games"]] == ["0.64", "0.36", "0.43"]
    assert [g["score"] for g in data["games"]] == ["1", "0.5", "0"]
    assert [g["change"] for g in data["games"]] == ["0.36", "0.14", "-0.43"]
    assert [g["difference_used"] for g in data["games"]] == [100, -100, -50]


def test_2650_example_json() -> None:
    # issue 2: 2813, K 10, 7 Nov 2025: true D (2650 rule); -0.25 x 10 = -2.5 -> -3 -> 2810
    data = _json(
        "--rating",
        "2813",
        "--k",
        "10",
        "--date",
        "2025-11-07",
        "1787:1",
        "2025:1",
        "2310:1",
        "2400:1",
        "2505:0.5",
    )
    assert [g["difference_used"] for g in data["games"]] == [1026, 788, 503, 413, 308]
    assert not any(g["capped"] for g in data["games"])
    assert data["change_exact"] == "-2.50" and data["change"] == -3
    assert data["rating_after"] == 2810


def test_capped_game_is_marked_in_the_table() -> None:
    # 003 (nl) cap example: 1500 beats 1000, K 20: D 500 counts as 400 (0.92): +1.6
    result = runner.invoke(
        app, ["calc", "--rating", "1500", "--k", "20", "--date", "2025-11-01", "1000:1"]
    )
    assert result.exit_code == 0, result.output
    assert "+400 (capped)" in result.stdout
    assert "0.92" in result.stdout
    assert "+1.60" in result.stdout
    assert "new rating 1502" in result.stdout


def test_junior_k_and_700_rule_from_facts() -> None:
    # born 2010, 12 games, Mar 2025: junior K 40; with --period-games 20: 20 x 40 > 700 -> 35
    data = _json(
        "--rating",
        "1950",
        "--birth-year",
        "2010",
        "--rated-games",
        "12",
        "--date",
        "2025-03-01",
        "--period-games",
        "20",
        "1800:1",
    )
    assert data["k_base"] == 40 and data["k"] == 35
    assert "junior (born 2010, under 2300)" in data["k_reason"]
    assert "700 rule: 20 games x 40 > 700 -> 35" in data["k_reason"]
    # D = 150 (146-153 -> 0.70): 35 x 0.30 = 10.5 -> +11 (half away from zero)
    assert data["change_exact"] == "10.50" and data["change"] == 11
    table = runner.invoke(
        app,
        [
            "calc",
            "--rating",
            "1950",
            "--birth-year",
            "2010",
            "--rated-games",
            "12",
            "--date",
            "2025-03-01",
            "--period-games",
            "20",
            "1800:1",
        ],
    )
    assert "K 35 (junior (born 2010, under 2300); 700 rule" in table.stdout


@pytest.mark.parametrize(
    "date,period,k,after",
    [
        ("2025-12-10", "2026-01", 40, 2020),
        ("2026-01-10", "2026-02", 20, 2010),
    ],
)
def test_junior_k_by_the_year_of_the_previous_list(
    date: str, period: str, k: int, after: int
) -> None:
    # Spec section 3 rule 2: "a junior born in 2007 plays December 2025 with K 40, and that
    # period is rated on the January 2026 list with K 40; the K printed on the January 2026
    # list (20) is used from February". 2000 beats 2000 (D 0 -> PD 0.50): +0.50 x K.
    data = _json(
        "--rating", "2000", "--birth-year", "2007", "--rated-games", "200", "--date", date, "2000:1"
    )
    assert data["period"] == period and data["k"] == k and data["rating_after"] == after


def test_k_defaults_to_an_established_player() -> None:
    data = _json("--rating", "1500", "--date", "2025-11-01", "1500:1")
    assert data["k"] == 20 and "give --rated-games" in data["k_reason"]
    data = _json("--rating", "2450", "--date", "2025-11-01", "1500:1")
    assert data["k"] == 10


def test_rapid_list_600_rule() -> None:
    # rapid, Dec 2024 on: 2700 vs 2050 is 650 apart with a player above 2600: not rated
    data = _json(
        "--rating",
        "2700",
        "--k",
        "20",
        "--list",
        "rapid",
        "--date",
        "2025-01-10",
        "2050:1",
        "2650:0.5",
    )
    assert data["games"][0]["counted"] is False
    assert data["games"][0]["reason"] == "rb-600-rule"
    assert data["games_counted"] == 1


def test_below_the_floor() -> None:
    data = _json("--rating", "1405", "--k", "20", "--date", "2025-11-01", "1405:0")
    assert data["rating_after"] is None
    assert data["reason"] == "below the floor of 1400: published as unrated"


def test_compression_shown_in_march_2024() -> None:
    # Tournament starts 2024-02-10; the first list after it (monthly era, 3 closing days) is
    # Mar 2024. 1600 beats 1600 (D 0 -> 0.50), K 20: +10 -> 1610; Mar 2024 compression:
    # 1610 + 0.4 x (2000 - 1610) = 1610 + 156 = 1766.
    data = _json("--rating", "1600", "--k", "20", "--date", "2024-02-10", "1600:1")
    assert data["date"] == "2024-02-10" and data["period"] == "2024-03"
    assert data["rating_after"] == 1610 and data["adjusted_rating"] == 1766
    # The same games rated on the Mar list explicitly: same numbers.
    data = _json(
        "--rating", "1600", "--k", "20", "--date", "2024-02-10", "--period", "2024-03", "1600:1"
    )
    assert data["period"] == "2024-03" and data["adjusted_rating"] == 1766


def test_date_is_the_start_period_is_the_list() -> None:
    # A tournament starting 2024-03-15 is rated on the Apr 2024 list (the first after it):
    # no compression (it was applied on the March list only). +10 -> 1610, published 1610.
    data = _json("--rating", "1600", "--k", "20", "--date", "2024-03-15", "1600:1")
    assert data["period"] == "2024-04"
    assert data["rating_after"] == 1610 and data["adjusted_rating"] is None
    # Started 2024-02-20 but reported late, rated on the Apr 2024 list: no compression.
    data = _json(
        "--rating", "1600", "--k", "20", "--date", "2024-02-20", "--period", "2024-04", "1600:1"
    )
    assert data["period"] == "2024-04" and data["adjusted_rating"] is None
    # Started 2024-02-28: 2 days before 1 Mar, under the 3 closing days -> Apr 2024 by default.
    data = _json("--rating", "1600", "--k", "20", "--date", "2024-02-28", "1600:1")
    assert data["period"] == "2024-04"
    # --period alone: the tournament is taken to start on the 1st of the month before.
    data = _json("--rating", "1600", "--k", "20", "--period", "2024-03", "1600:1")
    assert data["date"] == "2024-02-01" and data["adjusted_rating"] == 1766
    table = runner.invoke(
        app, ["calc", "--rating", "1600", "--k", "20", "--date", "2024-02-20", "1600:1"]
    )
    assert "tournament start 2024-02-20, rated on the 2024-03 list" in table.stdout


def test_first_rating_reports_the_period() -> None:
    # Started 2025-11-01 -> rated on the Dec 2025 list.
    data = _json("--unrated", "--date", "2025-11-01", "1850:1", "1700:0")
    assert data["date"] == "2025-11-01" and data["period"] == "2025-12"


def test_unrated_first_rating() -> None:
    # issue 2: Ra = 12510 / 7 = 1787.14, p = 3.5 / 7 = 0.50 -> 1787
    data = _json(
        "--unrated", "--date", "2025-11-01", "1850:1", "1700:0", "2010:0.5", "1600:1", "1750:0"
    )
    assert data["rating"] == 1787 and data["reason"] is None
    table = runner.invoke(
        app,
        [
            "calc",
            "--unrated",
            "--date",
            "2025-11-01",
            "1850:1",
            "1700:0",
            "2010:0.5",
            "1600:1",
            "1750:0",
        ],
    )
    assert "first rating 1787" in table.stdout


def test_unrated_not_enough_games() -> None:
    data = _json("--unrated", "--date", "2025-11-01", "1850:1", "1700:0")
    assert data["rating"] is None
    assert data["reason"] == "only 2 games against rated opponents (5 needed)"


def test_help_has_an_example() -> None:
    result = runner.invoke(app, ["calc", "--help"])
    assert result.exit_code == 0
    assert "tracker calc --rating 1500 --k 20" in result.stdout


def _main(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    """Run the console entry point in-process (its error mapping included)."""
    monkeypatch.setattr(sys, "argv", ["tracker", "calc", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    captured = capsys.readouterr()
    code = exc.value.code
    return (code if isinstance(code, int) else 1), captured.out, captured.err


@pytest.mark.parametrize(
    "args,message",
    [
        (["--rating", "1500", "1500:2"], "the score '2' must be 1, 0.5 (or 1/2) or 0"),
        (["--rating", "1500", "abc"], "is not RATING:SCORE"),
        (["--rating", "1500", "--date", "2007-06-01", "1500:1"], "before 2008"),
        (["--rating", "1500", "--k", "0", "1500:1"], "--k must be a positive whole number"),
        (["--rating", "1500", "--date", "2025-13-01", "1500:1"], "is not YYYY-MM-DD"),
        (["--rating", "1500", "--list", "bullet", "1500:1"], "unknown list"),
        (["1500:1"], "give your rating with --rating N, or --unrated"),
        (["--rating", "1500", "--unrated", "1500:1"], "not both"),
        (
            ["--rating", "1500", "--date", "2024-03-15", "--period", "2024-03", "1500:1"],
            "--period 2024-03 is not after --date 2024-03-15",
        ),
        # two-monthly era: lists in Jan, Mar, May, Jul, Sep, Nov
        (
            ["--rating", "1500", "--date", "2010-02-10", "--period", "2010-04", "1500:1"],
            "FIDE published no standard list that month",
        ),
        (["--rating", "1500", "--period", "2024-3x", "1500:1"], "is not of the form YYYY-MM"),
        (
            ["--unrated", "--list", "rapid", "--standard-rating", "0", "1500:1"],
            "--standard-rating 0: a rating must be between 1 and 3999",
        ),
        (
            ["--unrated", "--k", "20", "--date", "2025-10-10", "1500:1"],
            "--k and --period-games do not apply to a first rating",
        ),
        # issue 19: the list after it would be of the year 10000 (an internal error, exit 3)
        (
            ["--rating", "1500", "--date", "9999-12-31", "1500:1"],
            "date '9999-12-31': the year must be from 1970 to 2999",
        ),
        (["--unrated", "--date", "9999-12-31", "1500:1"], "the year must be from 1970 to 2999"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, stdout, stderr = _main(args, monkeypatch, capsys)
    assert code == 2, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in stderr
    assert stdout == ""


@pytest.mark.slow  # tracker in a subprocess
def test_bad_input_through_python_m_tracker() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tracker", "calc", "--rating", "1500", "abc"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr == "error: opponent 'abc' is not RATING:SCORE (for example 1650:0.5)\n"


# --- --k from 1 to 40, one rating limit (bug 25 of the QA run) -----------------------------


@pytest.mark.parametrize("k", ["0", "41", "100"])
def test_calc_k_from_1_to_40(
    k: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(capsys, monkeypatch, "calc", "--rating", "1500", "--k", k, "1500:1")
    assert (code, out) == (2, "")
    assert err == (
        "error: --k must be a positive whole number up to 40 (usually 40, 20 or 10; "
        f"30, 25 or 15 in older editions; less by the 700 rule), not {k}\n"
    )


@pytest.mark.parametrize("k", ["1", "15", "40"])
def test_calc_k_accepted(
    k: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(
        capsys, monkeypatch, "calc", "--rating", "1500", "--k", k, "--format", "json", "1500:1"
    )
    assert code == 0, err
    assert json.loads(out)["k"] == int(k)


def test_one_rating_limit() -> None:
    from tracker import lists as fidelists
    from tracker import model
    from tracker.app import target
    from tracker.cli import calc
    from tracker.importer import tagvalues
    from tracker.store import entries
    from tracker.store import reading as history

    assert model.MAX_RATING == 3999
    for module in (calc, entries, history, target, fidelists, tagvalues):
        assert module.MAX_RATING is model.MAX_RATING, module.__name__
