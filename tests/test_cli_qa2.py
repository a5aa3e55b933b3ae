"""Bugs of the exploratory QA run (13, 14, 16, 18, 25), through the real entry point.

The season (hand-made, tests/helpers_history.py): official Oct 2025 1850; "Autumn Open"
4-5 Oct 2025 (default list 2025-11); "Weinviertel Open 2025" 21-23 Nov 2025 (default list
2025-12, and no earlier list can rate it: its last round is after 1 Nov).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from tests.conftest import run_cli
from tests.helpers_history import Season
from tracker.model import Period
from tracker.store import open_store

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


# --- 16: one x label per list month -------------------------------------------------------


def _labels(replayed: Sequence[tuple[dt.date, int]],
            official: Sequence[tuple[dt.date, int]] = ()) -> list[str]:
    from tracker.plot import Series, draw_history
    fig = draw_history([Series("standard", replayed, official)], title="t")
    try:
        fig.canvas.draw()
        ax = fig.axes[0]
        low, high = ax.get_xlim()
        return [t.get_text() for t in ax.get_xticklabels()
                if low <= t.get_position()[0] <= high]
    finally:
        plt.close(fig)


def _months(first: Period, n: int) -> list[tuple[dt.date, int]]:
    out, p = [], first
    for i in range(n):
        out.append((p.list_date, 1800 + i % 7))
        p = p.next()
    return out


def test_chart_one_period_one_label() -> None:
    assert _labels([(dt.date(2025, 10, 1), 1685)]) == ["2025-10"]
    assert _labels([], [(dt.date(2025, 10, 1), 1685)]) == ["2025-10"]


def test_chart_two_lists_two_labels() -> None:
    """The QA case (Marek): blitz on 2025-10, standard on 2025-11 (drawn as one series here:
    the ticks depend only on the dates)."""
    assert _labels([(dt.date(2025, 10, 1), 1685)], [(dt.date(2025, 11, 1), 1593)]) == [
        "2025-10", "2025-11"]


@pytest.mark.parametrize("n", [2, 3, 7, 12, 13, 25, 40, 61, 120, 121, 180, 240])
def test_chart_labels_never_repeat(n: int) -> None:
    """From 2 list months to 20 years: distinct labels, at most 12, inside the data's span."""
    points = _months(Period(2008, 7), n)
    labels = _labels(points)
    assert labels and len(labels) == len(set(labels)) <= 12, labels
    assert all(re.fullmatch(r"\d{4}-\d{2}", x) for x in labels), labels
    assert labels == sorted(labels)
    assert labels[0] >= "2008-07" and labels[-1] <= str(Period.of(points[-1][0]))
    if n <= 12:
        assert len(labels) == n  # every month on a short span
    else:
        assert len(labels) >= 4


def test_cli_plot_writes_the_chart(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "plot", "-o", str(tmp_path / "h.png"), "--db", db)
    assert code == 0, err
    assert (tmp_path / "h.png").read_bytes()[:4] == b"\x89PNG"
