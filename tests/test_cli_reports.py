"""`tracker history|explain|next|export|plot|event` through the real entry point.

Numbers: table 8.1.2 rows 0,3 -> 0.50 and 146,153 -> 0.70/0.30 (see tests/test_periods.py for
the conventions). The season: official Oct 2025 1850 (K 20); "Autumn Open" 4-5 Oct 2025
(-> Nov 2025 list): win vs 1700 (D=+150, PD 0.70, +0.30), draw vs 1850 (D=0, 0.50, 0),
loss vs 2000 (D=-150, PD 0.30, -0.30), and a win vs an unrated opponent (not counted).
Sum 0.00 x 20 = 0 -> 1850. "Club League" 8-9 Nov 2025 (-> Dec 2025 list): win vs 1850
(D=0) +0.50 x 20 = +10 -> 1860.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import shutil
from pathlib import Path

import pytest

from tests.builders import Season
from tests.conftest import dump_db, run_cli
from tracker.errors import BadInput
from tracker.model import Period, RatingList
from tracker.periods import TournamentFact
from tracker.store import Store, open_store


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


@pytest.fixture(scope="module")
def season_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db_path = tmp_path_factory.mktemp("season") / "season.db"
    with open_store(str(db_path)) as store:
        s = Season(store, birth_year=1988, rated_games=100)
        t = s.tournament("Autumn Open", "2025-10-04", "2025-10-05")
        s.game(t, 1700, 1, own_elo=1850, date="2025-10-04")
        s.game(t, 1850, "1/2", own_elo=1850, date="2025-10-04", white=False)
        s.game(t, 2000, 0, own_elo=1850, date="2025-10-05")
        s.game(t, None, 1, own_elo=1850, date="2025-10-05", opponent="Unrated, Ulla")
        t2 = s.tournament("Club League", "2025-11-08", "2025-11-09")
        s.game(t2, 1850, 1, own_elo=1850, date="2025-11-08", opponent="Dvořák, Jan")
        r = s.tournament("Rapid Cup", "2025-10-11", "2025-10-11")
        s.game(r, 1700, 1, own_elo=1700, date="2025-10-11", rating_list="rapid")
        s.official("2025-10", 1850, k=20)
    return db_path


@pytest.fixture
def season_db(season_template: Path, tmp_path: Path) -> str:
    target = tmp_path / "season.db"
    shutil.copyfile(season_template, target)
    return str(target)


def test_history_json(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["history", "--db", season_db, "--format", "json"], capsys, monkeypatch)
    assert code == 0
    rows = json.loads(out)
    assert [r["period"] for r in rows] == ["2025-10", "2025-11", "2025-12"]
    nov, dec = rows[1], rows[2]
    for key in (
        "period",
        "list",
        "rating_before",
        "games",
        "points",
        "k",
        "change_exact",
        "change",
        "rating_after",
        "official_rating",
    ):
        assert key in nov
    assert (nov["rating_before"], nov["games"], nov["points"], nov["k"]) == (1850, 3, 1.5, 20)
    assert (nov["change_exact"], nov["change"], nov["rating_after"]) == ("0.00", 0, 1850)
    assert nov["official_rating"] is None
    assert (dec["change_exact"], dec["change"], dec["rating_after"]) == ("10.00", 10, 1860)


def test_history_table_csv_and_range(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["history", "--db", season_db], capsys, monkeypatch)
    assert code == 0 and "1860" in out and "Change (exact)" in out
    code, out, _ = run(
        ["history", "--db", season_db, "-f", "csv", "--from", "2025-12"], capsys, monkeypatch
    )
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["period"] for r in rows] == ["2025-12"] and rows[0]["rating_after"] == "1860"


def test_history_rapid(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Rapid: no official entry, Elo tag 1700 starts it. The 100 recorded games are standard
    # games (PLAYER_FACTS_LISTS): the rapid games completed are unknown, and a player rated
    # when the replay starts is taken to have completed 30 or more (policy
    # GAMES_COMPLETED_WHEN_UNKNOWN), so K 20; win vs 1700 (D=0, PD 0.50) +0.5 x 20 = +10 ->
    # 1710. The row says so, with the command that records the count.
    code, out, _ = run(
        ["history", "--db", season_db, "--list", "rapid", "-f", "json"], capsys, monkeypatch
    )
    assert code == 0
    (row,) = json.loads(out)
    assert (row["list"], row["rating_before"], row["change"], row["rating_after"]) == (
        "rapid",
        1700,
        10,
        1710,
    )
    assert [a["fact"] for a in row["assumptions"]] == ["rated-games"]
    # the recorded facts are standard ones: on rapid, an official K is what records them
    assert row["assumptions"][0]["command"] == (
        "tracker official add 99012345 --list rapid --period YYYY-MM --rating R --k K"
    )
    assert "K assumes 30+ rated games completed (tracker official add 99012345 " in row["note"]
    std = json.loads(run(["history", "--db", season_db, "-f", "json"], capsys, monkeypatch)[1])
    assert all(r["assumptions"] == [] for r in std)  # 100 games and a birth year recorded


def test_explain(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["explain", "2025-11", "--db", season_db], capsys, monkeypatch)
    assert code == 0
    assert "Ro 1850 (official 2025-10 list)" in out
    assert "0.70" in out and "0.30" in out and "unrated-opponent" in out
    assert "K 20" in out and "1850 +0 = 1850" in out
    code, out, _ = run(["explain", "Novák", "2025-12", "--db", season_db], capsys, monkeypatch)
    assert code == 0 and "Dvořák, Jan" in out and "1860" in out


def test_next(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["next", "--db", season_db], capsys, monkeypatch)
    assert code == 0
    assert "Last official standard rating: 1850 (2025-10 list)" in out
    assert "Expected standard rating on the 2025-12 list: 1860" in out
    code, out, _ = run(["next", "--db", season_db, "-f", "json"], capsys, monkeypatch)
    data = json.loads(out)
    assert data["expected_rating"] == 1860 and data["next_period"] == "2025-12"
    assert data["tournaments"] == ["Autumn Open", "Club League"]


def test_export_files(
    season_db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = tmp_path / "h.csv"
    code, _, _ = run(["export", "--db", season_db, "-o", str(target)], capsys, monkeypatch)
    assert code == 0
    raw = target.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM for spreadsheets
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert {r["list"] for r in rows} == {"standard", "rapid"}
    games = tmp_path / "g.csv"
    code, _, _ = run(
        ["export", "--db", season_db, "--what", "games", "-o", str(games)], capsys, monkeypatch
    )
    rows = list(csv.DictReader(io.StringIO(games.read_text(encoding="utf-8-sig"))))
    assert len(rows) == 6
    unrated = [r for r in rows if r["opponent"] == "Unrated, Ulla"]
    assert unrated[0]["counted"] == "no" and unrated[0]["reason"] == "unrated-opponent"


def test_plot_png_and_svg(
    season_db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("h.png", "h.svg"):
        code, out, err = run(
            ["plot", "--db", season_db, "-o", str(tmp_path / name)], capsys, monkeypatch
        )
        assert code == 0, err
        assert (tmp_path / name).stat().st_size > 1000
    assert (tmp_path / "h.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = run(
        ["plot", "--db", season_db, "-o", str(tmp_path / "h.gif")], capsys, monkeypatch
    )
    assert code == 2 and err.startswith("error:") and ".png or .svg" in err


def _digest(path: Path) -> bytes:
    import hashlib

    return hashlib.sha256(path.read_bytes()).digest()


@pytest.mark.parametrize(
    "command",
    [["export", "--what", "history"], ["export", "--what", "games"], ["plot"]],
    ids=["export-history", "export-games", "plot"],
)
def test_no_output_resolves_to_the_database(
    season_db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
) -> None:
    """Issue 19, item 1: `export --output t.db --db t.db` turned the database into a CSV
    (exit 0). The database, a symlink to it, a hard link of it and its -wal/-shm are
    refused, with or without --force, and left byte for byte as they were."""
    db = Path(season_db)
    suffix = ".png" if command == ["plot"] else ".csv"
    (tmp_path / "lnk.png").symlink_to(db)
    (tmp_path / "lnk.csv").symlink_to(db)
    hard = tmp_path / f"hard{suffix}"
    hard.hardlink_to(db)
    for name in ("-wal", "-shm"):
        Path(f"{db}{name}").write_bytes(b"")
    before = _digest(db)
    targets = [str(db), str(tmp_path / f"lnk{suffix}"), str(hard), f"{db}-wal", f"{db}-shm"]
    if command == ["plot"]:
        targets = [t for t in targets if t.endswith(".png")] + [str(db) + ".png"]
        (tmp_path / "season.db.png").symlink_to(f"{db}-wal")
        targets[-1] = str(tmp_path / "season.db.png")
    for target in targets:
        for force in ([], ["--force"]):
            code, out, err = run(
                [*command, "--db", season_db, "-o", target, *force], capsys, monkeypatch
            )
            assert code == 2, (target, out, err)
            assert "database" in err and "writing there would destroy it" in err, err
            assert err.count("\n") == 1 and "Traceback" not in err
    assert _digest(db) == before
    assert Path(f"{db}-wal").read_bytes() == b""
    code, out, _ = run(["history", "--db", season_db, "-f", "json"], capsys, monkeypatch)
    assert code == 0 and json.loads(out)


def test_an_existing_output_is_replaced_only_with_force(
    season_db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for command, name in ((["export"], "h.csv"), (["plot"], "h.png")):
        target = tmp_path / name
        target.write_bytes(b"keep me")
        code, _, err = run([*command, "--db", season_db, "-o", str(target)], capsys, monkeypatch)
        assert code == 2 and "already exists" in err and "--force" in err
        assert target.read_bytes() == b"keep me"
        code, out, err = run(
            [*command, "--db", season_db, "-o", str(target), "--force"], capsys, monkeypatch
        )
        assert code == 0, err
        assert target.read_bytes() != b"keep me" and f"wrote {target}" in out
        # no temporary file left beside it
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_force_replaces_what_a_symlink_points_to_never_the_link(
    season_db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 30: a symlink to a regular file, given with --force, replaces the file it points
    to (written beside it and renamed); the link stays a link (tests/test_outputs.py has
    devices, FIFOs and /dev/stdout)."""
    other = tmp_path / "precious.txt"
    other.write_text("precious")
    link = tmp_path / "h.csv"
    link.symlink_to(other)
    code, _, err = run(
        ["export", "--db", season_db, "-o", str(link), "--force"], capsys, monkeypatch
    )
    assert code == 0, err
    assert link.is_symlink() and other.read_bytes().startswith(b"\xef\xbb\xbf")


