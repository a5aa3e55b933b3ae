"""FIDE's downloadable rating lists (TXT fixed width and XML, plain or zipped), streamed.

Pure: standard library only. The layouts are those of `shared/spec/fide-list-formats.md`.

    with open_list("standard_nov25frl.zip") as lst:
        for row in lst:          # ListRow, one per player, never the whole file in memory
            ...
        lst.problems             # malformed lines/elements skipped, with their position

What a file is:
- zipped or not: by its first bytes (a zip holds exactly one list member, read through
  `zipfile.ZipFile.open`, never extracted);
- TXT or XML: by its first non-blank byte (`<` is XML);
- single or combined: by the TXT header (`SRtng` column) or the XML elements (`rapid_rating`);
- which list (single lists): the file name (`standard_...`, `rapid_...`, `blitz_...`) or the
  caller's `rating_list`;
- the period: the file name (`standard_nov25frl.zip` -> 2025-11), the TXT header (`NOV25`
  column title) or the caller's `period`. When two of them disagree, the file is refused.

Safety: XML goes through expat with handlers that refuse any DTD (so no entity can be
declared, let alone expanded: a billion-laughs file is refused at its `<!DOCTYPE`), and
external entities are never fetched. A structural fault (damaged zip, broken XML, wrong TXT
columns) raises BadInput with the file and position; a malformed line or element is
skipped and recorded in `problems` (too many of them and the file is refused).
"""

from __future__ import annotations

import contextlib
import io
import re
import zipfile
import zlib
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any, NamedTuple
from xml.parsers import expat

from tracker.errors import BadInput, NotFound
from tracker.model import MAX_RATING, Period, RatingList

MAX_PROBLEMS = 1_000  # more malformed rows than this: the file is not what it claims to be
PROBLEMS_KEPT = 50  # problems kept with their message (all are counted)
CHUNK = 1 << 16
THIN_LIMIT = 1 << 22  # no </player> in this many bytes: hand them to expat as they are
_FIDEID = re.compile(rb"<fideid>\s*(\d{1,12})\s*</fideid>")
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


class ListRating(NamedTuple):
    """One list's figures in a row: rating (None when empty or 0), games, K."""

    list: RatingList
    rating: int | None
    games: int | None = None
    k: int | None = None


class ListRow(NamedTuple):
    """One player's line (TXT) or element (XML) of a published list (a NamedTuple: millions
    of them are made, cheaply).

    `ratings` holds one ListRating per list the file covers (one for a single list, three
    for the combined list), empty ones included. `position` is the 1-based line (TXT) or
    the line of the `<fideid>` of the `<player>` element (XML).
    """

    fide_id: int
    name: str
    period: Period
    ratings: tuple[ListRating, ...]
    federation: str | None = None
    sex: str | None = None
    title: str | None = None
    women_title: str | None = None
    other_titles: str | None = None
    foa_title: str | None = None
    birth_year: int | None = None
    flag: str | None = None
    position: int = 0


# ---------------------------------------------------------------------------------------
# Column layouts (0-based, end exclusive), as published.

COMMON_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("fide_id", 0, 15),
    ("name", 15, 76),
    ("federation", 76, 80),
    ("sex", 80, 84),
    ("title", 84, 89),
    ("women_title", 89, 94),
    ("other_titles", 94, 109),
    ("foa_title", 109, 113),
)
# (list, rating, games, K) column spans
SINGLE_FIGURES = ((113, 119), (119, 123), (123, 126))
COMBINED_FIGURES: tuple[tuple[RatingList, tuple[tuple[int, int], ...]], ...] = (
    (RatingList.STANDARD, ((113, 119), (119, 123), (123, 126))),
    (RatingList.RAPID, ((126, 132), (132, 136), (136, 139))),
    (RatingList.BLITZ, ((139, 145), (145, 149), (149, 152))),
)
SINGLE_TAIL = ((126, 132), 132)  # birth year span, flag start
COMBINED_TAIL = ((152, 158), 158)

