"""What `tracker check` reports: one row per period with an official entry (`CheckRow`), the
likely causes of a difference (`Cause`), the check of one player on one list (`CheckReport`),
and the stable words for the kinds of cause and the row statuses."""

from __future__ import annotations

from dataclasses import dataclass

from tracker.model import NotRated, Period, RatingList
from tracker.periods.assumed import ClosingDate

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

# Row statuses.
MATCH = "match"
DIFFERS = "differs"
START = "start"


@dataclass(frozen=True)
class Cause:
    """One likely cause of a difference."""

    kind: str  # one of CAUSE_ORDER
    text: str
    reproduces: bool  # re-computing under this cause gives exactly the official rating
    games_match: bool = False  # ... and the official game count
    command: str | None = None  # what the user can run to record it

    def rank_key(self) -> tuple[int, int]:
        evidence = 4 * self.reproduces + 2 * self.games_match
        return (-evidence, CAUSE_ORDER.index(self.kind))


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
    notes: tuple[str, ...] = ()
    # the facts the replayed K rested on that nobody recorded: (fact, assumed, command)
    assumptions: tuple[tuple[str, str, str], ...] = ()
    official_source: str = "manual"  # where the official number came from: a list file
    official_flag: str | None = None  # the list's flag (i: inactive)
    # the counted games whose list was assumed (no TimeControl: the event's name, else
    # standard), the games put off the list by reason ((label, games), as `history` says
    # them), and the tournaments the closing-date rule moved past an earlier list
    list_assumed_games: int = 0
    not_counted: tuple[tuple[str, int], ...] = ()
    closing_dates: tuple[ClosingDate, ...] = ()

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

    def to_json(self) -> dict[str, object]:
        return {
            "period": str(self.period),
            "list": str(self.rating_list),
            "replayed": self.replayed,
            "official": self.official,
            "difference": self.difference,
            "games": self.games,
            "official_games": self.official_games,
            "k": self.k,
            "official_k": self.official_k,
            "status": self.status,
            "causes": [
                {
                    "kind": c.kind,
                    "text": c.text,
                    "reproduces": c.reproduces,
                    "games_match": c.games_match,
                    "command": c.command,
                }
                for c in self.causes
            ],
            "notes": list(self.notes),
            "assumptions": [
                {"fact": f, "assumed": a, "command": c} for f, a, c in self.assumptions
            ],
            "official_source": self.official_source,
            "official_flag": self.official_flag,
            "list_assumed_games": self.list_assumed_games,
            "not_counted": [{"reason": r, "games": n} for r, n in self.not_counted],
            "period_assumed": [c.to_json() for c in self.closing_dates],
        }


@dataclass(frozen=True)
class CheckReport:
    """The check of one player on one list."""

    player: str
    rating_list: RatingList
    rows: tuple[CheckRow, ...]
    start: str  # where the replay starts ("official 2025-09", "unrated", ...)
    notes: tuple[str, ...] = ()

    @property
    def compared(self) -> tuple[CheckRow, ...]:
        return tuple(r for r in self.rows if r.status != START)

    @property
    def differences(self) -> tuple[CheckRow, ...]:
        return tuple(r for r in self.rows if r.status == DIFFERS)

    @property
    def all_match(self) -> bool:
        return not self.differences

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "list": str(self.rating_list),
            "start": self.start,
            "all_match": self.all_match,
            "compared": len(self.compared),
            "differences": len(self.differences),
            "rows": [r.to_json() for r in self.rows],
            "notes": list(self.notes),
        }
