"""An import into a damaged database stops at once with the damaged-database line and exit
code 4 (not "file not imported" for every file, exit 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO, run_cli

SAMPLES = REPO / "sample_pgns"


def test_an_import_into_a_damaged_database_stops_with_exit_4(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "c.db"
    code, _, err = run_cli(capsys, monkeypatch, "import", "--db", str(db),
                           str(SAMPLES / "2025-09-12_brno-autumn-open.pgn"))
    assert code == 0, err
    with db.open("r+b") as f:  # page 3 (a table's b-tree) overwritten
        f.seek(3 * 4096)
        f.write(b"\xff" * 4096)
    code, out, err = run_cli(capsys, monkeypatch, "import", "--db", str(db),
                             str(SAMPLES / "2025-10-03_olomouc-open.pgn"),
                             str(SAMPLES / "2025-11-21_weinviertel-open.pgn"))
    assert code == 4, (out, err)
    assert "not imported" not in out + err
    assert err.count("\n") == 1 and err.startswith(f"error: {db} is damaged"), err
