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
from typing import TYPE_CHECKING, Any, NamedTuple

from tracker.errors import BadInput

if TYPE_CHECKING:
    from tracker.identity.names import NamesApart

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
            raise BadInput(f"unknown list {text!r}: use standard, rapid or blitz") from None


_PERIOD_RE = re.compile(r"^\s*(\d{4})-(\d{1,2})\s*$")

FIRST_PERIOD_YEAR, LAST_PERIOD_YEAR = 1970, 2999
"""The years of a period the tracker names (`Period.parse`, a date on the command line)."""

LAST_DATE = dt.date(LAST_PERIOD_YEAR, 12, 31)
"""The last date the importer stores as a date. A game after it keeps its date tag but is
stored without a date, so that no reading command meets a date it cannot compute with
(9999-12-31's list would be of the year 10000); a tournament whose list would come after
LAST_PERIOD gets no period."""


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
        if not FIRST_PERIOD_YEAR <= year <= LAST_PERIOD_YEAR:
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


LAST_PERIOD = Period(LAST_PERIOD_YEAR, 12)
"""The last list a period can name: a tournament whose list would come after it (one that
ends in December 2999) gets no period."""


class Result(StrEnum):
    """A game result as PGN writes it: the one vocabulary of results (the store's check
    constraint and `db check`, the importer, the replay's scores)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    UNFINISHED = "*"


RESULTS = frozenset(r.value for r in Result)
"""The results a game may have (plain strings: a tag's value is looked up in it)."""

WHITE_SCORES: dict[str, Fraction] = {
    Result.WHITE_WINS.value: Fraction(1),
    Result.BLACK_WINS.value: Fraction(0),
    Result.DRAW.value: Fraction(1, 2),
}
"""White's score by result (an unfinished game has none)."""
BLACK_SCORES: dict[str, Fraction] = {r: 1 - score for r, score in WHITE_SCORES.items()}
"""Black's score by result."""


class NotRated(StrEnum):
    """Why a game does not count for rating: stable words, stored in
    `games.not_rated_reason` (tracker/store/schema.py) and shown as they are.

    The importer gives the first eight from the tags (tracker.importer.prepare); a name
    gives the next seven (tracker.fide.eventnames: the event's or round's name says it is
    never rated); the replay gives the last per player (tracker.fide.period). Values that
    cross a process boundary or reach the database are the plain strings (`.value`).
    """

    ONLINE = "online"
    VARIANT = "variant"
    SETUP = "setup"
    UNFINISHED = "unfinished"
    FORFEIT = "forfeit"
    NO_MOVES = "no-moves"
    TIME_CONTROL = "time-control"
    UNRATED_OPPONENT = "unrated-opponent"  # stored only when neither side has a rating
    TIE_BREAK = "tie-break"
    ARMAGEDDON = "armageddon"
    BULLET = "bullet"
    SIMUL = "simul"
    EXHIBITION = "exhibition"
    BLINDFOLD = "blindfold"
    CONSULTATION = "consultation"  # more than one mind a side: a team, "the World", a computer
    RB_600_RULE = "rb-600-rule"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class RawGame:
    """One game as read from a PGN file: its tags as written and a digest of its moves.

    `tags` keeps every tag pair of the header (values unescaped, decoded to str).
    `moves_digest` identifies the movetext (a hash of the normalized move tokens), so two
    copies of one game in different files have the same identity; it is "" when the game
    has no moves. `line` is the 1-based line of the game's first tag in its source.

    `moves_end` is None when the movetext ends with the result its Result tag gives (PGN's
    rule: "1. e4 e5 1-0" under `[Result "1-0"]`; and a RawGame made by hand); otherwise the
    result the movetext does end with (another one, or one under no Result tag), or "" when
    it ends without one: the moves stop before the result, the game cut short (a download
    or a copy cut in the middle of a game). The importer does not store such a game. None
    too when the reader cut a line of the moves (longer than MAX_LINE, its own problem):
    how they end is then unknown, and the file is not taken for a cut one.
    """

    tags: dict[str, str]
    moves_digest: str
    has_moves: bool
    line: int
    problems: tuple[str, ...] = field(default_factory=tuple)
    moves_end: str | None = None


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


@dataclass(frozen=True)
class ListStatus:
    """What one published list said of a player who was looked up on it: the rating (None:
    unrated for FIDE on that list, either not listed or listed without a rating) and the
    list file's name (or `manual`), for a message that names it."""

    rating: int | None
    source: str


class ListKind(StrEnum):
    """What an imported list file was: FIDE's whole list of its month, or an excerpt of it
    (a few rows copied out of it). Only a whole list makes a player it lacks unrated for
    FIDE: a player an excerpt lacks keeps what they had (docs/lists.md)."""

    WHOLE = "whole"
    EXCERPT = "excerpt"

    def __str__(self) -> str:
        return self.value


class EloTags(StrEnum):
    """What a PGN file's Elo tags in rapid and blitz events are, as its import says
    (`tracker import --tags`), stored per imported file: AUTO (judged tag by tag: a tag that
    can be the player's standard rating of the surrounding months is no evidence of the fast
    list, policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD), STANDARD (the file prints the standard
    rating everywhere, as TWIC and pgnmentor do: no fast event's tag is evidence of its
    list) or OWN (each event prints the rating of its own list: every tag is evidence)."""

    AUTO = "auto"
    STANDARD = "standard"
    OWN = "own"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> EloTags:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise BadInput(
                f"unknown --tags {text!r}: use standard (the file prints the standard rating "
                "in every event), own (each event prints its own list's) or auto"
            ) from None


class PreparedGame(NamedTuple):
    """One game as the importer hands it to the store: plain, checked values
    (tracker.importer.prepare makes them, tracker.store.games writes them).

    Dates are ISO strings (`YYYY-MM-DD`) or None; `*_norm` are normalized names; `identity`
    is the game's identity (players, date, round, event, moves): the first 16 bytes of its
    sha256 (tracker.importer.prepare.IDENTITY_BYTES). `white_elo_tag` and `black_elo_tag`
    are the Elo tags as written, None when missing or when exactly the parsed rating
    (`str(white_elo)`, most games: the store keeps the text only where it says more than
    the number, migration 0007). The fields from `date` on are the
    games row's own columns, in this order (`GAME_ROW_FIELDS`, `row_values()`).
    """

    line: int
    white: str
    white_norm: str
    white_fide: int | None
    black: str
    black_norm: str
    black_fide: int | None
    event: str
    site: str  # as it keys the tournament (host of an online URL)
    event_date: str | None
    online: bool
    identity: bytes
    # The games row's own columns from here on (GAME_ROW_FIELDS).
    date: str | None
    date_tag: str | None
    round: str | None
    result: str
    white_elo: int | None
    black_elo: int | None
    white_elo_tag: str | None  # None: missing, or exactly str(white_elo)
    black_elo_tag: str | None
    white_title: str | None
    black_title: str | None
    time_control: str | None
    termination: str | None
    variant: str | None
    has_moves: bool
    list: str
    list_assumed: bool
    rated: bool
    not_rated_reason: str | None

    def row_values(self) -> tuple[Any, ...]:
        """The values of the games row's own columns (`GAME_ROW_FIELDS`), in that order."""
        return self[GAME_ROW_FROM:]


GAME_ROW_FROM = PreparedGame._fields.index("date")
"""Where a PreparedGame's fields that are the games row's own columns begin."""
GAME_ROW_FIELDS = PreparedGame._fields[GAME_ROW_FROM:]
"""The games row's own columns a PreparedGame carries, in its field order."""


class Skipped(str):
    """Why a game read from a PGN file cannot be stored: its problem line, as the import
    report says it ("no White player name: game skipped"). The other answer of
    `Preparer.prepare` (a str, so that it reads as the sentence it is)."""

    __slots__ = ()

    @property
    def reason(self) -> str:
        return str(self)


class ListRating(NamedTuple):
    """One list's figures in a row of a published list: rating (None when empty or 0),
    games, K."""

    list: RatingList
    rating: int | None
    games: int | None = None
    k: int | None = None


class ListRow(NamedTuple):
    """One player's line (TXT) or element (XML) of a published list (a NamedTuple: millions
    of them are made, cheaply), as tracker.lists reads it and tracker.store.official
    stores it.

    `ratings` holds one ListRating per list the file covers (one for a single list, three
    for the combined list), empty ones included. `position` is the 1-based line (TXT) or
    the line of the `<fideid>` of the `<player>` element (XML). `name` is "" for the rare
    row that has none.
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


# --- what an import reports -----------------------------------------------------------------


@dataclass(frozen=True)
class ImportRecord:
    """A row of `tracker imports`."""

    id: int
    source: str
    content_hash: str
    started_at: dt.datetime
    finished_at: dt.datetime | None
    games_read: int
    games_added: int
    duplicates: int
    problems: int
    elo_tags: EloTags = EloTags.AUTO  # what its Elo tags in rapid and blitz events are


@dataclass
class ForeignFideId:
    """A player a game names with a FIDE ID tag (`side`: "White" or "Black") that a player of
    another name holds (`holder`; `apart`: why the names are not one person's, by
    tracker.identity.names.names_apart): the game was filed under the name, without the
    FIDE ID, and nothing merged. `line`: the first such game's; `games`: how many of the
    source's games name them so."""

    line: int
    side: str
    name: str
    fide_id: int
    holder: str
    apart: NamesApart
    games: int = 1


# --- what the store hands out --------------------------------------------------------------


@dataclass(frozen=True)
class TournamentSummary:
    """A tournament as a list of candidates names it: id, event, site, dates, games; without
    a whole date, the latest year (and month) its games' date tags give (`2011.??.??`,
    `2011.05.??`; tracker.periods.TagDate), when they give one."""

    id: int
    name: str
    site: str
    start: dt.date | None
    end: dt.date | None
    games: int
    tag_year: int | None = None
    tag_month: int | None = None


@dataclass(frozen=True)
class PlayerSummary:
    """A row of `tracker players`: FIDE ID, games per list, first and last game date."""

    id: int
    name: str
    fide_id: int | None
    is_me: bool
    games: dict[str, int] = field(default_factory=dict)  # list -> number of games
    first: dt.date | None = None
    last: dt.date | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class MergeDone:
    """A merge made: its number (`unmerge` takes it), the player kept as it is now, the one
    merged into it as it was."""

    number: int
    player: PlayerRef
    gone: PlayerRef


@dataclass(frozen=True)
class NotOnePerson:
    """Why two players one FIDE ID names are not merged: they played each other (`met`
    games), or a name does not fit the FIDE ID's holder's (`names`, against `other`)."""

    met: int = 0
    names: NamesApart | None = None
    other: str = ""


@dataclass(frozen=True)
class ListCandidate:
    """A list row that fits a player's name, as a message shows it."""

    name: str
    fide_id: int
    federation: str | None
    birth_year: int | None


@dataclass(frozen=True)
class Ambiguous:
    """A player whose name several rows of a list fit as well: not matched."""

    player: str
    candidates: tuple[ListCandidate, ...]


@dataclass(frozen=True)
class NameMatch:
    """A player matched by name to a list row: their name in the database, the list's, the
    FIDE ID they got; `into`: the name of the player who already held that FIDE ID, whom
    they were merged into (shown under the list's name since), by merge number `merge`
    (tracker.store.merges: `tracker player unmerge` undoes it)."""

    player: str
    listed: str
    fide_id: int
    into: str | None = None
    merge: int | None = None


@dataclass(frozen=True)
class NotMerged:
    """A player a list row fit by name, whose FIDE ID another player holds who is not that
    person: `why` (they played each other, or a name does not fit the holder's), or
    `refused` (the merge was refused: the error's sentence). Nothing was merged."""

    player: str
    listed: str
    fide_id: int
    holder: str
    why: NotOnePerson | None = None
    refused: str | None = None


@dataclass
class ImportSummary:
    """What an import did, for the command's report."""

    source: str
    rows: int = 0  # players read from the file
    kept: int = 0  # players matched in the database (or created with keep_all)
    created: int = 0  # players created (keep_all)
    skipped: int = 0  # players not in the database (not keep_all)
    entries: int = 0  # entries written
    replaced: int = 0  # entries of an earlier file replaced by this one
    unchanged: int = 0  # entries already as this file has them (imported before): untouched
    unnamed: int = 0  # rows without a name, not created (keep_all)
    cleared: int = 0  # earlier entries removed because this file lists no rating
    duplicates: int = 0  # rows whose FIDE ID appeared earlier in this file (the last wins)
    birth_years: int = 0  # players whose birth year was filled from the list
    problems: int = 0  # malformed rows the reader skipped (set by the caller)
    matched: int = 0  # players without a FIDE ID matched by name (merged ones included)
    checked: int = 0  # (player, list, period) looked-up records added
    kind: ListKind = ListKind.WHOLE  # FIDE's whole list, or an excerpt (docs/lists.md)
    periods: set[Period] = field(default_factory=set)
    lists: set[RatingList] = field(default_factory=set)
    named: list[NameMatch] = field(default_factory=list)  # given the row's FIDE ID
    merged: list[NameMatch] = field(default_factory=list)  # into the player holding the ID
    ambiguous: list[Ambiguous] = field(default_factory=list)  # several rows fit: not matched
    warnings: list[str] = field(default_factory=list)  # said on stderr as they are
    not_merged: list[NotMerged] = field(default_factory=list)  # one FIDE ID, two people
    # the players the file listed (ids), kept up to `listed_up_to` of them (an excerpt
    # records them alone as looked up); None once there were more
    listed: set[int] | None = field(default=None, repr=False)
    listed_up_to: int = field(default=0, repr=False)
