"""The values of a list's row: numbers, FIDE IDs, names, titles, flags and birth years, each
read from its text or refused as a malformed row. Old title codes (`g`, `m`, `f`, `c`, `wg`,
`wm`, `wf`, `wc`) become GM, IM, FM, CM, WGM, WIM, WFM, WCM; any other title, or a federation
that is not three letters, makes the row malformed (the database keeps only what a FIDE list
can hold); a birth date dd.mm.yy gives its year (`birth_year_of`); `0000` and `0` are no
value. A row without a name (FIDE lists a few IDs so) is read with the name "".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tracker.model import MAX_K, MAX_RATING, ListRating, RatingList

MIN_AGE = 3
"""A dd.mm.yy birth date is read in the century that makes the player at least this old in
the list's year (`birth_year_of`)."""

OLD_TITLES = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
    "h": "HGM",
}
"""The one- and two-letter title codes of the lists before 2012."""
TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "HGM"})
"""The titles a list's title and women's title columns hold (as today's lists write them)."""
TITLE_OF = {**{t: t for t in TITLES}, **OLD_TITLES}
"""What a title column may hold, and the title it is."""
TITLE_CODES = frozenset(TITLE_OF)
FLAGS = frozenset({"i", "w", "wi"})
_DATE = re.compile(r"^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$")
_ISO_DATE = re.compile(r"^(\d{4})[./-]\d{1,2}[./-]\d{1,2}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class RowError(Exception):
    """A malformed row: skipped and recorded as a problem."""


def _number(text: str, label: str, lo: int, hi: int, zero_is_none: bool) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not (text.isdigit() and text.isascii()):
        raise RowError(f"{label} {text[:20]!r} is not a number")
    value = int(text)
    if zero_is_none and value == 0:
        return None
    if not lo <= value <= hi:
        raise RowError(f"{label} {value} is out of range")
    return value


@dataclass(frozen=True)
class Labels:
    """One list's labels for messages (built once, not per row)."""

    list: RatingList
    rating: str
    games: str
    k: str
    empty: ListRating


def list_labels(rating_list: RatingList, prefix: bool) -> Labels:
    head = f"{rating_list} " if prefix else ""
    return Labels(
        rating_list,
        f"{head}rating",
        f"{head}games",
        f"{head}K",
        ListRating(rating_list, None, None, None),
    )


def read_figures(lab: Labels, rating: str, games: str, k: str) -> ListRating:
    """A ListRating from the three texts; an all-blank one is the shared empty value."""
    if not (rating.strip() or games.strip() or k.strip()):
        return lab.empty
    return ListRating(
        lab.list,
        _number(rating, lab.rating, 1, MAX_RATING, True),
        _number(games, lab.games, 0, 999, False),
        _number(k, lab.k, 0, MAX_K, True),
    )


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
            raise RowError(f"birth date {text!r} is not a date")
        if len(m.group(3)) == 2:
            year += 2000 if 2000 + year <= list_year - MIN_AGE else 1900
        return _number(str(year), "birth year", 1850, 2100, True)
    m = _ISO_DATE.match(text)
    if m is not None:  # a full date where only the year is expected
        return _number(m.group(1), "birth year", 1850, 2100, True)
    return _number(text, "birth year", 1850, 2100, True)


def read_fide_id(text: str) -> int:
    value = _number(text, "FIDE ID", 1, 10**12, False)
    if value is None:
        raise RowError("no FIDE ID")
    return value


def read_flag(text: str) -> str | None:
    text = text.strip()
    if not text:
        return None
    text = text.lower()
    if text not in FLAGS:
        raise RowError(f"flag {text[:20]!r} is not i, w or wi")
    return text


def read_name(text: str) -> str:
    """A name, its blanks and line breaks made single spaces; one holding a control
    character (a NUL byte) is no name a list prints."""
    text = text.strip()
    if "  " in text or "\t" in text or "\n" in text or "\r" in text:
        text = " ".join(text.split())
    if not text.isprintable() and _CONTROL.search(text):
        raise RowError(f"name {text[:20]!r} holds a control character")
    return text


def read_title(text: str, label: str = "title") -> str | None:
    """A title column's title (`TITLE_OF`), or None when it is blank."""
    text = text.strip()
    if not text:
        return None
    title = TITLE_OF.get(text)
    if title is None:
        raise RowError(f"{label} {text[:20]!r} is not a FIDE title")
    return title


def read_federation(text: str) -> str | None:
    """A federation: three letters (FIDE's codes: NOR, FID), or None when blank."""
    text = text.strip()
    if not text:
        return None
    if len(text) != 3 or not (text.isalpha() and text.isascii()):
        raise RowError(f"federation {text[:20]!r} is not three letters")
    return text
