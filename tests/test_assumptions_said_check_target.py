"""`tracker check` and `tracker target` say every assumption their numbers rest on, in the
table and in JSON, with the command that settles it (issue 26, "What to build" 2 and 3).

The season, imported from PGN text as a user would: a player with no birth year and no
rated-games count recorded (K 20 rests on "30+ games" and "not a junior": with fewer than 30
games K is 40, and a junior under 2300 has K 40, FIDE rating regulations 8.3.3); an open
without a TimeControl tag (its list is assumed) that ended on 2022-02-28, one day before the
2022-03 list, which the three closing days of the monthly era put on the 2022-04 list; a
classical open with a TimeControl on the 2022-05 list, and a simul the event's name puts
off the list.

FIDE rated the first open on the 2022-03 list: 1850 + 20 x (3 - 4 x 0.50) = 1870 (D 0:
expected 0.50, table 8.1.2), nothing on the 2022-04 list (1870), and the classical open on
the 2022-05 list from 1870 against 1870s: 1870 + 20 x (1.5 - 2 x 0.50) = 1880.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

ME = ("Novák, Tomáš", "99012345")
SPRING = "Spring Open 2022"
SIMUL = "Brno Simul 2022"


def _game(event: str, date: str, rnd: int, opp: str, elo: int, result: str, tc: str = "") -> str:
    tags = [
        ("Event", event),
        ("Site", "Brno"),
        ("Date", date),
        ("Round", str(rnd)),
        ("White", ME[0]),
        ("WhiteFideId", ME[1]),
        ("Black", opp),
        ("Result", result),
        ("WhiteElo", "1850"),
        ("BlackElo", str(elo)),
    ]
    if tc:
        tags.append(("TimeControl", tc))
    return "".join(f'[{k} "{v}"]\n' for k, v in tags) + f"\n1. e4 e5 {result}\n\n"


def _pgn() -> str:
    spring = [
        ("2022.02.25", "1-0"),
        ("2022.02.26", "1-0"),
        ("2022.02.27", "1/2-1/2"),
        ("2022.02.28", "1/2-1/2"),
    ]
    text = "".join(
        _game(SPRING, day, i + 1, f"Spring {i}", 1850, res) for i, (day, res) in enumerate(spring)
    )
    summer = [("2022.04.09", "1-0"), ("2022.04.10", "1/2-1/2")]
    text += "".join(
        _game("Summer Open 2022", day, i + 1, f"Summer {i}", 1870, res, "5400+30")
        for i, (day, res) in enumerate(summer)
    )
    return text + _game(SIMUL, "2022.04.10", 1, "Simul 0", 1870, "1-0")


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    pgn = tmp_path / "season.pgn"
    pgn.write_text(_pgn(), encoding="utf-8")
    path = str(tmp_path / "t.db")
    code, _, err = run_cli(capsys, monkeypatch, "import", str(pgn), "--player", ME[1], "--db", path)
    assert code == 0, err
    for period, rating in (
        ("2022-01", 1850),
        ("2022-03", 1870),
        ("2022-04", 1870),
        ("2022-05", 1880),
    ):
        code, _, err = run_cli(
            capsys,
            monkeypatch,
            "official",
            "add",
            ME[1],
            "--period",
            period,
            "--rating",
            str(rating),
            "--db",
            path,
        )
        assert code == 0, err
    return path


def _tournament_id(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str, name: str
) -> int:
    code, out, err = run_cli(capsys, monkeypatch, "event", "list", "--format", "json", "--db", db)
    assert code == 0, err
    found = [int(e["id"]) for e in json.loads(out) if e["name"] == name]
    assert len(found) == 1, out
    return found[0]


K_GAMES = "K assumes 30+ rated games completed (tracker player set 99012345 --rated-games N)"
K_JUNIOR = (
    "K assumes not a junior (birth year unknown) (tracker player set 99012345 --birth-year YYYY)"
)
K_JSON = [
    {
        "fact": "rated-games",
        "assumed": "30+ rated games completed",
        "command": "tracker player set 99012345 --rated-games N",
    },
    {
        "fact": "birth-year",
        "assumed": "not a junior (birth year unknown)",
        "command": "tracker player set 99012345 --birth-year YYYY",
    },
]


def _check_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> dict[str, dict[str, Any]]:
    code, out, err = run_cli(capsys, monkeypatch, "check", "--format", "json", "--db", db)
    assert code == 1, err  # two periods differ
    (report,) = json.loads(out)
    return {row["period"]: row for row in report["rows"]}


def test_check_json_says_each_assumption_per_row(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spring = _tournament_id(capsys, monkeypatch, db, SPRING)
    rows = _check_json(capsys, monkeypatch, db)
    april, may = rows["2022-04"], rows["2022-05"]
    # the spring open's 4 games have no time control: their list is assumed
    assert april["list_assumed_games"] == 4 and may["list_assumed_games"] == 0
    # ... and the closing-date rule put it on 2022-04: it may be on 2022-03
    (moved,) = april["period_assumed"]
    assert moved["tournament"] == SPRING and moved["tournament_id"] == spring
    assert moved["may_be"] == "2022-03"
    assert moved["command"] == f"tracker event set {spring} --period 2022-03"
    assert may["period_assumed"] == []
    # the simul is off the list by its name, counted as `history` counts it
    assert may["not_counted"] == [{"reason": "simul (by the name)", "games": 1}]
    assert april["not_counted"] == []
    # K 20 rests on two facts nobody recorded, on every period the replay rated
    assert april["assumptions"] == K_JSON and may["assumptions"] == K_JSON
    assert may["status"] == "match"  # 1870 + 20 x (1.5 - 1.00) = 1880, as published


def test_check_json_not_counted_is_the_history_count(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = _check_json(capsys, monkeypatch, db)
    code, out, err = run_cli(capsys, monkeypatch, "history", "--format", "json", "--db", db)
    assert code == 0, err
    history = {r["period"]: r for r in json.loads(out)}
    for period, row in rows.items():
        assert row["not_counted"] == history[period]["not_counted"], period
        assert row["list_assumed_games"] == history[period]["list_assumed_games"], period


def test_check_finds_the_earlier_list_of_the_closing_date(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # FIDE's 2022-03 list rated the open (1870); the replay put it on 2022-04: pinning it
    # back to 2022-03 gives both lists as published, and the cause says the assumption
    spring = _tournament_id(capsys, monkeypatch, db, SPRING)
    rows = _check_json(capsys, monkeypatch, db)
    command = f"tracker event set {spring} --period 2022-03"
    for period in ("2022-03", "2022-04"):
        row = rows[period]
        assert row["status"] == "differs"
        best = row["causes"][0]
        assert best["kind"] == "closing-date" and best["reproduces"], best
        assert best["command"] == command
        assert "2022-02-28" in best["text"] and "closing-date rule" in best["text"]
    # recorded, the check matches everywhere
    code, _, err = run_cli(capsys, monkeypatch, *command.split()[1:], "--db", db)
    assert code == 0, err
    code, out, err = run_cli(capsys, monkeypatch, "check", "--db", db)
    assert code == 0, out + err
    assert "All 3 periods checked match." in out


def test_check_table_says_each_assumption_once(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spring = _tournament_id(capsys, monkeypatch, db, SPRING)
    monkeypatch.setenv("COLUMNS", "250")
    code, out, err = run_cli(capsys, monkeypatch, "check", "--db", db)
    assert code == 1, err
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("period"))
    assert header.rstrip().endswith("assumed")
    april = next(line for line in lines if line.startswith("2022-04 "))
    may = next(line for line in lines if line.startswith("2022-05 "))
    assert april.rstrip().endswith("K, list 4, period")
    assert may.rstrip().endswith("K, not counted 1")
    said = out[out.index("What the replayed numbers rest on") :]
    # each K assumption once, for both periods rated
    assert out.count(K_GAMES) == 1 and out.count(K_JUNIOR) == 1
    assert f"{K_GAMES} (2022-04, 2022-05)" in said  # not 2022-03: no games, no K
    assert "list N: 4 of the 6 games compared have no time control" in said
    assert f"{SPRING} ended 2022-02-28, 1 day before the 2022-03 list" in said
    assert f"tracker event set {spring} --period 2022-03" in said
    assert "not counted N: 2022-05: 1 game left out (simul (by the name) 1)" in said


def _target(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    db: str,
    start: str,
    *fmt: str,
) -> str:
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        "target",
        "1900",
        "--opponents",
        "1880",
        "--games",
        "4",
        "--start",
        start,
        *fmt,
        "--db",
        db,
    )
    assert code == 0, err
    return out


def test_target_says_the_k_assumptions(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # on the 2022-07 list (the first after 2022-06-10): Ro 1880, four 1880s, expected
    # 4 x 0.50 = 2; K 20: 20 (x - 2) >= 19.5 from 3 points (1900)
    out = _target(capsys, monkeypatch, db, "2022-06-10")
    assert "K 20 (" in out and "; assumed, below)." in out
    assert K_GAMES in out and K_JUNIOR in out
    assert "You need 3/4 to reach 1900 on the 2022-07 standard list" in out
    assert "before the 2022-07 list" not in out  # two months after the last data: no gap
    data = json.loads(_target(capsys, monkeypatch, db, "2022-06-10", "--format", "json"))
    assert data["assumptions"] == K_JSON
    assert data["points_needed"] == "3" and data["k"] == 20
    assert data["last_data"] == "2022-05" and data["gap"] is None


def test_target_says_the_gap_to_the_last_data(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # 2027-01 is 4 years 8 months after the 2022-05 list of the last games and official
    # rating; the 1880 of then is raised on the 2024-03 list by 0.4 x (2000 - 1880) = 48
    out = _target(capsys, monkeypatch, db, "2026-12-10")
    assert "rating before the period 1928" in out
    assert "the last games are on the 2022-05 list, 4 years 8 months before the 2027-01 list" in out
    assert "tracker official add 99012345 --list standard --period YYYY-MM --rating R" in out
    data = json.loads(_target(capsys, monkeypatch, db, "2026-12-10", "--format", "json"))
    assert data["last_games"] == "2022-05" and data["last_official"] == "2022-05"
    assert data["months_since_data"] == 56
    assert "4 years 8 months before the 2027-01 list" in data["gap"]
    assert data["assumptions"] == K_JSON
