"""`tracker target` rates the games already in the open period as `tracker history` does:
an opponent an imported FIDE list rates is rated by the list in force at the tournament's
start, not by the Elo tag of the PGN (tracker.periods.inputs.ReplayInputs.opponent_lists).

The list is FIDE's real Mar 2011 excerpt (../shared/spec/fide-list-samples/
standard_mar11frl.txt): "10207538  A E M, Doshtagir  BAN 1864" and " 5045886  A K, Kalshyan
IND 2030". The games are the test's: Tester, Tom (Elo tag 1900, no FIDE ID, on no list)
draws both of them in a tournament of 10-11 Mar 2011, their Elo tags saying 1700.

Derivation (shared/spec/fide-rules.md sections 1-3, table 8.1.2 in
shared/spec/table-8-1-2.csv). The replay starts on the May 2011 list (the first period with
games: closing 7 days before the list, two-monthly lists) from his own Elo tag, 1900. K 15:
born 1980, 100 rated games recorded, under 2400, before the Jul 2011 edition (K 25/15/10).
- By the list: D = 1900 - 1864 = 36 -> PD 0.55 (row 33-39); D = 1900 - 2030 = -130 -> PD
  0.32 (row 130-137, the lower side). Two draws: 1 - 0.87 = +0.13; x 15 = +1.95.
- By the tags (1700 both): D = 200 -> 0.76 twice: 1 - 1.52 = -0.52; x 15 = -7.80.
The new tournament: one game against 1900 (D = 0 -> 0.50), starting 20 Mar 2011, on the
May 2011 list. The period's change, rounded once (.5 away from zero):
- by the list: 0 -> 1.95 - 7.50 = -5.55 -> 1894; 0.5 -> +1.95 -> 1902; 1 -> 9.45 -> 1909;
- by the tags: -15.30 -> 1885; -7.80 -> 1892; -0.30 -> 1900.
So 1905 needs the whole point by the list, and is out of reach by the tags.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SPEC, need_shared, run_cli

TESTER = "Tester, Tom"
OPPONENTS = (("A E M, Doshtagir", 10207538), ("A K, Kalshyan", 5045886))


def _pgn() -> str:
    out = []
    for i, (name, fide_id) in enumerate(OPPONENTS):
        out.append(
            f'[Event "Dhaka Spring Open"]\n[Site "Dhaka BAN"]\n[Date "2011.03.{10 + i:02d}"]\n'
            f'[Round "{i + 1}"]\n[White "{TESTER}"]\n[Black "{name}"]\n[Result "1/2-1/2"]\n'
            f'[WhiteElo "1900"]\n[BlackElo "1700"]\n[BlackFideId "{fide_id}"]\n'
            f'[TimeControl "5400+30"]\n\n1. e4 e5 1/2-1/2\n\n'
        )
    return "".join(out)


@pytest.fixture
def season(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    need_shared()
    pgn = tmp_path / "dhaka.pgn"
    pgn.write_text(_pgn(), encoding="utf-8")
    db = str(tmp_path / "t.db")
    for args in (
        ("import", str(pgn), "--quiet"),
        ("player", "set", TESTER, "--me", "--birth-year", "1980", "--rated-games", "100"),
        ("official", "import", str(SPEC / "fide-list-samples" / "standard_mar11frl.txt")),
    ):
        code, _, err = run_cli(capsys, monkeypatch, *args, "--db", db)
        assert code == 0, err
    return db


def test_history_rates_the_opponents_by_the_list(
    season: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(capsys, monkeypatch, "history", "--format", "json", "--db", season)
    assert code == 0, err
    (may,) = [r for r in json.loads(out) if r["period"] == "2011-05"]
    assert (may["rating_before"], may["k"], may["change_exact"]) == (1900, 15, "1.95")


def test_target_rates_the_games_already_played_by_the_list(
    season: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        *("target", "1905", "--opponent", "1900", "--start", "2011-03-20"),
        *("--period", "2011-05", "--format", "json", "--db", season),
    )
    assert code == 0, err
    got = json.loads(out)
    assert (got["rating_before"], got["games_already"], got["k"]) == (1900, 2, 15)
    assert [(s["change_exact"], s["rating_after"]) for s in got["steps"]] == [
        ("-5.55", 1894),
        ("1.95", 1902),
        ("9.45", 1909),
    ]
    assert (got["points_needed"], got["rating_needed"]) == ("1", 1909)
