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
