"""`tracker official import|add|list|remove` end to end, in process (errors: one line)."""

from __future__ import annotations

import datetime as dt
import json
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import insert

from tests import listgen
from tests.builders import inserted_id
from tests.conftest import dump_db, run_cli
from tracker.errors import BadInput
from tracker.model import Period, RatingList
from tracker.store import open_store
from tracker.store.entries import entries_for
from tracker.store.schema import player_names, players


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def db(db_path: Path) -> str:
    """A database holding two players of the generated list (seed 1) and one without ID."""
    people = list(listgen.players(40, seed=1))
    with open_store(str(db_path)) as store, store.engine.begin() as conn:
        for name, fid in (
            (people[0].name, people[0].fide_id),
            (people[5].name, people[5].fide_id),
            ("Nobody, Known", None),
        ):
            pid = inserted_id(
                conn.execute(insert(players).values(name=name, norm_name=name.lower(), fide_id=fid))
            )
            conn.execute(
                insert(player_names).values(norm_name=f"{name.lower()} {pid}", player_id=pid)
            )
    return str(db_path)


def test_import_known_players_then_replace(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    people = list(listgen.players(40, seed=1))
    path = listgen.generate(tmp_path / "standard_nov25frl.zip", 40, "txt", zipped=True)
    code, out, err = run(capsys, monkeypatch, "official", "import", path.name, "--db", db)
    assert code == 0, err
    assert out.startswith(
        "standard_nov25frl.zip: 2025-11 (standard): 40 players read; "
        "2 in the database; 38 others skipped (--all keeps them); "
    )
    before = dump_db(Path(db))
    code, out, err = run(capsys, monkeypatch, "official", "import", path.name, "--db", db)
    assert code == 0, err
    rated = sum(1 for i in (0, 5) if people[i].standard.rating is not None)
    # the same file again: nothing written, nothing changed
    assert f"; 0 entries written; {rated} already as imported before (unchanged); an " in out
    assert dump_db(Path(db)) == before
    # a re-issued list for the month (another rating, one a 2025 list can print): replaces
    lines = path.with_suffix(".txt")
    listgen.generate(lines, 40, "txt")
    text = lines.read_text(encoding="utf-8").splitlines()
    for i in (1, 6):
        if text[i][113:117].strip():
            assert text[i][113:117] != "1777"
            text[i] = text[i][:113] + "1777" + text[i][117:]
    lines.write_text("\n".join(text) + "\n", encoding="utf-8")
    code, out, err = run(capsys, monkeypatch, "official", "import", lines.name, "--db", db)
    assert code == 0, err
    assert f"{rated} replaced an earlier import for the same month" in out
    code, out, err = run(
        capsys,
        monkeypatch,
        "official",
        "list",
        str(people[0].fide_id),
        "--format",
        "json",
        "--db",
        db,
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["fide_id"] == people[0].fide_id
    assert [(e["list"], e["period"], e["rating"]) for e in data["entries"]] == (
        [("standard", "2025-11", people[0].standard.rating)] if people[0].standard.rating else []
    )


@pytest.mark.parametrize("fmt", ["txt", "xml", "combined-txt", "combined-xml"])
def test_import_all_every_format(
    tmp_path: Path,
    db: str,
    fmt: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = listgen.generate(
        tmp_path / "players_list.zip",
        200,
        fmt,
        zipped=True,
        period=Period(2025, 11),
        rating_list=RatingList.RAPID,
    )
    args = ["official", "import", path.name, "--period", "2025-11", "--all", "--db", db]
    if not fmt.startswith("combined"):
        args += ["--list", "rapid"]
    code, out, err = run(capsys, monkeypatch, *args)
    assert code == 0, err
    assert "200 players read; 200 kept (198 new)" in out
    people = list(listgen.players(200, seed=1))
    with open_store(db) as store:
        from tracker.app.players import resolve_player

        last = resolve_player(store, str(people[-1].fide_id))
        assert last.name == people[-1].name
        got = entries_for(store, last.id)
    lists = tuple(RatingList) if fmt.startswith("combined") else (RatingList.RAPID,)
    assert [(e.list, e.rating) for e in got] == [
        (lst, people[-1].figures(lst).rating)
        for lst in lists
        if people[-1].figures(lst).rating is not None
    ]


def test_add_list_remove(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    p = next(iter(listgen.players(1, seed=1)))
    fid = str(p.fide_id)
    code, out, _ = run(
        capsys,
        monkeypatch,
        "official",
        "add",
        fid,
        "--period",
        "2025-10",
        "--rating",
        "1805",
        "--k",
        "20",
        "--games",
        "5",
        "--db",
        db,
    )
    assert (code, out) == (0, f"recorded {p.name}: standard 2025-10 1805\n")
    code, out, _ = run(
        capsys,
        monkeypatch,
        "official",
        "add",
        fid,
        "--period",
        "2025-10",
        "--rating",
        "1806",
        "--db",
        db,
    )
    assert out == f"recorded {p.name}: standard 2025-10 1806 (replaced the earlier entry)\n"
    run(
        capsys,
        monkeypatch,
        "official",
        "add",
        fid,
        "--period",
        "2025-09",
        "--rating",
        "1500",
        "--list",
        "blitz",
        "--db",
        db,
    )
    code, out, _ = run(capsys, monkeypatch, "official", "list", fid, "-f", "csv", "--db", db)
    assert out.splitlines() == [
        "list,period,rating,games,k,flag,title,birth_year,source",
        "standard,2025-10,1806,,,,,,manual",
        "blitz,2025-09,1500,,,,,,manual",
    ]
    code, out, _ = run(capsys, monkeypatch, "official", "list", fid, "--db", db)
    assert code == 0 and "1806" in out and "1500" in out
    code, out, _ = run(
        capsys,
        monkeypatch,
        "official",
        "remove",
        fid,
        "--period",
        "2025-09",
        "--list",
        "blitz",
        "--db",
        db,
    )
    assert (code, out) == (0, f"removed {p.name}: blitz 2025-09\n")
    code, out, err = run(
        capsys,
        monkeypatch,
        "official",
        "remove",
        fid,
        "--period",
        "2025-09",
        "--list",
        "blitz",
        "--db",
        db,
    )
    assert code == 2 and out == ""
    assert err == (
        f"error: {p.name} has no blitz entry for 2025-09: see `tracker official list {fid}`\n"
    )


@pytest.mark.parametrize(
    "args, code, message",
    [
        (
            ["add", "999", "--period", "2025-10", "--rating", "1800"],
            2,
            "error: no player matches '999': `tracker players` lists all 3 players, `tracker "
            "players --search PART` those whose name contains PART",
        ),
        (
            ["add", "Nobody", "--period", "2025-13", "--rating", "1800"],
            2,
            "error: --period: period '2025-13': month must be 01 to 12",
        ),
        (
            ["add", "Nobody", "--period", "2025-10", "--rating", "0"],
            2,
            "error: --rating 0 is below 1400, the lowest rating on FIDE's standard list of "
            "2025-10 (the floor: a result below it is published as unrated): give the rating "
            "as the list printed it",
        ),
        (
            ["add", "Nobody", "--period", "2025-10", "--rating", "1800", "--list", "bullet"],
            2,
            "error: unknown list 'bullet': use standard, rapid or blitz",
        ),
        (["import", "missing.zip"], 2, "error: missing.zip: no such file: check the path"),
    ],
)
def test_errors_are_one_line(
    db: str,
    args: list[str],
    code: int,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    got, out, err = run(capsys, monkeypatch, "official", *args, "--db", db)
    assert (got, out, err) == (code, "", message + "\n")


def test_bad_files_leave_nothing(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    good = listgen.generate(tmp_path / "standard_nov25frl.txt", 40, "txt")
    laughs = tmp_path / "standard_nov25frl_xml.xml"
    laughs.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE l [<!ENTITY a "aaaa">]>\n<playerslist>&a;</playerslist>\n'
    )
    code, out, err = run(
        capsys, monkeypatch, "official", "import", laughs.name, good.name, "--db", db
    )
    assert code == 2
    lines = out.splitlines()
    assert lines[0] == (
        "standard_nov25frl_xml.xml: not imported: line 2: the XML declares a "
        "DTD (<!DOCTYPE ...>), which a FIDE list never does; refused for "
        "safety"
    )
    assert lines[1].startswith("standard_nov25frl.txt: 2025-11 (standard): 40 players read")
    assert lines[2:] == ["2 files: 1 read, 1 not imported"]
    assert err == (
        "error: 1 of 2 files could not be imported (nothing of it was stored; "
        "why: above): standard_nov25frl_xml.xml\n"
    )
    # a truncated zip alone: its error, one line, and no entry of it written
    data = listgen.generate(
        tmp_path / "rapid_nov25frl.zip", 2_000, "txt", zipped=True, rating_list=RatingList.RAPID
    ).read_bytes()
    cut = tmp_path / "rapid_nov25frl.zip"
    cut.write_bytes(data[: len(data) - 200])
    before = dump_db(Path(db))
    code, out, err = run(capsys, monkeypatch, "official", "import", cut.name, "--db", db)
    assert code == 2 and out == ""
    assert err.startswith("error: rapid_nov25frl.zip") and err.count("\n") == 1
    assert dump_db(Path(db)) == before
    with open_store(db) as store:
        first = next(iter(listgen.players(1, seed=1)))
        from tracker.app.players import resolve_player

        pid = resolve_player(store, str(first.fide_id)).id
        assert all(e.list is RatingList.STANDARD for e in entries_for(store, pid))


def test_missing_paths_refused_before_anything(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    good = listgen.generate(tmp_path / "standard_nov25frl.txt", 40, "txt")
    before = dump_db(Path(db))
    code, out, err = run(
        capsys, monkeypatch, "official", "import", good.name, "nope.zip", "gone.txt", "--db", db
    )
    assert (code, out) == (2, "")
    assert err == "error: no such files: nope.zip, gone.txt: check the paths\n"
    assert dump_db(Path(db)) == before


def test_malformed_lines_are_warned(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = listgen.generate(tmp_path / "standard_nov25frl.txt", 10, "txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3][:113] + "12ab  " + lines[3][119:]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # by default only the database's players are parsed: line 4 is someone else's
    code, out, err = run(capsys, monkeypatch, "official", "import", path.name, "--db", db)
    assert (code, err) == (0, "")
    assert "10 players read; 2 in the database; 8 others skipped" in out
    code, out, err = run(capsys, monkeypatch, "official", "import", path.name, "--all", "--db", db)
    assert code == 0
    assert "9 players read" in out
    assert err.splitlines() == [
        "warning: standard_nov25frl.txt:4: standard rating '12ab' is not a number; line skipped",
        "warning: standard_nov25frl.txt: 1 malformed row skipped",
    ]


def test_zip_holding_two_lists(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "two.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a.txt", "x")
        zf.writestr("b.xml", "y")
    code, out, err = run(capsys, monkeypatch, "official", "import", path.name, "--db", db)
    assert code == 2 and out == ""
    assert err == (
        "error: two.zip: expected one .txt or .xml list inside the zip, found a.txt,"
        " b.xml: unzip it and import the list file\n"
    )


# --- every era: the verbatim samples, and a generated archive folder ----------------------


@pytest.mark.parametrize(
    "name", ["APR04FRL.TXT", "standard_mar11frl.txt", "rapid_sep12frl.txt", "players_list_2015.txt"]
)
def test_verbatim_samples_import_all(
    db: str, name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each sample of FIDE's archive imports with --all; what is stored is what the file says
    (the expected rows of tests/test_fidelists.py, written by reading the files by eye)."""
    from sqlalchemy import select

    from tests.conftest import SPEC, need_shared
    from tests.test_fidelists import SAMPLE_ROWS

    need_shared()
    period, expected = SAMPLE_ROWS[name]
    args = ["official", "import", str(SPEC / "fide-list-samples" / name), "--all", "--db", db]
    if name.startswith("players_list"):
        args += ["--period", str(period)]
    code, out, err = run(capsys, monkeypatch, *args)
    assert (code, err) == (0, "")
    unnamed = sum(1 for e in expected if not e[1])
    assert f": {len(expected)} players read; {len(expected) - unnamed} kept " in out
    if unnamed:
        assert f"; {unnamed} without a name not created;" in out
    with open_store(db) as store:
        with store.engine.connect() as conn:
            stored = {
                fid: (pname, fed, birth)
                for fid, pname, fed, birth in conn.execute(
                    select(
                        players.c.fide_id,
                        players.c.name,
                        players.c.federation,
                        players.c.birth_year,
                    )
                )
            }
        from tracker.app.players import resolve_player

        for fid, pname, fed, title, figures, birth, flag in expected:
            if not pname:
                assert fid not in stored
                continue
            assert stored[fid] == (pname, fed, birth)
            entries = entries_for(store, resolve_player(store, str(fid)).id)
            assert [
                (e.list, e.period, e.rating, e.games, e.k, e.flag, e.title, e.birth_year, e.source)
                for e in entries
            ] == [
                (lst, period, rating, games, k, flag, title, birth, name)
                for lst, rating, games, k in figures
                if rating is not None
            ]
    before = dump_db(Path(db))
    code, out, err = run(capsys, monkeypatch, *args)
    assert code == 0 and "0 entries written" in out and dump_db(Path(db)) == before


def _sample_counts(name: str) -> dict[str, object]:
    """What importing a verbatim sample with --all into an empty database gives, counted from
    the rows read by eye (tests/test_fidelists.py's SAMPLE_ROWS)."""
    from tests.test_fidelists import SAMPLE_ROWS

    period, expected = SAMPLE_ROWS[name]
    named = sum(1 for e in expected if e[1])
    return {
        "outcome": "imported",
        "periods": [str(period)],
        "lists": sorted({str(f[0]) for e in expected for f in e[4]}),
        "kind": "excerpt",  # a few rows of FIDE's list: far below its whole list's count
        "players_read": len(expected),
        "in_database": named,
        "created": named,
        "unnamed": len(expected) - named,
        "entries": sum(1 for e in expected if e[1] for f in e[4] if f[1] is not None),
        "skipped": 0,
        "malformed": 0,
        "error": None,
    }


def test_import_format_json_and_csv_one_row_per_file(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--format json and csv: one object (row) per file with its counts and outcome, on
    stdout alone and never cut to the terminal's width; a file that fails is a row too, and
    the command still ends with its one error line (exit 2, as the table's)."""
    import csv
    import io

    from tests.conftest import SPEC, need_shared

    need_shared()
    names = ["APR04FRL.TXT", "standard_mar11frl.txt", "rapid_sep12frl.txt"]
    paths = [str(SPEC / "fide-list-samples" / n) for n in names]
    monkeypatch.setenv("COLUMNS", "40")
    args = ["official", "import", *paths, "--all", "--db", db]
    code, out, err = run(capsys, monkeypatch, *args, "--format", "json")
    assert (code, err) == (0, "")
    rows = json.loads(out)
    assert [r["file"] for r in rows] == paths
    for name, row in zip(names, rows, strict=True):
        assert {k: row[k] for k in _sample_counts(name)} == _sample_counts(name), name
    # again, as CSV: the same files, every entry as imported before; plus a combined list
    # that names no month (refused: a row of its own, and the error line on stderr)
    combined = str(SPEC / "fide-list-samples" / "players_list_2015.txt")
    code, out, err = run(capsys, monkeypatch, *args[:-2], combined, "--db", db, "-f", "csv")
    assert code == 2
    assert err == (
        "error: 1 of 4 files could not be imported (nothing of it was stored; why: the error "
        f"field): {combined}\n"
    )
    lines = out.split("\r\n")
    assert lines[-1] == "" and len(lines) == 1 + 4 + 1  # the header, a line per file
    assert max(len(x) for x in lines) > 40  # not cut to COLUMNS
    table = list(csv.DictReader(io.StringIO(out)))
    assert [r["file"] for r in table] == [*paths, combined]
    for name, row in zip(names, table[:3], strict=True):
        expected = _sample_counts(name)
        assert row["outcome"] == "imported" and row["players_read"] == str(expected["players_read"])
        assert row["unchanged"] == str(expected["entries"]) and row["entries"] == "0"
    assert table[3]["outcome"] == "not-imported" and table[3]["players_read"] == ""
    assert table[3]["error"] == "the file does not say which month it lists: give --period YYYY-MM"
    # the table, as before: lines for people, fitted to the terminal
    code, out, _ = run(capsys, monkeypatch, *args)
    assert code == 0 and out.endswith("\n3 files: 3 read, 0 not imported\n")
    assert max(len(x) for x in out.splitlines()) <= 40


# One file per layout, as FIDE's archive names them: (name, format, list, period, zipped).
ARCHIVE = [
    ("JAN01FRL.TXT", "txt-2001", RatingList.STANDARD, Period(2001, 1), False),
    ("2003/JUL03FRL.zip", "txt-2003", RatingList.STANDARD, Period(2003, 7), True),
    ("2008/OCT08FRL.TXT", "txt-2003", RatingList.STANDARD, Period(2008, 10), False),
    ("standard_mar11frl.zip", "txt-2009", RatingList.STANDARD, Period(2011, 3), True),
    ("rapid_sep12frl.txt", "txt-2012", RatingList.RAPID, Period(2012, 9), False),
    ("blitz_oct13frl_xml.zip", "xml-2012", RatingList.BLITZ, Period(2013, 10), True),
    ("standard_jan15frl_xml.xml", "xml-2012", RatingList.STANDARD, Period(2015, 1), False),
    (
        "combined/players_list_2015.txt",
        "combined-txt-2015",
        RatingList.STANDARD,
        Period(2015, 6),
        False,
    ),
    ("standard_nov25frl.zip", "txt", RatingList.STANDARD, Period(2025, 11), True),
    ("rapid_nov25frl_xml.zip", "xml", RatingList.RAPID, Period(2025, 11), True),
]


def _archive(folder: Path, count: int) -> None:
    for name, fmt, lst, period, zipped in ARCHIVE:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        enc = "latin-1" if fmt in ("txt-2001", "txt-2003", "txt-2009") else "utf-8"
        listgen.generate(
            path, count, fmt, zipped=zipped, seed=3, rating_list=lst, period=period, encoding=enc
        )


def test_archive_folder_round_trip(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generated archive of every layout, plain and zipped, in a folder with subfolders:
    `official import FOLDER --all` stores what each file carries; the same folder again
    changes nothing."""
    folder = tmp_path / "fide"
    folder.mkdir()
    _archive(folder, 60)
    # the combined file names no month: the one file of its folder, imported with --period
    combined = folder / "combined"
    code, out, err = run(
        capsys,
        monkeypatch,
        "official",
        "import",
        str(combined),
        "--all",
        "--period",
        "2015-06",
        "--db",
        db,
    )
    assert code == 0, err
    (combined / "players_list_2015.txt").rename(tmp_path / "players_list_2015.txt")
    code, out, err = run(
        capsys, monkeypatch, "official", "import", str(folder), "--all", "--db", db
    )
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == len(ARCHIVE)  # one per file (nine), then the run's line
    assert lines[-1] == "9 files: 9 read, 0 not imported"
    assert lines[0].startswith(
        f"{folder}/2003/JUL03FRL.zip: 2003-07 (standard): 60 players read; 60 kept ("
    )
    with open_store(db) as store:
        from tracker.app.players import resolve_player

        for name, fmt, lst, period, _ in ARCHIVE:
            for p in listgen.players(
                60, seed=3, period=period, latin1=fmt in ("txt-2001", "txt-2003", "txt-2009")
            ):
                q = listgen.published(p, fmt)
                pid = resolve_player(store, str(p.fide_id)).id
                got = {(e.list, e.period): e for e in entries_for(store, pid)}
                lists = tuple(RatingList) if fmt.startswith("combined") else (lst,)
                for one in lists:
                    f = q.figures(one)
                    e = got.get((one, period))
                    if f.rating is None:
                        assert e is None
                        continue
                    assert e is not None, (name, p.fide_id)
                    assert (e.rating, e.k, e.flag or "", e.birth_year) == (
                        f.rating,
                        f.k,
                        q.flag,
                        q.birth_year,
                    ), name
                    assert e.games == f.games or (f.games is None and e.games == 0)
                    assert e.title == ((q.title or q.women_title) or None)
                    assert e.source == Path(name).name
    before = dump_db(Path(db))
    code, out, err = run(
        capsys, monkeypatch, "official", "import", str(folder), "--all", "--db", db
    )
    assert code == 0 and dump_db(Path(db)) == before
    assert all("; 0 entries written; " in line for line in out.splitlines()[:-1])


def test_archive_folder_with_bad_files(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "fide"
    folder.mkdir()
    listgen.generate(folder / "APR04FRL.TXT", 40, "txt-2003", period=Period(2004, 4))
    listgen.generate(folder / "standard_mar11frl.txt", 40, "txt-2009", period=Period(2011, 3))
    (folder / "notes.txt").write_text("my downloads\n")
    data = listgen.generate(tmp_path / "x.zip", 3_000, "txt", zipped=True).read_bytes()
    (folder / "standard_nov25frl.zip").write_bytes(data[: len(data) // 2])
    code, out, err = run(capsys, monkeypatch, "official", "import", str(folder), "--db", db)
    assert code == 2
    lines = out.splitlines()
    assert lines[0].startswith(f"{folder}/APR04FRL.TXT: 2004-04 (standard): 40 players read")
    assert lines[1] == (
        f"{folder}/notes.txt: not imported: line 1: the header is not one of "
        "FIDE's TXT layouts (no 'ID Number' column in 'my downloads'): "
        "expected 'ID Number', 'Name' and a rating column named after the "
        "month (JAN23, Mar11) or SRtng, RRtng, BRtng (docs/lists.md)"
    )
    assert lines[2].startswith(f"{folder}/standard_mar11frl.txt: 2011-03 (standard)")
    assert lines[3].startswith(
        f"{folder}/standard_nov25frl.zip: not imported: the zip archive is damaged"
    )
    assert lines[4:] == ["4 files: 2 read, 2 not imported"]
    assert err == (
        f"error: 2 of 4 files could not be imported (nothing of them was stored; "
        f"why: above): {folder}/notes.txt, {folder}/standard_nov25frl.zip\n"
    )
    code, out, err = run(
        capsys, monkeypatch, "official", "import", str(tmp_path / "empty"), "--db", db
    )
    assert (code, err) == (2, f"error: {tmp_path / 'empty'}: no such file: check the path\n")
    (tmp_path / "empty").mkdir()
    code, out, err = run(
        capsys, monkeypatch, "official", "import", str(tmp_path / "empty"), "--db", db
    )
    assert (code, err) == (
        2,
        f"error: {tmp_path / 'empty'}: no .txt, .xml or .zip list files in this folder\n",
    )


def test_a_damaged_zip_in_a_folder_does_not_stop_the_others(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35 item 3: a zip whose member has a bad CRC (or a size its directory lies
    about, or a method zipfile lacks) was an internal error that stopped a folder import:
    the files after it were never imported. Now it is one line, as a PGN import says a
    damaged file, and the next file is imported."""
    from tests.test_fidelists import damaged_zip

    folder = tmp_path / "fide"
    folder.mkdir()
    damaged_zip(folder / "rapid_nov25frl.zip", "crc")
    listgen.generate(folder / "standard_nov25frl.zip", 40, "txt", zipped=True)
    code, out, err = run(capsys, monkeypatch, "official", "import", str(folder), "--db", db)
    assert code == 2, err
    lines = out.splitlines()
    assert lines[0] == (
        f"{folder}/rapid_nov25frl.zip: not imported: the zip archive is damaged (Bad CRC-32 "
        "for file 'standard_nov25frl.txt'): download it again"
    )
    assert lines[1].startswith(f"{folder}/standard_nov25frl.zip: 2025-11 (standard): 40 players")
    assert lines[-1] == "2 files: 1 read, 1 not imported"
    assert err == (
        "error: 1 of 2 files could not be imported (nothing of it was stored; why: above): "
        f"{folder}/rapid_nov25frl.zip\n"
    )


def test_a_newline_in_a_list_file_name_forges_no_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19, item 7: a list file (or member) name reaches the terminal escaped."""
    from tests.conftest import SPEC, need_shared

    need_shared()
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "rapid_sep12frl\nforged line.txt").write_bytes(
        (SPEC / "fide-list-samples" / "rapid_sep12frl.txt").read_bytes()
    )
    db = str(tmp_path / "o.db")
    code, out, err = run_cli(
        capsys, monkeypatch, "official", "import", str(folder), "--all", "--db", db
    )
    assert code == 0, err
    assert "rapid_sep12frl\\nforged line.txt: 2012-09 (rapid)" in out
    assert not any(line.startswith("forged line") for line in out.splitlines())


# --- what the QA run found: a future list, CSV line ends, players not in the database --------


def test_official_add_refuses_a_future_list(
    two_opens_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = two_opens_db  # the two opens (tests/builders.py)
    today = dt.date.today()
    nxt = Period.of(today).next()
    before = dump_db(Path(db))
    code, out, err = run(
        capsys,
        monkeypatch,
        "official",
        "add",
        "99012345",
        "--period",
        str(nxt.next()),
        "--rating",
        "1850",
        "--db",
        db,
    )
    assert (code, out) == (2, "")
    assert err == (
        f"error: --period {nxt.next()} is a future list: today is "
        f"{today.isoformat()}, and the latest list FIDE can have published is "
        f"{nxt}\n"
    )
    assert dump_db(Path(db)) == before
    code, out, err = run(
        capsys,
        monkeypatch,
        "official",
        "add",
        "99012345",
        "--period",
        str(nxt),
        "--rating",
        "1850",
        "--db",
        db,
    )
    assert code == 0, err
    assert out == f"recorded Novák, Tomáš: standard {nxt} 1850\n"


def test_official_import_takes_the_periods_official_add_takes(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: `official import --period 2999-12` wrote entries while `official add`
    refused a list after next month. Now a list file's period (given with --period, or read
    from its name or header) after next month's list is refused the same way, in one line,
    nothing written; in a folder of lists that file alone."""
    today = dt.date.today()
    nxt = Period.of(today).next()
    people = list(listgen.players(40, seed=1))
    xml = listgen.generate(tmp_path / "players_list.xml", 40, "xml")  # says no month
    before = dump_db(Path(db))
    commands: list[tuple[str, ...]] = [
        ("import", xml.name, "--list", "standard"),
        ("add", str(people[0].fide_id), "--rating", "1850"),
    ]
    for period in ("2999-12", str(nxt.next())):
        for command in commands:
            code, out, err = run(
                capsys, monkeypatch, "official", *command, "--period", period, "--db", db
            )
            said = (
                "--period " + period
                if command[0] == "add"
                else f"{xml.name} is the list of {period},"
            )
            assert (code, out) == (2, "")
            assert err == (
                f"error: {said} {'is ' if command[0] == 'add' else ''}a future "
                f"list: today is {today.isoformat()}, and the latest list FIDE "
                f"can have published is {nxt}\n"
            )
    assert dump_db(Path(db)) == before
    far = tmp_path / "lists"
    far.mkdir()
    listgen.generate(far / "standard_dec69frl.txt", 40, "txt", period=Period(2069, 12))
    listgen.generate(far / "standard_nov25frl.txt", 40, "txt")
    code, out, err = run(capsys, monkeypatch, "official", "import", "lists", "--db", db)
    assert code == 2 and out.startswith(
        "lists/standard_dec69frl.txt: not imported: lists/standard_dec69frl.txt is the list "
        f"of 2069-12, a future list: today is {today.isoformat()}"
    ), (out, err)
    assert "\nlists/standard_nov25frl.txt: 2025-11 (standard)" in out
    assert err == (
        "error: 1 of 2 files could not be imported (nothing of it was stored; "
        "why: above): lists/standard_dec69frl.txt\n"
    )
    for command in (
        ("import", xml.name, "--list", "standard"),
        ("add", str(people[0].fide_id), "--rating", "1850"),
    ):
        code, _, err = run(
            capsys, monkeypatch, "official", *command, "--period", str(nxt), "--db", db
        )
        assert code == 0, err


def test_future_list_boundary() -> None:
    from tracker.app.official import check_published

    check_published(Period(2026, 1), today=dt.date(2025, 12, 30))
    check_published(Period(2026, 1), today=dt.date(2025, 12, 1))
    with pytest.raises(BadInput, match="today is 2025-12-31.* published is 2026-01"):
        check_published(Period(2026, 2), today=dt.date(2025, 12, 31))


def test_official_list_csv_ends_lines_with_crlf(
    two_opens_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = two_opens_db  # the two opens (tests/builders.py)
    code, out, err = run(
        capsys, monkeypatch, "official", "list", "99012345", "--format", "csv", "--db", db
    )
    assert code == 0, err
    assert out == (
        "list,period,rating,games,k,flag,title,birth_year,source\r\n"
        "standard,2025-10,1850,,20,,,,test\r\n"
    )


def test_official_import_one_other_skipped(
    tmp_path: Path,
    db_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    people = list(listgen.players(2, seed=1))
    with open_store(str(db_path)) as store, store.engine.begin() as conn:
        name, fid = people[0].name, people[0].fide_id
        pid = inserted_id(
            conn.execute(insert(players).values(name=name, norm_name=name.lower(), fide_id=fid))
        )
        conn.execute(insert(player_names).values(norm_name=name.lower(), player_id=pid))
    path = listgen.generate(tmp_path / "standard_nov25frl.zip", 2, "txt", zipped=True)
    code, out, err = run(capsys, monkeypatch, "official", "import", str(path), "--db", str(db_path))
    assert code == 0, err
    assert "; 1 in the database; 1 other skipped (--all keeps them); " in out
