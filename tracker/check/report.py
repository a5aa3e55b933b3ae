"""What `tracker check` reports: one row per period with an official entry (`CheckRow`), the
likely causes of a difference (`Cause`), the check of one player on one list (`CheckReport`),
and the stable words for the kinds of cause and the row statuses. Typed values: the text,
CSV and JSON are tracker.reports.check's."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from tracker.advice import Advice
from tracker.fide import KSaid
from tracker.model import ListKind, NotRated, Period, RatingList
from tracker.periods import Assumption, RatingFrom, RatingSource
from tracker.periods.assumed import ClosingDate, LeftOut
from tracker.periods.notes import TournamentNote
from tracker.periods.reasons import NotCountedDetail, NotCountedWhy

# Stable words for the kinds of cause (JSON `kind`), in the order ties are ranked.
PRE_2008 = "pre-2008"
GAMES_EXTRA = "games-extra"
GAMES_MISSING = "games-missing"
CLOSING_DATE = "closing-date"  # the closing-date rule put a tournament a list later
K_DIFFERS = "k"
UNRATED_OPPONENT = NotRated.UNRATED_OPPONENT.value  # the not-rated word, a plain str
CAP = "cap"
ELO_TAG = "elo-tag"
BASE_CORRECTION = "base-correction"
ROUNDING = "rounding"
NOT_IN_DATABASE = "not-in-database"
UNEXPLAINED = "unexplained"
CAUSE_ORDER = (
    PRE_2008,
    GAMES_EXTRA,
    GAMES_MISSING,
    CLOSING_DATE,
    K_DIFFERS,
    UNRATED_OPPONENT,
    CAP,
    ELO_TAG,
    BASE_CORRECTION,
    ROUNDING,
    NOT_IN_DATABASE,
    UNEXPLAINED,
)

COUNT_CAUSES = (GAMES_EXTRA, GAMES_MISSING, CLOSING_DATE, UNRATED_OPPONENT, NOT_IN_DATABASE)
"""The kinds of cause that account for a difference in the number of games FIDE rated: where
FIDE's count differs from the replay's, they rank before every other kind (a K or a cap that
gives FIDE's rating with the wrong number of games is a coincidence until the count is
explained)."""

# Row statuses.
MATCH = "match"
DIFFERS = "differs"
START = "start"


class GamesStep(StrEnum):
    """What to do about a difference between FIDE's count of rated games on a list and the
    replay's (`GamesCount`)."""

    IMPORT = "import"  # FIDE rated more than the files hold: import the missing tournament
    LEFT_OUT = "left-out"  # ... or FIDE counted games of the period the replay left out
    CAUSE = "cause"  # the first cause (reproducing both numbers) moves a tournament
    ELSEWHERE = "elsewhere"  # FIDE rated fewer: a tournament went on another list, or none


@dataclass(frozen=True)
class GamesCount:
    """FIDE's count of the player's rated games on a list (the list file's Gms or <games>,
    or `official add --games`) where the replay's differs: the first thing `check` says of
    the period. `source`: where FIDE's count came from (the list file's name, or `manual`),
    `kind` that list's kind (None: recorded by hand, or a list imported before kinds were
    recorded); `left_out`: the games of the period the replay did not count."""

    period: Period
    fide: int
    replay: int
    source: str
    kind: ListKind | None
    step: GamesStep
    left_out: int = 0

    @property
    def missing(self) -> int:
        """FIDE's count minus the replay's (below 0: games extra)."""
        return self.fide - self.replay


@dataclass(frozen=True)
class Unexplained:
    """No single cause reproduces the official rating of `period`: compare by hand.
    `tournaments`: how many tournaments of the player the period holds (none: no Ro to
    record, the games FIDE rated are what is missing)."""

    period: Period
    official: int | None
    tournaments: int = 0


