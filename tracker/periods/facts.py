"""The facts the replay reads, and how they group: tournaments on one list, each assigned
to a rating period by the era's list calendar (pure)."""

from __future__ import annotations

import datetime as dt
import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction

from tracker.fide import list_calendar
from tracker.fide.editions import EDITIONS, FIRST_DATE, NEW_PLAYER_GAMES
from tracker.model import (
    LAST_DATE,
    LAST_PERIOD,
    ListKind,
    ListStatus,
    NotRated,
    OfficialEntry,
    Period,
    RatingList,
)


@functools.lru_cache(maxsize=8)
def replay_from(rating_list: RatingList) -> dt.date:
    """The first date the engine rates on that list (2008 standard, 2012 rapid and blitz)."""
    return min(e.effective_from for e in EDITIONS[RatingList(rating_list)])


def too_early_reason(rating_list: RatingList) -> str:
    if rating_list == RatingList.STANDARD:
        return "before 2008: FIDE rated by tournament averages, not replayed"
    first = replay_from(rating_list)
    return f"before {first.isoformat()}: no {rating_list} ratings yet"


TOO_LATE = "played until"
"""How `too_late_reason` begins."""


def too_late_reason(end: dt.date, tournament_id: int) -> str:
    """Why a tournament that ended on `end` is in no period: its list would come after
    LAST_PERIOD (or `end` is past LAST_DATE: a database stored before the importer kept to
    it)."""
    return (
        f"{TOO_LATE} {end.isoformat()}: no list after {LAST_PERIOD} is replayed (a "
        f"wrong date in the PGN?): pin it with `tracker event set {tournament_id} "
        "--period YYYY-MM`"
    )


def period_of_end(end: dt.date, rating_list: RatingList) -> Period | None:
    """The list that rates a tournament that ended on `end` (`default_period`); None before
    the replay's first date (`replay_from`) or when that list would come after LAST_PERIOD
    (a date past LAST_DATE is never computed with: its list could be of the year 10000)."""
    if end < replay_from(rating_list) or end > LAST_DATE:
        return None
    period = default_period(end, rating_list)
    return period if period <= LAST_PERIOD else None


ASSUMED_GAMES_WHEN_ESTABLISHED = NEW_PLAYER_GAMES
"""An official K below a new player's K shows 30 games completed, at least."""

GAMES_COMPLETED_WHEN_UNKNOWN = NEW_PLAYER_GAMES
"""Policy: a player the replay finds rated when it starts (an official entry, or their own
Elo tag in the first stored tournament), whose rated games completed nobody recorded
(`tracker player set --rated-games`) and no official K shows, has completed 30 or more: a
player with a published rating has nearly always played 30 rated games (a new player is
rated after 5, and most real users bring a season, not their first one). Where the count
decides K the history, next, check and explain say it was assumed, with the command that
records it. A player the replay rates for the first time is counted from its first rating."""

TAG_IS_EVIDENCE_OF_THE_LIST = True
"""Policy: the player's own Elo tag in a tournament is the rating of the list in force at its
start as the organiser printed it (spec 1.2). Where no official entry covers that list, the
replay re-anchors there when the tag differs from the replayed rating (several tournaments
started under it: the tag most of their games carry, or the replayed rating when it is one of
them; a tag the same event already carried under an earlier list, a team league's season
rating, is no new evidence; the disagreement is said), exactly as it re-anchors at
an official rating: a collection of a player's games follows their own published ratings
instead of drifting with every game the file lacks. Standard tags for the standard list,
rapid and blitz events' tags for those lists; rated games of tournaments not excluded only
(an online event's tags are that site's ratings). An official entry wins over tags. False:
tags are used only as each tournament's Ro."""

GAMES_A_DAY_NOT_STANDARD = 4
"""Policy: a player's games of one tournament on one day without a readable TimeControl,
this many or more, are no standard games (no standard event plays four rounds a day; a
weekend open may play three): they are not rated on the standard list, with a reason that
says how to put them on rapid or blitz (`tracker event set ID --list`), unless the round
numbers and the other days say the file's dates are wrong (WRONG_DATE_ONE_GAME_DAYS). A
game not rated anyway (an online event's) keeps its own reason; a tournament the user put
on a list is left as they said."""

MATCH_GAMES_A_DAY_NOT_STANDARD = 2
"""Policy: a player's games without a readable TimeControl against the same opponent in the
same numbered round ("2.1", "2.2": a knock-out's match), this many or more on one day, are
no standard games: a standard match plays one game a day, so they are a rapid or blitz
match or its tie-break. Where the event's other matches start with classical games one a
day and a match's games are all dated on one day, the file's dates are wrong: that match's
first games, as many as the others play one a day, stay standard."""

