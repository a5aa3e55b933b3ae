"""What the user can run to record a fact or settle an assumption, as plain values (pure).

The layers below tracker.reports decide which advice applies (the replay, the check, the
store's summaries); tracker.reports.words spells each as the command of today's command line,
so that renaming a flag touches the reports only. A `None` tournament id or period stands for
the placeholder the user fills in (`ID`, `YYYY-MM`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tracker.model import Period, RatingList


class PlayerFact(StrEnum):
    """A fact about the player that decides K and that the user records (`player set`):
    stable words (the JSON's `fact`)."""

    RATED_GAMES = "rated-games"  # rated games completed before the first stored game
    BIRTH_YEAR = "birth-year"
    EVER_2400 = "ever-2400"  # rated 2400 or more at some time

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class PinPeriod:
    """Put a tournament on the list of a period (`event set ID --period`)."""

    tournament_id: int | None = None
    period: Period | None = None


@dataclass(frozen=True)
class SetTournamentList:
    """Put a tournament on a list (`event set ID --list`); `lists`: the lists to choose
    from (empty: any list)."""

    tournament_id: int | None = None
    lists: tuple[RatingList, ...] = ()


@dataclass(frozen=True)
class ExcludeTournament:
    """Leave a tournament out of the replay (`event set ID --exclude`)."""

    tournament_id: int | None = None


@dataclass(frozen=True)
class PinYear:
    """Put every tournament dated only by `year` (`2011.??.??`) on the list of a period
    (`event set --year YEAR --period`)."""

    year: int
    period: Period | None = None


@dataclass(frozen=True)
class ExcludeYear:
    """Leave every tournament dated only by `year` out of the replay (`event set --year
    YEAR --exclude`)."""

    year: int


@dataclass(frozen=True)
class SetRo:
    """Record the Ro FIDE used for a tournament (`event set ID --ro`)."""

    tournament_id: int | None = None
    ro: int | None = None


@dataclass(frozen=True)
class SetPlayerFact:
    """Record a fact about the player (`player set PLAYER --rated-games N`, ...)."""

    fact: PlayerFact


@dataclass(frozen=True)
class AddOfficial:
    """Record an official rating (`official add PLAYER`): of `rating_list` (None: the
    default list), of `period` (None: the month to fill in), with its K when `with_k`."""

    rating_list: RatingList | None = None
    period: Period | None = None
    with_k: bool = False


Advice = (
    PinPeriod
    | SetTournamentList
    | ExcludeTournament
    | PinYear
    | ExcludeYear
    | SetRo
    | SetPlayerFact
    | AddOfficial
)
"""One thing the user can run."""
