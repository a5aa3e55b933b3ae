"""The fast PGN reader: quirks, bad input, identity of moves (files in tests/data/pgn).

Expected digests are BLAKE2b-128 of canonical strings written out by hand from the rule in
`tracker.pgn.moves` (never taken from the reader's own output).
"""

from __future__ import annotations

import codecs
import hashlib
import io
import itertools
import logging
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import REPO, subprocess_env
from tracker.model import RawGame, Result
from tracker.pgn import (
    MAX_LINE,
    MAX_TAGS,
    MAX_VALUE,
    LineCount,
    decode_text,
    problem_location,
    read_games,
    read_games_pure,
    read_games_reference,
    read_games_slow,
    text_lines,
    validate_moves,
)
from tracker.pgn.scan import game_cuts
from tracker.pgn.stream import BLOCK

DATA = Path(__file__).parent / "data" / "pgn"


def games(data: bytes) -> list[RawGame]:
    """The fast reader's games; the line machine alone must give exactly the same."""
    fast = list(read_games(io.BytesIO(data), "t.pgn"))
    assert fast == list(read_games_slow(io.BytesIO(data), "t.pgn"))
    return fast


def file_games(name: str) -> list[RawGame]:
    return games((DATA / name).read_bytes())


def ref(data: bytes) -> list[RawGame]:
    return list(read_games_reference(io.BytesIO(data), "t.pgn"))


def digest(canonical: bytes) -> str:
    return hashlib.blake2b(canonical, digest_size=16).hexdigest()


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


def test_two_games_tags_lines_digests() -> None:
    got = games(BASIC)
    assert [g.tags["White"] for g in got] == ["A", "C"]
    assert got[0].tags == {
        "Event": "Club ch",
        "Site": "Here",
        "White": "A",
        "Black": "B",
        "Result": "1-0",
    }
    assert [g.line for g in got] == [1, 9]
    assert got[0].moves_digest == digest(b"1.e4e52.Nf3Nc63.Bb5a6")
    assert got[1].moves_digest == digest(b"1.d4d5")
    assert all(g.has_moves and g.problems == () for g in got)


def test_same_as_python_chess_on_basic() -> None:
    assert games(BASIC) == ref(BASIC)


def test_annotations_spacing_and_line_breaks_do_not_change_the_digest() -> None:
    plain = b'[White "A"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n'
    glued = b'[White "A"]\n\n1.e4 e5\n2.Nf3\nNc6 1-0\n'
    annotated = (
        b'[White "A"]\n\n1. e4! {best by test} e5 $1 (1... c5 2. Nf3 (2. c3)) '
        b"2. Nf3+ { [%clk 0:01:00] } 2... Nc6?! ; a remark (\n1-0\n"
    )
    want = digest(b"1.e4e52.Nf3Nc6")
    assert [games(x)[0].moves_digest for x in (plain, glued, annotated)] == [want] * 3


def test_every_result_is_cut_from_the_end_of_the_moves() -> None:
    # The results are tracker.model.Result's, each ending in a byte of its own (moves.py).
    assert len({result.value[-1] for result in Result}) == len(Result) == 4
    for result in Result:
        for moves in ("1. e4 e5", "1. e4 {x} e5", "1. e4 e5 ; x\n"):
            (g,) = games(f'[White "A"]\n\n{moves} {result}\n'.encode())
            assert g.moves_digest == digest(b"1.e4e5"), (moves, result)
    (g,) = games(b'[White "A"]\n\n1. e4 e5 2. O-O-O 0-0\n')  # not a result: kept
    assert g.moves_digest == digest(b"1.e4e52.O-O-O0-0")


# --- how the moves end (RawGame.moves_end, issue 35 item 10) --------------------------------
#
# PGN (section 8.2.6 of the standard): the movetext ends with the game termination marker,
# which must match the Result tag. moves_end is None when it does, else the marker the moves
# end with ("" for none: the moves stop before the result, a game cut short).

CUT_AFTER = BASIC + (
    b'\n[Event "Club ch"]\n[White "E"]\n[Black "F"]\n[Result "1/2-1/2"]\n\n1. c4 e5 2. Nc3 '
)
"""Two whole games, then a third cut in its moves (as `head -c` cuts a file)."""


def every_reader(data: bytes) -> list[list[RawGame]]:
    """The games of `data` by the fast reader (C where built), the pure Python one, the line
    machine and python-chess."""
    return [
        list(read(io.BytesIO(data), "t.pgn"))
        for read in (read_games, read_games_pure, read_games_slow, read_games_reference)
    ]


def test_a_game_cut_in_its_moves_is_told_by_every_reader() -> None:
    for got in every_reader(CUT_AFTER):
        assert [(g.line, g.moves_end) for g in got] == [(1, None), (9, None), (16, "")]
        assert got[2].moves_digest == digest(b"1.c4e52.Nc3")  # (the moves that are there)
        assert got[2].problems == ()


