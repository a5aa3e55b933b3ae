"""The reading rules, one line at a time (standard library only).

`Machine` is the definition of what `read_games` yields; the fast scanner (`scan`) hands it
everything that is not a plain header block followed by plain movetext. `read_games_slow`
reads a whole stream through it alone (tests compare both paths). The lines come from
`stream.chunks`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import BinaryIO

from tracker.model import RawGame
from tracker.pgn.decode import decode_text, unescape
from tracker.pgn.moves import canonical, digest_of, has_move, moves_end, new_hasher, split_result
from tracker.pgn.stream import BOM, chunks, drop_boms

MAX_TAGS = 500
"""Most tags kept per game; further tags are dropped with one problem, except STORED_TAGS."""
STORED_TAGS = frozenset(
    {
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "WhiteElo",
        "BlackElo",
        "WhiteFideId",
        "BlackFideId",
        "WhiteTitle",
        "BlackTitle",
        "TimeControl",
        "EventDate",
        "Termination",
        "Variant",
        "FEN",
        "SetUp",
        "WhiteRatingDiff",
        "BlackRatingDiff",
        "WhiteRD",
        "BlackRD",
    }
)
"""The tags the importer reads: kept wherever they stand, even past MAX_TAGS (a game whose
White tag came after 500 others was skipped for want of a White player)."""
MAX_VALUE = 4096
"""Longest tag value kept (characters); a longer value is cut with a problem."""
KEPT_CAP = 1 << 18
"""Mainline text held before it is folded into the digest (bytes)."""

TAG_LINE = re.compile(r"^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+\"([^\r]*)\"\]\s*$")
"""python-chess's TAG_REGEX: what a tag line is, applied to one decoded line."""
GAME_START = re.compile(rb"\[[A-Za-z0-9]")
_SPECIAL = re.compile(rb"[{}();]")

IDLE, HEADER, GAP, MOVES, JUNK = range(5)


