"""Replay a player's rating history, list period after list period (pure: standard library,
tracker.model and tracker.fide only).

The facts come in as plain values (`GameFact`, `TournamentFact`, official entries, the
player's recorded facts); the store gathers them (tracker.store.history). The rules come
from tracker.fide. Nothing here reads a file or a database.

Public API
----------
- `assign_units(games, tournaments, rating_list)` -> list[Unit]: the player's tournaments on
  one list, each assigned to a rating period: the tournament's pinned period, else the first
  list after its last round under the era's calendar (`fide.list_calendar`). A tournament
  pinned to a list takes all its games onto that list. Undated tournaments get no period.
- `replay(inputs: ReplayInputs)` -> Replay: the period rows (`PeriodRow`) of one list, in
  order, plus the games that could not be placed. Each row carries the engine's `PeriodOut`
  (`row.out`, for a rated player) or `FirstRatingOut` (`row.first`, while unrated), the
  tournaments with the Ro each used and where it came from (`TournamentPlan`), the games
  not counted with their reason (`NotCounted`), the one-off adjustment applied (if any), the
  official entry of that period (`row.official`) and whether the replay re-anchored on it
  (`row.anchored`), the K facts used (`row.facts`), and the rating the next period starts
  from (`row.published`).

How the replay runs
-------------------
1. Start: at the earliest official entry with a rating, if any (its period's games are
   inside that published rating: they are listed in `Replay.before_start`); otherwise at the
   first period with games, from the player's own Elo tag in their first tournament when
   there is one, else unrated (first rating computed from pooled games, 26-month window).
2. Each list period P (the era's calendar: quarterly, two-monthly, monthly): K facts from
   what is known before P (recorded facts, official entries before P, replayed ratings);
   official K of the previous list wins over the derived one. Each tournament's Ro: the
   recorded `--ro` override, else the official rating on the list in force at its start,
   else the player's own Elo tag in it, else the replayed rating in force at its start,
   else the rating before P. Opponents' ratings come from their Elo tags.
3. `fide.rate_period` over all tournaments of P (700 rule over all of them), then the
   one-off adjustment of P's list (`fide.one_off_adjustment`), then the floor.
4. Re-anchor: when P has an official entry with a rating, the next period starts from it
   (so one wrong month does not poison the rest); the row keeps both numbers.

Policies of this module (the rules' own UNSETTLED policies live in tracker.fide):
- rated games unknown, replay starting from an official entry whose K is below the
  newcomer K of its edition (K 20/15/10): the player is taken to have completed 30 games
  (`ASSUMED_GAMES_WHEN_ESTABLISHED`);
- periods before 2008 are not replayed (FIDE rated by tournament averages then).
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from tracker.fide import (
    FirstRatingOut,
    GameIn,
    PeriodOut,
    PlayerFacts,
    TournamentIn,
    edition_for,
    first_rating,
    list_calendar,
    one_off_adjustment,
    rate_period,
)
from tracker.fide.editions import EDITIONS, FirstFormula
from tracker.model import OfficialEntry, Period, RatingList

REPLAY_FROM = dt.date(2008, 1, 1)
"""Lists before this date are not replayed (FIDE rated by tournament averages)."""


@functools.lru_cache(maxsize=8)
def replay_from(rating_list: RatingList) -> dt.date:
    """The first date the engine rates on that list (2008 standard, 2012 rapid and blitz)."""
    return min(e.effective_from for e in EDITIONS[RatingList(rating_list)])


def too_early_reason(rating_list: RatingList) -> str:
    if rating_list == RatingList.STANDARD:
        return "before 2008: FIDE rated by tournament averages, not replayed"
    first = replay_from(rating_list)
    return f"before {first.isoformat()}: no {rating_list} ratings yet"

ESTABLISHED_GAMES = 30
ASSUMED_GAMES_WHEN_ESTABLISHED = ESTABLISHED_GAMES


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


_EARLIEST = Period.of(REPLAY_FROM)


def list_in_force(on: dt.date, rating_list: RatingList = RatingList.STANDARD) -> Period | None:
    """The list in force on `on` (the latest list dated on or before it), None before any."""
    p = Period.of(on)
    while p >= _EARLIEST:
        if is_list_month(p, rating_list):
            return p
        p = p.prev()
    return None


def previous_list(period: Period, rating_list: RatingList = RatingList.STANDARD
                  ) -> Period | None:
    """The list before `period`'s (None before the first list)."""
    return list_in_force(period.prev().list_date, rating_list)


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
            period = (default_period(end, rating_list) if end >= replay_from(rating_list)
                      else None)
        else:
            period = None
        units.append(Unit(t, rating_list, start, end, period, t.pinned_period is not None,
                          tuple(gs)))
    units.sort(key=lambda u: (u.period is None, u.period or Period(1970, 1),
                              u.start or dt.date.min, u.tournament.id))
    return units


