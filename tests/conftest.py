"""Shared fixtures: the repository, `../shared` beside it, a fresh database per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tracker.store import Store, open_store

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
SPEC = SHARED / "spec"
SAMPLES = REPO / "sample_pgns"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "t.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    s = open_store(str(db_path))
    try:
        yield s
    finally:
        s.close()


def need_shared() -> None:
    """Skip loudly when ../shared is missing (CI always has it beside the clone)."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} not found (CI lays shared/ beside the clone)")


def run_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    """Run `tracker ARGS...` in process through its entry point: (exit code, stdout, stderr)."""
    import sys

    from tracker.cli import main

    monkeypatch.setattr(sys, "argv", ["tracker", *args])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    got = capsys.readouterr()
    return code, got.out, got.err


def tracker_command(*args: str) -> list[str]:
    """`tracker ARGS...` as a subprocess command line (this interpreter, this checkout)."""
    import sys

    return [sys.executable, "-m", "tracker", *args]


def subprocess_env() -> dict[str, str]:
    """The environment for a `tracker` subprocess: this checkout first, no TRACKER_DB."""
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("TRACKER_DB", None)
    return env


def dump_db(db: Path) -> list[str]:
    """The database as SQL statements: equal dumps mean nothing was written."""
    import sqlite3

    con = sqlite3.connect(db)
    try:
        return list(con.iterdump())
    finally:
        con.close()
