"""The plain values every reader of tracker.files shares: the `Source` it hands out, the
`Limits` a source keeps to, and the names of files shown as text.
"""

from __future__ import annotations

import re
import shlex
import tarfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO, cast

from tracker.errors import BadInput, Unavailable
from tracker.pgn.stream import READ_ERRORS

PGN_SUFFIXES = (
    ".pgn",
    ".pgn.gz",
    ".pgn.bz2",
    ".pgn.xz",
    ".zip",
    ".tar",
    ".tar.gz",
    ".tgz",
    ".tar.bz2",
    ".tbz2",
    ".tbz",
    ".tar.xz",
    ".txz",
)
"""What a folder search picks up, and which archive members are read (case-insensitive)."""

SOURCE_ERRORS = READ_ERRORS + (tarfile.TarError, RuntimeError, NotImplementedError)
"""What reading a source may raise: the stream's (tracker.pgn.stream) and an archive's."""

Opener = Callable[[], BinaryIO]
Stamp = tuple[int, ...]

KiB = 1 << 10
MiB = 1 << 20
GiB = 1 << 30

RATIO_FLOOR = 16 * MiB
"""The ratio limit is looked at only past this many decompressed bytes: a small file may
well shrink a thousand times (one game repeated), a bomb is big."""


@dataclass(frozen=True)
class Limits:
    """What one source may cost (`tracker import --max-size/--max-ratio`)."""

    max_size: int = 16 * GiB
    """Bytes out of one decompressing stream (a .gz, .bz2, .xz, a zip member, a .tar.gz as
    a whole), and bytes spooled from standard input or a pipe."""
    max_ratio: int = 1000
    """Decompressed bytes per compressed byte (past RATIO_FLOOR). PGN shrinks 5 to 15 times;
    100 GiB of zeros in a 76 KB .bz2 is 1,400,000 times."""
    on_spool: Callable[[str, int], None] | None = field(default=None, compare=False)
    """Called with (name, bytes so far) while standard input or a pipe is read, every 16 MiB
    (progress), then with (name, -1) when it is read, if it was called before."""


class LimitExceeded(BadInput):
    """A source went past a `Limits` bound: refused, and the import stops there."""

    stops_run = True


def size_text(n: int) -> str:
    """A byte count as the options take it: 16G, 1M, 512K, 100 (exact, binary units)."""
    for unit, size in (("T", 1 << 40), ("G", GiB), ("M", MiB), ("K", KiB)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def parse_size(text: str) -> int:
    """`--max-size`: bytes, or a number with K, M, G or T (binary: 1K = 1024)."""
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = 1
    if t[-1:] in ("K", "M", "G", "T"):
        scale = {"K": KiB, "M": MiB, "G": GiB, "T": 1 << 40}[t[-1]]
        t = t[:-1]
    try:
        value = float(t)
    except ValueError:
        value = -1.0
    if not t or not value >= 1 or value * scale > 1 << 60:
        raise BadInput(
            f"--max-size {text!r} is not a size: give bytes, or a number with K, "
            "M, G or T (for example 20G)"
        )
    return int(value * scale)


@dataclass(frozen=True)
class Source:
    """One PGN stream the user named: a file, an archive member or standard input."""

    name: str
    """What the user sees in reports: "games.pgn", "twic1427g.zip:twic1427.pgn", "-"."""
    opener: Callable[[], BinaryIO] = field(repr=False, compare=False)
    size: int | None = field(default=None, compare=False)
    """Bytes on disk (compressed size for archives) when known: for progress display."""
    stamp: Callable[[], Stamp | None] | None = field(default=None, repr=False, compare=False)
    """The state of the file on disk (size, modification and change times, inode), or None
    when it cannot be read; no stamp at all for a spool (standard input, a pipe)."""

    def open(self) -> BinaryIO:
        """A fresh binary stream over the (decompressed) PGN bytes; the caller closes it."""
        try:
            return self.opener()
        except FileNotFoundError:
            raise Unavailable(f"{self.name}: the file has disappeared; check the path") from None
        except PermissionError:
            raise BadInput(f"{self.name}: permission denied; check the file's rights") from None
        except RuntimeError as exc:
            if "encrypted" in str(exc):
                raise BadInput(
                    f"{self.name}: the archive member is encrypted; unpack it with "
                    "its password and import the files"
                ) from None
            raise BadInput(f"{self.name}: cannot be opened ({exc}); is it damaged?") from None
        except SOURCE_ERRORS as exc:
            raise BadInput(f"{self.name}: cannot be opened ({exc}); is it damaged?") from None


def refused(name: str, why: str, error: type[BadInput] = BadInput) -> Source:
    """A member that cannot be read: it fails (with `why`) when imported, the others go on."""

    def fail() -> BinaryIO:
        raise error(why if why.startswith(name) else f"{name}: {why}")

    return Source(name, fail)


def shown(name: str) -> str:
    """A file name as valid text: bytes that are not UTF-8 (kept by Python as lone
    surrogates) are shown as `\\xNN` escapes, so the name can be printed and stored."""
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


_LIST_TXT = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*ID[ _]?NUMBER\s+NAME\b", re.IGNORECASE)
_LIST_XML = re.compile(
    rb"\A(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*\?>\s*)?<playerslist\b", re.IGNORECASE
)


def is_fide_list(head: bytes) -> bool:
    """Whether a stream's first bytes are those of a FIDE rating list (docs/lists.md): a TXT
    list's header ("ID Number  Name ...", "ID_NUMBER NAME ..." of the quarterly files, after
    the blank line of the 2003 ones) or an XML list's <playerslist>."""
    return bool(_LIST_TXT.match(head) or _LIST_XML.match(head))


def not_games(name: str) -> BadInput:
    """The error of a FIDE rating list given to the import of games: what it is, and the
    command that imports it."""
    return BadInput(
        f"{name} is a FIDE rating list, not PGN games: import it with "
        f"`tracker official import {shlex.quote(name)}`"
    )


def is_pgn_name(name: str) -> bool:
    return name.lower().endswith(PGN_SUFFIXES)


def as_binary(stream: object) -> BinaryIO:
    return cast(BinaryIO, stream)
