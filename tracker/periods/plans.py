"""How one tournament enters its period (pure): which of its games count, the opponents'
ratings (the lists in force at its start, where imported), and the player's Ro with where it
came from (`TournamentPlan`). The loop that asks is tracker.periods.replay."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from tracker.fide import GameIn, TournamentIn
from tracker.fide.calendar import list_in_force, previous_list, replay_from
from tracker.fide.editions import FIRST_DATE
from tracker.fide.eventnames import NAME_REASONS, VARIANT
from tracker.model import (
    LAST_PERIOD,
    EloTags,
    ListKind,
    ListStatus,
    NotRated,
    OfficialEntry,
    Period,
    RatingList,
)
from tracker.periods.grouping import Unit
from tracker.periods.inputs import GameFact
from tracker.periods.notes import TagDiffers
from tracker.periods.policies import TAG_OF_A_FAST_LIST_IS_THE_STANDARD
from tracker.periods.reasons import NotCounted, NotCountedWhy, Unplaced
from tracker.periods.rows import TournamentPlan
from tracker.periods.schedule import not_standard
from tracker.periods.sources import RatingSource
from tracker.periods.state import ReplayState

OVERRIDABLE_REASONS = NAME_REASONS - {VARIANT}
"""The not-rated reasons read from event and round names (a tie-break, an armageddon...):
a tournament the user put on a list (`tracker event set ID --list LIST`) counts there all
the same; the user has FIDE's page. A variant is never rated."""

StandardOf = Callable[[Unit], frozenset[int]]
"""The player's standard ratings of the months around a rapid or blitz tournament's start
(tracker.periods.tags.standard_ratings_of)."""


def most_common(values: Iterable[int | None]) -> int | None:
    """The most common value (the lowest of equals); None without a value."""
    counted = Counter(v for v in values if v is not None)
    if not counted:
        return None
    best = max(counted.values())
    return min(v for v, n in counted.items() if n == best)


def unit_start(unit: Unit) -> dt.date:
    """A tournament's first day; undated, the day before its period's list."""
    return unit.start or (unit.period.prev().list_date if unit.period else FIRST_DATE)


def is_standard_tag(tag: int, unit: Unit, standard_of: StandardOf | None) -> bool:
    """Whether a rapid or blitz tournament's tag may be the player's standard rating, and so
    is no rating of its list: its file's import said the file prints standard ratings
    (`EloTags.STANDARD`), or, unless it said each event prints its own list's (`OWN`), the
    tag is one of the player's standard ratings of the months around the tournament's start
    (policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD). None `standard_of`: the standard list."""
    if standard_of is None:
        return False
    kinds = {g.elo_tags for g in unit.games if g.own_elo == tag}
    if EloTags.STANDARD in kinds:
        return True
    if kinds == {EloTags.OWN}:
        return False
    return TAG_OF_A_FAST_LIST_IS_THE_STANDARD and tag in standard_of(unit)


def game_inputs(
    unit: Unit, unrated: bool = False
) -> tuple[list[GameIn], list[GameFact], list[NotCounted]]:
    """The tournament's games the engine counts (as its inputs, and as facts), and those it
    does not, each with its reason. While the player is `unrated`, a game against an
    opponent without a rating is left out too: only games against rated opponents count
    toward a first rating (spec section 4), so neither its game nor its points are pooled.
    (A rated player's such games go to the engine, which says per game that they did not
    count: `GameOut.reason`.)"""
    ins: list[GameIn] = []
    used: list[GameFact] = []
    skipped: list[NotCounted] = []
    by_schedule = not_standard(unit)
    for g in unit.games:
        if unit.tournament.excluded:
            skipped.append(NotCounted(g, unit.label, NotCountedWhy.EXCLUDED))
            continue
        if not g.rated and not (
            unit.tournament.pinned_list is not None and g.not_rated_reason in OVERRIDABLE_REASONS
        ):
            # a game not rated anyway keeps its own reason (an online event's: no advice to
            # put it on another list, where it would not count either)
            skipped.append(NotCounted(g, unit.label, NotCountedWhy.NOT_RATED, g.not_rated_reason))
            continue
        if g.score is None:
            skipped.append(NotCounted(g, unit.label, NotCountedWhy.UNFINISHED))
            continue
        off = by_schedule.get(g.id)
        if off is not None:
            skipped.append(NotCounted(g, unit.label, off[0], off[1]))
            continue
        if unrated and g.opponent_elo is None:
            skipped.append(
                NotCounted(g, unit.label, NotCountedWhy.NOT_RATED, NotRated.UNRATED_OPPONENT.value)
            )
            continue
        assert g.score is not None
        ins.append(GameIn(opponent_rating=g.opponent_elo, score=g.score, label=g.opponent))
        used.append(g)
    return ins, used, skipped


