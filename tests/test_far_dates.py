"""No stored date breaks a reading command (issue 30).

A game dated 9999.11.30 or later made every reading command of its player end in "internal
error (ValueError: year 10000 is out of range)", exit 3 (its list would be of the year
10000), with and without the C extensions; one dated 2999.12.31 made `report` fail with
"period '3000-02': year out of range", naming nothing. Now the importer stores a date only
up to LAST_DATE (2999-12-31): a later one keeps its date tag, the game no date, and the
import says so with file and line; a tournament whose list would come after LAST_PERIOD
(2999-12) is in no period, with the reason and the command that pins it; and a database
stored before (9999-12-31 in its games and tournaments) reads the same way, while `db
check` names those dates.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import subprocess
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import run_cli, subprocess_env, tracker_command
from tests.test_import import pgn, write
from tracker.importer.prepare import Preparer
from tracker.model import LAST_DATE, LAST_PERIOD, Period, PreparedGame, RatingList, Skipped
from tracker.periods import GameFact, TournamentFact, assign_units

FAR = ["9999.12.31", "9999.11.30", "3000.01.01"]
LATE = ["2999.12.31", "2999.11.30"]  # stored as dates, rated on no list the tracker names


def _game(date: str, round_: str, event: str = "Far Open", **tags: str) -> str:
    return pgn(
        Event=event,
        Date=date,
        Round=round_,
        WhiteElo="1850",
        BlackElo="1800",
        TimeControl="5400+30",
        **tags,
    )


def _season(path: Path, *far: str) -> Path:
    """Novak's season: a game of 2025.10.04 (Club Open, rated on the 2025-11 list), then one
    game a date of `far`, each its own event."""
    return write(
        path,
        _game("2025.10.04", "1", event="Club Open"),
        *(_game(d, str(i + 2), event=f"Open {d}") for i, d in enumerate(far)),
    )


# --- the importer --------------------------------------------------------------------


def _prepared(
    row: Callable[[dict[str, str], str, bool, int], PreparedGame | Skipped],
    date: str,
    event_date: str | None = None,
) -> tuple[object, ...]:
    tags = {
        "Event": "Far Open",
        "Site": "X",
        "Date": date,
        "Round": "1",
        "White": "A, B",
        "Black": "C, D",
        "Result": "1-0",
        "WhiteElo": "1850",
        "BlackElo": "1800",
    }
    if event_date is not None:
        tags["EventDate"] = event_date
    got = row(tags, "digest", True, 7)
    assert isinstance(got, PreparedGame)
    return got.date, got.date_tag, got.event_date


def test_a_date_past_the_last_one_is_stored_without_it() -> None:
    p = Preparer()
    row = p.row
    for date in FAR:
        assert _prepared(row, date) == (None, date, None)
        assert p.warnings == [
            f"7: Date '{date}' is after 2999-12-31, the last date the "
            "tracker rates: the game is stored without it (in no period); "
            "check the file"
        ]
        p.warnings.clear()
    assert _prepared(row, "2025.10.04", "9999.12.31") == ("2025-10-04", "2025.10.04", None)
    assert p.warnings == [
        "7: EventDate '9999.12.31' is after 2999-12-31, the last date the "
        "tracker rates: the game is stored without it (in no period); "
        "check the file"
    ]
    p.warnings.clear()
    assert _prepared(row, "2999.12.31") == ("2999-12-31", "2999.12.31", None)
    assert p.warnings == ["7: Date '2999.12.31' is after today: check the file"]
    assert dt.date(2999, 12, 31) == LAST_DATE


def _import(folder: Path, pure: bool) -> subprocess.CompletedProcess[str]:
    env = subprocess_env()
    if pure:
        env["TRACKER_PURE_PYTHON"] = "1"
    else:
        env.pop("TRACKER_PURE_PYTHON", None)
    return subprocess.run(
        tracker_command("import", "season.pgn", "--player", "Novak, Jan", "--db", "t.db"),
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _stored(db: Path) -> list[tuple[object, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute(
            "SELECT g.date, g.date_tag, t.start_date, t.end_date FROM games g "
            "JOIN tournaments t ON t.id = g.tournament_id ORDER BY g.id"
        ).fetchall()
    finally:
        con.close()


@pytest.mark.slow  # a real import, in the C and the pure Python reader
@pytest.mark.parametrize("pure", [False, True], ids=["C", "pure"])
def test_a_real_import_says_so_with_file_and_line(tmp_path: Path, pure: bool) -> None:
    _season(tmp_path / "season.pgn", *FAR, *LATE)
    done = _import(tmp_path, pure)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "2999-12-31, the last" in line]
    lines = [w.split(":")[2] for w in warnings]
    assert warnings == [
        f"warning: season.pgn:{n}: Date '{d}' is after 2999-12-31, the last "
        "date the tracker rates: the game is stored without it (in no "
        "period); check the file"
        for n, d in zip(lines, FAR, strict=True)
    ]
    assert lines == ["14", "27", "40"]  # each game's first line
    assert _stored(tmp_path / "t.db") == [
        ("2025-10-04", "2025.10.04", "2025-10-04", "2025-10-04"),
        *((None, d, None, None) for d in FAR),
        *((d.replace(".", "-"), d, d.replace(".", "-"), d.replace(".", "-")) for d in LATE),
    ]


# --- the replay ---------------------------------------------------------------------


def _unit_period(end: dt.date) -> tuple[object, ...]:
    t = TournamentFact(id=1, name="Open", start=end, end=end)
    g = GameFact(
        id=1,
        tournament_id=1,
        date=end,
        round="1",
        white=True,
        opponent_id=2,
        opponent="X",
        own_elo=1850,
        opponent_elo=1800,
        result="1-0",
        score=Fraction(1),
        rating_list=RatingList.STANDARD,
    )
    (unit,) = assign_units([g], [t], RatingList.STANDARD)
    return unit.period, unit.end


def test_a_tournament_after_the_last_list_is_in_no_period() -> None:
    assert Period.parse("2999-12") == LAST_PERIOD
    assert _unit_period(dt.date(2999, 11, 28))[0] == LAST_PERIOD  # 3 closing days
    for end in (dt.date(2999, 11, 29), dt.date(2999, 12, 31), dt.date(9999, 12, 31)):
        assert _unit_period(end) == (None, end)


# --- every reading command ----------------------------------------------------------


READING = [
    ("history",),
    ("history", "--list", "rapid"),
    ("history", "--format", "json"),
    ("history", "--format", "csv"),
    ("next",),
    ("next", "--format", "json"),
    ("explain", "2025-11"),
    ("export",),
    ("export", "--what", "games"),
    ("event", "list"),
    ("event", "list", "--format", "json"),
    ("report", "-o", "r.html"),
    ("plot", "-o", "p.png"),
    ("plot", "-o", "p.svg"),
    ("check",),
    ("check", "--all"),
    ("target", "2000", "--opponents", "1900", "--games", "5"),
    ("players",),
    ("imports",),
    ("official", "list"),
    ("db", "check"),
]


def _commands(db: str) -> list[tuple[str, ...]]:
    """READING, then `event set` to each tournament (ids 1-6) with a period of 2999."""
    sets = [
        ("event", "set", str(tid), "--period", period)
        for tid in range(1, 7)
        for period in ("2999-11", "2999-12")
    ]
    return [(*c, "--db", db) for c in READING + sets]


def _no_internal_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> dict[tuple[str, ...], tuple[int, str]]:
    """Every command: exit 0, or a one-line message (exit 1 or 2); never exit 3."""
    seen = {}
    for args in _commands(db):
        code, out, err = run_cli(capsys, monkeypatch, *args)
        assert code in (0, 1, 2), (args, code, err)
        assert "internal error" not in err and "Traceback" not in out + err, (args, err)
        assert err.count("\n") <= 1, (args, err)
        seen[args[:-2]] = code, err
    return seen


def _with_official(db: Path) -> None:
    con = sqlite3.connect(db)
    try:
        pid = con.execute("SELECT id FROM players WHERE name = 'Novak, Jan'").fetchone()[0]
        con.execute(
            "INSERT INTO official_ratings (player_id, list, period, rating, k, source, "
            "recorded_at) VALUES (?, 'standard', '2025-10', 1850, 20, 'manual', "
            "'2025-10-01')",
            (pid,),
        )
        con.commit()
    finally:
        con.close()


@pytest.mark.slow  # every reading command over an imported season, for each date
@pytest.mark.parametrize(
    "dates",
    [["9999.12.31"], ["9999.11.30"], ["2999.12.31"], [*FAR, *LATE]],
    ids=lambda d: "+".join(d),
)
def test_every_reading_command_copes_with_an_imported_far_date(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    dates: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)
    _season(tmp_path / "season.pgn", *dates)
    code, _, err = run_cli(
        capsys, monkeypatch, "import", "season.pgn", "--player", "Novak, Jan", "--db", "t.db"
    )
    assert code == 0, err
    _with_official(tmp_path / "t.db")
    code, out, _ = run_cli(capsys, monkeypatch, "history", "--db", "t.db")
    assert code == 0 and "2025-11" in out and "3000-" not in out and "10000" not in out
    seen = _no_internal_error(capsys, monkeypatch, "t.db")
    assert seen[("history",)][0] == seen[("report", "-o", "r.html")][0] == 0
    assert seen[("db", "check")][0] == 0


def _as_stored_before(db: Path, day: str) -> None:
    """What the importer before this change stored for a game of `day` (the date itself):
    Novak's second tournament and its game dated `day`."""
    con = sqlite3.connect(db)
    try:
        con.execute("UPDATE games SET date = ? WHERE tournament_id = 2", (day,))
        con.execute("UPDATE tournaments SET start_date = ?, end_date = ? WHERE id = 2", (day, day))
        con.commit()
    finally:
        con.close()


