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

import hashlib
import io
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS, corpus_files, decompressed, need_shared
from tests.test_pgn_fuzz import mutated, pgn_files
from tracker.importer import prepare
from tracker.importer.prepare import NATIVE, Preparer
from tracker.model import RatingList
from tracker.pgn import read_games

if NATIVE is None:
    pytest.skip("the C extension tracker.importer._prepare is not built (or "
                "TRACKER_PURE_PYTHON=1): only the pure Python preparer runs",
                allow_module_level=True)
C = NATIVE

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


# --- SHA-256 --------------------------------------------------------------------------------


@pytest.mark.parametrize("portable", [False, True])
def test_sha256_is_hashlibs(portable: bool) -> None:
    # every length around the block (64 bytes) and padding (56) boundaries, and longer
    for n in [*range(0, 260), 1000, 4095, 4096, 65537]:
        data = bytes((i * 7 + n) % 256 for i in range(n))
        assert C.sha256(data, portable) == hashlib.sha256(data).digest(), n


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
