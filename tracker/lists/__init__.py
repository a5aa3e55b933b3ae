"""FIDE's downloadable rating lists of every era (TXT fixed width and XML, plain or zipped),
streamed.

Pure: standard library only. The layouts are those of `shared/spec/fide-list-formats.md` and
the older ones of FIDE's archive (`docs/lists.md` lists them all):

    with open_list("standard_nov25frl.zip") as lst:
        for row in lst:          # ListRow, one per player, never the whole file in memory
            ...
        lst.problems             # malformed lines/elements skipped, with their position

What a file is:
- zipped or not: by its first bytes (a zip holds exactly one list member, read through
  `zipfile.ZipFile.open`, never extracted);
- TXT or XML: by its first non-blank byte (`<` is XML);
- which TXT layout: from the words of its header (the first non-blank line), never from the
  offsets of one era: `ID_NUMBER NAME TITLE COUNTRY JAN01 GAMES FLAG` (2001), the same with
  `BIRTHDAY` (2003-2008, dates dd.mm.yy), `ID number Name TitlFed Mar11 GamesBorn Flag`
  (2009-2012, glued words), `ID Number Name Fed Sex Tit WTit OTit [FOA] sep12 Gms K B-day
  Flag` (2012 on) and the combined `... SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag`
  (2015 on). See `TxtLayout`;
- single or combined: by the TXT header (`SRtng` column) or the XML elements (`rapid_rating`);
- which list (single lists): the file name (`standard_...`, `rapid_...`, `blitz_...`; an old
  name without one, `JAN01FRL.TXT`, is the standard list: the only one FIDE had then) or the
  caller's `rating_list`;
- the period: the file name (`standard_nov25frl.zip`, `APR04FRL.TXT` -> 2004-04), the TXT
  header (`NOV25`, `Mar11`, `sep12` column title) or the caller's `period`. When two of them
  disagree, the file is refused.

Values: old title codes (`g`, `m`, `f`, `c`, `wg`, `wm`, `wf`, `wc`) become GM, IM, FM, CM,
WGM, WIM, WFM, WCM; a birth date dd.mm.yy gives its year (`birth_year_of`); `0000` and `0` are
no value. A row without a name (FIDE lists a few IDs so) is read with the name "".

Safety: XML goes through expat with handlers that refuse any DTD (so no entity can be
declared, let alone expanded: a billion-laughs file is refused at its `<!DOCTYPE`), and
external entities are never fetched. Sizes are capped as PGN tags are: a TXT line longer
than `MAX_LINE` bytes, an XML element holding more than `MAX_TEXT` characters or markup
(a tag, comment...) longer than `MAX_MARKUP` bytes refuse the file with one line, after
reading at most a block beyond the cap (a 1 GiB text in a small zip costs a few MiB). A
structural fault (damaged zip, broken XML, a header of no FIDE layout) raises BadInput with
the file and position; a malformed line or element is skipped and recorded in `problems`
(too many of them and the file is refused).
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import io
import re
import zipfile
import zlib
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any
from xml.parsers import expat

from tracker.errors import BadInput, NotFound
from tracker.model import (  # ListRating, ListRow: moved to tracker.model (issue 16)
    MAX_K,
    MAX_RATING,
    ListRating,
    ListRow,
    Period,
    RatingList,
)

MAX_PROBLEMS = 1_000  # more malformed rows than this: the file is not what it claims to be
PROBLEMS_KEPT = 50  # problems kept with their message (all are counted)
CHUNK = 1 << 16  # XML bytes handed to expat at a time
BLOCK = 1 << 16  # TXT bytes read at a time
THIN_LIMIT = 1 << 22  # no </player> in this many bytes: hand them to expat as they are
MAX_LINE = 1_024
"""Bytes a TXT line may hold (FIDE's longest, the combined list's, has 160): longer refuses
the file."""
MAX_TEXT = 4_096
"""Characters an XML element may hold (as a PGN tag value: FIDE's longest field, a name,
has under 100): more refuses the file."""
MAX_MARKUP = 1 << 20
"""Bytes expat may hold in one unfinished token (a tag, comment, processing instruction):
more refuses the file."""
MAX_BLANK_LINES = 100  # blank lines allowed before a TXT header
MAX_WANTED = 200_000  # more wanted IDs than this: a TXT list is filtered line by line
_FIDEID = re.compile(rb"<fideid>\s*(\d{1,12})\s*</fideid>")
_FIRST_PLAYER = re.compile(rb"\s*<player>")
_NEXT_PLAYER = re.compile(rb"</player>\s*<player>")
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MIN_AGE = 3
"""A dd.mm.yy birth date is read in the century that makes the player at least this old in
the list's year (`birth_year_of`)."""

