"""The replay itself: list period after list period through tracker.fide (pure). See the
package docstring (tracker.periods) for how it runs; what it knows between periods and the K
facts read from that are tracker.periods.state."""

from __future__ import annotations

import bisect
import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from tracker.fide import (
    FirstRatingOut,
    GameIn,
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
from tracker.fide.editions import FIRST_DATE, FirstFormula
from tracker.fide.eventnames import NAME_REASONS, VARIANT
from tracker.model import ListStatus, NotRated, OfficialEntry, Period, RatingList
from tracker.periods.facts import (
    ASSUMED_GAMES_WHEN_ESTABLISHED,
    EVIDENCE_OF_NEVER_RATED,
    TAG_IS_EVIDENCE_OF_THE_LIST,
    TAG_OF_A_FAST_LIST_IS_THE_STANDARD,
    TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE,
    GameFact,
    ReplayInputs,
    Unit,
    assign_units,
    is_list_month,
    list_in_force,
    next_list,
    replay_from,
    stored_twice,
    too_early_reason,
    too_late_reason,
)
from tracker.periods.rows import (
    NotCounted,
    PeriodRow,
    Replay,
    Source,
    TournamentPlan,
)
from tracker.periods.schedule import classical_playoffs, not_standard
from tracker.periods.state import ReplayState, k_assumptions, k_at_start, period_facts


def _most_common(values: Iterable[int | None]) -> int | None:
    counted = Counter(v for v in values if v is not None)
    if not counted:
        return None
    best = max(counted.values())
    return min(v for v, n in counted.items() if n == best)


def _game_inputs(
    unit: Unit, unrated: bool = False
) -> tuple[list[GameIn], list[GameFact], list[NotCounted]]:
    """The unit's games given to the engine (and their facts, in the same order) and those
    the replay leaves out, with the reason. While the player is `unrated`, a game against an
    opponent without a rating is left out too: only games against rated opponents count
    toward a first rating (spec section 4), so neither its game nor its points are pooled.
    (A rated player's such games go to the engine, which says per game that they did not
    count: `GameOut.reason`.)"""
    ins: list[GameIn] = []
    used: list[GameFact] = []
    skipped: list[NotCounted] = []
    by_schedule = not_standard(unit)
    for g in unit.games:
        reason: str | None = None
        if unit.tournament.excluded:
            reason = "excluded (tracker event set --exclude)"
        elif not g.rated and not (
            unit.tournament.pinned_list is not None and g.not_rated_reason in OVERRIDABLE_REASONS
        ):
            # a game not rated anyway keeps its own reason (an online event's: no advice to
            # put it on another list, where it would not count either)
            reason = g.not_rated_reason or "not rated"
        elif g.score is None:
            reason = NotRated.UNFINISHED.value
        else:
            reason = by_schedule.get(g.id)
        if reason is None and unrated and g.opponent_elo is None:
            reason = NotRated.UNRATED_OPPONENT.value
        if reason is not None:
            skipped.append(NotCounted(g, unit.label, reason))
            continue
        assert g.score is not None
        ins.append(GameIn(opponent_rating=g.opponent_elo, score=g.score, label=g.opponent))
        used.append(g)
    return ins, used, skipped


def _rated_by_the_lists(unit: Unit, lists: Mapping[int, Mapping[Period, ListStatus]]) -> Unit:
    """The unit with each opponent rated as FIDE's list in force at the tournament's start
    says (spec section 1: the ratings of the list in force), where an imported list looked
    that opponent up: its rating, or None (unrated for FIDE) whatever the Elo tag says. A
    game whose two tags said "unrated" counts when the list gives the opponent a rating.
    Opponents no imported list looked up keep their tag."""
    force = list_in_force(_unit_start(unit), unit.rating_list) if unit.period else None
    if force is None:
        return unit
    games: list[GameFact] = []
    changed = False
    for g in unit.games:
        status = lists.get(g.opponent_id, {}).get(force)
        if status is None:
            games.append(g)
            continue
        changed = True
        rated, reason = g.rated, g.not_rated_reason
        if reason == NotRated.UNRATED_OPPONENT and status.rating is not None:
            rated, reason = True, None
        games.append(
            replace(
                g,
                opponent_elo=status.rating,
                rated=rated,
                not_rated_reason=reason,
                opponent_rating_source=f"{unit.rating_list} {force} list ({status.source})",
            )
        )
    return replace(unit, games=tuple(games)) if changed else unit


OVERRIDABLE_REASONS = NAME_REASONS - {VARIANT}
"""The not-rated reasons read from event and round names (a tie-break, an armageddon...):
a tournament the user put on a list (`tracker event set ID --list LIST`) counts there all
the same; the user has FIDE's page. A variant is never rated."""


def replay(inputs: ReplayInputs) -> Replay:
    """Replay one list for one player (see the module docstring)."""
    rl = inputs.rating_list
    games, playoffs = classical_playoffs(inputs.games, inputs.tournaments)
    units = assign_units(games, inputs.tournaments, rl)
    if inputs.opponent_lists:
        units = [_rated_by_the_lists(u, inputs.opponent_lists) for u in units]
    official = {e.period: e for e in inputs.official if e.list == rl}
    anchors = sorted(p for p, e in official.items() if e.rating is not None)
    birth_year = inputs.player.birth_year
    if birth_year is None:
        birth_year = next((e.birth_year for e in inputs.official if e.birth_year), None)

    unplaced: list[NotCounted] = []
    by_period: dict[Period, list[Unit]] = defaultdict(list)
    for u in units:
        if u.period is None:
            why = (
                f"no date: pin it with `tracker event set {u.tournament.id} --period YYYY-MM`"
                if u.end is None
                else too_early_reason(rl)
                if u.end < replay_from(rl)
                else too_late_reason(u.end, u.tournament.id)
            )
            unplaced.extend(NotCounted(g, u.label, why) for g in u.games)
        else:
            by_period[u.period].append(u)

    state = ReplayState(inputs)
    state.playoffs = playoffs if rl == RatingList.STANDARD else {}
    standard_of = _standard_of(games, inputs) if rl != RatingList.STANDARD else None
    state.standard_of = standard_of
    evidence, state.standard_tags = _tag_evidence(units, rl, standard_of)
    first_games = min(by_period) if by_period else None
    first_tag = None
    if first_games is not None:
        first_tag, first_label = _start_tag(by_period[first_games], standard_of)
    before: tuple[Unit, ...] = ()
    if anchors and (first_games is None or anchors[0] < first_games or first_tag is None):
        # The earliest official entry comes before every game, or the games before it give
        # no rating to start from (no Elo tag of the player's): the replay starts there, and
        # the tournaments rated on or before it are inside that published rating.
        start = anchors[0]
        before = tuple(u for p in sorted(by_period) if p <= start for u in by_period[p])
        entry = official[start]
        assert entry.rating is not None
        state.rating = entry.rating
        state.source = f"official {start} list"
        state.start_rated(entry.rating)
        state.publish(start, entry.rating)
        state.learn(entry)
        start_source = f"official {start}"
        if state.recorded_games is not None:
            # The recorded count is "before the first game in the database": the games
            # inside the starting official rating are completed too.
            state.rated_games += sum(
                1
                for u in before
                if not u.tournament.excluded
                for g in u.games
                if g.rated and g.score is not None and g.opponent_elo is not None
            )
        state.remember(start)
        first_period = next_list(start, rl)
    elif first_games is not None:
        # Games come first (an official entry, if any, re-anchors later: it never hides
        # what came before it): from the player's own Elo tag in the first tournament.
        first_period = start = first_games
        tag = first_tag
        if tag is not None:
            state.rating = tag
            state.source = f"Elo tag in {first_label}"
            state.start_rated(tag)
            start_source = f"Elo tag {tag}"
        elif first_label:
            # The first tournaments' tags are the standard rating (policy
            # TAG_OF_A_FAST_LIST_IS_THE_STANDARD) and no official entry comes first: the
            # player's rating on this list is unknown, not unrated; the replay waits.
            start_source = "waiting"
            state.waiting = first_label
        else:
            start_source = "unrated"
            state.games_known = True  # counted by the replay from its first rating
    else:
        return Replay(rl, (), tuple(units), None, "no games", (), tuple(unplaced))
    if not state.games_known:
        # The games stored from before the replay's start (before 2008, or inside the
        # starting official rating) against rated opponents are games completed too: 30 of
        # them make the count a fact, not the policy's assumption.
        early = sum(
            1
            for u in (
                *(
                    u
                    for u in units
                    if u.period is None and u.end is not None and u.end < replay_from(rl)
                ),
                *before,
            )
            if not u.tournament.excluded
            for g in u.games
            if g.rated and g.score is not None and g.opponent_elo is not None
        )
        if early >= ASSUMED_GAMES_WHEN_ESTABLISHED:
            state.rated_games = max(state.rated_games, early)
            state.games_known = True

    last_candidates = [p for p in by_period] + list(official)
    if inputs.until is not None:
        last_candidates.append(inputs.until)
    last = max(last_candidates)

    rows: list[PeriodRow] = []
    if start_source.startswith("official"):
        rows.append(_anchor_row(official[start], rl, state, before))
    period = first_period
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
    return Replay(rl, tuple(rows), tuple(units), start, start_source, before, tuple(unplaced))


def _start_tag(
    first_units: Sequence[Unit], standard_of: StandardOf | None = None
) -> tuple[int | None, str]:
    """The player's own Elo tag in the first period's tournaments (rated games of
    tournaments not excluded first): the rating the replay starts from, and the tournaments
    that carry it. On rapid and blitz a tag that is the player's standard rating of the
    month is no rating of the list (policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD): when every
    tag is such, (None, what was put aside); (None, "") without a tag."""

    def tags(rated_only: bool) -> list[tuple[int, Unit]]:
        return [
            (g.own_elo, u)
            for u in first_units
            for g in u.games
            if g.own_elo is not None and (not rated_only or (g.rated and not u.tournament.excluded))
        ]

    pairs = tags(True) or tags(False)
    if standard_of is not None and TAG_OF_A_FAST_LIST_IS_THE_STANDARD:
        kept = [(t, u) for t, u in pairs if not _is_standard_tag(t, u, standard_of)]
        if pairs and not kept:
            t, u = pairs[0]
            return None, f"the Elo tag {t} in {u.label} is the player's standard rating"
        pairs = kept
    tag = _most_common(t for t, _ in pairs)
    if tag is None:
        return None, ""
    names = list(dict.fromkeys(u.label for t, u in pairs if t == tag))
    return tag, ", ".join(names)


StandardOf = Callable[[Unit], frozenset[int]]
"""The player's standard ratings of the month a rapid or blitz tournament started in."""


def _is_standard_tag(tag: int, unit: Unit, standard_of: StandardOf | None) -> bool:
    """Whether a rapid or blitz tournament's tag is the player's standard rating of its
    month, and so no rating of its list (policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD)."""
    return (
        TAG_OF_A_FAST_LIST_IS_THE_STANDARD and standard_of is not None and tag in standard_of(unit)
    )


def _standard_of(games: Sequence[GameFact], inputs: ReplayInputs) -> StandardOf:
    """The player's standard ratings of a tournament's start (policy
    TAG_OF_A_FAST_LIST_IS_THE_STANDARD): the official and the published standard rating of
    the standard list in force then, and the player's tags in standard tournaments that
    started under that list."""
    std = RatingList.STANDARD
    tags: dict[Period, set[int]] = defaultdict(set)
    for u in assign_units(games, inputs.tournaments, std):
        on = list_in_force(u.start, std) if u.start is not None else None
        if on is not None:
            tags[on].update(g.own_elo for g in u.games if g.own_elo is not None)
    for e in inputs.official:
        if e.list == std and e.rating is not None:
            tags[e.period].add(e.rating)
    published = sorted(inputs.standard_ratings)

    def of(unit: Unit) -> frozenset[int]:
        start = _unit_start(unit)
        on = list_in_force(start, std)
        out = set(tags.get(on, ())) if on is not None else set()
        i = bisect.bisect_right(published, Period.of(start))
        if i:
            out.add(inputs.standard_ratings[published[i - 1]])
        return frozenset(out)

    return of


def _tag_evidence(
    units: Iterable[Unit], rl: RatingList, standard_of: StandardOf | None = None
) -> tuple[dict[Period, list[tuple[int, str, int]]], dict[Period, list[tuple[int, str]]]]:
    """The player's own Elo tag in each tournament on this list, by the list in force at its
    start (the rating of that list as the organiser printed it), with the number of games
    that carry it: rated games of tournaments not excluded only (an online event's tags are
    another site's ratings). A tag that a tournament of the same name already carried under
    an earlier list (a team league's weekends, printed with the season's first rating all
    season) is no new evidence; nor, on rapid and blitz, a tag that is the player's standard
    rating of the month (policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD): those come second, by
    list, with their tournament."""
    found: dict[Period, list[tuple[int, str, int]]] = defaultdict(list)
    aside: dict[Period, list[tuple[int, str]]] = defaultdict(list)
    first_of: dict[str, tuple[Period, int]] = {}  # event name -> (earliest start list, tag)
    ordered = sorted(
        (u for u in units if u.period is not None and not u.tournament.excluded),
        key=lambda u: (_unit_start(u), u.tournament.id),
    )
    for u in ordered:
        own = [g.own_elo for g in u.games if _tag_counts(g, rl) and g.own_elo is not None]
        if not own:
            continue
        # one tag in the whole tournament, nearly always: no counting needed
        tag = own[0] if own.count(own[0]) == len(own) else _most_common(own)
        on = list_in_force(_unit_start(u), rl)
        if tag is None or on is None:
            continue
        if _is_standard_tag(tag, u, standard_of):
            aside[on].append((tag, u.label))
            continue
        earlier = first_of.setdefault(u.tournament.name, (on, tag))
        if earlier[0] < on and earlier[1] == tag:
            continue  # the same event's tag again, from an earlier list
        found[on].append((tag, u.label, sum(1 for t in own if t == tag)))
    return found, aside


def _tag_counts(g: GameFact, rl: RatingList) -> bool:
    """Whether a game's own Elo tag is evidence of the list (a rated game's; on the
    standard list also a never-rated event's: TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE)."""
    if g.rated:
        return True
    return (
        TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE
        and rl == RatingList.STANDARD
        and g.not_rated_reason in EVIDENCE_OF_NEVER_RATED
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


def _anchor_row(
    entry: OfficialEntry, rl: RatingList, state: ReplayState, before: Sequence[Unit] = ()
) -> PeriodRow:
    notes = [f"start: official rating on the {entry.period} list"]
    if before:
        notes.append(
            f"includes {len(before)} earlier tournament"
            f"{'' if len(before) == 1 else 's'} with no Elo tag of the player's to "
            "replay from: " + ", ".join(u.label for u in before)
        )
    return PeriodRow(
        period=entry.period,
        rating_list=rl,
        rating_before=None,
        rating_before_source="official",
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
        source=Source.OFFICIAL,
    )


def _plan(
    unit: Unit,
    state: ReplayState,
    official: Mapping[Period, OfficialEntry],
    rating_before: int | None,
    seeded: bool,
) -> tuple[TournamentPlan, TournamentIn, list[NotCounted]]:
    ins, used, skipped = _game_inputs(unit, unrated=rating_before is None)
    start = _unit_start(unit)
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
    elif (
        elo_tag is not None
        and rating_before is not None
        and not _is_standard_tag(elo_tag, unit, state.standard_of)
    ):
        # (a rapid or blitz tag that is the standard rating is no Ro of this list: the
        # replayed rating is, below)
        ro, source = elo_tag, "Elo tag"
    else:
        known = state.in_force(start) if rating_before is not None else None
        seed = _standard_in_force(state, start) if seeded else None
        if known is not None:
            ro, source = known[1], f"replayed {known[0]} list"
        elif seed is not None:
            ro, source = seed[1], f"standard {seed[0]} list"
        else:
            ro, source = rating_before, "rating before the period"
    if elo_tag is not None and official_ro is not None and elo_tag != official_ro:
        note = f"Elo tag {elo_tag} differs from the official {force} rating {official_ro}"
    t_in = TournamentIn(
        start=engine_start,
        own_rating=ro if rating_before is not None else None,
        games=tuple(ins),
        label=unit.label,
    )
    plan = TournamentPlan(
        unit,
        ro if rating_before is not None else None,
        source if rating_before is not None else "unrated",
        elo_tag,
        official_ro,
        tuple(used),
        note,
    )
    return plan, t_in, skipped


def _latest_standard(state: ReplayState, period: Period) -> tuple[Period, int] | None:
    """The latest published standard list on or before `period`, and its rating."""
    lists = state.standard_lists
    i = bisect.bisect_right(lists, period)
    if i == 0:
        return None
    p = lists[i - 1]
    return p, state.inputs.standard_ratings[p]


def _standard_on_list(state: ReplayState, period: Period) -> int | None:
    """The standard rating published on the list of `period` (the Oct 2022 raise compares
    the rapid/blitz rating of a list with the standard rating of the same list)."""
    best = _latest_standard(state, period)
    return None if best is None else best[1]


def _standard_in_force(state: ReplayState, on: dt.date) -> tuple[Period, int] | None:
    """The standard list in force on `on` and its rating: the rating a player unrated in
    rapid/blitz starts a tournament that started on `on` from (spec 1.2: the ratings of the
    list in force at the tournament's start, even when it is rated on a later list)."""
    return _latest_standard(state, Period.of(on))


def _quiet(state: ReplayState, period: Period) -> bool:
    """Whether the list of `period` applies no one-off adjustment to the current rating."""
    rl = state.inputs.rating_list
    assert state.rating is not None
    standard = _standard_on_list(state, period) if rl != RatingList.STANDARD else None
    return one_off_adjustment(rl, period.list_date, state.rating, standard_rating=standard) is None


def _unit_start(unit: Unit) -> dt.date:
    return unit.start or (unit.period.prev().list_date if unit.period else FIRST_DATE)


def _replay_period(
    period: Period,
    units: list[Unit],
    official: Mapping[Period, OfficialEntry],
    state: ReplayState,
    birth_year: int | None,
    tags: Sequence[tuple[int, str, int]] = (),
    before_official: bool = False,
) -> PeriodRow | None:
    inputs = state.inputs
    rl = inputs.rating_list
    list_date = period.list_date
    entry = official.get(period)
    if (
        not units
        and entry is None
        and state.rating is not None
        and (not tags or _tag_for(tags, state.rating) in (None, state.rating))
        and _quiet(state, period)
    ):
        # A rated player's list without games or an official entry, and no one-off
        # adjustment on it: the rating carries over (what the full path below gives then,
        # without its cost: most lists of a long career are such lists).
        state.publish(period, state.rating)
        state.remember(period)
        return None
    notes: list[str] = []
    rating_before, before_source = state.rating, state.source
    standard = _standard_on_list(state, period) if rl != RatingList.STANDARD else None
    seeded = False
    waiting = state.waiting if rating_before is None else None
    if waiting:
        notes.append(
            f"waits for an official {rl} rating: {waiting} (policy "
            "TAG_OF_A_FAST_LIST_IS_THE_STANDARD), not its rating on this list"
        )
    elif rating_before is None and units and seeds_from_standard(rl, list_date):
        # The standard rating of the list in force at the start of the period's first
        # tournament that has one (each tournament then uses the one in force at its start).
        seed = next(
            (s for u in units if (s := _standard_in_force(state, _unit_start(u))) is not None), None
        )
        if seed is not None:
            seeded = True
            rating_before, before_source = seed[1], "standard rating"
            notes.append(
                f"unrated in {rl}: starts from the standard rating {seed[1]} "
                f"(the {seed[0]} list, in force at the tournament start)"
            )
    facts = period_facts(state, period, birth_year, official)
    if seeded:
        # The seed counts as a rating published on this list, for good (policy
        # SEED_COUNTS_AS_PUBLISHED_FOR_K): "2400 ever" and "reached 2300" as `publish` sets.
        assert rating_before is not None
        facts = seeded_facts(facts, rating_before)
        state.ever_2400, state.reached_2300 = facts.ever_2400, facts.reached_2300

    plans: list[TournamentPlan] = []
    t_ins: list[TournamentIn] = []
    skipped: list[NotCounted] = []
    by_start = (
        rating_before is not None
        and not seeded
        and list_date >= replay_from(rl)
        and edition_for(rl, list_date).k_by_tournament_start
    )
    for u in units:
        plan, t_in, skip = _plan(u, state, official, rating_before, seeded)
        if waiting:
            why = (
                f"no {rl} rating to start from: {waiting} (tracker official add ID --list "
                f"{rl} --period YYYY-MM --rating R)"
            )
            skip = [*skip, *(NotCounted(g, u.label, why) for g in plan.counted)]
            plan, t_in = replace(plan, counted=()), replace(t_in, games=())
        moved = state.playoffs.get(u.tournament.id)
        if moved:
            notes.append(
                f"{u.label}: {moved} play-off game{'' if moved == 1 else 's'} played one a "
                "day: classical, counted on the standard list (policy "
                f"ONE_A_DAY_PLAYOFF_IS_CLASSICAL; tracker event set {u.tournament.id} --list "
                "rapid|blitz says otherwise)"
            )
        at_start = (
            k_at_start(_unit_start(u), period, state, birth_year, official) if by_start else None
        )
        if at_start is not None:
            t_in = replace(t_in, k_start=at_start[0], k_start_reason=at_start[1])
        plans.append(plan)
        t_ins.append(t_in)
        skipped.extend(skip)
        if plan.note:
            notes.append(f"{u.label}: {plan.note}")
    twice = tuple(stored_twice(units))
    notes.extend(twice)

    out: PeriodOut | None = None
    first: FirstRatingOut | None = None
    replayed: int | None = rating_before
    if rating_before is not None:
        if any(t.games for t in t_ins):
            out = rate_period(
                rating_before,
                t_ins,
                rating_list=rl,
                list_date=list_date,
                facts=facts,
                standard_rating=standard,
                seeded=seeded,
            )
            replayed = out.rating_after
            if out.reason:
                notes.append(out.reason)
            state.rated_games += int(out.games)
    else:
        state.pool.extend((u, t, []) for u, t in zip(units, t_ins, strict=True) if t.games)
        months = int(edition_for(rl, list_date).first_window_months)
        cutoff = period.shift(-months).list_date
        state.pool = [p for p in state.pool if p[1].start >= cutoff]
        unrated_opponents = any(n.reason == NotRated.UNRATED_OPPONENT for n in skipped)
        if units and (state.pool or unrated_opponents):
            # (games against unrated opponents only: the first rating says what is missing)
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
        if (
            adj is not None
            and first is not None
            and first.rating is not None
            and not policies.COMPRESS_FIRST_RATING_OF_2024_FORMULA
            and edition_for(rl, list_date).first_formula is FirstFormula.FICTITIOUS_DRAWS
        ):
            # A first rating of the Mar 2024 formula is on the compressed scale already.
            notes.append(
                f"first rating {replayed} not compressed (COMPRESS_FIRST_RATING_OF_2024_FORMULA)"
            )
            adj = None
        if adj is not None:
            replayed, adjustment = adj[0], adj[1]

    anchored = entry is not None and entry.rating is not None
    tag_anchored = False
    source = Source.REPLAYED if replayed is not None else Source.UNRATED
    if first is not None and first.rating is not None:
        source = Source.FIRST_RATING
    tag = _tag_for(tags, replayed)
    aside = [(t, name) for t, name in state.standard_tags.get(period, ()) if t != replayed]
    if aside and not (entry is not None and entry.rating is not None):
        notes.append(
            "not taken as the "
            + str(rl)
            + " rating, the player's standard rating of the month (policy "
            "TAG_OF_A_FAST_LIST_IS_THE_STANDARD): "
            + ", ".join(f"Elo tag {t} ({name})" for t, name in aside)
        )
    if len({t for t, _, _ in tags}) > 1:
        notes.append(
            f"the Elo tags of the tournaments that started under the {period} list "
            "disagree: " + ", ".join(f"{t} ({name})" for t, name, _ in tags)
        )
    if anchored:
        assert entry is not None
        published: int | None = entry.rating
        state.source = f"official {period} list"
        source = Source.OFFICIAL
        if entry.rating != replayed:
            notes.append(f"re-anchored on the official rating {entry.rating}")
    elif tag is not None and TAG_IS_EVIDENCE_OF_THE_LIST:
        # No official entry for this list: the player's own Elo tag in the tournaments that
        # started under it is the list's rating as printed (evidence, policy
        # TAG_IS_EVIDENCE_OF_THE_LIST); the next period starts from it.
        published = tag
        if tag == replayed and (units or adjustment is not None or first is not None):
            state.source = f"replayed {period} list, as the Elo tag"
        elif tag != replayed:
            source = Source.ELO_TAG
            state.source = f"Elo tag for the {period} list"
            tag_anchored = True
            where = ", ".join(sorted({name for t, name, _ in tags if t == tag}))
            notes.append(
                f"re-anchored on the Elo tag {tag} ({where}; replayed "
                f"{'unrated' if replayed is None else replayed})"
            )
        if tag >= 2400:
            state.ever_2400 = True
    else:
        published = replayed
        if units or adjustment is not None or first is not None:
            state.source = f"replayed {period} list"
    if published is None and rating_before is not None:
        state.pool = []
        if not policies.RATED_GAMES_KEPT_AFTER_FLOOR_DROP:
            state.rated_games = 0
    state.rating = published
    if published is not None:
        state.waiting = None
    state.publish(period, published)
    if entry is not None:
        state.learn(entry)
    state.remember(period)
    if published is None:
        state.source = "unrated"

    if not units and entry is None and adjustment is None and first is None and not tag_anchored:
        return None
    assumed = k_assumptions(state, period, facts, rating_before, birth_year, out)
    return PeriodRow(
        period=period,
        rating_list=rl,
        rating_before=rating_before,
        rating_before_source=before_source,
        out=out,
        first=first,
        tournaments=tuple(plans),
        not_counted=tuple(skipped),
        adjustment=adjustment,
        replayed=replayed,
        official=entry,
        anchored=anchored,
        published=published,
        facts=facts,
        notes=tuple(notes),
        seeded=seeded,
        standard_rating=standard,
        twice=twice,
        elo_tag=tag if entry is None or entry.rating is None else None,
        source=source,
        assumptions=assumed,
        before_official=before_official,
    )
