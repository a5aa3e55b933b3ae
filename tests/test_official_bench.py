"""bench/official_import.py must not rot: run it once on a 1,000-player list (fast)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.bench, pytest.mark.slow]  # bench script smoke: .ci/run runs them


def test_official_bench_smoke(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "official_import.py"),
            "--players",
            "1000",
            "--known",
            "100",
            "--runs",
            "1",
            "--formats",
            "TXT",
            "--modes",
            "parse,known,all",
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert (
        "| file | case | median s | min-max s | CPU s | players/s | peak RSS MiB | result |" in out
    )
    assert "| parse only (no database) |" in out and "1,000 rows |" in out
    assert "1,000 players read; 100 in the database; " in out
    assert "1,000 players read; 1,000 kept (1,000 new); " in out
    assert (tmp_path / "official-bench.md").read_text(encoding="utf-8") == out


def test_official_bench_archive_and_against_smoke(tmp_path: Path) -> None:
    """--archive (a folder of monthly lists of every layout) and --against (another tree,
    alternately: here this one against itself)."""
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "official_import.py"),
            "--archive",
            "5",
            "--archive-size",
            "100:400",
            "--known",
            "10",
            "--runs",
            "1",
            "--against",
            str(REPO),
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert out.startswith(
        "Official import of an archive folder: 5 monthly lists of every layout since 2001 ("
    )
    assert "| tree | median s | min-max s | CPU s | rows/s | peak RSS MiB | result |" in out
    rows = [line for line in out.splitlines() if line.startswith(("| before |", "| after |"))]
    assert len(rows) == 2
    assert all("| 5 files: 5 read, 0 not imported; " in line for line in rows)
    names = sorted(p.name for p in (tmp_path / "archive-5-100:400").iterdir())
    assert names == ["APR01FRL.zip", "JAN01FRL.zip", "JAN02FRL.zip", "JUL01FRL.zip", "OCT01FRL.zip"]


def test_list_names_bench_smoke(tmp_path: Path) -> None:
    """bench/list_names.py (issue 34 item 4): a small list into a career's database against
    zipfile reading its lines, alternated with another tree (here this one)."""
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "list_names.py"),
            "--players",
            "2000",
            "--runs",
            "1",
            "--blank-mib",
            "2",
            "--pgn",
            str(REPO / "sample_pgns" / "2025-10-03_olomouc-open.pgn"),
            "--against",
            str(REPO),
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert out.startswith("A 2,000-row standard list (")
    assert "| zipfile reads the list's lines (the anchor) |" in out and "| 2,001 lines |" in out
    assert out.count("2,000 players read") == 2 and out.count("100 players read") == 2
    assert "| exit 2: error: " in out and "no players in the list" in out
    assert (tmp_path / "list-names-bench.md").read_text(encoding="utf-8") == out