@dataclass(frozen=True)
class NotInDatabase:
    """FIDE rated `fide` games on the list of `period`, the replay `replay`: `missing` games
    are probably not in the database; `left_out`: the games of the period the replay did
    not count, when as many as the missing ones (FIDE may have counted them), and their
    reasons (`reasons`)."""

    period: Period
    fide: int
    replay: int
    missing: int
    left_out: int = 0
    reasons: tuple[tuple[NotCountedWhy, NotCountedDetail], ...] = ()


@dataclass(frozen=True)
class RoFromTag:
    """The tournament used Ro `ro` (from `source`, of the list `ro_list`), not the player's
    own Elo tag there (`tag`); with Ro `tag` the period gives `rating`."""

    tournament: str
    ro: int | None
    source: RatingSource
    ro_list: Period | None
    tag: int
    rating: int | None


class CapMode(StrEnum):
    """How a period's rating differences could have been capped (`CapDiffers`)."""

    EVERY_GAME = "every game"  # |D| at 400 in every game
    ONCE = "once per tournament"  # the 2022 rule: only the game with the largest difference
    NO_CAP = "no cap"  # the true differences
    CAP_350 = "cap 350"  # |D| at 350 (the rule before Jul 2009)


@dataclass(frozen=True)
class Before2008:
    """The list of `period` is before 2008 (FIDE rated by tournament averages): not
    replayed (`unplaced` games before 2008); the replay re-anchors at the official
    `official`."""

    period: Period
    official: int | None
    unplaced: int


@dataclass(frozen=True)
class CapDiffers:
    """Capping the differences as `mode` says (with `rule_2650`: a Ro of 2650 or more in the
    period) gives `rating`; the replay applied the cap of each tournament's edition."""

    mode: CapMode
    rule_2650: bool
    rating: int


@dataclass(frozen=True)
class RoundedEach:
    """Rounding each tournament's change (`parts`, summed `per`) instead of the period's
    once (`change_exact` -> `change`) gives `rating`."""

    parts: tuple[int, ...]
    per: int
    change_exact: Decimal
    change: int
    rating: int


@dataclass(frozen=True)
class BaseCorrected:
    """FIDE started the period from `base`, not the published `published`: from `base` the
    period gives `rating`."""

    period: Period
    base: int
    published: int
    rating: int | None


@dataclass(frozen=True)
class UnratedCountedByFide:
    """FIDE rated `fide` games, the replay `replay`: it did not count `games` games against
    `opponents` (no rating in the PGN), whom FIDE probably rated."""

    fide: int | None
    replay: int
    games: int
    opponents: tuple[str, ...]


@dataclass(frozen=True)
class UnratedForFide:
    """The replay counted `games` games against `opponent` (Elo `elo` in the PGN), FIDE did
    not (unrated on its `rating_list` list): without them the replay gives `official`."""

    games: int
    opponent: str
    elo: int | None
    rating_list: RatingList
    official: int | None


class KGuess(StrEnum):
    """Why FIDE's K may differ from the replay's (`KWhy`)."""

    EVER_2400 = "ever-2400"  # FIDE's K 10: a published 2400 the replay does not know of
    NOT_2400 = "not-2400"  # the replay's K 10: FIDE does not take 2400 as reached
    JUNIOR_OR_NEW = "junior-or-new"  # FIDE's K 40: a junior, or under 30 rated games
    NO_LONGER_40 = "no-longer-40"  # the replay's K 40: FIDE's junior years or 30 games over
    OLDER_SCHEME = "older-scheme"  # an older edition's K scheme (25/15/10 or 30/15/10)
    OTHER = "other"  # the 700 rule or a K recorded on FIDE's side


@dataclass(frozen=True)
class KWhy:
    """Why FIDE's K may differ, with the player's facts the replay knew."""

    guess: KGuess
    rated_games: int | None = None
    birth_year: int | None = None


@dataclass(frozen=True)
class Rule700:
    """The 700 rule: `games` x K `k` > 700 gives K `cut`; `then` why K `k` itself, or None
    when the replay's policy has the rule only from Jul 2017 and FIDE applied it."""

    games: int
    k: int
    cut: int
    then: KWhy | None