OLD_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM",
              "wf": "WFM", "wc": "WCM", "h": "HGM"}
"""The one- and two-letter title codes of the lists before 2012."""
TITLE_CODES = frozenset(OLD_TITLES) | frozenset(OLD_TITLES.values()) | {
    "IM", "FM", "CM", "GM", "WGM", "WIM", "WFM", "WCM", "HGM"}


# ---------------------------------------------------------------------------------------
# TXT layouts, from the header's words

FIELDS = ("fide_id", "name", "federation", "sex", "title", "women_title", "other_titles",
          "foa_title", "rating", "games", "k", "s_rating", "s_games", "s_k", "r_rating",
          "r_games", "r_k", "b_rating", "b_games", "b_k", "birth", "flag")
"""What a TXT column can hold (`rating`, `games`, `k`: a single list's; `s_`, `r_`, `b_`: the
combined list's standard, rapid and blitz)."""

HEADER_WORDS: dict[str, str] = {
    "name": "name", "fed": "federation", "country": "federation",
    "federation": "federation", "sex": "sex", "tit": "title", "titl": "title",
    "title": "title", "wtit": "women_title", "otit": "other_titles", "foa": "foa_title",
    "gms": "games", "games": "games", "k": "k", "b-day": "birth", "bday": "birth",
    "birthday": "birth", "born": "birth", "flag": "flag", "rtng": "rating",
    "srtng": "s_rating", "sgm": "s_games", "sk": "s_k",
    "rrtng": "r_rating", "rgm": "r_games", "rk": "r_k",
    "brtng": "b_rating", "bgm": "b_games", "bk": "b_k",
    "id_number": "fide_id", "id": "fide_id", "fideid": "fide_id",
}
"""Column titles FIDE has used (lowercase), and what they hold. A header word that is none of
these, nor a month (`JAN01`), is split into known words when it is several glued
(`TitlFed`, `GamesBorn`) and otherwise ignored with its column."""

COMBINED_FIGURES: tuple[tuple[RatingList, tuple[str, str, str]], ...] = (
    (RatingList.STANDARD, ("s_rating", "s_games", "s_k")),
    (RatingList.RAPID, ("r_rating", "r_games", "r_k")),
    (RatingList.BLITZ, ("b_rating", "b_games", "b_k")),
)
SINGLE_FIGURES = ("rating", "games", "k")

EXPECTED = ("'ID Number', 'Name' and a rating column named after the month (JAN23, Mar11) "
            "or SRtng, RRtng, BRtng (docs/lists.md)")

FLAGS = frozenset({"i", "w", "wi"})
_TOKEN = re.compile(r"\S+")
_MONTH_TITLE = re.compile(r"^([A-Za-z]{3})(\d{2})$")
_NAME_MONTH = re.compile(r"(?:^|[^a-z])(?:(standard|rapid|blitz)_)?([a-z]{3})(\d{2})frl",
                         re.IGNORECASE)
_NAME_LIST = re.compile(r"(?:^|[^a-z])(standard|rapid|blitz)_", re.IGNORECASE)
_DATE = re.compile(r"^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$")
_ISO_DATE = re.compile(r"^(\d{4})[./-]\d{1,2}[./-]\d{1,2}$")


