"""The TXT lists' layouts, read from the words of their header, and the month and list a
file's name or header names. Which TXT layout a file has is told from the words of its
header (the first non-blank line), never from the offsets of one era: `ID_NUMBER NAME TITLE
COUNTRY JAN01 GAMES FLAG` (2001), the same with `BIRTHDAY` (2003-2008, dates dd.mm.yy), `ID
number Name TitlFed Mar11 GamesBorn Flag` (2009-2012, glued words), `ID Number Name Fed Sex
Tit WTit OTit [FOA] sep12 Gms K B-day Flag` (2012 on) and the combined `... SRtng SGm SK
RRtng RGm Rk BRtng BGm BK B-day Flag` (2015 on). See `TxtLayout`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from tracker.model import Period, RatingList

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

FIELDS = (
    "fide_id",
    "name",
    "federation",
    "sex",
    "title",
    "women_title",
    "other_titles",
    "foa_title",
    "rating",
    "games",
    "k",
    "s_rating",
    "s_games",
    "s_k",
    "r_rating",
    "r_games",
    "r_k",
    "b_rating",
    "b_games",
    "b_k",
    "birth",
    "flag",
)
"""What a TXT column can hold (`rating`, `games`, `k`: a single list's; `s_`, `r_`, `b_`: the
combined list's standard, rapid and blitz)."""

HEADER_WORDS: dict[str, str] = {
    "name": "name",
    "fed": "federation",
    "country": "federation",
    "federation": "federation",
    "sex": "sex",
    "tit": "title",
    "titl": "title",
    "title": "title",
    "wtit": "women_title",
    "otit": "other_titles",
    "foa": "foa_title",
    "gms": "games",
    "games": "games",
    "k": "k",
    "b-day": "birth",
    "bday": "birth",
    "birthday": "birth",
    "born": "birth",
    "flag": "flag",
    "rtng": "rating",
    "srtng": "s_rating",
    "sgm": "s_games",
    "sk": "s_k",
    "rrtng": "r_rating",
    "rgm": "r_games",
    "rk": "r_k",
    "brtng": "b_rating",
    "bgm": "b_games",
    "bk": "b_k",
    "id_number": "fide_id",
    "id": "fide_id",
    "fideid": "fide_id",
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

EXPECTED = (
    "'ID Number', 'Name' and a rating column named after the month (JAN23, Mar11) "
    "or SRtng, RRtng, BRtng (docs/lists.md)"
)

CODE_WIDTH = 2
"""The longest title code of the lists before 2012 (`wg`: `fields.OLD_TITLES`)."""

TOKEN = re.compile(r"\S+")
_MONTH_TITLE = re.compile(r"^([A-Za-z]{3})(\d{2})$")
_NAME_MONTH = re.compile(
    r"(?:^|[^a-z])(?:(standard|rapid|blitz)_)?([a-z]{3})(\d{2})frl", re.IGNORECASE
)
NAME_LIST = re.compile(r"(?:^|[^a-z])(standard|rapid|blitz)_", re.IGNORECASE)


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
        default_factory=dict, compare=False, hash=False, repr=False
    )

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
    words = [(m.group(), m.start()) for m in TOKEN.finditer(header)]
    found: list[tuple[str, int]] = []  # (field, start), in order
    month: str | None = None
    i = 0
    while i < len(words):
        word, at = words[i]
        low = word.lower()
        if low == "id" and i + 1 < len(words) and words[i + 1][0].lower() in ("number", "no", "nr"):
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
            "2016 on (FOA)" if "foa_title" in names else "2012-2015 (no FOA)"
        )
    elif "federation" in names and header.lstrip().lower().startswith("id_number"):
        era = "2003-2008" if "birth" in names else "2001-2002"
        columns = _codes_right_aligned(columns)
    else:
        era = "2009-2012"
    return TxtLayout(tuple(columns), combined, month, aligned, era)


def _codes_right_aligned(columns: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """The quarterly lists print a title code right-aligned in its column, ending where
    `COUNTRY` starts (45: `m` at 44 in `APR04FRL.TXT`, a two-letter code at 43), as they
    print numbers, whereas `TITLE` stands at 39: their title column is the CODE_WIDTH
    characters before the next one, and the column before it (the name's) runs on to there,
    so that a name's last word under `TITLE` stays the name's, even one that is a title code
    (`m`; a name there ends by 42: 33 characters from 10)."""
    out = list(columns)
    for n, (field, start, end) in enumerate(out):
        if field == "title" and 0 < n < len(out) - 1 and start < end - CODE_WIDTH:
            before, before_start, _ = out[n - 1]
            out[n - 1] = (before, before_start, end - CODE_WIDTH)
            out[n] = (field, end - CODE_WIDTH, end)
    return out


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
    m = NAME_LIST.search(base)
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
