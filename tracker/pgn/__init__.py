"""Reading real-world PGN: fast, lenient, and checked against python-chess.

`read_games(stream, source)` yields one `RawGame` per game of a binary stream, without
replaying moves: it splits the bytes into games, parses the tag pairs and hashes the
canonical mainline, so that an import is quick and a bad game costs a problem, never the
run. `read_games_reference` reads the same through python-chess (the corpus test requires
both to agree); `validate_moves` replays one game's moves (`--validate`). What a game is,
where we differ from python-chess, and how memory stays bounded: docs/architecture.md,
section tracker/pgn/.

Modules, one job each: `stream` (the bytes as whole LF-ended lines), `decode` (a line's
bytes as text), `moves` (the canonical mainline and its digest), `machine` (the reading
rules, one line at a time), `scan` (`read_games`, the fast path, and `game_cuts`),
`reference` (python-chess, the only module importing `chess`), `native` (whether the C
extension `_speedups` does the per-game work; `TRACKER_PURE_PYTHON=1` turns it off).
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