@pytest.mark.parametrize(
    ("result", "movetext", "end"),
    [
        ("1-0", "1. e4 e5 1-0", None),
        ("*", "1. e4 *", None),
        ("1/2-1/2", "1. e4 e5 {agreed} 1/2-1/2 {after the result}", None),
        ("0-1", "1. e4 e5 ; a remark\n0-1", None),
        ("1-0", "1-0", None),  # a game won without moves (a forfeit)
        ("1-0", "1. e4 e5 0-1", "0-1"),  # two results: the moves' and the tag's
        ("*", "1. e4 e5 1-0", "1-0"),
        (None, "1. e4 e5 1-0", "1-0"),  # no Result tag
        ("1-0", "1. e4 e5", ""),  # cut between two moves
        ("1-0", "1. e4 e5 2. Nf", ""),  # cut inside a move
        ("1/2-1/2", "1. e4 e5 1/2", ""),  # cut inside the result
        ("1-0", "1. e4 e5 {the result is in a comment never closed 1-0", ""),
        ("1-0", "1. e4 e5 (1... c5 2. Nf3 1-0", ""),  # and in a variation never closed
        ("1-0", "", ""),  # the tags, then nothing (cut after the header)
    ],
)
def test_how_the_moves_end(result: str | None, movetext: str, end: str | None) -> None:
    head = '[White "A"]\n[Black "B"]\n' + ("" if result is None else f'[Result "{result}"]\n')
    for tail in ("", '\n\n[White "C"]\n[Black "D"]\n[Result "*"]\n\n1. d4 *\n'):
        data = f"{head}\n{movetext}{tail}".encode()
        readers = every_reader(data)
        if tail and "{" in movetext:
            readers.pop()  # python-chess reads the next game into the comment left open
        for got in readers:
            assert [g.moves_end for g in got] == [end] + ([None] if tail else []), (data, got)


