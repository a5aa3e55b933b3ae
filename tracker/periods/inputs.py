"""The facts the replay reads (pure): the player's games seen from their side, the
tournaments with the user's overrides, what the user recorded of the player, and one list's
inputs together. The store gathers them (tracker.store.reading)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction

from tracker.model import EloTags, ListKind, ListStatus, OfficialEntry, Period, RatingList
from tracker.periods.sources import RatingSource


@dataclass(frozen=True)
class GameFact:
    """One game seen from the player's side."""

    id: int
    tournament_id: int
    date: dt.date | None
    round: str | None
    white: bool
    opponent_id: int
    opponent: str
    own_elo: int | None
    opponent_elo: int | None
    result: str
    score: Fraction | None  # None: unfinished
    rating_list: RatingList
    rated: bool = True
    not_rated_reason: str | None = None
    opponent_fide_id: int | None = None
    own_elo_tag: str | None = None
    opponent_elo_tag: str | None = None
    list_assumed: bool = False  # no readable TimeControl: the list was inferred
    opponent_rating_source: RatingSource = RatingSource.ELO_TAG
    """Where `opponent_elo` comes from: ELO_TAG (the PGN's Elo tag, the organiser's), or
    OFFICIAL (the FIDE list `opponent_list`, imported from the file `opponent_list_file`)."""
    opponent_list: Period | None = None
    """The imported list whose word `opponent_elo` is (its rating, or None: unrated for
    FIDE): the list in force at the tournament's start, or the one before it when that is an
    excerpt that lacks the opponent; None: the tag."""
    opponent_list_file: str | None = None
    """The file `opponent_list` was imported from (or `manual`); None: the tag."""
    not_on_excerpt: Period | None = None
    """The list in force at the tournament's start, when it was imported as an excerpt only
    and lacks the opponent: they keep what they had (`opponent_list`, else the tag)."""
    elo_tags: EloTags = EloTags.AUTO
    """What the Elo tags of the file the game was imported from are in rapid and blitz
    events, as its import said (`tracker import --tags`)."""

    @classmethod
    def many(cls, rows: Iterable[Mapping[str, object]]) -> list[GameFact]:
        """GameFacts from mappings of field name to value (`game_facts`)."""
        return game_facts(rows)


_GAME_NAMES = frozenset(f.name for f in fields(GameFact))


def game_facts(rows: Iterable[Mapping[str, object]]) -> list[GameFact]:
    """GameFacts from mappings of field name to value, every field given (what the store
    reads by the thousand): built without the dataclass's __init__ (object.__new__ and
    __dict__), which sets each field through object.__setattr__ and costs about twice as
    much, so keep it equal to `GameFact(**values)` (tests/test_bench_replay.py checks it;
    GameFact has no __post_init__ to skip). The values are taken as they are."""
    new = object.__new__
    names = _GAME_NAMES
    out: list[GameFact] = []
    for values in rows:
        if values.keys() != names:
            raise ValueError(f"a GameFact has the fields {sorted(names)}, not {sorted(values)}")
        fact = new(GameFact)
        fact.__dict__.update(values)
        out.append(fact)
    return out


@dataclass(frozen=True)
class TagDate:
    """What the date tags of a tournament without a whole date say of when it ended: a
    year (`2011.??.??`), or a year and a month (`2011.05.??`) when every tag of its last
    year gives one (the latest)."""

    year: int
    month: int | None = None

    @classmethod
    def latest(cls, found: Iterable[TagDate]) -> TagDate | None:
        """The latest a tournament of games with these dates can have ended: the last
        year; its last month when every date of that year gives one (else None)."""
        dates = list(found)
        if not dates:
            return None
        year = max(d.year for d in dates)
        months = [d.month for d in dates if d.year == year]
        return cls(year, None if None in months else max(m for m in months if m is not None))


@dataclass(frozen=True)
class TournamentFact:
    """A tournament with the user's overrides (`ro`: the player's Ro override); `tag_date`:
    what its games' partial date tags say, when it has no whole date."""

    id: int
    name: str
    site: str = ""
    start: dt.date | None = None
    end: dt.date | None = None
    online: bool = False
    pinned_period: Period | None = None
    pinned_list: RatingList | None = None
    excluded: bool = False
    ro: int | None = None
    tag_date: TagDate | None = None


@dataclass(frozen=True)
class PlayerInfo:
    """What the user recorded about the player (`tracker player set`)."""

    birth_year: int | None = None
    rated_games: int | None = None
    ever_2400: bool | None = None


@dataclass(frozen=True)
class ReplayInputs:
    rating_list: RatingList
    games: Sequence[GameFact]
    tournaments: Sequence[TournamentFact]
    official: Sequence[OfficialEntry] = ()
    player: PlayerInfo = PlayerInfo()
    standard_ratings: Mapping[Period, int] = field(default_factory=dict)
    """Published standard ratings by list (rapid/blitz replays: Oct 2022 raise, seeds)."""
    until: Period | None = None
    """Replay through this period even without games (default: the last with facts)."""
    opponent_lists: Mapping[int, Mapping[Period, ListStatus]] = field(default_factory=dict)
    """What the imported FIDE lists of this list said of each opponent (by player id), list
    by list: a game's opponent is rated as the list in force at the tournament's start says
    (None: unrated for FIDE), whatever the Elo tag says; without one, by the tag."""
    list_kinds: Mapping[Period, ListKind] = field(default_factory=dict)
    """The kind of each list of this list imported from files, by period (WHOLE when a whole
    file of it was): a player an EXCERPT lacks keeps what they had, the rating of the list
    before it (when one was imported and rated them), else the tag."""
    k_given: Mapping[Period, int] = field(default_factory=dict)
    """A K given for a period, before the 700 rule (`tracker target --k`, a what-if): it
    replaces the K section 3 derives and the official K."""
