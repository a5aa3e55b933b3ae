"""Fuzzing PGN: the reader's two paths agree, and no input hurts the database (issue 7).

The reader (Hypothesis, in-process, no database): random bytes, PGN-like pieces and
mutations of a seed file never raise, and the fast path (`read_games`) gives exactly the
games of the line machine (`read_games_slow`), each with a line and sentences as problems.

The importer: random and mutated PGN text never hurts the database.

Properties checked on every example, in-process through `import_sources` (the code path of
`tracker import`):

- no exception escapes except TrackerError (which the CLI prints as one line);
- every game read is stored, a duplicate, or skipped with a problem:
  games_read == added + duplicates + skipped, and the games table grew by exactly `added`;
- every problem is located: "<file>:<line>: <sentence>" with a line inside the file;
- a source that fails (no game, or --strict and a problem) leaves the database exactly as
  it was (a full SQL dump compares equal), and its message is one line;
- after any import, `tracker db check`'s invariants hold.

The examples are generated games (tags with quotes, backslashes, emoji, NULs...) and
mutations of them (truncation, stray braces/parentheses/quotes/backslashes, NUL bytes,
invalid UTF-8, byte order marks, CR, deleted or repeated spans), plus raw binary. The big
inputs (a 10 MB single line, a gigantic comment, thousands of tags, deep variations, a
100 MB line with its memory measured) are explicit tests at the end.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO, dump_db
from tests.test_import import pgn
from tracker.app.importing import ImportOptions, SourceReport, import_sources
from tracker.errors import TrackerError
from tracker.files.sources import Source
from tracker.model import RawGame
from tracker.pgn import LineCount, read_games, read_games_slow
from tracker.store import open_store
from tracker.store.maintenance import check_database

pytestmark = pytest.mark.slow  # fuzzing: Hypothesis, thousands of examples

# --- the reader: the fast path equals the line machine ---------------------------------

SEED = (
    b'[Event "Club ch"]\r\n[White "A\\"x"]\n\n[Black "B"]\n[Result "1-0"]\n\n\n'
    b"1. e4 {c [%clk 0:01:00]\n\n} e5 (1... c5 (1... d5)) 2. Nf3 $1 ; x {\n"
    b'% escape\n2... Nc6 1-0\n[Event "E"]\n\n1.d4 d5 *\n\n\xef\xbb\xbf[Site "\xc9l"]\n'
)
PIECES = [
    b"\n",
    b"\r\n",
    b"\n\n",
    b" ",
    b"[",
    b"]",
    b'"',
    b"{",
    b"}",
    b"(",
    b")",
    b";",
    b"%",
    b"$1",
    b"1.",
    b"...",
    b"e4",
    b"Nf3+",
    b"1-0",
    b"*",
    b"\x00",
    b"\xef\xbb\xbf",
    b"\xff",
    b'[Event "x"]',
    b'[White "y"]\n',
    b"\\",
    b" \t\n",
]


def both(data: bytes) -> list[RawGame]:
    fast = list(read_games(io.BytesIO(data), "f.pgn"))
    slow = list(read_games_slow(io.BytesIO(data), "f.pgn"))
    assert fast == slow
    for g in fast:
        assert isinstance(g.line, int) and g.line >= 1
        assert all(isinstance(p, str) for p in g.problems)
        assert g.has_moves == bool(g.moves_digest)
    return fast


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes(data: bytes) -> None:
    both(data)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=80))
def test_pgn_like_pieces(pieces: list[bytes]) -> None:
    both(b"".join(pieces))


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(SEED)), st.integers(0, 8), st.sampled_from(PIECES)),
        max_size=12,
    )
)
def test_mutated_pgn_fast_path_equals_line_machine(edits: list[tuple[int, int, bytes]]) -> None:
    data = SEED * 3
    for at, cut, piece in edits:
        data = data[:at] + piece + data[at + cut :]
    both(data)


# --- the importer ----------------------------------------------------------------------

FUZZ = settings(
    max_examples=int(os.environ.get("TRACKER_FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
NAME = "fuzz.pgn"
_PROBLEM = re.compile(rf"^{re.escape(NAME)}:(\d+): \S")


# --- a database that already holds something -------------------------------------------

_BASE: dict[str, bytes] = {}
# Scratch databases on a memory filesystem when there is one (no fsync cost per example).
_SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def _base_db() -> bytes:
    if not _BASE:
        folder = Path(tempfile.mkdtemp(prefix="fuzzbase", dir=_SCRATCH))
        try:
            db = folder / "b.db"
            with open_store(str(db)) as store:
                data = (pgn(Round="1") + pgn(Round="2", White="Dvořák, Ivo 🐴")).encode()
                (rep,) = import_sources(store, [_source(data, "before.pgn")]).sources
                assert rep.added == 2
            _BASE["db"] = db.read_bytes()
        finally:
            shutil.rmtree(folder)
    return _BASE["db"]


def _source(data: bytes, name: str = NAME) -> Source:
    return Source(name=name, opener=lambda: io.BytesIO(data), size=len(data))


def _count(db: Path, table: str) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        con.close()


@dataclass
class Outcome:
    rep: SourceReport
    raised: TrackerError | None


@contextmanager
def _fresh_db() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="fuzz", dir=_SCRATCH))
    try:
        db = folder / "f.db"
        db.write_bytes(_base_db())
        yield db
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def import_and_check(data: bytes, *, strict: bool = False) -> Outcome:
    """Import `data` as one file into a database holding two games; check every property."""
    with _fresh_db() as db:
        before = dump_db(db)
        games_before = _count(db, "games")
        imports_before = _count(db, "imports")
        raised: TrackerError | None = None
        with open_store(str(db)) as store:
            try:
                report = import_sources(store, [_source(data)], ImportOptions(strict=strict))
                (rep,) = report.sources
            except TrackerError as exc:  # --strict re-raises the failure of its source
                raised = exc
                rep = SourceReport(name=NAME, error=str(exc))
            problems = check_database(store)
        assert problems == [], problems
        if rep.error is not None:
            assert "\n" not in rep.error and rep.error.strip(), rep.error
            assert "Traceback" not in rep.error
            assert dump_db(db) == before, "a failed file changed the database"
            return Outcome(rep, raised)
        assert rep.games_read == rep.added + rep.duplicates + rep.skipped, rep
        assert _count(db, "games") == games_before + rep.added
        assert _count(db, "imports") == imports_before + (0 if rep.already else 1)
        counted = LineCount()  # lines as the reader numbers them (a CR alone ends one too)
        if data:
            counted.feed(data)
        lines = counted.lines + 1
        assert rep.problem_count >= len(rep.problems)
        for p in rep.problems:
            m = _PROBLEM.match(p)
            assert m, f"problem not located as file:line: {p!r}"
            assert 1 <= int(m.group(1)) <= lines, (p, lines)
            assert "\n" not in p
        if rep.skipped:
            assert rep.problem_count >= rep.skipped
        con = sqlite3.connect(db)
        try:
            located = con.execute(
                "SELECT min(source_line), max(source_line) FROM games g JOIN imports i "
                "ON i.id = g.import_id WHERE i.source = ?",
                (NAME,),
            ).fetchone()
        finally:
            con.close()
        if rep.added:
            assert 1 <= located[0] <= located[1] <= lines, located
        if strict:
            assert rep.problem_count == 0
        return Outcome(rep, raised)


# --- strategies -------------------------------------------------------------------------

# Tag text: any printable character, quotes and backslashes included (escaped when the
# game is meant to be well formed), emoji, letters of every script.
tag_text = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=24)
names = st.one_of(
    tag_text,
    st.sampled_from(
        [
            "Carlsen, Magnus",
            "Novák, Jan",
            "O'Brien, T",
            'Smith "Jr", A',
            "Robert'); DROP TABLE games;--",
            "🐴 Horse",
            "?",
            "",
            "-",
            "\\",
        ]
    ),
)
elos = st.one_of(
    st.integers(-5, 4100).map(str),
    st.sampled_from(["", "-", "0", "?", "abc", "2690:2222", " 2100 "]),
)
dates = st.one_of(
    st.sampled_from(
        [
            "2025.03.01",
            "2024.??.??",
            "????.??.??",
            "2025.02.30",
            "2025-03-01",
            "0000.00.00",
            "9999.12.31",
            "",
            "today",
        ]
    ),
    st.dates().map(lambda d: d.strftime("%Y.%m.%d")),
)
results = st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "1-1", "", "½-½", "0.5-0.5"])
moves = st.sampled_from(
    [
        "1. e4 e5 2. Nf3 Nc6",
        "1. d4 {a comment} d5 (1... Nf6 2. c4) 2. c4 $1",
        "",
        "1. e4 (1. d4 (1. c4))",
        "1. e4 e5 2. Qh5?? Nc6 3. Bc4 Nf6 4. Qxf7#",
        "1. e4 {[%clk 0:05:00]} e5 {[%clk 0:04:59]}",
        "1. e4 ; rest of line comment\n1... e5",
        "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8",
        "1. Nf3 " * 40,
    ]
)


def _escape(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"')


@st.composite
def games(draw: st.DrawFn) -> str:
    tags = {
        "Event": draw(tag_text),
        "Site": draw(tag_text),
        "Date": draw(dates),
        "Round": draw(tag_text),
        "White": draw(names),
        "Black": draw(names),
        "Result": draw(results),
    }
    extra = draw(
        st.dictionaries(
            st.sampled_from(
                [
                    "WhiteElo",
                    "BlackElo",
                    "TimeControl",
                    "Termination",
                    "EventDate",
                    "WhiteFideId",
                    "BlackFideId",
                    "WhiteTitle",
                    "Variant",
                    "FEN",
                    "SetUp",
                    "WhiteRatingDiff",
                ]
            ),
            st.one_of(elos, tag_text, dates),
            max_size=5,
        )
    )
    tags.update(extra)
    head = "".join(f'[{k} "{_escape(v)}"]\n' for k, v in tags.items())
    return f"{head}\n{draw(moves)} {tags['Result']}\n\n"


pgn_files = st.lists(games(), min_size=1, max_size=6).map(lambda gs: "".join(gs).encode())

JUNK = [
    b"{",
    b"}",
    b"(",
    b")",
    b'"',
    b"\\",
    b"\x00",
    b"\xff\xfe",
    b"\xc3",
    b"\xe2\x82",
    b"[",
    b"]",
    b"\r",
    b"\n",
    b"\n\n",
    b"%",
    b";",
    b"\xef\xbb\xbf",
    b'[White "x\\"]\n',
    b"1-0",
    b"*",
    b'[Event "',
    b'"]',
    b"\t",
    b"\x1a",
    b'\\\\"',
    b"\n[\n",
    b"1. e4 {unclosed",
    b"(1. d4 (((",
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(pgn_files))
    for _ in range(draw(st.integers(1, 5))):
        pos = draw(st.integers(0, len(data)))
        kind = draw(
            st.sampled_from(["truncate", "insert", "insert", "delete", "repeat", "binary", "crlf"])
        )
        if kind == "truncate":
            del data[pos:]
        elif kind == "insert":
            data[pos:pos] = draw(st.sampled_from(JUNK)) * draw(st.integers(1, 3))
        elif kind == "delete":
            del data[pos : pos + draw(st.integers(1, 40))]
        elif kind == "repeat":
            data[pos:pos] = data[pos : pos + draw(st.integers(1, 200))]
        elif kind == "binary":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=16))
        else:
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
    return bytes(data)


# --- the fuzz tests ---------------------------------------------------------------------

_TAG_WARNING = re.compile(  # (the value shown as Python quotes it: '...', or "..." for a ')
    r"Elo (['\"]).*\1 is not a rating|(Event)?Date (['\"]).*\3 is (not a calendar date|after "
    r"today|after 2999-12-31)"
)


@FUZZ
@given(data=pgn_files)
def test_well_formed_games_are_all_stored_or_reported(data: bytes) -> None:
    out = import_and_check(data)
    rep = out.rep
    assert rep.error is None, rep.error
    assert rep.games_read == data.count(b"\n[Event ") + data.startswith(b"[Event ")
    # Here nothing is malformed: every problem is a skipped game (no name, unknown result)
    # or a stored game's tag that gave no value (an Elo that is no rating, a date outside the
    # calendar, after today or after the last date rated: tests/test_import_warnings.py).
    assert len(rep.problems) == rep.problem_count  # all kept: the files are small
    warned = [p for p in rep.problems if _TAG_WARNING.search(p)]
    assert rep.problem_count == rep.skipped + len(warned), rep.problems


@FUZZ
@given(data=mutated())
def test_mutated_pgn(data: bytes) -> None:
    import_and_check(data)


@FUZZ
@given(data=mutated())
def test_mutated_pgn_strict(data: bytes) -> None:
    out = import_and_check(data, strict=True)
    if out.rep.error is not None and out.raised is not None:
        assert out.raised.exit_code in (1, 2)


@FUZZ
@given(data=st.one_of(st.binary(max_size=3000), st.text(max_size=2000).map(str.encode)))
def test_random_bytes_and_text(data: bytes) -> None:
    import_and_check(data)


def test_a_player_against_themselves_is_not_stored() -> None:
    data = pgn(White="Carlsen, Magnus", Black="Carlsen, Magnus").encode()
    with _fresh_db() as db, open_store(str(db)) as store:
        (rep,) = import_sources(store, [_source(data)]).sources
        found = {p.check for p in check_database(store)}
    assert "game-self" not in found
    assert rep.skipped == 1 and rep.problems and rep.problems[0].startswith(f"{NAME}:1: ")


def test_empty_event_date() -> None:
    # Regression: [EventDate ""] reached the store as '' and crashed the import (exit 3).
    # (Round 3: the base database already holds rounds 1 and 2 of this game.)
    rep = import_and_check(pgn(EventDate="", Round="3").encode()).rep
    assert (rep.error, rep.added) == (None, 1)


# --- explicit hostile shapes ------------------------------------------------------------

HEAD = pgn(moves="").split("\n\n")[0] + "\n\n"


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\n\n\n",
        b" \t \n",
        b"\x00" * 1000,
        b"\xef\xbb\xbf",
        b"\xff" * 100,
        bytes(range(256)) * 20,
        b"PK\x03\x04" + b"\x00" * 100,
        b"\x1f\x8b\x08\x00junk",
    ],
    ids=[
        "empty",
        "blank-lines",
        "whitespace",
        "nuls",
        "bom-only",
        "ff",
        "all-bytes",
        "zip-header",
        "gzip-header",
    ],
)
def test_files_without_games_fail_cleanly(data: bytes) -> None:
    out = import_and_check(data)
    assert out.rep.error is not None
    assert out.rep.error.startswith(f"{NAME}: no game found")


def test_ten_megabyte_single_line() -> None:
    data = (HEAD + "1. e4 e5 " * 1_150_000 + "1-0\n").encode()
    assert len(data) > 10_000_000 and data.count(b"\n") == 9
    rep = import_and_check(data).rep
    assert (rep.games_read, rep.added) == (1, 1)
    assert any("line 9" in p or f"{NAME}:9:" in p for p in rep.problems), rep.problems


def test_gigantic_comment() -> None:
    data = (HEAD + "1. e4 {" + "a" * 12_000_000 + "} e5 1-0\n\n" + pgn(Round="9")).encode()
    rep = import_and_check(data).rep
    assert (rep.games_read, rep.added) == (2, 2)


def test_gigantic_comment_never_closed() -> None:
    data = (HEAD + "1. e4 {" + "a\n" * 200_000 + "\n" + pgn(Round="9")).encode()
    rep = import_and_check(data).rep
    # (the first game has no result after its moves: not stored, issue 35 item 10)
    assert (rep.games_read, rep.added, rep.skipped) == (2, 1, 1)
    assert any("never closed" in p for p in rep.problems), rep.problems
    assert any("the moves stop before the result" in p for p in rep.problems), rep.problems


def test_thousands_of_tags() -> None:
    many = "".join(f'[Tag{i} "value {i}"]\n' for i in range(5_000))
    roster = HEAD.rstrip("\n") + "\n"
    data = (roster + many + "\n1. e4 e5 1-0\n\n").encode()
    rep = import_and_check(data).rep
    assert (rep.games_read, rep.added) == (1, 1)
    assert any("tags beyond the first" in p for p in rep.problems), rep.problems


def test_thousands_of_games_with_broken_tags() -> None:
    data = "".join(pgn(Round=str(i), White=f'Player "{i}\\') for i in range(3_000)).encode()
    rep = import_and_check(data).rep
    assert rep.games_read == 3_000


def test_moderately_deep_variations() -> None:
    depth = 500
    data = (HEAD + "1. e4 " + "(1. d4 " * depth + ")" * depth + " e5 1-0\n").encode()
    rep = import_and_check(data).rep
    assert (rep.games_read, rep.added) == (1, 1)


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def alarm(*_: Any) -> None:
        raise TimeoutError(f"took longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_deep_variations_read_in_bounded_time() -> None:
    # Regression: tracker/pgn/scan.py:_fast_canonical was quadratic in the nesting depth.
    depth = 20_000
    data = (HEAD + "1. e4 " + "(1. d4 " * depth + ")" * depth + " e5 1-0\n").encode()
    with _time_limit(2.0):
        (game,) = list(read_games(io.BytesIO(data), NAME))
    assert game.has_moves


def _rss_of_import(path: Path, db: Path) -> tuple[int, str]:
    """Run `tracker import` in a fresh process; its peak RSS (KiB, with its worker).

    The process's own peak is VmHWM (reset by exec, unlike ru_maxrss, which would still
    hold the size of the forked pytest); its worker's is RUSAGE_CHILDREN's ru_maxrss.
    """
    code = (
        "import atexit, resource, sys\n"
        "def peak():\n"
        "    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "    try:\n"
        "        with open('/proc/self/status') as fh:\n"
        "            own = next(int(x.split()[1]) for x in fh if x.startswith('VmHWM:'))\n"
        "    except (OSError, StopIteration):\n"
        "        pass\n"
        "    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "    print('PEAK', max(own, kids), file=sys.stderr)\n"
        "atexit.register(peak)\n"
        f"sys.argv = ['tracker', 'import', {str(path)!r}, '--db', {str(db)!r}, '--quiet']\n"
        "from tracker.cli import main\n"
        "main()\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    peak = int(done.stderr.rsplit("PEAK ", 1)[1].split()[0])
    return peak, done.stdout


@pytest.mark.slow
def test_memory_stays_bounded_on_a_100_megabyte_line(tmp_path: Path) -> None:
    big = tmp_path / "line.pgn"
    small = tmp_path / "small.pgn"
    with big.open("wb") as fh:
        fh.write(HEAD.encode() + b"1. e4 {")
        chunk = b"x" * (1 << 20)
        for _ in range(100):
            fh.write(chunk)
        fh.write(b"} e5 1-0\n")
    small.write_bytes(pgn(Round="1").encode())
    start = time.monotonic()
    peak_big, out = _rss_of_import(big, tmp_path / "a.db")
    elapsed = time.monotonic() - start
    peak_small, _ = _rss_of_import(small, tmp_path / "b.db")
    assert "1 game read, 1 added" in out
    # The 100 MB line costs less than 32 MiB over a one-game import: it is never held whole
    # (measured: 69 MiB against 66 MiB).
    assert peak_big - peak_small < 32 * 1024, (peak_big, peak_small)
    print(
        f"100 MB line: peak RSS {peak_big // 1024} MiB (one-game file: "
        f"{peak_small // 1024} MiB), {elapsed:.1f} s"
    )
