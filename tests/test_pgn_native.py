"""The C extension reads what the pure Python code reads (issue 18).

`tracker.pgn._speedups` does the per-game work of the reader where it was built; the pure
Python code (`read_games_pure`, and each piece the extension replaces) is the definition.
Both run here over every file of ../shared/corpus (as it is, and with its line ends made
CRLF or CR alone) and over the fuzz inputs of tests/test_pgn_fuzz.py, and must give equal
RawGames (tags, moves digest, has_moves, line, problems), equal chunks and equal line
counts; each piece is also compared with the Python it replaces, on inputs made for it.
Everything skips, in one line, where the extension is not built (or TRACKER_PURE_PYTHON=1).

Under AddressSanitizer, in a copy of the tree (so its build is the one loaded):
`CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" python setup.py
build_ext --inplace`, then `LD_PRELOAD="$(gcc -print-file-name=libasan.so)
$(gcc -print-file-name=libstdc++.so)" ASAN_OPTIONS=detect_leaks=0:log_path=/tmp/asan
PYTHONMALLOC=malloc PYTHONPATH=. pytest -o addopts= tests/test_pgn_native.py` (malloc, so
each bytes object is its own block; libstdc++ for matplotlib's C++; a report goes to
/tmp/asan.PID: on stderr, pytest's capture would swallow it).
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import io
import itertools
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO, corpus_files, decompressed, need_shared, subprocess_env
from tests.test_pgn_fuzz import PIECES, SEED, mutated, pgn_files
from tracker.model import RawGame
from tracker.pgn import (
    LineCount,
    moves,
    native,
    read_games,
    read_games_pure,
    read_games_slow,
    scan,
    stream,
)
from tracker.pgn.machine import MAX_TAGS, MAX_VALUE
from tracker.pgn.native import SPEEDUPS
from tracker.pgn.stream import MAX_LINE, chunks, drop_boms

if SPEEDUPS is None:
    pytest.skip(
        "the C extension tracker.pgn._speedups is not built, is older than "
        "tracker/pgn/_speedups.c (rebuild: python setup.py build_ext --inplace) or "
        "TRACKER_PURE_PYTHON=1: only the pure Python reader runs",
        allow_module_level=True,
    )
C = SPEEDUPS


def _pieces(data: bytes, size: int) -> list[bytes]:
    return [data[at : at + size] for at in range(0, len(data), size)] or [b""]


def both(data: bytes, source: str = "t.pgn") -> list[RawGame]:
    """The games of `data` by both paths (equal), with equal chunks and line counts."""
    native = list(read_games(io.BytesIO(data), source))
    pure = list(read_games_pure(io.BytesIO(data), source))
    assert native == pure
    assert [vars(g) for g in native] == [vars(g) for g in pure]  # the fields, in order
    assert list(chunks(io.BytesIO(data), source, 1, C)) == list(
        chunks(io.BytesIO(data), source, 1, None)
    )
    for size in (1, 7, 4099, 1 << 20):
        if size < 64 and len(data) > 4000:
            continue
        counts = []
        for speedups in (C, None):
            count = LineCount(speedups)
            for piece in _pieces(data, size):
                count.feed(piece)
            counts.append(count.lines)
        assert counts[0] == counts[1], size
    return native


# --- the corpus ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_both_paths_read_the_corpus_alike(path: Path) -> None:
    need_shared()
    data = decompressed(path)
    games = both(data, path.name)
    assert sum(1 for g in games if g.tags) > 0
    # the same bytes with other line ends: CRLF, CR alone, CR CR LF; on the file's first
    # 256 KiB of whole games (every file whole, three times over, was 15 s of the suite's
    # time for what the first games already show: tests/test_pgn_read.py has the line ends)
    lf = data.replace(b"\r\n", b"\n")
    cut = lf.rfind(b"\n\n[", 0, PART) if len(lf) > PART else -1
    part = lf if cut < 0 else lf[: cut + 2]
    want = [
        (g.tags, g.moves_digest, g.line) for g in (games if part is lf else both(part, path.name))
    ]
    for other in (
        part.replace(b"\n", b"\r\n"),
        part.replace(b"\n", b"\r"),
        part.replace(b"\n", b"\r\r\n"),
    ):
        assert [(g.tags, g.moves_digest, g.line) for g in both(other, path.name)] == want


PART = 1 << 18  # the bytes of a corpus file read again with other line ends


def test_the_corpus_is_there_to_compare() -> None:
    need_shared()
    assert len(corpus_files()) >= 40


# --- the fuzz inputs of tests/test_pgn_fuzz.py -----------------------------------------

FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
@FUZZ
@given(st.binary(max_size=3000))
def test_random_bytes(data: bytes) -> None:
    both(data)


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
@FUZZ
@given(st.lists(st.sampled_from(PIECES), max_size=120))
def test_pgn_like_pieces(pieces: list[bytes]) -> None:
    both(b"".join(pieces))


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
@FUZZ
@given(
    st.lists(
        st.tuples(st.integers(0, len(SEED)), st.integers(0, 8), st.sampled_from(PIECES)),
        max_size=12,
    )
)
def test_mutated_seed(edits: list[tuple[int, int, bytes]]) -> None:
    data = SEED * 3
    for at, cut, piece in edits:
        data = data[:at] + piece + data[at + cut :]
    both(data)


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
@FUZZ
@given(pgn_files)
def test_generated_games(data: bytes) -> None:
    both(data)


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
@FUZZ
@given(mutated())
def test_mutated_games(data: bytes) -> None:
    both(data)


# --- each piece against the Python it replaces -------------------------------------------

MOVE_PIECES = [
    b"1.",
    b"12.",
    b"12...",
    b"..",
    b"...",
    b".",
    b"e4",
    b"Nf3+",
    b"exd8=Q#",
    b"O-O",
    b"$1",
    b"$",
    b"$$12",
    b"$12.",
    b" ",
    b"  ",
    b"\n",
    b"\t",
    b"\x0b",
    b"\x0c",
    b"\r",
    b"{",
    b"}",
    b"{c}",
    b"{[%clk 0:01:00]}",
    b"(",
    b")",
    b"(1... c5)",
    b";",
    b"%",
    b"\n%",
    b"[",
    b"]",
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    b"*",
    b"!",
    b"?",
    b"!?",
    b"#",
    b"0",
    b"1",
    b"2",
    b"9",
    "é".encode(),
    b"\xff",
    b"\x00",
]
moves_text = st.lists(st.sampled_from(MOVE_PIECES), max_size=60).map(b"".join)


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
@settings(max_examples=1000, deadline=None)
@given(moves_text)
def test_movetext(m: bytes) -> None:
    assert C.canonical(m) == moves.canonical(m)
    assert C.fast_canonical(m) == scan._fast_canonical(m)
    canon = moves.canonical(m)
    assert C.digest(canon) == moves.digest_of(canon)


NAMES = ["Event", "Site", "White", "WhiteElo", "X_1", "9a", "a", "_x", "a-b", "Event"]
VALUE_PIECES = [
    "x",
    "Carlsen, Magnus",
    "é",
    "Žižka",
    "\\",
    '\\"',
    '"',
    "\\\\",
    "]",
    '"]',
    "\r",
    "\t",
    " ",
    "\x00",
    "€",
    "😀",
]


@st.composite
def tag_line(draw: st.DrawFn) -> bytes:
    name = draw(st.sampled_from(NAMES)).encode()
    value = "".join(draw(st.lists(st.sampled_from(VALUE_PIECES), max_size=8)))
    raw = draw(
        st.sampled_from(
            [
                value.encode(),
                value.encode("cp1252", "replace"),
                value.encode() + b"\xff",
                b"\xc3" + value.encode(),
            ]
        )
    )
    before = draw(st.sampled_from([b' "', b' "', b' "', b'  "', b'"', b'\t"']))
    after = draw(st.sampled_from([b'"]', b'"]', b'"]', b'"] ', b"]", b'"]\r']))
    return b"[" + name + before + raw + after


headers = st.lists(tag_line(), min_size=1, max_size=12).map(b"\n".join)


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
@settings(max_examples=1000, deadline=None)
@given(headers)
def test_header_paragraphs(h: bytes) -> None:
    assert C.fast_tags(h) == scan._fast_tags(h)


@pytest.mark.parametrize(
    "h",
    [
        b'[White "' + b"x" * MAX_VALUE + b'"]',
        b'[White "' + b"x" * (MAX_VALUE + 1) + b'"]',
        b'[White "' + "é".encode() * MAX_VALUE + b'"]',  # 2 * MAX_VALUE bytes, MAX_VALUE characters
        b'[White "' + "é".encode() * (MAX_VALUE + 1) + b'"]',
        b'[White "' + b"\\\\" * MAX_VALUE + b'"]',  # unescaped: MAX_VALUE characters
        b'[White "' + b"\xe9" * (MAX_VALUE + 1) + b'"]',  # not UTF-8: read by the Python code
        b"\n".join(b'[T%d "v"]' % i for i in range(MAX_TAGS)),
        b"\n".join(b'[T%d "v"]' % i for i in range(MAX_TAGS + 1)),
        b'[A ""]',
        b'[A "]',
        b'[A "x"]"]',
        b"[",
        b"",
        b'[A "x"]\n',
        b'[A "x"]\n[A "y"]',
    ],
    ids=lambda h: repr(h[:24]),
)
def test_header_edges(h: bytes) -> None:
    assert C.fast_tags(h) == scan._fast_tags(h)


@pytest.mark.parametrize("size", [0, 1, 2, 64, 127, 128, 129, 255, 256, 257, 1000, 1 << 16])
def test_blake2b_against_hashlib(size: int) -> None:
    data = bytes((i * 7 + size) % 256 for i in range(size))
    assert C.blake2b_hex(data) == hashlib.blake2b(data, digest_size=16).hexdigest()


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=1000))
def test_blake2b_of_any_bytes(data: bytes) -> None:
    assert C.blake2b_hex(data) == hashlib.blake2b(data, digest_size=16).hexdigest()


line_pieces = st.lists(
    st.sampled_from(
        [
            b"\n",
            b"\r",
            b"\r\n",
            b"\r\r\n",
            b"\r\r",
            b"a",
            b" ",
            b"\t",
            b"\x0b",
            b"\x0c",
            b"\xef\xbb\xbf",
            b"\xef",
            b'[E "x"]',
            b"\n\n",
            b" \n",
            b"\n \t\n",
        ]
    ),
    max_size=80,
).map(b"".join)


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
@settings(max_examples=1000, deadline=None)
@given(line_pieces, st.lists(st.integers(0, 200), max_size=6), st.integers(0, 3))
def test_line_ends(data: bytes, at: list[int], held: int) -> None:
    lf = data.replace(b"\r\n", b"\n")
    if b"\r" in lf:
        lf = stream._LINE_END.sub(b"\n", lf)
    assert C.to_lf(data) == lf
    assert C.count_lf(data) == data.count(b"\n")
    assert scan._normalize(data, C) == scan._normalize(data, None)
    assert C.normalize(drop_boms(data)) == scan._normalize(data, None)
    counts = []
    for speedups in (C, None):
        count = LineCount(speedups)
        count.feed(b"\r" * held)
        for start, end in itertools.pairwise(
            sorted({min(a, len(data)) for a in at} | {0, len(data)})
        ):
            count.feed(data[start:end])
        counts.append(count.lines)
    assert counts[0] == counts[1]


# --- every special byte at every place of short inputs ----------------------------------

BOUNDARY_BYTES = [
    b"\n",
    b"\r",
    b"\r\n",
    b"\n\n",
    b"\x00",
    b"\xff",
    b"\xef\xbb\xbf",
    b"\xef",
    b"\x80",
    b"\xc3",
    "é".encode(),
    b"\xed\xa0\x80",
    b"[",
    b"]",
    b'"',
    b"\\",
    b"{",
    b"}",
    b"(",
    b")",
    b";",
    b"%",
    b"$",
    b"$1",
    b".",
    b"..",
    b" ",
    b"\t",
    b"\x0b",
    b"1-0",
    b"*",
]


def _pieces_alike(data: bytes) -> None:
    """Each function of the extension on `data` gives what the Python it replaces gives."""
    lf = data.replace(b"\r\n", b"\n")
    if b"\r" in lf:
        lf = stream._LINE_END.sub(b"\n", lf)
    assert C.to_lf(data) == lf
    assert C.count_lf(data) == data.count(b"\n")
    assert C.normalize(drop_boms(data)) == scan._normalize(data, None)
    for held in (0, 1):
        counts = []
        for speedups in (C, None):
            count = LineCount(speedups)
            count.feed(b"\r" * held)
            count.feed(data)
            counts.append(count.lines)
        assert counts[0] == counts[1]
    assert C.canonical(data) == moves.canonical(data)
    assert C.fast_canonical(data) == scan._fast_canonical(data)
    assert C.digest(data) == moves.digest_of(data)
    assert C.fast_tags(data) == scan._fast_tags(data)


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
@pytest.mark.parametrize("special", BOUNDARY_BYTES, ids=repr)
def test_a_special_byte_at_every_place(special: bytes) -> None:
    # The 16-byte steps (SSE2) and the byte-by-byte rest meet at every length here: each
    # special byte at each place of inputs of 0 to 40 bytes, alone, as movetext and as a
    # tag value (a read past the end shows under AddressSanitizer: see the docstring).
    for fill in (b"e4 ", b"a"):
        for length in range(41):
            base = (fill * 41)[:length]
            for at in range(length + 1):
                data = base[:at] + special + base[at:]
                _pieces_alike(data)
                if at % 3 == 0 or length < 18:
                    both(data)
                    both(
                        b'[Event "'
                        + data
                        + b'"]\n[White "A"]\n\n1. e4 *\n\n[Event "F"]\n\n'
                        + data
                        + b" 1-0\n"
                    )


# --- what the extension makes, and the switch -------------------------------------------


def test_games_made_in_c_are_the_dataclass() -> None:
    data = (
        b'[Event "E"]\n[White "A"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
        b'[Event "F"]\n[Result "*"]\n\n1. d4 *\n'
    )
    native = list(read_games(io.BytesIO(data), "t.pgn"))
    assert native == list(read_games_pure(io.BytesIO(data), "t.pgn"))
    assert native == list(read_games_slow(io.BytesIO(data), "t.pgn"))
    g = native[0]
    assert type(g) is RawGame and dataclasses.fields(g) == dataclasses.fields(RawGame)
    assert list(vars(g)) == ["tags", "moves_digest", "has_moves", "line", "problems", "moves_end"]
    assert g.problems == () and g.has_moves is True and g.line == 1 and g.moves_end is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.line = 2  # type: ignore[misc]  # the assignment a frozen dataclass refuses
    assert dataclasses.replace(g, line=3).line == 3
    assert repr(g) == repr(RawGame(dict(g.tags), g.moves_digest, g.has_moves, g.line, ()))


def test_big_inputs() -> None:
    # A line over MAX_LINE bytes, a group over CARRY_CAP (read line by line), many tags.
    long_line = b"1. e4 e5 " * (MAX_LINE // 9 + 10)
    comment = b"1. e4 {" + b"x " * (scan.CARRY_CAP // 2 + 10) + b"} e5 1-0"
    tags = b"\n".join(b'[T%d "v"]' % i for i in range(MAX_TAGS + 5))
    game = b'[Event "E"]\n\n1. d4 d5 *\n\n'
    for data in (
        game + b'[White "A"]\n\n' + long_line + b"\n\n" + game,
        game + b'[White "A"]\n\n' + comment + b"\n\n" + game,
        game + tags + b"\n\n1. c4 *\n\n" + game,
        b"%" + b"x" * (MAX_LINE + 5) + b"\n" + game,
    ):
        assert both(data) == list(read_games_slow(io.BytesIO(data), "t.pgn"))


def _configure(cls: type = RawGame, ends: tuple[Any, ...] = moves.RESULT_ENDS) -> None:
    """`configure` as tracker.pgn.scan calls it, with another RawGame class or results."""
    raw: Any = C  # bad arguments on purpose
    raw.configure(cls, scan._fast_tags, MAX_TAGS, MAX_VALUE, ends, moves.DROP, moves.NUMBERING)


def test_a_configure_that_fails_changes_nothing() -> None:
    # The results were taken one by one, each one's index by its last byte: a bad one
    # after the first left those indexes pointing into the new tuple while the old one
    # stayed in use (past its end where the new one is longer).
    data = b'[Event "E"]\n\n1. e4 e5 *\n\n[Event "F"]\n\n1. d4 1-0\n'
    try:
        with pytest.raises(ValueError):
            _configure(ends=(b"*", b"1-0", b""))
        with pytest.raises(ValueError):
            _configure(ends=(b"x",) * 9 + (1,))
        for m in (b"e4 *", b"e4 1-0", b"e4 0-1", b"e4 1/2-1/2", b"e4 x"):
            assert C.canonical(m) == moves.canonical(m)
        assert both(data) == list(read_games_slow(io.BytesIO(data), "t.pgn"))
    finally:
        _configure()


@pytest.mark.parametrize("cls", [type, int, tuple, bytes])
def test_configure_takes_only_a_class_made_by_object_new(cls: type) -> None:
    # The games are made by object.__new__ and their attributes set one by one: a class
    # whose instances need their own __new__ (a type, an int) came out half made.
    try:
        with pytest.raises(TypeError, match="object.__new__"):
            _configure(cls)
        assert type(both(b'[Event "E"]\n\n1. e4 *\n')[0]) is RawGame
    finally:
        _configure()


LEAK_GAME = (
    '[Event "E"]\n[White "Aé"]\n[B "x\\\\y"]\n\n'
    "1. e4 e5 2. Nf3 {c} Nc6 (2... d6) $1 3... a6 1-0\n\n"
).encode()
LEAK_INPUTS = [
    LEAK_GAME * 20,
    LEAK_GAME.replace(b"\n", b"\r\n") * 5,
    b'[Event "\xff"]\n\n1. e4 *\n\n' * 5,
    b"junk\n\n" + LEAK_GAME * 2 + b"%x\n;c\n" + LEAK_GAME,
    b"\x00" + LEAK_GAME,
    b'[A "x"]\n[A "y"]\n\n1. e4 *\n\n' * 3,
    b'[A "' + b"v" * (MAX_VALUE + 1) + b'"]\n\n1. e4 *\n\n',
    LEAK_GAME * 3 + b'[Event "open',
]


def _every_call() -> None:
    """Each function of the extension over LEAK_INPUTS, and its error paths."""
    for data in LEAK_INPUTS:
        list(read_games(io.BytesIO(data), "t.pgn"))
        C.normalize(data)
        C.to_lf(data)
        C.line_ends(data, 1)
        C.count_lf(data)
        C.fast_tags(data[:200])
        C.fast_canonical(data)
        C.canonical(data)
        C.digest(data)
        C.blake2b_hex(data)
        C.groups(data, 1, True)
        C.groups(data, 1, False)
    raw: Any = C
    not_utf8 = LEAK_GAME * 5 + b'[Event "\xff"]\n\n1. e4 *\n\n' + LEAK_GAME
    for fallback, error in ((lambda h: {}[h], KeyError), (lambda h: 1, TypeError)):
        raw.configure(
            RawGame, fallback, MAX_TAGS, MAX_VALUE, moves.RESULT_ENDS, moves.DROP, moves.NUMBERING
        )
        with pytest.raises(error):
            C.groups(not_utf8, 1, True)
    _configure()
    with pytest.raises(ValueError):
        _configure(ends=(b"x",) * 5 + (1,))
    with pytest.raises(TypeError):
        _configure(int)
    for function in (
        raw.normalize,
        raw.to_lf,
        raw.count_lf,
        raw.fast_tags,
        raw.fast_canonical,
        raw.canonical,
        raw.digest,
        raw.blake2b_hex,
    ):
        with pytest.raises(TypeError):
            function("str")
    with pytest.raises(ValueError):
        C.line_ends(b"", -1)


@pytest.mark.slow  # fuzzing: the C extension against the pure Python, thousands of inputs
def test_nothing_is_kept_across_calls() -> None:
    # A reference or buffer the C code forgets to give back (on any path, errors too)
    # stays allocated with every round. What the C code allocates is traced to the Python
    # line calling it, here or in tracker/pgn/scan.py (also where the tags fallback makes
    # its dict); the pure Python code's own caches (the line machine's, decode's) are not
    # counted. A game object left behind a round would be some 20 KiB of them here.
    callers = [tracemalloc.Filter(True, __file__), tracemalloc.Filter(True, scan.__file__)]
    try:
        for _ in range(5):
            _every_call()
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.take_snapshot().filter_traces(callers)
            for _ in range(20):
                _every_call()
            gc.collect()
            after = tracemalloc.take_snapshot().filter_traces(callers)
        finally:
            tracemalloc.stop()
    finally:
        _configure()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert grown < 20 * 256, grown


def test_line_ends_takes_no_negative_count() -> None:
    with pytest.raises(ValueError):
        C.line_ends(b"a\n", -1)
    assert C.line_ends(b"a\r", 2) == (2, 1)  # the CRs held end two lines, one is held


def test_a_build_older_than_its_source_is_not_used(tmp_path: Path) -> None:
    # `VERSION` only changes with the interface: a module built before _speedups.c was
    # edited (or checked out) may read otherwise with the same VERSION.
    built = tmp_path / "_speedups.so"
    built.write_bytes(b"")
    source = Path(native.__file__).with_name("_speedups.c")
    if not source.exists():
        pytest.skip("no tracker/pgn/_speedups.c beside tracker/pgn/native.py (installed)")
    at = source.stat().st_mtime_ns
    os.utime(built, ns=(at, at))
    assert not native.stale(str(built))
    os.utime(built, ns=(at - 10**9, at - 10**9))
    assert native.stale(str(built))
    assert native.stale(str(tmp_path / "gone.so"))
    assert not native.stale(None)
    assert not native.stale(getattr(C, "__file__", None))  # the module this run uses


def _paths(env: dict[str, str]) -> str:
    code = (
        "from tracker.pgn import native, scan, stream; "
        "print(native.SPEEDUPS is None, scan.NATIVE is None)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def test_tracker_pure_python_turns_the_extension_off() -> None:
    env = subprocess_env()
    env.pop("TRACKER_PURE_PYTHON", None)
    assert _paths(env) == "False False"
    assert _paths({**env, "TRACKER_PURE_PYTHON": "1"}) == "True True"
