"""Bugs of the exploratory QA run (13, 14, 16, 18, 25), through the real entry point.

The season (hand-made, tests/helpers_history.py): official Oct 2025 1850; "Autumn Open"
4-5 Oct 2025 (default list 2025-11); "Weinviertel Open 2025" 21-23 Nov 2025 (default list
2025-12, and no earlier list can rate it: its last round is after 1 Nov).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import pytest
from sqlalchemy import insert

from tests.conftest import dump_db, run_cli
from tests.helpers_history import Season
from tracker import listgen
from tracker.errors import BadInput
from tracker.model import Period, RatingList
from tracker.periods import TournamentFact
from tracker.store import open_store
from tracker.store.schema import player_names, players

Run = tuple[int, str, str]


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> Run:
    return run_cli(capsys, monkeypatch, *args)


@pytest.fixture(scope="module")
def season_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db_path = tmp_path_factory.mktemp("qa2") / "season.db"
    with open_store(str(db_path)) as store:
        s = Season(store, birth_year=1988, rated_games=100)
        t = s.tournament("Autumn Open", "2025-10-04", "2025-10-05")
        s.game(t, 1700, 1, own_elo=1850, date="2025-10-04")
        s.game(t, 2000, 0, own_elo=1850, date="2025-10-05")
        w = s.tournament("Weinviertel Open 2025", "2025-11-21", "2025-11-23")
        s.game(w, 1800, "1/2", own_elo=1850, date="2025-11-21")
        s.game(w, 1900, 1, own_elo=1850, date="2025-11-23")
        s.official("2025-10", 1850, k=20)
    return db_path


@pytest.fixture
def db(season_template: Path, tmp_path: Path) -> str:
    target = tmp_path / "season.db"
    shutil.copyfile(season_template, target)
    return str(target)


def _event_id(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str,
              name: str) -> int:
    code, out, err = run(capsys, monkeypatch, "event", "list", "--format", "json", "--db", db)
    assert code == 0, err
    return int(next(r["id"] for r in json.loads(out) if r["name"] == name))


# --- 18: a reversed --from/--to ----------------------------------------------------------


def test_history_reversed_range_says_so(db: str, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for fmt in ("table", "csv", "json"):
        code, out, err = run(capsys, monkeypatch, "history", "--from", "2026-05", "--to",
                             "2025-09", "--format", fmt, "--db", db)
        assert (code, out) == (2, "")
        assert err == ("error: --from 2026-05 is after --to 2025-09: give the earlier period "
                       "with --from\n")
    code, out, err = run(capsys, monkeypatch, "history", "--from", "2025-11", "--to", "2025-11",
                         "--format", "json", "--db", db)
    assert code == 0, err
    assert [r["period"] for r in json.loads(out)] == ["2025-11"]
