"""SIGKILL at random points of a large import (issue 7): every time, the database opens,
passes `PRAGMA integrity_check` and `tracker db check`, and holds exactly the files that
completed (a prefix of the files named, each whole), never part of one.

One run imports three files (FILES games each) in one `tracker import` process. Each kill
run picks a random point: a stage (0, 1 or 2 files finished, watched through a read-only
connection) and a random delay after reaching it, then sends SIGKILL (seeded:
TRACKER_KILL_SEED, default 7; runs: TRACKER_KILL_RUNS, default 10; the loop stops launching
runs after TRACKER_KILL_BUDGET seconds, default 30). At the end, the last killed
database is imported again to completion: it then holds every game exactly once.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import subprocess_env, tracker_command
from tests.test_import import pgn
from tracker.store import open_store
from tracker.store.maintenance import check_database

pytestmark = pytest.mark.slow  # fault injection: processes killed, disks full, writers at once

FILES = (("a.pgn", 600), ("b.pgn", 6_000), ("c.pgn", 600))
RUNS = int(os.environ.get("TRACKER_KILL_RUNS", "10"))
SEED = int(os.environ.get("TRACKER_KILL_SEED", "7"))
BUDGET = float(os.environ.get("TRACKER_KILL_BUDGET", "30"))


def _write(path: Path, games: int) -> Path:
    tag = path.stem.upper()
    with path.open("w", encoding="utf-8") as fh:
        for i in range(games):
            fh.write(
                pgn(
                    Event=f"{tag} {i // 400}",
                    Round=str(i),
                    White=f"{tag}W{i % 397}",
                    Black=f"{tag}B{i % 391}",
                    WhiteElo=str(1500 + i % 900),
                )
            )
    return path


def _state(db: Path) -> tuple[list[str], int]:
    """(sources of finished imports in order, games), after checking integrity."""
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
        if "imports" not in tables:  # killed before the schema was created
            return [], 0
        sources = [r[0] for r in con.execute("SELECT source FROM imports ORDER BY id")]
        games = con.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        con.close()
    return [Path(s).name for s in sources], int(games)


def _verify(db: Path, names: list[str], sizes: dict[str, int]) -> list[str]:
    sources, games = _state(db)
    assert sources == names[: len(sources)], sources  # a prefix of the files, in order
    assert games == sum(sizes[s] for s in sources), (sources, games)
    with open_store(str(db)) as store:  # opens (and upgrades, if killed mid-migration)
        assert check_database(store) == []
    return sources


def _wait_for(db: Path, stage: int, proc: subprocess.Popen[bytes]) -> None:
    """Until `stage` imports are finished in `db` (or the process ends)."""
    while proc.poll() is None:
        if stage == 0:
            return
        try:
            con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
            try:
                n = con.execute("SELECT count(*) FROM imports").fetchone()[0]
            finally:
                con.close()
            if n >= stage:
                return
        except sqlite3.Error:  # not created yet
            pass
        time.sleep(0.02)


@pytest.mark.slow
def test_sigkill_at_random_points_of_a_large_import(tmp_path: Path) -> None:
    paths = [_write(tmp_path / name, n) for name, n in FILES]
    names = [name for name, _ in FILES]
    sizes = dict(FILES)
    args = [str(p) for p in paths]
    start = time.monotonic()
    rng = random.Random(SEED)
    killed: list[tuple[float, list[str]]] = []
    finished = 0
    db = tmp_path / "none.db"
    for run in range(RUNS):
        if time.monotonic() - start > BUDGET:
            break
        db = tmp_path / f"k{run}.db"
        stage, delay = rng.choice((0, 0, 1, 1, 2)), rng.uniform(0.0, 0.3)
        proc = subprocess.Popen(
            tracker_command("import", *args, "--db", str(db), "--quiet"),
            env=subprocess_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for(db, stage, proc)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if proc.returncode != -signal.SIGKILL:
            assert proc.returncode == 0
            finished += 1
        if not db.exists():  # killed before the file was created: nothing to check
            killed.append((delay, []))
            continue
        sources = _verify(db, names, sizes)
        if proc.returncode == -signal.SIGKILL:
            killed.append((delay, sources))
    assert len(killed) >= min(3, RUNS), (killed, finished)
    # Import the last killed database again: it completes, every game exactly once.
    if db.exists():
        again = subprocess.run(
            tracker_command("import", *args, "--db", str(db), "--quiet"),
            env=subprocess_env(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert again.returncode == 0, again.stderr
        assert _verify(db, names, sizes) == names
    print(
        f"kills survived: {len(killed)} (finished before the kill: {finished}); points: "
        + ", ".join(f"{d:.2f}s->{'+'.join(s) or '-'}" for d, s in killed)
    )
