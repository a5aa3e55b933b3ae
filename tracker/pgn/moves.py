"""The identity of a game's moves: the canonical mainline and its digest (standard library).

The canonical form of a movetext is what is left when these are removed: comments `{...}`
and `; ...` (to the end of the line), variations `(...)` (nested), NAGs `$n`, the result at
the end (`1-0`, `0-1`, `1/2-1/2`, `*`), move numbers (digits right before one or more dots:
`12.`, `12...`), the marks `+ # ! ?` and all whitespace. So "1. e4 e5 2. Nf3+" and
"1.e4 {best} e5 (1... c5) 2.Nf3 $1 2... Nc6" both start "e4e5Nf3": copies of a game that
differ only in annotations, line breaks or clock comments have the same digest.

Each removed comment or variation counts as whitespace. A `{` without its `}` removes the
rest of the game's movetext; so does a `(` without its `)`; a stray `}` or `)` is whitespace.
"""

from __future__ import annotations

import hashlib
import re
from itertools import repeat

_NAG = re.compile(rb"\$[0-9]+")
_DIGITS = b"0123456789"
_DROP = b" \t\n\r\x0b\x0c+#!?"
_RESULT_ENDS = (b"1/2-1/2", b"1-0", b"0-1", b"*")
_rstrip = bytes.rstrip


def canonical(text: bytes, *, final: bool = True) -> bytes:
    """The canonical bytes of mainline text (comments and variations already removed).

    `final=False` for a leading part of a long movetext cut at whitespace: the result is
    only removed at the end of the last part (parts concatenate to the whole's canonical).
    """
    if b"$" in text:
        text = _NAG.sub(b" ", text)
    if final:
        text = text.rstrip()
        for end in _RESULT_ENDS:
            if text.endswith(end):
                text = text[: -len(end)]
                break
    if b"." in text:
        pieces = text.split(b".")
        last = pieces.pop()
        text = b"".join(map(_rstrip, pieces, repeat(_DIGITS))) + last
    return text.translate(None, _DROP)


def new_hasher() -> hashlib.blake2b:
    """The hash of the canonical bytes (BLAKE2b, 16 bytes; shown as 32 hex digits)."""
    return hashlib.blake2b(digest_size=16)


def digest_of(canon: bytes) -> str:
    """The moves digest of canonical bytes: "" when there are none."""
    return hashlib.blake2b(canon, digest_size=16).hexdigest() if canon else ""