@dataclass(frozen=True)
class TxtLayout:
    """A TXT header read: each column's field and span (0-based, end exclusive; the first
    starts at 0, the last runs to the end of the line), the rating column's title (the month,
    for single lists) and how rows are cut.

    `aligned`: the lists of 2012 on put every value at its column title's start (sliced
    there, fast); the older ones print numbers right-aligned and dates a column early, so
    their rows are cut at blanks, each word going to the column it overlaps most.
    """

    columns: tuple[tuple[str, int, int], ...]  # field "": a column no field reads
    combined: bool
    month: str | None
    aligned: bool
    era: str

    index: dict[str, tuple[int, int]] = dataclasses.field(
        default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        for name, start, end in self.columns:
            if name:
                self.index.setdefault(name, (start, end))

    def span(self, field: str) -> tuple[int, int]:
        """The field's column, or (0, 0) (an empty slice) when the layout has none."""
        return self.index.get(field, (0, 0))


def _is_month(word: str) -> bool:
    m = _MONTH_TITLE.match(word)
    return m is not None and m.group(1).lower() in MONTHS


def _split_glued(word: str) -> list[tuple[str, int]] | None:
    """`TitlFed` -> [('titl', 0), ('fed', 4)]: a word made of known words, or None."""
    if not word:
        return []
    for size in range(len(word), 0, -1):
        head = word[:size]
        if head.lower() in HEADER_WORDS or _is_month(head):
            rest = _split_glued(word[size:])
            if rest is not None:
                return [(head, 0), *((w, at + size) for w, at in rest)]
    return None


def read_header(header: str) -> TxtLayout | str:
    """The layout a TXT header names, or what is wrong with it (a phrase for the message)."""
    words = [(m.group(), m.start()) for m in _TOKEN.finditer(header)]
    found: list[tuple[str, int]] = []  # (field, start), in order
    month: str | None = None
    i = 0
    while i < len(words):
        word, at = words[i]
        low = word.lower()
        if low == "id" and i + 1 < len(words) and words[i + 1][0].lower() in ("number", "no",
                                                                                "nr"):
            found.append(("fide_id", at))
            i += 2
            continue
        parts = [(word, 0)] if low in HEADER_WORDS or _is_month(word) else _split_glued(word)
        for part, offset in parts or ():
            if _is_month(part):
                found.append(("rating", at + offset))
                month = month or part
            else:
                found.append((HEADER_WORDS[part.lower()], at + offset))
        if not parts:
            found.append(("", at))  # an unknown column: bounds its neighbours, read by none
        i += 1
    seen: set[str] = set()
    kept: list[tuple[str, int]] = []
    for field, at in found:
        kept.append(("" if field in seen else field, at))
        seen.add(field)
    names = {f for f, _ in kept}
    if "fide_id" not in names:
        return "no 'ID Number' column"
    if "name" not in names:
        return "no 'Name' column"
    combined = bool(names & {"s_rating", "r_rating", "b_rating"})
    if not combined and "rating" not in names:
        return "no rating column"
    for want, title in (("s_rating", "SRtng"), ("r_rating", "RRtng"), ("b_rating", "BRtng")):
        if combined and want not in names:
            return f"no {title} column beside the other lists'"
    if combined and "rating" in names:
        return "both a month's rating column and SRtng/RRtng/BRtng"
    columns: list[tuple[str, int, int]] = []
    for n, (field, at) in enumerate(kept):
        start = 0 if n == 0 else at
        end = kept[n + 1][1] if n + 1 < len(kept) else 1 << 30
        columns.append((field, start, end))
    aligned = "sex" in names
    if aligned:
        era = ("combined list, " if combined else "single list, ") + (
            "2016 on (FOA)" if "foa_title" in names else "2012-2015 (no FOA)")
    elif "federation" in names and header.lstrip().lower().startswith("id_number"):
        era = "2003-2008" if "birth" in names else "2001-2002"
    else:
        era = "2009-2012"
    return TxtLayout(tuple(columns), combined, month, aligned, era)


def _month_period(mon: str, yy: str) -> Period | None:
    try:
        month = MONTHS.index(mon.lower()) + 1
    except ValueError:
        return None
    y = int(yy)
    return Period(2000 + y if y < 70 else 1900 + y, month)


def period_from_name(name: str) -> Period | None:
    """The list month an archive name carries (`standard_nov25frl.zip` -> 2025-11,
    `JAN01FRL.TXT` -> 2001-01, `rapid_sep12frl_xml.zip` -> 2012-09)."""
    m = _NAME_MONTH.search(Path(name).name)
    return None if m is None else _month_period(m.group(2), m.group(3))


def list_from_name(name: str) -> RatingList | None:
    """The list a file name names (`rapid_rating_list.zip` -> rapid); an archive name of
    the years before 2012 without one (`APR04FRL.TXT`) is the standard list; None for a name
    that says nothing (`players_list.zip`)."""
    base = Path(name).name
    m = _NAME_LIST.search(base)
    if m is not None:
        return RatingList(m.group(1).lower())
    m = _NAME_MONTH.search(base)
    if m is not None and m.group(1) is None and _month_period(m.group(2), m.group(3)):
        return RatingList.STANDARD
    return None


def period_from_header(title: str) -> Period | None:
    """The period a TXT rating column title names (`NOV25` -> 2025-11, `sep12`)."""
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
        raise _RowError(f"{label} {text[:20]!r} is not a number")
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
                      _number(k, lab.k, 0, MAX_K, True))


