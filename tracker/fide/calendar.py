"""The list calendar of each era and the closing rule: which list rates a tournament, which
list is in force on a day, the lists before and after a list, and the first day the engine
rates on each list."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass

from tracker.errors import BadInput
from tracker.fide import policies
from tracker.fide.editions import EDITIONS, FIRST_DATE, RAPID_BLITZ_FIRST_DATE, Calendar
from tracker.model import Period, RatingList

TWO_MONTHLY_FROM = Period(2009, 7)
MONTHLY_FROM = Period(2012, 7)
RAPID_BLITZ_FIRST_LIST = Period(2012, 7)


def _era(period: Period) -> Calendar:
    if period < TWO_MONTHLY_FROM:
        return Calendar.QUARTERLY
    if period < MONTHLY_FROM:
        return Calendar.TWO_MONTHLY
    return Calendar.MONTHLY


def _is_list_month(period: Period) -> bool:
    era = _era(period)
    if era is Calendar.QUARTERLY:
        return period.month in (1, 4, 7, 10)
    if era is Calendar.TWO_MONTHLY:
        return period.month % 2 == 1
    return True


@dataclass(frozen=True)
class ListCalendar:
    """The calendar of the era around a date; its methods know every era's lists.

    Eras: quarterly lists (Jan/Apr/Jul/Oct) before Jul 2009, two-monthly (Jan, Mar, May, Jul,
    Sep, Nov) to May 2012, monthly from Jul 2012. Rapid & blitz: monthly, the first list is
    Jul 2012 (games from 1 Jan 2012).
    """

    era: Calendar
    closing_days: int  # a tournament must end at least this many days before the list date
    rating_list: RatingList = RatingList.STANDARD

    def is_list_month(self, period: Period) -> bool:
        """Whether FIDE published a list (of this calendar's list) in that month."""
        if self.rating_list != RatingList.STANDARD and period < RAPID_BLITZ_FIRST_LIST:
            return False
        return _is_list_month(period)

    def default_period(self, tournament_end: dt.date) -> Period:
        """The first list after the last round, minding the era's closing days."""
        if tournament_end < FIRST_DATE:
            raise BadInput(
                f"{tournament_end.isoformat()} is before 2008: the tracker does not replay "
                "the tournament-average era"
            )
        if self.rating_list != RatingList.STANDARD and tournament_end < RAPID_BLITZ_FIRST_DATE:
            raise BadInput(
                f"{tournament_end.isoformat()} is before 2012: {self.rating_list} ratings begin "
                "with games from 2012-01-01"
            )
        period = Period.of(tournament_end).next()
        while True:
            if self.is_list_month(period):
                closing = policies.CLOSING_DAYS[_era(period).value]
                if (period.list_date - tournament_end).days >= closing:
                    return period
            period = period.next()


def list_calendar(on: dt.date, rating_list: RatingList = RatingList.STANDARD) -> ListCalendar:
    """The list calendar of the era of `on` (see ListCalendar)."""
    era = _era(Period.of(on))
    return ListCalendar(era, policies.CLOSING_DAYS[era.value], RatingList(rating_list))


@functools.lru_cache(maxsize=8)
def replay_from(rating_list: RatingList) -> dt.date:
    """The first date the engine rates on that list (2008 standard, 2012 rapid and blitz)."""
    return min(e.effective_from for e in EDITIONS[RatingList(rating_list)])


@functools.lru_cache(maxsize=4096)
def is_list_month(period: Period, rating_list: RatingList = RatingList.STANDARD) -> bool:
    """Whether a list of `rating_list` is published in that month (the era's calendar)."""
    return bool(list_calendar(period.list_date, rating_list).is_list_month(period))


@functools.lru_cache(maxsize=8192)
def default_period(end: dt.date, rating_list: RatingList = RatingList.STANDARD) -> Period:
    """The first list after a tournament that ended on `end` (the era's closing rule)."""
    p: Period = list_calendar(end, rating_list).default_period(end)
    return p


_EARLIEST = Period.of(FIRST_DATE)


@functools.lru_cache(maxsize=16384)
def list_in_force(on: dt.date, rating_list: RatingList = RatingList.STANDARD) -> Period | None:
    """The list in force on `on` (the latest list dated on or before it), None before any."""
    p = Period.of(on)
    while p >= _EARLIEST:
        if is_list_month(p, rating_list):
            return p
        p = p.prev()
    return None


def previous_list(period: Period, rating_list: RatingList = RatingList.STANDARD) -> Period | None:
    """The list before `period`'s (None before the first list)."""
    return list_in_force(period.prev().list_date, rating_list)


@functools.lru_cache(maxsize=8192)
def next_list(period: Period, rating_list: RatingList = RatingList.STANDARD) -> Period:
    """The first list after `period`."""
    p = period.next()
    while not is_list_month(p, rating_list):
        p = p.next()
    return p