@pytest.mark.slow  # every reading command over an imported season, for each date
@pytest.mark.parametrize("day", ["9999-12-31", "9999-11-30", "2999-12-31"])
def test_a_database_stored_before_reads_too_and_db_check_names_the_dates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, day: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)
    _season(tmp_path / "season.pgn", "2025.10.11")
    code, _, err = run_cli(
        capsys, monkeypatch, "import", "season.pgn", "--player", "Novak, Jan", "--db", "t.db"
    )
    assert code == 0, err
    _with_official(tmp_path / "t.db")
    _as_stored_before(tmp_path / "t.db", day)
    code, out, err = run_cli(capsys, monkeypatch, "history", "--db", "t.db")
    assert code == 0 and "2025-11" in out and "3000-" not in out
    assert out.rstrip().endswith(
        f"In no period: Open 2025.10.11 (1 game): played until {day}: no list after 2999-12 "
        "is replayed (a wrong date in the PGN?): pin it with `tracker event set 2 --period "
        "YYYY-MM`"
    ), out
    code, _, err = run_cli(
        capsys, monkeypatch, "event", "set", "2", "--period", "2999-12", "--db", "t.db"
    )
    assert code == 2 and err == (
        f"error: tournament 2 (Open 2025.10.11, played {day}) cannot be rated on the 2999-12 "
        "list (dated 2999-12-01, before its last round): no list it can land on is replayed "
        "(the last is 2999-12) (if its dates in the PGN are wrong and FIDE's page says "
        "otherwise, add --force)\n"
    )
    late = day > "2999-12-31"
    code, out, _ = run_cli(capsys, monkeypatch, "db", "check", "--db", "t.db")
    assert code == (1 if late else 0)
    if late:
        assert out == (
            "t.db: game-date: 1 games are dated after 2999-12-31, the last date the tracker "
            "rates (stored by an older tracker): they are in no period; take their import out "
            "(tracker imports remove ID) and import the file again, which stores them without "
            "those dates\n"
            "t.db: tournament-date: 1 tournaments are dated after 2999-12-31, the last date "
            "the tracker rates (stored by an older tracker): they are in no period; take their "
            "import out (tracker imports remove ID) and import the file again, which stores "
            "them without those dates\n"
        )
    _no_internal_error(capsys, monkeypatch, "t.db")
