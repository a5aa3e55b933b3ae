"""Hypothesis: random and mutated PGN never raises, and the fast path equals the line machine."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.model import RawGame
from tracker.pgn import read_games, read_games_slow

SEED = (
    b'[Event "Club ch"]\r\n[White "A\\"x"]\n\n[Black "B"]\n[Result "1-0"]\n\n\n'
    b"1. e4 {c [%clk 0:01:00]\n\n} e5 (1... c5 (1... d5)) 2. Nf3 $1 ; x {\n"
    b"% escape\n2... Nc6 1-0\n[Event \"E\"]\n\n1.d4 d5 *\n\n\xef\xbb\xbf[Site \"\xc9l\"]\n"
)
PIECES = [
    b"\n", b"\r\n", b"\n\n", b" ", b"[", b"]", b'"', b"{", b"}", b"(", b")", b";", b"%",
    b"$1", b"1.", b"...", b"e4", b"Nf3+", b"1-0", b"*", b"\x00", b"\xef\xbb\xbf", b"\xff",
    b'[Event "x"]', b'[White "y"]\n', b"\\", b" \t\n",
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
def test_mutated_pgn(edits: list[tuple[int, int, bytes]]) -> None:
    data = SEED * 3
    for at, cut, piece in edits:
        data = data[:at] + piece + data[at + cut :]
    both(data)
