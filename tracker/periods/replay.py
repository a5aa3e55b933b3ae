"""The replay itself: list period after list period through tracker.fide (pure). See the
package docstring (tracker.periods) for how it runs. What the replay knows between periods
and the K facts read from that are tracker.periods.state; how one tournament enters its
period (the games counted, its Ro) tracker.periods.plans; the player's Elo tags as evidence
tracker.periods.tags.

`replay` reads as its steps: the tournaments placed on their periods, the start (an official
entry, the player's first Elo tag, or unrated), then `_replay_period` for each list, itself
in steps: the rating the period starts from, the K facts, each tournament's plan, the rating
change (or first rating), the list's one-off adjustment, and the rating it publishes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from tracker.fide import (
    FirstRatingOut,
    PeriodOut,
    PlayerFacts,
    TournamentIn,
    edition_for,
    first_rating,
    one_off_adjustment,
    policies,
    rate_period,
    seeded_facts,
    seeds_from_standard,
)
from tracker.fide.adjust import Adjustment
from tracker.fide.calendar import is_list_month, next_list, replay_from
from tracker.fide.editions import FirstFormula
from tracker.model import NotRated, OfficialEntry, Period, RatingList
from tracker.periods.grouping import Unit, assign_units, stored_twice
from tracker.periods.inputs import ReplayInputs
from tracker.periods.notes import (
    EngineSays,
    FirstNotCompressed,
    FirstRated,
    IncludesEarlier,
    Note,
    PlayoffsClassical,
    ReanchoredOnOfficial,
    ReanchoredOnTag,
    StartsAtOfficial,
    StartsFromStandard,
    TagsAside,
    TagsDisagree,
    TournamentNote,
    WaitsForList,
)
from tracker.periods.plans import (
    StandardOf,
    placed,
    plan_tournament,
    rated_by_the_lists,
    unit_start,
    unplaced_why,
)
from tracker.periods.policies import TAG_IS_EVIDENCE_OF_THE_LIST
from tracker.periods.reasons import NotCounted, NotCountedWhy, StandardTag
from tracker.periods.rows import PeriodRow, Replay, TournamentPlan
from tracker.periods.schedule import classical_playoffs
from tracker.periods.sources import RatingFrom, RatingSource
from tracker.periods.state import ReplayState, k_assumptions, k_at_start, period_facts
from tracker.periods.tags import StartTag, standard_ratings_of, start_tag, tag_evidence


def replay(inputs: ReplayInputs) -> Replay:
    """Replay one list for one player (see the module docstring)."""
    rl = inputs.rating_list
    games, playoffs = classical_playoffs(inputs.games, inputs.tournaments)
    units = assign_units(games, inputs.tournaments, rl)
    if inputs.opponent_lists or inputs.list_kinds:
        units = [rated_by_the_lists(u, inputs.opponent_lists, inputs.list_kinds) for u in units]
    official = {e.period: e for e in inputs.official if e.list == rl}
    anchors = sorted(p for p, e in official.items() if e.rating is not None)
    by_period, unplaced = placed(units, rl)
    standard_of = standard_ratings_of(games, inputs) if rl != RatingList.STANDARD else None
    evidence, standard_tags = tag_evidence(units, rl, standard_of)
    state = ReplayState(
        inputs,
        playoffs=playoffs if rl == RatingList.STANDARD else {},
        standard_of=standard_of,
        standard_tags=standard_tags,
    )
    start = _start(state, official, anchors, by_period, standard_of)
    if start is None:
        none = RatingFrom(RatingSource.NO_GAMES)
        return Replay(rl, (), tuple(units), None, none, (), tuple(unplaced), inputs.list_kinds)
    if not state.games_known:
        # The games stored from before the replay's start (before 2008, or inside the
        # starting official rating) against rated opponents are games completed too: 30 of
        # them make the count a fact, not the policy's assumption.
        early = (
            u for u in units if u.period is None and unplaced_why(u, rl) is NotCountedWhy.TOO_EARLY
        )
        state.completed_before(_counted((*early, *start.before)))

    rows: list[PeriodRow] = []
    if start.source.source is RatingSource.OFFICIAL:
        rows.append(_anchor_row(official[start.period], rl, start.before))
    birth_year = inputs.player.birth_year
    if birth_year is None:
        birth_year = next((e.birth_year for e in inputs.official if e.birth_year), None)
    last = max([*by_period, *official, *([] if inputs.until is None else [inputs.until])])
    period = start.first_list
    while not is_list_month(period, rl):
        period = period.next()
    first_official = anchors[0] if anchors else None
    while period <= last:
        row = _replay_period(
            period,
            by_period.get(period, []),
            official,
            state,
            birth_year,
            evidence.get(period, ()),
            first_official is not None and period < first_official,
        )
        if row is not None:
            rows.append(row)
        period = next_list(period, rl)
    return Replay(
        rl,
        tuple(rows),
        tuple(units),
        start.period,
        start.source,
        start.before,
        tuple(unplaced),
        inputs.list_kinds,
    )


@dataclass(frozen=True)
class _Start:
    """Where the replay starts: the period and what it starts from (`Replay.start` and
    `start_source`), the first list it replays, and the tournaments inside a starting
    official rating (`Replay.before_start`)."""

    period: Period
    source: RatingFrom
    first_list: Period
    before: tuple[Unit, ...] = ()


def _start(
    state: ReplayState,
    official: Mapping[Period, OfficialEntry],
    anchors: Sequence[Period],
    by_period: Mapping[Period, Sequence[Unit]],
    standard_of: StandardOf | None,
) -> _Start | None:
    """The replay's start, told to the state; None without games or official rating."""
    rl = state.inputs.rating_list
    first_games = min(by_period) if by_period else None
    first = StartTag() if first_games is None else start_tag(by_period[first_games], standard_of)
    if anchors and (first_games is None or anchors[0] < first_games or first.tag is None):
        # The earliest official entry comes before every game, or the games before it give
        # no rating to start from (no Elo tag of the player's): the replay starts there, and
        # the tournaments rated on or before it are inside that published rating.
        start = anchors[0]
        before = tuple(u for p in sorted(by_period) if p <= start for u in by_period[p])
        source = RatingFrom(RatingSource.OFFICIAL, start)
        state.start_official(official[start], source, _counted(before))
        if _played_unrated(before):
            # The player had no rating in any game inside it: this entry is taken for their
            # first rating, and its games for the games completed (spec section 3: fewer
            # than 30, K 40; policy: the games behind a first rating count), not the 30
            # assumed of a player found rated.
            state.first_rating_at_start(start, _counted(before))
        return _Start(start, source, next_list(start, rl), before)
    if first_games is None:
        return None
    # Games come first (an official entry, if any, re-anchors later: it never hides what
    # came before it): from the player's own Elo tag in the first tournament.
    if first.tag is not None:
        source = RatingFrom(RatingSource.ELO_TAG, tournaments=first.tournaments, rating=first.tag)
        state.start_at_tag(first.tag, source)
        return _Start(first_games, source, first_games)
    if first.aside is not None:
        # The first tournaments' tags are the standard rating (policy
        # TAG_OF_A_FAST_LIST_IS_THE_STANDARD) and no official entry comes first: the
        # player's rating on this list is unknown, not unrated; the replay waits.
        state.wait_for(first.aside)
        return _Start(first_games, RatingFrom(RatingSource.WAITING), first_games)
    state.count_from_first_rating()
    return _Start(first_games, RatingFrom(RatingSource.UNRATED), first_games)