def birth_year_of(text: str, list_year: int) -> int | None:
    """The birth year a list prints: a year (`1990`; `0000` is none), a date dd.mm.yy of the
    2003-2008 lists or dd.mm.yyyy, or an ISO date. A two-digit year is read in the century
    that makes the player at least MIN_AGE years old in the list's year (`17.01.72` in 2004
    is 1972, `05.03.01` in 2008 is 2001, `05.03.06` in 2008 is 1906); `00.00.00` is none."""
    text = text.strip()
    if not text:
        return None
    if len(text) == 4 and text.isdigit() and text.isascii():
        value = int(text)
        if 1850 <= value <= 2100:
            return value
        return _number(text, "birth year", 1850, 2100, True)  # 0000: None; else the error
    m = _DATE.match(text)
    if m is not None:
        day, month, year = (int(g) for g in m.groups())
        if day == month == year == 0:
            return None
        if day > 31 or month > 12:
            raise _RowError(f"birth date {text!r} is not a date")
        if len(m.group(3)) == 2:
            year += 2000 if 2000 + year <= list_year - MIN_AGE else 1900
        return _number(str(year), "birth year", 1850, 2100, True)
    m = _ISO_DATE.match(text)
    if m is not None:  # a full date where only the year is expected
        return _number(m.group(1), "birth year", 1850, 2100, True)
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
        raise _RowError(f"flag {text[:20]!r} is not i, w or wi")
    return text


def _name(text: str) -> str:
    text = text.strip()
    if "  " in text or "\t" in text:
        text = " ".join(text.split())
    return text


def _title(text: str) -> str | None:
    text = text.strip()
    return OLD_TITLES.get(text, text) if text else None


# ---------------------------------------------------------------------------------------
# The list file


