"""bench/classify_names.py must not rot: run it once on one corpus file, against this very
tree as the other checkout (so nothing changes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CORPUS, REPO, need_shared

pytestmark = [pytest.mark.bench, pytest.mark.slow]  # bench script smoke: .ci/run runs them


def test_classify_names_runs(tmp_path: Path) -> None:
    need_shared()
    out = tmp_path / "names.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "classify_names.py"),
            "--base",
            str(REPO),
            "--json",
            str(out),
            str(CORPUS / "pgnmentor-Morphy.pgn.xz"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        check=True,
    )
    assert "0 events changed" in proc.stdout
    rows = json.loads(out.read_text())
    assert rows and all(len(row) == 5 for row in rows)  # event, round, list, reason, time