SINGLE_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA {month} Gms K  B-day Flag"
)
COMBINED_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
# Column titles a header must carry at these starts (checked case-insensitively).
_HEADER_COMMON = ((0, "ID"), (15, "Name"), (76, "Fed"), (80, "Sex"), (84, "Tit"),
                  (89, "WTit"), (94, "OTit"), (109, "FOA"))
_HEADER_SINGLE = ((119, "Gms"), (123, "K"), (126, "B-day"))
_HEADER_COMBINED = ((113, "SRtng"), (119, "SGm"), (123, "SK"), (126, "RRtng"), (132, "RGm"),
                    (136, "Rk"), (139, "BRtng"), (145, "BGm"), (149, "BK"), (152, "B-day"))

FLAGS = frozenset({"i", "w", "wi"})
_MONTH_TITLE = re.compile(r"^([A-Za-z]{3})(\d{2})$")
_NAME_MONTH = re.compile(r"(standard|rapid|blitz)_([a-z]{3})(\d{2})frl", re.IGNORECASE)
_NAME_LIST = re.compile(r"(?:^|[^a-z])(standard|rapid|blitz)_", re.IGNORECASE)
_NAME_COMBINED = re.compile(r"players_list", re.IGNORECASE)

XML_SINGLE_FIELDS = ("rating", "games", "k")
XML_COMBINED_FIELDS: tuple[tuple[RatingList, tuple[str, str, str]], ...] = (
    (RatingList.STANDARD, ("rating", "games", "k")),
    (RatingList.RAPID, ("rapid_rating", "rapid_games", "rapid_k")),
    (RatingList.BLITZ, ("blitz_rating", "blitz_games", "blitz_k")),
)
XML_TEXT_FIELDS = frozenset({
    "fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title",
    "rating", "games", "k", "rapid_rating", "rapid_games", "rapid_k", "blitz_rating",
    "blitz_games", "blitz_k", "birthday", "flag",
})


def _month_period(mon: str, yy: str) -> Period | None:
    try:
        month = MONTHS.index(mon.lower()) + 1
    except ValueError:
        return None
    y = int(yy)
    return Period(2000 + y if y < 70 else 1900 + y, month)


def period_from_name(name: str) -> Period | None:
    """The list month a FIDE archive name carries (`standard_nov25frl.zip` -> 2025-11)."""
    m = _NAME_MONTH.search(Path(name).name)
    return None if m is None else _month_period(m.group(2), m.group(3))


def list_from_name(name: str) -> RatingList | None:
    """The list a file name names (`rapid_rating_list.zip` -> rapid); None if it names none."""
    m = _NAME_LIST.search(Path(name).name)
    return None if m is None else RatingList(m.group(1).lower())


def period_from_header(title: str) -> Period | None:
    """The period a TXT rating column title names (`NOV25` -> 2025-11)."""
    m = _MONTH_TITLE.match(title.strip())
    return None if m is None else _month_period(m.group(1), m.group(2))


# ---------------------------------------------------------------------------------------
# Field conversion

class _RowError(Exception):
    """A malformed row: skipped and recorded as a problem."""


def _number(text: str, label: str, lo: int, hi: int, zero_is_none: bool) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not (text.isdigit() and text.isascii()):
        raise _RowError(f"{label} {text!r} is not a number")
    value = int(text)
    if zero_is_none and value == 0:
        return None
    if not lo <= value <= hi:
        raise _RowError(f"{label} {value} is out of range")
    return value


@dataclass(frozen=True)
class _Labels:
    """One list's labels for messages (built once, not per row)."""

    list: RatingList
    rating: str
    games: str
    k: str
    empty: ListRating


def _labels(rating_list: RatingList, prefix: bool) -> _Labels:
    head = f"{rating_list} " if prefix else ""
    return _Labels(rating_list, f"{head}rating", f"{head}games", f"{head}K",
                   ListRating(rating_list, None, None, None))


def _figures(lab: _Labels, rating: str, games: str, k: str) -> ListRating:
    """A ListRating from the three texts; an all-blank one is the shared empty value."""
    if not (rating.strip() or games.strip() or k.strip()):
        return lab.empty
    return ListRating(lab.list, _number(rating, lab.rating, 1, MAX_RATING, True),
                      _number(games, lab.games, 0, 999, False),
                      _number(k, lab.k, 0, 100, True))


