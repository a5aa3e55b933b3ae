"""One tool, one look (issue 15): every reading command takes --format table|csv|json and
each one is what it says; every message is in the tracker's words.

The database is the demo's (the bundled sample season with its official anchors), made
once for the module through `tracker demo`.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_captured, run_cli

READING = {
    # command: the arguments that make it list something on the sample season
    "history": ("history",),
    "history rapid": ("history", "--list", "rapid"),
    "explain": ("explain", "2025-12"),
    "next": ("next",),
    "players": ("players",),
    "imports": ("imports",),
    "event list": ("event", "list"),
    "event show": ("event", "show", "Weinviertel Open 2025"),
    "club": ("club",),
    "official list": ("official", "list"),
    "check": ("check", "--list", "standard"),
    "check --all": ("check", "--all"),
    "target": ("target", "1900", "--opponents", "1850", "--games", "5", "--start", "2026-04-10"),
    "calc": ("calc", "--rating", "1850", "--k", "20", "1900:1", "1700:0.5"),
    "calc first rating": (
        "calc",
        "--unrated",
        "--date",
        "2025-10-01",
        *(f"{r}:0.5" for r in (1800, 1820, 1840, 1860, 1880)),
    ),
    "db check": ("db", "check"),
}
"""Every reading command of tracker (and the variants that print another kind of table)."""


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("formats")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        mp.delenv("TRACKER_DB", raising=False)
        code, _, err = run_captured("demo", "--output-dir", "out")
        assert code == 0, err
    return folder / "out" / "tracker-demo.db"


def _run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: Path, *args: str
) -> tuple[int, str, str]:
    monkeypatch.setenv("TRACKER_DB", str(db))
    return run_cli(capsys, monkeypatch, *args)


@pytest.mark.parametrize("name", READING)
def test_every_reading_command_gives_json(
    name: str, demo_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _run(capsys, monkeypatch, demo_db, *READING[name], "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data, f"{name}: empty JSON"
    assert isinstance(data, (list, dict))


@pytest.mark.parametrize("name", READING)
def test_every_reading_command_gives_csv_rows(
    name: str, demo_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _run(capsys, monkeypatch, demo_db, *READING[name], "--format", "csv")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    header, body = rows[0], rows[1:]
    assert len(set(header)) == len(header) and all(
        re.fullmatch(r"[#a-z_0-9]+", h) for h in header
    ), header
    assert all(len(r) == len(header) for r in body), f"{name}: ragged CSV"
    if name != "db check":  # (a sound database: the header alone)
        assert body, f"{name}: no rows"
    assert len(out.splitlines()) == len(rows)  # one line per row


@pytest.mark.parametrize("name", READING)
def test_every_table_has_one_look(
    name: str, demo_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _run(capsys, monkeypatch, demo_db, *READING[name], "--format", "table")
    assert code == 0, err
    if name in ("db check", "calc first rating", "next"):
        return  # sentences, no table
    lines = out.splitlines()
    rules = [i for i, line in enumerate(lines) if line.strip() and set(line.strip()) <= {"─", " "}]
    assert rules, f"{name}: no table"
    assert not set("╭╮╰╯│┃━┏┓┌┐└┘") & set(out), f"{name}: a box"
    for i in rules:  # the rule sits under a header: every heading over a run of ─
        header, rule = lines[i - 1], lines[i]
        runs = [m.span() for m in re.finditer("─+", rule)]
        headings = [m.span() for m in re.finditer(r"\S+(?: \S+)*", header)]
        assert len(runs) >= len(headings) > 1, (name, header, rule)
        for a, b in headings:
            assert any(x <= a and b <= y for x, y in runs), (name, header, rule)


def test_the_same_rows_in_every_format(
    demo_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # docs/walkthrough.md: the sample season's standard history, 2025-09 to 2026-04
    _, js, _ = _run(capsys, monkeypatch, demo_db, "history", "--format", "json")
    _, cs, _ = _run(capsys, monkeypatch, demo_db, "history", "--format", "csv")
    _, table, _ = _run(capsys, monkeypatch, demo_db, "history")
    periods = [r["period"] for r in json.loads(js)]
    assert periods == ["2025-09", "2025-10", "2025-11", "2025-12", "2026-02", "2026-03", "2026-04"]
    assert [r["period"] for r in csv.DictReader(io.StringIO(cs))] == periods
    assert [line.split()[0] for line in table.splitlines()[4 : 4 + len(periods)]] == periods


def test_every_format_option_offers_the_three(monkeypatch: pytest.MonkeyPatch) -> None:
    import typer.main

    from tracker.cli import app

    root = typer.main.get_command(app)
    found: dict[str, list[str]] = {}

    def walk(command: object, path: str) -> None:
        for sub_name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {sub_name}".strip())
        for param in getattr(command, "params", []):
            if "--format" in getattr(param, "opts", []):
                choices = getattr(getattr(param, "type", None), "choices", None)
                if choices is None:  # typer 0.26 and later: its own parameter types
                    choices = list(param.type_descriptor.annotation)
                found[path] = [str(choice) for choice in choices]

    walk(root, "")
    assert set(found) >= {
        "history",
        "explain",
        "next",
        "players",
        "imports",
        "event list",
        "event show",
        "club",
        "official list",
        "check",
        "target",
        "calc",
        "db check",
        "export",
    }
    # export writes data for a spreadsheet or a program, never a table for people
    assert found.pop("export") == ["csv", "json"]
    assert all(choices == ["table", "csv", "json"] for choices in found.values()), found


def test_db_before_the_command(
    demo_db: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.delenv("TRACKER_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    code, before, err = run_cli(capsys, monkeypatch, "--db", str(demo_db), "history")
    assert code == 0, err
    code, after, err = run_cli(capsys, monkeypatch, "history", "--db", str(demo_db))
    assert code == 0 and before == after
    # the command's own --db wins over the one before it
    code, _, err = run_cli(
        capsys, monkeypatch, "--db", str(demo_db), "history", "--db", str(tmp_path / "missing.db")
    )
    assert code == 1 and "missing.db" in err
    # and the one before it over TRACKER_DB
    monkeypatch.setenv("TRACKER_DB", str(tmp_path / "missing.db"))
    code, again, err = run_cli(capsys, monkeypatch, "--db", str(demo_db), "history")
    assert code == 0 and again == before
    # a group between: `tracker imports --db X remove ID`
    copy = tmp_path / "copy.db"
    shutil.copy(demo_db, copy)
    code, out, err = run_cli(
        capsys, monkeypatch, "imports", "--db", str(copy), "remove", "1", "--dry-run"
    )
    assert code == 0 and out.startswith("would remove import 1: "), err
    assert not (tmp_path / "tracker.db").exists()


def test_every_list_option_shows_its_choices() -> None:
    import typer.main

    from tracker.cli import app

    root = typer.main.get_command(app)
    seen = 0

    def walk(command: object) -> None:
        nonlocal seen
        for sub in getattr(command, "commands", {}).values():
            walk(sub)
        for param in getattr(command, "params", []):
            if "--list" in getattr(param, "opts", []):
                seen += 1
                assert param.metavar and param.metavar.startswith("standard|rapid|blitz"), (
                    command,
                    param.metavar,
                )

    walk(root)
    assert seen >= 10


# --- messages in the tracker's words ---------------------------------------------------------

FRAMEWORK = re.compile(
    r"Traceback|Value error|Input should be|pydantic|<class |PosixPath\(|Decimal\(|"
    r"Fraction\(|datetime\.|RatingList\.|\bNone\b|\bTrue\b|\bFalse\b|Got unexpected|"
    r"Invalid value|No such|Missing argument|\(s\)"
)
"""What must never reach a user: Python reprs and values, framework wording."""

BAD = [
    ("calc", "--k", "abc", "1500:1"),
    ("calc", "--rating", "x", "1500:1"),
    ("target", "abc"),
    ("history", "--format", "xml"),
    ("history", "--list", "bullet"),
    ("history", "--from", "2025-13"),
    ("history", "a", "b"),
    ("history", "--frm", "2025-01"),
    ("histori",),
    ("event", "set"),
    ("event", "set", "abc"),
    ("event", "set", "1", "--ro", "x"),
    ("official", "add", "1", "--period", "2025-01", "--rating", "x"),
    ("official", "nope"),
    ("explain",),
    ("explain", "2030-01"),
    ("next", "--format", "text"),
    ("players", "--format", "yaml"),
    ("imports", "remove", "x"),
    ("player", "set", "Novák", "--birth-year", "old"),
    ("player", "set", "Novák", "--ever-2400", "yes"),
    ("db", "check", "--format", "html"),
    ("check", "--list", "rapid", "--format", "none"),
    ("import", "--max-size", "abc", "x.pgn"),
    ("export", "--what", "everything"),
    ("plot", "--output", "chart.gif"),
]


@pytest.mark.parametrize("args", BAD, ids=lambda a: " ".join(a))
def test_a_bad_value_is_one_line_in_plain_words(
    args: tuple[str, ...],
    demo_db: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, monkeypatch, demo_db, *args)
    assert code in (1, 2), (code, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert not FRAMEWORK.search(err), err


def test_the_hostile_catalog_speaks_plainly() -> None:
    from tests.test_hostile_catalog import CASES

    for case in CASES:
        for text in (case.out, case.err):
            found = FRAMEWORK.search(text)
            assert found is None, (case.id, found.group(), text)


@pytest.mark.slow  # tracker in a subprocess, for each reading command
@pytest.mark.parametrize(
    "args",
    [("history",), ("players", "--format", "csv"), ("explain", "2025-12", "--format", "json")],
    ids=lambda a: " ".join(a),
)
def test_a_closed_pipe_ends_a_reading_command_quietly(args: tuple[str, ...], demo_db: Path) -> None:
    # `tracker history | head -1`: the reader has what it wanted; exit 0, not a word (the
    # import goes on instead: tests/test_cli_import.py)
    import subprocess

    from tests.conftest import subprocess_env, tracker_command

    proc = subprocess.Popen(
        tracker_command(*args, "--db", str(demo_db)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # closed before the first line: its first write fails (EPIPE)
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and err == ""


def test_docs_export_lists_every_csv_column() -> None:
    from tests.conftest import REPO
    from tracker.cli.importing import IMPORT_COLUMNS
    from tracker.cli.players import PLAYER_COLUMNS
    from tracker.reports import EXPLAIN_COLUMNS
    from tracker.reports.check import ALL_COLUMNS, CHECK_COLUMNS
    from tracker.reports.club import CLUB_COLUMNS
    from tracker.reports.event import EVENT_SHOW_COLUMNS

    doc = (REPO / "docs" / "export.md").read_text(encoding="utf-8")
    for columns in (
        EXPLAIN_COLUMNS,
        CHECK_COLUMNS,
        ALL_COLUMNS,
        IMPORT_COLUMNS,
        PLAYER_COLUMNS,
        EVENT_SHOW_COLUMNS,
        CLUB_COLUMNS,
    ):
        listed = ", ".join(f"`{c}`" for c in columns)
        assert any(row.startswith("|") and f"| {listed} |" in row for row in doc.splitlines()), (
            listed
        )
