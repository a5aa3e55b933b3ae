"""The sample season as `tracker demo` records it (the official 2025-09 anchors of every list),
built once per test module: its database and the player's replayed history."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES, run_cli


def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run `tracker demo` into a fresh folder (database, CSV, chart, season.html)."""
    folder = tmp_path_factory.mktemp("demo") / "demo-out"
    mp = pytest.MonkeyPatch()
    try:
        import io
        import sys
        out, err = io.StringIO(), io.StringIO()
        mp.setattr(sys, "stdout", out)
        mp.setattr(sys, "stderr", err)
        from tracker.cli import main
        try:
            mp.setattr(sys, "argv", ["tracker", "demo", "--samples", str(SAMPLES),
                                     "--output-dir", str(folder)])
            main()
        except SystemExit as exc:
            assert exc.code in (0, None), err.getvalue()
    finally:
        mp.undo()
    return folder


__all__ = ["demo_folder", "run_cli"]
