"""Causes in the games FIDE rated, each verified by re-running the replay with the change:
games missing (a tournament the replay put on a neighbouring list, pinned here; else not in
the database), games extra (a tournament rated on another list, or never rated), and an
opponent unrated for one side only."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import replace

from tracker.advice import ExcludeTournament, PinPeriod
from tracker.check.context import Context, reproduced
from tracker.check.report import (
    CLOSING_DATE,
    GAMES_EXTRA,
    GAMES_MISSING,
    NOT_IN_DATABASE,
    UNRATED_OPPONENT,
    Cause,
    ClosingUndone,
    GamesCount,
    GamesExtraThere,
    GamesExtraUnrated,
    GamesMissingHere,
    GamesStep,
    NotInDatabase,
    UnratedCountedByFide,
    UnratedForFide,
)
from tracker.model import ListKind, NotRated, OfficialEntry, Period
from tracker.periods import GameFact, PeriodRow, RatingSource, Replay, next_list
from tracker.periods.assumed import ClosingDate, closing_dates
from tracker.periods.reasons import NotCountedWhy

MOVES = (GAMES_MISSING, GAMES_EXTRA, CLOSING_DATE)
"""The causes that move a tournament onto or off a list (a pin, or an exclusion)."""
PIN_SUBSETS = 2  # try single tournaments, then pairs
MAX_COMBOS = 24  # tournament sets tried per difference (each costs a replay or several)


def _plans_with_counts(row: PeriodRow) -> list[tuple[int, str, int]]:
    """(tournament id, name, games counted by the engine) for each tournament of `row`."""
    counts: list[tuple[int, str, int]] = []
    outs = row.out.tournaments if row.out is not None else ()
    for i, plan in enumerate(row.tournaments):
        if i < len(outs) and outs[i].label == plan.unit.label:
            n = outs[i].games_counted
        else:
            n = len(plan.counted)
        counts.append((plan.unit.tournament.id, plan.unit.label, n))
    return counts


def _subsets(
    items: Sequence[tuple[int, str, int]], total: int
) -> Iterator[tuple[tuple[int, str, int], ...]]:
    tried = 0
    for size in range(1, PIN_SUBSETS + 1):
        for combo in itertools.combinations(items, size):
            if sum(c[2] for c in combo) == total:
                tried += 1
                yield combo
                if tried >= MAX_COMBOS:
                    return
        if tried:
            return


def _pins(combo: Sequence[tuple[int, str, int]], period: Period) -> tuple[PinPeriod, ...]:
    return tuple(PinPeriod(tid, period) for tid, _, _ in combo)


def _pin(
    ctx: Context,
    combo: Sequence[tuple[int, str, int]],
    period: Period | None,
    exclude: bool = False,
) -> Replay:
    changed = []
    for tid, _, _ in combo:
        t = ctx.tournament(tid)
        changed.append(replace(t, excluded=True) if exclude else replace(t, pinned_period=period))
    return ctx.rerun(tournaments=changed)


def games_missing_causes(
    ctx: Context, row: PeriodRow, entry: OfficialEntry, missing: int
) -> list[Cause]:
    causes: list[Cause] = []
    here = row.period
    candidates: list[tuple[int, str, int]] = []
    origin: dict[int, Period] = {}
    for p in ctx.neighbours(here):
        other = ctx.base.row(p)
        if other is None:
            continue
        ends = {plan.unit.tournament.id: plan.unit.end for plan in other.tournaments}
        for item in _plans_with_counts(other):
            end = ends.get(item[0])
            if item[2] > 0 and (end is None or end < here.list_date):  # over before the list
                candidates.append(item)
                origin[item[0]] = p
    pushed = {
        c.tournament_id: c
        for p in set(origin.values())
        if (other := ctx.base.row(p)) is not None
        for c in closing_dates(other)
        if c.earlier == here
    }
    for combo in _subsets(candidates, missing):
        rep = _pin(ctx, combo, here)
        ok_here = reproduced(rep, here, entry)
        where = sorted({origin[c[0]] for c in combo})
        verified = [p for p in where if p in ctx.official and reproduced(rep, p, ctx.official[p])]
        broken = [p for p in where if p in ctx.official and not reproduced(rep, p, ctx.official[p])]
        got = rep.row(here)
        rule = tuple(pushed[c[0]] for c in combo if c[0] in pushed)
        moved_here = GamesMissingHere(
            entry.games,
            row.games,
            here,
            tuple(combo),
            tuple(where),
            rule,
            ok_here,
            entry.rating,
            got.replayed if got else None,
            tuple(verified),
            tuple(broken),
        )
        causes.append(
            Cause(
                GAMES_MISSING,
                reproduces=ok_here and not broken,
                games_match=_games_ok(rep, here, entry),
                advice=_pins(combo, here),
                said=moved_here,
            )
        )
    causes = _drop_disproved(causes)
    causes += _unrated_counted_by_fide(row, entry, missing)
    if not any(c.reproduces for c in causes):
        assert entry.games is not None
        said = NotInDatabase(here, entry.games, row.games, missing)
        not_counted = row.not_counted
        if not_counted and len(not_counted) >= missing:
            reasons = tuple(dict.fromkeys((nc.why, nc.detail) for nc in not_counted))
            said = replace(said, left_out=len(not_counted), reasons=reasons)
        causes.append(Cause(NOT_IN_DATABASE, reproduces=False, games_match=False, said=said))
    return causes


def _games_ok(rep: Replay, period: Period, entry: OfficialEntry) -> bool:
    row = rep.row(period)
    return row is not None and entry.games is not None and row.games == entry.games


def _unrated_counted_by_fide(row: PeriodRow, entry: OfficialEntry, missing: int) -> list[Cause]:
    listed = {
        g.opponent
        for p in row.tournaments
        for g in p.counted
        if g.opponent_rating_source is not RatingSource.ELO_TAG
    }  # unrated on FIDE's own list: not a cause
    unrated = [
        (t.label, g.label)
        for t in (row.out.tournaments if row.out else ())
        for g in t.games
        if not g.counted and g.reason == NotRated.UNRATED_OPPONENT and g.label not in listed
    ]
    unrated += [
        (nc.tournament, nc.game.opponent)
        for nc in row.not_counted
        if nc.why is NotCountedWhy.NOT_RATED
        and nc.detail == NotRated.UNRATED_OPPONENT
        and nc.game.opponent_rating_source is RatingSource.ELO_TAG
    ]
    if not unrated or len(unrated) != missing:
        return []
    names = tuple(sorted({opp for _, opp in unrated}))
    said = UnratedCountedByFide(entry.games, row.games, len(unrated), names)
    return [Cause(UNRATED_OPPONENT, reproduces=False, games_match=True, said=said)]


def games_extra_causes(
    ctx: Context, row: PeriodRow, entry: OfficialEntry, extra: int
) -> list[Cause]:
    causes: list[Cause] = []
    here = row.period
    items = [i for i in _plans_with_counts(row) if i[2] > 0]
    ends = {p.unit.tournament.id: p.unit.end for p in row.tournaments}
    pushed = {c.tournament_id: c for c in closing_dates(row)}
    for combo in _subsets(items, extra):
        best: Cause | None = None
        also: Cause | None = None  # a later list, when the earlier one is not confirmed
        last = max((e for c in combo if (e := ends.get(c[0])) is not None), default=None)
        rule = [pushed[c[0]] for c in combo if c[0] in pushed]
        earlier = {c.earlier for c in rule}
        first = next(iter(earlier)) if len(rule) == len(combo) and len(earlier) == 1 else None
        targets = ctx.neighbours(here)
        if first is not None:  # the closing-date rule moved it: its earlier list first
            targets = [first, *(t for t in targets if t != first)]
        for target in targets:
            if last is not None and target.list_date <= last:
                continue  # a list cannot rate a tournament that was not over
            if ctx.base.start is not None and target <= ctx.base.start:
                continue  # inside the starting official rating: nothing to confirm
            rep = _pin(ctx, combo, target)
            if not reproduced(rep, here, entry):
                continue
            there = ctx.official.get(target)
            confirmed = None
            if there is not None and there.rating is not None:
                if not reproduced(rep, target, there):
                    continue
                confirmed = there.rating
            cause = Cause(
                GAMES_EXTRA,
                reproduces=True,
                games_match=True,
                advice=_pins(combo, target),
                said=GamesExtraThere(
                    entry.games,
                    row.games,
                    here,
                    tuple(combo),
                    target,
                    tuple(rule) if target == first else (),
                    target > here,
                    entry.rating,
                    confirmed,
                ),
            )
            if there is not None:
                best, also = cause, None
                break
            if best is None:
                best = cause
            elif also is None and best.advice != cause.advice and first is not None:
                also = cause  # the earlier list and a late report: both fit, neither confirmed
        if best is None:
            rep = _pin(ctx, combo, None, exclude=True)
            if reproduced(rep, here, entry):
                best = Cause(
                    GAMES_EXTRA,
                    reproduces=True,
                    games_match=True,
                    advice=tuple(ExcludeTournament(tid) for tid, _, _ in combo),
                    said=GamesExtraUnrated(
                        entry.games, row.games, here, tuple(combo), entry.rating, True
                    ),
                )
        if best is None:
            best = Cause(
                GAMES_EXTRA,
                reproduces=False,
                games_match=True,
                advice=_pins(combo, next_list(here, ctx.rating_list)),
                said=GamesExtraUnrated(
                    entry.games, row.games, here, tuple(combo), entry.rating, False
                ),
            )
        causes.append(best)
        if also is not None:
            causes.append(also)
    causes = _drop_disproved(causes)
    causes += _unrated_for_fide(ctx, row, entry, extra)
    return causes


def _drop_disproved(causes: list[Cause]) -> list[Cause]:
    """When one tournament's move reproduces the list, the moves that do not are disproved."""
    if any(c.reproduces for c in causes):
        return [c for c in causes if c.reproduces]
    return causes