class ListFile:
    """One list file (plain or zipped, TXT or XML), iterated as ListRow values.

    Open with `open_list` (a context manager). Before iterating, `format` ('txt'/'xml'),
    `size` (bytes to read, for a progress bar) and `name` are known; `combined`, `lists`,
    `period` (and `layout` for TXT) are known once the first row is read. During and after
    iteration, `position` is the number of bytes read, `lines` the TXT lines read,
    `problem_count` the number of malformed rows skipped and `problems` the first
    PROBLEMS_KEPT of them ("file:line: ...").

    `only`: when given, rows whose FIDE ID is not in it are skipped before they are parsed
    (counted in `filtered`; they are not checked beyond their ID): importing a 1.8-million
    player list for the few players of a database costs little more than reading it.
    `on_read`, when set, is called after every block read (a progress bar reads `position`).
    `label` names the file in messages instead of its path (a folder import's relative name).
    """

    def __init__(self, path: str | Path, *, period: Period | None = None,
                 rating_list: RatingList | None = None,
                 only: Container[int] | None = None, label: str | None = None) -> None:
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
        self._xml_figures: tuple[tuple[_Labels, tuple[str, str, str]], ...] = ()
        self._txt_figures: tuple[tuple[_Labels, tuple[str, ...]], ...] = ()
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
            raise BadInput(f"{self.where}: not a regular file (a pipe or a device?): save the "
                           "list to a file and import that")
        try:
            if zipfile.is_zipfile(self.path):
                self._open_zip()
            else:
                self._raw = self.path.open("rb")
                self.size = self.path.stat().st_size
                self._member = self.name
                if self._raw.read(4) == b"PK\x03\x04":
                    raise BadInput(f"{self.where}: the zip archive is damaged (its end is "
                                   "missing: the download was cut short?): download it again")
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
            raise BadInput(f"{self.where}: the zip archive is damaged ({exc}): download it "
                           "again") from None
        self._zip = zf
        members = [i for i in zf.infolist()
                   if not i.is_dir() and i.filename.lower().endswith((".txt", ".xml"))]
        if len(members) != 1:
            names = ", ".join(i.filename for i in zf.infolist()[:10]) or "nothing"
            self.close()
            raise BadInput(f"{self.where}: expected one .txt or .xml list inside the zip, "
                           f"found {names!s}: unzip it and import the list file")
        info = members[0]
        self._member = info.filename
        self.size = info.file_size
        try:
            self._raw = zf.open(info)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError,
                RuntimeError) as exc:
            self.close()
            raise BadInput(f"{self.where}: cannot read {info.filename} in the zip ({exc}): "
                           "download it again") from None

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
        named = None
        for label in (self.name, self._member):
            m = _NAME_LIST.search(Path(label).name)
            if m is not None:
                named = RatingList(m.group(1).lower())
                break
        if self.given_list is not None:
            if named is not None and named != self.given_list:
                raise BadInput(f"{self.where}: the file name says {named} but --list says "
                               f"{self.given_list}: check which list this is")
            return self.given_list
        if named is None:
            named = list_from_name(self.name) or list_from_name(self._member)
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

    def _too_long(self, line: int) -> BadInput:
        return BadInput(f"{self.where}:{line}: a line longer than {MAX_LINE:,} bytes (a FIDE "
                        "list's lines have under 200): not a FIDE rating list, refused")

    def _txt_lines(self) -> Iterator[tuple[int, list[bytes], bytes | None]]:
        """(number of the first line, the whole lines of a block, the same bytes joined),
        each line at most MAX_LINE bytes: a longer line refuses the file before more of it
        is read."""
        pending = b""
        number = 1
        read = self._stream.read
        while True:
            block = read(BLOCK)
            if not block:
                break
            data = pending + block if pending else block
            cut = data.rfind(b"\n")
            if cut < 0:
                pending = data
            else:
                whole, pending = data[:cut], data[cut + 1:]
                lines = whole.split(b"\n")
                yield number, lines, whole
                number += len(lines)
            if len(pending) > MAX_LINE:
                raise self._too_long(number)
        if pending:
            yield number, [pending], None

    def _txt_rows(self) -> Iterator[ListRow]:
        blocks = self._txt_lines()
        layout: TxtLayout | None = None
        rest: list[bytes] = []
        number = 0
        blank = 0
        for first, lines, _ in blocks:
            for i, raw in enumerate(lines):
                if len(raw) > MAX_LINE:
                    raise self._too_long(first + i)
                if not raw.strip():
                    blank += 1
                    if blank > MAX_BLANK_LINES:
                        raise BadInput(f"{self.where}:{first + i}: more than "
                                       f"{MAX_BLANK_LINES} blank lines and no header: is "
                                       "this a FIDE rating list?")
                    continue
                layout = self._settle_txt(_decode(raw).rstrip("\r\n"), first + i)
                rest, number = lines[i + 1:], first + i + 1
                break
            if layout is not None:
                break
        if layout is None:
            raise BadInput(f"{self.where}: the file is empty: is it the right download?")
        self.lines = number - 1
        wanted = self._wanted
        yield from self._txt_block(layout, number, rest, None, wanted)
        for first, lines, whole in blocks:
            yield from self._txt_block(layout, first, lines, whole, wanted)

    def _settle_txt(self, header: str, line: int) -> TxtLayout:
        layout = read_header(header)
        if isinstance(layout, str):
            shown = " ".join(header.split())[:50]
            raise BadInput(f"{self.where}:{line}: the header is not one of FIDE's TXT layouts "
                           f"({layout} in {shown!r}): expected {EXPECTED}")
        self.layout = layout
        self.combined = layout.combined
        if layout.combined:
            self.lists = self._settle_combined()
            self.period = self._settle_period(None)
        else:
            self.lists = (self._settle_single_list(),)
            month = layout.month
            self.period = self._settle_period(None if month is None
                                              else period_from_header(month))
        if layout.combined:
            self._txt_figures = tuple((_labels(lst, True), names)
                                      for lst, names in COMBINED_FIGURES if lst in self.lists)
        else:
            self._txt_figures = ((_labels(self.lists[0], True), SINGLE_FIGURES),)
        return layout

    def _txt_block(self, layout: TxtLayout, first: int, lines: list[bytes],
                   whole: bytes | None, wanted: set[bytes] | None) -> Iterator[ListRow]:
        """The rows of some whole lines (the first numbered `first`; `whole`: the same bytes
        joined). With `only`, a block whose every ID is a number without leading zeros is
        filtered in one set intersection of its IDs (as text) and the wanted ones (`wanted`),
        and only the lines that match are cut; any other block is filtered line by line."""
        self.lines += len(lines)
        if lines and max(map(len, lines)) > MAX_LINE:
            raise self._too_long(first + next(i for i, raw in enumerate(lines)
                                              if len(raw) > MAX_LINE))
        numbered: Iterable[tuple[int, bytes]] = enumerate(lines, start=first)
        check = self.only is not None
        if wanted is not None and whole is not None:
            i0, i1 = layout.span("fide_id")
            ids = [raw[i0:i1].strip() for raw in lines]
            if b"".join(ids).isdigit() and b" 0" not in b" " + b" ".join(ids):
                empty = list(_indexes(ids, b""))
                found = sorted({k for v in wanted.intersection(ids) for k in _indexes(ids, v)}
                               | {k for k in empty if lines[k].strip()})  # no ID: a problem
                self.filtered += len(ids) - len(empty) - len(found) + sum(
                    1 for k in empty if lines[k].strip())
                numbered = [(first + k, lines[k]) for k in found]
                check = False
        yield from self._txt_cut(layout, numbered, check)

    def _txt_cut(self, layout: TxtLayout, numbered: Iterable[tuple[int, bytes]],
                 check: bool) -> Iterator[ListRow]:
        """The rows of these numbered lines (`check`: skip those not in `only` first)."""
        period = self.period
        assert period is not None
        spans = self._txt_figures
        only = self.only if check else None
        i0, i1 = layout.span("fide_id")
        if not layout.aligned:
            for number, raw in numbered:
                if only is not None:
                    head = raw[i0:i1].strip()
                    if head.isdigit() and int(head) not in only:
                        self.filtered += 1
                        continue
                line = _decode_line(raw)
                if not line.strip():
                    continue
                row = self._loose_row(layout, spans, line, period, number)
                if row is not None:
                    self.rows += 1
                    yield row
            return
        n0, n1 = layout.span("name")
        f0, f1 = layout.span("federation")
        s0, s1 = layout.span("sex")
        t0, t1 = layout.span("title")
        w0, w1 = layout.span("women_title")
        o0, o1 = layout.span("other_titles")
        a0, a1 = layout.span("foa_title")
        b0, b1 = layout.span("birth")
        g0, g1 = layout.span("flag")
        figures = tuple((lab, *layout.span(r), *layout.span(g), *layout.span(k))
                        for lab, (r, g, k) in spans)
        year = period.year
        titles = OLD_TITLES
        for number, raw in numbered:
            if only is not None:
                head = raw[i0:i1].strip()
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
                title = line[t0:t1].strip()
                yield ListRow(
                    _fide_id(line[i0:i1]),
                    _name(line[n0:n1]),
                    period,
                    tuple(_figures(lab, line[r0:r1], line[gg0:gg1], line[k0:k1])
                          for lab, r0, r1, gg0, gg1, k0, k1 in figures),
                    line[f0:f1].strip() or None,
                    line[s0:s1].strip() or None,
                    (titles.get(title, title) if title else None),
                    line[w0:w1].strip() or None,
                    line[o0:o1].strip() or None,
                    line[a0:a1].strip() or None,
                    birth_year_of(line[b0:b1], year),
                    _flag(line[g0:g1]),
                    number,
                )
            except _RowError as exc:
                # a value off its column: try cutting the line at its blanks instead
                row = self._loose_row(layout, spans, line, period, number, str(exc))
                if row is None:
                    continue
                yield row
            self.rows += 1

    def _loose_row(self, layout: TxtLayout, spans: tuple[tuple[_Labels, tuple[str, ...]], ...],
                   line: str, period: Period, number: int,
                   first_error: str | None = None) -> ListRow | None:
        """A row cut at its blanks: each word goes to the column it overlaps most (ties: the
        earlier), a column's words keep their spacing (names)."""
        columns = layout.columns
        starts = [start for _, start, _ in columns]
        name0, name1 = layout.span("name")
        got: dict[str, tuple[int, int]] = {}
        for m in _TOKEN.finditer(line):
            a, b = m.span()
            if name0 <= a < name1:  # a name's words run on, whatever they overlap
                old = got.get("name")
                got["name"] = (a, b) if old is None else (old[0], b)
                continue
            at = max(0, bisect.bisect_right(starts, a) - 1)
            best, best_overlap = at, min(b, columns[at][2]) - max(a, columns[at][1])
            j = at + 1
            while j < len(columns) and columns[j][1] < b:
                overlap = min(b, columns[j][2]) - max(a, columns[j][1])
                if overlap > best_overlap:
                    best, best_overlap = j, overlap
                j += 1
            field = columns[best][0]
            old = got.get(field)
            got[field] = (a, b) if old is None else (old[0], b)

        title = got.get("title")
        if title is not None and line[title[0]:title[1]].strip() not in TITLE_CODES:
            # the last word of a long name, past the title's column title (TITLE at 39 of
            # the quarterly lists, whose title codes stand at 44)
            del got["title"]
            old = got.get("name")
            got["name"] = title if old is None else (old[0], title[1])

        def get(field: str) -> str:
            cut = got.get(field)
            return "" if cut is None else line[cut[0]:cut[1]]

        try:
            return ListRow(
                _fide_id(get("fide_id")),
                _name(get("name")),
                period,
                tuple(_figures(lab, get(r), get(g), get(k)) for lab, (r, g, k) in spans),
                get("federation").strip() or None,
                get("sex").strip() or None,
                _title(get("title")),
                _title(get("women_title")),
                get("other_titles").strip() or None,
                get("foa_title").strip() or None,
                birth_year_of(get("birth"), period.year),
                _flag(get("flag")),
                number,
            )
        except _RowError as exc:
            self._problem(number, f"{first_error or exc}; line skipped")
            return None

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
            except LookupError as exc:  # expat asks Python for a declared encoding it lacks
                raise BadInput(f"{self.where}:1: the XML declares an encoding Python does not "
                               f"know ({exc}): FIDE's lists are UTF-8 or ISO-8859-1; is the "
                               "file damaged?") from None
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
        wanted = self._wanted
        count = block.count(b"</player>")
        if (wanted is not None and count
                and (b"!" not in block or b"<!" not in block)  # "!" is rare: a fast scan
                and (b"?" not in block or b"<?" not in block)):
            # The whole block at once when it is nothing but plain players, none wanted:
            # each segment starts with its one <player> (after blanks), no "<!" or "<?"
            # anywhere, the IDs plain numbers without leading zeros, none of them wanted.
            ids = _FIDEID.findall(block)
            if (len(ids) == count and block.count(b"<player>") == count
                    and _FIRST_PLAYER.match(block) is not None
                    and (block.count(b"</player>\n<player>") == count - 1
                         or len(_NEXT_PLAYER.findall(block)) == count - 1)
                    and min(ids) >= b"1" and not wanted.intersection(ids)):
                self.filtered += count
                tail = block.rfind(b"</player>") + len(b"</player>")
                return b"\n" * block.count(b"\n", 0, tail) + block[tail:]
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
                _title(get("title", "")),
                _title(get("w_title", "")),
                get("o_title", "").strip() or None,
                get("foa_title", "").strip() or None,
                birth_year_of(get("birthday", ""), self.period.year),
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