# --- results out ---------------------------------------------------------------------------


@dataclass(frozen=True)
class NotCounted:
    game: GameFact
    tournament: str
    reason: str


@dataclass(frozen=True)
class TournamentPlan:
    """How one tournament entered its period: the Ro used and where it came from."""

    unit: Unit
    ro: int | None
    ro_source: str  # "--ro override", "official 2025-09 list", "Elo tag", "replayed ..."
    elo_tag: int | None
    official_ro: int | None
    counted: tuple[GameFact, ...]  # the games given to the engine, in its order
    note: str | None = None  # e.g. the Elo tag disagrees with the official list


@dataclass(frozen=True)
class PeriodRow:
    period: Period
    rating_list: RatingList
    rating_before: int | None  # None: unrated before this period
    rating_before_source: str  # "official 2025-09 list", "replayed 2025-10 list", "Elo tag in
    # <tournament>", "standard rating", "unrated"
    out: PeriodOut | None
    first: FirstRatingOut | None
    tournaments: tuple[TournamentPlan, ...]
    not_counted: tuple[NotCounted, ...]
    adjustment: str | None
    replayed: int | None  # the replayed rating on this list (after adjustment); None unrated
    official: OfficialEntry | None
    anchored: bool
    published: int | None  # what the next period starts from
    facts: PlayerFacts
    notes: tuple[str, ...] = ()

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
    start_source: str  # "official 2025-09", "Elo tag", "unrated", "no games"
    before_start: tuple[Unit, ...]  # tournaments inside the starting official rating
    unplaced: tuple[NotCounted, ...]  # games with no period (undated, before 2008)

    def row(self, period: Period) -> PeriodRow | None:
        for r in self.rows:
            if r.period == period:
                return r
        return None

    @property
    def last(self) -> PeriodRow | None:
        return self.rows[-1] if self.rows else None


# --- the replay ----------------------------------------------------------------------------


def _most_common(values: Iterable[int | None]) -> int | None:
    counted = Counter(v for v in values if v is not None)
    if not counted:
        return None
    best = max(counted.values())
    return min(v for v, n in counted.items() if n == best)


def _game_inputs(unit: Unit) -> tuple[list[GameIn], list[GameFact], list[NotCounted]]:
    ins: list[GameIn] = []
    used: list[GameFact] = []
    skipped: list[NotCounted] = []
    for g in unit.games:
        reason: str | None = None
        if unit.tournament.excluded:
            reason = "excluded (tracker event set --exclude)"
        elif not g.rated:
            reason = g.not_rated_reason or "not rated"
        elif g.score is None:
            reason = "unfinished"
        if reason is not None:
            skipped.append(NotCounted(g, unit.label, reason))
            continue
        assert g.score is not None
        ins.append(GameIn(opponent_rating=g.opponent_elo, score=g.score, label=g.opponent))
        used.append(g)
    return ins, used, skipped


def _newcomer_k(rating_list: RatingList, period: Period) -> int:
    """K of a new player on that list date (only used to read an official K as the K of an
    established player when the games completed are unknown)."""
    return int(edition_for(rating_list, period.list_date).k_new)


class _State:
    """What the replay knows between periods."""

    def __init__(self, inputs: ReplayInputs) -> None:
        self.inputs = inputs
        self.rating: int | None = None
        self.source = "unrated"
        self.published: dict[Period, int] = {}  # list -> rating on it (official or replayed)
        self.rated_games = inputs.player.rated_games or 0
        self.ever_2400 = bool(inputs.player.ever_2400)
        self.reached_2300 = False
        self.pool: list[tuple[Unit, TournamentIn, list[GameFact]]] = []
        self._order: list[Period] = []

    def publish(self, period: Period, rating: int | None) -> None:
        if rating is None:
            return
        if period not in self.published:
            self._order.append(period)  # periods arrive in increasing order
        self.published[period] = rating
        if rating >= 2400:
            self.ever_2400 = True
        if rating >= 2300:
            self.reached_2300 = True

    def in_force(self, on: dt.date) -> tuple[Period, int] | None:
        """The latest list on or before `on` that the replay knows a rating for."""
        i = bisect.bisect_right(self._order, Period.of(on))
        if i == 0:
            return None
        p = self._order[i - 1]
        return p, self.published[p]