def _played_unrated(units: Sequence[Unit]) -> bool:
    """Whether the player played every one of these tournaments unrated: rated games against
    rated opponents, and no Elo tag of the player's in any game (their first rating)."""
    games = [g for u in units if not u.tournament.excluded for g in u.games]
    return _counted(units) > 0 and all(g.own_elo is None for g in games)


def _counted(units: Iterable[Unit]) -> int:
    """The games of these tournaments that count (rated, finished, against a rated
    opponent), tournaments excluded by the user left out."""
    return sum(
        1
        for u in units
        if not u.tournament.excluded
        for g in u.games
        if g.rated and g.score is not None and g.opponent_elo is not None
    )


def _tag_for(tags: Sequence[tuple[int, str, int]], replayed: int | None) -> int | None:
    """The list's rating the tags say (policy TAG_IS_EVIDENCE_OF_THE_LIST): the tag carried
    by the most games (the lowest of equals); when the tags disagree and one of them is the
    replayed rating, that one (the replay agrees with an organiser: no re-anchor)."""
    if not tags or not TAG_IS_EVIDENCE_OF_THE_LIST:
        return None
    weights: Counter[int] = Counter()
    for t, _, n in tags:
        weights[t] += n
    if replayed in weights:
        return replayed
    best = max(weights.values())
    return min(t for t, n in weights.items() if n == best)


