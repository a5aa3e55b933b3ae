"""One tournament as FIDE's tournament report shows it (`tracker event show`): every player of
the event rated as the replay rates that player, with that tournament's part of the period.

No second rating engine: each player's facts go through the replay of `tracker explain`
(tracker.app.histories.list_inputs, tracker.periods.replay), read for all the players
at once (tracker.store.reading.facts_of_players, one lookup of the opponents on the imported
lists); the tournament's unit, its period row and its plan give Ro (and where it came from),
K, the games counted, the points, the expected score, K x (W - We) and the performance, so
that `event show` and each player's `explain` agree to the cent. An unrated player gets the
progress toward a first rating on the tournament's list as that period's list stands.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from tracker.app.histories import list_inputs, opponent_lists
from tracker.errors import BadInput, NotFound, Unavailable
from tracker.fide import EngineReason, KSaid, edition_for
from tracker.fide.first import Ignored
from tracker.fide.performance import performance_rating
from tracker.fide.rounding import round_change
from tracker.model import (
    NotRated,
    OfficialEntry,
    Period,
    PlayerRef,
    RatingList,
    TournamentSummary,
)
from tracker.periods import (
    Assumption,
    GameFact,
    NotCounted,
    PeriodRow,
    RatingSource,
    Replay,
    TournamentFact,
    TournamentPlan,
    Unit,
    replay,
)
from tracker.periods.reasons import NotCountedDetail, NotCountedWhy
from tracker.store import Store
from tracker.store.events import list_counts, players_of, tournament_summaries
from tracker.store.players import me as stored_me
from tracker.store.reading import facts_of_players, get_tournament, official_of_players

__all__ = [
    "CANDIDATES_SHOWN",
    "EventPlayer",
    "EventResult",
    "EventShow",
    "EventStatus",
    "FirstProgress",
    "GameNotCounted",
    "TournamentSummary",
    "find_tournament",
    "show_event",
    "tournaments_without_a_player",
]

CANDIDATES_SHOWN = 8
"""The most tournaments an error message lists when a name or an id does not say which."""


class EventStatus(StrEnum):
    """What the replay made of a player's games in the tournament."""

    RATED = "rated"  # a rated player: the change is computed
    FIRST_RATING = "first-rating"  # unrated: the games go toward a first rating
    NOT_COUNTED = "not-counted"  # no game of the tournament counted for the player
    INSIDE_OFFICIAL = "inside-official"  # rated on or before the list the replay starts from
    NO_PERIOD = "no-period"  # no rating period (no date, before 2008, beyond the last list)
    OTHER_LIST = "other-list"  # the player has no game of it on the list shown

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class GameNotCounted:
    """A game of the tournament that did not count for the player, and why (the replay's or
    the engine's reason, as `tracker explain` gives it)."""

    opponent: str
    round: str | None
    date: dt.date | None
    score: Fraction | None  # the player's (None: unfinished)
    why: NotCountedWhy
    detail: NotCountedDetail = None


@dataclass(frozen=True)
class EventResult:
    """One game of the tournament seen from the player's side (the crosstable's cell)."""

    opponent_id: int
    round: str | None
    date: dt.date | None
    white: bool
    score: Fraction | None  # None: unfinished
    counted: bool


@dataclass(frozen=True)
class FirstProgress:
    """An unrated player's way to a first rating on the list of the tournament's period:
    the games against rated opponents pooled so far (the edition's window), what the edition
    in force asks, and the rating when that list gives one."""

    rating: int | None  # the first rating the period's list gives (None: not yet)
    games: int  # games against rated opponents that count so far
    points: Fraction
    needed: int  # the games the edition asks for
    window_months: int
    edition: dt.date  # the edition in force on the list (its effective date)
    reason: EngineReason | None  # the engine's: FIRST_TOO_FEW_GAMES, 3 games, 5 needed
    used: tuple[str, ...]  # the tournaments pooled
    ignored: tuple[tuple[str, Ignored | None], ...]  # tournaments left out, with why
    left_out: bool = False  # this tournament is one of `ignored`
    left_out_why: Ignored | None = None  # the engine's reason for it

    @property
    def missing(self) -> int:
        """The games against rated opponents still missing (0 when enough were played)."""
        return max(0, self.needed - self.games)