def rated_by_the_lists(
    unit: Unit,
    lists: Mapping[int, Mapping[Period, ListStatus]],
    kinds: Mapping[Period, ListKind],
) -> Unit:
    """The unit with each opponent rated as FIDE's list in force at the tournament's start
    says (spec section 1: the ratings of the list in force), where an imported list looked
    that opponent up: its rating, or None (unrated for FIDE) whatever the Elo tag says. A
    game whose two tags said "unrated" counts when the list gives the opponent a rating.
    Opponents no imported list looked up keep their tag; so do those an excerpt in force
    lacks (it says nothing of them), unless the list before it rated them: that rating."""
    force = list_in_force(unit_start(unit), unit.rating_list) if unit.period else None
    if force is None:
        return unit
    excerpt = kinds.get(force) is ListKind.EXCERPT
    before = previous_list(force, unit.rating_list) if excerpt else None
    games: list[GameFact] = []
    changed = False
    for g in unit.games:
        said = lists.get(g.opponent_id, {})
        used, status = force, said.get(force)
        lacked = force if excerpt and status is None else None
        if lacked is not None and before is not None:
            earlier = said.get(before)
            if earlier is not None and earlier.rating is not None:
                used, status = before, earlier
        if status is None:
            if lacked is not None:
                changed = True
                g = replace(g, not_on_excerpt=lacked)
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
                opponent_rating_source=RatingSource.OFFICIAL,
                opponent_list=used,
                opponent_list_file=status.source,
                not_on_excerpt=lacked,
            )
        )
    return replace(unit, games=tuple(games)) if changed else unit


def plan_tournament(
    unit: Unit,
    state: ReplayState,
    official: Mapping[Period, OfficialEntry],
    rating_before: int | None,
    seeded: bool,
) -> tuple[TournamentPlan, TournamentIn, list[NotCounted]]:
    """The tournament's plan (its Ro and where it came from, the games counted), its input
    to the engine, and the games not counted."""
    ins, used, skipped = game_inputs(unit, unrated=rating_before is None)
    start = unit_start(unit)
    engine_start = max(start, replay_from(unit.rating_list))
    force = list_in_force(start, unit.rating_list)
    entry = official.get(force) if force is not None else None
    official_ro = entry.rating if entry is not None else None
    elo_tag = most_common(g.own_elo for g in unit.games)
    note: TagDiffers | None = None
    ro: int | None
    on: Period | None = None
    if unit.tournament.ro is not None:
        ro, source = unit.tournament.ro, RatingSource.OVERRIDE
    elif official_ro is not None:
        ro, source, on = official_ro, RatingSource.OFFICIAL, force
    elif (
        elo_tag is not None
        and rating_before is not None
        and not is_standard_tag(elo_tag, unit, state.standard_of)
    ):
        # (a rapid or blitz tag that is the standard rating is no Ro of this list: the
        # replayed rating is, below)
        ro, source = elo_tag, RatingSource.ELO_TAG
    else:
        known = state.in_force(start) if rating_before is not None else None
        seed = state.standard_in_force(start) if seeded else None
        if known is not None:
            ro, source, on = known[1], RatingSource.REPLAYED, known[0]
        elif seed is not None:
            ro, source, on = seed[1], RatingSource.STANDARD, seed[0]
        else:
            ro, source = rating_before, RatingSource.RATING_BEFORE
    if elo_tag is not None and official_ro is not None and elo_tag != official_ro:
        assert force is not None
        note = TagDiffers(elo_tag, force, official_ro)
    t_in = TournamentIn(
        start=engine_start,
        own_rating=ro if rating_before is not None else None,
        games=tuple(ins),
        label=unit.label,
    )
    rated = rating_before is not None
    tournament = TournamentPlan(
        unit,
        ro if rated else None,
        source if rated else RatingSource.UNRATED,
        elo_tag,
        official_ro,
        tuple(used),
        note,
        on if rated else None,
    )
    return tournament, t_in, skipped


_ASKS_FOR_A_PERIOD = frozenset({NotCountedWhy.NO_DATE, NotCountedWhy.ONLY_YEAR})


def placed(
    units: Iterable[Unit], rl: RatingList
) -> tuple[dict[Period, list[Unit]], list[NotCounted]]:
    """The tournaments by rating period, and the games of those that have none, with why."""
    unplaced: list[NotCounted] = []
    by_period: dict[Period, list[Unit]] = defaultdict(list)
    for u in units:
        if u.period is None:
            why = unplaced_why(u, rl)
            if u.tournament.excluded and why in _ASKS_FOR_A_PERIOD:
                why = NotCountedWhy.EXCLUDED  # set aside: no period to ask for
            year = None if u.tag_date is None else u.tag_date.year
            where = Unplaced(rl, u.tournament.id, u.end, year)
            unplaced.extend(NotCounted(g, u.label, why, where) for g in u.games)
        else:
            by_period[u.period].append(u)
    return by_period, unplaced


def unplaced_why(u: Unit, rl: RatingList) -> NotCountedWhy:
    """Why a tournament is in no period: ended before the replay's first date (or in a year
    before it, by its date tags), after the last list replayed, dated only by a year of the
    replayed span, or not dated at all."""
    if u.end is not None:
        return NotCountedWhy.TOO_EARLY if u.end < replay_from(rl) else NotCountedWhy.TOO_LATE
    if u.tag_date is None:
        return NotCountedWhy.NO_DATE
    if u.tag_date.year < replay_from(rl).year:
        return NotCountedWhy.TOO_EARLY
    if u.tag_date.year > LAST_PERIOD.year or u.tag_date.month is not None:
        return NotCountedWhy.TOO_LATE  # (a month of the span has a period: after the last)
    return NotCountedWhy.ONLY_YEAR
