"""bench/official_import.py must not rot: run it once on a 1,000-player list (fast)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO


def test_official_bench_smoke(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "official_import.py"), "--players", "1000",
         "--known", "100", "--runs", "1", "--formats", "TXT", "--modes", "parse,known,all",
         "--workdir", str(tmp_path)],
        capture_output=True, text=True, timeout=300, cwd=REPO, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert ("| file | case | median s | min-max s | CPU s | players/s | peak RSS MiB | result |"
            in out)
    assert "| parse only (no database) |" in out and "1,000 rows |" in out
    assert "1,000 players read; 100 in the database; " in out
    assert "1,000 players read; 1,000 kept (1,000 new); " in out
    assert (tmp_path / "official-bench.md").read_text(encoding="utf-8") == out
