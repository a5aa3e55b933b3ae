"""Every assumption is said in every reading output that shows a number built on it, table
and JSON: the list of games without a time control, K resting on facts nobody recorded, a
tournament put on a list by the closing date, and games put off a list by their name (one
label everywhere: "tie-break (by the name)").

The season: a PGN file without TimeControl tags, as TWIC and most organisers publish. An open
ends on 2025-10-30, two days before the 2025-11 list: the standard calendar's closing days
are three (spec section 5), so the replay rates it on the 2025-12 list, and FIDE may have
rated it on 2025-11. A two-game play-off the same day is named "TB": a tie-break, never
rated. The player has no official rating, birth year or games count recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_captured

ME = "Tester, Tina"
OPEN = [("Alpha, A", 1700, "1-0"), ("Beta, B", 1850, "1/2-1/2"), ("Gamma, C", 1900, "0-1")]
OPEN += [("Delta, D", 1750, "1-0"), ("Eps, E", 1800, "1-0")]


def _game(event: str, date: str, rnd: str, white: str, black: str, result: str) -> str:
    welo, belo = (1800, 1820) if white == ME else (1820, 1800)
    elo = dict((name, e) for name, e, _ in OPEN)
    welo = elo.get(white, welo)
    belo = elo.get(black, belo)
    return (
        f'[Event "{event}"]\n[Site "Brno CZE"]\n[Date "{date}"]\n[Round "{rnd}"]\n'
        f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
        f'[WhiteElo "{welo}"]\n[BlackElo "{belo}"]\n\n1. e4 e5 2. Nf3 {result}\n'
    )


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("assumed")
    games = [
        _game("Autumn Open 2025", f"2025.10.{26 + i}", str(i + 1), ME, opp, res)
        for i, (opp, _, res) in enumerate(OPEN)
    ]
    games.append(_game("Club Championship TB", "2025.10.30", "1.1", ME, "Zeta, Z", "1-0"))
    games.append(_game("Club Championship TB", "2025.10.30", "1.2", "Zeta, Z", ME, "1-0"))
    (folder / "season.pgn").write_text("\n".join(games), encoding="utf-8")
    target = str(folder / "t.db")
    code, _, err = run_captured(
        "import", str(folder / "season.pgn"), "--player", ME, "--db", target
    )
    assert code == 0, err
    return target


def _text(db: str, *args: str) -> str:
    code, out, err = run_captured(*args, "--db", db)
    assert code == 0, err
    return " ".join(out.split())  # words, whatever the width


def _json(db: str, *args: str) -> Any:
    code, out, err = run_captured(*args, "--db", db, "--format", "json")
    assert code == 0, err
    return json.loads(out)


LIST_ASSUMED = "no time control"
K_GAMES = "K assumes 30+ rated games completed (tracker player set 'Tester, Tina' --rated-games N)"
K_JUNIOR = "K assumes not a junior (birth year unknown)"
CLOSING = (
    "Autumn Open 2025 ended 2025-10-30, 2 days before the 2025-11 list: put on the 2025-12 "
    "list by the closing-date rule, assumed; FIDE rates it on the 2025-11 list when the "
    "report arrives in time (tracker event set 1 --period 2025-11)"
)


def test_history_says_every_assumption(db: str) -> None:
    text = _text(db, "history")
    for said in ("list assumed", LIST_ASSUMED, K_GAMES, K_JUNIOR, CLOSING):
        assert said in text
    (row,) = _json(db, "history")
    assert row["period"] == "2025-12" and row["games"] == 5
    assert row["list_assumed_games"] == 5
    assert {a["fact"] for a in row["assumptions"]} == {"rated-games", "birth-year"}
    assert row["period_assumed"] == [
        {
            "tournament": "Autumn Open 2025",
            "tournament_id": 1,
            "may_be": "2025-11",
            "command": "tracker event set 1 --period 2025-11",
            "end": "2025-10-30",
        }
    ]


def test_history_csv_keeps_them(db: str) -> None:
    code, out, _ = run_captured("history", "--db", db, "--format", "csv")
    assert code == 0
    header, row = out.splitlines()[:2]
    assert "list_assumed_games" in header and "period_assumed" in header
    assert "rated-games;birth-year" in row and "1 2025-11" in row


def test_a_game_put_off_a_list_by_its_name_is_one_label_everywhere(db: str) -> None:
    label = "tie-break (by the name)"
    events = {e["name"]: e for e in _json(db, "event", "list")}
    tb = events["Club Championship TB"]
    assert tb["games"] == 0 and tb["not_counted"] == 2
    assert tb["not_counted_reasons"] == [{"reason": label, "games": 2}]
    rows = _json(db, "history", "--list", "rapid")
    counted = [r for r in rows if r["not_counted"]]
    if counted:  # a rapid period that holds only the tie-break: it says why nothing counted
        assert counted[0]["not_counted"] == [{"reason": label, "games": 2}]
        assert f"not counted: 2 ({label})" in _text(db, "history", "--list", "rapid")


def test_next_says_every_assumption(db: str) -> None:
    text = _text(db, "next")
    for said in ("list assumed: 5 games without a time control", K_GAMES, K_JUNIOR, CLOSING):
        assert said in text
    doc = _json(db, "next")
    (row,) = doc["periods"]
    assert row["list_assumed_games"] == 5 and row["period_assumed"]
    assert {a["fact"] for a in row["assumptions"]} == {"rated-games", "birth-year"}


def test_explain_says_every_assumption_and_the_k_count_as_assumed(db: str) -> None:
    text = _text(db, "explain", "2025-12")
    assert "games completed (a count assumed)" in text or "assumed at least" in text
    for said in (K_GAMES, K_JUNIOR, "List assumed: 5 counted games without a time control"):
        assert said in text
    assert f"Period assumed: {CLOSING}" in text
    doc = _json(db, "explain", "2025-12")
    assert doc["list_assumed_games"] == 5 and doc["period_assumed"][0]["may_be"] == "2025-11"
    assert {a["fact"] for a in doc["assumptions"]} == {"rated-games", "birth-year"}


def test_event_list_marks_the_assumed_list_and_period(db: str) -> None:
    code, out, _ = run_captured("event", "list", "--db", db)
    assert code == 0
    line = next(x for x in out.splitlines() if "Autumn Open 2025" in x)
    assert "standard*" in line and "2025-12*" in line
    assert "List*: assumed (no time control" in out and "Period*: by the closing date" in out
    events = {e["name"]: e for e in _json(db, "event", "list")}
    autumn = events["Autumn Open 2025"]
    assert autumn["list_assumed"] is True and autumn["period_assumed"] == "2025-11"


def test_the_season_report_says_every_assumption(db: str, tmp_path: Path) -> None:
    page = tmp_path / "season.html"
    code, _, err = run_captured("report", "--db", db, "--output", str(page))
    assert code == 0, err
    html = " ".join(page.read_text(encoding="utf-8").split())
    # the page shows the command as code
    closing = CLOSING.replace(
        "(tracker event set 1 --period 2025-11)",
        "(<code>tracker event set 1 --period 2025-11</code>)",
    )
    for said in ("on this list by assumption", "K assumes 30+ rated games completed", closing):
        assert said in html
