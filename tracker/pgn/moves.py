"""The identity of a game's moves: the canonical mainline and its digest (standard library
and `tracker.model`'s result vocabulary).

The canonical form of a movetext is what is left when these are removed: comments `{...}`
and `; ...` (to the end of the line), variations `(...)` (nested), NAGs `$n`, black's move
numbers (`12...`, which annotated games repeat after a comment or variation), the result at
the end (`1-0`, `0-1`, `1/2-1/2`, `*`), the marks `+ # ! ?` and all whitespace. White's
move numbers stay, as written (`12.`): they only repeat the order of the moves, and keeping
them saves the scanner a pass over every game. So "1. e4 e5 2. Nf3+" and
"1.e4 {best} e5 (1... c5) 2.Nf3 $1 2... Nc6" both start "1.e4e52.Nf3": copies of a game
that differ only in annotations, clock comments, check marks, line breaks or spacing have
the same digest; a copy that leaves out move numbers (legal in PGN's import format, never
seen in the corpus) does not.

Each removed comment or variation counts as whitespace. A `{` without its `}` removes the
rest of the game's movetext; so does a `(` without its `)`; a stray `}` or `)` is whitespace.
"""

from __future__ import annotations

import hashlib
import re

from tracker.model import Result

_NAG = re.compile(rb"\$[0-9]+")
_BLACK_NUMBER = re.compile(rb"[0-9]*\.\.+")
DROP = b" \t\n\r\x0b\x0c+#!?"
"""The bytes removed from mainline text: whitespace and the marks `+ # ! ?`."""
NUMBERING = b"0123456789."
"""The bytes of move numbers: canonical bytes made of these only hold no move."""
RESULT_ENDS = tuple(result.value.encode("ascii") for result in Result)
"""The results a movetext may end with, as PGN writes them (`tracker.model.Result`)."""
_RESULT_BY_LAST = {end[-1]: end for end in RESULT_ENDS}
"""The result a canonical movetext may end with, by its last byte (each result ends in a
byte of its own: tested), so cutting it costs one look-up."""
_RESULT_TEXT = {end: end.decode("ascii") for end in RESULT_ENDS}


def canonical(text: bytes, *, final: bool = True) -> bytes:
    """The canonical bytes of mainline text (comments and variations already removed).

    `final=False` for a leading part of a long movetext cut at whitespace: the result is
    only removed at the end of the last part, so the parts' canonical bytes concatenate to
    the whole's.
    """
    if b"$" in text:
        text = _NAG.sub(b" ", text)
    if b".." in text:
        text = _BLACK_NUMBER.sub(b" ", text)
    canon = text.translate(None, DROP)
    if final and canon:
        end = _RESULT_BY_LAST.get(canon[-1])
        if end is not None and canon.endswith(end):
            return canon[: -len(end)]
    return canon


def split_result(canon: bytes) -> tuple[bytes, str]:
    """Canonical bytes with the result still at their end (`canonical(text, final=False)`
    of a whole movetext) as `canonical(text)` gives them, and that result as PGN writes it
    ("1-0", "0-1", "1/2-1/2", "*"), "" when they end without one."""
    if canon:
        end = _RESULT_BY_LAST.get(canon[-1])
        if end is not None and canon.endswith(end):
            return canon[: -len(end)], _RESULT_TEXT[end]
    return canon, ""


def moves_end(result: str, tags: dict[str, str]) -> str | None:
    """`RawGame.moves_end` of a game whose movetext ends with `result` ("" for none): None
    when that is the result its Result tag gives."""
    return None if result == tags.get("Result") else result


def has_move(canon: bytes) -> bool:
    """Whether canonical bytes hold a move (not only move numbers)."""
    return bool(canon.strip(NUMBERING))


def new_hasher() -> hashlib.blake2b:
    """The hash of the canonical bytes (BLAKE2b, 16 bytes; shown as 32 hex digits)."""
    return hashlib.blake2b(digest_size=16)


def digest_of(canon: bytes) -> str:
    """The moves digest of canonical bytes: "" when they hold no move."""
    if canon and canon.strip(NUMBERING):
        return hashlib.blake2b(canon, digest_size=16).hexdigest()
    return ""