def test_a_long_game_cut_in_its_moves_is_told() -> None:
    # Past KEPT_CAP (256 KiB) the line machine folds the moves into the hash as they come:
    # the end is read from what is left; 10,000 lines of moves (about 300 KB).
    moves = "".join(f"{n}. Nf3 Nf6 {n + 1}. Ng1 Ng8\n" for n in range(1, 20_000, 2))
    head = '[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n'
    whole = (head + moves + "1-0\n").encode()
    cut = (head + moves[: len(moves) // 2]).encode()
    assert [g.moves_end for g in games(whole)] == [None]
    assert [g.moves_end for g in games(cut)] == [""]
    assert [g.moves_end for g in list(read_games_pure(io.BytesIO(cut), "t.pgn"))] == [""]


def test_a_line_of_moves_the_reader_cuts_is_no_cut_file() -> None:
    # A line longer than MAX_LINE is cut by the reader (its own problem): the result may be in
    # what it dropped, so how the moves end is not told (the game is stored, as before).
    data = f'[White "A"]\n[Result "1-0"]\n\n1. e4 {{{"x" * MAX_LINE}}} e5 1-0\n'.encode()
    for read in (read_games, read_games_pure, read_games_slow):
        (g,) = list(read(io.BytesIO(data), "t.pgn"))
        assert g.moves_end is None
        assert any("longer than" in p for p in g.problems), g.problems


def test_different_moves_different_digest() -> None:
    a = games(b'[White "A"]\n\n1. e4 e5 1-0\n')[0]
    b = games(b'[White "A"]\n\n1. e4 c5 1-0\n')[0]
    assert a.moves_digest == digest(b"1.e4e5") != b.moves_digest == digest(b"1.e4c5")


def test_black_to_move_first() -> None:
    (g,) = games(b'[FEN "8/8/8/8/8/8/8/K1k5 b - - 0 30"]\n[SetUp "1"]\n\n30... Kc2 31. Ka2 *\n')
    assert g.moves_digest == digest(b"Kc231.Ka2")


def test_variants_with_variations_read_as_python_chess_reads_them() -> None:
    # python-chess opens a variation by the moves counted on its board: a variant's board
    # too (three-check from a FEN, black to move), and a board for a Variant it does not know.
    data = (
        b'[Event "x"]\n[Variant "Three-check"]\n'
        b'[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 7 +1+2"]\n\n'
        b"7... e5 (7... d5 (7... c5)) 8. Nf3 Nc6 (8... d6) 9. Bb5 *\n\n"
        b'[Event "y"]\n[Variant "Nonsense"]\n\n1. e4 (1. d4) e5 (1... c5 (1... d5)) 2. Nf3 *\n\n'
        b'[Event "z"]\n\n1. e4 ((1. d4)) e5 (1... c5 (1... d5 2. c4 (2. Nf3))) 2. Nf3 *\n'
    )
    want = [digest(b"e58.Nf3Nc69.Bb5"), digest(b"1.e4e52.Nf3"), digest(b"1.e4e52.Nf3")]
    assert [g.moves_digest for g in games(data)] == want
    assert [g.moves_digest for g in ref(data)] == want


# ---- quirks python-chess documents (files in tests/data/pgn)


def test_chessbase_blank_line_inside_the_header() -> None:
    (g,) = file_games("chessbase-blank-line.pgn")
    assert g.tags["Site"] == "Berlin" and g.tags["Date"] == "2023.02.11"
    assert g.tags["White"] == "Alpha, Anna" and g.moves_digest == digest(b"1.d4Nf62.c4e6")


def test_header_then_two_blank_lines_is_one_game() -> None:
    first, second = file_games("two-blank-lines.pgn")
    assert first.tags["White"] == "Alpha, Anna" and first.has_moves
    assert first.moves_digest == digest(b"1.e4e52.Qh5Nc63.Bc4Nf64.Qxf7")
    assert (first.line, second.line) == (1, 9)
    # python-chess reads a game without moves, then a game without tags (documented).
    r = ref((DATA / "two-blank-lines.pgn").read_bytes())
    assert [bool(g.tags) for g in r] == [True, False, True]
    assert not r[0].has_moves and r[1].moves_digest == first.moves_digest


def test_comments_variations_nags_and_semicolons() -> None:
    (g,) = file_games("comments.pgn")
    assert g.moves_digest == digest(b"1.e4e52.Nf3Nc63.Bb5a6")
    assert g.problems == ()
    assert g == ref((DATA / "comments.pgn").read_bytes())[0]


def test_escaped_quotes_in_tag_values() -> None:
    (g,) = file_games("escaped-quotes.pgn")
    assert g.tags["Event"] == 'The "Big" Open'
    assert g.tags["Site"] == "C:\\chess"


def test_crlf_and_missing_final_newline() -> None:
    got = file_games("crlf-no-final-newline.pgn")
    assert [g.tags["White"] for g in got] == ["Alpha, Anna", "Gamma, Gus"]
    assert got[1].moves_digest == digest(b"1.d4d5") and got[1].line == 8
    assert got == ref((DATA / "crlf-no-final-newline.pgn").read_bytes())


def test_bom_at_start_and_in_mid_stream() -> None:
    got = file_games("bom.pgn")
    assert [g.tags["Event"] for g in got] == ["Club ch", "Second file"]
    assert got[0].tags["White"] == "Élodie"


def test_a_bom_split_by_a_bom_is_removed_whole() -> None:
    # Found by Hypothesis: b"\xef" + BOM + b"\xbb\xbf" is a BOM again once the inner one is
    # removed; the fast path removed twice (scanner, then line machine), the slow path once.
    data = (
        b'[Event "E"]\n\n1. e4 1-0\n\n\xef\xef\xbb\xbf\xbb\xbf[Event "F"]\n[Site "S"]\n\n'
        b"1. d4 1-0\n"
    )
    first, second = games(data)
    assert second.tags == {"Event": "F", "Site": "S"} and second.line == 5


def test_windows_1252_names() -> None:
    (g,) = file_games("cp1252.pgn")
    assert (g.tags["White"], g.tags["Black"]) == ("Él, Ramón", "Müller, Jürgen")
    assert g.tags["Event"] == "Torneo de Córdoba"


def test_dos_code_page_names() -> None:
    (g,) = file_games("dos-cp437.pgn")
    assert (g.tags["White"], g.tags["Black"]) == ("Quadros,André", "Müller,J")


@pytest.mark.parametrize(
    "raw,text",
    [
        ("Él".encode("cp1252"), "Él"),
        ("Réti".encode("latin-1"), "Réti"),
        (b"Andr\x82", "André"),
        (b"Bidjukov\xa0", "Bidjukov\xa0"),  # the Karpov file: a no-break space, not "á"
        ("\ufeffÉl".encode(), "Él"),
        (b"Carlsen, Magnus", "Carlsen, Magnus"),
        (b"\x8aahovi\xe6", "Šahoviæ"),  # Windows-1252 letters stay Windows-1252
    ],
)
def test_decode_text(raw: bytes, text: str) -> None:
    assert decode_text(raw) == text


# ---- games without moves, boundaries


def test_forfeits_have_no_moves() -> None:
    got = file_games("forfeit.pgn")
    assert [(g.has_moves, g.moves_digest) for g in got] == [(False, ""), (False, "")]
    assert got[0].tags["Termination"] == "forfeit"


def test_game_without_moves_followed_by_a_game() -> None:
    first, second = file_games("header-only-games.pgn")
    assert first.tags["White"] == "Alpha, Anna" and not first.has_moves
    assert second.tags["White"] == "Gamma, Gus" and second.moves_digest == digest(b"1.d4d5")


def test_tag_line_right_after_moves_starts_a_game() -> None:
    first, second = file_games("tag-after-moves.pgn")
    assert first.moves_digest == digest(b"1.e4e5")
    assert (second.line, second.tags["White"]) == (7, "Gamma, Gus")


# ---- bad input: never raises, problems with lines


def test_truncated_file() -> None:
    first, second = file_games("truncated.pgn")
    assert first.moves_digest == digest(b"1.e4e52.Nf3")
    # the file ends inside a tag: the cut header is no game (as text outside any game), its
    # one problem says so where the file ends (before: "not a tag pair, ignored", then the
    # game skipped for want of a Black player or a result)
    said = (
        'the file ends inside a tag ([Black "Delta, D): it was cut short; the game of line 8 '
        "is not read (download or copy the file again)"
    )
    assert second.tags == {} and not second.has_moves
    assert second.problems == (f"line 10: {said}",)
    assert problem_location(second, second.problems[0]) == (10, said)


def test_a_malformed_tag_that_is_not_the_files_end_is_ignored() -> None:
    # "[Black ..." unclosed, then a newline and the moves: not the end of the file, so the
    # line is a tag that is not one (ignored, as before), and the game is read.
    data = b'[Event "x"]\n[White "A"]\n[Black "B\n[Result "1-0"]\n\n1. e4 1-0\n'
    (g,) = read_games(io.BytesIO(data), "x.pgn")
    assert g.tags == {"Event": "x", "White": "A", "Result": "1-0"}
    assert g.problems == ('line 3: not a tag pair, ignored: [Black "B',)


def test_broken_quoting() -> None:
    (g,) = file_games("broken-quoting.pgn")
    assert g.tags == {"Event": "Club ch", "WhiteElo": "1800", "Result": "1-0"}
    assert [problem_location(g, p)[0] for p in g.problems] == [2, 3]


def test_unbalanced_braces_and_parentheses() -> None:
    first, second = file_games("unbalanced-braces.pgn")
    assert first.moves_digest == digest(b"1.e4")
    assert first.problems == ("line 6: a comment opened with { is never closed",)
    assert second.tags["White"] == "Gamma, Gus" and second.line == 8
    assert second.moves_digest == digest(b"1.d4d5")


def test_nested_and_stray_parentheses_fast_and_slow_agree() -> None:
    head = b'[Event "E"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n'
    for moves, canon in [
        (b"1. e4 (1. d4 (1. c4) 1... d5) e5 (1... c5 (1... e6)) 2. Nf3 1-0", b"1.e4e52.Nf3"),
        (b"1. e4 ) e5 (1... c5) 2. Nf3 1-0", b"1.e4e52.Nf3"),  # a stray ) is whitespace
        (b"1. e4(1. d4)e5 1-0", b"1.e4e5"),  # a variation separates the moves around it
    ]:
        (g,) = games(head + moves + b"\n")
        assert g.moves_digest == digest(canon), moves
    (g,) = games(head + b"1. e4 e5 (1... c5 (1... e6) 2. Nf3 1-0\n")  # never closed
    assert g.moves_digest == digest(b"1.e4e5")


def test_deep_nesting_is_read_in_linear_time() -> None:
    # Regression: _fast_canonical removed one level per regex pass (quadratic: 20,000
    # levels took ~50 s). 100,000 levels now take well under a second.
    import time

    depth = 100_000
    data = (
        b'[Event "E"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 '
        + b"(1. d4 " * depth
        + b")" * depth
        + b" e5 1-0\n"
    )
    started = time.process_time()
    (g,) = list(read_games(io.BytesIO(data), "t.pgn"))
    assert time.process_time() - started < 5
    assert g.moves_digest == digest(b"1.e4e5")


def test_nul_bytes() -> None:
    (g,) = file_games("nul-bytes.pgn")
    assert g.tags["White"] == "Alpha, Anna"
    assert g.problems == ("line 6: NUL bytes in the moves: is this a binary file?",)


def test_nul_bytes_in_a_tag_value_are_removed_and_reported() -> None:
    data = (
        b'[Event "Club"]\n[White "Svo\x00boda, Petr"]\n[Black "B"]\n[Result "1-0"]\n\n'
        b"1. e4 e5 1-0\n\n"
        b'[Event "Club"]\n[White\x00 "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. d4 1-0\n'
    )
    first, second = games(data)
    assert first.tags["White"] == "Svoboda, Petr"
    assert first.problems == ("line 2: NUL bytes in tag White: removed; is this a binary file?",)
    assert [problem_location(first, p)[0] for p in first.problems] == [2]
    # Not a tag pair at all: ignored, and the NUL is shown escaped (one printable line).
    assert "White" not in second.tags
    assert second.problems == ('line 9: not a tag pair, ignored: [White\\x00 "A"]',)


def test_random_binary_data_gives_problems_not_games() -> None:
    data = random.Random(6).randbytes(300_000)
    got = games(data)
    assert got and all(g.problems for g in got if not g.tags)


def test_text_outside_games() -> None:
    got = games(b"1. e4 e5 *\n\n" + BASIC + b"\njust some words\n\n")
    assert [bool(g.tags) for g in got] == [False, True, True, False]
    assert got[0].problems == ("text outside any game (no tag header before it): ignored",)
    assert (got[0].line, got[3].line) == (1, 18)


def test_repeated_tag_keeps_the_last_with_a_problem() -> None:
    (g,) = games(b'[White "A"]\n[White "B"]\n\n1. e4 *\n')
    assert g.tags == {"White": "B"}
    assert g.problems == ("line 2: tag White given twice; the last is kept",)


def test_thousands_of_tags_are_capped() -> None:
    tags = b"".join(b'[T%d "v"]\n' % i for i in range(3000))
    (g,) = games(b'[White "A"]\n' + tags + b"\n1. e4 *\n")
    assert len(g.tags) == MAX_TAGS and g.tags["White"] == "A"
    assert g.problems == (f"{3001 - MAX_TAGS} tags beyond the first {MAX_TAGS} ignored",)
    assert g.moves_digest == digest(b"1.e4")


def test_the_tags_the_tool_stores_are_kept_past_the_cap() -> None:
    """Issue 19: a game of 5,000 tags whose White tag came after the first 500 was skipped
    ("no White player name"). The cap stays; the tags the importer reads are kept wherever
    they stand, only the others dropped."""
    junk = b"".join(b'[T%d "v"]\n' % i for i in range(5000))
    head = b'[Event "Open"]\n[Date "2025.10.04"]\n'
    tail = (
        b'[White "Late, White"]\n[Black "Late, Black"]\n[Result "1-0"]\n'
        b'[WhiteElo "1850"]\n[TimeControl "5400+30"]\n'
    )
    (g,) = games(head + junk + tail + b"\n1. e4 e5 1-0\n")
    assert g.tags["White"] == "Late, White" and g.tags["Black"] == "Late, Black"
    assert (g.tags["WhiteElo"], g.tags["TimeControl"], g.tags["Result"]) == (
        "1850",
        "5400+30",
        "1-0",
    )
    assert len(g.tags) == MAX_TAGS + 5
    assert g.problems == (f"{5002 - MAX_TAGS} tags beyond the first {MAX_TAGS} ignored",)


def test_a_game_with_its_names_past_the_cap_is_imported(tmp_path: Path) -> None:
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.store import open_store

    junk = "".join(f'[T{i} "v"]\n' for i in range(5000))
    text = (
        '[Event "Open"]\n[Site "X"]\n[Date "2025.10.04"]\n[Round "1"]\n'
        + junk
        + '[White "Late, White"]\n[Black "Late, Black"]\n[Result "1-0"]\n\n1. e4 1-0\n'
    )
    (tmp_path / "t.pgn").write_text(text, encoding="utf-8")
    with open_store(str(tmp_path / "t.db")) as store:
        (src,) = import_paths(store, [str(tmp_path / "t.pgn")], ImportOptions()).sources
        assert (src.games_read, src.added) == (1, 1)


def test_long_tag_value_is_cut() -> None:
    (g,) = games(b'[White "' + b"x" * 10_000 + b'"]\n\n1. e4 *\n')
    assert g.tags["White"] == "x" * MAX_VALUE
    assert g.problems == (f"line 1: tag White is longer than {MAX_VALUE} characters: cut",)


def test_ten_megabyte_single_line_in_bounded_memory() -> None:
    line = b"1. e4 e5 " * (10 * 1024 * 1024 // 9)
    data = b'[White "A"]\n[Black "B"]\n\n' + line + b"\n\n" + BASIC
    tracemalloc.start()
    try:
        got = list(read_games(io.BytesIO(data), "t.pgn"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024  # blocks of 1 MiB, one cut line, never the 10 MB line
    assert [g.tags.get("White") for g in got] == ["A", "A", "C"]
    assert got[0].problems == (
        f"line 4: longer than {MAX_LINE} bytes: the rest of the line is ignored",
    )
    assert got[0].has_moves and got[1].line == 6


@pytest.mark.parametrize(
    "line",
    [b"%" + b"x" * MAX_LINE, b";" + b"x" * MAX_LINE, b" " * (MAX_LINE + 1)],
    ids=["escape", "semicolon", "blank"],
)
def test_a_cut_line_outside_any_game_is_reported_with_the_next_game(line: bytes) -> None:
    # A `%` line (or `;`, or blank) over MAX_LINE bytes before a game or between two: the
    # line machine reports the cut with the next game, and so does the fast reader (it
    # reported none).
    cut = line + b"xxxxx\n"
    problem = f"longer than {MAX_LINE} bytes: the rest of the line is ignored"
    got = games(cut + BASIC)
    assert got[0].problems == (f"line 1: {problem}",) and got[1].problems == ()
    got = games(BASIC + b"\n" + cut + b"\n" + BASIC)
    assert [g.problems for g in got] == [(), (), (f"line 16: {problem}",), ()]
    assert list(read_games_pure(io.BytesIO(cut + BASIC), "t.pgn")) == games(cut + BASIC)


CUT_LINES = [
    b"%" + b"x" * MAX_LINE,
    b";" + b"x" * MAX_LINE,
    b" " * (MAX_LINE + 1),
    b"1. e4 " * (MAX_LINE // 6 + 1),
    b'[Event "' + b"x" * MAX_LINE,
    b"{" + b"x" * MAX_LINE,
    b"x" * (MAX_LINE + 1),
]
SMALL_LINES = [
    b'[Event "E"]',
    b'[White "A"]',
    b"",
    b"",
    b"1. e4 e5 1-0",
    b"{c",
    b"}",
    b"%x",
    b";x",
    b"1. d4 {",
    b"(1. c4",
    b")",
    b"*",
]


@pytest.mark.slow  # fuzzing: every cut of the lines, big files across blocks
@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(SMALL_LINES), st.sampled_from(CUT_LINES)), max_size=14))
def test_cut_lines_anywhere_are_reported_as_the_line_machine_does(lines: list[bytes]) -> None:
    # Each cut's problem goes to the game the line machine gives it (the one it is in, the
    # one it ends, or the next), whatever the fast reader skips or reads in groups.
    data = b"\n".join(lines) + b"\n"
    got = games(data)
    assert list(read_games_pure(io.BytesIO(data), "t.pgn")) == got


BLANK_CUT = b" " * (MAX_LINE + 1)


# Found by Hypothesis (the test above): a cut line of blanks among the blank lines before a
# game, after text outside any game or a comment left open, got its problem on the next game
# in the fast reader (which skipped those blank lines between its groups), on the one before
# in the line machine, still in it there.
@pytest.mark.parametrize(
    "lines",
    [
        [b"1. e4 e5 1-0", b"", BLANK_CUT, b'[Event "E"]'],
        [b"1. e4 e5 1-0", BLANK_CUT, BLANK_CUT, b'[Event "E"]'],
        [b'[Event "X"]', b"", b"1. e4 {", b"", BLANK_CUT, b'[Event "E"]'],
    ],
    ids=["after-a-blank", "two-cut-lines", "in-a-comment"],
)
def test_a_cut_line_of_blanks_before_a_game_is_reported_as_the_line_machine_does(
    lines: list[bytes],
) -> None:
    data = b"\n".join(lines) + b"\n"
    cut = f"longer than {MAX_LINE} bytes: the rest of the line is ignored"
    cut_lines = [f"line {n}: {cut}" for n, text in enumerate(lines, 1) if text == BLANK_CUT]
    got = games(data)  # the same as the line machine's
    assert [g.line for g in got] == [1, len(lines)]
    assert [p for p in got[0].problems if cut in p] == cut_lines
    assert got[1].problems == ()
    assert list(read_games_pure(io.BytesIO(data), "t.pgn")) == got


def test_long_movetext_is_hashed_as_it_streams() -> None:
    moves = b"".join(b"%d. Nf3 Nf6 %d. Ng1 Ng8\n" % (i, i + 1) for i in range(1, 200_000, 2))
    data = b'[White "A"]\n\n' + moves + b"1/2-1/2\n"
    (g,) = games(data)
    want = b"".join(b"%d.Nf3Nf6%d.Ng1Ng8" % (i, i + 1) for i in range(1, 200_000, 2))
    assert g.moves_digest == digest(want)


def test_problem_location() -> None:
    g = RawGame({}, "", False, 7, ("line 9: x", "y"))
    assert problem_location(g, "line 9: x") == (9, "x")
    assert problem_location(g, "y") == (7, "y")


def test_validate_moves_replays_moves() -> None:
    from tracker.pgn import validate_moves

    assert validate_moves('[White "A"]\n\n1. e4 e5 2. Nf3 Nc6 *\n') == []
    problems = validate_moves('[White "A"]\n\n1. e4 e5 2. Ke3 Nc6 *\n')
    assert len(problems) == 1 and problems[0][0] == 3 and "Ke3" in problems[0][1]


# ---- what the QA run found in the reader: code pages, UTF-16, CR line ends, --validate


# ---- bug 3: Windows-1252 punctuation is not DOS code page 437


@pytest.mark.parametrize(
    "raw,text",
    [
        # As reported: cp1252 ’ (0x92) and – (0x96) are letters in cp437 (Æ, û).
        (b"O\x92Brien, Se\xe1n", "O’Brien, Seán"),
        (b"Memori\xe1l \x96 Brno", "Memoriál – Brno"),
        (b"\x93Open\x94 2025", "“Open” 2025"),
        (b"d\x92Artagnan", "d’Artagnan"),
        (b"2024\x962025", "2024–2025"),
        (b"Prize 50\x80", "Prize 50€"),
        (b"Open\x85", "Open…"),  # a tie (à or …) goes to Windows-1252
        (b"L\x92Aquila \x97 Blitz", "L’Aquila — Blitz"),
    ],
)
def test_windows_1252_punctuation_stays_windows_1252(raw: bytes, text: str) -> None:
    assert decode_text(raw) == text


@pytest.mark.parametrize(
    "raw,text",
    [
        # Genuine DOS code page 437, as DOS-era tools wrote names (the corpus's Kasparov
        # file has "Andr\x82"; tests/data/pgn/dos-cp437.pgn pins it through the readers).
        (b"Quadros,Andr\x82", "Quadros,André"),
        (b"M\x81ller,J", "Müller,J"),
        (b"Bj\x94rn", "Björn"),
        (b"G\x84rtner, K\x94ln", "Gärtner, Köln"),
        (b"Fran\x87ois", "François"),
        (b"\x90tienne", "Étienne"),
        (b"Jos\x82 Mar\xa1a", "José María"),
        (b"Stra\xe1e, K\x94ln", "Straße, Köln"),
    ],
)
def test_dos_code_page_437_still_read_as_dos(raw: bytes, text: str) -> None:
    assert decode_text(raw) == text


def test_reported_file_keeps_windows_1252_names_and_event() -> None:
    data = (
        b'[Event "Memori\xe1l \x96 Brno"]\n[White "O\x92Brien, Se\xe1n"]\n'
        b'[Black "M\xfcller, J"]\n[Date "2025.10.04"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    )
    (g,) = games(data)
    assert g.tags["Event"] == "Memoriál – Brno"
    assert (g.tags["White"], g.tags["Black"]) == ("O’Brien, Seán", "Müller, J")
    assert g.problems == ()
    (r,) = read_games_reference(io.BytesIO(data), "t.pgn")
    assert r.tags == g.tags


# ---- bug 10: UTF-16 (and UTF-32) files, CR-only line ends

TWO = (
    '[Event "Memoriál Tomáš"]\n[Site "Brno"]\n[White "Müller, Jürgen"]\n[Black "Ng, A"]\n'
    '[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event "Open"]\n[White "Ng, A"]\n'
    '[Black "Müller, Jürgen"]\n[Result "0-1"]\n\n1. d4 {Ž} d5 0-1\n'
)


@pytest.mark.parametrize(
    "encoded",
    [
        TWO.encode("utf-16"),  # with a BOM, little-endian here (what PowerShell's > writes)
        codecs.BOM_UTF16_BE + TWO.encode("utf-16-be"),
        TWO.encode("utf-16-le"),  # no BOM: the zero bytes of its first tag show it
        TWO.encode("utf-16-be"),
        TWO.encode("utf-32"),
        TWO.replace("\n", "\r\n").encode("utf-16"),
    ],
    ids=["utf16-bom", "utf16be-bom", "utf16le", "utf16be", "utf32-bom", "utf16-crlf"],
)
def test_utf16_and_utf32_files_read_as_utf8(encoded: bytes) -> None:
    want = games(TWO.encode())
    assert len(want) == 2 and want[0].tags["Event"] == "Memoriál Tomáš"
    assert games(encoded) == want
    assert list(read_games_reference(io.BytesIO(encoded), "t.pgn")) == list(
        read_games_reference(io.BytesIO(TWO.encode()), "t.pgn")
    )
    assert game_cuts(io.BytesIO(encoded), len(encoded), 16) == [0, len(encoded)]


@pytest.mark.slow  # fuzzing: every cut of the lines, big files across blocks
def test_a_big_utf16_file_across_blocks() -> None:
    # Blocks of 1 MiB cut UTF-16 text anywhere (even inside a character: odd offsets).
    text = "".join(TWO.replace("Open", f"Open {i}") for i in range(8000)) + "x"
    encoded = text.encode("utf-16")
    assert len(encoded) > 3 * BLOCK
    assert games(encoded) == games(text.encode())


def test_cr_only_line_ends_are_lines() -> None:
    lf = TWO.encode()
    got = games(lf.replace(b"\n", b"\r"))
    assert got == games(lf)
    assert [g.line for g in got] == [1, 9]
    assert list(read_games_reference(io.BytesIO(lf.replace(b"\n", b"\r")), "t.pgn")) == list(
        read_games_reference(io.BytesIO(lf), "t.pgn")
    )


def test_a_crlf_split_between_blocks_is_one_line_end() -> None:
    game = b'[Event "E"]\r\n[White "A"]\r\n[Black "B"]\r\n\r\n1. e4 e5 1-0\r\n\r\n'
    data = b"%" + b"x" * (BLOCK - 2) + b"\r\n" + game * 4  # an escape line, then games
    assert data[BLOCK - 1 : BLOCK + 1] == b"\r\n"
    got = games(data)
    assert [g.line for g in got] == [2, 8, 14, 20]
    assert [g.tags["White"] for g in got] == ["A"] * 4 and not any(g.problems for g in got)


# ---- bug 24: stray CR characters


def test_a_stray_cr_between_tags_ends_the_line() -> None:
    lf = TWO.encode()
    data = lf.replace(b'[Site "Brno"]\n', b'[Site "Brno"]\r')
    got = games(data)
    assert got[0].tags == games(lf)[0].tags and got[0].problems == ()
    assert [g.line for g in got] == [1, 9]  # the CR counts as the line end it replaced


def test_a_line_starting_with_a_cr_makes_no_phantom_game() -> None:
    lf = TWO.encode()
    data = lf.replace(b'\n\n[Event "Open"]', b'\n\n\r[Event "Open"]')
    got = games(data)
    assert [g.tags for g in got] == [g.tags for g in games(lf)]
    assert not any(g.problems for g in got)
    assert [g.line for g in got] == [1, 10]


def test_cuts_see_a_cr_alone_as_a_line_end() -> None:
    # "abc\r[Event ...]" is two lines: the second, a tag line, is the last before the blank
    # line, so the header block goes on after it (ChessBase's blank line): no cut there.
    game = b'[Event "A"]\n[White "W"]\n[Black "B"]\n\n1. e4 e5 1-0\n\n'
    tricky = b'[Event "T"]\n\n1. d4 d5\rabc\r[Event "B"]\n\n[White "W"]\n\n1. c4 1-0\n\n'
    data = (game * 3 + tricky) * 10
    whole = games(data)
    cuts = game_cuts(io.BytesIO(data), len(data), 37)
    assert len(cuts) > 10
    parts: list[RawGame] = []
    first = 1
    for start, end in itertools.pairwise(cuts):
        part = data[start:end]
        parts += read_games(io.BytesIO(part), "t.pgn", first)
        count = LineCount()
        count.feed(part)
        first += count.lines
    assert parts == whole
    assert [g.tags.get("White") for g in whole[3:5]] == [None, "W"]


# ---- bug 17: --validate: no python-chess log lines; the line of the bad move

BAD = (
    '[Event "Club2"]\n[White "A, B"]\n[Black "C, D"]\n[Result "0-1"]\n\n1. d4 d5\n'
    "{a comment\nover two lines} 2. c4\nBb7 0-1\n"
)


def test_validate_moves_gives_the_line_of_the_bad_move(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        found = validate_moves(BAD, first_line=10)
    assert [(line, text.split(" in ")[0]) for line, text in found] == [(18, "illegal san: 'Bb7'")]
    assert caplog.records == []  # python-chess logged nothing
    assert validate_moves(BAD.replace("Bb7", "Nc6"), first_line=10) == []


@pytest.mark.slow  # tracker in a subprocess
def test_validate_logs_nothing_to_stderr() -> None:
    # As a user saw it: without logging set up, python-chess's errors went to stderr.
    code = (
        "import sys; from tracker.pgn import validate_moves; "
        "print(validate_moves(sys.stdin.read()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=BAD,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=subprocess_env(),
        check=True,
    )
    assert "illegal san: 'Bb7'" in done.stdout
    assert done.stderr == ""


@pytest.mark.parametrize(
    "encode",
    [
        lambda t: t.encode(),
        lambda t: t.replace("\n", "\r").encode(),  # old Mac
        lambda t: t.replace("\n", "\r\n").encode("utf-16"),  # Windows PowerShell
    ],
    ids=["lf", "cr", "utf16"],
)
def test_text_lines_are_the_lines_read_games_numbers(encode: Callable[[str], bytes]) -> None:
    text = TWO + "\n" + BAD
    data = encode(text)
    lines = list(text_lines(io.BytesIO(data), "t.pgn"))
    assert "".join(lines) == text
    found = []
    for g in games(data):
        end = next((h.line for h in games(data) if h.line > g.line), len(lines) + 1)
        found += validate_moves("".join(lines[g.line - 1 : end - 1]), g.line)
    assert [line for line, _ in found] == [24]
    assert lines[23] == "Bb7 0-1\n"


@pytest.mark.slow  # fuzzing: every cut of the lines, big files across blocks
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([b"\n", b"\r", b"\r\n", b"\r\r\n", b"a", b'[E "x"]', b"\n\n"]), max_size=60
    ),
    st.lists(st.integers(0, 200), max_size=6),
)
def test_line_count_counts_lines_as_read_games_does(pieces: list[bytes], at: list[int]) -> None:
    # For the lines of a part read in pieces (the import's workers number their games so).
    data = b"".join(pieces)
    want = len(list(text_lines(io.BytesIO(data + b"x"), "t.pgn"))) - 1
    count = LineCount()
    for start, end in itertools.pairwise(sorted({min(a, len(data)) for a in at} | {0, len(data)})):
        count.feed(data[start:end])
    assert count.lines == want


def test_cr_cr_lf_is_one_line_end() -> None:
    # A CRLF file copied once more in text mode: CR CR LF, one line end (as grep -n counts).
    lf = TWO.encode()
    got = games(lf.replace(b"\n", b"\r\r\n"))
    assert got == games(lf)
    assert [g.line for g in got] == [1, 9]
