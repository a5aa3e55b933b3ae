"""The regulations editions: values chosen by date, one list at a time.

Each `Edition` is the complete set of parameters in force from `effective_from` on one list;
the next edition is the previous one with the changed fields replaced. Per-game rules (cap,
600 exclusion) are read from the edition of the tournament's start date, period rules (K, the
700 rule, floor, first ratings, calendar) from the edition of the list date (see policies).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from tracker.errors import BadInput
from tracker.fide import policies
from tracker.model import RatingList

#: FIDE rated by tournament average before 2008: the tracker does not replay that era.
FIRST_DATE = dt.date(2008, 1, 1)
RAPID_BLITZ_FIRST_DATE = dt.date(2012, 1, 1)
#: A player is a new player (K 25/30/40) until this many rated games completed, on every list
#: in every edition since 2008 (`Edition.new_player_games`): the one number "30 games" of the
#: rules, which the replay's policies and `tracker calc` assume for an established player.
NEW_PLAYER_GAMES = 30


class CapKind(StrEnum):
    EVERY_GAME = "every game"
    ONCE_PER_TOURNAMENT = "once per tournament"


class KScheme(StrEnum):
    LADDER = "ladder"  # 2400 reached / junior / new player / otherwise
    FLAT = "flat"  # one K for everyone (rapid & blitz before Oct 2022)


class JuniorRule(StrEnum):
    NONE = "none"
    BEFORE_18TH_BIRTHDAY = "before the 18th birthday"
    TO_END_OF_YEAR_18 = "to the end of the year of the 18th birthday"


class FirstFormula(StrEnum):
    BONUS = "Ra + bonus per half point above 50%"  # 2008 - Feb 2024
    FICTITIOUS_DRAWS = "two fictitious draws against 1800"  # from Mar 2024


class Calendar(StrEnum):
    QUARTERLY = "quarterly"
    TWO_MONTHLY = "two-monthly"
    MONTHLY = "monthly"


@dataclass(frozen=True)
class Edition:
    """The rating regulations in force on one list from `effective_from` on."""

    rating_list: RatingList
    effective_from: dt.date
    summary: str  # what changed on this date
    # per game (decided by the tournament start date)
    cap: int  # |D| above this counts as this
    cap_kind: CapKind
    cap_exempt_from: int | None  # own Ro at or above which the true D is used (2650)
    exclude_600: bool  # rapid & blitz: 600+ apart with one above 2600 is not rated
    # K (decided by the list date)
    k_scheme: KScheme
    k_top: int  # a published 2400 ever
    k_junior: int
    k_new: int  # fewer than `new_player_games` games
    k_mid: int  # otherwise
    k_flat: int
    junior: JuniorRule
    new_player_games: int
    rule_700: bool
    # each tournament of a period rated with the K the player had at its start (the K of the
    # list in force on its start date) instead of the period's one K (Jul 2009; the end is
    # policies.K_BY_TOURNAMENT_START_UNTIL)
    k_by_tournament_start: bool
    # list (decided by the list date)
    floor: int
    calendar: Calendar
    # first ratings (decided by the list date)
    first_formula: FirstFormula
    first_min_games: int
    first_window_months: int
    first_bonus: Decimal  # per half point above 50% (BONUS formula)
    first_cap: int | None
    # Which events count toward a first rating (spec section 4), points and opponents
    # against rated opponents only. The player's first event is disregarded when it scored
    # less than `first_event_min_points` (1/2: "a zero score in the first event is
    # disregarded", from Jul 2014; 1: rapid and blitz before 2022); policy
    # FIRST_EVENT_RULE_REPEATS: a disregarded first event leaves no trace, the next event is
    # then the first. Every event needs `event_min_points` and `event_min_rated_opponents`
    # (before Jul 2014: at least 1 point against at least 3 rated opponents). 0: no rule.
    first_event_min_points: Fraction
    event_min_points: Fraction
    event_min_rated_opponents: int
    first_fictitious_rating: int
    first_fictitious_games: int

    @property
    def name(self) -> str:
        return f"{self.rating_list} {self.effective_from.isoformat()}"

    @property
    def k_rules(self) -> tuple[object, ...]:
        """The fields that decide the K a player carries (spec section 3). A K published on
        a list is the K of the next period under the rules of that list: when the next
        period's edition has other K rules (Jul 2011, Jul 2014, Jul 2017; rapid and blitz
        Oct 2022), it is not that period's K."""
        return (
            self.k_scheme,
            self.k_top,
            self.k_junior,
            self.k_new,
            self.k_mid,
            self.k_flat,
            self.junior,
            self.new_player_games,
        )

    def k_shows_2400(self, k: int) -> bool:
        """Whether a K published under this edition can only come from a published 2400
        (spec section 3 rule 1, "permanently"): the top K of a ladder that no other rung
        shares (K 10 since 2008)."""
        return (
            self.k_scheme is KScheme.LADDER
            and k == self.k_top
            and k not in (self.k_junior, self.k_new, self.k_mid)
        )

    @property
    def newcomer_k(self) -> int:
        """The K of a new player: the one K of everyone under a flat scheme (rapid and blitz
        before Oct 2022), else the new-player K of the ladder."""
        return self.k_flat if self.k_scheme is KScheme.FLAT else self.k_new