def test_event_list_and_set(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["event", "list", "--db", season_db, "-f", "json"], capsys, monkeypatch)
    rows = json.loads(out)
    for key in ("id", "name", "start", "end", "list", "period"):
        assert key in rows[0]
    autumn = next(r for r in rows if r["name"] == "Autumn Open")
    assert (autumn["list"], autumn["period"]) == ("standard", "2025-11")
    code, out, _ = run(
        ["event", "set", str(autumn["id"]), "--period", "2026-01", "--db", season_db],
        capsys,
        monkeypatch,
    )
    assert code == 0 and "period 2026-01" in out
    code, out, _ = run(["history", "--db", season_db, "-f", "json"], capsys, monkeypatch)
    assert [r["period"] for r in json.loads(out)] == ["2025-10", "2025-12", "2026-01"]
    code, out, _ = run(
        ["event", "set", str(autumn["id"]), "--exclude", "--db", season_db], capsys, monkeypatch
    )
    assert code == 0
    code, out, _ = run(["history", "--db", season_db, "-f", "json"], capsys, monkeypatch)
    assert [r["period"] for r in json.loads(out)] == ["2025-10", "2025-12", "2026-01"]
    assert json.loads(out)[-1]["games"] == 0


@pytest.mark.parametrize(
    "args,code,words",
    [
        (["history", "--from", "2025-13"], 2, "month"),
        (["history", "--list", "bullet"], 2, "unknown list"),
        (["explain", "2024-01"], 1, "no standard rating period"),
        (["explain"], 2, ""),
        (["history", "Nobody"], 1, "no player matches"),
        (["event", "set", "999", "--exclude"], 1, "no tournament with id 999"),
        (["event", "set", "1"], 2, "nothing to set"),
        (["event", "set", "1", "--ro", "abc"], 2, "not a rating"),
        (["export", "-o", "/nonexistent/dir/x.csv"], 2, "does not exist"),
    ],
)
def test_bad_input_one_line(
    season_db: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    code: int,
    words: str,
) -> None:
    got, out, err = run([*args, "--db", season_db], capsys, monkeypatch)
    assert got == code
    assert "Traceback" not in err
    assert words in err