GAMES_A_DAY_FAST_EVENT = 3
"""Policy: with this many games or more on each of FAST_EVENT_DAYS days (no readable
TimeControl), a tournament is a rapid or blitz event, none of its games standard: a weekend
open plays three rounds on one day at most, a rapid round robin three or more every day."""

FAST_EVENT_DAYS = 2
"""The days of GAMES_A_DAY_FAST_EVENT games that make a tournament a rapid or blitz event."""

WRONG_DATE_ONE_GAME_DAYS = 3
"""Policy: a day of GAMES_A_DAY_NOT_STANDARD games or more stays standard when its games are
each a different numbered round against a different opponent and the event's other days
(its tie-break days aside), this many or more, hold one game each: the rounds were played
one a day and the file dates several of them on one day."""

ONE_A_DAY_PLAYOFF_IS_CLASSICAL = True
"""Policy: a play-off or tie-break by its name (no speed word, no TimeControl) whose games
the player played one a day, on PLAYOFF_DAYS_ONE_A_DAY days or more, is classical: those
games are standard and rated (a faster tie-break plays several games a day); its games of
a day with several stay a tie-break. False: every play-off by its name is a tie-break."""

PLAYOFF_DAYS_ONE_A_DAY = 2
"""The days of one play-off game each that make a play-off classical."""

TAG_OF_A_FAST_LIST_IS_THE_STANDARD = True
"""Policy: the player's own Elo tag in a rapid or blitz event is evidence of that list only
when it differs from the player's standard rating of the month (the published or replayed
standard list in force at the event's start, or a standard tag under that list): TWIC and
most organisers print the standard rating there. Such a tag neither starts nor re-anchors
the rapid or blitz history, which says so and waits for an official entry (or a tag that
differs). False: every rapid or blitz tag is evidence of its list."""

TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE = True
"""Policy: on the standard list, the player's own Elo tag in an event its name says is never
rated (Basque chess, a simul, an exhibition, a consultation or blindfold game) is evidence
of the list as much as a rated game's: the organiser printed the same FIDE rating. Online
events stay out (another site's ratings), and so do the faster names (a tie-break, an
armageddon), whose games are on rapid or blitz. False: rated games' tags only."""

EVIDENCE_OF_NEVER_RATED = frozenset(
    {
        NotRated.VARIANT.value,
        NotRated.SIMUL.value,
        NotRated.EXHIBITION.value,
        NotRated.CONSULTATION.value,
        NotRated.BLINDFOLD.value,
    }
)
"""The not-rated reasons whose games' tags TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE takes."""

PEAK_FOR_2400_QUESTION = 2300
"""Policy: whether a player who starts the replay rated ever reached 2400 is unknown; it is
said to be assumed ("never rated 2400 or more") only when the replay has seen the player at
2300 or more on that list: below that, having once been 2400 is rare enough not to ask."""

PLAYER_FACTS_LISTS: tuple[RatingList, ...] = (RatingList.STANDARD,)
"""Policy: the lists the user-recorded `rated_games` and `ever_2400` facts
(`tracker player set`) apply to. The store keeps one set per player and spec section 3 says
"2400 ... ever, on that list", so they describe the standard list only; rapid and blitz
derive the games completed, 2400 ever and 2300 reached from their own official entries
(and official K) and replayed ratings."""


# --- facts in ------------------------------------------------------------------------------


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
    opponent_rating_source: str = "tag"
    """Where `opponent_elo` comes from: "tag" (the PGN's Elo tag, the organiser's), or the
    FIDE list in force at the tournament's start ("standard 2025-09 list (file)")."""
    opponent_list: Period | None = None
    """The imported list whose word `opponent_elo` is (its rating, or None: unrated for
    FIDE): the list in force at the tournament's start, or the one before it when that is an
    excerpt that lacks the opponent; None: the tag."""
    not_on_excerpt: Period | None = None
    """The list in force at the tournament's start, when it was imported as an excerpt only
    and lacks the opponent: they keep what they had (`opponent_list`, else the tag)."""

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
class TournamentFact:
    """A tournament with the user's overrides (`ro`: the player's Ro override)."""

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


# --- grouping ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """A tournament's games on one list, assigned to a rating period."""

    tournament: TournamentFact
    rating_list: RatingList
    start: dt.date | None
    end: dt.date | None
    period: Period | None  # None: no date known and not pinned
    pinned: bool
    games: tuple[GameFact, ...]

    @property
    def label(self) -> str:
        return self.tournament.name


def game_list(game: GameFact, tournament: TournamentFact | None) -> RatingList:
    """The list a game is rated on: the tournament's pinned list, else the game's own."""
    if tournament is not None and tournament.pinned_list is not None:
        return tournament.pinned_list
    return game.rating_list


