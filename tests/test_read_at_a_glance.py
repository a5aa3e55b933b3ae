"""Outputs a person reads at a glance: every table and line fits the terminal (COLUMNS), a
repeated note is said once under its table, `next` of a long career is a short answer that
names what it summed up, a list's first row says where its rating came from, and the season
line adds up (start + change = end).

Two real seasons: the bundled sample season (`tracker demo`) and a long career, the
pgnmentor collection of Magnus Carlsen in ../shared/corpus (3,430 games, no TimeControl).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.builders import demo_folder
from tests.conftest import CORPUS, need_shared, run_captured
from tracker.reports import cell_width, render_table, wrap_text

CARLSEN = CORPUS / "pgnmentor-Carlsen.pgn.xz"
TODAY = "2026-12-04"


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(demo_folder(tmp_path_factory) / "tracker-demo.db")


@pytest.fixture(scope="module")
def carlsen_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_shared()
    db = tmp_path_factory.mktemp("carlsen") / "carlsen.db"
    code, _, err = run_captured("import", str(CARLSEN), "--player", "Carlsen,M", "--db", str(db))
    assert code == 0, err
    return db


@pytest.fixture
def carlsen_db(carlsen_template: Path, tmp_path: Path) -> str:
    target = tmp_path / "carlsen.db"
    shutil.copyfile(carlsen_template, target)
    return str(target)


def _run(monkeypatch: pytest.MonkeyPatch, width: int | None, *args: str) -> tuple[int, str]:
    if width is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("TRACKER_TODAY", TODAY)
    code, out, _ = run_captured(*args)
    return code, out


READING = [
    ("history",),
    ("history", "--list", "rapid"),
    ("history", "--list", "blitz"),
    ("next",),
    ("next", "--list", "blitz"),
    ("explain", "2025-11"),
    ("check",),
    ("event", "list"),
    ("players",),
    ("official", "list"),
    ("target", "1950", "--opponents", "1800", "--games", "9"),
]


def _too_wide(out: str, width: int) -> list[str]:
    return [line for line in out.splitlines() if cell_width(line) > width]


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("args", READING, ids=" ".join)
def test_every_output_of_the_sample_season_fits(
    sample_db: str, monkeypatch: pytest.MonkeyPatch, width: int, args: tuple[str, ...]
) -> None:
    code, out = _run(monkeypatch, width, *args, "--db", sample_db)
    assert out.strip(), f"{args}: printed nothing (exit {code})"
    assert _too_wide(out, width) == []


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize(
    "args",
    [
        ("history",),
        ("history", "--list", "blitz"),
        ("next",),
        ("explain", "2010-11"),
        ("event", "list"),
        ("players",),
    ],
    ids=" ".join,
)
@pytest.mark.slow  # (a real career's import, or a terminal of its own)
def test_every_output_of_a_long_career_fits(
    carlsen_db: str, monkeypatch: pytest.MonkeyPatch, width: int, args: tuple[str, ...]
) -> None:
    code, out = _run(monkeypatch, width, *args, "--db", carlsen_db)
    assert code == 0 and out.strip()
    assert _too_wide(out, width) == []


@pytest.mark.slow  # (a real career's import, or a terminal of its own)
def test_without_a_width_a_row_is_one_line(
    carlsen_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pipe or a file without COLUMNS: no limit, one period a line (grep finds a row whole).
    _, out = _run(monkeypatch, None, "history", "--db", carlsen_db)
    rows = [line for line in out.splitlines() if re.match(r"\d{4}-\d{2} ", line)]
    _, data = _run(monkeypatch, None, "history", "--db", carlsen_db, "--format", "json")
    assert len(rows) == len(json.loads(data))


@pytest.mark.slow  # (a real career's import, or a terminal of its own)
def test_narrow_history_says_which_columns_it_left_out(
    carlsen_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = _run(monkeypatch, 80, "history", "--db", carlsen_db)
    assert "Change (exact)" not in out.splitlines()[2]
    assert "(not shown, to fit 80 columns: Change (exact), Expected; see --format csv)" in out
    _, wide = _run(monkeypatch, 120, "history", "--db", carlsen_db)
    assert "Change (exact)" in wide and "not shown" not in wide


@pytest.mark.slow  # (a real career's import, or a terminal of its own)
def test_the_assumed_list_is_said_once_under_the_table(
    carlsen_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The file has no TimeControl: every period's games are on the list by assumption.
    _, out = _run(monkeypatch, 120, "history", "--db", carlsen_db)
    _, data = _run(monkeypatch, 120, "history", "--db", carlsen_db, "--format", "json")
    rows = json.loads(data)
    assumed = sum(r["list_assumed_games"] for r in rows)
    games = sum(r["games"] for r in rows)
    assert assumed == games > 800
    assert "on this list by assumption (no time control" not in out
    assert out.count(f"list assumed: all {games} games shown have no time control") == 1
    # CSV and JSON keep each row's note whole
    assert all("on this list by assumption" in r["note"] for r in rows if r["list_assumed_games"])


@pytest.mark.slow  # (a real career's import, or a terminal of its own)
def test_the_first_row_says_where_its_rating_came_from(
    carlsen_db: str, sample_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, data = _run(monkeypatch, None, "history", "--db", carlsen_db, "--format", "json")
    first = json.loads(data)[0]
    assert first["note"].startswith(f"starts from {first['rating_before']} (Elo tag in ")
    _, data = _run(monkeypatch, None, "history", "--db", sample_db, "--format", "json")
    first = json.loads(data)[0]
    # the sample season starts at an official entry: its start row says so
    assert first["rating_before"] is None and "start: official rating" in first["note"]


def _season(out: str) -> tuple[int, int, int, int, int]:
    text = " ".join(out.split())
    found = re.search(r"(\d{3,4}) -> (\d{3,4}) \(([+-]?\d+)", text)
    assert found, out[-600:]
    start, end, change = (int(x) for x in found.groups())
    split = re.search(r"\(([+-]?\d+): ([+-]?\d+) from games, ([+-]?\d+) from re-anchors", text)
    if split is None:  # no re-anchor: the games made the whole change
        return start, end, change, change, 0
    assert int(split.group(1)) == change
    return start, end, change, int(split.group(2)), int(split.group(3))


@pytest.mark.slow  # (a real career's import, or a terminal of its own)
@pytest.mark.parametrize("rating_list", ["standard"])
def test_the_season_line_adds_up_on_a_long_career(
    carlsen_db: str, monkeypatch: pytest.MonkeyPatch, rating_list: str
) -> None:
    _, out = _run(monkeypatch, 100, "history", "--db", carlsen_db, "--list", rating_list)
    start, end, change, games, anchors = _season(out)
    _, data = _run(
        monkeypatch, None, "history", "--db", carlsen_db, "--list", rating_list, "--format", "json"
    )
    rows = [r for r in json.loads(data) if r["rating_after"] is not None]
    assert start + change == end == rows[-1]["rating_after"]
    assert games + anchors == change
    assert games == sum(r["change"] or 0 for r in json.loads(data))


def test_the_season_line_adds_up_on_the_sample_season(
    sample_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = _run(monkeypatch, 100, "history", "--db", sample_db)
    start, end, change, games, anchors = _season(out)
    assert start + change == end and games + anchors == change


@pytest.mark.slow  # (a real career's import, or a terminal of its own)
def test_next_of_a_long_career_without_an_official_rating_is_short(
    carlsen_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = _run(monkeypatch, 100, "next", "--db", carlsen_db)
    lines = out.splitlines()
    assert len(lines) < 40, out
    assert "No official standard rating recorded" in lines[0]
    # what it summed up, each named in a line
    assert re.search(r"Games since then: [\d,]+ games on \d+ lists \(2008-04 to 2021-02\)", out)
    assert "each in `tracker history --list standard --from 2008-04`" in " ".join(out.split())
    assert re.search(r"\d+ tournaments: before 2008: FIDE rated by tournament averages", out)
    assert "Expected standard rating on the 2021-02 list" in out
    assert "That list was published 5 years 10 months ago" in out
    # the JSON keeps everything
    _, data = _run(monkeypatch, None, "next", "--db", carlsen_db, "--format", "json")
    doc = json.loads(data)
    assert doc["next_period_published"] is True
    assert sum(1 for o in doc["open"] if o["why"].startswith("before 2008")) > 40


@pytest.mark.slow  # (a real career's import, or a terminal of its own)
def test_next_after_an_old_official_rating_says_its_age(
    carlsen_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _ = _run(
        monkeypatch,
        None,
        "official",
        "add",
        "Carlsen,M",
        "--period",
        "2015-01",
        "--rating",
        "2862",
        "--db",
        carlsen_db,
    )
    assert code == 0
    _, out = _run(monkeypatch, 100, "next", "--db", carlsen_db)
    assert len(out.splitlines()) < 40, out
    assert out.startswith(
        "Last official standard rating: 2862 (2015-01 list), 11 years 11 months ago"
    )
    assert re.search(r"Left out: \d+ tournaments of the earlier lists ended 7 days or less", out)


def test_a_list_in_the_future_is_flagged(sample_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The sample season's next list is 2026-04: seen from 2025, it is far ahead.
    monkeypatch.setenv("TRACKER_TODAY", "2025-06-01")
    monkeypatch.setenv("COLUMNS", "200")
    _, out, _ = run_captured("next", "--db", sample_db)
    assert re.search(r"That list is \d+ months? away: games are dated after today", out)
    _, out, _ = run_captured("history", "--db", sample_db)
    assert "The 2026-04 list is 10 months away: games are dated after today (2025-06-01)" in out
    monkeypatch.setenv("TRACKER_TODAY", "not a date")
    code, _, err = run_captured("next", "--db", sample_db)
    assert code == 2 and "TRACKER_TODAY='not a date': give a date as YYYY-MM-DD" in err


# --- the table renderer itself ------------------------------------------------------------


def test_a_wrapped_note_column_keeps_its_words_and_the_width() -> None:
    note = "re-anchored on the Elo tag 2765; 29 games on this list by assumption"
    lines = render_table(["Period", "Note"], [["2008-04", note]], width=40)
    assert max(cell_width(line) for line in lines) <= 40
    assert " ".join(" ".join(lines[2:]).split()) == f"2008-04 {note}"


def test_a_note_too_narrow_to_wrap_beside_goes_under_its_row() -> None:
    headers = ["A" * 30, "Note"]
    lines = render_table(headers, [["x", "a long note " * 5]], width=40)
    assert lines[2] == "x"
    assert lines[3].startswith("    a long note")
    assert max(cell_width(line) for line in lines) <= 40


def test_wrap_text_cuts_a_word_longer_than_the_line() -> None:
    assert wrap_text("abcdefghij kl", 4) == ["abcd", "efgh", "ij", "kl"]
    assert wrap_text("", 5) == [""]
    assert all(cell_width(x) <= 4 for x in wrap_text("日本語のテキスト", 4))


@pytest.mark.slow  # (a real career's import, or a terminal of its own)
def test_a_real_terminal_gives_its_width(sample_db: str) -> None:
    # No COLUMNS: the width is the terminal's (a pseudo-terminal of 72 columns here).
    from tests.conftest import subprocess_env, tracker_command
    from tests.terminal import stdout_of_a_terminal

    env = {**subprocess_env(), "TRACKER_TODAY": TODAY}
    out = stdout_of_a_terminal(
        tracker_command("history", "--db", sample_db), env, columns=72, timeout=60
    )
    assert "Period" in out and _too_wide(out, 72) == []
    assert "(not shown, to fit 72 columns:" in out


@pytest.mark.slow  # (a real career's import, or a terminal of its own)
def test_history_of_games_all_before_2008_says_so(tmp_path: Path) -> None:
    # "Carlsen, Magnus" is the file's 9-game spelling of 2001 (the 3,421 others: "Carlsen,M").
    need_shared()
    db = str(tmp_path / "c.db")
    code, _, err = run_captured("import", str(CARLSEN), "--player", "Carlsen, Magnus", "--db", db)
    assert code == 0, err
    code, out, _ = run_captured("history", "--db", db)
    assert code == 0
    assert out.splitlines() == [
        "No standard rating periods for Carlsen,Magnus:",
        "Not replayed: 9 games before the first standard list the tracker replays",
    ]


@pytest.mark.slow  # (a real career's import)
def test_a_waiting_rapid_history_says_so(
    carlsen_db: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Every rapid event of the file printed Carlsen's standard rating: no rapid rating to
    # start from (TAG_OF_A_FAST_LIST_IS_THE_STANDARD); next and the report say it waits.
    _, out = _run(monkeypatch, 100, "next", "--list", "rapid", "--db", carlsen_db)
    assert "the rapid history waits for an official rating" in " ".join(out.split())
    page = tmp_path / "c.html"
    code, _ = _run(monkeypatch, None, "report", "--db", carlsen_db, "--output", str(page))
    assert code == 0
    assert "waits for an official rapid rating" in page.read_text(encoding="utf-8")