def test_no_tracked_player(
    db_path: Path, store: Store, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(["history", "--db", str(db_path)], capsys, monkeypatch)
    assert code == 1 and "--me" in err


@pytest.mark.parametrize(
    "cmd",
    [["history"], ["explain"], ["next"], ["export"], ["plot"], ["event", "list"], ["event", "set"]],
)
def test_help_has_an_example(
    cmd: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run([*cmd, "--help"], capsys, monkeypatch)
    assert code == 0 and "Example" in out and "--db" in out


def test_event_set_ro_and_list(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["event", "list", "--db", season_db, "-f", "json"], capsys, monkeypatch)
    club = next(r for r in json.loads(out) if r["name"] == "Club League")
    # --ro 1849: Club League win vs 1850, D = -1 -> row 0..3 -> 0.50 -> +0.50 x 20 = +10.
    code, out, _ = run(
        ["event", "set", str(club["id"]), "--ro", "1849", "--db", season_db], capsys, monkeypatch
    )
    assert code == 0 and "Ro 1849" in out
    code, out, _ = run(["explain", "2025-12", "--db", season_db], capsys, monkeypatch)
    assert "Ro 1849 (--ro override)" in out and "  -1  0.50" in out
    code, out, _ = run(
        ["event", "set", str(club["id"]), "--list", "rapid", "--db", season_db], capsys, monkeypatch
    )
    assert code == 0
    code, out, _ = run(
        ["event", "list", "--db", season_db, "-f", "json", "--list", "rapid"], capsys, monkeypatch
    )
    assert {r["name"] for r in json.loads(out)} == {"Rapid Cup", "Club League"}
    code, out, _ = run(
        ["event", "set", str(club["id"]), "--list", "default", "--ro", "none", "--db", season_db],
        capsys,
        monkeypatch,
    )
    assert code == 0 and "Ro from the lists" in out


def test_explain_json(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["explain", "2025-12", "-f", "json", "--db", season_db], capsys, monkeypatch)
    data = json.loads(out)
    assert data["change_exact"] == "10.00" and data["rating_after"] == 1860
    assert any("Club League" in line for line in data["lines"])


def test_csv_cells_a_spreadsheet_would_run_are_neutralised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19, item 8: a player named `=HYPERLINK(...)` or an event `+cmd|' /C calc'!A0`
    was written as is into a CSV that spreadsheets open directly. Text cells starting with
    =, +, -, @, TAB or CR get a leading ' (numbers such as -3.80 stay numbers)."""
    db = tmp_path / "x.db"
    with open_store(str(db)) as store:
        s = Season(store, birth_year=1988, rated_games=100)
        t = s.tournament("+cmd|' /C calc'!A0", "2025-10-04", "2025-10-05")
        s.game(
            t,
            2000,
            0,
            own_elo=1850,
            date="2025-10-04",
            opponent='=HYPERLINK("http://x.invalid","click")',
        )
        s.game(t, 1800, 1, own_elo=1850, date="2025-10-05", opponent="@SUM(A1:A9)")
        s.official("2025-10", 1850, k=20)
    out_file = tmp_path / "g.csv"
    code, _, err = run(
        ["export", "--what", "games", "--db", str(db), "-o", str(out_file)], capsys, monkeypatch
    )
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out_file.read_text(encoding="utf-8-sig"))))
    assert {r["opponent"] for r in rows} == {
        '\'=HYPERLINK("http://x.invalid","click")',
        "'@SUM(A1:A9)",
    }
    assert {r["tournament"] for r in rows} == {"'+cmd|' /C calc'!A0"}
    code, out, _ = run(["history", "--db", str(db), "-f", "csv"], capsys, monkeypatch)
    nov = [r for r in csv.DictReader(io.StringIO(out)) if r["period"] == "2025-11"][0]
    # K 20: loss vs 2000 (D -150 -> 0.30: -0.30), win vs 1800 (D 50 -> 0.57: +0.43): +2.60
    assert (nov["change_exact"], nov["change"]) == ("2.60", "3")
    code, out, _ = run(["event", "list", "--db", str(db), "-f", "csv"], capsys, monkeypatch)
    assert "'+cmd|' /C calc'!A0" in out
    code, out, _ = run(["event", "list", "--db", str(db), "-f", "json"], capsys, monkeypatch)
    assert json.loads(out)[0]["name"] == "+cmd|' /C calc'!A0"  # JSON keeps the text


