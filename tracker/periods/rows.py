"""What the replay hands out: a row per rating period with the engine's details (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from tracker.advice import AddOfficial, PlayerFact, SetPlayerFact
from tracker.fide import FirstRatingOut, PeriodOut, PlayerFacts
from tracker.fide.adjust import Adjustment
from tracker.model import ListKind, OfficialEntry, Period, RatingList
from tracker.periods.grouping import Unit
from tracker.periods.inputs import GameFact
from tracker.periods.notes import Note, StoredTwice, TagDiffers
from tracker.periods.reasons import NotCounted
from tracker.periods.sources import RatingFrom, RatingSource


@dataclass(frozen=True)
class TournamentPlan:
    """How one tournament entered its period: the Ro used and where it came from (the list
    `ro_list` for an official, replayed or standard rating)."""

    unit: Unit
    ro: int | None
    ro_source: RatingSource
    elo_tag: int | None
    official_ro: int | None
    # the games given to the engine, in its order (while unrated: those against a rated
    # opponent, the only ones a first rating pools; the others are the row's not_counted)
    counted: tuple[GameFact, ...]
    note: TagDiffers | None = None  # the Elo tag disagrees with the official list
    ro_list: Period | None = None  # the list of `ro_source` (official, replayed, standard)


@dataclass(frozen=True)
class Assumption:
    """A fact K rested on that nobody recorded (the replay took the usual value: 30+ rated
    games completed, not a junior, never rated 2400), and what records it."""

    fact: PlayerFact
    advice: SetPlayerFact | AddOfficial
    # RATED_GAMES counted from the replay's starting official entry, taken for the player's
    # first rating (no Elo tag of theirs in the games inside it), not the 30+ of one found
    # rated
    first_rating: Period | None = None


@dataclass(frozen=True)
class PeriodRow:
    period: Period
    rating_list: RatingList
    rating_before: int | None  # None: unrated before this period
    rating_before_source: RatingFrom
    out: PeriodOut | None
    first: FirstRatingOut | None
    tournaments: tuple[TournamentPlan, ...]
    not_counted: tuple[NotCounted, ...]
    adjustment: Adjustment | None  # the list's one-off adjustment (None: none)
    replayed: int | None  # the replayed rating on this list (after adjustment); None unrated
    official: OfficialEntry | None
    anchored: bool
    published: int | None  # what the next period starts from
    facts: PlayerFacts
    notes: tuple[Note, ...] = ()
    # `rating_before` is the standard rating an unrated rapid/blitz player is rated at (from
    # Mar 2024), not a rating of this list: `out` came from `rate_period(..., seeded=True)`
    seeded: bool = False
    # the standard rating of the same list (rapid/blitz: the Oct 2022 raise compares with it)
    standard_rating: int | None = None
    # games that look like one game stored twice (also in `notes`; periods.grouping.stored_twice)
    twice: tuple[StoredTwice, ...] = ()
    # the player's own Elo tag in the tournaments that started under this list (the rating
    # of this list as the organisers printed it), when no official entry covers the list
    elo_tag: int | None = None
    # where `published` came from: OFFICIAL, ELO_TAG, REPLAYED, FIRST_RATING or UNRATED
    source: RatingSource = RatingSource.REPLAYED
    assumptions: tuple[Assumption, ...] = ()  # facts K rested on that nobody recorded
    before_official: bool = False  # a period before the earliest official entry

    @property
    def tag_difference(self) -> int | None:
        """The replayed rating minus the player's own Elo tag for this list."""
        if self.replayed is None or self.elo_tag is None:
            return None
        return self.replayed - self.elo_tag

    @property
    def games(self) -> int:
        if self.out is not None:
            return int(self.out.games)
        if self.first is not None:
            return int(self.first.games)
        return 0

    @property
    def points(self) -> Fraction:
        if self.out is not None:
            return Fraction(self.out.points)
        if self.first is not None:
            return Fraction(self.first.points)
        return Fraction(0)

    @property
    def expected(self) -> Decimal | None:
        return None if self.out is None else self.out.expected

    @property
    def k(self) -> int | None:
        return None if self.out is None or self.out.games == 0 else int(self.out.k)

    @property
    def change_exact(self) -> Decimal | None:
        return None if self.out is None else self.out.change_exact

    @property
    def change(self) -> int | None:
        return None if self.out is None else int(self.out.change)

    @property
    def official_rating(self) -> int | None:
        return None if self.official is None else self.official.rating

    @property
    def difference(self) -> int | None:
        if self.replayed is None or self.official_rating is None:
            return None
        return self.replayed - self.official_rating


@dataclass(frozen=True)
class Replay:
    rating_list: RatingList
    rows: tuple[PeriodRow, ...]
    units: tuple[Unit, ...]
    start: Period | None
    # OFFICIAL (the list `start`), ELO_TAG (its rating), UNRATED, NO_GAMES, WAITING
    # (rapid/blitz: the first tags were the standard rating, no rating of the list to start
    # from)
    start_source: RatingFrom
    # tournaments rated on or before the starting official list when the replay has no rating
    # to start them from (no Elo tag of the player's in the first of them): inside that
    # published rating; explain and the history note list them
    before_start: tuple[Unit, ...]
    unplaced: tuple[NotCounted, ...]  # games with no period (undated, before 2008)
    # the kind of each list of this list imported from files, by period (ReplayInputs')
    list_kinds: Mapping[Period, ListKind] = field(default_factory=dict)

    def row(self, period: Period) -> PeriodRow | None:
        for r in self.rows:
            if r.period == period:
                return r
        return None

    @property
    def last(self) -> PeriodRow | None:
        return self.rows[-1] if self.rows else None
