"""Reading real-world PGN: fast, lenient, and checked against python-chess.

`read_games(stream, source)` yields one `RawGame` per game of a binary stream. It never
replays moves: it splits the bytes into games, parses the tag pairs and hashes the canonical
mainline (`tracker.pgn.moves`). `read_games_reference` reads the same through python-chess
(the corpus test requires both to agree); `validate_moves` replays moves (`--validate`) of
one game's text, read by `text_lines` (the lines as `read_games` numbers them).

What a game is (python-chess's rules, with two documented differences)
-----------------------------------------------------------------------
- A game is a header block of tag lines (`[Name "value"]`) and the movetext after it. The
  movetext ends at a blank line outside a `{...}` comment (a line of spaces is blank).
  Lines starting with `%` (escape) are ignored, and so are lines starting with `;` outside
  the moves, as in python-chess. Line ends may be LF, CRLF (or CR CR LF) or CR alone (old
  Mac files; a stray CR in a LF file also ends a line and counts as one); byte order
  marks are dropped wherever they are (files concatenated into one stream). A UTF-16 or
  UTF-32 stream (by its byte order mark, or UTF-16 starting with a tag) is read as UTF-8.
- One blank line inside a header block (ChessBase writes one) does not end the block; nor
  do several, unless the next tag name was already given in the block: then it starts a
  new game (the first one had no moves).
- Difference 1: a header block followed by two or more blank lines before its moves is ONE
  game; python-chess reads a game without moves followed by a game without tags (17 header
  blocks of the real-PGN test corpus are written so).
- Difference 2: a tag line right after a movetext line (no blank line between, outside a
  comment) starts a new game; python-chess reads the whole header block as more movetext
  of the game before (2 cases in the corpus). Likewise a line starting with `[` and a letter
  or digit after a blank line always starts a game, even inside a comment left open (an
  unbalanced `{` would otherwise swallow the rest of the file): the comment ends there,
  with a problem.
- Text outside any game (moves without a header block, binary junk) comes out as a
  `RawGame` with NO tags and a problem: it is not a game; report its problem, store nothing.

Tags: values are decoded line by line (`decode_text`: UTF-8, else Windows-1252, or DOS code
page 437 when its letters show and the line reads better so) and unescaped (`\\"` -> `"`,
`\\\\` -> `\\`). A tag given twice keeps the last value (as python-chess does) with a
problem; a line starting with `[` that is not a tag pair is ignored with a problem. At most
`MAX_TAGS` tags per game and `MAX_VALUE` characters per value are kept (more: a problem).

Moves: `moves_digest` is the BLAKE2b-128 hex digest of the canonical mainline (see
`tracker.pgn.moves`: comments, variations, NAGs, black's move numbers, result, `+#!?` and
whitespace removed; white's move numbers stay as written), "" when no move is left;
`has_moves` says whether there is one (a game without moves is a forfeit signal).

Problems: `RawGame.problems` holds sentences about the game. When one concerns a line other
than the game's first, it starts with `line N: `; `problem_location(game, problem)` splits
that off, so a report can print `file:N: message`. Reading never raises for bad content;
a stream that cannot be read at all (a damaged archive) raises `BadInput` naming the source.

Memory stays bounded whatever the input: blocks of 1 MiB, a line longer than `MAX_LINE`
bytes is cut (a problem), a game still open after `CARRY_CAP` bytes is read line by line
with its mainline hashed as it streams.

Parts: `game_cuts(stream, size, step)` gives offsets where a seekable file can be cut into
parts that read, one by one (`read_games(part, source, first_line=N)` with the number of
the part's first line), exactly as the whole file does. The importer parses a big plain
file in parts in two worker processes.

Modules, one job each: `stream` (the bytes as whole LF-ended lines: read errors, UTF-16/32,
line ends, the line cap, line counts), `decode` (a line's bytes as text), `moves` (the
canonical mainline and its digest), `machine` (the reading rules, one line at a time, and
`read_games_slow`), `scan` (`read_games`: the fast path over whole paragraphs, everything
else handed to the machine; `game_cuts`), `reference` (python-chess: the reference reader
and `--validate`; the only module importing `chess`), `native` (whether the C extension
`_speedups`, built from `_speedups.c` where a compiler exists, does the per-game work of
`stream` and `scan`: the same results; `TRACKER_PURE_PYTHON=1` turns it off;
`read_games_pure` never uses it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from tracker.model import RawGame
from tracker.pgn.decode import decode_text
from tracker.pgn.machine import MAX_TAGS, MAX_VALUE, read_games_slow
from tracker.pgn.scan import CARRY_CAP, game_cuts, read_games, read_games_pure
from tracker.pgn.stream import MAX_LINE, LineCount, text_lines


def problem_location(game: RawGame, problem: str) -> tuple[int, str]:
    """The line a problem of `game` concerns, and its message without the `line N: ` prefix."""
    if problem.startswith("line "):
        head, sep, rest = problem[5:].partition(": ")
        if sep and head.isdigit():
            return int(head), rest
    return game.line, problem


def read_games_reference(stream: BinaryIO, source: str) -> Iterator[RawGame]:
    """The games of `stream` as python-chess reads them (see `tracker.pgn.reference`)."""
    from tracker.pgn.reference import read_games_reference as reference

    return reference(stream, source)


def validate_moves(text: str, first_line: int = 1) -> list[tuple[int, str]]:
    """Replay one game's PGN text (its first line numbered `first_line`) with python-chess:
    (line, problem) for each problem, the line of a bad move being the line it is on."""
    from tracker.pgn.reference import validate_moves as validate

    return validate(text, first_line)


__all__ = [
    "CARRY_CAP",
    "LineCount",
    "MAX_LINE",
    "MAX_TAGS",
    "MAX_VALUE",
    "decode_text",
    "game_cuts",
    "problem_location",
    "read_games",
    "read_games_pure",
    "read_games_reference",
    "read_games_slow",
    "text_lines",
    "validate_moves",
]
