"""FIDE's two conversion tables (Handbook B02, tables 8.1.1 and 8.1.2), shipped as package data.

- table 8.1.2: rating difference D -> expected score PD (`p_high` for the higher-rated side,
  `p_low` for the lower); the same table serves standard, rapid and blitz;
- table 8.1.1: fractional score p (two decimals) -> rating difference dp.
"""

from __future__ import annotations

import csv
import functools
import io
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from importlib import resources

from tracker.fide.rounding import round_half_away


@dataclass(frozen=True)
class DifferenceRow:
    d_min: int
    d_max: int | None  # None: open-ended last row (D >= 736)
    p_high: Decimal
    p_low: Decimal


def _read(name: str) -> list[dict[str, str]]:
    text = resources.files("tracker").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@functools.cache
def difference_table() -> tuple[DifferenceRow, ...]:
    """Table 8.1.2 as rows, in order of D."""
    return tuple(
        DifferenceRow(
            int(r["d_min"]),
            int(r["d_max"]) if r["d_max"].strip() else None,
            Decimal(r["p_high"]),
            Decimal(r["p_low"]),
        )
        for r in _read("table-8-1-2.csv")
    )


@functools.cache
def dp_table() -> dict[Decimal, int]:
    """Table 8.1.1: p (two decimals) -> dp."""
    return {Decimal(r["p"]): int(r["dp"]) for r in _read("table-8-1-1.csv")}


@functools.cache
def _by_difference() -> tuple[tuple[Decimal, Decimal], ...]:
    """(p_high, p_low) for |D| = 0 .. the first d_min of the open last row."""
    rows = difference_table()
    last = rows[-1].d_min
    out: list[tuple[Decimal, Decimal]] = []
    for a in range(last + 1):
        row = next(r for r in rows if a >= r.d_min and (r.d_max is None or a <= r.d_max))
        out.append((row.p_high, row.p_low))
    return tuple(out)


def expected_score(d: int) -> Decimal:
    """PD for a rating difference D = own - opponent (table 8.1.2; the cap is the caller's):
    `p_high` when D >= 0, `p_low` when D < 0."""
    table = _by_difference()
    p_high, p_low = table[min(abs(d), len(table) - 1)]
    return p_high if d >= 0 else p_low


def dp_for(p: Decimal | Fraction) -> int:
    """dp for a fractional score p (table 8.1.1), p rounded to two decimals half up."""
    if not 0 <= p <= 1:
        raise ValueError(f"a fractional score must lie between 0 and 1, not {p}")
    return dp_table()[round_half_away(p, 2)]