def _anchor_row(entry: OfficialEntry, rl: RatingList, before: Sequence[Unit] = ()) -> PeriodRow:
    """The row of the official entry the replay starts at."""
    notes: list[Note] = [StartsAtOfficial(entry.period)]
    if before:
        notes.append(IncludesEarlier(tuple(u.label for u in before)))
    return PeriodRow(
        period=entry.period,
        rating_list=rl,
        rating_before=None,
        rating_before_source=RatingFrom(RatingSource.OFFICIAL),
        out=None,
        first=None,
        tournaments=(),
        not_counted=(),
        adjustment=None,
        replayed=None,
        official=entry,
        anchored=True,
        published=entry.rating,
        facts=PlayerFacts(),
        notes=tuple(notes),
        source=RatingSource.OFFICIAL,
    )


def _quiet(state: ReplayState, period: Period) -> bool:
    """Whether the list of `period` applies no one-off adjustment to the current rating."""
    rl = state.inputs.rating_list
    assert state.rating is not None
    standard = state.standard_on_list(period) if rl != RatingList.STANDARD else None
    return one_off_adjustment(rl, period.list_date, state.rating, standard_rating=standard) is None


def _replay_period(
    period: Period,
    units: list[Unit],
    official: Mapping[Period, OfficialEntry],
    state: ReplayState,
    birth_year: int | None,
    tags: Sequence[tuple[int, str, int]] = (),
    before_official: bool = False,
) -> PeriodRow | None:
    """The list of `period`: its row, or None when nothing happened on it (the rating
    carried over, or still unrated without games)."""
    rl = state.inputs.rating_list
    entry = official.get(period)
    if not units and entry is None and _carries_over(state, period, tags):
        # A rated player's list without games or an official entry, and no one-off
        # adjustment on it: the rating carries over (what the full path below gives then,
        # without its cost: most lists of a long career are such lists).
        state.carry_over(period)
        return None
    notes: list[Note] = []
    standard = state.standard_on_list(period) if rl != RatingList.STANDARD else None
    before = _rating_before(period, units, state, notes)
    facts = period_facts(state, period, birth_year, official)
    if before.seeded:
        # The seed counts as a rating published on this list, for good (policy
        # SEED_COUNTS_AS_PUBLISHED_FOR_K): "2400 ever" and "reached 2300" as `publish` sets.
        assert before.rating is not None
        facts = seeded_facts(facts, before.rating)
        state.seeded(facts)
    plans, t_ins, skipped = _tournaments(period, units, official, state, before, birth_year, notes)
    twice = tuple(stored_twice(units))
    notes.extend(twice)
    out: PeriodOut | None = None
    first: FirstRatingOut | None = None
    if before.rating is not None:
        out = _rating_change(period, t_ins, state, before, facts, standard, notes)
        replayed = before.rating if out is None else out.rating_after
    else:
        first = _first_rating(period, units, t_ins, state, notes, skipped)
        replayed = None if first is None else first.rating
    replayed, adjustment = _adjusted(period, rl, replayed, first, standard, notes)
    changed = bool(units) or adjustment is not None or first is not None
    pub = _published(period, entry, tags, state, replayed, first, changed, notes)
    state.close_period(
        period,
        pub.rating,
        pub.next_source,
        entry,
        dropped=pub.rating is None and before.rating is not None,
    )
    if (
        not units
        and entry is None
        and adjustment is None
        and first is None
        and not pub.tag_anchored
    ):
        return None
    return PeriodRow(
        period=period,
        rating_list=rl,
        rating_before=before.rating,
        rating_before_source=before.source,
        out=out,
        first=first,
        tournaments=tuple(plans),
        not_counted=tuple(skipped),
        adjustment=adjustment,
        replayed=replayed,
        official=entry,
        anchored=entry is not None and entry.rating is not None,
        published=pub.rating,
        facts=facts,
        notes=tuple(notes),
        seeded=before.seeded,
        standard_rating=standard,
        twice=twice,
        elo_tag=pub.tag if entry is None or entry.rating is None else None,
        source=pub.source,
        assumptions=k_assumptions(state, period, facts, before.rating, birth_year, out),
        before_official=before_official,
    )


def _carries_over(state: ReplayState, period: Period, tags: Sequence[tuple[int, str, int]]) -> bool:
    """Whether a list without games or official entry leaves a rated player's rating as it
    was: no Elo tag says otherwise, and no one-off adjustment applies."""
    return (
        state.rating is not None
        and (not tags or _tag_for(tags, state.rating) in (None, state.rating))
        and _quiet(state, period)
    )


