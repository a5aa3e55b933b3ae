"""`--player` on a real career (issue 28): a name that fits a small spelling beside a big one
says so and names both, with the commands that merge them or mark the other; a name that
several players fit exits 2 in one line whether the database had them before or not.

pgnmentor-Carlsen.pgn.xz (../shared/corpus) holds 9 games of 2001 under "Carlsen, Magnus"
and 3,421 under "Carlsen,M" (and one game of a "Carlsen,H").
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import CORPUS, dump_db, need_shared, run_captured, run_cli

CARLSEN = CORPUS / "pgnmentor-Carlsen.pgn.xz"
WARNING = (
    "warning: --player 'Carlsen, Magnus' marked Carlsen,Magnus: 9 games (2001-01-05 to "
    "2001-01-12); Carlsen,M has 3,421 games (2001-04-07 to 2020-12-30), a spelling that may "
    "be the same person: if Carlsen,M is, `tracker player merge Carlsen,Magnus Carlsen,M` "
    "makes them one, tracked; if it is yours instead, `tracker player set Carlsen,M --me` "
    "tracks it\n"
)
SEVERAL = (
    "3 players match 'Carlsen': Carlsen,H (FIDE ID -); Carlsen,M (FIDE ID -); "
    "Carlsen,Magnus (FIDE ID -); give more of the name or the FIDE ID"
)

pytestmark = pytest.mark.slow  # (real corpus files imported, or a bench script run)


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


def _count(db: Path, sql: str) -> int:
    con = sqlite3.connect(db)
    try:
        (n,) = con.execute(sql).fetchone()
    finally:
        con.close()
    return int(n)


def _tracked(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [str(r[0]) for r in con.execute("SELECT name FROM players WHERE is_me")]
    finally:
        con.close()


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Carlsen file imported once, nobody marked (copied by each test that needs it)."""
    need_shared()
    db = tmp_path_factory.mktemp("carlsen") / "t.db"
    code, _, err = run_captured("import", str(CARLSEN), "--db", str(db))
    assert code == 0, err
    return db


@pytest.fixture
def populated(imported: Path, tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    shutil.copy(imported, db)
    return db


def test_a_small_spelling_beside_a_big_one_is_named_with_the_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    need_shared()
    db = str(tmp_path / "t.db")
    code, out, err = run(
        capsys, monkeypatch, "import", str(CARLSEN), "--player", "Carlsen, Magnus", "--db", db
    )
    assert code == 0, err
    assert out.splitlines()[-1] == "tracked player: Carlsen,Magnus"
    assert err == WARNING
    # the command the warning names works, and the history then has the career
    code, out, err = run(
        capsys, monkeypatch, "player", "merge", "Carlsen,Magnus", "Carlsen,M", "--db", db
    )
    assert (code, out, err) == (
        0,
        "merged Carlsen,M into Carlsen,Magnus as merge 1; `tracker player unmerge --merge 1` "
        "undoes it\n",
        "",
    )
    assert _tracked(Path(db)) == ["Carlsen,Magnus"]
    assert _count(Path(db), "SELECT count(*) FROM players WHERE norm_name LIKE 'carlsen%'") == 2
    code, out, err = run(capsys, monkeypatch, "players", "--search", "carlsen", "--db", db)
    assert code == 0
    row = next(line for line in out.splitlines() if "Carlsen,Magnus (me)" in line)
    by_list = row.split()[-5:-2]  # standard, rapid, blitz (by the event names: not pinned)
    assert sum(int(n.replace(",", "")) for n in by_list) == 3430  # 9 + 3,421
    code, out, err = run(capsys, monkeypatch, "history", "--db", db)
    assert code == 0, err
    assert out.startswith("Carlsen,Magnus: standard rating history\n")
    assert "\n2008-04 " in out


def test_player_set_me_names_the_bigger_spelling_too(
    populated: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(populated)
    code, out, err = run(
        capsys, monkeypatch, "player", "set", "Carlsen, Magnus", "--me", "--db", db
    )
    assert (code, out) == (0, "Carlsen,Magnus: tracked player\n")
    assert err == WARNING.replace(
        "--player 'Carlsen, Magnus' marked Carlsen,Magnus:", "Carlsen,Magnus, now tracked:"
    )
    # the big spelling marked: nothing bigger beside it, nothing said
    code, out, err = run(capsys, monkeypatch, "player", "set", "Carlsen,M", "--me", "--db", db)
    assert (code, out, err) == (0, "Carlsen,M: tracked player\n", "")
    # another player's spelling (another given name) is not one of them
    code, out, err = run(capsys, monkeypatch, "player", "set", "Carlsen,H", "--me", "--db", db)
    assert (code, out, err) == (0, "Carlsen,H: tracked player\n", "")


def test_a_name_several_players_fit_exits_2_on_a_fresh_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    need_shared()
    db = tmp_path / "t.db"
    code, out, err = run(
        capsys, monkeypatch, "import", str(CARLSEN), "--player", "Carlsen", "--db", str(db)
    )
    assert code == 2
    assert "tracked player" not in out
    assert err == (
        f"error: --player 'Carlsen' not marked: {SEVERAL}; the games are stored: mark your "
        "player with `tracker player set PLAYER --me`\n"
    )
    assert _count(db, "SELECT count(*) FROM games") == 3430
    assert _tracked(db) == []


def test_a_name_several_players_fit_exits_2_on_a_populated_database(
    populated: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = dump_db(populated)
    code, out, err = run(
        capsys, monkeypatch, "import", str(CARLSEN), "--player", "Carlsen", "--db", str(populated)
    )
    assert (code, out, err) == (2, "", f"error: {SEVERAL}\n")
    assert dump_db(populated) == before
