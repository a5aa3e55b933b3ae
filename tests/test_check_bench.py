"""bench/check_all.py must not rot: run it once on a tiny database (the real run, 10,000
players, is not part of the suite: see bench/README.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.bench, pytest.mark.slow]  # bench script smoke: .ci/run runs them


@pytest.mark.slow
def test_check_bench_smoke(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "check_all.py"),
            "--players",
            "20",
            "--runs",
            "1",
            "--jobs",
            "1",
            "--differ",
            "10",
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "over 20 tracked players" in proc.stdout
    assert "2 players with a one-point difference" in proc.stdout
    assert "| exit code, --jobs 1 | 1 |" in proc.stdout
    assert (tmp_path / "check-bench.md").exists()