@dataclass(frozen=True)
class _Before:
    """The rating a period starts from and where it came from (`PeriodRow.rating_before`
    and `rating_before_source`); `seeded`: the standard rating of an unrated player;
    `waiting`: why the replay has no rating of this list to start from yet."""

    rating: int | None
    source: RatingFrom
    seeded: bool = False
    waiting: StandardTag | None = None


def _rating_before(
    period: Period, units: Sequence[Unit], state: ReplayState, notes: list[Note]
) -> _Before:
    """The rating the period starts from: the one published before it; while unrated on
    rapid or blitz, the standard rating where the edition starts from it (`seeds_from_
    standard`); none while the replay waits for a rating of this list."""
    rl = state.inputs.rating_list
    if state.rating is None and state.waiting:
        notes.append(WaitsForList(state.waiting))
        return _Before(None, state.source, waiting=state.waiting)
    if state.rating is None and units and seeds_from_standard(rl, period.list_date):
        # The standard rating of the list in force at the start of the period's first
        # tournament that has one (each tournament then uses the one in force at its start).
        seed = next(
            (s for u in units if (s := state.standard_in_force(unit_start(u))) is not None), None
        )
        if seed is not None:
            notes.append(StartsFromStandard(rl, seed[1], seed[0]))
            return _Before(seed[1], RatingFrom(RatingSource.STANDARD), seeded=True)
    return _Before(state.rating, state.source)


def _tournaments(
    period: Period,
    units: Sequence[Unit],
    official: Mapping[Period, OfficialEntry],
    state: ReplayState,
    before: _Before,
    birth_year: int | None,
    notes: list[Note],
) -> tuple[list[TournamentPlan], list[TournamentIn], list[NotCounted]]:
    """Each tournament's plan and input to the engine, and the games not counted. Where the
    period's edition rates each tournament with the K at its start, a tournament that
    started under an older list gets that list's K."""
    rl = state.inputs.rating_list
    list_date = period.list_date
    plans: list[TournamentPlan] = []
    t_ins: list[TournamentIn] = []
    skipped: list[NotCounted] = []
    by_start = (
        before.rating is not None
        and not before.seeded
        and list_date >= replay_from(rl)
        and edition_for(rl, list_date).k_by_tournament_start
    )
    for u in units:
        plan, t_in, skip = plan_tournament(u, state, official, before.rating, before.seeded)
        if before.waiting:
            why = NotCountedWhy.NO_RATING_YET
            skip = [*skip, *(NotCounted(g, u.label, why, before.waiting) for g in plan.counted)]
            plan, t_in = replace(plan, counted=()), replace(t_in, games=())
        moved = state.playoffs.get(u.tournament.id)
        if moved:
            notes.append(PlayoffsClassical(u.label, u.tournament.id, moved))
        at_start = (
            k_at_start(unit_start(u), period, state, birth_year, official) if by_start else None
        )
        if at_start is not None:
            t_in = replace(t_in, k_start=at_start[0], k_start_reason=at_start[1])
        plans.append(plan)
        t_ins.append(t_in)
        skipped.extend(skip)
        if plan.note:
            notes.append(TournamentNote(u.label, plan.note))
    return plans, t_ins, skipped


def _rating_change(
    period: Period,
    t_ins: Sequence[TournamentIn],
    state: ReplayState,
    before: _Before,
    facts: PlayerFacts,
    standard: int | None,
    notes: list[Note],
) -> PeriodOut | None:
    """A rated player's change over the period's tournaments (None without a game)."""
    if before.rating is None or not any(t.games for t in t_ins):
        return None
    out = rate_period(
        before.rating,
        t_ins,
        rating_list=state.inputs.rating_list,
        list_date=period.list_date,
        facts=facts,
        k=state.inputs.k_given.get(period),
        standard_rating=standard,
        seeded=before.seeded,
    )
    if out.reason:
        notes.append(EngineSays(out.reason))
    state.count_rated(int(out.games))
    return out


