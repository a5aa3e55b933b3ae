"""Reading real-world PGN: fast, lenient, and checked against python-chess.

`read_games(stream, source)` yields one `RawGame` per game of a binary stream. It never
parses moves one by one: it splits the bytes into games, parses the tag pairs and hashes the
mainline move tokens. `read_games_reference` does the same through python-chess (the
reference the corpus test compares against); `validate_game` replays moves (`--validate`).

What a game is (python-chess's rules, with two documented differences)
-----------------------------------------------------------------------
- A game is a header block of tag lines (`[Name "value"]`) and the movetext after it. The
  movetext ends at a blank line outside a `{...}` comment. Lines starting with `%` (escape)
  and, outside the movetext, `;` are ignored, as in python-chess.
- One blank line inside a header block (ChessBase writes it) does not end the block; nor do
  several, unless the next tag name was already given (then it starts a new game: a game
  without moves followed by the next game).
- Difference 1: a header block followed by two or more blank lines before its moves is ONE
  game. python-chess reads a game without moves followed by a game without tags.
- Difference 2: a tag line right after a movetext line (no blank line between them, outside a
  comment) starts a new game; python-chess would read it as more movetext. Also, a line that
  starts with `[` and a letter or digit after a blank line always starts a new game, even
  inside a comment left open (an unbalanced `{` would otherwise swallow the rest of the file
  in python-chess): the comment is closed there with a problem.
- Text outside any game (moves without a header block, binary junk) is yielded as a
  `RawGame` with NO tags and a problem: it is not a game; report its problem, store nothing.

Tags: values are decoded per line (see `decode_text`) and unescaped (`\\"` -> `"`,
`\\\\` -> `\\`; python-chess keeps the backslashes: the reference unescapes them the same
way). A tag given twice keeps the last value (as python-chess does) with a problem. A tag
line that does not parse is ignored with a problem. At most `MAX_TAGS` tags and
`MAX_VALUE` characters per value are kept.

Identity of the moves: `moves_digest` is the BLAKE2b-128 hex digest of the mainline move
tokens as python-chess's tokenizer finds them (SAN as written without `+ # ! ?`, castling,
null moves; comments, `;` comments, variations, NAGs, move numbers, results and whitespace
dropped), joined by single spaces; "" when there is no move (then `has_moves` is False).

Problems: `RawGame.problems` holds sentences about that game. When a problem concerns a
line other than the game's first, the sentence starts with `line N: `; `problem_location`
splits that off so a report can say `file:N: message`. Reading never raises for bad
content; a stream that cannot be read at all (damaged archive) raises `BadInput`.

Bounded memory: the stream is read in blocks; a line longer than `MAX_LINE` bytes is cut
(with a problem), movetext is hashed as it streams, so no game holds more than its tags.
"""

from __future__ import annotations

import hashlib
import io
import lzma
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, BinaryIO

from tracker.errors import BadInput
from tracker.model import RawGame

MAX_LINE = 1 << 20
"""Longest line kept (bytes); the rest of a longer line is dropped with a problem."""
MAX_TAGS = 500
"""Most tags kept per game; further tags are dropped with one problem."""
MAX_VALUE = 4096
"""Longest tag value kept (characters); a longer value is cut with a problem."""

BLOCK = 1 << 20
"""Bytes read from the stream at a time."""

# ---------------------------------------------------------------------------------------
# Decoding

_CP1252_HIGH = bytes(range(0x80, 0xA0)).decode("cp1252", errors="replace")
# cp1252 leaves 0x81, 0x8D, 0x8F, 0x90, 0x9D undefined: those stay Latin-1 (C1 controls).
_CP1252_TABLE = {
    0x80 + i: (ch if ch != "\ufffd" else chr(0x80 + i)) for i, ch in enumerate(_CP1252_HIGH)
}
_C1 = re.compile(rb"[\x80-\x9f]")


def _dos_letter(byte: int) -> bool:
    """True when `byte` is a letter in DOS code page 437 but not in Windows-1252."""
    return bytes([byte]).decode("cp437").isalpha() and not _CP1252_TABLE[byte].isalpha()


_DOS_LETTERS = frozenset(b for b in range(0x80, 0xA0) if _dos_letter(b))


