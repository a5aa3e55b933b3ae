"""Bugs found by the QA engineer's exploratory test in `tracker.pgn` (each test failed before
its fix): Windows-1252 punctuation read as DOS code page 437 (bug 3), UTF-16 files and
CR-only line ends (bug 10), `--validate` log noise and the line of a bad move (bug 17), stray
CR characters (bug 24). The PGN bytes are written here by hand (fictitious names)."""

from __future__ import annotations

import codecs
import io
import itertools
import logging
import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import REPO, subprocess_env
from tracker.model import RawGame
from tracker.pgn import (
    LineCount,
    decode_text,
    read_games,
    read_games_reference,
    read_games_slow,
    text_lines,
    validate_moves,
)
from tracker.pgn.scan import game_cuts
from tracker.pgn.stream import BLOCK


def games(data: bytes) -> list[RawGame]:
    """The fast reader's games; the line machine alone must give exactly the same."""
    fast = list(read_games(io.BytesIO(data), "t.pgn"))
    assert fast == list(read_games_slow(io.BytesIO(data), "t.pgn"))
    return fast


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
    data = (b'[Event "Memori\xe1l \x96 Brno"]\n[White "O\x92Brien, Se\xe1n"]\n'
            b'[Black "M\xfcller, J"]\n[Date "2025.10.04"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n')
    (g,) = games(data)
    assert g.tags["Event"] == "Memoriál – Brno"
    assert (g.tags["White"], g.tags["Black"]) == ("O’Brien, Seán", "Müller, J")
    assert g.problems == ()
    (r,) = read_games_reference(io.BytesIO(data), "t.pgn")
    assert r.tags == g.tags


# ---- bug 10: UTF-16 (and UTF-32) files, CR-only line ends

TWO = ('[Event "Memoriál Tomáš"]\n[Site "Brno"]\n[White "Müller, Jürgen"]\n[Black "Ng, A"]\n'
       '[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event "Open"]\n[White "Ng, A"]\n'
       '[Black "Müller, Jürgen"]\n[Result "0-1"]\n\n1. d4 {Ž} d5 0-1\n')


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
        read_games_reference(io.BytesIO(TWO.encode()), "t.pgn"))
    assert game_cuts(io.BytesIO(encoded), len(encoded), 16) == [0, len(encoded)]


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
        read_games_reference(io.BytesIO(lf), "t.pgn"))


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

BAD = ('[Event "Club2"]\n[White "A, B"]\n[Black "C, D"]\n[Result "0-1"]\n\n1. d4 d5\n'
       '{a comment\nover two lines} 2. c4\nBb7 0-1\n')


def test_validate_moves_gives_the_line_of_the_bad_move(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        found = validate_moves(BAD, first_line=10)
    assert [(line, text.split(" in ")[0]) for line, text in found] == [(18, "illegal san: 'Bb7'")]
    assert caplog.records == []  # python-chess logged nothing
    assert validate_moves(BAD.replace("Bb7", "Nc6"), first_line=10) == []


def test_validate_logs_nothing_to_stderr() -> None:
    # As a user saw it: without logging set up, python-chess's errors went to stderr.
    code = ("import sys; from tracker.pgn import validate_moves; "
            "print(validate_moves(sys.stdin.read()))")
    done = subprocess.run([sys.executable, "-c", code], input=BAD, capture_output=True,
                          text=True, cwd=REPO, env=subprocess_env(), check=True)
    assert "illegal san: 'Bb7'" in done.stdout
    assert done.stderr == ""


@pytest.mark.parametrize("encode", [
    lambda t: t.encode(),
    lambda t: t.replace("\n", "\r").encode(),  # old Mac
    lambda t: t.replace("\n", "\r\n").encode("utf-16"),  # Windows PowerShell
], ids=["lf", "cr", "utf16"])
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


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"\n", b"\r", b"\r\n", b"\r\r\n", b"a", b'[E "x"]', b"\n\n"]),
                max_size=60),
       st.lists(st.integers(0, 200), max_size=6))
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
