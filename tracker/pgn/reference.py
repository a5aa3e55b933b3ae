"""python-chess as the reference reader, and `--validate` (the only users of `chess`)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any, BinaryIO, Self

import chess
import chess.pgn

from tracker.model import RawGame
from tracker.pgn.decode import decode_text, unescape
from tracker.pgn.moves import digest_of, moves_end
from tracker.pgn.stream import blocks

_NULL = chess.Move.null()


class _CountingBoard(chess.Board):
    """A board that only counts the moves pushed on it: `push` appends to `move_stack`,
    `pop` takes the last one off, `copy` copies the position and the count. That is all
    python-chess's variation handling looks at when the visitor skips each move (`(` opens
    a variation on a copy of a board that has a move, minus its last one), and it costs a
    tenth of a real `push` of a null move."""

    def push(self, move: chess.Move) -> None:
        self.move_stack.append(move)

    def pop(self) -> chess.Move:
        return self.move_stack.pop()

    def copy(self, *, stack: bool | int = True) -> Self:
        board = super().copy(stack=False)
        board.move_stack = list(self.move_stack)
        return board


_COUNTING: dict[type[chess.Board], type[chess.Board]] = {chess.Board: _CountingBoard}


def _counting(board: type[chess.Board]) -> type[chess.Board]:
    """`_CountingBoard` for a variant's board class (three-check, crazyhouse...)."""
    found = _COUNTING.get(board)
    if found is None:
        found = _COUNTING[board] = type(f"Counting{board.__name__}", (_CountingBoard, board), {})
    return found


class _Headers(chess.pgn.Headers):
    """The tags as python-chess keeps them, handing it a counting board for the game."""

    def variant(self) -> type[chess.Board]:
        return _counting(super().variant())


class _CountingText(io.StringIO):
    """A text stream that counts the lines read so far."""

    lineno = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline(-1 if size is None else size)
        if line:
            self.lineno += 1
        return line


def read_games_reference(stream: BinaryIO, source: str) -> Iterator[RawGame]:
    """The games of `stream` as python-chess reads them (`chess.pgn.read_game`).

    Each line is decoded with `decode_text` (python-chess reads text); tags are python-chess's
    (values unescaped as `read_games` does: python-chess keeps the backslashes). The moves
    digest is built from the tokens python-chess's own tokenizer hands the visitor on the
    mainline (SAN as written, without `+ # ! ?`), each white move preceded by its number and
    a dot (counted from the start position), concatenated; moves are not replayed:
    each token is counted on the board's move stack, so that python-chess opens and closes
    variations exactly as it would with the real moves. python-chess's game boundaries are
    kept as they are (a header block followed by two blank lines comes out as two games; see
    `tracker.pgn`); `line` is the line of the game's first tag (or first movetext line for a
    game without tags); `moves_end` from the result tokens python-chess hands over on the
    mainline (the last one, unless a move follows it).
    """
    raw = b"".join(blocks(stream, source))
    text = "".join(decode_text(line) for line in io.BytesIO(raw))
    handle = _CountingText(text)

    class Visitor(chess.pgn.BaseVisitor[RawGame]):
        def begin_game(self) -> None:
            self.line = handle.lineno
            self.tags: dict[str, str] = {}
            self.depth = 0
            self.tokens: list[str] = []
            self.problems: list[str] = []
            self.end = ""  # the result the mainline ends with ("": none after its last move)

        def begin_headers(self) -> chess.pgn.Headers:
            self.headers = _Headers({})
            return self.headers

        def visit_header(self, tagname: str, tagvalue: str) -> None:
            self.headers[tagname] = tagvalue
            self.tags[tagname] = unescape(tagvalue)

        def begin_parse_san(self, board: chess.Board, san: str) -> Any:
            if self.depth == 0:
                self.end = ""
                if not self.tokens:
                    self.white = board.turn == chess.WHITE
                    self.number = board.fullmove_number
                if self.white:
                    self.tokens.append(f"{self.number}.{san}")
                else:
                    self.tokens.append(san)
                    self.number += 1
                self.white = not self.white
            # Counted, not replayed: python-chess opens and closes variations by the move
            # stack (a `_CountingBoard`, or a real board when the Variant tag is unknown).
            board.push(_NULL)
            return chess.pgn.SKIP

        def visit_result(self, result: str) -> None:
            self.end = result  # (python-chess hands over the mainline's result tokens)

        def begin_variation(self) -> None:
            self.depth += 1

        def end_variation(self) -> None:
            self.depth -= 1

        def handle_error(self, error: Exception) -> None:
            self.problems.append(str(error))

        def result(self) -> RawGame:
            canon = "".join(self.tokens).encode("ascii", "replace")
            return RawGame(
                self.tags,
                digest_of(canon),
                bool(canon),
                self.line,
                tuple(self.problems),
                moves_end(self.end, self.tags),
            )

    while True:
        game = chess.pgn.read_game(handle, Visitor=Visitor)
        if game is None:
            return
        yield game


class _QuietBuilder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder that keeps each error with the line it was found on,
    without logging it (python-chess logs every error to stderr when logging is not set up:
    noise on top of our own warning)."""

    def __init__(self, handle: _CountingText, found: list[tuple[int, str]], first: int) -> None:
        super().__init__()
        self._handle = handle
        self._found = found
        self._first = first

    def handle_error(self, error: Exception) -> None:
        line = self._first + max(self._handle.lineno, 1) - 1
        self._found.append((line, str(error)))
        self.game.errors.append(error)


def validate_moves(text: str, first_line: int = 1) -> list[tuple[int, str]]:
    """Replay the moves of one game's PGN text with python-chess: each problem found, with
    the number of its line (`first_line` is the number of the text's first line; the line of
    an illegal move is the line it is written on). [] when all is legal: every mainline and
    variation move from the game's start position (FEN/SetUp and Variant tags honoured).
    Nothing is logged."""
    handle = _CountingText(text)
    found: list[tuple[int, str]] = []
    try:
        game = chess.pgn.read_game(handle, Visitor=lambda: _QuietBuilder(handle, found, first_line))
    except Exception as exc:  # noqa: BLE001 - lenient reader; anything else is a problem too
        return [(first_line, f"cannot be read: {exc}")]
    if game is None:
        return [(first_line, "no game found")]
    return found
