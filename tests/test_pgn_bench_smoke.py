"""bench/pgn_scan.py and bench/header_scan.py must not rot: run each once on small inputs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import CORPUS, REPO, need_shared

pytestmark = pytest.mark.slow  # benchmark smoke: a bench script on generated data


@pytest.mark.bench  # bench script smoke: .ci/run runs it
def test_pgn_scan_smoke() -> None:
    need_shared()
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "pgn_scan.py"),
            str(CORPUS / "python-chess-kasparov-deep-blue-1997.pgn"),
            "--runs",
            "1",
            "--methods",
            "read_games,read_games_pure,line_machine,read_headers,skip_game,cat",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| read_games | 6 |" in proc.stdout
    assert "| read_games_pure | 6 |" in proc.stdout
    assert "| read_headers | 6 |" in proc.stdout


def test_header_scan_counts_like_the_corpus_readme() -> None:
    need_shared()
    files = ["pgnmentor-Korchnoi.pgn.xz", "event-Gibraltar2019.pgn.xz", "pychess-chess960rwch.pgn"]
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "header_scan.py"), *(str(CORPUS / f) for f in files)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    # shared/corpus/README.md: 4,569 + 1,199 + 20 header blocks
    assert "    4,569  pgnmentor-Korchnoi.pgn.xz" in proc.stdout
    assert "    5,788  total (3 files)" in proc.stdout
