"""bench/history.py cannot rot: run it on a small synthetic career."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.bench, pytest.mark.slow]  # bench script smoke: .ci/run runs them


def test_history_bench_smoke() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "history.py"), "--games", "300", "--runs", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert "| history command (in process) |" in done.stdout


def test_cli_default_db_is_the_stores() -> None:
    from tracker.cli.options import DEFAULT_DB
    from tracker.store import DEFAULT_DB as STORE_DEFAULT_DB

    assert DEFAULT_DB == STORE_DEFAULT_DB


def test_cli_starts_without_the_heavy_modules() -> None:
    """`tracker --help` and every command's start: no SQLAlchemy, rich or use case is
    imported until a command runs (bench/history.py measures the start-up)."""
    heavy = (
        "sqlalchemy",
        "rich",
        "chess",
        "tracker.store",
        "tracker.check",
        "tracker.importer",
        "tracker.reports",
        "tracker.lists",
        "tracker.app",
        "tracker.identity",
        "tracker.fide",
        "tracker.periods",
    )
    code = "import json, sys, tracker.cli; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    found = [m for m in loaded if any(m == h or m.startswith(h + ".") for h in heavy)]
    assert not found
