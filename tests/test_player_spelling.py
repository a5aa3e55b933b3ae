"""`--player` on a real career (issue 28): a name that fits a small spelling beside a big one
says so and names both, with the commands that merge them or mark the other; a name that
several players fit exits 2 in one line whether the database had them before or not.

pgnmentor-Carlsen.pgn.xz (../shared/corpus) holds 9 games of 2001 under "Carlsen, Magnus"
and 3,421 under "Carlsen,M" (and one game of a "Carlsen,H"). pgnmentor-Ivanchuk.pgn.xz holds
3,112 games under "Ivanchuk,V" and 1,237 under "Ivanchuk, Vassily" (counted with grep: 1,568
+ 1,544 and 619 + 618 White and Black tags), and no other Ivanchuk.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import CORPUS, dump_db, need_shared, run_captured, run_cli
from tests.test_import import pgn, write
from tests.test_player_argument import commands, refused

CARLSEN = CORPUS / "pgnmentor-Carlsen.pgn.xz"
IVANCHUK = CORPUS / "pgnmentor-Ivanchuk.pgn.xz"
MAY_BE_ONE = (
    "2 players match 'Ivanchuk', spellings that may be one person's (the same surname, given "
    "names that fit, not two FIDE IDs, no game between them): Ivanchuk,V (3,112 games); "
    "Ivanchuk, Vassily (1,237 games); they are not taken for one person on their names "
    "alone: if they are one, `tracker player merge Ivanchuk,V 'Ivanchuk, Vassily'` makes "
    "them one"
)
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


# --- two spellings that may be one person: named with the merge, never merged -------------


def _players_named(db: Path, like: str) -> list[str]:
    con = sqlite3.connect(db)
    try:
        q = "SELECT name FROM players WHERE norm_name LIKE ? ORDER BY name"
        return [str(r[0]) for r in con.execute(q, (like,))]
    finally:
        con.close()


def test_two_spellings_of_one_name_are_named_with_the_merge_not_merged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--player Ivanchuk` fits both spellings of the file: nothing is merged and nobody is
    marked (that would guess); one line names both, with the commands that make them one
    and mark them, or mark one; exit 2, the games stored. The commands it gives work."""
    need_shared()
    db = tmp_path / "t.db"
    args = ("import", str(IVANCHUK), "--player", "Ivanchuk", "--db", str(db))
    code, out, err = run(capsys, monkeypatch, *args)
    assert code == 2 and "tracked player" not in out
    assert err == (
        f"error: --player 'Ivanchuk' not marked: {MAY_BE_ONE}, then `tracker player set "
        "Ivanchuk,V --me` marks them; if not, `tracker player set NAME --me` marks the one "
        "you mean; the games are stored\n"
    )
    assert _count(db, "SELECT count(*) FROM games") == 4349
    assert _tracked(db) == [] and _count(db, "SELECT count(*) FROM player_merges") == 0
    assert _players_named(db, "ivanchuk%") == ["Ivanchuk, Vassily", "Ivanchuk,V"]
    # again, the database holding both now: refused before anything is stored
    before = dump_db(db)
    code, out, err = run(capsys, monkeypatch, *args)
    assert (code, out) == (2, "")
    assert err == (
        f"error: {MAY_BE_ONE}, and 'Ivanchuk' names them then; if not, give the spelling you mean\n"
    )
    assert dump_db(db) == before
    # the commands said: the two made one, marked, with every game of the file
    merge = ("player", "merge", "Ivanchuk,V", "Ivanchuk, Vassily", "--db", str(db))
    code, out, err = run(capsys, monkeypatch, *merge)
    assert (code, err) == (0, "") and out.startswith("merged Ivanchuk, Vassily into Ivanchuk,V")
    code, out, err = run(
        capsys, monkeypatch, "player", "set", "Ivanchuk,V", "--me", "--db", str(db)
    )
    assert (code, out, err) == (0, "Ivanchuk,V: tracked player\n", "")
    assert _players_named(db, "ivanchuk%") == ["Ivanchuk,V"]
    mine = (
        "SELECT count(*) FROM games g JOIN players p ON p.id IN (g.white_id, g.black_id) "
        "WHERE p.is_me"
    )
    assert _count(db, mine) == 4349
    # and --player Ivanchuk now names one player
    code, out, err = run(capsys, monkeypatch, *args)
    assert (code, err) == (0, "") and out.endswith("tracked player: Ivanchuk,V\n")


def test_one_spelling_of_two_is_marked_with_the_other_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other way out the line gives: one spelling named whole is marked, the bigger one
    beside it named (as for Carlsen), nothing merged."""
    need_shared()
    db = tmp_path / "t.db"
    args = ("import", str(IVANCHUK), "--player", "Ivanchuk, Vassily", "--db", str(db))
    code, out, err = run(capsys, monkeypatch, *args)
    assert code == 0 and out.endswith("tracked player: Ivanchuk, Vassily\n")
    assert err.startswith("warning: --player 'Ivanchuk, Vassily' marked Ivanchuk, Vassily: 1,237 ")
    assert "`tracker player merge 'Ivanchuk, Vassily' Ivanchuk,V` makes them one" in err
    assert _tracked(db) == ["Ivanchuk, Vassily"]
    assert _count(db, "SELECT count(*) FROM player_merges") == 0


@pytest.fixture(scope="module")
def ivanchuk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with t.db, the Ivanchuk file imported once, nobody marked (the runs on it
    must not write to it), and more.pgn, a game to import."""
    need_shared()
    folder = tmp_path_factory.mktemp("ivanchuk")
    code, _, err = run_captured("import", str(IVANCHUK), "--db", str(folder / "t.db"))
    assert code == 0, err
    write(folder / "more.pgn", pgn(White="Svoboda, Petr", Black="Zeman, Igor"))
    return folder


def test_every_command_names_the_two_spellings_with_the_merge(
    ivanchuk: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Ivanchuk` as any command's player argument (history, explain, next, target, check,
    export, plot, report, event list, event set --player, player set|merge|unmerge, official
    add|list|remove, import --player on the database holding them): the one line that names
    both spellings with their games and the merge, exit 2; nothing merged, picked or
    written."""
    said = f"{MAY_BE_ONE}, and 'Ivanchuk' names them then; if not, give the spelling you mean"
    for args in commands("Ivanchuk", "Kasparov,G"):
        assert refused(ivanchuk, capsys, monkeypatch, args) == said, args
    assert _tracked(ivanchuk / "t.db") == []
    assert _count(ivanchuk / "t.db", "SELECT count(*) FROM player_merges") == 0


def test_every_command_keeps_the_old_line_for_names_of_two_people(
    imported: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`Carlsen` fits Carlsen,H beside Carlsen,M and Carlsen,Magnus: H is not M, so the three
    cannot be one person; every command lists them and asks for more, no merge offered."""
    shutil.copy(imported, tmp_path / "t.db")
    write(tmp_path / "more.pgn", pgn(White="Svoboda, Petr", Black="Zeman, Igor"))
    for args in commands("Carlsen", "Anand,V"):
        assert refused(tmp_path, capsys, monkeypatch, args) == SEVERAL, args
