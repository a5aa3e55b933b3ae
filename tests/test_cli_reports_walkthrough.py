"""docs/walkthrough.md tells the truth: every `$ tracker ...` command in it is run on
sample_pgns/ (in a fresh folder, fresh database) and must print exactly what the document
shows.

Regenerate the document after a deliberate change of output:
    TRACKER_WRITE_WALKTHROUGH=1 python -m pytest tests/test_cli_reports_walkthrough.py
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SAMPLES
from tracker.cli import main

DOC = REPO / "docs" / "walkthrough.md"

# (text before the command, command). The text is Markdown; the command's real output is
# pasted below it.
STEPS: list[tuple[str, str]] = [
    (
        """## 1. Import the games

`sample_pgns/` holds one season of a fictitious club player, Tomáš Novák (FIDE ID 99012345):
weekend opens, league rounds, a two-month club championship, rapid and blitz events, and
files the way real sites publish them (a zip, a gzip, a Windows-1252 ChessBase export, an
online export that must not count). Import the whole folder; each file is one transaction,
and importing it again adds nothing.""",
        "tracker import sample_pgns/",
    ),
    (
        """## 2. Say who you are, and what decides your K

Mark the player you track (`--me`: every command below then defaults to him) and the facts
that decide K: birth year (juniors get K 40) and the rated games completed before the first
game in the database (K 40 until 30).""",
        "tracker player set 99012345 --me --birth-year 1988 --rated-games 212",
    ),
    (
        """## 3. Record one official rating

The replay starts from an official rating and re-anchors at every later one. Novák was
rated 1850 on the September 2025 standard list, with K 20 (as printed on his FIDE profile).""",
        "tracker official add 99012345 --period 2025-09 --rating 1850 --k 20",
    ),
    (
        """## 4. The history

One row per rating period (named by its list month): the rating before, the games that
counted, points, expected score, K, the exact change, the change rounded once, the rating
after, and the official rating with the difference when one is recorded.""",
        "tracker history",
    ),
    (
        """Rapid and blitz are separate lists, each replayed on its own (with no official rapid
rating recorded, the replay starts from his own Elo tag in his first rapid event):""",
        "tracker history --list rapid",
    ),
    (
        """## 5. One period, the way FIDE's calculation page shows it

The December 2025 list rates two tournaments with different starting ratings: the club
championship began on 22 October, under the October list (Ro 1855), while the Weinviertel
Open began after the November list (Ro 1865). The change is added to the November rating.""",
        "tracker explain 2025-12",
    ),
    (
        """Games that did not count are listed with the reason (here a forfeit, a game without
moves):""",
        "tracker explain 2025-11",
    ),
    (
        """## 6. What the next list should say

From the games played since the last official rating: the expected rating, the
tournaments included (by the list expected to rate them), and what is still open.""",
        "tracker next",
    ),
    (
        """## 7. Tournaments, and fixing where one was rated

Each tournament has an id, its dates, its list and the period that rates it. When FIDE's
calculation page shows that a tournament landed on another list (late reports happen), pin
it: `tracker event set ID --period YYYY-MM` (also `--list`, `--exclude`, `--ro R`).""",
        "tracker event list",
    ),
    (
        """## 8. Export for a spreadsheet

CSV with a header row and the stable columns of [docs/export.md](export.md), UTF-8 with a
byte-order mark so spreadsheets read the diacritics correctly.""",
        "tracker export --output history.csv",
    ),
    ("", "tracker export --what games --output games.csv"),
    (
        """## 9. The chart

The replayed rating per list as a line, the official ratings as points (PNG or SVG).""",
        "tracker plot --output history.png",
    ),
]

HEADER = """# Walkthrough: from a fresh clone to your rating history

Every command below was run from the repository root on a fresh database, and the output
shown is what it printed (`tests/test_cli_reports_walkthrough.py` runs them again and
compares). Commands use `tracker.db` in the current folder; give `--db PATH` (or set
`TRACKER_DB`) to keep it elsewhere. `tracker demo` runs the same season end to end in a
folder of its own (`demo-out/`), recording the official rapid and blitz ratings too.
"""


def _run(command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    argv = shlex.split(command)
    assert argv[0] == "tracker"
    monkeypatch.setattr(sys, "argv", argv)
    try:
        main()
    except SystemExit as exc:
        assert not exc.code, f"{command}: exit {exc.code}: {capsys.readouterr().err}"
    return capsys.readouterr().out


def _render(outputs: list[str]) -> str:
    parts = [HEADER]
    for (text, command), output in zip(STEPS, outputs, strict=True):
        if text:
            parts.append("\n" + text + "\n")
        parts.append(f"\n```console\n$ {command}\n{output.rstrip()}\n```\n")
    return "".join(parts)


def _normalize(text: str) -> str:
    # The import date appears only on re-imports; nothing else varies between runs.
    return re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC", "DATE", text)


@pytest.mark.slow
def test_walkthrough_matches_the_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if not SAMPLES.is_dir():
        pytest.skip("sample_pgns/ is missing")
    (tmp_path / "sample_pgns").symlink_to(SAMPLES, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("TRACKER_TODAY", "2026-12-04")  # `next` says how old a list is
    outputs = [_run(command, capsys, monkeypatch) for _, command in STEPS]
    assert (tmp_path / "history.png").stat().st_size > 1000
    assert (tmp_path / "games.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    rendered = _render(outputs)
    if os.environ.get("TRACKER_WRITE_WALKTHROUGH"):
        DOC.write_text(rendered, encoding="utf-8")
    assert DOC.exists(), "run with TRACKER_WRITE_WALKTHROUGH=1 to write docs/walkthrough.md"
    assert _normalize(DOC.read_text(encoding="utf-8")) == _normalize(rendered)
