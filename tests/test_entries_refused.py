"""Official entries no FIDE list can hold (issue 28): a month FIDE published no such list
in, a rating below the floor of that list's month or above four digits. `official add`
refuses them in one line (exit 2, nothing written); `official import` refuses a file of
such a month and skips, saying so, a row with such a rating, and takes every row a real
list of the month can hold.

The calendar and the floors asserted here are the rules spec's (`shared/spec/fide-rules.md`,
section 2: quarterly lists before Jul 2009, two-monthly to May 2012, monthly since, rapid
and blitz from Jul 2012; floor 1200 from Jul 2009, 1000 from Jul 2012, 1400 from Mar 2024),
not read back from the code.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tests import listgen
from tests.conftest import SAMPLES, dump_db, run_cli
from tracker.app.official import check_entry, list_month_problem
from tracker.errors import BadInput
from tracker.model import Period, RatingList

PLAYER = "99012345"  # Novák, Tomáš of sample_pgns/
TODAY = dt.date(2026, 12, 1)


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    """A database with the games of one sample tournament (Novák and his opponents)."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "t.db"
    code, _, err = run(
        capsys,
        monkeypatch,
        "import",
        str(SAMPLES / "2025-10-03_olomouc-open.pgn"),
        "--db",
        str(path),
    )
    assert code == 0, err
    return path


def _spec_list_months(rating_list: RatingList, year: int) -> set[int]:
    """The months of `year` FIDE published `rating_list`'s list in, by the spec's calendar."""
    months = set()
    for month in range(1, 13):
        period = Period(year, month)
        if rating_list is not RatingList.STANDARD and period < Period(2012, 7):
            continue
        if period < Period(2009, 7):
            if month in (1, 4, 7, 10):
                months.add(month)
        elif period < Period(2012, 7):
            if month % 2 == 1:
                months.add(month)
        else:
            months.add(month)
    return months