def replay(inputs: ReplayInputs) -> Replay:
    """Replay one list for one player (see the module docstring)."""
    rl = inputs.rating_list
    units = assign_units(inputs.games, inputs.tournaments, rl)
    official = {e.period: e for e in inputs.official if e.list == rl}
    anchors = sorted(p for p, e in official.items() if e.rating is not None)
    birth_year = inputs.player.birth_year
    if birth_year is None:
        birth_year = next((e.birth_year for e in inputs.official if e.birth_year), None)

    unplaced: list[NotCounted] = []
    by_period: dict[Period, list[Unit]] = defaultdict(list)
    for u in units:
        if u.period is None:
            why = (too_early_reason(rl) if u.end is not None else
                   "no date: pin it with `tracker event set ID --period YYYY-MM`")
            unplaced.extend(NotCounted(g, u.label, why) for g in u.games)
        else:
            by_period[u.period].append(u)

    state = _State(inputs)
    if anchors:
        start = anchors[0]
        entry = official[start]
        state.rating = entry.rating
        state.source = f"official {start} list"
        state.publish(start, entry.rating)
        start_source = f"official {start}"
        if inputs.player.rated_games is None and entry.k is not None and (
            entry.k < _newcomer_k(rl, start)
        ):
            state.rated_games = ASSUMED_GAMES_WHEN_ESTABLISHED
        before = tuple(u for p in sorted(by_period) if p <= start for u in by_period[p])
        if inputs.player.rated_games is not None:
            # The recorded count is "before the first game in the database": the games
            # inside the starting official rating are completed too.
            state.rated_games += sum(
                1 for u in before if not u.tournament.excluded for g in u.games
                if g.rated and g.score is not None and g.opponent_elo is not None)
        first_period = next_list(start, rl)
    elif by_period:
        first_period = min(by_period)
        start = first_period
        before = ()
        first_units = by_period[first_period]
        tag = _most_common(g.own_elo for u in first_units for g in u.games)
        if tag is not None:
            state.rating = tag
            state.source = f"Elo tag in {first_units[0].label}"
            start_source = f"Elo tag {tag}"
        else:
            start_source = "unrated"
    else:
        return Replay(rl, (), tuple(units), None, "no games", (), tuple(unplaced))

    last_candidates = [p for p in by_period] + list(official)
    if inputs.until is not None:
        last_candidates.append(inputs.until)
    last = max(last_candidates)

    rows: list[PeriodRow] = []
    if anchors:
        rows.append(_anchor_row(official[start], rl, state))
    period = first_period
    while not is_list_month(period, rl):
        period = period.next()
    while period <= last:
        row = _replay_period(period, by_period.get(period, []), official, state, birth_year)
        if row is not None:
            rows.append(row)
        period = next_list(period, rl)
    return Replay(rl, tuple(rows), tuple(units), start, start_source, before, tuple(unplaced))


def _facts(state: _State, period: Period, birth_year: int | None,
           official: Mapping[Period, OfficialEntry]) -> PlayerFacts:
    before = previous_list(period, state.inputs.rating_list)
    prev = official.get(before) if before is not None else None
    return PlayerFacts(
        birth_year=birth_year,
        rated_games=state.rated_games,
        ever_2400=state.ever_2400,
        reached_2300=state.reached_2300,
        official_k=prev.k if prev is not None else None,
    )


def _anchor_row(entry: OfficialEntry, rl: RatingList, state: _State) -> PeriodRow:
    return PeriodRow(
        period=entry.period, rating_list=rl, rating_before=None, rating_before_source="official",
        out=None, first=None, tournaments=(), not_counted=(), adjustment=None,
        replayed=None, official=entry, anchored=True, published=entry.rating,
        facts=PlayerFacts(), notes=(f"start: official rating on the {entry.period} list",),
    )


def _plan(unit: Unit, state: _State, official: Mapping[Period, OfficialEntry],
          rating_before: int | None) -> tuple[TournamentPlan, TournamentIn, list[NotCounted]]:
    ins, used, skipped = _game_inputs(unit)
    start = unit.start or (unit.period.prev().list_date if unit.period else REPLAY_FROM)
    engine_start = max(start, replay_from(unit.rating_list))
    force = list_in_force(start, unit.rating_list)
    entry = official.get(force) if force is not None else None
    official_ro = entry.rating if entry is not None else None
    elo_tag = _most_common(g.own_elo for g in unit.games)
    note = None
    ro: int | None
    if unit.tournament.ro is not None:
        ro, source = unit.tournament.ro, "--ro override"
    elif official_ro is not None:
        ro, source = official_ro, f"official {force} list"
    elif elo_tag is not None and rating_before is not None:
        ro, source = elo_tag, "Elo tag"
    else:
        known = state.in_force(start) if rating_before is not None else None
        if known is not None:
            ro, source = known[1], f"replayed {known[0]} list"
        else:
            ro, source = rating_before, "rating before the period"
    if elo_tag is not None and official_ro is not None and elo_tag != official_ro:
        note = (f"Elo tag {elo_tag} differs from the official {force} rating {official_ro}")
    t_in = TournamentIn(start=engine_start, own_rating=ro if rating_before is not None else None,
                        games=tuple(ins), label=unit.label)
    plan = TournamentPlan(unit, ro if rating_before is not None else None,
                          source if rating_before is not None else "unrated",
                          elo_tag, official_ro, tuple(used), note)
    return plan, t_in, skipped


