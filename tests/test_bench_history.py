"""bench/history.py cannot rot: run it on a small synthetic career."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def test_history_bench_smoke() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "history.py"), "--games", "300", "--runs", "1"],
        capture_output=True, text=True, timeout=300, cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert "| history command (in process) |" in done.stdout