class Machine:
    """Feeds on lines (bytes without the newline) and completes games."""

    def __init__(self) -> None:
        self.state = IDLE
        self.blank_before = True  # the previous line was blank (or there was none)
        # the last line fed, when it opened a tag it never closed ("[Result "1-"): its line
        # and text as shown; at the end of the stream, the file was cut inside that tag
        self.open_tag: tuple[int, str] | None = None
        self._reset(0)

    def _reset(self, line: int) -> None:
        self.line = line
        self.tags: dict[str, str] = {}
        self.problems: list[str] = []
        self.kept: list[bytes] = []
        self.kept_len = 0
        self.hasher: hashlib.blake2b | None = None
        self.moved = False
        self.in_comment = False
        self.comment_line = 0
        self.depth = 0
        self.dropped_tags = 0
        self.nul_seen = False
        self.long_line = False  # a line of the moves was cut at MAX_LINE (`line_was_cut`)

    # -- games

    def _game(self) -> RawGame:
        if self.in_comment:
            self.problems.append(
                f"line {self.comment_line}: a comment opened with {{ is never closed"
            )
        if self.dropped_tags:
            self.problems.append(f"{self.dropped_tags} tags beyond the first {MAX_TAGS} ignored")
        if self.state == JUNK:
            game = RawGame({}, "", False, self.line, tuple(self.problems))
        else:
            canon, result = split_result(canonical(b"\n".join(self.kept), final=False))
            hasher = self.hasher
            if hasher is None:
                hex_digest = digest_of(canon)
            else:  # a long movetext, folded into the hash as it came
                hasher.update(canon)
                hex_digest = hasher.hexdigest() if self.moved or has_move(canon) else ""
            game = RawGame(
                self.tags,
                hex_digest,
                bool(hex_digest),
                self.line,
                tuple(self.problems),
                None if self.long_line else moves_end(result, self.tags),
            )
        self.state = IDLE
        self._reset(0)
        return game

    def finish(self) -> RawGame | None:
        """The game in progress, if any (at the end of the stream or before a new game). A
        stream that ends inside a tag ("[Result "1-" the last line) was cut short: that
        game's header is no game (only its problem, as text outside any game)."""
        if self.state == IDLE:
            return None
        cut = self.open_tag if self.state == HEADER else None
        if cut is None:
            return self._game()
        lineno, shown = cut
        self.problems = [
            p for p in self.problems if not p.startswith(f"line {lineno}: not a tag pair")
        ]
        self.problems.append(
            f"line {lineno}: the file ends inside a tag ({shown}): it was cut short; the game "
            f"of line {self.line} is not read (download or copy the file again)"
        )
        self.state = JUNK
        return self._game()

    def add_problem(self, problem: str) -> None:
        self.problems.append(problem)

    def line_was_cut(self) -> None:
        """The line just fed was longer than MAX_LINE, its rest dropped by the reader (with
        its own problem). A line of the moves: how they end cannot be told (the result may
        be in what was dropped), so the game's `moves_end` is None, as for moves that end
        with their result. The file is not taken for a cut one."""
        if self.state == MOVES:
            self.long_line = True

    # -- lines

    def feed(self, text: bytes, lineno: int) -> RawGame | None:
        """Consume one line; return the game this line completed, if any."""
        if text.endswith(b"\r"):
            text = text.rstrip(b"\r")
        if BOM in text:
            text = drop_boms(text)
        blank = not text.strip()
        blank_before, self.blank_before = self.blank_before, blank
        self.open_tag = None
        state = self.state
        if self.in_comment:
            if blank:
                return None
            if blank_before and GAME_START.match(text):
                done = self._game()
                self._start_header(text, lineno)
                return done
            self._movetext(text, lineno)
            return None
        if blank:
            if state == HEADER:
                self.state = GAP
            elif state == MOVES:
                return self._game()
            return None
        first = text[:1]
        if first == b"%":
            return None
        if state == IDLE:
            if first == b"[":
                self._start_header(text, lineno)
            elif first != b";":
                self._reset(lineno)
                self.state = JUNK
                self.problems.append("text outside any game (no tag header before it): ignored")
            return None
        if state == JUNK:
            if first == b"[" and GAME_START.match(text):
                done = self._game()
                self._start_header(text, lineno)
                return done
            return None
        if first == b";":
            return None
        if state != MOVES:  # HEADER or GAP
            if first == b"[":
                if state == GAP:
                    name = _tag_name(text)
                    if name is not None and name in self.tags:
                        done = self._game()
                        self._start_header(text, lineno)
                        return done
                self.state = HEADER
                self._tag(text, lineno)
                return None
            self.state = MOVES
            self._movetext(text, lineno)
            return None
        if first == b"[" and _tag_name(text) is not None:
            done = self._game()
            self._start_header(text, lineno)
            return done
        self._movetext(text, lineno)
        return None

    def _start_header(self, text: bytes, lineno: int) -> None:
        self._reset(lineno)
        self.state = HEADER
        self._tag(text, lineno)

    def _tag(self, text: bytes, lineno: int) -> None:
        line = decode_text(text)
        m = TAG_LINE.match(line)
        if m is None:
            shown = line if len(line) <= 60 else line[:57] + "..."
            shown = shown.replace("\x00", "\\x00")
            self.problems.append(f"line {lineno}: not a tag pair, ignored: {shown}")
            if line.lstrip().startswith("[") and "]" not in line:
                self.open_tag = (lineno, shown)
            return
        name, value = m.group(1), unescape(m.group(2))
        if "\x00" in value:
            # Never stored: a NUL would make another player, event... that looks the same.
            value = value.replace("\x00", "")
            self.problems.append(
                f"line {lineno}: NUL bytes in tag {name}: removed; is this a binary file?"
            )
        if name in self.tags:
            self.problems.append(f"line {lineno}: tag {name} given twice; the last is kept")
        elif len(self.tags) >= MAX_TAGS and name not in STORED_TAGS:
            self.dropped_tags += 1
            return
        if len(value) > MAX_VALUE:
            self.problems.append(
                f"line {lineno}: tag {name} is longer than {MAX_VALUE} characters: cut"
            )
            value = value[:MAX_VALUE]
        self.tags[name] = value

    def _movetext(self, text: bytes, lineno: int) -> None:
        if b"\x00" in text and not self.nul_seen:
            self.nul_seen = True
            self.problems.append(f"line {lineno}: NUL bytes in the moves: is this a binary file?")
        pos = 0
        end = len(text)
        kept: list[bytes] = []
        while pos < end:
            if self.in_comment:
                close = text.find(b"}", pos)
                if close < 0:
                    break
                self.in_comment = False
                pos = close + 1
                continue
            m = _SPECIAL.search(text, pos)
            stop = end if m is None else m.start()
            if self.depth == 0 and stop > pos:
                kept.append(text[pos:stop])
            if m is None:
                break
            pos = stop + 1
            c = text[stop]
            if c == 0x7B:  # {
                self.in_comment = True
                self.comment_line = lineno
            elif c == 0x3B:  # ;
                break
            elif c == 0x28:  # (
                self.depth += 1
            elif c == 0x29 and self.depth:  # )
                self.depth -= 1
        if kept:
            piece = b" ".join(kept)
            self.kept.append(piece)
            self.kept_len += len(piece) + 1
            if self.kept_len > KEPT_CAP:
                self._fold()

    def _fold(self) -> None:
        """Fold the mainline text held so far into the digest, up to its last whitespace."""
        held = b"\n".join(self.kept)
        cut = max(held.rfind(b" "), held.rfind(b"\n"), held.rfind(b"\t"))
        if cut <= 0:
            return
        head, tail = held[:cut], held[cut:]
        canon = canonical(head, final=False)
        if canon:
            if self.hasher is None:
                self.hasher = new_hasher()
            self.hasher.update(canon)
            self.moved = self.moved or has_move(canon)
        self.kept = [tail]
        self.kept_len = len(tail)


def _tag_name(text: bytes) -> str | None:
    m = TAG_LINE.match(decode_text(text))
    return m.group(1) if m else None


def read_games_slow(stream: BinaryIO, source: str) -> Iterator[RawGame]:
    """`read_games` one line at a time through `Machine` (the rules themselves)."""
    machine = Machine()
    pending: list[str] = []
    for data, first, cuts in chunks(stream, source):
        lines = data.split(b"\n")
        lines.pop()  # after the last newline
        for lineno, text in enumerate(lines, first):
            done = machine.feed(text, lineno)
            if cuts and lineno in cuts:
                machine.line_was_cut()
                pending.append(cuts[lineno])
            if pending:
                if machine.state != IDLE:
                    machine.problems.extend(pending)
                    pending.clear()
                elif done is not None:
                    done = replace(done, problems=done.problems + tuple(pending))
                    pending.clear()
            if done is not None:
                yield done
    done = machine.finish()
    if done is not None:
        if pending:
            done = replace(done, problems=done.problems + tuple(pending))
        yield done
