"""How many rows FIDE's whole list of a month has at the least, so that an import can tell
FIDE's whole list from an excerpt of it (a file holding a few of its rows): `whole_floor`,
`kind_of`.

FIDE's standard list has had tens of thousands of rows since 2001 (about 40,000 then) and
several hundred thousand in the 2020s; the rapid and blitz lists began in 2012. The floors
below are well under the real sizes of each era, so a whole list is never taken for an
excerpt, and an excerpt of a federation or a club stays below them. docs/lists.md lists
them; a user says `--whole` or `--excerpt` where the count misjudges a file.
"""

from __future__ import annotations

from collections.abc import Iterable

from tracker.model import ListKind, Period, RatingList

WHOLE_FLOORS: tuple[tuple[Period, int, int], ...] = (
    # (lists from, standard, rapid and blitz): the fewest rows of FIDE's whole list
    (Period(2001, 1), 20_000, 10_000),
    (Period(2009, 1), 50_000, 10_000),
    (Period(2016, 1), 100_000, 30_000),
    (Period(2020, 1), 150_000, 50_000),
)
"""The fewest rows a whole list of each era has, by the month it lists: standard, and rapid
and blitz (lists since Jul 2012). A list before 2001 takes the first era's."""


def whole_floor(rating_lists: Iterable[RatingList], period: Period) -> int:
    """The fewest rows FIDE's whole list of `period` holding `rating_lists` has (a combined
    file holds every player of the three: the largest floor of them)."""
    standard, fast = next(
        ((s, f) for since, s, f in reversed(WHOLE_FLOORS) if period >= since),
        WHOLE_FLOORS[0][1:],
    )
    floors = [standard if rl is RatingList.STANDARD else fast for rl in rating_lists]
    return max(floors, default=standard)


def kind_of(rows: int, rating_lists: Iterable[RatingList], period: Period) -> ListKind:
    """A file of `rows` rows (the players read, the malformed ones included) is FIDE's whole
    list when it has at least `whole_floor` of them; an excerpt otherwise."""
    return ListKind.WHOLE if rows >= whole_floor(rating_lists, period) else ListKind.EXCERPT