def _birth(text: str) -> int | None:
    text = text.strip()
    if len(text) > 4 and text[4:5] in "-./" and text[:4].isdigit():
        text = text[:4]  # a full date where only the year is expected
    return _number(text, "birth year", 1850, 2100, True)


def _fide_id(text: str) -> int:
    value = _number(text, "FIDE ID", 1, 10**12, False)
    if value is None:
        raise _RowError("no FIDE ID")
    return value


def _flag(text: str) -> str | None:
    text = text.strip()
    if not text:
        return None
    text = text.lower()
    if text not in FLAGS:
        raise _RowError(f"flag {text!r} is not i, w or wi")
    return text


def _name(text: str) -> str:
    text = text.strip()
    if "  " in text or "\t" in text:
        text = " ".join(text.split())
    if not text:
        raise _RowError("no name")
    return text


# ---------------------------------------------------------------------------------------
# The list file


class ListFile:
    """One list file (plain or zipped, TXT or XML), iterated as ListRow values.

    Open with `open_list` (a context manager). Before iterating, `format` ('txt'/'xml'),
    `size` (bytes to read, for a progress bar) and `name` are known; `combined`, `lists` and
    `period` are known once the first row is read (or right away for TXT). During and after
    iteration, `position` is the number of bytes read, `problem_count` the number of
    malformed rows skipped and `problems` the first PROBLEMS_KEPT of them ("file:line: ...").

    `only`: when given, rows whose FIDE ID is not in it are skipped before they are parsed
    (counted in `filtered`; they are not checked beyond their ID): importing a 1.8-million
    player list for the few players of a database costs little more than reading it.
    `on_read`, when set, is called after every block read (a progress bar reads `position`).
    """

    def __init__(self, path: str | Path, *, period: Period | None = None,
                 rating_list: RatingList | None = None,
                 only: Container[int] | None = None) -> None:
        self.path = Path(path)
        self.name = self.path.name
        self.given_period = period
        self.given_list = rating_list
        self.size = 0
        self.position = 0
        self.problems: list[str] = []
        self.problem_count = 0
        self.rows = 0
        self.only = only
        self.filtered = 0
        self.on_read: Callable[[], None] | None = None
        self.format = ""
        self.combined = False
        self.lists: tuple[RatingList, ...] = ()
        self.period: Period | None = None
        self._zip: zipfile.ZipFile | None = None
        self._raw: IO[bytes] | None = None
        self._member = ""
        self._xml_figures: tuple[tuple[_Labels, tuple[str, str, str]], ...] = ()
        self._open()

    # -- opening -------------------------------------------------------------------------

    def _open(self) -> None:
        if not self.path.exists():
            raise NotFound(f"{self.path}: no such file: check the path")
        if self.path.is_dir():
            raise BadInput(f"{self.path} is a folder: give the list file itself")
        try:
            if zipfile.is_zipfile(self.path):
                self._open_zip()
            else:
                self._raw = self.path.open("rb")
                self.size = self.path.stat().st_size
                self._member = self.name
        except OSError as exc:
            self.close()
            raise BadInput(f"{self.path}: cannot read it ({exc.strerror or exc})") from None
        try:
            self.format = self._sniff()
        except BaseException:
            self.close()
            raise

    def _open_zip(self) -> None:
        try:
            zf = zipfile.ZipFile(self.path)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
            raise BadInput(f"{self.path}: the zip archive is damaged ({exc}): download it "
                           "again") from None
        self._zip = zf
        members = [i for i in zf.infolist()
                   if not i.is_dir() and i.filename.lower().endswith((".txt", ".xml"))]
        if len(members) != 1:
            names = ", ".join(i.filename for i in zf.infolist()) or "nothing"
            self.close()
            raise BadInput(f"{self.path}: expected one .txt or .xml list inside the zip, found "
                           f"{names}: unzip it and import the list file")
        info = members[0]
        self._member = info.filename
        self.size = info.file_size
        try:
            self._raw = zf.open(info)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError,
                RuntimeError) as exc:
            self.close()
            raise BadInput(f"{self.path}: cannot read {info.filename} in the zip ({exc}): "
                           "download it again") from None

    @property
    def where(self) -> str:
        """The file as the caller named it, for messages (`where:line: ...`)."""
        return str(self.path)

    def _sniff(self) -> str:
        assert self._raw is not None
        self._stream = io.BufferedReader(_Guarded(self._raw, self), CHUNK)
        head = self._stream.peek(512)[:512]
        text = head.lstrip(b"\xef\xbb\xbf").lstrip()
        if not text:
            raise BadInput(f"{self.where}: the file is empty: is it the right download?")
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
            raise BadInput(f"{self.where}: the file does not say which month it lists: give "
                           "--period YYYY-MM")
        first_label, first = found[0]
        for label, p in found[1:]:
            if p != first:
                raise BadInput(f"{self.where}: {first_label} says {first} but {label} says {p}:"
                               " check which month this list is")
        return first

    def _settle_single_list(self) -> RatingList:
        named = list_from_name(self.name) or list_from_name(self._member)
        if self.given_list is not None:
            if named is not None and named != self.given_list:
                raise BadInput(f"{self.where}: the file name says {named} but --list says "
                               f"{self.given_list}: check which list this is")
            return self.given_list
        if named is None:
            raise BadInput(f"{self.where}: the file name does not say which list it is: give "
                           "--list standard|rapid|blitz")
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
            raise BadInput(f"{self.where}: more than {MAX_PROBLEMS} malformed rows (the first: "
                           f"{self.problems[0]}): is this a FIDE rating list?")

    # -- iteration ---------------------------------------------------------------------

    def __iter__(self) -> Iterator[ListRow]:
        try:
            if self.format == "xml":
                yield from self._xml_rows()
            else:
                yield from self._txt_rows()
        except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
            raise BadInput(f"{self.where}: the zip archive is damaged or truncated ({exc}): "
                           "download it again") from None
        except OSError as exc:
            raise BadInput(f"{self.where}: cannot read it ({exc})") from None

    # TXT

    def _txt_rows(self) -> Iterator[ListRow]:
        lines = iter(self._stream)
        header = _decode(next(lines, b"")).rstrip("\r\n")
        combined = self._check_header(header)
        self.combined = combined
        if combined:
            self.lists = self._settle_combined()
            self.period = self._settle_period(None)
            spans = tuple((_labels(lst, True), cols) for lst, cols in COMBINED_FIGURES
                          if lst in self.lists)
            (b0, b1), flag_at = COMBINED_TAIL
        else:
            rating_list = self._settle_single_list()
            self.lists = (rating_list,)
            self.period = self._settle_period(period_from_header(header[113:119]))
            spans = ((_labels(rating_list, True), SINGLE_FIGURES),)
            (b0, b1), flag_at = SINGLE_TAIL
        period = self.period
        figures = tuple((lab, r0, r1, g0, g1, k0, k1)
                        for lab, ((r0, r1), (g0, g1), (k0, k1)) in spans)
        only = self.only
        for number, raw in enumerate(lines, start=2):
            if only is not None:
                head = raw[:15].strip()
                if head.isdigit() and int(head) not in only:
                    self.filtered += 1
                    continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                line = raw.decode("latin-1")
            if not line.strip():
                continue
            try:
                yield ListRow(
                    _fide_id(line[0:15]),
                    _name(line[15:76]),
                    period,
                    tuple(_figures(lab, line[r0:r1], line[g0:g1], line[k0:k1])
                          for lab, r0, r1, g0, g1, k0, k1 in figures),
                    line[76:80].strip() or None,
                    line[80:84].strip() or None,
                    line[84:89].strip() or None,
                    line[89:94].strip() or None,
                    line[94:109].strip() or None,
                    line[109:113].strip() or None,
                    _birth(line[b0:b1]),
                    _flag(line[flag_at:]),
                    number,
                )
            except _RowError as exc:
                self._problem(number, f"{exc}; line skipped")
                continue
            self.rows += 1

    def _check_header(self, header: str) -> bool:
        """True for the combined layout; BadInput when the columns are not FIDE's."""
        def expect(cols: tuple[tuple[int, str], ...]) -> str | None:
            for start, title in cols:
                found = header[start:start + len(title)]
                if found.lower() != title.lower():
                    return (f"expected {title!r} at column {start + 1}, found "
                            f"{header[start:start + len(title) + 4].strip()!r}")
            return None

        problem = expect(_HEADER_COMMON)
        if problem is None:
            combined = header[113:118].lower() == "srtng"
            problem = expect(_HEADER_COMBINED if combined else _HEADER_SINGLE)
            if problem is None:
                return combined
        raise BadInput(f"{self.where}:1: the header is not FIDE's TXT layout ({problem}): "
                       "is this a FIDE rating list?")

    # XML

    def _xml_rows(self) -> Iterator[ListRow]:
        parser = _SafeXml(self)
        pending = b""
        while True:
            raw = self._stream.read(CHUNK)
            data = raw
            if self.only is not None and self.period is not None:
                # Whole <player> elements of players not asked for never reach expat.
                pending += raw
                end = len(pending)
                if raw:
                    cut = pending.rfind(b"</player>")
                    if cut < 0 and end < THIN_LIMIT:
                        continue
                    if cut >= 0:
                        end = cut + len(b"</player>")
                data, pending = self._thin(pending[:end]), pending[end:]
            elif pending:
                data, pending = pending + raw, b""
            try:
                parser.feed(data, final=not raw)
            except expat.ExpatError as exc:
                reason = expat.errors.messages.get(exc.code, str(exc))
                raise BadInput(f"{self.where}:{exc.lineno}: the XML is broken ({reason}): "
                               "is the file complete?") from None
            ready, parser.ready = parser.ready, []
            only = self.only
            for fields, line in ready:
                if self.period is None:
                    self._settle_xml(fields)
                if only is not None:
                    head = fields.get("fideid", "").strip()
                    if head.isdigit() and int(head) not in only:
                        self.filtered += 1
                        continue
                row = self._xml_row(fields, line)
                if row is not None:
                    self.rows += 1
                    yield row
            if not raw:
                break
        if not parser.seen_root:
            raise BadInput(f"{self.where}: no <playerslist> element: is this a FIDE XML list?")

    def _thin(self, block: bytes) -> bytes:
        """Drop the plain `<player>` elements whose FIDE ID is not wanted, keeping their line
        breaks (so expat's line numbers stay true). Only a segment that is blank space and one
        element free of any markup declaration, comment, CDATA or processing instruction is
        dropped; anything else goes to expat untouched (the DTD guard sees every `<!`)."""
        only = self.only
        assert only is not None
        out: list[bytes] = []
        *segments, rest = block.split(b"</player>")
        for segment in segments:
            m = _FIDEID.search(segment)
            if (m is not None and int(m.group(1)) not in only
                    and segment.lstrip().startswith(b"<player>")
                    and segment.count(b"<player>") == 1
                    and b"<!" not in segment and b"<?" not in segment):
                self.filtered += 1
                out.append(b"\n" * segment.count(b"\n"))
            else:
                out.append(segment + b"</player>")
        out.append(rest)
        return b"".join(out)

    def _settle_xml(self, fields: dict[str, str]) -> None:
        """Single or combined, which lists and which month: known at the first player."""
        self.combined = any(k in fields for k in ("rapid_rating", "blitz_rating"))
        if self.combined:
            self.lists = self._settle_combined()
            self._xml_figures = tuple(
                (_labels(lst, True), names) for lst, names in XML_COMBINED_FIELDS
                if lst in self.lists)
        else:
            self.lists = (self._settle_single_list(),)
            self._xml_figures = ((_labels(self.lists[0], False), XML_SINGLE_FIELDS),)
        self.period = self._settle_period(None)

    def _xml_row(self, fields: dict[str, str], line: int) -> ListRow | None:
        assert self.period is not None
        get = fields.get
        try:
            return ListRow(
                _fide_id(get("fideid", "")),
                _name(get("name", "")),
                self.period,
                tuple(_figures(lab, get(r, ""), get(g, ""), get(k, ""))
                      for lab, (r, g, k) in self._xml_figures),
                get("country", "").strip() or None,
                get("sex", "").strip() or None,
                get("title", "").strip() or None,
                get("w_title", "").strip() or None,
                get("o_title", "").strip() or None,
                get("foa_title", "").strip() or None,
                _birth(get("birthday", "")),
                _flag(get("flag", "")),
                line,
            )
        except _RowError as exc:
            self._problem(line, f"{exc}; <player> skipped")
            return None

    # -- closing -------------------------------------------------------------------------

    def close(self) -> None:
        for thing in (self._raw, self._zip):
            if thing is not None:
                with contextlib.suppress(Exception):  # must not hide the real error
                    thing.close()
        self._raw = None
        self._zip = None

    def __enter__(self) -> ListFile:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def open_list(path: str | Path, *, period: Period | None = None,
              rating_list: RatingList | None = None,
              only: Container[int] | None = None) -> ListFile:
    """Open a FIDE list file for streaming (see the module docstring)."""
    return ListFile(path, period=period, rating_list=rating_list, only=only)