# Changes that came to all three lists on the same day (one value, used by each chain).
_JAN_2022: tuple[dt.date, str, dict[str, object]] = (
    dt.date(2022, 1, 1),
    "the 400 cap once per tournament",
    {"cap_kind": CapKind.ONCE_PER_TOURNAMENT},
)
_MAR_2024: tuple[dt.date, str, dict[str, object]] = (
    dt.date(2024, 3, 1),
    "floor 1400; first rating with two fictitious draws against 1800, cap 2200; "
    "the cap in every game again; one-off compression",
    {
        "floor": 1400,
        "cap_kind": CapKind.EVERY_GAME,
        "first_formula": FirstFormula.FICTITIOUS_DRAWS,
        "first_cap": 2200,
        "first_fictitious_games": 2,
    },
)

_STD_2008 = Edition(
    rating_list=RatingList.STANDARD,
    effective_from=FIRST_DATE,
    summary="quarterly lists; cap 350; K 25/15/10; a first rating needs 9 games, each event "
    "at least 1 point against at least 3 rated opponents",
    cap=350,
    cap_kind=CapKind.EVERY_GAME,
    cap_exempt_from=None,
    exclude_600=False,
    k_scheme=KScheme.LADDER,
    k_top=10,
    k_junior=40,
    k_new=25,
    k_mid=15,
    k_flat=20,
    junior=JuniorRule.NONE,
    new_player_games=NEW_PLAYER_GAMES,
    rule_700=False,
    k_by_tournament_start=False,
    floor=policies.FLOOR_BEFORE_JUL_2009,
    calendar=Calendar.QUARTERLY,
    first_formula=FirstFormula.BONUS,
    first_min_games=9,
    first_window_months=policies.FIRST_WINDOW_MONTHS_BEFORE_2014,
    first_bonus=policies.FIRST_BONUS_K25,
    first_cap=None,
    first_event_min_points=Fraction(0),
    event_min_points=Fraction(1),
    event_min_rated_opponents=policies.FIRST_EVENT_MIN_RATED_OPPONENTS_BEFORE_2014,
    first_fictitious_rating=1800,
    first_fictitious_games=0,
)


def _chain(first: Edition, *changes: tuple[dt.date, str, dict[str, object]]) -> tuple[Edition, ...]:
    """The editions from `first` on, each change applied to the one before it, in date order
    (the changes given for one date make one edition; a policy date may fall on another's)."""
    out = [first]
    for when, summary, fields in sorted(changes, key=lambda c: c[0]):
        if when == out[-1].effective_from:
            merged = replace(out[-1], summary=f"{out[-1].summary}; {summary}", **fields)  # type: ignore[arg-type]
            out[-1] = merged
            continue
        out.append(replace(out[-1], effective_from=when, summary=summary, **fields))  # type: ignore[arg-type]
    return tuple(out)