@dataclass(frozen=True)
class EventPlayer:
    """One player of the tournament as the replay rates them (meaning as types: the
    reports word it)."""

    player: PlayerRef
    status: EventStatus
    played: int  # the player's games of the tournament on the list shown
    score: Fraction  # points in its finished games (the standing)
    results: tuple[EventResult, ...]
    period: Period | None  # the rating period the tournament is in for the player
    ro: int | None
    ro_source: RatingSource | None
    ro_list: Period | None  # the list `ro_source` names (official, replayed, standard)
    k: int | None
    k_reason: KSaid | None
    games: int  # counted
    points: Fraction  # in the counted games
    expected: Decimal | None
    change_exact: Decimal | None  # K x (W - We) over this tournament's counted games
    change: int | None  # the same rounded on its own (.5 away from zero)
    performance: int | None
    not_counted: tuple[GameNotCounted, ...]
    first: FirstProgress | None = None
    period_change: int | None = None  # the whole period's rounded change (other events too)
    rating_after: int | None = None  # the period's rating (replayed, before the official)
    other_events: int = 0  # the player's other tournaments rated in the same period
    assumptions: tuple[Assumption, ...] = ()  # facts K rested on that nobody recorded
    list_assumed: bool = False  # its games had no time control: the list was assumed


@dataclass(frozen=True)
class EventShow:
    """A tournament on one list, every player of it."""

    tournament: TournamentFact
    rating_list: RatingList
    lists: dict[RatingList, int]  # the tournament's games by list (after a pin)
    players: tuple[EventPlayer, ...]  # by player id; the reports sort them

    @property
    def period(self) -> Period | None:
        """The period most of the players have the tournament in."""
        found: dict[Period, int] = {}
        for p in self.players:
            if p.period is not None:
                found[p.period] = found.get(p.period, 0) + 1
        return max(found, key=lambda k: (found[k], k)) if found else None

    @property
    def other_lists(self) -> dict[RatingList, int]:
        """The tournament's games on other lists than the one shown."""
        return {rl: n for rl, n in self.lists.items() if rl != self.rating_list and n}


# --- which tournament --------------------------------------------------------------------


def _when(t: TournamentSummary) -> str:
    """Its start as a candidate says it: the day, else the year (and month) its date tags
    give (2011, 2011-05), else "no date"."""
    if t.start is not None:
        return t.start.isoformat()
    if t.tag_year is None:
        return "no date"
    return f"{t.tag_year}" if t.tag_month is None else f"{t.tag_year}-{t.tag_month:02d}"


def _listed(found: Sequence[TournamentSummary]) -> str:
    shown = [
        f"{t.id} {t.name} ({t.site}, {_when(t)}, {t.games:,} game{'' if t.games == 1 else 's'})"
        for t in found[:CANDIDATES_SHOWN]
    ]
    more = len(found) - len(shown)
    return "; ".join(shown) + (f"; and {more:,} more" if more > 0 else "")


def find_tournament(store: Store, key: str) -> TournamentFact:
    """The tournament `key` names: its id, or its name (the event) when one tournament has
    it, else the one tournament whose name contains it. An unknown id, an unknown or an
    ambiguous name raise with the candidates."""
    text = key.strip()
    if not text:
        raise BadInput("give the tournament's id (from `tracker event list`) or its name")
    every = tournament_summaries(store)
    if not every:
        raise Unavailable("the database has no tournament yet: import games with `tracker import`")
    if text.isdigit():
        number = int(text)
        if any(t.id == number for t in every):
            return get_tournament(store, number)
        named = [t for t in every if text in t.name]
        where = f"the ids run {every[0].id} to {every[-1].id}"
        if named:
            raise NotFound(
                f"no tournament with id {number} ({where}); named with {text!r}: {_listed(named)}"
            )
        latest = sorted(every, key=lambda t: (t.start or dt.date.min, t.id), reverse=True)
        raise NotFound(
            f"no tournament with id {number} ({where}; `tracker event list` gives a player's); "
            f"the latest: {_listed(latest)}"
        )
    folded = text.casefold()
    exact = [t for t in every if t.name.casefold() == folded]
    found = exact or [t for t in every if folded in t.name.casefold()]
    if len(found) == 1:
        return get_tournament(store, found[0].id)
    if found:
        raise BadInput(f"{len(found):,} tournaments match {text!r}: {_listed(found)}; give the id")
    names = {t.name.casefold(): t for t in every}
    near = [names[n] for n in difflib.get_close_matches(folded, list(names), CANDIDATES_SHOWN)]
    if near:
        raise NotFound(f"no tournament matches {text!r}; the nearest: {_listed(near)}")
    raise NotFound(
        f"no tournament matches {text!r}: give its id from `tracker event list` or part of its name"
    )


