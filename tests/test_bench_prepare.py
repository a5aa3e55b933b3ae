"""bench/prepare_bench.py must not rot: the preparer of this tree against itself on the
sample season gives the same values for every game, and the script says so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SAMPLES

pytestmark = [pytest.mark.bench, pytest.mark.slow]  # bench script smoke: .ci/run runs them


def test_prepare_bench_smoke(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "prepare_bench.py"),
            "--base",
            str(REPO),
            "--runs",
            "1",
            "--workdir",
            str(tmp_path),
            *map(str, sorted(SAMPLES.glob("*.pgn"))),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "values (games, skipped and warnings) from both" in proc.stderr
    assert "this tree: " in proc.stdout and "ratio base/this tree: " in proc.stdout
    assert list(tmp_path.iterdir()) == []  # its pickles removed
