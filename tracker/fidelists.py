"""FIDE's downloadable rating lists (TXT fixed width and XML, plain or zipped), streamed.

Pure: standard library only. See `shared/spec/fide-list-formats.md` for the layouts.
"""

from __future__ import annotations

from dataclasses import dataclass

from tracker.model import Period, RatingList


@dataclass(frozen=True, slots=True)
class ListRating:
    """One list's figures in a row: rating (None when empty or 0), games, K."""

    list: RatingList
    rating: int | None
    games: int | None = None
    k: int | None = None


@dataclass(frozen=True, slots=True)
class ListRow:
    """One player's line (TXT) or element (XML) of a published list.

    `ratings` holds one ListRating per list the file covers (one for a single list, three
    for the combined list), empty ones included. `position` is the 1-based line (TXT) or
    the line of the `<player>` element (XML).
    """

    fide_id: int
    name: str
    period: Period
    ratings: tuple[ListRating, ...]
    federation: str | None = None
    sex: str | None = None
    title: str | None = None
    women_title: str | None = None
    other_titles: str | None = None
    foa_title: str | None = None
    birth_year: int | None = None
    flag: str | None = None
    position: int = 0
