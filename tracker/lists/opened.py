"""A list file opened: plain or zipped, its format sniffed, and what its names, its header
and the caller say about it made to agree. Zipped or not is told by the first bytes (a zip
holds exactly one list member, read through `zipfile.ZipFile.open`, never extracted); TXT or
XML by the first non-blank byte (`<` is XML). Which list a single list is comes from the
file name (`standard_...`, `rapid_...`, `blitz_...`; an old name without one,
`JAN01FRL.TXT`, is the standard list: the only one FIDE had then) or the caller's
`rating_list`; the period from the file name (`standard_nov25frl.zip`, `APR04FRL.TXT` ->
2004-04), the TXT header (`NOV25`, `Mar11`, `sep12` column title) or the caller's `period`.
When two of them disagree, the file is refused. `OpenedList` holds this state for the TXT
and XML readers (`ListFile` is both).
"""

from __future__ import annotations

import contextlib
import io
import lzma
import zipfile
import zlib
from collections.abc import Callable, Container
from pathlib import Path
from typing import IO, Any

from tracker.errors import BadInput, NotFound
from tracker.lists.fields import Labels
from tracker.lists.layout import NAME_LIST, TxtLayout, list_from_name, period_from_name
from tracker.lists.sieve import NameSieve
from tracker.model import Period, RatingList

MAX_PROBLEMS = 1_000  # more malformed rows than this: the file is not what it claims to be
PROBLEMS_KEPT = 50  # problems kept with their message (all are counted)
CHUNK = 1 << 16  # XML bytes handed to expat at a time
BLOCK = 1 << 16  # TXT bytes read at a time
MAX_WANTED = 200_000  # more wanted IDs than this: a TXT list is filtered line by line
DAMAGED = (
    zipfile.BadZipFile,
    zlib.error,
    lzma.LZMAError,
    EOFError,
    NotImplementedError,
    RuntimeError,
    ValueError,
    OSError,
)
"""What zipfile and its decompressors raise for a member they cannot give whole: a bad
CRC, sizes the central directory lies about, a method zipfile lacks or data not of the
method named (bz2 says OSError), encryption (RuntimeError)."""