@dataclass(frozen=True)
class No700:
    """FIDE did not apply the 700 rule to K `k` here (`games` games); the replay did."""

    k: int
    games: int


@dataclass(frozen=True)
class PeriodKForAll:
    """FIDE rated every tournament with the period's K, not each with its start's."""


@dataclass(frozen=True)
class ReplayK:
    """The K the replay used: the period's (`k`, why), and each tournament's that differs
    (K, the tournament, why)."""

    k: int
    reason: KSaid
    others: tuple[tuple[int, str, KSaid], ...] = ()


@dataclass(frozen=True)
class KDiffers:
    """FIDE's rating follows from K `k` (for every tournament, `every`): K x `total` ->
    `rating`; the replay used `replay`; `why`."""

    k: int
    every: bool
    total: Decimal
    rating: int | None
    replay: ReplayK
    why: KWhy | Rule700 | No700 | PeriodKForAll


@dataclass(frozen=True)
class KPrinted:
    """The list of `period` prints K `official`, the replay derived K `derived` (`reason`)
    for the period; `why`."""

    period: Period
    official: int
    derived: int
    reason: KSaid
    why: KWhy


Moved = tuple[tuple[int, str, int], ...]
"""Tournaments a cause moves: (id, name, games counted)."""


@dataclass(frozen=True)
class GamesMissingHere:
    """FIDE rated `fide` games on the list of `period`, the replay `replay`: `moved`, which
    the replay rated on the lists `where`, probably landed here (`rule`: those the
    closing-date rule had put a list later). With that pin the period gives `got` (the
    official `official` when `reproduces`), and matches the lists `verified`, while
    `broken` would then differ."""

    fide: int | None
    replay: int
    period: Period
    moved: Moved
    where: tuple[Period, ...]
    rule: tuple[ClosingDate, ...]
    reproduces: bool
    official: int | None
    got: int | None
    verified: tuple[Period, ...] = ()
    broken: tuple[Period, ...] = ()


@dataclass(frozen=True)
class GamesExtraThere:
    """FIDE rated `fide` games on the list of `period`, the replay `replay`: `moved` was
    probably rated on the `target` list, because of the closing-date rule (`rule`), else a
    late report (`late`) or it reached FIDE in time; with that pin the period gives the
    official `official`, and `target` its official `confirmed` (None: no entry to confirm)."""

    fide: int | None
    replay: int
    period: Period
    moved: Moved
    target: Period
    rule: tuple[ClosingDate, ...]
    late: bool
    official: int | None
    confirmed: int | None


@dataclass(frozen=True)
class GamesExtraUnrated:
    """... `moved` was probably not rated at all: excluding it gives `official`; or, when
    not `reproduces`, it may be on another list but no move reproduces the rating."""

    fide: int | None
    replay: int
    period: Period
    moved: Moved
    official: int | None
    reproduces: bool


@dataclass(frozen=True)
class ClosingUndone:
    """The closing-date rule undone: `closing` was probably rated on its earlier list; the
    pin gives the official `official` for `period`, and for `other` its official
    `confirmed` (None: no entry there to confirm it)."""

    closing: ClosingDate
    period: Period
    official: int | None
    other: Period
    confirmed: int | None


CauseSaid = (
    Unexplained
    | NotInDatabase
    | RoFromTag
    | Before2008
    | CapDiffers
    | RoundedEach
    | BaseCorrected
    | UnratedCountedByFide
    | UnratedForFide
    | KDiffers
    | KPrinted
    | GamesMissingHere
    | GamesExtraThere
    | GamesExtraUnrated
    | ClosingUndone
)
"""A cause as a value (tracker.reports.causes words it)."""


