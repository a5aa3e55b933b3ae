"""The season report of the sample season in a real headless chromium (tests/browser.py):
it loads with no console error or exception, each list's chart has one point per period,
the hover text is there, and a screenshot is taken (TRACKER_WRITE_SCREENSHOT=1 writes it to
docs/season-report.png, the README's picture). A long career's report is about a screen and
a half high at 1280 px, its detail folded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser import Browser, file_url, find_chromium
from tests.builders import demo_folder
from tests.conftest import REPO
from tracker.app.histories import load_history
from tracker.app.players import resolve_player
from tracker.model import RatingList
from tracker.store import open_store

pytestmark = pytest.mark.slow  # headless chromium

SCREENSHOT = REPO / "docs" / "season-report.png"


def test_report_in_headless_chromium(tmp_path_factory: pytest.TempPathFactory) -> None:
    if find_chromium() is None:
        pytest.skip("chromium not installed: apt-get install chromium")
    folder = demo_folder(tmp_path_factory)
    with open_store(str(folder / "tracker-demo.db")) as store:
        history = load_history(store, resolve_player(store, None))
    with Browser(width=1100, height=1000) as browser:
        browser.open(file_url(folder / "season.html"))
        assert browser.evaluate("document.readyState") == "complete"
        for rl in RatingList:
            periods = [str(r.period) for r in history.replays[rl].rows]
            section = f"document.getElementById('{rl}')"
            points = browser.evaluate(
                f"Array.from({section}.querySelectorAll('svg [data-period]'))"
                ".map(e => e.dataset.period)"
            )
            assert points == periods, rl
            rows = browser.evaluate(
                f"{section}.querySelectorAll('table.history tr[data-period]').length"
            )
            assert rows == len(periods)
        hover = browser.evaluate(
            "document.querySelector('#standard svg [data-period=\"2025-12\"] > title').textContent"
        )
        assert hover.startswith("standard 2025-12: 1875 (1865 +10, 10 games, 6 points)")
        assert "Weinviertel Open 2025" in hover
        # the chart is drawn: the SVG has a size on the page
        width = browser.evaluate(
            "document.querySelector('#standard svg').getBoundingClientRect().width"
        )
        assert width > 500
        shot = browser.screenshot()
        assert browser.problems == []
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 20_000
    if os.environ.get("TRACKER_WRITE_SCREENSHOT"):
        SCREENSHOT.write_bytes(shot)


LONG_PAGE_MAX = 1600  # pixels at 1280 px wide: a screen and a half, not 145 periods' scroll


def test_a_long_career_is_a_page_not_a_scroll(tmp_path: Path) -> None:
    """12 years of monthly periods (1152 games) at 1280 px: the headline, the chart and the
    next list in the first screen, the detail folded, the page about a screen and a half
    high (unfolded, its history table alone is 145 rows)."""
    if find_chromium() is None:
        pytest.skip("chromium not installed: apt-get install chromium")
    from tests.builders import long_career
    from tracker.reports.season import season_report

    db = long_career(tmp_path / "long.db")
    with open_store(str(db)) as store:
        history = load_history(store, resolve_player(store, None))
    page = tmp_path / "long.html"
    page.write_text(season_report(history), encoding="utf-8")
    with Browser(width=1280, height=1000) as browser:
        browser.open(file_url(page))
        height = browser.evaluate("document.documentElement.scrollHeight")
        assert height < LONG_PAGE_MAX, height
        assert browser.evaluate("document.querySelectorAll('details.part').length") == 3
        assert browser.evaluate("document.querySelectorAll('details[open]').length") == 0
        chart = browser.evaluate(
            "document.querySelector('#standard svg').getBoundingClientRect().height"
        )
        assert chart > 400
        expected = browser.evaluate(
            "document.querySelector('b[data-expected]').getBoundingClientRect().bottom"
        )
        assert expected < 1000  # the next list, in the first screen
        top = browser.evaluate("document.querySelector('.glance b').getBoundingClientRect().bottom")
        assert top < 300  # and said at the top of the page, in plain words
        # opened, the history is all there
        rows = browser.evaluate(
            "document.querySelector('details.history').open = true,"
            "document.querySelector('table.history').getBoundingClientRect().height"
        )
        assert rows > 2000
        assert browser.problems == []