# --- the players -------------------------------------------------------------------------


def _choose_list(
    counts: dict[RatingList, int], asked: RatingList | None, tournament: TournamentFact
) -> RatingList:
    if asked is not None:
        return asked
    if tournament.pinned_list is not None:
        return tournament.pinned_list
    if not counts:
        return RatingList.STANDARD
    order = list(RatingList)
    return max(counts, key=lambda rl: (counts[rl], -order.index(rl)))


def _not_counted(n: NotCounted) -> GameNotCounted:
    g = n.game
    return GameNotCounted(g.opponent, g.round, g.date, g.score, n.why, n.detail)


def _results(games: Sequence[GameFact], counted: set[int]) -> tuple[EventResult, ...]:
    return tuple(
        EventResult(g.opponent_id, g.round, g.date, g.white, g.score, g.id in counted)
        for g in games
    )


def _score(games: Sequence[GameFact]) -> Fraction:
    return sum((g.score for g in games if g.score is not None), Fraction(0))


def _find(rp: Replay, tournament_id: int) -> tuple[Unit | None, PeriodRow | None, int]:
    """The tournament's unit in the replay, the row rating it (None: none), and the index of
    its plan in the row."""
    unit = next((u for u in rp.units if u.tournament.id == tournament_id), None)
    if unit is None or unit.period is None:
        return unit, None, -1
    row = rp.row(unit.period)
    if row is None:
        return unit, None, -1
    for i, plan in enumerate(row.tournaments):
        if plan.unit.tournament.id == tournament_id:
            return unit, row, i
    return unit, None, -1


def _first_progress(row: PeriodRow, label: str) -> FirstProgress | None:
    f = row.first
    if f is None:
        return None
    ed = edition_for(row.rating_list, row.period.list_date)
    reasons: tuple[Ignored | None, ...] = f.ignored_reasons
    if len(reasons) != len(f.ignored):
        reasons = (None,) * len(f.ignored)
    ignored = tuple(zip(f.ignored, reasons, strict=True))
    mine = [why for name, why in ignored if name == label]
    return FirstProgress(
        rating=f.rating,
        games=f.games,
        points=Fraction(f.points),
        needed=ed.first_min_games,
        window_months=int(ed.first_window_months),
        edition=ed.effective_from,
        reason=f.reason,
        used=f.used_tournaments,
        ignored=ignored,
        left_out=bool(mine),
        left_out_why=mine[0] if mine else None,
    )


def _blank(player: PlayerRef) -> EventPlayer:
    """The player with no game of the tournament on the list shown."""
    return EventPlayer(
        player=player,
        status=EventStatus.OTHER_LIST,
        played=0,
        score=Fraction(0),
        results=(),
        period=None,
        ro=None,
        ro_source=None,
        ro_list=None,
        k=None,
        k_reason=None,
        games=0,
        points=Fraction(0),
        expected=None,
        change_exact=None,
        change=None,
        performance=None,
        not_counted=(),
    )


def _player_row(player: PlayerRef, rp: Replay, tournament_id: int) -> EventPlayer:
    unit, row, index = _find(rp, tournament_id)
    if unit is None:
        return _blank(player)
    games = unit.games
    base = replace(
        _blank(player),
        played=len(games),
        score=_score(games),
        period=unit.period,
        list_assumed=any(g.list_assumed for g in games),
        results=_results(games, set()),
    )
    if row is None:
        inside = any(u.tournament.id == tournament_id for u in rp.before_start)
        reasons = [n for n in rp.unplaced if n.game.tournament_id == tournament_id]
        if not reasons:
            why = NotCountedWhy.INSIDE_OFFICIAL if inside else NotCountedWhy.NO_PERIOD
            reasons = [NotCounted(g, unit.label, why) for g in games]
        return replace(
            base,
            status=EventStatus.INSIDE_OFFICIAL if inside else EventStatus.NO_PERIOD,
            not_counted=tuple(_not_counted(n) for n in reasons),
        )
    return _rated(base, unit, row, row.tournaments[index], index)


