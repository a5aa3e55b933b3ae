"""A club's list as a page (`tracker club --html`, issue 38 item 3) in a real headless
chromium (tests/browser.py): the round robin of tests/test_event_show.py loads with no
console error, shows each player's expected rating as worked by hand from FIDE's tables
(tests/test_club.py), and sorts by expected change at a click (CSS, no script); commands
show as code, never in backticks. The sample season's page (every tracked player, a FIDE
list imported with their federations) is photographed: TRACKER_WRITE_SCREENSHOT=1 writes
docs/club-report.png, docs/report.md's picture."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.browser import Browser, file_url, find_chromium
from tests.conftest import REPO, run_cli
from tests.test_club import ROUND_ROBIN, season  # noqa: F401  (season: a fixture)
from tests.test_event_show import rr  # noqa: F401  (the round robin's database, a fixture)

pytestmark = pytest.mark.slow  # headless chromium

SCREENSHOT = REPO / "docs" / "club-report.png"

ROWS = (
    "Array.from(document.querySelectorAll('.by-{} table tbody tr'))"
    ".filter(r => r.offsetParent !== null)"  # shown
    ".map(r => Array.from(r.cells).map(c => c.textContent))"
)


def test_the_round_robin_page_sorts_at_a_click(
    rr: str,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if find_chromium() is None:
        pytest.skip("chromium not installed: apt-get install chromium")
    monkeypatch.setenv("TRACKER_TODAY", "2025-11-20")
    page = tmp_path / "club.html"
    code, _, err = run_cli(capsys, monkeypatch, "club", "--html", str(page), "--db", rr)
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    assert "<script" not in text and "http" not in text.replace("http-equiv", "")
    with Browser(width=1100, height=900) as browser:
        browser.open(file_url(page))
        by_name = browser.evaluate(ROWS.format("name"))
        hidden = browser.evaluate(ROWS.format("change"))
        heads = browser.evaluate(
            "Array.from(document.querySelector('.by-name thead tr').cells).map(c => c.textContent)"
        )
        body = browser.evaluate("document.body.innerText")
        codes = browser.evaluate(
            "Array.from(document.querySelectorAll('code')).map(c => c.textContent)"
        )
        browser.evaluate("document.querySelector('label[for=sort-change]').click()")
        by_change = browser.evaluate(ROWS.format("change"))
        gone = browser.evaluate(ROWS.format("name"))
        assert browser.problems == []
    assert heads == ["Player", "FIDE ID", "Rating", "From", "Expected", "Next list", "Change",
                     "Games", "Note"]  # fmt: skip
    expected = heads.index("Expected")
    assert {r[0]: int(r[expected]) for r in by_name} == {
        name: e for name, (_, _, e, _) in ROUND_ROBIN.items()
    }
    assert hidden == [] and gone == []  # one order shown at a time
    assert [r[0] for r in by_change] == [
        "Egger, Emil", "Gamma, Cyril", "Alpha, Anna", "Delta, Dora", "Beta, Boris",
        "Fuchs, Franz",
    ]  # fmt: skip
    assert [r[heads.index("Change")] for r in by_change] == ["+21", "+1", "-2", "-6", "-8", ""]
    assert "`" not in body and "tracker next PLAYER" in codes


def test_the_sample_season_page_in_headless_chromium(
    season: str,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if find_chromium() is None:
        pytest.skip("chromium not installed: apt-get install chromium")
    monkeypatch.setenv("TRACKER_TODAY", "2026-03-25")  # the season over, before the April list
    page = tmp_path / "club.html"
    code, _, err = run_cli(
        capsys, monkeypatch, "club", "--html", str(page), "--sort", "change", "--title",
        "ŠK Lípa Brno and friends", "--db", season,
    )  # fmt: skip
    assert code == 0, err
    code, out, _ = run_cli(capsys, monkeypatch, "club", "--format", "json", "--db", season)
    players = [r["player"] for r in json.loads(out)["players"]]
    with Browser(width=1100, height=900) as browser:
        browser.open(file_url(page))
        shown = browser.evaluate(ROWS.format("change"))
        body = browser.evaluate("document.body.innerText")
        shot = browser.screenshot(full_page=True)
        assert browser.problems == []
    assert sorted(r[0] for r in shown) == sorted(players)
    assert "`" not in body
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 20_000
    if os.environ.get("TRACKER_WRITE_SCREENSHOT") == "1":
        SCREENSHOT.write_bytes(shot)
