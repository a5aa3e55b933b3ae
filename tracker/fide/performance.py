"""Performance rating (spec section 7)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tracker.errors import BadInput
from tracker.fide.rounding import round_change
from tracker.fide.tables import dp_for


def performance_rating(opponent_ratings: Sequence[int], points: Fraction) -> int:
    """Rp = average opponent rating + dp(p), p = points / games (two decimals, half up),
    rounded to a whole number (no cap on the difference, dp from table 8.1.1: -800 to 800)."""
    n = len(opponent_ratings)
    if n == 0:
        raise BadInput("a performance rating needs at least one game against a rated opponent")
    p = Fraction(points) / n
    if not 0 <= p <= 1:
        raise BadInput(f"{points} points is impossible in {n} games")
    return round_change(Fraction(sum(opponent_ratings), n) + dp_for(p))
