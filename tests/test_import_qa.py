"""Bugs found by the QA pass over `tracker import|imports|players` (bugs 5, 12, 15, 25).

In process through the entry point where output is the point; a subprocess where a real
signal is (Ctrl-C during an import).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from tests.conftest import dump_db, run_cli, subprocess_env, tracker_command
from tests.test_import import pgn, write
from tracker.store import Store
from tracker.store.players import list_players
from tracker.store.schema import games, imports


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        *args: str) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)


# --- bug 15: `tracker players` on a big database ------------------------------------------


def test_players_table_is_plain_aligned_lines(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "a.pgn", pgn(Round="1", WhiteFideId="99012345"),
          pgn(Round="2", Date="2025.03.02", TimeControl="600+5"),
          pgn(Round="3", White="Dvorak, Jiri", Black="Novak, Jan", Date="2025.04.01"))
    code, _, err = run(capsys, monkeypatch, "import", "a.pgn", "--player", "Svoboda, Petr")
    assert code == 0, err
    code, out, err = run(capsys, monkeypatch, "players")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["id", "name", "FIDE", "ID", "standard", "rapid", "blitz",
                                "first", "last"]
    assert set(lines[1].replace(" ", "")) == {"─"}  # one rule under the header, as every table
    assert [line.split()[0] for line in lines[2:]] == ["3", "1", "2"]  # by name
    assert lines[3].split() == ["1", "Novak,", "Jan", "99012345", "2", "1", "0",
                                "2025-03-01", "2025-04-01"]
    assert "Svoboda, Petr (me)" in lines[4]
    assert lines[2].index("Dvorak") == lines[0].index("name")
    code, out, _ = run(capsys, monkeypatch, "players", "--search", "dvor")
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["3"]


def test_every_player_and_a_search_agree(store: Store, tmp_path: Path) -> None:
    """The list of every player (one grouped pass over the games) and a search (by ids)
    give the same rows: counts per list, dates, aliases."""
    from tracker.importer import ImportOptions, import_paths
    from tracker.store.players import merge, resolve_player

    write(tmp_path / "a.pgn", pgn(Round="1"), pgn(Round="2", White="Novak,J", Black="Kral, Ota"),
          pgn(Round="3", Date="2025.05.01", TimeControl="180+2"),
          pgn(Round="4", Date="2025.??.??", Black="Kral, Ota"))
    import_paths(store, [str(tmp_path / "a.pgn")], ImportOptions())
    merge(store, resolve_player(store, "Novak, Jan").id, resolve_player(store, "Novak,J").id)
    every = list_players(store)
    assert [p.name for p in every] == ["Kral, Ota", "Novak, Jan", "Svoboda, Petr"]
    for p in every:
        (found,) = [q for q in list_players(store, p.name) if q.id == p.id]
        assert found == p
    novak = every[1]
    assert novak.games == {"standard": 3, "blitz": 1}
    assert (str(novak.first), str(novak.last)) == ("2025-03-01", "2025-05-01")
    assert novak.aliases == ("novak j", "novak jan")


# --- bug 12: Ctrl-C during an import ------------------------------------------------------


class _File:
    def __init__(self, path: Path) -> None:
        self.name = path.name
        self.path = path

    def open(self) -> Any:
        return self.path.open("rb")


def test_ctrl_c_stops_at_a_safe_point_and_says_what_is_stored(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGINT while the second source is read: the first is stored and was handed to
    on_source as it finished; the second is rolled back whole; Interrupted names it; the
    default SIGINT handler is back afterwards."""
    from tracker.importer import ImportOptions, Interrupted, import_sources
    from tracker.importer import batches as importer
    from tracker.pgn import read_games

    monkeypatch.setattr(importer, "BATCH", 2)
    a = write(tmp_path / "a.pgn", *(pgn(Round=str(r)) for r in range(3)))
    b = write(tmp_path / "b.pgn", *(pgn(Round=f"b{r}") for r in range(6)))
    c = write(tmp_path / "c.pgn", pgn(Round="c"))
    done: list[str] = []

    def reader(stream: Any, name: str) -> Iterator[Any]:
        for i, game in enumerate(read_games(stream, name)):
            if name == "b.pgn" and i == 3:  # after b's first batch was written
                os.kill(os.getpid(), signal.SIGINT)
            yield game

    with pytest.raises(Interrupted) as caught:
        import_sources(store, [_File(a), _File(b), _File(c)], ImportOptions(workers=False),
                       None, reader, lambda rep: done.append(rep.name))
    assert caught.value.source == "b.pgn"
    assert [s.name for s in caught.value.report.sources] == done == ["a.pgn"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with store.engine.connect() as conn:
        assert conn.execute(select(games.c.round).order_by(games.c.id)).scalars().all() == [
            "0", "1", "2"]
        assert conn.execute(select(imports.c.source)).scalars().all() == ["a.pgn"]


def test_ctrl_c_in_a_three_file_import_says_one_line(tmp_path: Path) -> None:
    """The reported case, with a real signal to the process group (as a terminal sends it,
    to the forked readers too): the finished files' lines were printed as each finished,
    then one line says what Ctrl-C left; exit code 130; the third file is not stored."""
    def make(path: Path, games_: int) -> Path:
        tag = path.stem.upper()
        with path.open("w", encoding="utf-8") as fh:
            for i in range(games_):
                fh.write(pgn(Event=f"{tag} {i // 400}", Round=str(i), White=f"{tag}W{i % 397}",
                             Black=f"{tag}B{i % 391}"))
        return path

    make(tmp_path / "a.pgn", 300)
    make(tmp_path / "b.pgn", 300)
    make(tmp_path / "c.pgn", 60_000)  # seconds to import: the signal comes well before
    db = tmp_path / "t.db"
    proc = subprocess.Popen(
        tracker_command("import", "a.pgn", "b.pgn", "c.pgn", "--db", str(db)),
        cwd=tmp_path, env=subprocess_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while _finished_imports(db) < 2:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert (proc.returncode, err.decode()) == (
        130, "interrupted: c.pgn was not imported (nothing of it stored); 2 files before it "
             "are stored\n")
    assert [line.split(":")[0] for line in out.decode().splitlines()] == ["a.pgn", "b.pgn"]
    con = sqlite3.connect(db)
    try:
        assert con.execute("SELECT source FROM imports ORDER BY id").fetchall() == [
            ("a.pgn",), ("b.pgn",)]
        assert con.execute("SELECT count(*) FROM games").fetchone() == (600,)
    finally:
        con.close()


def _finished_imports(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return int(con.execute(
                "SELECT count(*) FROM imports WHERE finished_at IS NOT NULL").fetchone()[0])
        finally:
            con.close()
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0


# --- bug 5: a corrected result can land ---------------------------------------------------


def test_a_changed_result_is_reported_then_replaced_after_imports_remove(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "old.pgn", pgn(Round="1"), pgn(Round="2", White="Kral, Ota"))
    write(tmp_path / "other.pgn", pgn(Round="1", Event="Other Open", Black="Dvorak, Jiri"))
    write(tmp_path / "new.pgn", pgn(Round="1", Result="0-1"), pgn(Round="2", White="Kral, Ota"))
    for name in ("old.pgn", "other.pgn"):
        assert run(capsys, monkeypatch, "import", name)[0] == 0
    code, out, err = run(capsys, monkeypatch, "import", "new.pgn")
    assert code == 0
    assert out.splitlines()[0] == "new.pgn: 2 games read, 0 added, 2 already stored, 1 problem"
    assert err.splitlines() == [
        "warning: new.pgn:1: this game is already stored with result 1-0 (import 1: old.pgn, "
        "line 1); the file says 0-1: the stored one is kept (`tracker imports remove 1`, then "
        "import again, to replace it)"]
    code, out, _ = run(capsys, monkeypatch, "imports", "remove", "1", "--dry-run")
    assert code == 0
    assert out.splitlines() == [
        out.splitlines()[0], "  2 games", "  1 tournament: Club Open",
        "  2 players: Svoboda, Petr; Kral, Ota",
        "  kept: 1 player with other games, official entries or facts",
        "  1 later import skipped duplicates, perhaps of these games: new.pgn: importing it "
        "again stores them",
        "--dry-run: nothing was changed"]
    assert out.startswith("would remove import 1: old.pgn (imported ")
    code, out, _ = run(capsys, monkeypatch, "imports", "remove", "1")
    assert code == 0 and out.startswith("removed import 1: old.pgn")
    code, out, err = run(capsys, monkeypatch, "import", "new.pgn")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "new.pgn: 2 games read, 2 added"
    code, out, _ = run(capsys, monkeypatch, "players", "--format", "json")
    assert sorted(p["name"] for p in json.loads(out)) == [
        "Dvorak, Jiri", "Kral, Ota", "Novak, Jan", "Svoboda, Petr"]
    code, out, _ = run(capsys, monkeypatch, "imports", "--format", "json")
    assert [(r["id"], r["source"], r["games_added"]) for r in json.loads(out)] == [
        (2, "other.pgn", 1), (3, "new.pgn", 0), (4, "new.pgn", 2)]
    code, _, err = run(capsys, monkeypatch, "imports", "remove", "1")
    assert (code, err) == (1, "error: there is no import 1: `tracker imports` lists them "
                              "with their ids\n")


def test_remove_keeps_what_the_user_said_and_what_others_need(
        store: Store, tmp_path: Path) -> None:
    from tracker.importer import ImportOptions, import_paths
    from tracker.store.imports import remove_import
    from tracker.store.players import resolve_player, set_facts, set_me
    from tracker.store.schema import players, tournaments

    write(tmp_path / "a.pgn", pgn(Round="1"), pgn(Round="2", Event="Pinned", White="A, A"),
          pgn(Round="3", Event="Gone", White="B, B", Black="C, C"),
          pgn(Round="4", Event="Gone", White="D, D", Black="E, E"))
    write(tmp_path / "b.pgn", pgn(Round="9", Black="F, F"))  # Club Open, Novak: shared
    import_paths(store, [str(tmp_path / "a.pgn"), str(tmp_path / "b.pgn")], ImportOptions())
    set_me(store, resolve_player(store, "B, B").id)
    set_facts(store, resolve_player(store, "C, C").id, birth_year=2001)
    with store.engine.begin() as conn:
        conn.execute(tournaments.update().where(tournaments.c.event == "Pinned")
                     .values(excluded=True))
    before = dump_db(tmp_path / "t.db")
    dry = remove_import(store, 1, dry_run=True)
    assert dump_db(tmp_path / "t.db") == before
    done = remove_import(store, 1)
    assert done == dry
    assert (done.games, done.tournaments, done.players) == (
        4, ("Gone",), ("Svoboda, Petr", "A, A", "D, D", "E, E"))
    assert (done.kept_tournaments, done.kept_players) == (2, 3)  # Club Open, Pinned; B C Novak
    with store.engine.connect() as conn:
        assert sorted(conn.execute(select(players.c.name)).scalars()) == [
            "B, B", "C, C", "F, F", "Novak, Jan"]
        assert sorted(conn.execute(select(tournaments.c.event)).scalars()) == [
            "Club Open", "Pinned"]
        assert [Path(x).name for x in conn.execute(select(imports.c.source)).scalars()] == [
            "b.pgn"]
    from tracker.store.maintenance import check_database
    assert check_database(store) == []


def test_imports_remove_takes_the_groups_db(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`tracker imports --db X remove ID` works on X (not silently on tracker.db)."""
    write(tmp_path / "a.pgn", pgn())
    assert run(capsys, monkeypatch, "import", "a.pgn", "--db", "x.db")[0] == 0
    code, out, err = run(capsys, monkeypatch, "imports", "--db", "x.db", "remove", "1")
    assert (code, err) == (0, "") and out.startswith("removed import 1: a.pgn")
    assert not (tmp_path / "tracker.db").exists()
    code, out, _ = run(capsys, monkeypatch, "imports", "--db", "x.db", "--format", "json")
    assert json.loads(out) == []
