"""What the replay notes of a period beyond its numbers, as values (pure): where it started,
what it re-anchored on, the Elo tags it took or put aside, the play-offs it counted, the
games that look stored twice, what the engine said. `PeriodRow.notes` holds them in the order
they arose; tracker.reports.words says each."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tracker.fide import EngineReason
from tracker.model import Period, RatingList
from tracker.periods.reasons import StandardTag


@dataclass(frozen=True)
class StartsAtOfficial:
    """The replay starts at the official rating of the list of `period`."""

    period: Period


@dataclass(frozen=True)
class IncludesEarlier:
    """The starting official rating includes these tournaments (no Elo tag of the player's
    to replay them from)."""

    tournaments: tuple[str, ...]


@dataclass(frozen=True)
class WaitsForList:
    """Rapid or blitz: no rating of the list to start from (the tags were the standard
    rating, policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD)."""

    waiting: StandardTag


@dataclass(frozen=True)
class StartsFromStandard:
    """Unrated on rapid or blitz: the period starts from the standard rating `rating` of the
    list `period`, in force at the tournament's start."""

    rating_list: RatingList
    rating: int
    period: Period


@dataclass(frozen=True)
class PlayoffsClassical:
    """Play-off games played one a day, counted on the standard list (policy
    ONE_A_DAY_PLAYOFF_IS_CLASSICAL)."""

    tournament: str
    tournament_id: int
    games: int


@dataclass(frozen=True)
class TagDiffers:
    """The player's own Elo tag in a tournament differs from the official rating of the list
    `period` in force at its start."""

    tag: int
    period: Period
    official: int


@dataclass(frozen=True)
class TournamentNote:
    """A note of one tournament of the period."""

    tournament: str
    note: TagDiffers


@dataclass(frozen=True)
class TwiceIn:
    """One copy of a game that looks stored twice: its tournament and round."""

    tournament: str
    tournament_id: int
    round: str | None


@dataclass(frozen=True)
class StoredTwice:
    """Two games of a period that look like one game stored twice (same date, opponent,
    colour and result): both count."""

    date: dt.date
    opponent: str
    white: bool
    result: str
    first: TwiceIn
    second: TwiceIn


@dataclass(frozen=True)
class EngineSays:
    """What the rules engine said of the period (tracker.fide's reason: the floor, a first
    rating not reached or capped)."""

    said: EngineReason


@dataclass(frozen=True)
class FirstRated:
    """The period gives a first rating."""

    rating: int


@dataclass(frozen=True)
class FirstNotCompressed:
    """A first rating of the Mar 2024 formula is on the compressed scale already (policy
    COMPRESS_FIRST_RATING_OF_2024_FORMULA)."""

    rating: int


@dataclass(frozen=True)
class TagsAside:
    """Rapid or blitz tags put aside as the player's standard rating (policy
    TAG_OF_A_FAST_LIST_IS_THE_STANDARD): (tag, tournament)."""

    rating_list: RatingList
    tags: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class TagsDisagree:
    """The Elo tags of the tournaments that started under the list of `period` disagree:
    (tag, tournament)."""

    period: Period
    tags: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class ReanchoredOnOfficial:
    """The list's official rating differs from the replayed one: the next period starts
    from it."""

    rating: int


@dataclass(frozen=True)
class ReanchoredOnTag:
    """No official entry for the list: the player's own Elo tag in `tournaments` differs
    from the replayed rating (None: unrated) and the next period starts from it."""

    tag: int
    tournaments: tuple[str, ...]
    replayed: int | None


Note = (
    StartsAtOfficial
    | IncludesEarlier
    | WaitsForList
    | StartsFromStandard
    | PlayoffsClassical
    | TournamentNote
    | StoredTwice
    | EngineSays
    | FirstRated
    | FirstNotCompressed
    | TagsAside
    | TagsDisagree
    | ReanchoredOnOfficial
    | ReanchoredOnTag
)
"""One note of a period."""
