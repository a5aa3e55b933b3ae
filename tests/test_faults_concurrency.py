"""Two and four `tracker import` processes into one database at once, with a reader running
`tracker history` all the while (issue 7): every process completes (exit 0), none reports
"database is locked", no game is stored twice, and `tracker db check` passes.

Each importer i imports its own file: UNIQUE games of its own plus the SHARED games (the
same games, in an order of its own, so the files differ and the overlap is found by game
identity), then common.pgn (the very same file for all). The database starts with two
games of Novak, Jan, whose history the reader asks for in a loop.
"""

from __future__ import annotations

import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

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
