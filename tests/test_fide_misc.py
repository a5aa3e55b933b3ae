"""Time-control classification (spec section 6), the list calendar (sections 1-2) and the
performance rating (section 7)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from tracker.errors import BadInput
from tracker.fide import classify_time_control, list_calendar, performance_rating
from tracker.fide.timecontrol import OffTheLists, minutes_for_60_moves
from tracker.model import Period, RatingList

STD, RAPID, BLITZ = RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ
NOW = dt.date(2025, 6, 1)


@pytest.mark.parametrize(
    "tag,minutes",
    [
        ("5400+30", 120),  # 90 + 60 x 30 s = 90 + 30
        ("40/5400:1800+30", 150),  # 90 + 30 (reached at move 40) + 30 (increment, policy)
        ("40/5400+30:1800+30", 150),
        ("300+2", 7),  # 5 + 2
        ("600", 10),
        ("900+10", 25),
        ("180", 3),
        ("40/7200:3600", 180),
        ("40/7200", 240),  # a repeating period reaches move 60 (policy)
        ("*60", 1),  # sandclock
        # INCREMENT_FROM_MOVE_ONE also for a period not reached within 60 moves:
        # 7200 s (40 moves) + 3600 s (20 moves: move 60 reached) = 180 min, the 900+30
        # period is never reached but its 30 s run from move 1: + 60 x 30 s = 30 -> 210.
        ("40/7200:20/3600:900+30", 210),
        # 1200 + 1200 s (60 moves) = 40 min, + 60 x 30 s = 30 -> 70.
        ("30/1200:30/1200:600+30", 70),
    ],
)
def test_minutes_for_60_moves(tag: str, minutes: int) -> None:
    assert minutes_for_60_moves(tag) == Fraction(minutes)


@pytest.mark.parametrize("tag", [None, "", "?", "-", "abc", "40/", "0/300", "5400+"])
def test_unknown_time_control(tag: str | None) -> None:
    tc = classify_time_control(tag, on=NOW, max_rating=2000)
    assert tc.rating_list is None and tc.minutes is None and not tc.known
    assert tc.reason is OffTheLists.UNKNOWN


@pytest.mark.parametrize(
    "tag,rating,expected",
    [
        ("3600", 1500, STD),  # 60 minutes: standard below 1800
        # 70 minutes (40 + the 30 s increment of the unreached last period, policy
        # INCREMENT_FROM_MOVE_ONE): standard at 1500 (60+ needed), not rapid (under 60)
        ("30/1200:30/1200:600+30", 1500, STD),
        ("30/1200:30/1200:600+30", 1800, None),  # 70 < 90 needed at 1800+: not rated
        ("3600", 1800, None),  # needs 90 at 1800+
        ("5400", 1800, STD),
        ("5400", 2400, None),  # needs 120 at 2400+
        ("5400+30", 2400, STD),
        ("3600", None, STD),  # both unrated
        ("3540", 1500, RAPID),  # 59 minutes: under 60
        ("600+1", 1500, RAPID),  # 11 minutes: over 10
        ("600", 1500, BLITZ),  # 10: at most 10
        ("180+1", 1500, BLITZ),  # 4: over 3
        ("180", 1500, None),  # 3: too fast
    ],
)
def test_bands(tag: str, rating: int | None, expected: RatingList | None) -> None:
    assert classify_time_control(tag, on=NOW, max_rating=rating).rating_list is expected


def test_not_rated_reasons() -> None:
    tc = classify_time_control("3600", on=NOW, max_rating=1900)
    assert (tc.reason, tc.band) == (OffTheLists.STANDARD_TOO_FAST, 1800)
    tc = classify_time_control("5400", on=NOW, max_rating=2500)
    assert (tc.reason, tc.band) == (OffTheLists.STANDARD_TOO_FAST, 2400)
    # 3 minutes: too fast for blitz; 10 minutes before 2012: no rapid/blitz list yet
    assert classify_time_control("180", on=NOW, max_rating=1500).reason is (
        OffTheLists.TOO_FAST_FOR_BLITZ
    )
    old = classify_time_control("600", on=dt.date(2011, 6, 1), max_rating=1500)
    assert old.reason is OffTheLists.BEFORE_RAPID_BLITZ


@pytest.mark.parametrize(
    "tag,on,expected",
    [
        # 2012-2013 (policy: before 1 Jan 2014): rapid from 15, blitz 5 to under 15
        ("720", dt.date(2013, 6, 1), BLITZ),
        ("720", dt.date(2014, 1, 1), RAPID),
        ("240", dt.date(2013, 6, 1), None),  # 4 minutes: under 5
        ("240", dt.date(2014, 1, 1), BLITZ),
        ("900", dt.date(2013, 6, 1), RAPID),
    ],
)
def test_2012_2013_bands(tag: str, on: dt.date, expected: RatingList | None) -> None:
    assert classify_time_control(tag, on=on, max_rating=1500).rating_list is expected


@pytest.mark.parametrize(
    "end,period",
    [
        (dt.date(2025, 1, 28), Period(2025, 2)),
        (dt.date(2025, 1, 29), Period(2025, 2)),  # 3 days before 1 Feb
        (dt.date(2025, 1, 30), Period(2025, 3)),
        (dt.date(2025, 12, 31), Period(2026, 2)),
        (dt.date(2010, 2, 22), Period(2010, 3)),  # 7 days before 1 Mar
        (dt.date(2010, 2, 23), Period(2010, 5)),
        (dt.date(2010, 4, 15), Period(2010, 5)),
        (dt.date(2008, 3, 31), Period(2008, 4)),  # quarterly: ends before the list date
        (dt.date(2008, 4, 1), Period(2008, 7)),
    ],
)
def test_default_period(end: dt.date, period: Period) -> None:
    assert list_calendar(end).default_period(end) == period


def test_default_period_before_2008() -> None:
    with pytest.raises(BadInput):
        list_calendar(NOW).default_period(dt.date(2007, 12, 1))


def test_rapid_default_period_before_2012() -> None:
    with pytest.raises(BadInput, match="2012"):
        list_calendar(dt.date(2011, 12, 31), RAPID).default_period(dt.date(2011, 12, 31))
    assert list_calendar(dt.date(2012, 1, 1), BLITZ).default_period(dt.date(2012, 1, 1)) == Period(
        2012, 7
    )


def test_performance_rating() -> None:
    # 3 / 4 against 2000: p 0.75 -> dp 193 -> 2193; 50% -> the average; all wins -> +800
    assert performance_rating([2000] * 4, Fraction(3)) == 2193
    assert performance_rating([1900, 2100], Fraction(1)) == 2000
    assert performance_rating([2000, 2001], Fraction(2)) == 2801  # 2000.5 + 800 -> half up
    with pytest.raises(BadInput):
        performance_rating([], Fraction(0))


def test_every_policy_is_listed_in_docs_rules() -> None:
    # Every UNSETTLED policy is a named constant AND listed in docs/rules.md.
    from tests.conftest import REPO
    from tracker import periods
    from tracker.fide import policies

    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    names = [n for n in vars(policies) if n.isupper()]
    names += ["PLAYER_FACTS_LISTS", "ASSUMED_GAMES_WHEN_ESTABLISHED"]
    assert hasattr(periods, "PLAYER_FACTS_LISTS")
    missing = [n for n in names if f"`{n}`" not in text]
    assert missing == []
