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


def decode_text(data: bytes) -> str:
    """Bytes of a PGN line (or any PGN text) as str, whatever encoding the writer used.

    Policy (one line at a time when called by the readers, so a file concatenated from
    differently encoded files comes out right line by line):

    - UTF-8 when the bytes are valid UTF-8. A byte order mark (U+FEFF) is dropped wherever
      it is, also in the middle of a stream made by concatenating files.
    - Otherwise a single-byte code page: Windows-1252, a superset of the printable Latin-1
      ("\\xc9l" is "Él"; the five bytes Windows-1252 leaves undefined stay Latin-1),
    - except when a byte 0x80-0x9F occurs that is a letter in DOS code page 437 but
      punctuation (or undefined) in Windows-1252: then the line is code page 437, as DOS-era
      tools wrote it ("Andr\\x82" is "André", in the corpus's Kasparov file). Bytes
      0xA0-0xFF alone never switch to DOS: "\\xa0" stays a no-break space (the Karpov file).

    Never raises.
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


def unescape(value: str) -> str:
    """A tag value with PGN's escapes undone: `\\"` is `"` and `\\\\` is `\\`."""
    return _UNESCAPE.sub(r"\1", value) if "\\" in value else value