@pytest.mark.parametrize("rating_list", list(RatingList))
def test_the_months_of_a_list_are_the_spec_calendar(rating_list: RatingList) -> None:
    for year in range(2001, 2027):
        for month in range(1, 13):
            period = Period(year, month)
            published = list_month_problem(rating_list, period) is None
            assert published == (month in _spec_list_months(rating_list, year)), period


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("--period", "2010-02", "--rating", "1850"),
            "error: --period 2010-02: FIDE published no standard list in 2010-02 (two-monthly "
            "lists then: the nearest are 2010-01 and 2010-03): give the month of a published "
            "list",
        ),
        (
            ("--period", "2009-06", "--rating", "1850"),
            "error: --period 2009-06: FIDE published no standard list in 2009-06 (quarterly "
            "lists then: the nearest are 2009-04 and 2009-07): give the month of a published "
            "list",
        ),
        (
            ("--period", "2011-05", "--rating", "1850", "--list", "rapid"),
            "error: --period 2011-05: FIDE published no rapid list before 2012-07, its first "
            "rapid list: give the month of a published list",
        ),
        (
            ("--period", "2025-11", "--rating", "5"),
            "error: --rating 5 is below 1400, the lowest rating on FIDE's standard list of "
            "2025-11 (the floor: a result below it is published as unrated): give the rating "
            "as the list printed it",
        ),
        (
            ("--period", "2024-02", "--rating", "999", "--list", "blitz"),
            "error: --rating 999 is below 1000, the lowest rating on FIDE's blitz list of "
            "2024-02 (the floor: a result below it is published as unrated): give the rating "
            "as the list printed it",
        ),
        (
            ("--period", "2010-03", "--rating", "1199"),
            "error: --rating 1199 is below 1200, the lowest rating on FIDE's standard list of "
            "2010-03 (the floor: a result below it is published as unrated): give the rating "
            "as the list printed it",
        ),
        (
            ("--period", "2025-11", "--rating", "4000"),
            "error: --rating 4000 is above 3999, the highest rating a FIDE list can print: "
            "give the rating as the list printed it",
        ),
    ],
)
def test_official_add_refuses_an_entry_no_list_can_hold(
    db: Path,
    args: tuple[str, ...],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = dump_db(db)
    code, out, err = run(capsys, monkeypatch, "official", "add", PLAYER, *args, "--db", str(db))
    assert (code, out, err) == (2, "", message + "\n")
    assert dump_db(db) == before


def test_official_add_refuses_before_it_opens_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(
        capsys, monkeypatch, "official", "add", "Anyone", "--period", "2010-02", "--rating", "5"
    )
    assert code == 2 and out == "" and err.startswith("error: --period 2010-02: ")
    assert list(tmp_path.iterdir()) == []  # no database made


@pytest.mark.parametrize(
    "period, rating, rating_list",
    [
        ("2010-01", "1200", "standard"),  # two-monthly, floor 1200
        ("2009-04", "1400", "standard"),  # quarterly, floor 1400
        ("2012-07", "1000", "rapid"),  # the first rapid list, floor 1000
        ("2024-02", "1000", "blitz"),  # the last month of floor 1000
        ("2024-03", "1400", "standard"),  # floor 1400 again
        ("2025-11", "3999", "standard"),
    ],
)
def test_official_add_takes_every_entry_a_list_can_hold(
    db: Path,
    period: str,
    rating: str,
    rating_list: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, err = run(
        capsys,
        monkeypatch,
        "official",
        "add",
        PLAYER,
        "--period",
        period,
        "--rating",
        rating,
        "--list",
        rating_list,
        "--db",
        str(db),
    )
    assert (code, err) == (0, ""), err
    assert out == f"recorded Novák, Tomáš: {rating_list} {period} {rating}\n"


def test_the_library_refuses_the_same_entries() -> None:
    # every path that writes an entry by hand goes through check_entry (the demo too)
    with pytest.raises(BadInput, match="no standard list in 2010-02"):
        check_entry(RatingList.STANDARD, Period(2010, 2), 1850, TODAY)
    with pytest.raises(BadInput, match="5 is below 1400"):
        check_entry(RatingList.STANDARD, Period(2025, 11), 5, TODAY)
    check_entry(RatingList.RAPID, Period(2012, 7), 1000, TODAY)


# --- official import -----------------------------------------------------------------------


def test_official_import_refuses_a_file_of_a_month_of_no_list(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = listgen.generate(tmp_path / "players_list.xml", 20, "xml", period=Period(2010, 2))
    before = dump_db(db)
    code, out, err = run(
        capsys,
        monkeypatch,
        "official",
        "import",
        path.name,
        "--period",
        "2010-02",
        "--list",
        "standard",
        "--all",
        "--db",
        str(db),
    )
    assert (code, out) == (2, "")
    assert err == (
        "error: players_list.xml is the standard list of 2010-02, but FIDE published no "
        "standard list in 2010-02 (two-monthly lists then: the nearest are 2010-01 and "
        "2010-03): check the month (the file name, the header or --period)\n"
    )
    assert dump_db(db) == before


def test_official_import_refuses_a_rapid_list_before_the_first(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = listgen.generate(
        tmp_path / "rapid_jan12frl.zip",
        20,
        "txt",
        zipped=True,
        rating_list=RatingList.RAPID,
        period=Period(2012, 1),
    )
    before = dump_db(db)
    code, out, err = run(
        capsys, monkeypatch, "official", "import", path.name, "--all", "--db", str(db)
    )
    assert (code, out) == (2, "")
    assert err == (
        "error: rapid_jan12frl.zip is the rapid list of 2012-01, but FIDE published no "
        "rapid list before 2012-07, its first rapid list: check the month (the file name, "
        "the header or --period)\n"
    )
    assert dump_db(db) == before


def _rated_lines(path: Path) -> tuple[list[str], list[int]]:
    """The lines of a generated TXT list and the indexes of those with a standard rating."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return lines, [i for i, line in enumerate(lines) if i and line[113:119].strip()]


def test_official_import_skips_a_row_below_the_floor_and_says_so(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = listgen.generate(tmp_path / "standard_nov25frl.txt", 30, "txt")
    lines, rated = _rated_lines(path)
    low, floor = rated[2], rated[3]
    lines[low] = lines[low][:113] + "  1399" + lines[low][119:]  # below 1400: no list has it
    lines[floor] = lines[floor][:113] + "  1400" + lines[floor][119:]  # at the floor: kept
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    low_id, floor_id = int(lines[low][:15]), int(lines[floor][:15])
    code, out, err = run(
        capsys, monkeypatch, "official", "import", path.name, "--all", "--db", str(db)
    )
    assert code == 0, err
    assert err == (
        f"warning: standard_nov25frl.txt:{low + 1}: standard rating 1399 is below 1400, the "
        "lowest rating on FIDE's standard list of 2025-11 (the floor: a result below it is "
        "published as unrated); line skipped\n"
        "warning: standard_nov25frl.txt: 1 malformed row skipped\n"
    )
    assert out.startswith("standard_nov25frl.txt: 2025-11 (standard): 29 players read; ")
    for fide_id, rating in ((low_id, None), (floor_id, "1400")):
        code, out, err = run(
            capsys,
            monkeypatch,
            "official",
            "list",
            str(fide_id),
            "--format",
            "csv",
            "--db",
            str(db),
        )
        if rating is None:  # skipped: the player was not even created
            assert code == 2 and f"no player matches '{fide_id}'" in err
        else:
            assert code == 0 and out.splitlines()[1].startswith(f"standard,2025-11,{rating},")


def test_official_import_of_nothing_but_impossible_rows_writes_nothing(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = listgen.generate(tmp_path / "standard_nov25frl.txt", 5, "txt")
    lines, rated = _rated_lines(path)
    kept = [lines[0]] + [lines[i][:113] + "    20" + lines[i][119:] for i in rated]
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    before = dump_db(db)
    code, out, err = run(
        capsys, monkeypatch, "official", "import", path.name, "--all", "--db", str(db)
    )
    assert (code, out) == (2, "")
    assert err == (
        f"error: standard_nov25frl.txt: no players in the list ({len(rated)} malformed; the "
        "first: standard_nov25frl.txt:2: standard rating 20 is below 1400, the lowest rating "
        "on FIDE's standard list of 2025-11 (the floor: a result below it is published as "
        "unrated); line skipped): is it the right file?\n"
    )
    assert dump_db(db) == before


@pytest.mark.parametrize(
    "fmt, period",
    [
        ("txt-2001", Period(2001, 7)),
        ("txt-2003", Period(2008, 10)),
        ("txt-2009", Period(2010, 1)),
        ("txt-2012", Period(2013, 5)),
        ("combined-txt", Period(2024, 2)),
        ("combined-xml", Period(2025, 11)),
    ],
)
def test_official_import_keeps_every_row_a_real_list_of_the_month_holds(
    db: Path,
    tmp_path: Path,
    fmt: str,
    period: Period,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # listgen writes ratings from the floor of the month up (1200 in 2010, 1001 in 2013...)
    stem = "players_list" if "combined" in fmt else "standard_rating_list"
    name = f"{stem}.{'xml' if 'xml' in fmt else 'txt'}"
    path = listgen.generate(tmp_path / name, 200, fmt, period=period)
    code, out, err = run(
        capsys,
        monkeypatch,
        "official",
        "import",
        path.name,
        "--period",
        str(period),
        "--all",
        "--db",
        str(db),
    )
    assert (code, err) == (0, ""), err
    assert ": 200 players read; 200 kept (200 new); " in out