class OpenedList:
    """The state of one open list file, shared by its TXT and XML readers (see `ListFile`)."""

    def __init__(
        self,
        path: str | Path,
        *,
        period: Period | None = None,
        rating_list: RatingList | None = None,
        only: Container[int] | None = None,
        names: NameSieve | None = None,
        label: str | None = None,
    ) -> None:
        self.path = Path(path)
        self.name = self.path.name
        self.label = label
        self.given_period = period
        self.given_list = rating_list
        self.size = 0
        self.position = 0
        self.lines = 0
        self.problems: list[str] = []
        self.problem_count = 0
        self.rows = 0
        self.only = only
        self.names = names if only is not None else None
        self.filtered = 0
        self.on_read: Callable[[], None] | None = None
        self.format = ""
        self.combined = False
        self.lists: tuple[RatingList, ...] = ()
        self.period: Period | None = None
        self.layout: TxtLayout | None = None
        self._zip: zipfile.ZipFile | None = None
        self._raw: IO[bytes] | None = None
        self._member = ""
        self._xml_figures: tuple[tuple[Labels, tuple[str, str, str]], ...] = ()
        self._txt_figures: tuple[tuple[Labels, tuple[str, ...]], ...] = ()
        self._name_codec: str | None = "utf-8"  # an XML's names read before expat (xmlrows)
        self._wanted: set[bytes] | None = None  # `only` as text, for whole-block filtering
        if isinstance(only, (set, frozenset)) and len(only) <= MAX_WANTED:
            self._wanted = {str(i).encode() for i in only if isinstance(i, int) and i > 0}
        self._open()

    # -- opening -------------------------------------------------------------------------

    def _open(self) -> None:
        if not self.path.exists():
            raise NotFound(f"{self.where}: no such file: check the path")
        if self.path.is_dir():
            raise BadInput(f"{self.where} is a folder: give the list file itself")
        if not self.path.is_file():
            raise BadInput(
                f"{self.where}: not a regular file (a pipe or a device?): save the "
                "list to a file and import that"
            )
        try:
            if zipfile.is_zipfile(self.path):
                self._open_zip()
            else:
                self._raw = self.path.open("rb")
                self.size = self.path.stat().st_size
                self._member = self.name
                if self._raw.read(4) == b"PK\x03\x04":
                    raise BadInput(
                        f"{self.where}: the zip archive is damaged (its end is "
                        "missing: the download was cut short?): download it again"
                    )
                self._raw.seek(0)
        except OSError as exc:
            self.close()
            raise BadInput(f"{self.where}: cannot read it ({exc.strerror or exc})") from None
        except BaseException:
            self.close()
            raise
        try:
            self.format = self._sniff()
        except BaseException:
            self.close()
            raise

    def _open_zip(self) -> None:
        try:
            zf = zipfile.ZipFile(self.path)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
            raise BadInput(
                f"{self.where}: the zip archive is damaged ({exc}): download it again"
            ) from None
        self._zip = zf
        members = [
            i
            for i in zf.infolist()
            if not i.is_dir() and i.filename.lower().endswith((".txt", ".xml"))
        ]
        if len(members) != 1:
            names = ", ".join(i.filename for i in zf.infolist()[:10]) or "nothing"
            self.close()
            raise BadInput(
                f"{self.where}: expected one .txt or .xml list inside the zip, "
                f"found {names!s}: unzip it and import the list file"
            )
        info = members[0]
        self._member = info.filename
        self.size = info.file_size
        try:
            self._raw = zf.open(info)
        except DAMAGED as exc:
            self.close()
            raise self.damaged(exc) from None

    def damaged(self, exc: BaseException) -> BadInput:
        """The one line for a zip whose list member cannot be read whole (`DAMAGED`), or a
        plain file that cannot be read (an OSError)."""
        if self._zip is None and isinstance(exc, OSError):
            return BadInput(f"{self.where}: cannot read it ({exc.strerror or exc})")
        said = " ".join(str(exc).split()) or type(exc).__name__
        return BadInput(f"{self.where}: the zip archive is damaged ({said}): download it again")

    @property
    def where(self) -> str:
        """The file as the caller named it, for messages (`where:line: ...`)."""
        return self.label if self.label is not None else str(self.path)

    def _sniff(self) -> str:
        assert self._raw is not None
        self._stream = io.BufferedReader(_Guarded(self._raw, self), CHUNK)
        head = self._stream.peek(512)[:512]
        text = head.lstrip(b"\xef\xbb\xbf").lstrip()
        if not text:
            probe = self._stream.peek(BLOCK)
            if not probe.strip():
                raise BadInput(f"{self.where}: the file is empty: is it the right download?")
            return "txt"
        if _is_html(text):
            raise BadInput(
                f"{self.where}: an HTML page (a web page saved from the browser), not a FIDE "
                "list file: download the list file itself (the .zip the page links to), or "
                "let `tracker official fetch` get it"
            )
        return "xml" if text.startswith(b"<") else "txt"

    # -- the names, the header and the caller agree ---------------------------------------

    def _settle_period(self, header: Period | None) -> Period:
        found: list[tuple[str, Period]] = []
        if self.given_period is not None:
            found.append(("--period", self.given_period))
        for label in (self.name, self._member):
            p = period_from_name(label)
            if p is not None:
                found.append((f"the file name {label}", p))
                break
        if header is not None:
            found.append(("the header", header))
        if not found:
            raise BadInput(
                f"{self.where}: the file does not say which month it lists: give --period YYYY-MM"
            )
        first_label, first = found[0]
        for label, p in found[1:]:
            if p != first:
                raise BadInput(
                    f"{self.where}: {first_label} says {first} but {label} says {p}:"
                    " check which month this list is"
                )
        return first

    def _settle_single_list(self) -> RatingList:
        named = None
        for label in (self.name, self._member):
            m = NAME_LIST.search(Path(label).name)
            if m is not None:
                named = RatingList(m.group(1).lower())
                break
        if self.given_list is not None:
            if named is not None and named != self.given_list:
                raise BadInput(
                    f"{self.where}: the file name says {named} but --list says "
                    f"{self.given_list}: check which list this is"
                )
            return self.given_list
        if named is None:
            named = list_from_name(self.name) or list_from_name(self._member)
        if named is None:
            raise BadInput(
                f"{self.where}: the file name does not say which list it is: give "
                "--list standard|rapid|blitz"
            )
        return named

    def _settle_combined(self) -> tuple[RatingList, ...]:
        if self.given_list is not None:
            return (self.given_list,)
        return tuple(RatingList)

    # -- problems ----------------------------------------------------------------------

    def _problem(self, line: int, message: str) -> None:
        self.problem_count += 1
        if len(self.problems) < PROBLEMS_KEPT:
            self.problems.append(f"{self.where}:{line}: {message}")
        if self.problem_count > MAX_PROBLEMS:
            raise BadInput(
                f"{self.where}: more than {MAX_PROBLEMS} malformed rows (the first: "
                f"{self.problems[0]}): is this a FIDE rating list?"
            )

    def skip_row(self, line: int, message: str) -> None:
        """A row its caller skips for what the reader cannot judge (a rating below the
        floor of the list's month: tracker.app.official), said and counted as a
        malformed row is (`problems`, `problem_count`, MAX_PROBLEMS)."""
        self._problem(line, f"{message}; {'<player>' if self.format == 'xml' else 'line'} skipped")

    # -- closing -------------------------------------------------------------------------

    def close(self) -> None:
        for thing in (self._raw, self._zip):
            if thing is not None:
                with contextlib.suppress(Exception):  # must not hide the real error
                    thing.close()
        self._raw = None
        self._zip = None


class _Guarded(io.RawIOBase):
    """Counts the bytes read (for `ListFile.position`), and says a read that fails in one
    line (`OpenedList.damaged`)."""

    def __init__(self, raw: IO[bytes], owner: OpenedList) -> None:
        self._raw = raw
        self._owner = owner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            data = self._raw.read(len(buffer))
        except DAMAGED as exc:  # (the first read is the sniff's, inside `open_list`)
            raise self._owner.damaged(exc) from None
        n = len(data)
        buffer[:n] = data
        self._owner.position += n
        if self._owner.on_read is not None:
            self._owner.on_read()
        return n


HTML_STARTS = (b"<!doctype html", b"<html", b"<head", b"<body")


def _is_html(head: bytes) -> bool:
    """Whether a file's first bytes (a BOM and blanks dropped) are an HTML page's: how it
    starts, or an XML declaration then <html> (XHTML); a FIDE XML list's root is
    <playerslist>."""
    low = head.lower()
    if low.startswith(HTML_STARTS):
        return True
    return low.startswith(b"<?xml") and b"<html" in low and b"<playerslist" not in low
