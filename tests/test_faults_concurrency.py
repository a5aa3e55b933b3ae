"""Two and four `tracker import` processes into one database at once, with a reader running
`tracker history` all the while (issue 7): every process completes (exit 0), none reports
"database is locked", no game is stored twice, and `tracker db check` passes.

Each importer i imports its own file: UNIQUE games of its own plus the SHARED games (the
same games, in an order of its own, so the files differ and the overlap is found by game
identity), then common.pgn (the very same file for all). The database starts with two
games of Novak, Jan, whose history the reader asks for in a loop.
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from tests import listgen
from tests.conftest import subprocess_env, tracker_command
from tests.test_import import pgn, write
from tracker.store import open_store
from tracker.store.maintenance import check_database

pytestmark = pytest.mark.slow  # fault injection: processes killed, disks full, writers at once

UNIQUE = 600
SHARED = 200


def _game(tag: str, i: int) -> str:
    return pgn(
        Event=f"{tag} {i // 250}",
        Round=str(i),
        White=f"{tag}W{i % 97}",
        Black=f"{tag}B{i % 89}",
        WhiteElo=str(1500 + i % 900),
        BlackElo="1600",
    )


@pytest.mark.slow
@pytest.mark.parametrize("writers", [2, 4])
def test_concurrent_imports_and_a_reader(tmp_path: Path, writers: int) -> None:
    db = tmp_path / "c.db"
    base = write(
        tmp_path / "base.pgn",
        pgn(Round="1", WhiteElo="1800", BlackElo="1750"),
        pgn(Round="2", Result="0-1", WhiteElo="1800", BlackElo="1750"),
    )
    first = subprocess.run(
        tracker_command("import", str(base), "--db", str(db), "--quiet"),
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert first.returncode == 0, first.stderr
    shared = [_game("S", i) for i in range(SHARED)]
    common = write(tmp_path / "common.pgn", *(_game("C", i) for i in range(50)))
    files = []
    for w in range(writers):
        rotated = shared[w * 37 :] + shared[: w * 37]
        own = [_game(f"U{w}", i) for i in range(UNIQUE)]
        files.append(write(tmp_path / f"own{w}.pgn", *own[:300], *rotated, *own[300:]))
    procs = [
        subprocess.Popen(
            tracker_command("import", str(f), str(common), "--db", str(db), "--quiet"),
            env=subprocess_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for f in files
    ]
    reads: list[tuple[int, str]] = []
    while any(p.poll() is None for p in procs) or not reads:
        r = subprocess.run(
            tracker_command("history", "Novak, Jan", "--format", "json", "--db", str(db)),
            env=subprocess_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        reads.append((r.returncode, r.stderr))
    results = []
    deadline = time.monotonic() + 300
    for p in procs:
        out, err = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
        results.append((p.returncode, err))
    assert all(code == 0 for code, _ in results), results
    assert all(code == 0 for code, _ in reads), reads
    everything = "".join(err for _, err in results + reads)
    assert "locked" not in everything and "busy" not in everything, everything
    con = sqlite3.connect(db)
    try:
        games = con.execute("SELECT count(*) FROM games").fetchone()[0]
        doubled = con.execute(
            "SELECT count(*) FROM (SELECT identity FROM games GROUP BY "
            "identity HAVING count(*) > 1)"
        ).fetchone()[0]
        players = con.execute("SELECT count(*), count(DISTINCT norm_name) FROM players").fetchone()
        commons = con.execute(
            "SELECT games_added FROM imports WHERE source = ?", (str(common),)
        ).fetchall()
    finally:
        con.close()
    assert games == 2 + writers * UNIQUE + SHARED + 50
    assert doubled == 0 and players[0] == players[1]
    assert sum(n for (n,) in commons) == 50  # landed once (others: already, or duplicates)
    with open_store(str(db)) as store:
        assert check_database(store) == []
    print(f"{writers} writers + reader: {len(reads)} history runs, all exit 0")


LIST_PLAYERS = 2_000


@pytest.mark.slow
@pytest.mark.databases
def test_three_list_imports_of_one_list_at_once(
    tmp_path: Path, db_target: str, backend: str
) -> None:
    # Issue 35, item 7: three `official import --all` of one list at once on one database.
    # Before, on SQLite, two of three failed every time ("UNIQUE constraint failed:
    # players.fide_id", an internal error: exit 3): each read the list's players as new
    # before any of them wrote (the write lock came with the first write); PostgreSQL took
    # its advisory lock first. Now both take the write lock first: one creates the players,
    # the two others find them.
    fide_list = listgen.generate(tmp_path / "standard_nov25frl.txt", LIST_PLAYERS, "txt")
    if backend == "sqlite":  # (PostgreSQL: db_target holds the schema already)
        with open_store(db_target):
            pass
    procs = [
        subprocess.Popen(
            tracker_command("official", "import", str(fide_list), "--all", "--db", db_target),
            env=subprocess_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    deadline = time.monotonic() + 300
    results = [
        (p.returncode, out, err)
        for p in procs
        for out, err in [p.communicate(timeout=max(1.0, deadline - time.monotonic()))]
    ]
    assert [(code, err) for code, _, err in results] == [(0, "")] * 3, results
    news = sorted(
        int(found.group(1).replace(",", ""))
        for _, out, _ in results
        if (found := re.search(r"kept \(([\d,]+) new\)", out))
    )
    assert news == [0, 0, LIST_PLAYERS], results  # one made them, two found them
    one = str(tmp_path / "one.db")  # what one import alone stores
    done = subprocess.run(
        tracker_command("official", "import", str(fide_list), "--all", "--db", one),
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr

    def facts(target: str) -> tuple[list[str], list[str]]:
        with open_store(target) as s, s.engine.connect() as conn:
            people = sorted(
                f"{n} {f} {t} {c} {b}"
                for n, f, t, c, b in conn.execute(
                    text("SELECT name, fide_id, title, federation, birth_year FROM players")
                )
            )
            entries = sorted(
                f"{f} {lst} {p} {r} {k}"
                for f, lst, p, r, k in conn.execute(
                    text(
                        'SELECT p.fide_id, o."list", o.period, o.rating, o.k FROM '
                        "official_ratings o JOIN players p ON p.id = o.player_id"
                    )
                )
            )
        return people, entries

    assert facts(db_target) == facts(one)
    assert len(facts(one)[0]) == LIST_PLAYERS
    with open_store(db_target) as store:
        assert check_database(store) == []
