"""Plain values shared by every layer (pure: standard library only).

These are the words of `shared/DESIGN.md`: game, player, tournament, list, period, rating,
official. The store hands these out; ORM rows never leave it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from tracker.errors import BadInput

MAX_RATING = 3999
"""The highest rating taken anywhere (FIDE's lists print four digits): official entries, the
list reader, PGN Elo tags, `calc`, `target`, `event set --ro`."""

MAX_K = 40
"""The largest K FIDE has printed on a list (40: new players and juniors); an official K
outside 1..MAX_K is refused, so a mistyped `--k 1000` never reaches the replay."""


class RatingList(StrEnum):
    """One of FIDE's three separate lists."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> RatingList:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise BadInput(
                f"unknown list {text!r}: use standard, rapid or blitz"
            ) from None


_PERIOD_RE = re.compile(r"^\s*(\d{4})-(\d{1,2})\s*$")


@dataclass(frozen=True, order=True)
class Period:
    """A rating period, named by the month of the list that publishes it (`YYYY-MM`)."""

    year: int
    month: int

    def __post_init__(self) -> None:
        if not 1 <= self.month <= 12:
            raise BadInput(f"month {self.month} is not 1 to 12")

    @classmethod
    def parse(cls, text: str) -> Period:
        m = _PERIOD_RE.match(text)
        if not m:
            raise BadInput(f"period {text!r} is not of the form YYYY-MM (for example 2025-03)")
        year, month = int(m.group(1)), int(m.group(2))
        if not 1 <= month <= 12:
            raise BadInput(f"period {text!r}: month must be 01 to 12")
        if not 1970 <= year <= 2999:
            raise BadInput(f"period {text!r}: year out of range")
        return cls(year, month)

    @classmethod
    def of(cls, day: dt.date) -> Period:
        """The period whose list is dated in the month of `day`."""
        return cls(day.year, day.month)

    @property
    def list_date(self) -> dt.date:
        """The date of the published list (the 1st of the month)."""
        return dt.date(self.year, self.month, 1)

    def shift(self, months: int) -> Period:
        index = self.year * 12 + (self.month - 1) + months
        return Period(index // 12, index % 12 + 1)

    def next(self) -> Period:
        return self.shift(1)

    def prev(self) -> Period:
        return self.shift(-1)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


class Result(StrEnum):
    """A game result as PGN writes it."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    UNFINISHED = "*"

    def score_for_white(self) -> Fraction | None:
        return {
            Result.WHITE_WINS: Fraction(1),
            Result.BLACK_WINS: Fraction(0),
            Result.DRAW: Fraction(1, 2),
        }.get(self)


@dataclass(frozen=True)
class RawGame:
    """One game as read from a PGN file: its tags as written and a digest of its moves.

    `tags` keeps every tag pair of the header (values unescaped, decoded to str).
    `moves_digest` identifies the movetext (a hash of the normalized move tokens), so two
    copies of one game in different files have the same identity; it is "" when the game
    has no moves. `line` is the 1-based line of the game's first tag in its source.
    """

    tags: dict[str, str]
    moves_digest: str
    has_moves: bool
    line: int
    problems: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class PlayerRef:
    """A player as the store hands it out."""

    id: int
    name: str
    fide_id: int | None = None
    birth_year: int | None = None
    rated_games: int | None = None
    ever_2400: bool | None = None
    is_me: bool = False

    @property
    def command_name(self) -> str:
        """How a command line names the player: the FIDE ID, else the name (shell-quoted)."""
        import shlex

        return str(self.fide_id) if self.fide_id is not None else shlex.quote(self.name)


@dataclass(frozen=True)
class OfficialEntry:
    """One published list entry: what FIDE printed for a player on a list in a period."""

    player_id: int
    list: RatingList
    period: Period
    rating: int | None
    games: int | None = None
    k: int | None = None
    flag: str | None = None
    title: str | None = None
    birth_year: int | None = None
    source: str = "manual"
