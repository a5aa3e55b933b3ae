"""The text helpers every report uses: numbers and points as FIDE prints them, plurals, a
tournament's dates, and the one plain-text table style of tracker (cell widths on a terminal)."""

from __future__ import annotations

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


def unit_dates(unit: Unit) -> str:
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


def render_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    right_columns: Iterable[int] = (),
    indent: str = "",
) -> list[str]:
    """Every table tracker prints, in one style: the header, a rule under each column, the
    rows; columns two spaces apart, `right_columns` (numbers) right-aligned, trailing
    spaces dropped. Linear in the rows (35,000 players print at once: rich's Table takes
    half a minute for them) and plain text, so that it reads the same in a terminal, a
    pipe and a file."""
    right = set(right_columns)
    widths = [cell_width(h) for h in headers]
    for r in rows:
        widths = [max(w, cell_width(c)) for w, c in zip(widths, r, strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = []
        for i, (c, w) in enumerate(zip(cells, widths, strict=True)):
            pad = " " * (w - cell_width(c))
            parts.append(pad + c if i in right else c + pad)
        return (indent + "  ".join(parts)).rstrip()

    ruler = (indent + "  ".join(RULE * w for w in widths)).rstrip()
    return [line(headers), ruler, *(line(r) for r in rows)]