def _seeds_from_standard(rl: RatingList, list_date: dt.date) -> bool:
    """From Mar 2024 (the fictitious-draws edition), a player unrated in rapid or blitz but
    rated in standard starts from the standard rating (spec section 4)."""
    return edition_for(rl, list_date).first_formula is FirstFormula.FICTITIOUS_DRAWS


def _standard_in_force(inputs: ReplayInputs, period: Period) -> int | None:
    best: tuple[Period, int] | None = None
    for p, r in inputs.standard_ratings.items():
        if p <= period and (best is None or p > best[0]):
            best = (p, r)
    return None if best is None else best[1]


def _replay_period(period: Period, units: list[Unit], official: Mapping[Period, OfficialEntry],
                   state: _State, birth_year: int | None) -> PeriodRow | None:
    inputs = state.inputs
    rl = inputs.rating_list
    list_date = period.list_date
    entry = official.get(period)
    notes: list[str] = []
    rating_before, source = state.rating, state.source
    standard = _standard_in_force(inputs, period) if rl != RatingList.STANDARD else None
    if (rating_before is None and rl != RatingList.STANDARD and standard is not None
            and _seeds_from_standard(rl, list_date) and units):
        rating_before, source = standard, "standard rating"
        notes.append(f"unrated in {rl}: starts from the standard rating {standard}")
    facts = _facts(state, period, birth_year, official)

    plans: list[TournamentPlan] = []
    t_ins: list[TournamentIn] = []
    skipped: list[NotCounted] = []
    for u in units:
        plan, t_in, skip = _plan(u, state, official, rating_before)
        plans.append(plan)
        t_ins.append(t_in)
        skipped.extend(skip)
        if plan.note:
            notes.append(f"{u.label}: {plan.note}")

    out: PeriodOut | None = None
    first: FirstRatingOut | None = None
    replayed: int | None = rating_before
    if rating_before is not None:
        if any(t.games for t in t_ins):
            out = rate_period(rating_before, t_ins, rating_list=rl, list_date=list_date,
                              facts=facts, standard_rating=standard)
            replayed = out.rating_after
            if out.reason:
                notes.append(out.reason)
            state.rated_games += int(out.games)
    else:
        state.pool.extend((u, t, []) for u, t in zip(units, t_ins, strict=True) if t.games)
        months = int(edition_for(rl, list_date).first_window_months)
        cutoff = period.shift(-months).list_date
        state.pool = [p for p in state.pool if p[1].start >= cutoff]
        if state.pool and units:
            first = first_rating([p[1] for p in state.pool], rating_list=rl, list_date=list_date)
            replayed = first.rating
            if first.rating is not None:
                state.rated_games += int(first.games)
                state.pool = []
                notes.append(f"first rating {first.rating}")
            elif first.reason:
                notes.append(first.reason)

    adjustment: str | None = None
    if replayed is not None:
        adj = one_off_adjustment(rl, list_date, replayed, standard_rating=standard)
        if adj is not None:
            replayed, adjustment = adj[0], adj[1]

    anchored = entry is not None and entry.rating is not None
    if anchored:
        assert entry is not None
        published: int | None = entry.rating
        state.source = f"official {period} list"
        if entry.rating != replayed:
            notes.append(f"re-anchored on the official rating {entry.rating}")
    else:
        published = replayed
        if units or adjustment is not None or first is not None:
            state.source = f"replayed {period} list"
    if published is None and rating_before is not None:
        state.pool = []
    state.rating = published
    state.publish(period, published)
    if published is None:
        state.source = "unrated"

    if not units and entry is None and adjustment is None and first is None:
        return None
    return PeriodRow(
        period=period, rating_list=rl, rating_before=rating_before,
        rating_before_source=source, out=out, first=first, tournaments=tuple(plans),
        not_counted=tuple(skipped), adjustment=adjustment, replayed=replayed,
        official=entry, anchored=anchored, published=published, facts=facts,
        notes=tuple(notes),
    )


def with_list(fact: GameFact, rating_list: RatingList) -> GameFact:
    """A copy of `fact` on another list (tests and what-if tools)."""
    return replace(fact, rating_list=rating_list)
