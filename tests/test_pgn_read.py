"""The fast PGN reader: quirks, bad input, identity of moves (tests/data/pgn, generated)."""

from __future__ import annotations

import io

from tracker.model import RawGame
from tracker.pgn import decode_text, problem_location, read_games, read_games_reference


def games(data: bytes) -> list[RawGame]:
    return list(read_games(io.BytesIO(data), "t.pgn"))


def ref(data: bytes) -> list[RawGame]:
    return list(read_games_reference(io.BytesIO(data), "t.pgn"))


BASIC = b"""[Event "Club ch"]
[Site "Here"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0

[Event "Club ch"]
[White "C"]
[Black "D"]
[Result "0-1"]

1. d4 d5 0-1
"""


def test_two_games_tags_and_lines() -> None:
    got = games(BASIC)
    assert [g.tags["White"] for g in got] == ["A", "C"]
    assert [g.line for g in got] == [1, 9]
    assert all(g.has_moves and g.moves_digest for g in got)
    assert all(g.problems == () for g in got)


def test_same_as_reference_on_basic() -> None:
    assert games(BASIC) == ref(BASIC)


def test_annotations_do_not_change_the_digest() -> None:
    plain = b'[White "A"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n'
    annotated = (
        b'[White "A"]\n\n1. e4! {best by test} e5 $1 (1... c5 2. Nf3) '
        b"2. Nf3+ { [%clk 0:01:00] } 2... Nc6?! ; a remark\n1-0\n"
    )
    a, b = games(plain)[0], games(annotated)[0]
    assert a.moves_digest == b.moves_digest != ""


def test_different_moves_different_digest() -> None:
    a = games(b'[White "A"]\n\n1. e4 e5 1-0\n')[0]
    b = games(b'[White "A"]\n\n1. e4 c5 1-0\n')[0]
    assert a.moves_digest != b.moves_digest


def test_game_without_moves() -> None:
    (g,) = games(b'[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1-0\n')
    assert g.has_moves is False and g.moves_digest == ""


def test_decode_policies() -> None:
    assert decode_text("Él".encode("cp1252")) == "Él"
    assert decode_text(b"Andr\x82") == "André"
    assert decode_text(b"Bidjukov\xa0") == "Bidjukov\xa0"
    assert decode_text("\ufeffÉl".encode()) == "Él"


def test_problem_location() -> None:
    g = RawGame({}, "", False, 7, ("line 9: x", "y"))
    assert problem_location(g, "line 9: x") == (9, "x")
    assert problem_location(g, "y") == (7, "y")
