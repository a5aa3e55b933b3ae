"""Fuzzing every other input (issue 7): official list files and command-line values.

Through the entry point, in-process, against a small database (two players, two games):

- official list files: lists written by tests.listgen (TXT and XML, single and combined)
  then mutated (truncated, bytes inserted, lines deleted or repeated, binary), and raw
  binary; `tracker official import FILE --all`;
- command-line values: periods, ratings, dates, opponents (RATING:SCORE), player names
  with quotes, SQL metacharacters, LIKE wildcards and emoji, for history, calc, official
  add, player set and event set.

Properties: the exit code is 0, 1 or 2; stderr holds only `warning:` and `error:` lines,
never a traceback nor an "internal error"; a command that fails leaves the database exactly
as it was (SQL dump).
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import dump_db, run_captured
from tests.listgen import FORMATS, players, write_list
from tests.test_import import pgn
from tracker.model import Period

pytestmark = pytest.mark.slow  # fuzzing: Hypothesis, thousands of examples

FUZZ = settings(
    max_examples=int(os.environ.get("TRACKER_FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
_SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
_BASE: dict[str, bytes] = {}


@contextmanager
def _folder() -> Iterator[Path]:
    """A scratch folder holding t.db: Novak, Jan (FIDE ID 99012345) v Svoboda, Petr."""
    folder = Path(tempfile.mkdtemp(prefix="fuzzin", dir=_SCRATCH))
    try:
        db = folder / "t.db"
        if not _BASE:
            f = folder / "base.pgn"
            f.write_text(
                pgn(Round="1", WhiteFideId="99012345", WhiteElo="1800", BlackElo="1750")
                + pgn(Round="2", Result="0-1"),
                "utf-8",
            )
            code, _, err = run_captured("import", str(f), "--db", str(db), "--quiet")
            assert code == 0, err
            _BASE["db"] = db.read_bytes()
        db.write_bytes(_BASE["db"])
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def checkrun_captured(folder: Path, *args: str) -> tuple[int, str, str]:
    db = folder / "t.db"
    before = dump_db(db)
    code, out, err = run_captured(*args, "--db", str(db))
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in out + err and "internal error" not in err, err
    usage = code == 2 and "Usage: tracker" in err  # click's own usage error (exit 2)
    for line in err.split("\n"):  # not splitlines: a name may hold \x1c-\x1e, \x85...
        assert usage or line.startswith(("warning: ", "error: ")) or not line.strip(), err
    if code != 0:
        assert usage or err.count("error: ") == 1, err
        assert dump_db(db) == before, "a failed command changed the database"
    return code, out, err


# --- official list files -----------------------------------------------------------------


@st.composite
def list_files(draw: st.DrawFn) -> tuple[str, bytes]:
    fmt = draw(st.sampled_from(FORMATS))
    text = io.StringIO()
    people = list(players(draw(st.integers(1, 12)), seed=draw(st.integers(1, 50))))
    write_list(text, people, fmt, period=Period(2025, 3))
    data = bytearray(text.getvalue().encode(draw(st.sampled_from(["utf-8", "latin-1"])), "replace"))
    for _ in range(draw(st.integers(0, 4))):
        pos = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["truncate", "insert", "delete", "repeat", "binary"]))
        if kind == "truncate":
            del data[pos:]
        elif kind == "insert":
            data[pos:pos] = draw(
                st.sampled_from(
                    [
                        b"\x00",
                        b"\n",
                        b"<",
                        b">",
                        b"&",
                        b"&lol;",
                        b"<!DOCTYPE x>",
                        b"\xff",
                        b"'",
                        b"9" * 30,
                        b"-",
                        b" " * 40,
                        b"<player>",
                        b"</player>",
                        b"\r\n",
                        b";--",
                    ]
                )
            )
        elif kind == "delete":
            del data[pos : pos + draw(st.integers(1, 80))]
        elif kind == "repeat":
            data[pos:pos] = data[pos : pos + draw(st.integers(1, 200))]
        else:
            data[pos:pos] = draw(st.binary(min_size=1, max_size=20))
    suffix = ".xml" if fmt.endswith("xml") else ".txt"
    return f"standard_mar25frl{suffix}", bytes(data)


@FUZZ
@given(case=st.one_of(list_files(), st.binary(max_size=2000).map(lambda b: ("l.txt", b))))
def test_official_list_files(case: tuple[str, bytes]) -> None:
    name, data = case
    with _folder() as folder:
        f = folder / name
        f.write_bytes(data)
        checkrun_captured(folder, "official", "import", str(f), "--all", "--period", "2025-03")


# --- command-line values ------------------------------------------------------------------

nasty = st.one_of(
    st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=30),
    st.sampled_from(
        [
            "Novak, Jan",
            "99012345",
            "'",
            '"',
            "\\",
            "%",
            "_",
            "%%",
            "' OR '1'='1",
            "Robert'); DROP TABLE players;--",
            "🐴",
            "Nov🐴k",
            "  ",
            "-",
            "--help",
            "0",
            "-1",
            "2025-13",
            "2025-00",
            "0000-01",
            "9999-12",
            "2025-3",
            "2025/03",
            "1e3",
            "NaN",
            "inf",
            "1650:0.5",
            "1650:½",
            ":",
            "1650:",
            ":1",
            "3501:1",
            "0:0",
            "1650:1/2",
            "2025-02-29",
            "2024-02-29",
            "2025-02-30",
            "1-0",
            "*",
            "standard",
            "bullet",
            "\t",
        ]
    ),
)
# Player names: the nasty values, and the two that once broke a command (a FIDE ID of 24
# digits raised OverflowError; a newline split the error line), now each one error line
# (tests/test_hostile_catalog.py::test_huge_fide_id_is_a_clean_error and
# ::test_newline_in_a_name_is_one_error_line hold them too).
names = st.one_of(nasty, st.sampled_from(["9" * 24, " 1234567890123456789012 ", "Nobody\nElse"]))
numbers = st.one_of(st.integers(-(10**6), 10**6).map(str), nasty)


@FUZZ
@given(player=names, since=nasty, list_=nasty)
@example(player="9" * 24, since="2020-01", list_="standard")
@example(player="Nobody\nElse", since="2020-01", list_="standard")
def test_history_values(player: str, since: str, list_: str) -> None:
    with _folder() as folder:
        checkrun_captured(folder, "history", player, "--from", since, "--list", list_)


@FUZZ
@given(opponents=st.lists(nasty, min_size=1, max_size=3), rating=numbers, date=nasty, k=numbers)
def test_calc_values(opponents: list[str], rating: str, date: str, k: str) -> None:
    args = ["calc", *opponents, "--rating", rating, "--date", date, "--k", k]
    code, _, err = run_captured(*args)
    assert code in (0, 2), (args, code, err)
    assert "internal error" not in err and "Traceback" not in err, err


@FUZZ
@given(player=names, period=nasty, rating=numbers, games=numbers)
def test_official_add_values(player: str, period: str, rating: str, games: str) -> None:
    with _folder() as folder:
        checkrun_captured(
            folder,
            "official",
            "add",
            player,
            "--period",
            period,
            "--rating",
            rating,
            "--games",
            games,
        )


@FUZZ
@given(player=names, year=numbers, fide=numbers)
def test_player_set_values(player: str, year: str, fide: str) -> None:
    with _folder() as folder:
        checkrun_captured(folder, "player", "set", player, "--birth-year", year, "--fide-id", fide)


@FUZZ
@given(event=numbers, period=nasty, list_=nasty, ro=numbers)
def test_event_set_values(event: str, period: str, list_: str, ro: str) -> None:
    with _folder() as folder:
        checkrun_captured(
            folder,
            "event",
            "set",
            event,
            "--period",
            period,
            "--list",
            list_,
            "--ro",
            ro,
            "--player",
            "Novak, Jan",
        )
