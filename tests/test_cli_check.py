"""`tracker check` and `tracker target` through the real entry point, on a small database.

The season (numbers from table 8.1.2, shared/spec/table-8-1-2.csv): official Oct 2025
1850 (adult born 1988, 100 rated games: K 20). "Autumn Open" 4-5 Oct 2025 (-> Nov list):
win vs 1700 (D = +150, row 146-153 p_high 0.70: +0.30), draw vs 1850 (D = 0, row 0-3 0.50:
0), loss vs 2000 (D = -150, p_low 0.30: -0.30): sum 0 -> 1850, 3 games. "Club League"
8-9 Nov 2025 (-> Dec list): win vs 1850 (D = 0: +0.50), 20 x 0.50 = +10 -> 1860.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.builders import Season
from tests.conftest import run_cli
from tracker.store import open_store


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


def _season(db_path: Path, dec: int | None) -> str:
    with open_store(str(db_path)) as store:
        s = Season(store, birth_year=1988, rated_games=100)
        t = s.tournament("Autumn Open", "2025-10-04", "2025-10-05")
        s.game(t, 1700, 1, own_elo=1850, date="2025-10-04")
        s.game(t, 1850, "1/2", own_elo=1850, date="2025-10-04")
        s.game(t, 2000, 0, own_elo=1850, date="2025-10-05")
        t2 = s.tournament("Club League", "2025-11-08", "2025-11-09")
        s.game(t2, 1850, 1, own_elo=1850, date="2025-11-08")
        s.official("2025-10", 1850, k=20)
        s.official("2025-11", 1850, games_count=3)
        if dec is not None:
            s.official("2025-12", dec, games_count=1)
    return str(db_path)


def test_check_all_match_exits_0(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _season(db_path, 1860)
    code, out, err = run(["check", "--db", db], capsys, monkeypatch)
    assert code == 0, err
    assert "All 2 periods checked match." in out
    assert "1860" in out and "start" in out


def test_check_a_difference_exits_1_with_its_cause(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # FIDE prints 1859 for Dec: from a base of 1849 (Ro 1849 vs 1850: D = -1, row 0-3, still
    # 0.50) the change is the same +10: 1859. A one-point base correction.
    db = _season(db_path, 1859)
    code, out, err = run(["check", "--db", db], capsys, monkeypatch)
    assert code == 1, err
    assert "2025-12: replayed 1860, official 1859 (+1)" in out
    assert "1. [reproduces the official rating] a one-point base correction" in out
    assert "1 of the 2 periods checked differs." in out


@pytest.mark.slow  # tracker in a subprocess
@pytest.mark.parametrize("dec,code", [(1859, 1), (1860, 0)], ids=["differs", "matches"])
def test_a_closed_pipe_keeps_the_finding(db_path: Path, dec: int, code: int) -> None:
    # `tracker check | head`: the reader stops early, but a difference found is still exit 1
    import subprocess

    from tests.conftest import subprocess_env, tracker_command

    db = _season(db_path, dec)
    proc = subprocess.Popen(
        tracker_command("check", "--db", db),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # closed before the first line: its first write fails (EPIPE)
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == code and err == ""


def test_check_json(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _season(db_path, 1859)
    code, out, _ = run(
        ["check", "--db", db, "--format", "json", "--list", "standard"], capsys, monkeypatch
    )
    assert code == 1
    [data] = json.loads(out)
    assert data["list"] == "standard" and data["all_match"] is False
    dec = data["rows"][-1]
    assert dec["period"] == "2025-12" and dec["difference"] == 1
    assert dec["causes"][0]["kind"] == "base-correction"
    assert dec["causes"][0]["reproduces"] is True


def test_check_all_players(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _season(db_path, 1859)
    code, out, _ = run(["check", "--all", "--db", db], capsys, monkeypatch)
    assert code == 1
    assert "Novák, Tomáš" in out and "base-correction" in out
    assert "1 player-list checked, 1 with differences" in out


def test_check_errors_are_one_line(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _season(db_path, None)
    code, _, err = run(["check", "Novák", "--all", "--db", db], capsys, monkeypatch)
    assert code == 2 and err.startswith("error: give a PLAYER or --all")
    code, _, err = run(["check", "--list", "rapid", "--db", db], capsys, monkeypatch)
    assert code == 1 and "no official rating recorded" in err and "rapid" in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = run(["check", "--list", "classical", "--db", db], capsys, monkeypatch)
    assert code == 2 and "unknown list" in err


def test_target(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Dec 2025 period already holds the Club League win (+0.50). A new 2-game tournament
    # from 20 Nov against 1860: Ro 1850 (Nov list), D = -10, row 4-10 -> p_low 0.49 each.
    # K 20. 20 x (0.50 + x - 0.98) >= 1870 - 1850 - 0.5 = 19.5 -> x >= 1.455 -> 1.5:
    # 20 x 1.02 = 20.4 -> 20 -> 1870; 1/2 gives 20 x 0.52 = 10.4 -> 10 -> 1860;
    # 2/2 gives 20 x 1.52 = 30.4 -> 30 -> 1880.
    db = _season(db_path, None)
    args = [
        "target",
        "1870",
        "--opponents",
        "1860",
        "--games",
        "2",
        "--period",
        "2025-12",
        "--start",
        "2025-11-20",
        "--db",
        db,
    ]
    code, out, err = run(args, capsys, monkeypatch)
    assert code == 0, err
    assert "You need 1.5/2 to reach 1870 on the 2025-12 standard list" in out
    assert "1 game already in the period" in out
    code, out, _ = run([*args, "--format", "json"], capsys, monkeypatch)
    data = json.loads(out)
    assert data["points_needed"] == "1.5" and data["rating_needed"] == 1870
    assert data["max_rating"] == 1880 and data["k"] == 20 and data["games_already"] == 1
    assert [s["rating_after"] for s in data["steps"]][2] == 1860


def test_target_out_of_reach(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _season(db_path, None)
    code, out, _ = run(
        [
            "target",
            "1890",
            "--opponent",
            "1860",
            "--opponent",
            "1860",
            "--period",
            "2025-12",
            "--start",
            "2025-11-20",
            "--db",
            db,
        ],
        capsys,
        monkeypatch,
    )
    assert code == 0
    assert "1890 is out of reach" in out and "gives 1880" in out


def test_target_errors(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _season(db_path, None)
    for args, word in (
        (["target", "1870", "--opponents", "1860"], "--games"),
        (["target", "1870", "--games", "3"], "opponents"),
        (
            ["target", "1870", "--opponents", "1860", "--games", "2", "--period", "2025-13"],
            "--period",
        ),
        (
            ["target", "1870", "--opponents", "1860", "--games", "2", "--start", "20-11-2025"],
            "--start",
        ),
        (
            [
                "target",
                "1870",
                "--opponents",
                "1860",
                "--games",
                "2",
                "--period",
                "2025-12",
                "--start",
                "2025-12-02",
            ],
            "cannot be rated on the 2025-12 list",
        ),
        (
            [
                "target",
                "1870",
                "--opponents",
                "1860",
                "--games",
                "2",
                "--period",
                "2025-10",
                "--start",
                "2025-09-20",
            ],
            "later --period",
        ),
        # issue 19: an internal error (exit 3; the year 10000), a hang, an OverflowError
        (
            ["target", "1870", "--opponents", "1860", "--games", "2", "--start", "9999-12-31"],
            "--start '9999-12-31': the year must be from 1970 to 2999",
        ),
        (
            ["target", "1870", "--opponents", "1860", "--games", "1000000000"],
            "--games 1,000,000,000: a tournament of more than 1,000 games?",
        ),
        (["target", "1870", "--opponents", "1860", "--games", "9" * 20], "more than 1,000"),
    ):
        code, _, err = run([*args, "--db", db], capsys, monkeypatch)
        assert code == 2, (args, err)
        assert err.startswith("error:") and word in err
        assert len(err.strip().splitlines()) == 1


def test_help_has_examples(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for cmd in ("check", "target"):
        code, out, _ = run([cmd, "--help"], capsys, monkeypatch)
        assert code == 0 and "Example: tracker " + cmd in out and "--db" in out


def test_the_suggested_pin_makes_the_check_pass(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Official Jan 2025 1800 (K 20). "Spring Open" 10-12 Jan (-> Feb): three games vs 1700
    # (D = +100, row 99-106 p_high 0.64) scoring 1, 1/2, 1: 2.5 - 1.92 = 0.58. "Club League"
    # 25-30 Jan: last round under 3 days before 1 Feb -> the replay puts it on Mar; two draws
    # vs 1900 (D = -100, p_low 0.36): 1 - 0.72 = 0.28. FIDE rated both on Feb:
    # 20 x 0.86 = 17.2 -> 17 -> 1817 (5 games); Mar 1817 (0 games).
    with open_store(str(db_path)) as store:
        s = Season(store, birth_year=1988, rated_games=100)
        s.official("2025-01", 1800, k=20)
        t = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
        for score in (1, "1/2", 1):
            s.game(t, 1700, score, own_elo=1800, date="2025-01-10")
        league = s.tournament("Club League", "2025-01-25", "2025-01-30")
        s.game(league, 1900, "1/2", own_elo=1800, date="2025-01-25")
        s.game(league, 1900, "1/2", own_elo=1800, date="2025-01-30")
        s.official("2025-02", 1817, games_count=5, k=20)
        s.official("2025-03", 1817, games_count=0, k=20)
    db = str(db_path)
    code, out, _ = run(["check", "--db", db, "--format", "json"], capsys, monkeypatch)
    assert code == 1
    feb = json.loads(out)[0]["rows"][1]
    command = feb["causes"][0]["command"]
    assert command == f"tracker event set {league} --period 2025-02"
    code, _, err = run([*command.split()[1:], "--db", db], capsys, monkeypatch)
    assert code == 0, err
    code, out, _ = run(["check", "--db", db], capsys, monkeypatch)
    assert code == 0 and "All 2 periods checked match." in out


def test_check_against_list_files_of_several_eras_names_each_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14: a player whose official history comes only from imported list files of
    several eras (2009-2012 TXT, 2012-2015 TXT, today's, one of them zipped) is checked where
    the replay has the games, and each official number names its file.

    By hand (table 8.1.2: D 0 -> PD 0.50; spec section 3: an adult with 30+ games under 2400
    has K 15 before Jul 2014 and K 20 after):
    - Mar 2011 list 1800. A win vs 1800 on 5-6 Mar 2011 (two-monthly lists, 7 closing days):
      rated on the May 2011 list, +0.50 x 15 = +7.5, rounded once away from zero: +8 -> 1808.
    - Jan 2013 list 1808 (nothing between). A loss vs 1808 on 5-6 Jan 2013 (monthly lists):
      Feb 2013, -0.50 x 15 = -7.5 -> -8 -> 1800.
    - The Mar 2024 compression (spec section 5): below 2000 a rating gains 0.4 x (2000 - R):
      1800 + 80 = 1880, as the Oct 2025 list says. A win vs 1880 on 4 Oct 2025: Nov 2025,
      +0.50 x 20 = +10 -> 1890.
    """
    import zipfile

    from tests.listgen import Figures, Player, write_list
    from tracker.model import Period

    def player(rating: int, games: int | None, k: int | None) -> Player:
        none = Figures(None, None, None)
        return Player(
            99012345,
            "Novák, Tomáš",
            "CZE",
            "M",
            "",
            "",
            "",
            "",
            Figures(rating, games, k),
            none,
            none,
            1980,
            "",
        )

    lists = tmp_path / "lists"
    lists.mkdir()
    for name, fmt, period, rating, games, k in (
        ("standard_mar11frl.txt", "txt-2009", Period(2011, 3), 1800, 0, None),
        ("standard_may11frl.txt", "txt-2009", Period(2011, 5), 1808, 1, None),
        ("standard_jan13frl.txt", "txt-2012", Period(2013, 1), 1808, 0, 15),
        ("standard_feb13frl.txt", "txt-2012", Period(2013, 2), 1800, 1, 15),
        ("standard_oct25frl.txt", "txt", Period(2025, 10), 1880, 0, 20),
        ("standard_nov25frl.txt", "txt", Period(2025, 11), 1890, 1, 20),
    ):
        with (lists / name).open("w", encoding="utf-8") as fh:
            write_list(fh, [player(rating, games, k)], fmt, period=period)
    with zipfile.ZipFile(lists / "standard_feb13frl.zip", "w") as z:
        z.write(lists / "standard_feb13frl.txt", "standard_feb13frl.txt")
    (lists / "standard_feb13frl.txt").unlink()

    def pgn(event: str, day: str, opp: str, elo: int, result: str) -> str:
        return (
            f'[Event "{event}"]\n[Site "Brno"]\n[Date "{day}"]\n[Round "1"]\n'
            f'[White "Novák, Tomáš"]\n[Black "{opp}"]\n[Result "{result}"]\n'
            f'[WhiteElo "{elo}"]\n[BlackElo "{elo}"]\n[WhiteFideId "99012345"]\n'
            '[TimeControl "5400+30"]\n\n1. e4 e5 ' + result + "\n\n"
        )

    (tmp_path / "s.pgn").write_text(
        pgn("Spring Open 2011", "2011.03.05", "Opp, A", 1800, "1-0")
        + pgn("New Year Open 2013", "2013.01.05", "Opp, B", 1808, "0-1")
        + pgn("Autumn Open 2025", "2025.10.04", "Opp, C", 1880, "1-0"),
        encoding="utf-8",
    )
    db = str(tmp_path / "e.db")
    assert run(["import", str(tmp_path / "s.pgn"), "--db", db], capsys, monkeypatch)[0] == 0
    assert (
        run(
            [
                "player",
                "set",
                "99012345",
                "--me",
                "--birth-year",
                "1980",
                "--rated-games",
                "100",
                "--db",
                db,
            ],
            capsys,
            monkeypatch,
        )[0]
        == 0
    )
    code, out, err = run(["official", "import", str(lists), "--db", db], capsys, monkeypatch)
    assert code == 0, err
    code, out, err = run(["check", "--db", db, "-f", "json"], capsys, monkeypatch)
    assert code == 0, (out, err)
    (report,) = json.loads(out)
    rows = {r["period"]: r for r in report["rows"]}
    assert {p: (r["replayed"], r["official"], r["status"]) for p, r in rows.items()} == {
        "2011-03": (None, 1800, "start"),
        "2011-05": (1808, 1808, "match"),
        "2013-01": (1808, 1808, "match"),
        "2013-02": (1800, 1800, "match"),
        "2025-10": (1880, 1880, "match"),
        "2025-11": (1890, 1890, "match"),
    }
    assert rows["2011-05"]["official_source"].endswith("standard_may11frl.txt")
    assert rows["2013-02"]["official_source"].endswith("standard_feb13frl.zip")
    assert rows["2025-11"]["official_source"].endswith("standard_nov25frl.txt")
    code, out, _ = run(["check", "--db", db], capsys, monkeypatch)
    assert "standard_feb13frl.zip" in out and "standard_mar11frl.txt" in out


def test_the_last_line_of_a_check_counts_in_words() -> None:
    from tracker.reports.check import checked_text

    assert checked_text(1, 0) == "The one period checked matches."
    assert checked_text(3, 0) == "All 3 periods checked match."
    assert checked_text(1, 1) == "The one period checked differs."
    assert checked_text(4, 1) == "1 of the 4 periods checked differs."
    assert checked_text(4, 2) == "2 of the 4 periods checked differ."
