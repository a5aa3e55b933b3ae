"""`game_cuts`: a plain file read in parts (two import workers) gives the games of the whole.

Each part starts at a cut and is read by `read_games` with the number of its first line;
the games of all parts, in order, must equal the games of one read of the whole stream:
same tags, digests, lines and problems (Hypothesis on PGN-like pieces, and every file of
../shared/corpus and tests/data at small steps, so that many cuts are tried).
"""

from __future__ import annotations

import io
import lzma
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS, REPO, need_shared
from tests.test_pgn_fuzz import PIECES, SEED
from tracker.model import RawGame
from tracker.pgn.scan import game_cuts, read_games

MORE_PIECES = [
    b"\n\n[",
    b"\r\n\r\n[",
    b"1. e4 e5 1-0\n\n",
    b'[Event "E"]\n[Site "S"]\n\n',
    b"a\n\n[B",
    b"%x\n\n[A",
    b";c\n\n[A",
    b'{ open\n\n[Event "z"]\n',
    b"\xef\xbb\xbf\n\n[A",
    b" \n\n[A",
]


def in_parts(data: bytes, step: int) -> tuple[list[int], list[RawGame]]:
    cuts = game_cuts(io.BytesIO(data), len(data), step)
    assert cuts[0] == 0 and cuts[-1] == len(data)
    assert all(a < b for a, b in zip(cuts, cuts[1:], strict=False)) or not data
    games: list[RawGame] = []
    first = 1
    for start, end in zip(cuts, cuts[1:], strict=False):
        part = data[start:end]
        games += read_games(io.BytesIO(part), "f.pgn", first)
        first += part.count(b"\n")
    return cuts, games


def whole(data: bytes) -> list[RawGame]:
    return list(read_games(io.BytesIO(data), "f.pgn"))


def test_cuts_at_game_starts_only() -> None:
    game = b'[Event "E"]\n[White "A"]\n[Black "B"]\n\n1. e4 e5 1-0\n\n'
    data = game * 50
    cuts, games = in_parts(data, 100)
    assert len(cuts) > 10
    assert all(data[c:].startswith(b'[Event "E"]') for c in cuts[1:-1])
    assert games == whole(data)
    assert [g.line for g in games] == [1 + 6 * i for i in range(50)]


def test_no_cut_inside_a_header_block_or_after_a_comment_line() -> None:
    # ChessBase writes a blank line inside the header: not a cut; nor after `%` or `;` lines.
    data = (
        b'[Event "E"]\n\n[White "A"]\n[Black "B"]\n\n1. e4 1-0\n\n'
        b'% escape\n\n[Site "x"]\n\n1. d4 *\n\n;c\n\n[Site "y"]\n\n1. c4 *\n'
    ) * 20
    cuts, games = in_parts(data, 7)
    for c in cuts[1:-1]:
        assert data[:c].endswith((b"1-0\n\n", b"*\n\n"))
    assert games == whole(data)


def test_a_file_without_cuts_is_one_part() -> None:
    data = b"1. e4 e5 " * 10_000
    assert in_parts(data, 1000)[0] == [0, len(data)]


@pytest.mark.slow  # fuzzing: Hypothesis, read in parts
@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES + MORE_PIECES), max_size=120),
    st.integers(min_value=1, max_value=200),
)
def test_pgn_like_pieces_in_parts(pieces: list[bytes], step: int) -> None:
    data = SEED + b"".join(pieces) + SEED
    assert in_parts(data, step)[1] == whole(data)


@pytest.mark.slow
def test_corpus_and_test_files_in_parts() -> None:
    need_shared()
    paths = sorted(CORPUS.glob("*.pgn*")) + sorted((REPO / "tests" / "data").rglob("*.pgn"))
    tried = 0
    for path in paths:
        data = lzma.decompress(path.read_bytes()) if path.suffix == ".xz" else path.read_bytes()
        cuts, games = in_parts(data, 997 + len(data) // 300)
        tried += len(cuts) - 2
        assert games == whole(data), path.name
    assert tried > 3_000


def test_cuts_of_a_file_on_disk(tmp_path: Path) -> None:
    game = b'[Event "E"]\r\n[White "A"]\r\n[Black "B"]\r\n\r\n1. e4 e5 1-0\r\n\r\n'
    path = tmp_path / "crlf.pgn"
    path.write_bytes(game * 3000)
    with path.open("rb") as f:
        cuts = game_cuts(f, path.stat().st_size, 10_000)
        assert f.tell() == 0
    assert len(cuts) > 10
    data = path.read_bytes()
    assert in_parts(data, 10_000)[0] == cuts
    assert in_parts(data, 10_000)[1] == whole(data)
