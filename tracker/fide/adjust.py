"""The one-off adjustments of published ratings (spec section 5)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from tracker.fide import policies
from tracker.fide.rounding import round_change
from tracker.model import Period, RatingList

COMPRESSION_LIST = Period(2024, 3)
RAISE_LIST = Period(2022, 10)


def one_off_adjustment(
    rating_list: RatingList,
    list_date: dt.date,
    rating: int,
    *,
    standard_rating: int | None = None,
) -> tuple[int, str] | None:
    """The one-off adjustment the list of `list_date` applies to `rating`, if any.

    - Mar 2024 (policy: all three lists): a rating R below 2000 becomes R + 0.4 x (2000 - R),
      rounded half up; R is the February rating plus the March period's change (policy).
    - Oct 2022, rapid & blitz: a rating more than 100 below the player's standard rating
      (`standard_rating`) is raised to standard - 100.
    Returns (new rating, explanation), or None when the list applies nothing to this rating.
    """
    period = Period.of(list_date)
    rl = RatingList(rating_list)
    if period == COMPRESSION_LIST and rl.value in policies.COMPRESSION_LISTS and rating < 2000:
        new = round_change(rating + Decimal("0.4") * (2000 - rating))
        return new, (f"Mar 2024 compression: {rating} + 0.4 x (2000 - {rating}) = {new}")
    if (
        period == RAISE_LIST
        and rl != RatingList.STANDARD
        and standard_rating is not None
        and rating < standard_rating - 100
    ):
        new = standard_rating - 100
        return new, (
            f"Oct 2022 {rl} raise: {rating} is more than 100 below the standard rating "
            f"{standard_rating}, raised to {new}"
        )
    return None
