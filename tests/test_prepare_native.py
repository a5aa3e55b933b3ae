"""The C extension prepares what the pure Python code prepares (issue 18).

`tracker.importer._prepare` does `Preparer.row`'s per-game work where it was built; the pure
Python `Preparer.row_pure` is the definition. Both run here over every game of every file of
../shared/corpus and over fuzzed tags (missing, empty, odd values, non-ASCII, surrogates)
and the games of the PGN fuzz inputs of tests/test_pgn_fuzz.py, each on its own Preparer,
and must give equal PreparedGames (values and their types) or Skipped reasons, the same
warnings in the same order, and memo dicts of the same content afterwards. Its SHA-256 is
checked against hashlib. Everything skips, in one line, where the extension is not built
(or TRACKER_PURE_PYTHON=1).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import hashlib
import io
import os
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS, corpus_files, decompressed, need_shared
from tests.test_pgn_fuzz import mutated, pgn_files
from tracker.fide.eventnames import NOTHING
from tracker.importer import prepare
from tracker.importer.prepare import NATIVE, Preparer
from tracker.model import RESULTS, PreparedGame, RatingList, Skipped
from tracker.pgn import read_games

if NATIVE is None:
    pytest.skip("the C extension tracker.importer._prepare is not built (or "
                "TRACKER_PURE_PYTHON=1): only the pure Python preparer runs",
                allow_module_level=True)
C = NATIVE
ROOT = Path(__file__).resolve().parents[1]

Game = tuple[dict[str, str], str, bool, int]


def both(games: Iterable[Game], default: RatingList | None = None) -> int:
    """Each game by both preparers: equal results and warnings, game after game, and equal
    memo dicts at the end; the number of games."""
    native, pure = Preparer(default), Preparer(default)
    n = 0
    for tags, digest, has_moves, line in games:
        got = native.row(tags, digest, has_moves, line)
        expected = pure.row_pure(tags, digest, has_moves, line)
        assert type(got) is type(expected), (tags, got, expected)
        assert got == expected, tags
        if isinstance(expected, tuple):
            assert [type(v) for v in got] == [type(v) for v in expected], tags
        assert native.warnings == pure.warnings, tags
        native.warnings.clear()
        pure.warnings.clear()
        n += 1
    assert vars(native).keys() == vars(pure).keys()
    for name, memo in vars(pure).items():
        assert vars(native)[name] == memo, name
    return n


def _games(data: bytes) -> list[Game]:
    return [(g.tags, g.moves_digest, g.has_moves, g.line)
            for g in read_games(io.BytesIO(data), "t.pgn") if g.tags]


def test_row_is_the_extension() -> None:
    p = Preparer()
    assert Preparer.row is C.row
    tags = {"White": "A", "Black": "B", "Result": "1-0"}
    assert p.row(tags, "d", True, 1) == Preparer.row(p, tags, "d", True, 1) == p.row_pure(
        tags, "d", True, 1)
    # a call not of the import's form goes to the Python code (the same answer or error)
    assert p.row(tags, moves_digest="d", has_moves=True, line=1) == p.row_pure(tags, "d", True, 1)
    with pytest.raises(TypeError):
        p.row(tags, "d", True)  # type: ignore[call-arg]


class _Name(str):
    """A tag name of a str subclass (the reader makes plain ones): found as the dict finds it."""


def test_odd_tag_keys() -> None:
    base = {"White": "A", "Black": "B", "Result": "1-0", "Event": "E", "WhiteElo": "2000"}
    games: list[Game] = [
        ({**base, "Wéite": "x", "Événement": "y", "": "z"}, "d", True, 1),
        ({_Name("White"): "C", "Black": "D", "Result": "0-1", "Round": " 2 "}, "d", True, 2),
        ({**base, _Name("TimeControl"): "600+5", _Name("Ré"): "r"}, "d", False, 3),
        ({**base, 7: "seven", None: "none"}, "", True, 4),  # type: ignore[dict-item]
    ]
    assert both(games) == 4
    assert both(games * 3) == 12


def test_dates_past_the_last_one() -> None:
    """Issue 30: a Date or EventDate after 2999-12-31 is stored without it, on both paths
    (with the same warning), whatever the tags beside it."""
    base = {"White": "A", "Black": "B", "Result": "1-0", "Event": "E", "WhiteElo": "2000",
            "BlackElo": "1900", "TimeControl": "5400+30"}
    dates = ["9999.12.31", "9999.11.30", "3000.01.01", "2999.12.31", "9999-12-31",
             "9999/12/31", " 9999.12.31 ", "99999.12.31", "9999.13.01", "2025.10.04"]
    games: list[Game] = [({**base, "Date": d, "Round": str(i)}, "d", True, i)
                         for i, d in enumerate(dates)]
    games += [({**base, "Date": "2025.10.04", "EventDate": d, "Round": str(i)}, "d", True, i)
              for i, d in enumerate(dates)]
    assert both(games) == 2 * len(dates)
    assert both(games * 2) == 4 * len(dates)


# --- SHA-256 --------------------------------------------------------------------------------


@pytest.mark.parametrize("portable", [False, True])
def test_sha256_is_hashlibs(portable: bool) -> None:
    # every length around the block (64 bytes) and padding (56) boundaries, and longer
    for n in [*range(0, 301), 1000, 4095, 4096, 65537]:
        data = bytes((i * 7 + n) % 256 for i in range(n))
        assert C.sha256(data, portable) == hashlib.sha256(data).digest(), n
    rng = random.Random(18)
    for n in [rng.randrange(10**5, 3 * 10**6) for _ in range(4)]:
        data = rng.randbytes(n)
        assert C.sha256(data, portable) == hashlib.sha256(data).digest(), n


def identities_at_every_length() -> int:
    """Games whose identity hashes 5 bytes and more up to 300 (every length modulo 64, the
    last block with and without room for the length) give the pure path's (hashlib's);
    the number of games."""
    games = [({**BASE, "White": "W" + "x" * (n % 40), "Round": "r" * (n // 40),
               "Event": "é" * (n % 3)}, "d" * (n % 7), True, n) for n in range(300)]
    games.append(({**BASE, "Event": "\ud800" * 5000}, "", True, 300))
    return both(games)


def test_identity_at_every_length() -> None:
    assert identities_at_every_length() == 301


def test_identity_without_the_sha_instructions() -> None:
    # TRACKER_NO_SHA_NI=1: the portable code, as on a CPU without SHA instructions (where
    # this one has them, the test above ran them)
    code = ("import tests.test_prepare_native as t; "
            "assert t.C.SHA_NI == 0; print(t.identities_at_every_length())")
    env = {**os.environ, "TRACKER_NO_SHA_NI": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["301"]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_sha256_of_random_bytes(data: bytes) -> None:
    assert C.sha256(data, False) == C.sha256(data, True) == hashlib.sha256(data).digest()


# --- the corpus -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_both_prepare_the_corpus_alike(path: Path) -> None:
    need_shared()
    games = _games(decompressed(path))
    assert both(games) == len(games) > 0
    assert both(games[:300], RatingList.BLITZ) > 0


def test_the_corpus_is_there_to_compare() -> None:
    need_shared()
    assert len(corpus_files()) >= 40


def test_memo_dicts_emptied_midway(monkeypatch: pytest.MonkeyPatch) -> None:
    # memo dicts of 3 entries: emptied by the Python code in the middle of a game's row,
    # while the C code holds values it took from them
    need_shared()
    monkeypatch.setattr(prepare, "_CACHE_LIMIT", 3)
    for name in ("twic1427.pgn.xz", "fics-standard-2000-2199-part01.pgn.xz",
                 "python-chess-antichess-programfox.pgn"):
        games = _games(decompressed(CORPUS / name))[:2000]
        assert both(games) == len(games)


# --- fuzzed tags ------------------------------------------------------------------------------

NAMES = ["White", "Black", "Result", "WhiteFideId", "BlackFideId", "Event", "Site", "Date",
         "EventDate", "Round", "WhiteElo", "BlackElo", "TimeControl", "WhiteRatingDiff",
         "WhiteRD", "BlackRatingDiff", "BlackRD", "Variant", "FEN", "SetUp", "Termination",
         "WhiteTitle", "BlackTitle", "ECO", "Opening"]
ODD = ["", " ", "?", "-", "0", "0000", "1-0", "0-1", "1/2-1/2", "*", " 1-0 ", "2-0",
       "2450", " 2450", "2450 ", "02450", "9999", "3500", "3501", "-1", "1e3", "２４５０",
       "١٢٣", "12345678", "123456789012345678", "1234567890123456789", "4611686018427387904",
       "Carlsen, Magnus", "carlsen magnus", "Žižka, Jan", "Ž", "\u00a0A\u00a0", " A ", "a.",
       "...", "2024.03.15", "2024.02.30", "2099.01.01", "2024.??.??", "2024-03-15", "1999",
       "90+30", "40/5400:1800+30", "600+5", "180+2", "60", "-", "?", "5400", "1+0",
       "lichess.org", "https://lichess.org/abc", "Chess.com INT", "INT", "Internet",
       "Online Open", "Rapid", "Blitz TB", "Armageddon", "1.1", "Tie-break 2", "blindfold",
       "chess960", "Standard", " standard ", prepare.START_FEN, f" {prepare.START_FEN}",
       "8/8/8/8/8/8/8/K6k w - - 0 1", "1", "Time forfeit", "normal", "GM", " IM ", "FIDEMASTER",
       "\ud800", "a\udcff", "😀", "\x00", "\t", "x\u2028"]
value = st.one_of(st.sampled_from(ODD), st.text(max_size=12),
                  st.text(st.characters(categories=["Cs", "Zs", "Nd", "Lu", "Po"]), max_size=6))


@st.composite
def tag_dicts(draw: st.DrawFn) -> dict[str, str]:
    names = draw(st.lists(st.sampled_from(NAMES), max_size=16, unique=True))
    return {name: draw(value) for name in names}


game = st.tuples(tag_dicts(), st.sampled_from(["", "0123abcd" * 4, "é\ud800"]), st.booleans(),
                 st.integers(1, 10**6))

FUZZ = settings(max_examples=400, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(st.lists(game, min_size=1, max_size=30), st.sampled_from([None, *RatingList]))
def test_fuzzed_tags(games: list[Game], default: RatingList | None) -> None:
    both(games, default)
    both(games + games, default)  # the memo dicts warm


@FUZZ
@given(st.lists(game, min_size=1, max_size=8))
def test_the_same_tags_again(games: list[Game]) -> None:
    # games sharing tag values (the memo dicts' hits)
    mixed: list[Game] = []
    for i, (tags, digest, has_moves, line) in enumerate(games * 3):
        other = games[(i * 5) % len(games)][0]
        mixed.append(({**tags, **{k: v for k, v in other.items() if i % 2}}, digest,
                      has_moves, line))
    both(mixed)


# --- the PGN fuzz inputs of tests/test_pgn_fuzz.py --------------------------------------------


@FUZZ
@given(pgn_files)
def test_generated_games(data: bytes) -> None:
    both(_games(data))


@FUZZ
@given(mutated())
def test_mutated_games(data: bytes) -> None:
    both(_games(data))


# --- values of other types, hostile callers (the C code's references and error paths) ------


class _Str(str):
    """A tag value of a str subclass (the reader makes plain ones)."""


class _Formatted(int):
    """A line that an f-string formats otherwise than str() does."""

    def __format__(self, spec: str) -> str:
        return f"line {int(self)}"


class _Kept(str):
    """A str subclass whose strip() gives itself (a round or date that stays one)."""

    def strip(self, chars: str | None = None) -> str:
        return self


class _NoFormat(int):
    """A line that cannot be formatted (a warning about its game fails)."""

    def __format__(self, spec: str) -> str:
        raise LookupError("no format")


class _NoTruth:
    """A value whose truth (bool) raises."""

    def __bool__(self) -> bool:
        raise ZeroDivisionError("no truth")


class _NoHash:
    """A value whose hash (a memo dict's lookup) raises."""

    def __hash__(self) -> int:
        raise KeyError("no hash")


def _outcome(preparer: Preparer, row: object, game: tuple[object, ...]) -> object:
    """What the row gives, or the exception it raises (its type and message)."""
    try:
        got = row(*game)  # type: ignore[operator]
    except Exception as e:  # noqa: BLE001 (both paths must raise the same)
        return ("raised", type(e), str(e))
    return (type(got), got, [type(v) for v in got] if isinstance(got, tuple) else None)


def same(games: Iterable[tuple[object, ...]], default: RatingList | None = None) -> int:
    """`both` for games of any values: the same result or the same exception, the same
    warnings, game after game, and equal memo dicts at the end."""
    native, pure = Preparer(default), Preparer(default)
    n = 0
    for game in games:
        got = _outcome(native, native.row, game)
        expected = _outcome(pure, pure.row_pure, game)
        assert got == expected, game
        assert native.warnings == pure.warnings, game
        native.warnings.clear()
        pure.warnings.clear()
        n += 1
    for name, memo in vars(pure).items():
        assert vars(native)[name] == memo, name
    return n


BASE = {"White": "A", "Black": "B", "Result": "1-0", "Event": "E", "Date": "2024.01.01",
        "WhiteElo": "2000", "BlackElo": "2100"}


def test_values_of_other_types() -> None:
    # what row_pure does with them, the C code does (found by reading it: a rare tag there
    # with the value None forced nothing; a false Date that is no str went into the identity
    # as str() gives it; a warning's line was str(), not format())
    games: list[tuple[object, ...]] = [
        ({**BASE, "WhiteRatingDiff": None}, "d", True, 1),
        ({**BASE, "BlackRD": None, "Variant": None, "FEN": None}, "d", True, 2),
        ({**BASE, "Date": 0}, "d", True, 3),
        ({**BASE, "Date": False}, "d", True, 4),
        ({**BASE, "Date": b""}, "d", True, 5),
        ({**BASE, "Date": b"2024"}, "d", True, 6),
        ({**BASE, "WhiteElo": "abc"}, "d", True, _Formatted(7)),
        ({**BASE, "Date": "2024.02.30"}, "d", True, _Formatted(8)),
        ({**BASE, "WhiteElo": "abc"}, "d", True, "nine"),
        ({**BASE, "White": _Str(" C "), "Round": _Str("1"), "Event": _Str("Open")}, "d", True,
         10),
        ({**BASE, "WhiteFideId": _Str("123"), "TimeControl": _Str("90+30")}, "d", True, 11),
        ({**BASE, "WhiteFideId": "9" * 19, "BlackFideId": "0" * 18}, "d", True, 12),
        ({**BASE, "WhiteFideId": 2**70}, "d", True, 13),
        ({**BASE, "White": 5}, "d", True, 14),
        ({**BASE, "White": [1]}, "d", True, 15),
        ({**BASE, "Result": [1]}, "d", True, 16),
        ({**BASE, "Round": 3}, "d", True, 17),
        ({**BASE, "TimeControl": 600}, "d", True, 18),
        ({**BASE, "WhiteElo": 2000}, "d", True, 19),
        ({**BASE, "WhiteElo": 0, "BlackElo": 0}, "d", True, 20),
        ({**BASE, "SetUp": 1}, "d", True, 21),
        ({**BASE, "Termination": 1}, "d", False, 22),
        ({**BASE, "WhiteTitle": 1}, "d", True, 23),
        ({**BASE, "Event": _NoHash()}, "d", True, 24),
        ({**BASE, "WhiteElo": _NoHash()}, "d", True, 25),
        ({**BASE, "Site": _NoTruth()}, "d", True, 26),
        ({**BASE, "Variant": _NoTruth()}, "d", True, 27),
        (BASE, "d", _NoTruth(), 28),
        ({**BASE, "Round": "\ud800", "Event": "é\x00" * 600}, "d\ud800", True, 29),
        ({**BASE, "White": "\x00", "Black": "\x00\x00"}, "d", True, 30),
        ({**BASE, "Date": "2024.01.01" + " " * 2000}, "d" * 5000, True, 31),
        ({**BASE, "Round": _Kept(" 3 "), "Date": _Kept("2024.01.02")}, "d", True, 32),
        ({**BASE, "WhiteElo": "x", "BlackElo": "y"}, "d", True, _NoFormat(33)),
        ({**BASE, "WhiteElo": "x", "BlackElo": "y"}, "d", True, 34),
        ({**BASE, "TimeControl": ""}, "d", True, 35),
        ({**BASE, "TimeControl": " \t"}, "d", True, 36),
    ]
    assert same(games) == len(games)
    assert same(games * 2) == 2 * len(games)  # the memo dicts warm


class _Emptying(str):
    """A White tag whose hash (the players memo's lookup, in the C code after it took the
    tags) empties the game's tag dict, and makes new strings where the values were."""

    tags: dict[str, str] | None = None
    kept: list[str] = []

    def __hash__(self) -> int:
        tags, _Emptying.tags = _Emptying.tags, None
        if tags is not None:
            tags.clear()
            _Emptying.kept.extend("".join(["Z", str(i)]) for i in range(100))
        return str.__hash__(self)


def test_tags_emptied_while_row_runs() -> None:
    # The C code keeps its own references to the values it took: before, they were
    # borrowed from the dict, and a dict emptied by Python code the row ran freed them
    # under it (what it read then were the strings made in their place, or a crash).
    def tags() -> dict[str, str]:
        return {"White": _Emptying("A"), "Black": "".join(["B", "b"]),
                "Result": "".join(["1-", "0"]), "Event": "".join(["E", "v"]),
                "WhiteElo": "".join(["20", "00"]), "Round": "".join([" 1", " "])}

    for line in range(20):
        as_given = dict(tags())
        emptied = tags()
        _Emptying.tags = emptied
        got = Preparer().row(emptied, "d", True, line)
        assert emptied == {}
        assert got == Preparer().row_pure(as_given, "d", True, line)  # the tags as given
    _Emptying.kept.clear()


def _configure(**change: object) -> None:
    # cls: what tracker/importer/prepare.py configures (PreparedGame; tuple after plain_rows)
    args: dict[str, object] = dict(
        cls=prepare._ROW, results=RESULTS, fide=prepare._fide,
        not_rated=prepare._not_rated_reason, title=prepare._title,
        elo_warning=prepare._elo_warning, same=prepare._same_player, nothing=NOTHING,
        lists=tuple(RatingList), values=tuple(r.value for r in RatingList),
        tc=prepare._TIME_CONTROL, rare=prepare._RARE, identity_bytes=prepare.IDENTITY_BYTES)
    args.update(change)
    configure: Any = C.configure  # (wrong arguments too)
    configure(*args.values())


def test_configure_checks_what_it_is_given() -> None:
    game = ({**BASE, "TimeControl": "90+30", "Variant": "x"}, "d", True, 1)
    expected = Preparer().row_pure(*game)
    class _Plain(tuple):  # type: ignore[type-arg]  # an instance dict
        pass
    bad: list[dict[str, object]] = [
        {"cls": int}, {"cls": _Plain}, {"cls": tuple[int]}, {"results": set(RESULTS)},
        {"fide": None}, {"lists": list(RatingList)}, {"values": ("standard",)},
        {"values": tuple(_Str(r.value) for r in RatingList)}, {"tc": None},
        {"rare": prepare._RARE - {"FEN"}}, {"rare": (prepare._RARE - {"FEN"}) | {"Fen"}},
        {"rare": tuple(prepare._RARE)}, {"identity_bytes": 0}, {"identity_bytes": 33},
        {"identity_bytes": 2**70},
    ]
    try:
        for change in bad:
            with pytest.raises((TypeError, ValueError, OverflowError)):
                _configure(**change)
            assert Preparer().row(*game) == expected, change  # nothing of it was kept
        with pytest.raises(TypeError):
            C.configure()  # type: ignore[call-arg]
        _configure()  # twice: the same
        assert Preparer().row(*game) == expected
        _configure(identity_bytes=32)
        got = Preparer().row(*game)
        assert isinstance(got, tuple) and len(got.identity) == 32
        assert got.identity[:16] == expected.identity  # type: ignore[union-attr]
    finally:
        _configure()
    assert Preparer().row(*game) == expected


class _Reconfiguring(Preparer):
    """A preparer whose `_player` calls configure: refused while a row runs."""

    def _player(self, tag: str | None) -> tuple[str, str]:
        _configure(identity_bytes=8)
        return super()._player(tag)


def test_configure_not_while_a_row_runs() -> None:
    with pytest.raises(RuntimeError, match="not while a row"):
        _Reconfiguring().row(BASE, "d", True, 1)
    assert Preparer().row(BASE, "d", True, 1) == Preparer().row_pure(BASE, "d", True, 1)
    _configure()  # and after it


class _Nested(Preparer):
    """A preparer whose callbacks prepare other games (row within row) on another one."""

    def _context(self, key: tuple[str | None, ...]) -> tuple[object, ...]:
        other = Preparer()
        assert other.row(BASE, "d", True, 1) == other.row_pure(BASE, "d", True, 1)
        return super()._context(key)  # type: ignore[arg-type]


def test_two_preparers_and_a_row_within_a_row() -> None:
    games = [({**BASE, "Event": f"E{i % 7}", "White": f"W{i % 5}"}, "d", True, i)
             for i in range(50)]
    a, b, c = Preparer(), Preparer(RatingList.RAPID), _Nested()
    for game in games:
        for p in (a, b, c):
            assert p.row(*game) == p.row_pure(*game)
    assert same(games) == same(games, RatingList.RAPID) == 50


# Values of every kind, for the fuzz below (hostile callers: the reader gives only str).
_HOSTILE = st.one_of(
    value, st.none(), st.integers(-(2**70), 2**70), st.booleans(), st.binary(max_size=4),
    st.floats(allow_nan=True), value.map(_Str), st.just([1]), st.builds(_NoHash),
    st.builds(_NoTruth))


@st.composite
def hostile_games(draw: st.DrawFn) -> tuple[object, ...]:
    # mostly a game that passes the checks of its names and result, so that the rest runs
    start = draw(st.sampled_from([{}, BASE, {**BASE, "TimeControl": "600+5", "Round": "1"}]))
    names = draw(st.lists(st.sampled_from(NAMES), max_size=8, unique=True))
    tags = {**start, **{name: draw(_HOSTILE) for name in names}}
    line = draw(st.one_of(st.integers(0, 10**30), st.builds(_Formatted, st.integers(0, 99)),
                          st.text(max_size=3)))
    has_moves = draw(st.one_of(st.booleans(), st.integers(0, 2), st.builds(_NoTruth)))
    digest = draw(st.sampled_from(["", "0123abcd" * 4, "é\ud800"]))
    return tags, digest, has_moves, line


@FUZZ
@given(st.lists(hostile_games(), min_size=1, max_size=20), st.sampled_from([None, *RatingList]))
def test_fuzzed_values_of_any_type(games: list[tuple[object, ...]],
                                   default: RatingList | None) -> None:
    same(games, default)
    same(games + games, default)


# --- references kept -------------------------------------------------------------------------


class _Poisoning(Preparer):
    """A preparer whose time-control memo holds what no list is ("standard" has no
    `.value`), put there by `_elo_of`, right before the row looks it up."""

    def _elo_of(self, tag: str | None) -> tuple[int | None, str | None, bool]:
        poison = tuple(["standard", False])  # made anew each time (not a constant)
        self._tc[("90+30", dt.date(2024, 1, 1), 2100)] = poison  # type: ignore[assignment]
        return super()._elo_of(tag)


class _BadMemos(Preparer):
    """A preparer whose `_memos` are not what the C code takes (every row refused)."""

    def __init__(self) -> None:
        super().__init__()
        self._memos = self._memos[:6]  # type: ignore[assignment]


class _Raising(Preparer):
    """A preparer whose callbacks raise now and then (MemoryError among them): every error
    path of the C code after each of them."""

    calls = 0

    def _fail(self) -> None:
        _Raising.calls += 1
        if _Raising.calls % 7 == 0:
            raise MemoryError("a callback out of memory")
        if _Raising.calls % 5 == 0:
            raise ValueError("a callback that fails")

    def _player(self, tag: str | None) -> tuple[str, str]:
        self._fail()
        return super()._player(tag)

    def _context(self, key: tuple[str | None, ...]) -> tuple[object, ...]:
        self._fail()
        return super()._context(key)  # type: ignore[arg-type]

    def _elo_of(self, tag: str | None) -> tuple[int | None, str | None, bool]:
        self._fail()
        return super()._elo_of(tag)

    def _list(self, *args: object) -> tuple[RatingList, bool, str | None]:
        self._fail()
        return super()._list(*args)  # type: ignore[arg-type]

    def _no_tc_list(self, event: str) -> tuple[str, bool, str | None]:
        self._fail()
        return super()._no_tc_list(event)

    def _with_round(self, event: str, round_: str) -> tuple[str, bool, str | None]:
        self._fail()
        return super()._with_round(event, round_)

    def _site(self, event: str, site: str, force: bool = False) -> tuple[bool, str]:
        self._fail()
        return super()._site(event, site, force)


def _leak_games() -> list[tuple[object, ...]]:
    """Games along every path of the C code: skipped ones, hits and misses of each memo
    dict, warnings, rare tags, both lists' ways, long and non-ASCII identities, and the
    values of test_values_of_other_types (errors)."""
    games: list[tuple[object, ...]] = []
    for i in range(12):
        tags = {**BASE, "White": f"W{i % 3}", "Event": f"E{i % 4}", "Round": f"{i % 3}.1"}
        if i % 2:
            tags["TimeControl"] = ["90+30", "600+5", "180+2", "5400", "1+0", "x"][i % 6]
        if i % 3 == 0:
            tags.update(Variant="chess960", FEN=prepare.START_FEN, SetUp="1", WhiteTitle="GM",
                        BlackTitle=" IM ", Termination="Time forfeit")
        if i % 4 == 1:
            tags.update(WhiteRatingDiff="+5", WhiteElo="x", BlackElo="")
        if i % 5 == 2:
            tags.update(Date="2024.02.30", EventDate="2024.01.01", Round="Armageddon",
                        WhiteFideId="123", BlackFideId=" 456", Event="é" * 400 + "\ud800")
        games += [(tags, f"{i:032x}", bool(i % 7), i)] * 2  # a miss, then hits
    games += [({**BASE, "Black": "A"}, "d", True, 1), ({**BASE, "Result": " 2-0"}, "d", True, 2),
              ({**BASE, "White": "?"}, "d", True, 3), ({**BASE, "BlackFideId": ""}, "d", True, 4),
              ({"White": "A", "Black": "B", "Result": "*", "WhiteFideId": "7",
                "BlackFideId": "7"}, "d", True, 5), ({}, "", True, 6)]
    games += [({_Name("White"): "C", "Black": "D", "Result": "0-1", 7: "x"}, "d", True, 7),
              (BASE, None, True, 8),  # not the import's call: row_pure
              ({**BASE, "Round": _Kept(" 3 ")}, "d", True, 9),  # formatted in the identity
              ({**BASE, "WhiteElo": "x", "BlackElo": "y"}, "d", True, 10),  # two warnings
              ({**BASE, "WhiteElo": "x", "BlackElo": "y"}, "d", True, _NoFormat(11)),
              ({**BASE, "TimeControl": " "}, "d", True, 12),
              ({**BASE, "TimeControl": "90+30"}, "d", True, 13)]  # _Poisoning's
    return games


def _every_row(preparer: Preparer, games: list[tuple[object, ...]]) -> None:
    for game in games:
        with contextlib.suppress(Exception):  # the error paths are measured too
            preparer.row(*game)  # type: ignore[arg-type]
        preparer.warnings.clear()


def test_nothing_is_kept_across_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    # A reference the C code forgets to give back (on any path, errors too) is left behind
    # with every round: an object still allocated (tracemalloc, which traces what the C
    # code makes to the line calling row here, and what a callback returned to
    # tracker/importer/prepare.py), or one more reference to an object it shares (None,
    # the lists, a preparer's _memos: their reference counts). The memo dicts are kept
    # small (emptied every few entries, as at _CACHE_LIMIT) so that every round misses and
    # calls back as the first did, and emptied before each count. A tuple left behind each
    # row would be some 300 KiB here. Removing any one of the DECREFs on row's paths makes
    # this fail, but for the Py_CLEAR(tmp) after Black's warning, which `done:` makes good.
    monkeypatch.setattr(prepare, "_CACHE_LIMIT", 2)
    games = _leak_games()
    games += [g for g in [
        ({**BASE, "WhiteRatingDiff": None}, "d", True, 1), ({**BASE, "Date": 0}, "d", True, 2),
        ({**BASE, "WhiteElo": "abc"}, "d", True, _Formatted(3)),
        ({**BASE, "White": 5}, "d", True, 4), ({**BASE, "White": [1]}, "d", True, 5),
        ({**BASE, "Result": [1]}, "d", True, 6), ({**BASE, "Round": 3}, "d", True, 7),
        ({**BASE, "TimeControl": 600}, "d", True, 8), ({**BASE, "WhiteElo": 2000}, "d", True, 9),
        ({**BASE, "SetUp": 1}, "d", True, 10), ({**BASE, "Termination": 1}, "d", False, 11),
        ({**BASE, "WhiteTitle": 1}, "d", True, 12), ({**BASE, "Event": _NoHash()}, "d", True, 13),
        ({**BASE, "WhiteElo": _NoHash()}, "d", True, 14),
        ({**BASE, "Variant": _NoTruth()}, "d", True, 15), (BASE, "d", _NoTruth(), 16),
        ({**BASE, "WhiteFideId": 2**70}, "d", True, 17),
        ({**BASE, "Date": "2024.01.01 " + "x" * 900}, "\ud800" * 300, True, 18),
    ]]
    preparers = [Preparer(), Preparer(RatingList.BLITZ), _Raising(), _Poisoning(), _BadMemos()]
    # what the C code takes references to and the memo dicts hold: none more after a round
    shared = [None, True, False, "", NOTHING, prepare._TIME_CONTROL, *RatingList,
              *(r.value for r in RatingList), PreparedGame, Skipped, _Formatted,
              prepare.classify_list("x", None, None),  # the memo's (None, False)
              *(p._memos for p in preparers)]
    # what is allocated in C is traced to the line calling row here; what the callbacks
    # return (which the C code must give back), to tracker/importer/prepare.py
    callers = [tracemalloc.Filter(True, __file__), tracemalloc.Filter(True, prepare.__file__)]

    def rounds(n: int) -> None:
        for _ in range(n):
            for preparer in preparers:
                _every_row(preparer, games)

    def emptied() -> list[int]:  # the memo dicts' contents vary with where a round stops
        for preparer in preparers:
            for memo in vars(preparer).values():
                if isinstance(memo, dict | list):
                    memo.clear()
        gc.collect()
        return [sys.getrefcount(o) for o in shared]

    rounds(5)
    counts = emptied()
    rounds(10)
    counts_after = emptied()
    # a reference left behind a path that each round takes once: 10 more; fewer can be
    # (None's count falls as the process goes on), and a few held for a moment elsewhere
    more = [(o, a - b) for o, a, b in zip(shared, counts_after, counts, strict=True)
            if a - b >= 5]
    assert not more, more
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot().filter_traces(callers)
        rounds(20)
        emptied()
        after = tracemalloc.take_snapshot().filter_traces(callers)
    finally:
        tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert grown < 1024, [str(s) for s in after.compare_to(before, "lineno")[:5]]
