"""Why a game did not count, as values (pure): `NotCounted` with its `NotCountedWhy` and the
detail the kind needs. tracker.reports.words says each, with the command that settles it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum

from tracker.model import RatingList
from tracker.periods.inputs import GameFact


class NotCountedWhy(StrEnum):
    """Why a game did not count (`NotCounted.why`; its `detail` says more where the kind
    needs it). tracker.reports.words says each in words."""

    EXCLUDED = "excluded"  # the user left the tournament out
    NOT_RATED = "not-rated"  # detail: the game's not-rated word (tracker.model.NotRated)
    UNFINISHED = "unfinished"  # no result
    MATCH_GAMES_A_DAY = "match-games-a-day"  # detail: ScheduleSays (games, round)
    FAST_EVENT = "fast-event"  # detail: ScheduleSays (days)
    GAMES_A_DAY = "games-a-day"  # detail: ScheduleSays
    NO_RATING_YET = "no-rating-yet"  # detail: StandardTag (the replay waits for one)
    NO_DATE = "no-date"  # detail: Unplaced (no date tag gives even a year)
    ONLY_YEAR = "only-year"  # detail: Unplaced with its year (`2011.??.??`, a replayed year)
    TOO_EARLY = "too-early"  # detail: Unplaced (before the replay's first date)
    TOO_LATE = "too-late"  # detail: Unplaced (its list would come after LAST_PERIOD)
    INSIDE_OFFICIAL = "inside-official"  # rated on or before the starting official list
    NO_PERIOD = "no-period"  # in no rating period (a tournament's view of it)
    BY_THE_ENGINE = "by-the-engine"  # detail: the engine's word (tracker.fide GameOut)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ScheduleSays:
    """Games the tournament's schedule says are no standard games (policies
    MATCH_GAMES_A_DAY_NOT_STANDARD, GAMES_A_DAY_FAST_EVENT, GAMES_A_DAY_NOT_STANDARD): a
    match's `games` on one day in `round`, or `days` days of several games."""

    tournament_id: int
    games: int = 0
    round: int = 0
    days: int = 0


@dataclass(frozen=True)
class StandardTag:
    """A rapid or blitz Elo tag taken as the player's standard rating (policy
    TAG_OF_A_FAST_LIST_IS_THE_STANDARD): no rating of `rating_list` to start from."""

    rating_list: RatingList
    tag: int
    tournament: str


@dataclass(frozen=True)
class Unplaced:
    """A tournament in no rating period: undated, before the replay's first date, or after
    the last list replayed (`end`); `year`: the year its date tags give, when they give no
    whole date (`2011.??.??`)."""

    rating_list: RatingList
    tournament_id: int
    end: dt.date | None = None
    year: int | None = None


NotCountedDetail = str | ScheduleSays | StandardTag | Unplaced | None
"""What a `NotCountedWhy` needs said with it."""


@dataclass(frozen=True)
class NotCounted:
    """A game that did not count, and why."""

    game: GameFact
    tournament: str
    why: NotCountedWhy
    detail: NotCountedDetail = None
