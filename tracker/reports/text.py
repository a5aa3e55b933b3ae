"""The text helpers every report uses: numbers and points as FIDE prints them, plurals, a
tournament's dates, and the one plain-text table style of tracker (cell widths on a terminal)."""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction

from tracker.periods import Unit


def fmt_points(p: Fraction | None) -> str:
    if p is None:
        return ""
    if p.denominator == 1:
        return str(p.numerator)
    if p.denominator == 2:
        return f"{p.numerator // 2}.5" if p >= 0 else f"-{(-p.numerator) // 2}.5"
    return str(Decimal(p.numerator) / Decimal(p.denominator))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def months_text(months: int) -> str:
    """ "1 year 3 months", "5 years", "8 months"."""
    years, rest = divmod(months, 12)
    if years and rest:
        return f"{plural(years, 'year')} {plural(rest, 'month')}"
    return plural(years, "year") if years else plural(rest, "month")


def plural_points(p: Fraction) -> str:
    return f"{fmt_points(p)} point" + ("" if p == 1 else "s")


def fmt_signed(x: Decimal | int | None) -> str:
    if x is None:
        return ""
    return f"+{x}" if x > 0 else str(x)


def fmt_int(x: int | None) -> str:
    return "" if x is None else str(x)


def json_points(p: Fraction) -> int | float:
    # Points are whole or half numbers: exact in binary, so a JSON number is safe.
    return p.numerator if p.denominator == 1 else float(p)


def partial_date(year: int, month: int | None = None) -> str:
    """A date known to the year or the month only, as ISO 8601 writes it: 2011, 2011-05."""
    return f"{year}" if month is None else f"{year}-{month:02d}"


def day_text(day: dt.date | None, year: int | None = None, month: int | None = None) -> str:
    """A tournament's start or end as a table shows it: the day; without one, the year (and
    month) its date tags give (`partial_date`); else "?"."""
    if day is not None:
        return day.isoformat()
    return "?" if year is None else partial_date(year, month)


def unit_dates(unit: Unit) -> str:
    tag = unit.tag_date
    if unit.start is None and tag is not None:  # what its date tags give: 2011-05, 2011
        return partial_date(tag.year, tag.month)
    s = unit.start.isoformat() if unit.start else "?"
    e = unit.end.isoformat() if unit.end else "?"
    return s if s == e else f"{s} to {e}"


RULE = "\u2500"  # ─ under the header of every table


def cell_width(text: str) -> int:
    """The columns `text` takes on a terminal: a wide (East Asian) character two, a
    combining mark none."""
    if text.isascii():
        return len(text)
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


PIPED_WIDTH = 100
"""The columns tables and lines fit in a pipe or a file when COLUMNS does not say."""


def terminal_width() -> int:
    """The columns tables and lines must fit: COLUMNS when set, else the terminal's width
    when stdout is one, else PIPED_WIDTH (a pipe or a file). CSV and JSON are never cut."""
    import os
    import shutil
    import sys

    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        if sys.stdout.isatty():
            return shutil.get_terminal_size().columns
    except (AttributeError, ValueError, OSError):
        pass
    return PIPED_WIDTH


def wrap_text(text: str, width: int) -> list[str]:
    """`text` cut at spaces into lines of at most `width` cells (a word longer than that is
    cut too); at least one line."""
    if cell_width(text) <= width:
        return [text]
    lines: list[str] = []
    line = ""
    for word in _words(text, width):
        while cell_width(word) > width:
            room = width - cell_width(line) - (1 if line else 0)
            if room < 1:
                lines.append(line)
                line, room = "", width
            cut = _cut(word, room)
            lines.append(f"{line} {word[:cut]}" if line else word[:cut])
            line, word = "", word[cut:]
        if not line:
            line = word
        elif cell_width(line) + 1 + cell_width(word) <= width:
            line = f"{line} {word}"
        else:
            lines.append(line)
            line = word
    lines.append(line)
    return lines


def _words(text: str, width: int) -> list[str]:
    """The words of `text` (split at spaces), a command between backticks one word when it
    fits the width: a line is not cut inside `tracker ...`, so that it can be copied."""
    words = text.split(" ")
    out: list[str] = []
    i = 0
    while i < len(words):
        end = i
        if words[i].count("`") % 2 == 1:  # a code span opens: find where it closes
            end = next((j for j in range(i + 1, len(words)) if words[j].count("`") % 2), i)
        span = " ".join(words[i : end + 1])
        if end > i and cell_width(span) <= width:
            out.append(span)
            i = end + 1
        else:
            out.append(words[i])
            i += 1
    return out


def _cut(word: str, room: int) -> int:
    """How many characters of `word` fit in `room` cells (one at least)."""
    used = 0
    for i, c in enumerate(word):
        used += cell_width(c)
        if used > room:
            return max(i, 1)
    return len(word)


MIN_WRAPPED = 24
"""The narrowest a wrapped last column may be beside the others; narrower, its text goes on
lines of its own under the row, indented."""

MIN_WRAPPED_INSIDE = 12
"""The narrowest a wrapped column other than the last may be (a tournament's name)."""

