"""One tournament's page (`tracker report --event`, issue 38) in a real headless chromium
(tests/browser.py): the round robin of tests/test_event_show.py loads with no console error,
its standings show each player's change as `tracker event show` gives it, the crosstable has
a column per round, and a screenshot is taken (TRACKER_WRITE_SCREENSHOT=1 writes it to
docs/event-report.png, docs/report.md's picture); commands show as code, never in backticks.
Also the page of a TWIC open of 134
players, with unrated players and a player without a FIDE ID."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser import Browser, file_url, find_chromium
from tests.conftest import REPO, run_cli
from tests.test_event_show import rr  # noqa: F401  (the round robin's database, a fixture)

pytestmark = pytest.mark.slow  # headless chromium

SCREENSHOT = REPO / "docs" / "event-report.png"


def _page(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    db: str,
    event: str,
    out: Path,
) -> None:
    code, _, err = run_cli(
        capsys, monkeypatch, "report", "--event", event, "-o", str(out), "--db", db
    )
    assert code == 0, err


def test_the_round_robin_page_in_headless_chromium(
    rr: str,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if find_chromium() is None:
        pytest.skip("chromium not installed: apt-get install chromium")
    page = tmp_path / "event.html"
    _page(capsys, monkeypatch, rr, "Club Round Robin 2025", page)
    text = page.read_text(encoding="utf-8")
    assert "<script" not in text and "http" not in text.replace("http-equiv", "")
    with Browser(width=1100, height=900) as browser:
        browser.open(file_url(page))
        rows = browser.evaluate(
            "Array.from(document.querySelectorAll('table.standings tbody tr'))"
            ".map(r => Array.from(r.cells).map(c => c.textContent))"
        )
        heads = browser.evaluate(
            "Array.from(document.querySelectorAll('table.standings thead th'))"
            ".map(c => c.textContent)"
        )
        cross = browser.evaluate(
            "Array.from(document.querySelectorAll('table.cross thead th')).map(c => c.textContent)"
        )
        shot = browser.screenshot(full_page=True)
        body = browser.evaluate("document.body.innerText")
        codes = browser.evaluate(
            "Array.from(document.querySelectorAll('code')).map(c => c.textContent)"
        )
        assert browser.problems == []
    # commands show as code, never in backticks
    assert "`" not in body
    assert codes == ["tracker explain PLAYER PERIOD", "tracker explain"]
    # the changes worked by hand from FIDE's tables (tests/test_event_show.py)
    chg = heads.index("K x (W - We)")  # (after a Score column where one is shown)
    assert [(r[1], r[chg]) for r in rows] == [
        ("Alpha, Anna", "-1.50"),
        ("Beta, Boris", "-8.10"),
        ("Gamma, Cyril", "+1.20"),
        ("Delta, Dora", "-6.00"),
        ("Egger, Emil", "+21.40"),
        ("Fuchs, Franz", ""),
    ]
    assert rows[5][-1] == "first rating 2062 (5 games)"
    assert rows[4][heads.index("FIDE ID")] == "" and rows[4][-1].endswith("no FIDE ID")
    assert cross == ["No.", "Player", "Ro", "1", "2", "3", "4", "5", "Pts"]
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 20_000
    if os.environ.get("TRACKER_WRITE_SCREENSHOT") == "1":
        SCREENSHOT.write_bytes(shot)


def test_a_twic_open_page_in_headless_chromium(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if find_chromium() is None:
        pytest.skip("chromium not installed: apt-get install chromium")
    db = str(tmp_path / "twic.db")
    twic = REPO.parent / "shared" / "corpus" / "twic0920.pgn.xz"
    assert run_cli(capsys, monkeypatch, "import", str(twic), "--db", db)[0] == 0
    page = tmp_path / "teplice.html"
    _page(capsys, monkeypatch, db, "Teplice Open 2012", page)
    with Browser(width=1100, height=900) as browser:
        browser.open(file_url(page))
        players = browser.evaluate("document.querySelectorAll('table.standings tbody tr').length")
        first = browser.evaluate(
            "Array.from(document.querySelectorAll('h2')).map(h => h.textContent)"
        )
        assert browser.problems == []
    assert players == 134
    assert first == ["Each player's change", "Crosstable", "Toward a first rating",
                     "Games not counted"]  # fmt: skip