def open_list(path: str | Path, *, period: Period | None = None,
              rating_list: RatingList | None = None,
              only: Container[int] | None = None, label: str | None = None) -> ListFile:
    """Open a FIDE list file for streaming (see the module docstring)."""
    return ListFile(path, period=period, rating_list=rating_list, only=only, label=label)


def _indexes(items: list[bytes], value: bytes) -> Iterator[int]:
    """Every index of `value` in `items` (list.index: C speed)."""
    at = -1
    while True:
        try:
            at = items.index(value, at + 1)
        except ValueError:
            return
        yield at


def _decode(raw: bytes) -> str:
    """UTF-8 when it is, else Latin-1 (FIDE's files have been published in both)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _decode_line(raw: bytes) -> str:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        line = raw.decode("latin-1")
    return line[:-1] if line.endswith("\r") else line


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

    Caps: an element's text over MAX_TEXT characters is refused at its end tag, or after the
    block that took it over the cap when its end is still to come; markup that expat still
    holds unfinished after a block (a giant tag, comment or attribute) over MAX_MARKUP bytes
    is refused too. Only the known fields are kept, so a player of a million different
    elements holds no more than one of twenty.
    """

    def __init__(self, owner: ListFile) -> None:
        self.owner = owner
        self.ready: list[tuple[dict[str, str], int]] = []
        self.seen_root = False
        self._fields: dict[str, str] = {}
        self._text: list[str] = []
        self._line = 0
        self._fed = 0
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
        p = self._parser
        p.Parse(data, final)
        self._fed += len(data)
        text = self._text
        if sum(map(len, text)) > MAX_TEXT:
            # blanks only pad (the fields are stripped; a thinned block leaves many newlines)
            kept = "".join(text).strip()
            if len(kept) > MAX_TEXT:
                self._refuse_size(f"text of more than {MAX_TEXT:,} characters")
            text[:] = [kept]
        if self._fed - p.CurrentByteIndex > MAX_MARKUP:
            self._refuse_size(f"a tag or comment of more than {MAX_MARKUP:,} bytes")

    def _refuse_size(self, what: str) -> None:
        raise BadInput(f"{self.owner.where}:{self._parser.CurrentLineNumber}: the XML holds "
                       f"{what} (a FIDE list's longest field, a name, has under 100): not a "
                       "FIDE rating list, refused")

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
                           f"element is <{name[:40]}>, not <playerslist>: is this a FIDE XML "
                           "list?")
        self.seen_root = True
        self._parser.StartElementHandler = None  # the root is all it checks

    def _end(self, name: str) -> None:
        text = self._text
        if name == "player":
            self.ready.append((self._fields, self._line))
            self._fields = {}
        elif name in XML_TEXT_FIELDS:
            value = "".join(text)
            if len(value) > MAX_TEXT and len(value := value.strip()) > MAX_TEXT:
                self._refuse_size(f"a <{name}> of more than {MAX_TEXT:,} characters")
            self._fields[name] = value
            if name == "fideid":
                self._line = self._parser.CurrentLineNumber
        elif len(text) > 1 or (text and len(text[0]) > MAX_TEXT):
            value = "".join(text).strip()
            if len(value) > MAX_TEXT:
                self._refuse_size(f"a <{name[:40]}> of more than {MAX_TEXT:,} characters")
        text.clear()