def _rated(
    base: EventPlayer, unit: Unit, row: PeriodRow, plan: TournamentPlan, index: int
) -> EventPlayer:
    """The player's figures of the tournament from the period row that rates it."""
    tid = unit.tournament.id
    skipped = [_not_counted(n) for n in row.not_counted if n.game.tournament_id == tid]
    tout = None
    if row.out is not None and index < len(row.out.tournaments):
        tout = row.out.tournaments[index]
    counted_ids: set[int] = set()
    opponents: list[int] = []
    points = Fraction(0)
    expected: Decimal | None = None
    change_exact: Decimal | None = None
    k: int | None = None
    k_reason: KSaid | None = None
    if tout is not None:
        assert row.out is not None
        for g, fact in zip(tout.games, plan.counted, strict=False):
            if g.counted:
                counted_ids.add(fact.id)
                if g.opponent_rating is not None:
                    opponents.append(g.opponent_rating)
            else:
                engine = NotCountedWhy.BY_THE_ENGINE
                skipped.append(
                    GameNotCounted(
                        fact.opponent, fact.round, fact.date, fact.score, engine, g.reason
                    )
                )
        points = Fraction(tout.points)
        expected = tout.expected
        change_exact = tout.k_change
        k = tout.k
        k_reason = tout.k_reason or row.out.k_reason
        status = EventStatus.RATED if plan.counted else EventStatus.NOT_COUNTED
    elif row.first is not None or (row.rating_before is None and plan.counted):
        for fact in plan.counted:
            if fact.opponent_elo is not None:
                counted_ids.add(fact.id)
                opponents.append(fact.opponent_elo)
                points += fact.score or 0
            else:
                skipped.append(
                    GameNotCounted(
                        fact.opponent,
                        fact.round,
                        fact.date,
                        fact.score,
                        NotCountedWhy.BY_THE_ENGINE,
                        NotRated.UNRATED_OPPONENT.value,
                    )
                )
        status = EventStatus.FIRST_RATING if plan.counted else EventStatus.NOT_COUNTED
    else:
        status = EventStatus.NOT_COUNTED
    if not counted_ids and status is EventStatus.RATED:
        status = EventStatus.NOT_COUNTED
    rated_games = len(opponents)
    out = row.out
    return replace(
        base,
        status=status,
        results=_results(unit.games, counted_ids),
        ro=plan.ro,
        ro_source=plan.ro_source,
        ro_list=plan.ro_list,
        k=k,
        k_reason=k_reason,
        games=rated_games,
        points=points,
        expected=expected,
        change_exact=change_exact,
        change=None if change_exact is None else round_change(change_exact),
        performance=performance_rating(opponents, points) if rated_games else None,
        not_counted=tuple(skipped),
        first=_first_progress(row, unit.label) if row.rating_before is None else None,
        period_change=None if out is None else int(out.change),
        rating_after=row.replayed,
        other_events=sum(1 for p in row.tournaments if p is not plan and p.counted),
        assumptions=row.assumptions,
    )


def show_event(store: Store, key: str, rating_list: RatingList | None = None) -> EventShow:
    """Every player of the tournament `key` names (`find_tournament`) on `rating_list`
    (default: the tournament's pinned list, else the list most of its games are on), each
    rated by their own replay."""
    tournament = find_tournament(store, key)
    counts = list_counts(store, tournament.id)
    if tournament.pinned_list is not None:
        counts = {tournament.pinned_list: sum(counts.values())}
    rl = _choose_list(counts, rating_list, tournament)
    ids = players_of(store, tournament.id)
    official: dict[int, list[OfficialEntry]] = {pid: [] for pid in ids}
    official.update(official_of_players(store, ids))
    facts = facts_of_players(store, official)
    lists = opponent_lists(store, (g for f in facts.values() for g in f.games), (rl,))
    rows: list[EventPlayer] = []
    for pid in ids:
        f = facts[pid]
        inputs, std = list_inputs(f.player, f.games, f.tournaments, f.official, (rl,), lists)
        rp = std if rl == RatingList.STANDARD and std is not None else replay(inputs[rl])
        rows.append(_player_row(f.player, rp, tournament.id))
    return EventShow(tournament, rl, counts, tuple(rows))


def tournaments_without_a_player(store: Store) -> list[TournamentSummary] | None:
    """Every tournament of the database, when no player is tracked (an arbiter's or a
    club's database of other people's games: `event list` with no player); None when a
    player is tracked (their tournaments are the list)."""
    if stored_me(store) is not None:
        return None
    return tournament_summaries(store)
