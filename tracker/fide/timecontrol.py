"""Which list a game belongs to, from its PGN TimeControl tag (spec section 6).

Minutes per player for 60 moves = base + 60 x increment (+ any later period reached within 60
moves). Policy INCREMENT_FROM_MOVE_ONE: an increment written on any period counts from move 1,
even on a period not reached within 60 moves (`40/7200:20/3600:900+30` is 120 + 60 + 30).
Standard: at least 60, at least 90 if a player is rated 1800+, 120 if 2400+ (bands
1600/2200 before 2022). Rapid: over 10 and under 60; blitz: over 3 and at most 10 (before the
2014 bands, policy: rapid 15 to under 60, blitz 5 to under 15).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from tracker.fide import policies
from tracker.fide.editions import FIRST_DATE, RAPID_BLITZ_FIRST_DATE
from tracker.model import RatingList

STANDARD_BANDS_CHANGE = dt.date(2022, 1, 1)
SIXTY = 60


class OffTheLists(StrEnum):
    """Why a time control is rated on no list."""

    UNKNOWN = "unknown"  # the tag is missing or unreadable
    BEFORE_2008 = "before-2008"  # not replayed
    STANDARD_TOO_FAST = "standard-too-fast"  # too slow for rapid, too fast for standard
    # at the rating band `TimeControlClass.band` (1800+, 2400+; 1600+, 2200+ before 2022)
    BEFORE_RAPID_BLITZ = "before-rapid-blitz"  # faster than standard, before Jan 2012
    TOO_FAST_FOR_BLITZ = "too-fast-for-blitz"  # under 5 minutes (3 or less from the 2014 bands)


@dataclass(frozen=True)
class TimeControlClass:
    rating_list: RatingList | None  # None: not rated on any list (or unknown: see `known`)
    minutes: Fraction | None  # minutes for 60 moves, None when unknown
    reason: OffTheLists | None  # why on no list (None: on `rating_list`)
    known: bool = True  # False: the tag is missing or unreadable; the user settles it
    band: int | None = None  # STANDARD_TOO_FAST: the rating band whose minimum it misses


_SEGMENT = re.compile(r"^(?:(\d+)/)?(\*)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$")


def minutes_for_60_moves(tag: str) -> Fraction | None:
    """Minutes per player for 60 moves, or None when the tag is unknown or unreadable."""
    text = tag.strip()
    if text in ("", "?", "-"):
        return None
    seconds = Fraction(0)
    increment = Fraction(0)
    moves_done = 0
    parts = text.split(":")
    segments = []
    for part in parts:
        m = _SEGMENT.match(part.strip())
        if not m:
            return None
        moves = int(m.group(1)) if m.group(1) else None
        if moves == 0:
            return None
        segments.append((moves, Fraction(m.group(3)), Fraction(m.group(4) or 0)))
    if policies.INCREMENT_FROM_MOVE_ONE:
        # An increment written on any period, reached within 60 moves or not, runs from
        # move 1 (policy); several different increments: the largest.
        increment = max(inc for _, _, inc in segments)
    i = 0
    while moves_done < SIXTY:
        moves, secs, inc = segments[min(i, len(segments) - 1)]
        if i >= len(segments) and moves is None:
            break
        seconds += secs
        if not policies.INCREMENT_FROM_MOVE_ONE:
            increment = max(increment, inc)
        if moves is None:
            break
        moves_done += moves
        i += 1
    return (seconds + SIXTY * increment) / 60


def _band_names(on: dt.date) -> tuple[int, int]:
    return (1600, 2200) if on < STANDARD_BANDS_CHANGE else (1800, 2400)


def classify_time_control(
    tag: str | None, *, on: dt.date, max_rating: int | None
) -> TimeControlClass:
    """The list a game with this TimeControl tag, played on `on`, is rated on.

    `max_rating` is the higher rating of the two players (None: both unrated), for the
    standard bands.
    """
    minutes = minutes_for_60_moves(tag or "")
    if minutes is None:
        return TimeControlClass(None, None, OffTheLists.UNKNOWN, known=False)
    if on < FIRST_DATE:
        return TimeControlClass(None, minutes, OffTheLists.BEFORE_2008)
    mid, top = _band_names(on)
    rating = max_rating or 0
    needed = 120 if rating >= top else 90 if rating >= mid else 60
    if minutes >= needed:
        return TimeControlClass(RatingList.STANDARD, minutes, None)
    if minutes >= SIXTY:
        band = top if needed == 120 else mid
        return TimeControlClass(None, minutes, OffTheLists.STANDARD_TOO_FAST, band=band)
    if on < RAPID_BLITZ_FIRST_DATE:
        return TimeControlClass(None, minutes, OffTheLists.BEFORE_RAPID_BLITZ)
    if on < policies.TIME_BANDS_CHANGE:
        rapid_ok = minutes >= 15
        blitz_ok = 5 <= minutes < 15
    else:
        rapid_ok = minutes > 10
        blitz_ok = 3 < minutes <= 10
    if rapid_ok:
        return TimeControlClass(RatingList.RAPID, minutes, None)
    if blitz_ok:
        return TimeControlClass(RatingList.BLITZ, minutes, None)
    return TimeControlClass(None, minutes, OffTheLists.TOO_FAST_FOR_BLITZ)
