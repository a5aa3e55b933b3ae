"""The one rounding function of the rules engine: half away from zero, exact.

FIDE rounds a period's change to a whole number with .5 away from zero (-2.5 -> -3,
+2.5 -> +3); for the non-negative quantities it rounds elsewhere (a fractional score p to two
decimals, a first rating to a whole number) this is the same as rounding half up.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

Exact = Decimal | Fraction | int


def round_half_away(x: Exact, places: int = 0) -> Decimal:
    """Round `x` exactly to `places` decimals, halves away from zero."""
    scaled = Fraction(x) * Fraction(10) ** places
    magnitude = math.floor(abs(scaled) + Fraction(1, 2))
    whole = magnitude if scaled >= 0 else -magnitude
    return Decimal(whole).scaleb(-places)


def round_change(x: Exact) -> int:
    """A rating change (or rating) rounded to a whole number, .5 away from zero."""
    return int(round_half_away(x))


def to_decimal(x: Exact) -> Decimal:
    """An exact Decimal for a Fraction whose denominator divides a power of ten."""
    if isinstance(x, Decimal):
        return x
    f = Fraction(x)
    d = Decimal(f.numerator) / Decimal(f.denominator)
    if Fraction(d) != f:
        raise ValueError(f"{f} has no exact decimal form")
    return d
