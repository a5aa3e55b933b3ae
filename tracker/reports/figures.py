"""The engine's figures per tournament: its result in a period, the games that counted and
their points, and the performance and change as chess-results prints them (used by explain,
the history's season line, the tournaments list, the games export and the chart)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from tracker.fide import TournamentOut
from tracker.fide.performance import performance_rating
from tracker.fide.rounding import round_change
from tracker.periods import PeriodRow, Replay, TournamentPlan


def tournament_out(plan: TournamentPlan, row: PeriodRow) -> TournamentOut | None:
    """The engine's result for this tournament (rate_period keeps the order it was given)."""
    if row.out is None:
        return None
    index = row.tournaments.index(plan)
    return row.out.tournaments[index] if index < len(row.out.tournaments) else None


@dataclass(frozen=True)
class TournamentFigures:
    """One tournament on one list as chess-results prints it: the rated games and their
    points, the games not counted, the performance rating and the change."""

    games: int  # games that counted (rated)
    points: Fraction  # points in them
    not_counted: int  # the tournament's other games (unrated opponent, online, unfinished...)
    performance: int | None  # Rp (spec section 7), None without a counted game
    change_exact: Decimal | None  # K x chg, exact (None: pooled toward a first rating)
    change: int | None  # K x chg rounded on its own (.5 away from zero)


def counted_results(plan: TournamentPlan, row: PeriodRow) -> tuple[list[int], Fraction]:
    """The ratings of the opponents of a tournament's games that counted, and their points
    in those same games (pooled toward a first rating: the games given to the engine against
    a rated opponent, spec section 4; the replay gives it no other)."""
    tout = tournament_out(plan, row)
    if tout is None:
        pooled = [
            (g.opponent_elo, g.score)
            for g in plan.counted
            if g.opponent_elo is not None and g.score is not None
        ]
        return [r for r, _ in pooled], sum((s for _, s in pooled), Fraction(0))
    return (
        [g.opponent_rating for g in tout.games if g.counted and g.opponent_rating is not None],
        Fraction(tout.points),
    )


def tournament_figures(plan: TournamentPlan, row: PeriodRow) -> TournamentFigures:
    tout = tournament_out(plan, row)
    opponents, points = counted_results(plan, row)
    change_exact = None if tout is None else tout.k_change
    games = len(opponents)
    rp = performance_rating(opponents, points) if games else None
    change = None if change_exact is None else round_change(change_exact)
    return TournamentFigures(games, points, len(plan.unit.games) - games, rp, change_exact, change)


def unit_figures(replays: Iterable[Replay]) -> dict[tuple[int, str], TournamentFigures]:
    """The figures of every tournament a replay rated, by (tournament id, list)."""
    found: dict[tuple[int, str], TournamentFigures] = {}
    for rp in replays:
        for r in rp.rows:
            for plan in r.tournaments:
                found[(plan.unit.tournament.id, str(plan.unit.rating_list))] = tournament_figures(
                    plan, r
                )
    return found