STANDARD_EDITIONS: tuple[Edition, ...] = _chain(
    _STD_2008,
    (
        dt.date(2009, 7, 1),
        "two-monthly lists (closing 7 days before); cap 400 in every game; floor 1200; "
        "each tournament rated with the K of the list in force at its start",
        {
            "cap": 400,
            "floor": 1200,
            "calendar": Calendar.TWO_MONTHLY,
            "k_by_tournament_start": True,
        },
    ),
    (
        policies.K30_FROM,
        "K for new players 25 -> 30",
        {"k_new": 30, "first_bonus": policies.FIRST_BONUS_K30},
    ),
    (
        dt.date(2012, 7, 1),
        "monthly lists (closing 3 days before); floor 1000",
        {"calendar": Calendar.MONTHLY, "floor": 1000},
    ),
    (
        dt.date(2014, 7, 1),
        "K 40/20/10 with junior K 40 before the 18th birthday; first rating: 5 games, "
        "+20 per half point above 50%, a zero score in the first event disregarded (no "
        "minimum per event)",
        {
            "k_new": 40,
            "k_mid": 20,
            "junior": JuniorRule.BEFORE_18TH_BIRTHDAY,
            "first_min_games": 5,
            "first_window_months": 26,
            "first_bonus": Decimal(20),
            "first_event_min_points": Fraction(1, 2),
            "event_min_points": Fraction(0),
            "event_min_rated_opponents": 0,
        },
    ),
    (
        policies.JUNIOR_END_OF_YEAR_AND_700_RULE_FROM,
        "junior K 40 to the end of the year of the 18th birthday; the 700 rule",
        {"junior": JuniorRule.TO_END_OF_YEAR_18, "rule_700": True},
    ),
    (
        policies.K_BY_TOURNAMENT_START_UNTIL,
        "one K for every tournament of the period",
        {"k_by_tournament_start": False},
    ),
    _JAN_2022,
    _MAR_2024,
    (
        dt.date(2025, 10, 1),
        "players with Ro 2650 or more use the true difference",
        {"cap_exempt_from": 2650},
    ),
)

_RB_2012 = replace(
    _STD_2008,
    rating_list=RatingList.RAPID,
    effective_from=RAPID_BLITZ_FIRST_DATE,
    summary="rapid & blitz ratings begin: K 20 for everyone, the 700 rule, cap 400 (policy); "
    "a first rating needs at least 1 point in the first event",
    cap=policies.RAPID_BLITZ_CAP_BEFORE_2022,
    k_scheme=KScheme.FLAT,
    k_flat=20,
    rule_700=True,
    floor=policies.RAPID_BLITZ_FLOOR_2012,
    calendar=Calendar.MONTHLY,
    first_event_min_points=Fraction(1),
    event_min_points=Fraction(0),
    event_min_rated_opponents=0,
)

_RAPID_EDITIONS: tuple[Edition, ...] = _chain(
    _RB_2012,
    (
        dt.date(2014, 7, 1),
        "first rating: 5 games, +20 per half point above 50%",
        {"first_min_games": 5, "first_window_months": 26, "first_bonus": Decimal(20)},
    ),
    _JAN_2022,
    (
        dt.date(2022, 1, 1),
        "first rating: a zero score in the first event is disregarded (was: at least 1 "
        "point in the first event)",
        {"first_event_min_points": Fraction(1, 2)},
    ),
    (
        dt.date(2022, 10, 1),
        "K as on the standard list (40/20/10, juniors, 700 rule); one-off raise to standard - 100",
        {
            "k_scheme": KScheme.LADDER,
            "k_new": 40,
            "k_mid": 20,
            "junior": JuniorRule.TO_END_OF_YEAR_18,
        },
    ),
    _MAR_2024,
    (
        dt.date(2024, 12, 1),
        "a game 600 or more apart with a player above 2600 is not rated",
        {"exclude_600": True},
    ),
)

EDITIONS: dict[RatingList, tuple[Edition, ...]] = {
    RatingList.STANDARD: STANDARD_EDITIONS,
    RatingList.RAPID: _RAPID_EDITIONS,
    RatingList.BLITZ: tuple(replace(e, rating_list=RatingList.BLITZ) for e in _RAPID_EDITIONS),
}


def edition_for(rating_list: RatingList, on: dt.date) -> Edition:
    """The edition in force on `rating_list` on the date `on`.

    Raises BadInput before 2008 (FIDE rated by tournament average then) and, for rapid and
    blitz, before 2012 (their ratings begin on 1 Jan 2012).
    """
    editions = EDITIONS[RatingList(rating_list)]
    if on < editions[0].effective_from:
        if rating_list == RatingList.STANDARD:
            raise BadInput(
                f"{on.isoformat()} is before 2008: FIDE rated by tournament average then, "
                "which the tracker does not replay; use a date from 2008-01-01 on"
            )
        raise BadInput(
            f"{on.isoformat()} is before 2012: {rating_list} ratings begin on 2012-01-01; "
            "use a later date or the standard list"
        )
    found = editions[0]
    for e in editions:
        if e.effective_from <= on:
            found = e
    return found
