"""The one-off adjustments of published ratings (spec section 5)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from tracker.fide import policies
from tracker.fide.rounding import round_change
from tracker.model import Period, RatingList

COMPRESSION_LIST = Period(2024, 3)
RAISE_LIST = Period(2022, 10)


class OneOff(StrEnum):
    """Which one-off adjustment a list applied (spec section 5)."""

    COMPRESSION = "compression"  # Mar 2024: R below 2000 -> R + 0.4 x (2000 - R)
    RAISE = "raise"  # Oct 2022, rapid & blitz: more than 100 below standard -> standard - 100


@dataclass(frozen=True)
class Adjustment:
    """A one-off adjustment as values: `kind`, on `rating_list`, from `rating` to `new`
    (RAISE: from the player's `standard_rating`)."""

    kind: OneOff
    rating_list: RatingList
    rating: int
    new: int
    standard_rating: int | None = None


def one_off_adjustment(
    rating_list: RatingList,
    list_date: dt.date,
    rating: int,
    *,
    standard_rating: int | None = None,
) -> tuple[int, Adjustment] | None:
    """The one-off adjustment the list of `list_date` applies to `rating`, if any.

    - Mar 2024 (policy: all three lists): a rating R below 2000 becomes R + 0.4 x (2000 - R),
      rounded half up; R is the February rating plus the March period's change (policy).
    - Oct 2022, rapid & blitz: a rating more than 100 below the player's standard rating
      (`standard_rating`) is raised to standard - 100.
    Returns (new rating, the adjustment), or None when the list applies nothing to this rating.
    """
    period = Period.of(list_date)
    rl = RatingList(rating_list)
    if period == COMPRESSION_LIST and rl.value in policies.COMPRESSION_LISTS and rating < 2000:
        new = round_change(rating + Decimal("0.4") * (2000 - rating))
        return new, Adjustment(OneOff.COMPRESSION, rl, rating, new)
    if (
        period == RAISE_LIST
        and rl != RatingList.STANDARD
        and standard_rating is not None
        and rating < standard_rating - 100
    ):
        new = standard_rating - 100
        return new, Adjustment(OneOff.RAISE, rl, rating, new, standard_rating)
    return None