@dataclass(frozen=True)
class Cause:
    """One likely cause of a difference, as a value (`said`; tracker.reports.causes words it,
    with the commands in it)."""

    kind: str  # one of CAUSE_ORDER
    said: CauseSaid
    reproduces: bool  # re-computing under this cause gives exactly the official rating
    games_match: bool = False  # ... and the official game count
    advice: tuple[Advice, ...] = ()  # what the user can run to record it

    def rank_key(self, count_differs: bool = False) -> tuple[int, int, int]:
        """Best first: where FIDE's game count differs from the replay's (`count_differs`),
        the causes of the count (`COUNT_CAUSES`) first; then by evidence (reproduces the
        rating, and the count), ties by `CAUSE_ORDER`."""
        counts = count_differs and self.kind in COUNT_CAUSES
        evidence = 4 * self.reproduces + 2 * self.games_match
        return (-counts, -evidence, CAUSE_ORDER.index(self.kind))


def ranked(causes: Iterable[Cause], count_differs: bool) -> tuple[Cause, ...]:
    """`causes` best first (`Cause.rank_key`)."""
    return tuple(sorted(causes, key=lambda c: c.rank_key(count_differs)))


@dataclass(frozen=True)
class StartsHere:
    """The replay starts from this period's official rating."""


@dataclass(frozen=True)
class ReanchorMatches:
    """Re-anchoring at the official rating `official` makes the rest match: the `later`
    periods checked after it, or only the next one, `next_period`."""

    official: int
    later: int = 0
    next_period: Period | None = None


CheckNote = TournamentNote | StartsHere | ReanchorMatches
"""A note of a period checked: a tournament's Elo tag against the official list, where the
replay starts, what re-anchoring does."""


@dataclass(frozen=True)
class CheckRow:
    """One period with an official entry: replayed vs official, and why they differ."""

    period: Period
    rating_list: RatingList
    replayed: int | None
    official: int | None
    games: int
    official_games: int | None
    k: int | None  # K the replay used
    official_k: int | None  # K published on the previous list (what FIDE used), if known
    status: str  # match, differs, start
    causes: tuple[Cause, ...] = ()
    notes: tuple[CheckNote, ...] = ()
    # the facts the replayed K rested on that nobody recorded
    assumptions: tuple[Assumption, ...] = ()
    official_source: str = "manual"  # where the official number came from: a list file
    official_flag: str | None = None  # the list's flag (i: inactive)
    # the counted games whose list was assumed (no TimeControl: the event's name, else
    # standard), the games left out by reason (as `history` counts them), and the
    # tournaments the closing-date rule moved past an earlier list
    list_assumed_games: int = 0
    not_counted: tuple[LeftOut, ...] = ()
    closing_dates: tuple[ClosingDate, ...] = ()
    # FIDE's count of rated games where the replay's differs; the official list's kind
    games_count: GamesCount | None = None
    official_kind: ListKind | None = None

    @property
    def assumes_something(self) -> bool:
        """Whether the replayed number rests on a fact nobody recorded."""
        return bool(
            self.assumptions or self.list_assumed_games or self.not_counted or self.closing_dates
        )

    @property
    def difference(self) -> int | None:
        """Replayed minus official (as `tracker history` shows it)."""
        if self.replayed is None or self.official is None:
            return None
        return self.replayed - self.official


@dataclass(frozen=True)
class CheckReport:
    """The check of one player on one list."""

    player: str
    rating_list: RatingList
    rows: tuple[CheckRow, ...]
    start: RatingFrom  # where the replay starts
    before_2008: int = 0  # games before 2008, not replayed (FIDE rated by averages then)
    who: str = "ID"  # how a command names the player (the commands of assumed facts)

    @property
    def compared(self) -> tuple[CheckRow, ...]:
        return tuple(r for r in self.rows if r.status != START)

    @property
    def differences(self) -> tuple[CheckRow, ...]:
        return tuple(r for r in self.rows if r.status == DIFFERS)

    @property
    def all_match(self) -> bool:
        return not self.differences