def _decode(raw: bytes) -> str:
    """UTF-8 when it is, else Latin-1 (FIDE's files have been published in both)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


class _Guarded(io.RawIOBase):
    """Counts the bytes read (for `ListFile.position`)."""

    def __init__(self, raw: IO[bytes], owner: ListFile) -> None:
        self._raw = raw
        self._owner = owner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._raw.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self._owner.position += n
        if self._owner.on_read is not None:
            self._owner.on_read()
        return n


class _SafeXml:
    """expat with every DTD and entity door shut, collecting `<player>` fields as it goes.

    Any `<!DOCTYPE` is refused, so no entity can be declared, let alone expanded or fetched
    (an undeclared `&name;` is a plain syntax error). For speed only two handlers run per
    element: character data (buffered) and element end. The text gathered since the last
    end tag belongs to the element that ends; blanks between elements only add whitespace,
    which the fields strip anyway. A row's position is the line of its `<fideid>`.
    """

    def __init__(self, owner: ListFile) -> None:
        self.owner = owner
        self.ready: list[tuple[dict[str, str], int]] = []
        self.seen_root = False
        self._fields: dict[str, str] = {}
        self._text: list[str] = []
        self._line = 0
        p = expat.ParserCreate()
        p.buffer_text = True
        p.buffer_size = CHUNK
        p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        p.StartDoctypeDeclHandler = self._refuse_dtd
        p.EntityDeclHandler = self._refuse_entity
        p.UnparsedEntityDeclHandler = self._refuse_entity
        p.ExternalEntityRefHandler = self._refuse_external
        p.StartElementHandler = self._root
        p.EndElementHandler = self._end
        p.CharacterDataHandler = self._text.append
        self._parser = p

    def feed(self, data: bytes, *, final: bool) -> None:
        self._parser.Parse(data, final)

    def _refuse(self, what: str) -> None:
        raise BadInput(f"{self.owner.where}:{self._parser.CurrentLineNumber}: the XML "
                       f"declares {what}, which a FIDE list never does; refused for safety")

    def _refuse_dtd(self, *_: Any) -> None:
        self._refuse("a DTD (<!DOCTYPE ...>)")

    def _refuse_entity(self, *_: Any) -> None:
        self._refuse("an entity")

    def _refuse_external(self, *_: Any) -> int:
        self._refuse("an external entity")
        return 0  # pragma: no cover

    def _root(self, name: str, _attrs: Any) -> None:
        if name.lower() != "playerslist":
            raise BadInput(f"{self.owner.where}:{self._parser.CurrentLineNumber}: the root "
                           f"element is <{name}>, not <playerslist>: is this a FIDE XML list?")
        self.seen_root = True
        self._parser.StartElementHandler = None  # the root is all it checks

    def _end(self, name: str) -> None:
        text = self._text
        if name == "player":
            self.ready.append((self._fields, self._line))
            self._fields = {}
        else:
            self._fields[name] = "".join(text)
            if name == "fideid":
                self._line = self._parser.CurrentLineNumber
        text.clear()
