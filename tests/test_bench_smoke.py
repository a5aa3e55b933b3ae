"""The benchmarks must not rot: run each bench script once on a tiny input.

The real runs (1,000,000 games) are never part of the test suite; see bench/README.md.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CORPUS, REPO, need_shared

pytestmark = [pytest.mark.bench, pytest.mark.slow]  # bench script smoke: .ci/run runs them


@pytest.mark.slow
def test_import_bench_smoke(tmp_path: Path) -> None:
    need_shared()
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "import_bench.py"),
            "--games",
            "1500",
            "--extra",
            "300",
            "--anchor-games",
            "1500",
            "--runs",
            "1",
            "--workdir",
            str(tmp_path),
            "--source",
            str(CORPUS / "event-Gibraltar2019.pgn.xz"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| tracker import, new database | 1,500 |" in proc.stdout
    assert "| tracker import, new database, pure Python (TRACKER_PURE_PYTHON=1) | 1,500 |" in (
        proc.stdout
    )
    assert "| CPU us/game |" in proc.stdout
    assert "python-chess read_headers" in proc.stdout
    assert "Slowdown of the extra import" in proc.stdout
    assert (tmp_path / "import-bench.md").exists()


def test_store_floor_smoke(tmp_path: Path) -> None:
    # The storage floor on a sample file: every variant stores the file's games again.
    pgn = REPO / "sample_pgns" / "2025-09-12_brno-autumn-open.pgn"
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "store_floor.py"),
            "--pgn",
            str(pgn),
            "--runs",
            "1",
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    import sqlite3

    with sqlite3.connect(tmp_path / "store-floor-2025-09-12_brno-autumn-open.db") as conn:
        (stored,) = conn.execute("SELECT count(*) FROM games").fetchone()
    assert stored > 0
    assert f"Storage floor: {stored:,} games rows of {pgn.name}" in proc.stdout
    for variant in ("executemany, every index", "INSERT ... SELECT, secondary indexes deferred"):
        assert f"| {variant} |" in proc.stdout
    assert (tmp_path / "store-floor.md").exists()


@pytest.mark.slow
def test_startup_bench_smoke() -> None:
    # bench/startup.py: a reading command's CPU against its libraries' import (issue 18)
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "startup.py"), "--runs", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = {
        line.split("|")[1].strip(): line
        for line in proc.stdout.splitlines()
        if line.startswith("| `")
    }
    assert set(rows) == {
        "`libraries: sqlalchemy, typer`",
        "`tracker history --format json`",
        "`tracker history (table)`",
        "`library: typer`",
        "`tracker --help`",
    }
    # a reading command never imports what only other commands need
    for name in ("`tracker history --format json`", "`tracker history (table)`"):
        assert "x |" in rows[name]
        assert not {"alembic", "matplotlib", "rich"} & set(
            rows[name].split("|")[4].replace(",", " ").split()
        )


def test_event_show_bench_smoke(tmp_path: Path) -> None:
    # issue 38: a small open among the players of the sample season, timed once
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "event_show.py"),
            "--pgn",
            str(REPO / "sample_pgns"),
            "--players",
            "12",
            "--rounds",
            "3",
            "--runs",
            "1",
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "the open 12 players x 3 rounds (18 games)" in proc.stdout
    assert "| show_event in process | " in proc.stdout
    assert "| `tracker event show --format json` (a process) | " in proc.stdout


def test_club_bench_smoke(tmp_path: Path) -> None:
    # issue 38: the club list of the sample season, timed once
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "club.py"),
            "--pgn",
            str(REPO / "sample_pgns"),
            "--runs",
            "1",
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "players on the standard list" in proc.stdout
    assert "| `tracker club --html FILE` (a process) |" in proc.stdout
