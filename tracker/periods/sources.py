"""Where a rating came from, as values (pure): an opponent's, a tournament's Ro, the rating a
period starts from, the rating a list publishes, where the replay starts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tracker.model import Period


class RatingSource(StrEnum):
    """Where a rating came from: an opponent's (the Elo tag, or FIDE's list), a tournament's
    Ro (in the replay's order of precedence), the rating a period starts from, the rating a
    list publishes, where the replay starts. Stable words (`event show`'s JSON `ro_source`);
    tracker.reports.words says each where it is shown."""

    OVERRIDE = "override"  # the Ro the user recorded (tracker event set --ro)
    OFFICIAL = "official"  # an official rating (FIDE's list, or one recorded by hand)
    ELO_TAG = "elo-tag"  # the player's (or the opponent's) own Elo tag
    REPLAYED = "replayed"  # the replayed rating of a list
    STANDARD = "standard"  # rapid/blitz unrated: the standard rating in force (Mar 2024)
    RATING_BEFORE = "rating-before"  # the rating the period started from
    UNRATED = "unrated"  # no rating: the games go toward a first rating
    FIRST_RATING = "first-rating"  # the replay's first rating
    WAITING = "waiting"  # rapid/blitz: the replay waits for a rating of the list
    NO_GAMES = "no-games"  # nothing to replay

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class RatingFrom:
    """Where a rating came from (the rating a period starts from, the replay's start), with
    what names it: the list (`period`), the tournaments whose Elo tag it is, the tag's value;
    `as_tag`: the replayed rating, the Elo tag said the same."""

    source: RatingSource
    period: Period | None = None
    tournaments: tuple[str, ...] = ()
    rating: int | None = None
    as_tag: bool = False