def closing_date_causes(ctx: Context, row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    """The closing-date rule undone, each verified by re-running the replay: a tournament of
    the next list that ended a few days before this list's date, pinned here; a tournament of
    this list that ended a few days before the previous list's date, pinned there. Kept when
    this period comes out as published (and the other list, when it has an official entry)."""
    here = row.period
    tried: list[tuple[ClosingDate, Period]] = []
    after = ctx.base.row(next_list(here, ctx.rating_list))
    if after is not None:
        tried += [(c, here) for c in closing_dates(after) if c.earlier == here]
    tried += [(c, c.earlier) for c in closing_dates(row)]
    causes: list[Cause] = []
    for c, target in tried:
        t = ctx.tournament(c.tournament_id)
        rep = ctx.rerun(tournaments=[replace(t, pinned_period=target)])
        if not reproduced(rep, here, entry):
            continue
        other = c.put_on if target == here else target
        there = ctx.official.get(other)
        if there is not None and there.rating is not None and not reproduced(rep, other, there):
            continue
        confirmed = there.rating if there is not None and there.rating is not None else None
        causes.append(
            Cause(
                CLOSING_DATE,
                reproduces=True,
                games_match=_games_ok(rep, here, entry),
                advice=(c.advice,),
                said=ClosingUndone(c, here, entry.rating, other, confirmed),
            )
        )
    return causes


def _unrated_for_fide(
    ctx: Context, row: PeriodRow, entry: OfficialEntry, extra: int
) -> list[Cause]:
    """Games against one opponent the replay counted but FIDE did not (unrated for FIDE):
    only where the rating is the PGN's tag (a list that rated the opponent is FIDE's word)."""
    by_opp: dict[int, list[GameFact]] = {}
    for plan in row.tournaments:
        for g in plan.counted:
            if g.opponent_elo is not None and g.opponent_rating_source is RatingSource.ELO_TAG:
                by_opp.setdefault(g.opponent_id, []).append(g)
    causes: list[Cause] = []
    for gs in by_opp.values():
        if len(gs) != extra:
            continue
        rep = ctx.rerun(games=[replace(g, opponent_elo=None) for g in gs])
        if not reproduced(rep, row.period, entry):
            continue
        opp = gs[0]
        causes.append(
            Cause(
                UNRATED_OPPONENT,
                reproduces=True,
                games_match=True,
                said=UnratedForFide(
                    len(gs), opp.opponent, opp.opponent_elo, ctx.rating_list, entry.rating
                ),
            )
        )
    return causes


def games_count(
    row: PeriodRow,
    entry: OfficialEntry,
    causes: Sequence[Cause],
    kind: ListKind | None,
) -> GamesCount | None:
    """FIDE's count of rated games on the list of `row` against the replay's, when the list
    (or the user, `official add --games`) gave it and the two differ, with the next step:
    the first cause when it moves a tournament and reproduces both numbers; else, games
    missing, import them (or FIDE counted games the replay left out, when it left out as
    many); games extra, a tournament was rated on another list or not at all."""
    if entry.games is None or entry.games == row.games:
        return None
    first = causes[0] if causes else None
    # the period's games the replay left out: before the engine (a name, the schedule...)
    # and by it (an opponent without a rating, given to it and not counted)
    by_engine = sum(
        1 for t in (row.out.tournaments if row.out else ()) for g in t.games if not g.counted
    )
    left_out = len(row.not_counted) + by_engine
    if (
        first is not None
        and first.kind in MOVES
        and first.reproduces
        and first.games_match
        and first.advice
    ):
        step = GamesStep.CAUSE
    elif entry.games > row.games:
        step = GamesStep.LEFT_OUT if left_out >= entry.games - row.games else GamesStep.IMPORT
    else:
        step = GamesStep.ELSEWHERE
    return GamesCount(
        row.period,
        entry.games,
        row.games,
        entry.source,
        None if entry.source == "manual" else kind,
        step,
        left_out,
    )