def decode_text(data: bytes) -> str:
    """Bytes of a PGN line (or any PGN text) as str, whatever encoding the writer used.

    Policy: UTF-8 when the bytes are valid UTF-8 (a byte order mark is dropped, also in the
    middle of the text). Otherwise a single-byte code page: Windows-1252 (a superset of the
    printable Latin-1, so "\\xc9l" is "Él"), except when a byte 0x80-0x9F occurs that is a
    letter in DOS code page 437 and punctuation (or nothing) in Windows-1252: then the text is
    DOS code page 437, as ChessBase-era DOS tools wrote it ("Andr\\x82" is "André"). Bytes
    0xA0-0xFF alone never switch to DOS: "\\xa0" stays a no-break space. Never raises.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        if any(b in _DOS_LETTERS for m in _C1.finditer(data) for b in m.group()):
            text = data.decode("cp437")
        else:
            text = data.decode("latin-1").translate(_CP1252_TABLE)
    if "\ufeff" in text:
        text = text.replace("\ufeff", "")
    return text


# ---------------------------------------------------------------------------------------
# Tokens (python-chess's MOVETEXT_REGEX and TAG_REGEX, mirrored)

_TAG_LINE = re.compile(r"^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+\"([^\r]*)\"\]\s*$")
_MOVE = (
    rb"[NBKRQ]?[a-h]?[1-8]?[\-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?"
    rb"|[PNBRQK]?@[a-h][1-8]|--|Z0|0000|@@@@|O-O(?:-O)?|0-0(?:-0)?"
)
_TOKEN = re.compile(
    rb"(" + _MOVE + rb")|(\{)|(;)|(\$[0-9]+)|(\()|(\))|(\*|1-0|0-1|1/2-1/2)|([\?!]{1,2})"
)
_RESULTS = frozenset((b"*", b"1-0", b"0-1", b"1/2-1/2"))
_UNESCAPE = re.compile(r"\\([\\\"])")
_GAME_START = re.compile(rb"\[[A-Za-z0-9]")
_BOM = b"\xef\xbb\xbf"


def _digest() -> Any:
    return hashlib.blake2b(digest_size=16)


def _unescape(value: str) -> str:
    return _UNESCAPE.sub(r"\1", value) if "\\" in value else value


def problem_location(game: RawGame, problem: str) -> tuple[int, str]:
    """The line a problem of `game` concerns and its message without the `line N: ` prefix."""
    if problem.startswith("line "):
        head, sep, rest = problem[5:].partition(": ")
        if sep and head.isdigit():
            return int(head), rest
    return game.line, problem


# ---------------------------------------------------------------------------------------
# The line machine: the exact rules, one line at a time (the fast path defers to it for
# anything unusual).

_IDLE, _HEADER, _GAP, _MOVES, _JUNK = range(5)


class _Machine:
    """Feeds on lines (bytes without the newline) and completes games."""

    def __init__(self) -> None:
        self.state = _IDLE
        self._reset(0)

    def _reset(self, line: int) -> None:
        self.line = line
        self.tags: dict[str, str] = {}
        self.problems: list[str] = []
        self.hasher: Any = None
        self.ntokens = 0
        self.in_comment = False
        self.comment_line = 0
        self.stack = [0]
        self.dropped_tags = 0

    # -- results

    def _game(self) -> RawGame:
        if self.in_comment:
            self.problems.append(
                f"line {self.comment_line}: a comment opened with {{ is never closed"
            )
        if self.dropped_tags:
            self.problems.append(f"{self.dropped_tags} tags beyond the first {MAX_TAGS} ignored")
        if self.state == _JUNK:
            game = RawGame({}, "", False, self.line, tuple(self.problems))
        else:
            digest = self.hasher.hexdigest() if self.ntokens else ""
            game = RawGame(self.tags, digest, self.ntokens > 0, self.line, tuple(self.problems))
        self.state = _IDLE
        self._reset(0)
        return game

    def finish(self) -> RawGame | None:
        """The game in progress at the end of the stream, if any."""
        if self.state == _IDLE:
            return None
        return self._game()

    # -- lines

    def feed(self, text: bytes, lineno: int) -> RawGame | None:
        """Consume one line; return a game that this line completed, if any."""
        state = self.state
        if self.in_comment:
            if not text.strip():
                return None
            if _GAME_START.match(text) and self.blank_before:
                done = self._game()
                self._start_header(text, lineno)
                return done
            self._movetext(text, lineno)
            return None
        blank = not text.strip()
        if blank:
            if state == _HEADER:
                self.state = _GAP
            elif state == _MOVES:
                return self._game()
            return None
        first = text[:1]
        if first == b"%":
            return None
        if state == _IDLE:
            if first == b";":
                return None
            if first == b"[":
                self._start_header(text, lineno)
            else:
                self._start_junk(text, lineno)
            return None
        if state in (_HEADER, _GAP):
            if first == b";":
                return None
            if first == b"[":
                if state == _GAP:
                    name = self._tag_name(text)
                    if name is not None and name in self.tags:
                        done = self._game()
                        self._start_header(text, lineno)
                        return done
                self.state = _HEADER
                self._tag(text, lineno)
                return None
            self.state = _MOVES
            self._movetext(text, lineno)
            return None
        if state == _JUNK:
            if first == b"[" and _GAME_START.match(text):
                done = self._game()
                self._start_header(text, lineno)
                return done
            return None
        # _MOVES
        if first == b";":
            return None
        if first == b"[" and self._tag_name(text) is not None:
            done = self._game()
            self._start_header(text, lineno)
            return done
        self._movetext(text, lineno)
        return None

    def _start_header(self, text: bytes, lineno: int) -> None:
        self._reset(lineno)
        self.state = _HEADER
        self._tag(text, lineno)

    def _start_junk(self, text: bytes, lineno: int) -> None:
        self._reset(lineno)
        self.state = _JUNK
        self.problems.append("text outside any game (no tag header before it): ignored")

    @staticmethod
    def _tag_name(text: bytes) -> str | None:
        m = _TAG_LINE.match(decode_text(text))
        return m.group(1) if m else None

    def _tag(self, text: bytes, lineno: int) -> None:
        line = decode_text(text)
        m = _TAG_LINE.match(line)
        if m is None:
            shown = line if len(line) <= 60 else line[:57] + "..."
            self.problems.append(f"line {lineno}: not a tag pair, ignored: {shown}")
            return
        name, value = m.group(1), _unescape(m.group(2))
        if name in self.tags:
            self.problems.append(f"line {lineno}: tag {name} given twice; the last is kept")
        elif len(self.tags) >= MAX_TAGS:
            self.dropped_tags += 1
            return
        if len(value) > MAX_VALUE:
            self.problems.append(
                f"line {lineno}: tag {name} is longer than {MAX_VALUE} characters: cut"
            )
            value = value[:MAX_VALUE]
        self.tags[name] = value

    def _movetext(self, text: bytes, lineno: int) -> None:
        pos = 0
        if self.in_comment:
            close = text.find(b"}")
            if close < 0:
                return
            self.in_comment = False
            pos = close + 1
        stack = self.stack
        search = _TOKEN.search
        while True:
            m = search(text, pos)
            if m is None:
                return
            pos = m.end()
            move = m.group(1)
            if move is not None:
                stack[-1] += 1
                if len(stack) == 1:
                    self._token(move)
                continue
            kind = m.lastindex
            if kind == 2:  # {
                close = text.find(b"}", pos)
                if close < 0:
                    self.in_comment = True
                    self.comment_line = lineno
                    return
                pos = close + 1
            elif kind == 3:  # ;
                return
            elif kind == 5:  # (
                if stack[-1] > 0:
                    stack.append(stack[-1] - 1)
            elif kind == 6:  # )
                if len(stack) > 1:
                    stack.pop()
            elif kind == 7 and len(stack) > 1:  # a result inside a variation: a "move"
                stack[-1] += 1

    def _token(self, token: bytes) -> None:
        if self.hasher is None:
            self.hasher = _digest()
            self.hasher.update(token)
        else:
            self.hasher.update(b" " + token)
        self.ntokens += 1

    blank_before = False


# ---------------------------------------------------------------------------------------
# Lines from a stream, in blocks, with the line cap.

_READ_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error, zipfile.BadZipFile)


def _blocks(stream: BinaryIO, source: str) -> Iterator[bytes]:
    while True:
        try:
            block = stream.read(BLOCK)
        except _READ_ERRORS as exc:
            raise BadInput(
                f"{source}: the file cannot be read to the end ({exc}); is it damaged?"
            ) from None
        if not block:
            return
        yield block


def _lines(stream: BinaryIO, source: str) -> Iterator[tuple[bytes, int, str | None]]:
    """(line without newline or trailing CR, 1-based number, problem or None)."""
    lineno = 0
    rest = b""
    cut = False  # inside an over-long line whose rest is being dropped
    for block in _blocks(stream, source):
        data = rest + block if rest else block
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            if cut:
                cut = False
            else:
                lineno += 1
                line = data[start:end]
                if len(line) > MAX_LINE:
                    yield _clean(line[:MAX_LINE]), lineno, _cut_problem(lineno)
                else:
                    yield _clean(line), lineno, None
            start = end + 1
        rest = data[start:]
        if not cut and len(rest) > MAX_LINE:
            lineno += 1
            yield _clean(rest[:MAX_LINE]), lineno, _cut_problem(lineno)
            cut = True
            rest = b""
        elif cut:
            rest = b""
    if rest and not cut:
        lineno += 1
        yield _clean(rest), lineno, None


def _cut_problem(lineno: int) -> str:
    return f"line {lineno}: longer than {MAX_LINE} bytes: the rest of the line is ignored"


def _clean(line: bytes) -> bytes:
    if line.endswith(b"\r"):
        line = line[:-1]
    if _BOM in line:
        line = line.replace(_BOM, b"")
    return line


def read_games_slow(stream: BinaryIO, source: str) -> Iterator[RawGame]:
    """`read_games` line by line (the rules themselves; the fast path must agree)."""
    machine = _Machine()
    blank_before = True
    line_problems: list[str] = []
    for text, lineno, problem in _lines(stream, source):
        if problem is not None:
            line_problems.append(problem)
        machine.blank_before = blank_before
        done = machine.feed(text, lineno)
        blank_before = not text.strip()
        if line_problems:
            if machine.state != _IDLE:
                machine.problems.extend(line_problems)
                line_problems.clear()
            elif done is not None:
                done = replace(done, problems=done.problems + tuple(line_problems))
                line_problems.clear()
        if done is not None:
            yield done
    done = machine.finish()
    if done is not None:
        yield done


def read_games(stream: BinaryIO, source: str) -> Iterator[RawGame]:
    """Every game of a binary PGN stream, in order (see the module docstring)."""
    return read_games_slow(stream, source)


# ---------------------------------------------------------------------------------------
# The reference: python-chess


def read_games_reference(stream: BinaryIO, source: str) -> Iterator[RawGame]:
    """The games of `stream` as python-chess reads them (`chess.pgn.read_game`).

    Lines are decoded with `decode_text`; tags are python-chess's (values unescaped as in
    `read_games`); the digest is built from the move tokens python-chess's tokenizer hands
    to the visitor on the mainline (moves are not replayed: each token advances a null move
    so python-chess tracks variations as it does with real moves). python-chess's own game
    boundaries are kept, so a header block followed by two blank lines comes out as two
    games (see the module docstring); `line` is the line of the game's first tag.
    """
    import chess
    import chess.pgn

    raw = b"".join(_blocks(stream, source))
    text = "".join(decode_text(line) for line in io.BytesIO(raw))
    handle = _CountingText(text)

    class Visitor(chess.pgn.BaseVisitor[RawGame]):
        def begin_game(self) -> None:
            self.line = handle.lineno
            self.tags: dict[str, str] = {}
            self.depth = 0
            self.tokens: list[str] = []
            self.problems: list[str] = []

        def visit_header(self, tagname: str, tagvalue: str) -> None:
            self.tags[tagname] = _unescape(tagvalue)

        def begin_parse_san(self, board: chess.Board, san: str) -> Any:
            if self.depth == 0:
                self.tokens.append(san)
            board.push(chess.Move.null())
            return chess.pgn.SKIP

        def begin_variation(self) -> None:
            self.depth += 1

        def end_variation(self) -> None:
            self.depth -= 1

        def handle_error(self, error: Exception) -> None:
            self.problems.append(str(error))

        def result(self) -> RawGame:
            digest = ""
            if self.tokens:
                h = _digest()
                h.update(" ".join(self.tokens).encode("ascii"))
                digest = h.hexdigest()
            return RawGame(self.tags, digest, bool(self.tokens), self.line, tuple(self.problems))

    while True:
        game = chess.pgn.read_game(handle, Visitor=Visitor)
        if game is None:
            return
        yield game


class _CountingText(io.StringIO):
    """A text stream that counts the lines read so far."""

    lineno = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline(-1 if size is None else size)
        if line:
            self.lineno += 1
        return line


# ---------------------------------------------------------------------------------------
# --validate


def validate_game(text: str) -> list[str]:
    """Replay the moves of one game's PGN text with python-chess; the problems found.

    An empty list means every mainline and variation move is legal from the game's start
    position (FEN/SetUp and Variant tags honoured).
    """
    import chess.pgn

    try:
        game = chess.pgn.read_game(io.StringIO(text))
    except Exception as exc:  # python-chess is lenient; anything else is a problem too
        return [f"cannot be read: {exc}"]
    if game is None:
        return ["no game found"]
    return [str(e) for e in game.errors]


__all__ = [
    "BLOCK",
    "MAX_LINE",
    "MAX_TAGS",
    "MAX_VALUE",
    "decode_text",
    "problem_location",
    "read_games",
    "read_games_reference",
    "read_games_slow",
    "validate_game",
]
