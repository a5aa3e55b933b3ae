"""Which rows of a list a name may fit, told from a row's bytes before it is cut.

A list import keeps the rows of the players it knows by FIDE ID and the rows whose name fits
a player known only by name. Cutting a row costs far more than looking at its bytes, so the
reader asks a `NameSieve` in two steps, block by block (`tracker.lists.txtrows`,
`tracker.lists.xmlrows`):

1. the first `PREFIX` bytes of each name, folded to lower-case ASCII in one `bytes.translate`
   of the block, must start a surname of the players (`words`: the first word of each of
   their surname readings; a name written with an accent, "Müller" for "Muller", gets a
   closer look);
2. the few names that pass are decoded as the reader decodes them and given to `fits`, the
   caller's own test of a whole name (`NameIndex.fits` of tracker.store.lists), whose answer
   is kept per name (bounded: `KEPT` answers at most).

Step 2 needs the name exactly as the reader will cut it; where the reader cuts a row at its
blanks (the TXT lists before 2012), only step 1 and the closer look are made, and the store
judges the rows kept. The sieve never holds more than `KEPT` entries in each of its caches,
whatever the file holds.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Iterator

from tracker.identity.names import normalize_name
from tracker.lists.fields import RowError, read_name

PREFIX = 6
"""The bytes of a name the first step compares."""
NAME_BYTES = 80
"""The bytes of a name (and its comma) looked at more closely when an accent needs it."""
FEW = 8
"""Prefixes of a block that fit, up to which their rows are found one prefix at a time."""
KEPT = 1 << 16
"""Answers each cache of a sieve keeps at most (then it starts again)."""
NO, YES, LOOK = 0, 1, 2
"""What a prefix says of its row: not wanted, wanted, or look at its whole name."""
_SPACE, _ACCENT = 0x20, 0x80
# Lower case for A-Z, letters and digits kept, a line end kept, every other ASCII byte a
# space, every byte beyond ASCII (UTF-8 or Latin-1: an accented letter) 0x80.
FOLD = bytes(
    b
    if (48 <= b <= 57 or 97 <= b <= 122 or b == 10)
    else b + 32
    if 65 <= b <= 90
    else _ACCENT
    if b >= 128
    else _SPACE
    for b in range(256)
)


def heads(names: list[bytes], at: int = 0) -> list[bytes]:
    """The folded first PREFIX bytes from `at` of each of these (lines or names), in one
    translate."""
    return b"\n".join([n[at : at + PREFIX] for n in names]).translate(FOLD).split(b"\n")


def indexes(items: list[bytes], value: bytes) -> Iterator[int]:
    """Every index of `value` in `items` (list.index: C speed)."""
    at = -1
    while True:
        try:
            at = items.index(value, at + 1)
        except ValueError:
            return
        yield at


class NameSieve:
    """The players known only by name, as a list reader sees them (see the module
    docstring): `words` the first word of each surname reading (normalized), `fits` whether
    a list's name (as the reader cuts it) fits one of them."""

    def __init__(self, words: Iterable[str], fits: Callable[[str], bool]) -> None:
        self.words = set(words)
        self._fits = fits
        self.folded = [bytes(ord(c) if c.isascii() else _ACCENT for c in w) for w in self.words]
        self.long = {f[:PREFIX] for f in self.folded if len(f) >= PREFIX}
        self.short = {f for f in self.folded if len(f) < PREFIX}
        self.around: set[tuple[bytes, bytes]] = set()  # (letters before, letters after)
        self.around_end: set[tuple[bytes, bytes]] = set()  # the same, the word ending
        self.seen: dict[bytes, int] = {}
        self.looked: dict[bytes, bool] = {}
        self.answers: dict[str, bool] = {}
        self.columns: dict[str, bool] = {}  # the same, by the text a name is read from

    def __bool__(self) -> bool:
        return bool(self.words)

    # -- step 1: the folded prefixes ---------------------------------------------------

    def says(self, prefix: bytes) -> int:
        """NO, YES or LOOK for one folded prefix."""
        found = self.seen.get(prefix)
        if found is None:
            if len(self.seen) >= KEPT:
                self.seen.clear()
            found = self.seen[prefix] = self._says(prefix)
        return found

    def _accents(self) -> None:
        """The letters around each letter of the words (made when a list first shows an
        accent: most names of most lists are plain ASCII)."""
        for folded in self.folded:
            for j in range(min(len(folded), PREFIX)):
                head = folded[:j]
                if _ACCENT in head:
                    break
                self.around.update((head, folded[j + 1 : j + 1 + r]) for r in range(PREFIX - j))
                if len(folded) - j - 1 < PREFIX:
                    self.around_end.add((head, folded[j + 1 :]))

    def _says(self, prefix: bytes) -> int:
        for i, byte in enumerate(prefix):
            if byte == _SPACE:
                return YES if i > 0 and prefix[:i] in self.short else NO
            if byte == _ACCENT:
                if not self.around:
                    self._accents()
                k = i
                while k < len(prefix) and prefix[k] == _ACCENT:
                    k += 1
                rest = prefix[k:]
                m = next((n for n, b in enumerate(rest) if b in (_SPACE, _ACCENT)), len(rest))
                near = self.around_end if m < len(rest) and rest[m] == _SPACE else self.around
                return LOOK if (prefix[:i], rest[:m]) in near else NO
        return YES if prefix in (self.long if len(prefix) == PREFIX else self.short) else NO

    def pick(self, folded: list[bytes]) -> list[int]:
        """The indexes, in order, of the folded prefixes that may start a surname (YES or
        LOOK)."""
        good = {p for p in set(folded) if self.says(p)}
        if not good:
            return []
        if len(good) <= FEW:  # each one's places found at C speed
            return sorted(i for p in good for i in indexes(folded, p))
        return [i for i, p in enumerate(folded) if p in good]

    def close_look(self, raw: bytes) -> bool:
        """Whether the first word of a raw name (to its comma), normalized, is a surname's
        (for a LOOK prefix where step 2 cannot be made)."""
        surname = raw.partition(b",")[0]
        found = self.looked.get(surname)
        if found is None:
            try:
                name = surname.decode("utf-8")
            except UnicodeDecodeError:
                name = surname.decode("latin-1")
            words = normalize_name(html.unescape(name)).split()
            if len(self.looked) >= KEPT:
                self.looked.clear()
            found = self.looked[surname] = bool(words) and words[0] in self.words
        return found

    # -- step 2: the whole name --------------------------------------------------------

    def fits(self, name: str) -> bool:
        """Whether a name, as the reader cuts it, fits one of the players."""
        found = self.answers.get(name)
        if found is None:
            if len(self.answers) >= KEPT:
                self.answers.clear()
            found = self.answers[name] = bool(name) and self._fits(name)
        return found

    def fits_text(self, text: str) -> bool:
        """`fits` of the name the reader reads from this text (`read_name`: a TXT name
        column, an XML <name>), kept by the text as it is; a text that is no name (its row
        is malformed) fits none."""
        found = self.columns.get(text)
        if found is None:
            try:
                name = read_name(text)
            except RowError:
                name = ""
            if len(self.columns) >= KEPT:
                self.columns.clear()
            found = self.columns[text] = self.fits(name)
        return found