def _first_rating(
    period: Period,
    units: Sequence[Unit],
    t_ins: Sequence[TournamentIn],
    state: ReplayState,
    notes: list[Note],
    skipped: Sequence[NotCounted] = (),
) -> FirstRatingOut | None:
    """An unrated player's tournaments pooled toward a first rating (the edition's window of
    months), and the first rating they give, if any (None: the period has no tournament).
    A period whose games were all against unrated opponents still says what is missing."""
    rl = state.inputs.rating_list
    list_date = period.list_date
    months = int(edition_for(rl, list_date).first_window_months)
    state.pool_games(
        ((u, t) for u, t in zip(units, t_ins, strict=True) if t.games),
        period.shift(-months).list_date,
    )
    unrated_opponents = any(
        n.why is NotCountedWhy.NOT_RATED and n.detail == NotRated.UNRATED_OPPONENT for n in skipped
    )
    if not (units and (state.pool or unrated_opponents)):
        return None
    first = first_rating([p[1] for p in state.pool], rating_list=rl, list_date=list_date)
    if first.rating is not None:
        state.first_rated(int(first.games))
        notes.append(FirstRated(first.rating))
    elif first.reason:
        notes.append(EngineSays(first.reason))
    return first


def _adjusted(
    period: Period,
    rl: RatingList,
    replayed: int | None,
    first: FirstRatingOut | None,
    standard: int | None,
    notes: list[Note],
) -> tuple[int | None, Adjustment | None]:
    """The replayed rating after the list's one-off adjustment, and the adjustment (None:
    none applies)."""
    if replayed is None:
        return None, None
    list_date = period.list_date
    adj = one_off_adjustment(rl, list_date, replayed, standard_rating=standard)
    if (
        adj is not None
        and first is not None
        and first.rating is not None
        and not policies.COMPRESS_FIRST_RATING_OF_2024_FORMULA
        and edition_for(rl, list_date).first_formula is FirstFormula.FICTITIOUS_DRAWS
    ):
        # A first rating of the Mar 2024 formula is on the compressed scale already.
        notes.append(FirstNotCompressed(replayed))
        adj = None
    if adj is None:
        return replayed, None
    return adj[0], adj[1]


@dataclass(frozen=True)
class _Published:
    """The rating a list publishes (the next period starts from it) and its source; where
    the state's rating now comes from (None: as before); the Elo tag the list's tournaments
    say; whether the replay re-anchored on that tag."""

    rating: int | None
    source: RatingSource
    next_source: RatingFrom | None
    tag: int | None
    tag_anchored: bool = False


def _published(
    period: Period,
    entry: OfficialEntry | None,
    tags: Sequence[tuple[int, str, int]],
    state: ReplayState,
    replayed: int | None,
    first: FirstRatingOut | None,
    changed: bool,
    notes: list[Note],
) -> _Published:
    """The rating the list publishes: its official rating (a re-anchor when it differs from
    the replayed one), else the Elo tag of the tournaments that started under it (policy
    TAG_IS_EVIDENCE_OF_THE_LIST), else the replayed rating. `changed`: the list had games,
    an adjustment or a first rating computed."""
    rl = state.inputs.rating_list
    anchored = entry is not None and entry.rating is not None
    source = RatingSource.REPLAYED if replayed is not None else RatingSource.UNRATED
    if first is not None and first.rating is not None:
        source = RatingSource.FIRST_RATING
    tag = _tag_for(tags, replayed)
    aside = [(t, name) for t, name in state.standard_tags.get(period, ()) if t != replayed]
    if aside and not anchored:
        notes.append(TagsAside(rl, tuple(aside)))
    if len({t for t, _, _ in tags}) > 1:
        notes.append(TagsDisagree(period, tuple((t, name) for t, name, _ in tags)))
    if anchored:
        assert entry is not None and entry.rating is not None
        if entry.rating != replayed:
            notes.append(ReanchoredOnOfficial(entry.rating))
        official = RatingFrom(RatingSource.OFFICIAL, period)
        return _Published(entry.rating, RatingSource.OFFICIAL, official, tag)
    if tag is not None and TAG_IS_EVIDENCE_OF_THE_LIST:
        # No official entry for this list: the player's own Elo tag in the tournaments that
        # started under it is the list's rating as printed (evidence, policy
        # TAG_IS_EVIDENCE_OF_THE_LIST); the next period starts from it.
        if tag == replayed:
            again = RatingFrom(RatingSource.REPLAYED, period, as_tag=True) if changed else None
            return _Published(tag, source, again, tag)
        where = tuple(sorted({name for t, name, _ in tags if t == tag}))
        notes.append(ReanchoredOnTag(tag, where, replayed))
        on_tag = RatingFrom(RatingSource.ELO_TAG, period, where, tag)
        return _Published(tag, RatingSource.ELO_TAG, on_tag, tag, True)
    again = RatingFrom(RatingSource.REPLAYED, period) if changed else None
    return _Published(replayed, source, again, tag)