NO_WRAP = -1
"""`wrap=NO_WRAP`: no column of the table wraps (numbers, dates, names: it leaves columns out
instead)."""


def render_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    right_columns: Iterable[int] = (),
    indent: str = "",
    *,
    width: int | None = -1,
    optional: Sequence[int] = (),
    wrap: int | None = None,
    wrap_least: int | None = None,
) -> list[str]:
    """Every table tracker prints, in one style: the header, a rule under each column, the
    rows; columns two spaces apart, `right_columns` (numbers) right-aligned, trailing
    spaces dropped. Linear in the rows (35,000 players print at once: rich's Table is far
    slower) and plain text, so that it reads the same in a terminal, a pipe and a file.

    It fits `width` columns (default: terminal_width(); None: no limit). While it does
    not, columns are left out: the empty ones, then those of `optional` in their order,
    until the `wrap` column (default: the last, when it is text; NO_WRAP: none) has room
    for `wrap_least` cells (default: MIN_WRAPPED for the last column, MIN_WRAPPED_INSIDE
    for another; a path may ask for more; 0 for a rare note, which may go under its row);
    then, only if the table is still too wide, the others from the right (never the
    first, never `wrap`). A line under the table names those left out that had something
    in them. The `wrap` column wraps at spaces in the room left; a last column too narrow
    beside the others goes under its row, indented. CSV and JSON stay complete.
    """
    if width == -1:
        width = terminal_width()
    right = set(right_columns)
    n = len(headers)
    if wrap is None and n and (n - 1) not in right:
        wrap = n - 1
    if wrap == NO_WRAP:
        wrap = None
    keep = list(range(n))

    def measure(i: int) -> int:
        return max([cell_width(headers[i]), *(cell_width(r[i]) for r in rows)])

    full = {i: measure(i) for i in keep}

    def fixed() -> int:  # every kept column but the wrapping one, the gaps and the indent
        return len(indent) + sum(full[i] for i in keep if i != wrap) + 2 * (len(keep) - 1)

    def least(at_least: int | None = None) -> int:
        if wrap is None or wrap not in keep:
            return 0
        default = MIN_WRAPPED if wrap == n - 1 else MIN_WRAPPED_INSIDE
        return min(full[wrap], default if at_least is None else at_least)

    def fits(limit: int) -> bool:
        # (a last column that wraps may go under its row: the others must fit)
        return fixed() + (0 if wrap == n - 1 else least()) <= limit

    dropped: list[str] = []
    if width is not None:
        first = [*(i for i in keep if i != wrap and not any(r[i] for r in rows)), *optional]
        last = [i for i in reversed(keep) if i not in (0, wrap) and i not in first]
        for k, i in enumerate([*first, *last]):
            if (fixed() + least(wrap_least) <= width) if k < len(first) else fits(width):
                break
            if i in keep and i != wrap:
                keep.remove(i)
                if any(r[i] for r in rows):
                    dropped.append(headers[i])
    widths = {i: full[i] for i in keep}
    under = False
    if width is not None and wrap in keep and fixed() + full[wrap] > width:
        room = width - fixed()
        if room >= least() or wrap != n - 1:
            widths[wrap] = max(room, 1)
        else:
            under, widths[wrap] = True, 0

    def line(cells: Sequence[str], header: bool = False) -> list[str]:
        shown = {i: cells[i] for i in keep}
        extra: list[str] = []
        if under and wrap is not None:
            note, shown[wrap] = shown[wrap], ""
            if note and not header:
                pad = indent + "    "
                extra = [pad + x for x in wrap_text(note, max(width or 0, 40) - len(pad))]
        cut = wrap_text(shown[wrap], widths[wrap]) if wrap in keep and not under else [""]
        out = []
        for k, tail in enumerate(cut):
            parts = []
            for i in keep:
                c = tail if i == wrap and not under else (shown[i] if k == 0 else "")
                pad = " " * (widths[i] - cell_width(c))
                parts.append(pad + c if i in right else c + pad)
            out.append((indent + "  ".join(parts)).rstrip())
        return out + extra

    ruler = (indent + "  ".join(RULE * widths[i] for i in keep)).rstrip()
    lines = [*line(headers, header=True), ruler, *(x for r in rows for x in line(r))]
    if dropped:
        said = f"(not shown, to fit {width} columns: {', '.join(dropped)}; see --format csv)"
        lines += [indent + x for x in wrap_text(said, max(width or 0, 40) - len(indent))]
    return lines


def left_behind_text(part: object) -> str:
    """The note on what a killed write of an output file had left beside it, removed."""
    return f"note: removed {part}, left by a write that did not finish"


def wrote_text(path: object) -> str:
    """The summary line of a command that wrote the file `path`."""
    return f"wrote {path}"


def wrote_rows_text(path: object, rows: int) -> str:
    """The summary line of `export` after writing `rows` rows into `path`."""
    return f"wrote {path} ({rows:,} row{'' if rows == 1 else 's'})"


def wrote_players_text(path: object, players: int) -> str:
    """The summary line of `club --html` after writing the page of `players` players."""
    return f"wrote {path} ({players:,} player{'' if players == 1 else 's'})"