def test_event_set_force_pins_before_the_last_round_the_pgn_gives(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: a stale pin was a dead end when the PGN's dates are wrong and FIDE's page
    says the tournament landed on an earlier list: --force pins it there."""
    code, out, _ = run(["event", "list", "--db", season_db, "-f", "json"], capsys, monkeypatch)
    league = next(r for r in json.loads(out) if r["name"] == "Club League")  # 8-9 Nov 2025
    code, _, err = run(
        ["event", "set", str(league["id"]), "--period", "2025-11", "--db", season_db],
        capsys,
        monkeypatch,
    )
    assert code == 2 and "add --force" in err
    code, out, err = run(
        ["event", "set", str(league["id"]), "--period", "2025-11", "--force", "--db", season_db],
        capsys,
        monkeypatch,
    )
    assert code == 0, err
    code, out, _ = run(["history", "--db", season_db, "-f", "json"], capsys, monkeypatch)
    nov = next(r for r in json.loads(out) if r["period"] == "2025-11")
    # Autumn Open (3 counted games, 1.5 points, +0) and the league's win vs 1850 (D 0:
    # +0.50 x 20 = +10) now both on the Nov list: 1850 + 10 = 1860
    assert (nov["games"], nov["change"], nov["rating_after"]) == (4, 10, 1860)
    code, _, err = run(
        ["event", "set", str(league["id"]), "--period", "2025-12", "--force", "--db", season_db],
        capsys,
        monkeypatch,
    )
    assert code == 0, err  # --force with a list after the last round is just a pin


def test_explain_a_quiet_list_says_the_rating_carried_over(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The season has rows for 2025-10, 2025-11, 2025-12; a list between them without games
    # does not exist here, so record one later and ask about the quiet Jan 2026 list.
    code, _, err = run(
        [
            "official",
            "add",
            "99012345",
            "--period",
            "2026-02",
            "--rating",
            "1860",
            "--db",
            season_db,
        ],
        capsys,
        monkeypatch,
    )
    assert code == 0, err
    code, out, err = run(["explain", "2026-01", "--db", season_db], capsys, monkeypatch)
    assert code == 0, err
    assert "the rating carries over from the 2025-12 list: 1860" in out
    code, out, _ = run(["explain", "2026-01", "--db", season_db, "-f", "json"], capsys, monkeypatch)
    data = json.loads(out)
    assert data["carried_over"] is True and data["period"] == "2026-01"


# --- issue 19 item 7: names reach the terminal escaped --------------------------------------

EVIL = "Evil\x1b]0;t\x07\x1b[2J\u202eX\x85\nY"  # retitle, clear, RLO, C1, a newline
SHOWN = r"Evil\x1b]0;t\x07\x1b[2J\u202eX\u0085\nY"
RAW_CONTROL = "[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"


@pytest.fixture
def evil_db(tmp_path: Path) -> str:
    """A season whose tournament and opponent are named with control characters."""
    db_path = tmp_path / "evil.db"
    with open_store(str(db_path)) as store:
        s = Season(store, birth_year=1988, rated_games=100)
        t = s.tournament(EVIL, "2025-10-04", "2025-10-05")
        s.game(t, 1700, 1, own_elo=1850, date="2025-10-04", opponent=EVIL)
        s.official("2025-10", 1850, k=20)
    return str(db_path)


@pytest.mark.parametrize(
    "args",
    [
        ["explain", "2025-11"],
        ["next"],
        ["event", "list"],
        ["event", "list", "--format", "csv"],
        ["export", "--what", "games"],
    ],
)
def test_names_with_control_characters_are_shown_escaped(
    evil_db: str,
    args: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import re

    code, out, err = run([*args, "--db", evil_db], capsys, monkeypatch)
    assert code == 0, err
    assert SHOWN in out and not re.search(RAW_CONTROL, out + err), out
    assert "\nY" not in out  # the newline in the name forges no line


def test_json_and_a_csv_file_keep_the_real_names(
    evil_db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, _ = run(["event", "list", "--format", "json", "--db", evil_db], capsys, monkeypatch)
    assert "\u202e" not in out and "\\u202e" in out  # JSON's own escapes: valid JSON
    assert json.loads(out)[0]["name"] == EVIL
    target = tmp_path / "g.csv"
    code, _, _ = run(
        ["export", "--what", "games", "-o", str(target), "--db", evil_db], capsys, monkeypatch
    )
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8-sig"))))
    assert rows[0]["opponent"] == EVIL and rows[0]["tournament"] == EVIL  # data: as it is


# --- the two opens (tests/builders.py two_opens_season): what the QA run found in history,
# event and plot (bugs 13, 16, 18 and 25) --------------------------------------------------


@pytest.fixture
def db(two_opens_db: str) -> str:
    return two_opens_db


def _event_id(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str, name: str
) -> int:
    code, out, err = run_cli(capsys, monkeypatch, "event", "list", "--format", "json", "--db", db)
    assert code == 0, err
    return int(next(r["id"] for r in json.loads(out) if r["name"] == name))


def test_history_reversed_range_says_so(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for fmt in ("table", "csv", "json"):
        code, out, err = run_cli(
            capsys,
            monkeypatch,
            "history",
            "--from",
            "2026-05",
            "--to",
            "2025-09",
            "--format",
            fmt,
            "--db",
            db,
        )
        assert (code, out) == (2, "")
        assert err == (
            "error: --from 2026-05 is after --to 2025-09: give the earlier period with --from\n"
        )
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        "history",
        "--from",
        "2025-11",
        "--to",
        "2025-11",
        "--format",
        "json",
        "--db",
        db,
    )
    assert code == 0, err
    assert [r["period"] for r in json.loads(out)] == ["2025-11"]


@pytest.mark.parametrize("period", ["2025-10", "2025-11"])
def test_event_set_refuses_a_list_before_the_last_round(
    db: str, period: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = _event_id(capsys, monkeypatch, db, "Weinviertel Open 2025")
    before = dump_db(Path(db))
    code, out, err = run_cli(
        capsys, monkeypatch, "event", "set", str(tid), "--period", period, "--db", db
    )
    assert (code, out) == (2, "")
    assert err == (
        f"error: tournament {tid} (Weinviertel Open 2025, played 2025-11-21 to "
        f"2025-11-23) cannot be rated on the {period} list (dated {period}-01, "
        "before its last round): the first standard list it can land on is "
        "2025-12 (if its dates in the PGN are wrong and FIDE's page says "
        "otherwise, add --force)\n"
    )
    assert dump_db(Path(db)) == before


@pytest.mark.parametrize("period", ["2025-12", "2026-01"])
def test_event_set_accepts_a_list_after_the_last_round(
    db: str, period: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = _event_id(capsys, monkeypatch, db, "Weinviertel Open 2025")
    code, out, err = run_cli(
        capsys, monkeypatch, "event", "set", str(tid), "--period", period, "--db", db
    )
    assert code == 0, err
    assert out == f"tournament {tid} (Weinviertel Open 2025): period {period}\n"


def test_pin_rules() -> None:
    from tracker.periods import check_pin

    one_day = TournamentFact(
        id=3, name="Cup", start=dt.date(2025, 11, 30), end=dt.date(2025, 11, 30)
    )
    check_pin(one_day, Period(2025, 12), RatingList.STANDARD)  # the day before the list
    with pytest.raises(BadInput, match=r"played 2025-11-30\) cannot be rated on the 2025-11"):
        check_pin(one_day, Period(2025, 11), RatingList.STANDARD)
    old = TournamentFact(id=4, name="Old", start=dt.date(2010, 1, 10), end=dt.date(2010, 1, 12))
    with pytest.raises(BadInput, match="FIDE published no standard list that month"):
        check_pin(old, Period(2010, 2), RatingList.STANDARD)  # two-monthly lists then
    with pytest.raises(BadInput, match="first standard list it can land on is 2010-03"):
        check_pin(old, Period(2010, 1), RatingList.STANDARD)
    check_pin(TournamentFact(id=5, name="Undated"), Period(2010, 1), RatingList.STANDARD)


def test_cli_plot_writes_the_chart(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(capsys, monkeypatch, "plot", "-o", str(tmp_path / "h.png"), "--db", db)
    assert code == 0, err
    assert (tmp_path / "h.png").read_bytes()[:4] == b"\x89PNG"


def test_event_list_csv_flags_are_yes_no(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = _event_id(capsys, monkeypatch, db, "Weinviertel Open 2025")
    assert (
        run_cli(capsys, monkeypatch, "event", "set", str(tid), "--period", "2026-01", "--db", db)[0]
        == 0
    )
    code, out, err = run_cli(capsys, monkeypatch, "event", "list", "--format", "csv", "--db", db)
    assert code == 0, err
    assert out.endswith("\r\n") and "\n" not in out.replace("\r\n", "")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["name"], r["pinned"], r["excluded"]) for r in rows] == [
        ("Autumn Open", "no", "no"),
        ("Weinviertel Open 2025", "yes", "no"),
    ]
    code, out, err = run_cli(capsys, monkeypatch, "event", "list", "--format", "json", "--db", db)
    assert [r["pinned"] for r in json.loads(out)] == [False, True]  # JSON keeps booleans


def test_history_start_row_difference(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/export.md: difference = rating_after - official_rating when both are known; the
    start row's rating_after is the official rating, so 0."""
    code, out, err = run_cli(capsys, monkeypatch, "history", "--format", "csv", "--db", db)
    assert code == 0, err
    start = next(csv.DictReader(io.StringIO(out)))
    assert (
        start["period"],
        start["rating_after"],
        start["official_rating"],
        start["difference"],
    ) == ("2025-10", "1850", "1850", "0")
    code, out, err = run_cli(capsys, monkeypatch, "history", "--format", "json", "--db", db)
    rows = json.loads(out)
    assert rows[0]["difference"] == 0
    assert all(r["difference"] is None for r in rows[1:])  # no official rating there
    code, out, err = run_cli(capsys, monkeypatch, "history", "--db", db)
    start_line = next(line for line in out.splitlines() if line.startswith("2025-10"))
    assert start_line.split() == ["2025-10", "1850", "1850", "start:", "official", "rating"]
