"""Every line fits (issue 37, item 4): on real files, the output of every command that
prints a table or a result has no line wider than the terminal: 80 and 120 columns
(COLUMNS), a pipe (no COLUMNS: 100 columns) and a real terminal (a pseudo-terminal of its
own size). A table leaves out columns, by its stated priority, and names them under it;
CSV and JSON are never cut.

Before: at 80 columns `players` was 90 wide, `club` 101, `imports` 103, `event show` 88;
in a pipe nothing was cut (a history line of 724 characters, event show 472).

The data: the pgnmentor collection of Vassily Ivanchuk (4,349 games, 1996-2020) and TWIC
issue 1427 (4,742 games of March 2022) from ../shared/corpus, with the FIDE list samples
of ../shared/spec/fide-list-samples (Andreikin's row of the March 2011 list among them).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.conftest import CORPUS, SPEC, need_shared, run_captured
from tracker.reports import cell_width

IVANCHUK = CORPUS / "pgnmentor-Ivanchuk.pgn.xz"
TWIC = CORPUS / "twic1427.pgn.xz"
LISTS = SPEC / "fide-list-samples"
TODAY = "2026-12-04"

pytestmark = pytest.mark.slow  # (two real files imported)


def _ok(*args: str) -> str:
    code, out, err = run_captured(*args)
    assert code == 0, (args, err)
    return out


@pytest.fixture(scope="module")
def career_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    need_shared()
    db = str(tmp_path_factory.mktemp("widths") / "ivanchuk.db")
    _ok("import", str(IVANCHUK), str(TWIC), "--db", db)
    # the collection spells him two ways (1996-1999, then 1999-2020): one person
    _ok("player", "merge", "Ivanchuk, Vassily", "Ivanchuk,V", "--db", db)
    _ok("player", "set", "Ivanchuk, Vassily", "--me", "--fide-id", "14100010", "--db", db)
    samples = [LISTS / n for n in ("APR04FRL.TXT", "rapid_sep12frl.txt", "standard_mar11frl.txt")]
    _ok("official", "import", "--all", *map(str, samples), "--db", db)
    combined = str(LISTS / "players_list_2015.txt")
    _ok("official", "import", "--all", "--period", "2015-01", combined, "--db", db)
    return db


COMMANDS = [
    ("history",),
    ("history", "--list", "rapid"),
    ("history", "--list", "blitz"),
    ("history", "Andreikin,D"),
    ("check", "Andreikin,D"),
    ("check", "--all"),
    ("players",),
    ("event", "list"),
    ("event", "list", "Andreikin,D"),
    ("event", "show", "ch-ROU Rapid 2022"),
    ("event", "show", "FIDE Grand Prix 2 Playoff"),
    ("next",),
    ("next", "--list", "rapid"),
    ("next", "Andreikin,D"),
    ("explain", "2008-07"),
    ("explain", "Andreikin,D", "2011-03"),
    ("target", "2800", "--opponents", "2700", "--games", "9"),
    ("target", "2700", "Andreikin,D", "--opponent", "2750", "--opponent", "2600"),
    ("club",),
    ("club", "--list", "rapid"),
    ("official", "list", "Andreikin,D"),
    ("imports",),
]


def _widest(text: str) -> int:
    return max((cell_width(line) for line in text.splitlines()), default=0)


# Every command at 80 columns and piped (100); at 120 the four the issue names (history,
# check, players, event list): a table laid out for 80 and for 100 is laid out by the same
# rule for any width, and each run replays a whole career (the suite's time).
AT_120 = [
    ("history",),
    ("check", "Andreikin,D"),
    ("check", "--all"),
    ("players",),
    ("event", "list"),
]
CASES = [
    pytest.param(args, width, id=f"{' '.join(args)}-{width or 'pipe'}")
    for args in COMMANDS
    for width in (80, None, *((120,) if args in AT_120 else ()))
]


@pytest.mark.parametrize(("args", "width"), CASES)
def test_every_line_fits(
    career_db: str, monkeypatch: pytest.MonkeyPatch, width: int | None, args: tuple[str, ...]
) -> None:
    if width is None:
        monkeypatch.delenv("COLUMNS", raising=False)  # a pipe: 100 columns
    else:
        monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("TRACKER_TODAY", TODAY)
    code, out, err = run_captured(*args, "--db", career_db)
    assert code in (0, 1), err  # (check: 1 when a period differs)
    assert out.strip(), f"{args}: printed nothing"
    limit = width or 100
    assert [x for x in out.splitlines() if cell_width(x) > limit] == []


def test_a_table_names_what_it_left_out(career_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = _ok("players", "--db", career_db)
    # the dates of the first and last games go first; the names are never cut
    assert out.splitlines()[0].split() == ["id", "name", "FIDE", "ID", "standard", "rapid", "blitz"]
    assert "(not shown, to fit 80 columns: first, last; see --format csv)" in out
    assert "Ivanchuk, Vassily (me)" in out
    out = _ok("event", "show", "ch-ROU Rapid 2022", "--db", career_db)
    # the change stays; From and FIDE ID go first
    assert "(not shown, to fit 80 columns: From, FIDE ID; see --format csv)" in out
    assert "Chg" in out and "+28.00" in out  # Gavrilescu's 8/9 (We 6.60): 20 x 1.40
    out = _ok("club", "--db", career_db)
    # 101 wide before; the rating, the expected one and the change stay
    assert out.splitlines()[3].split() == ["Player", "FIDE", "ID", "Rating", "Expected", "Chg", "G"]
    # (the lists record the players' federations: Fed goes first)
    assert "(not shown, to fit 80 columns: Fed, Next, From, Assumed; see --format csv)" in out
    monkeypatch.setenv("COLUMNS", "120")
    assert "not shown" not in _ok("players", "--db", career_db)


def test_csv_and_json_are_never_cut(career_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for args in (("history",), ("explain", "2008-07"), ("event", "list"), ("players",)):
        monkeypatch.setenv("COLUMNS", "40")
        narrow_csv = _ok(*args, "--format", "csv", "--db", career_db)
        narrow_json = _ok(*args, "--format", "json", "--db", career_db)
        monkeypatch.delenv("COLUMNS")
        assert narrow_csv == _ok(*args, "--format", "csv", "--db", career_db)
        assert narrow_json == _ok(*args, "--format", "json", "--db", career_db)
        rows = list(csv.reader(io.StringIO(narrow_csv)))
        assert len({len(r) for r in rows}) == 1, args  # every row has every column
        json.loads(narrow_json)
    history_csv = _ok("history", "--format", "csv", "--db", career_db)
    assert _widest(history_csv) > 200  # a note kept whole
    data = json.loads(_ok("explain", "2008-07", "--format", "json", "--db", career_db))
    assert _widest("\n".join(data["lines"])) > 100  # explain's table kept whole in JSON


@pytest.mark.parametrize("args", [("history",), ("players",), ("club",)], ids=" ".join)
def test_a_real_terminal_of_90_columns(career_db: str, args: tuple[str, ...]) -> None:
    # No COLUMNS: the width is the pseudo-terminal's own (90 columns, set with TIOCSWINSZ).
    out = _in_a_terminal(90, *args, "--db", career_db)
    assert out.strip() and _widest(out) <= 90
    assert "(not shown, to fit 90 columns:" in out


def _in_a_terminal(columns: int, *args: str) -> str:
    from tests.conftest import subprocess_env, tracker_command
    from tests.terminal import stdout_of_a_terminal

    env = {**subprocess_env(), "TRACKER_TODAY": TODAY}
    return stdout_of_a_terminal(tracker_command(*args), env, columns=columns)


def test_the_piped_width_is_100(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from tracker.reports import PIPED_WIDTH, terminal_width

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # a pipe, a file: no terminal
    assert PIPED_WIDTH == 100 and terminal_width() == 100
    monkeypatch.setenv("COLUMNS", "132")
    assert terminal_width() == 132


def test_export_writes_json_too(
    career_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `--format csv|json` for every command that prints data: export was CSV only
    for what in ("history", "games"):
        rows = list(csv.DictReader(io.StringIO(_ok("export", "--what", what, "--db", career_db))))
        data = json.loads(_ok("export", "--what", what, "--format", "json", "--db", career_db))
        # the same rows; every CSV column is a JSON field (history's JSON: history --format json)
        assert len(data) == len(rows) > 100 and set(rows[0]) <= set(data[0])
    games = json.loads(_ok("export", "--what", "games", "-f", "json", "--db", career_db))
    # Ivanchuk-Karpov, Las Palmas 1996, round 1: a draw, before the replayed lists
    first = games[0]
    assert (first["opponent"], first["result"], first["score"]) == (
        "Karpov, Anatoly",
        "1/2-1/2",
        0.5,
    )
    assert first["counted"] is False and first["period"] is None
    assert {g["counted"] for g in games} == {True, False}
    path = tmp_path / "games.json"
    said = _ok("export", "--what", "games", "-f", "json", "-o", str(path), "--db", career_db)
    assert said == f"wrote {path} ({len(games):,} rows)\n"
    assert not path.read_bytes().startswith(b"\xef\xbb\xbf")  # JSON: no byte-order mark
    assert json.loads(path.read_text(encoding="utf-8")) == games


@pytest.mark.parametrize("width", [80, None], ids=["80", "pipe"])
def test_the_import_lines_fit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int | None
) -> None:
    # `tracker import` of TWIC 1427 said a 300-character line of the names that put games
    # on a list; `official import` of a list sample 290 characters
    need_shared()
    if width is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", str(width))
    db = str(tmp_path / "t.db")
    said = _ok("import", str(TWIC), "--db", db)
    assert "4,742 games read" in said
    lists = _ok("official", "import", str(LISTS / "standard_mar11frl.txt"), "--db", db)
    assert "2011-03 (standard): 11 players read" in " ".join(lists.split())
    limit = width or 100
    assert _widest(said) <= limit and _widest(lists) <= limit
    # a cut line goes on indented: every line of the summary starts at the left or 2 in
    assert all(not x.startswith("   ") for x in said.splitlines())


def test_a_command_in_a_sentence_is_not_cut_where_it_fits() -> None:
    from tracker.reports import wrap_text

    text = (
        "record the latest official rating with `tracker official add 14100010 --list "
        "standard --period YYYY-MM --rating R` and import the games since."
    )
    lines = wrap_text(text, 80)
    assert lines[1].startswith("`tracker official add 14100010") and "--rating R`" in lines[1]
    assert all(cell_width(x) <= 80 for x in lines)
    # too long for the line: cut at its spaces as any text
    assert all(cell_width(x) <= 40 for x in wrap_text(text, 40))
    assert " ".join(wrap_text(text, 40)) == text