@functools.lru_cache(maxsize=4096)
def is_list_month(period: Period, rating_list: RatingList = RatingList.STANDARD) -> bool:
    """Whether a list of `rating_list` is published in that month (the era's calendar)."""
    return bool(list_calendar(period.list_date, rating_list).is_list_month(period))


@functools.lru_cache(maxsize=8192)
def default_period(end: dt.date, rating_list: RatingList = RatingList.STANDARD) -> Period:
    """The first list after a tournament that ended on `end` (the era's closing rule)."""
    p: Period = list_calendar(end, rating_list).default_period(end)
    return p


_EARLIEST = Period.of(FIRST_DATE)


@functools.lru_cache(maxsize=16384)
def list_in_force(on: dt.date, rating_list: RatingList = RatingList.STANDARD) -> Period | None:
    """The list in force on `on` (the latest list dated on or before it), None before any."""
    p = Period.of(on)
    while p >= _EARLIEST:
        if is_list_month(p, rating_list):
            return p
        p = p.prev()
    return None


def previous_list(period: Period, rating_list: RatingList = RatingList.STANDARD) -> Period | None:
    """The list before `period`'s (None before the first list)."""
    return list_in_force(period.prev().list_date, rating_list)


@functools.lru_cache(maxsize=8192)
def next_list(period: Period, rating_list: RatingList = RatingList.STANDARD) -> Period:
    """The first list after `period`."""
    p = period.next()
    while not is_list_month(p, rating_list):
        p = p.next()
    return p


def _game_key(g: GameFact) -> tuple[object, ...]:
    return (g.date is None, g.date or dt.date.min, g.round or "", g.id)


def assign_units(
    games: Iterable[GameFact], tournaments: Iterable[TournamentFact], rating_list: RatingList
) -> list[Unit]:
    """The player's tournaments on `rating_list`, each with its period, ordered by start."""
    by_id = {t.id: t for t in tournaments}
    grouped: dict[int, list[GameFact]] = defaultdict(list)
    for g in games:
        t = by_id.get(g.tournament_id)
        if game_list(g, t) == rating_list:
            grouped[g.tournament_id].append(g)
    units: list[Unit] = []
    for tid, gs in grouped.items():
        t = by_id.get(tid) or TournamentFact(id=tid, name=f"tournament {tid}")
        gs.sort(key=_game_key)
        dates = [g.date for g in gs if g.date is not None]
        start = t.start or (min(dates) if dates else None)
        end = max([d for d in (t.end, *dates) if d is not None], default=None)
        if start is not None and end is not None and start > end:
            start = end
        if t.pinned_period is not None:
            period: Period | None = t.pinned_period
            if start is None:
                start = end = t.pinned_period.prev().list_date
        elif end is not None:
            period = period_of_end(end, rating_list)
        else:
            period = None
        units.append(
            Unit(t, rating_list, start, end, period, t.pinned_period is not None, tuple(gs))
        )
    units.sort(
        key=lambda u: (
            u.period is None,
            u.period or Period(1970, 1),
            u.start or dt.date.min,
            u.tournament.id,
        )
    )
    return units


def _same_round(a: str | None, b: str | None) -> bool:
    """Rounds that may name one game: equal, one missing, or one a board of the other
    ("1" and "1.1", chess-results' round.board)."""
    if not a or not b or a == b:
        return True
    return a.startswith(b + ".") or b.startswith(a + ".")


def stored_twice(units: Iterable[Unit]) -> list[str]:
    """Pairs of a period's games that look like one game stored twice (from two sources that
    name the event or the round differently, so the import's duplicate check, which keys on
    them, kept both): same date, opponent, colour and result, in two tournaments, or in one
    with rounds that may be the same. A note each; the replay still counts both."""
    seen: dict[tuple[dt.date, int, bool, str], tuple[Unit, GameFact]] = {}
    found: list[str] = []
    for u in units:
        if u.tournament.excluded:
            continue
        for g in u.games:
            if g.date is None or not g.rated or g.score is None:
                continue  # a game that does not count cannot count twice
            key = (g.date, g.opponent_id, g.white, g.result)
            other = seen.get(key)
            if other is None:
                seen[key] = (u, g)
                continue
            ou, og = other
            if ou.tournament.id == u.tournament.id and not _same_round(og.round, g.round):
                continue
            where = (
                f"'{ou.label}' (event {ou.tournament.id}) and '{u.label}' (event {u.tournament.id})"
                if ou.tournament.id != u.tournament.id
                else f"'{u.label}' (event {u.tournament.id}), rounds {og.round} and {g.round}"
            )
            found.append(
                f"maybe one game stored twice: {g.date.isoformat()} against {g.opponent} "
                f"({'white' if g.white else 'black'}, {g.result}) in {where}: both count "
                f"(`tracker event set ID --exclude` leaves a tournament out)"
            )
    return found
