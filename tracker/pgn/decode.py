"""Bytes of PGN text as str, whatever the writer's encoding (pure standard library)."""

from __future__ import annotations

import re

_CP1252_HIGH = bytes(range(0x80, 0xA0)).decode("cp1252", errors="replace")
# Windows-1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined: they stay Latin-1 (C1).
_CP1252_TABLE = {
    0x80 + i: (ch if ch != "\ufffd" else chr(0x80 + i)) for i, ch in enumerate(_CP1252_HIGH)
}
_C1 = re.compile(rb"[\x80-\x9f]")


def _dos_letter(byte: int) -> bool:
    """True when `byte` is a letter in DOS code page 437 but not in Windows-1252."""
    return bytes([byte]).decode("cp437").isalpha() and not _CP1252_TABLE[byte].isalpha()


_DOS_LETTERS = frozenset(b for b in range(0x80, 0xA0) if _dos_letter(b))
_UNESCAPE = re.compile(r"\\([\\\"])")

_NOT_LETTERS = frozenset("ªºµƒ")
_APOSTROPHES = frozenset("‘’·")  # O’Brien, d’Arco, l·l: at home between letters
_DASHES = frozenset("–—")
_MARKS = frozenset("“”„…€«»¡¿°±×÷½¼¾ª§©®¢£¥´µº\xa0\xad")
"""Signs a name or event may hold, but not between two letters."""


def _word_has_lower(text: str, at: int) -> bool:
    """Whether the word (run of letters) around `text[at]` has a lower-case letter."""
    start = at
    while start and text[start - 1].isalpha():
        start -= 1
    end = at + 1
    while end < len(text) and text[end].isalpha():
        end += 1
    return any(c.islower() for c in text[start:end])


def _misfits(text: str) -> int:
    """How many characters beyond ASCII are out of place in `text`, read as a name, an event
    or a comment in a Latin-script language: a non-Latin letter or a symbol (box drawing,
    Greek, maths: DOS bytes 0xB0-0xFF), a control code, a rare sign († ‡ ‰ ‚ ™ ...), a
    Latin letter next to a digit or alone between non-letters, a lower-case letter followed
    by an upper-case one, an upper-case letter inside a mixed-case word ("OÆBrien"), a mark
    between two letters ("K”nig", not "O’Brien"), a dash between a letter and a lower-case
    letter ("Br–hl", not "Jean–Pierre")."""
    bad = 0
    last = len(text) - 1
    for i, c in enumerate(text):
        if c < "\x80":
            continue
        before = text[i - 1] if i else " "
        after = text[i + 1] if i < last else " "
        if c.isalpha() and c <= "\u024f" and c not in _NOT_LETTERS:  # a Latin letter
            if before.isdigit() or after.isdigit():
                bad += 1
            elif not before.isalpha():
                bad += not after.isalpha()
            elif c.islower():
                bad += after.isupper()
            else:
                bad += _word_has_lower(text, i)
        elif c in _APOSTROPHES:
            pass
        elif c in _DASHES:
            bad += before.isalpha() and after.islower()
        elif c in _MARKS:
            bad += before.isalpha() and after.isalpha()
        else:
            bad += 1
    return bad


def decode_text(data: bytes) -> str:
    """Bytes of a PGN line (or any PGN text) as str, whatever encoding the writer used.

    UTF-8 when the bytes are valid UTF-8 (byte order marks dropped wherever they are), else
    Windows-1252, or DOS code page 437 when a byte 0x80-0x9F is a letter there and the line
    reads better so (fewer characters out of place, `_misfits`; a tie goes to Windows-1252).
    The readers call it a line at a time, so a file concatenated from differently encoded
    files comes out right line by line. Never raises. The examples that settle each case:
    docs/architecture.md, section tracker/pgn/.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1").translate(_CP1252_TABLE)
        if any(b in _DOS_LETTERS for m in _C1.finditer(data) for b in m.group()):
            dos = data.decode("cp437")
            if _misfits(dos) < _misfits(text):
                text = dos
    if "\ufeff" in text:
        text = text.replace("\ufeff", "")
    return text


def unescape(value: str) -> str:
    """A tag value with PGN's escapes undone: `\\"` is `"` and `\\\\` is `\\`."""
    return _UNESCAPE.sub(r"\1", value) if "\\" in value else value
