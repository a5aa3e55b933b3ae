"""One period's games as FIDE's calculation page lists them, one row per game (`ExplainGame`):
the JSON and CSV of `tracker explain` (EXPLAIN_COLUMNS, `explain_json`) and the season page's
game tables. The lines of `tracker explain` are tracker.reports.explain's."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from tracker.model import Period, RatingList
from tracker.periods import GameFact, NotCounted, PeriodRow, Replay, TournamentPlan
from tracker.reports.figures import tournament_out
from tracker.reports.text import json_points
from tracker.reports.words import opponent_source_text, plan_ro_text, why_text

EXPLAIN_COLUMNS = (
    "period",
    "list",
    "tournament",
    "start",
    "end",
    "ro",
    "ro_source",
    "opponent",
    "opponent_rating",
    "opponent_rating_source",
    "opponent_elo_tag",
    "capped",
    "difference_used",
    "expected",
    "score",
    "change",
    "k",
    "k_change",
    "counted",
    "reason",
)
"""The columns of `tracker explain --format csv` (one row per game of the period, the
games that did not count included, with the reason), in docs/export.md."""


@dataclass(frozen=True)
class ExplainGame:
    """One game of a period as FIDE's calculation page lists it: the values of
    EXPLAIN_COLUMNS (`explain_json` gives them as JSON and CSV write them, in that order).
    `ro_source` is None for a game that did not count before the engine (the replay left it
    out, with the reason)."""

    period: Period
    rating_list: RatingList
    tournament: str
    start: dt.date | None
    end: dt.date | None
    ro: int | None
    ro_source: str | None
    opponent: str
    opponent_rating: int | None
    opponent_rating_source: str
    opponent_elo_tag: str | None
    capped: bool
    difference_used: int | None
    expected: Decimal | None
    score: Fraction | None
    change: Decimal | None
    k: int | None
    k_change: Decimal | None
    counted: bool
    reason: str | None


def explain_json(g: ExplainGame) -> dict[str, Any]:
    """A game of `explain` as `--format json` writes it and CSV reads it (the keys of
    EXPLAIN_COLUMNS, in that order; docs/export.md)."""
    return {
        "period": str(g.period),
        "list": str(g.rating_list),
        "tournament": g.tournament,
        "start": g.start.isoformat() if g.start else None,
        "end": g.end.isoformat() if g.end else None,
        "ro": g.ro,
        "ro_source": g.ro_source,
        "opponent": g.opponent,
        "opponent_rating": g.opponent_rating,
        "opponent_rating_source": g.opponent_rating_source,
        "opponent_elo_tag": g.opponent_elo_tag,
        "capped": g.capped,
        "difference_used": g.difference_used,
        "expected": None if g.expected is None else str(g.expected),
        "score": None if g.score is None else json_points(g.score),
        "change": None if g.change is None else str(g.change),
        "k": g.k,
        "k_change": None if g.k_change is None else str(g.k_change),
        "counted": g.counted,
        "reason": g.reason,
    }


def explain_games(replay_: Replay, period: Period) -> list[ExplainGame]:
    """The games of one period as FIDE's calculation page lists them: per game the
    tournament (with the Ro used and where it came from), the opponent, the rating used,
    the difference used, PD, score, change and K x change (exact values); then the
    games that did not count, with the reason. [] for a period without a row."""
    row = replay_.row(period)
    if row is None:
        return []
    out: list[ExplainGame] = []
    for plan in row.tournaments:
        if plan.counted:
            out += plan_games(replay_, row, plan)
    out += [not_counted_game(replay_, row, n) for n in row.not_counted]
    return out


def plan_games(replay_: Replay, row: PeriodRow, plan: TournamentPlan) -> list[ExplainGame]:
    """The games one tournament counted in the period `row` (those pooled toward a first
    rating included)."""
    period, rl = row.period, replay_.rating_list

    def source(g: GameFact) -> str:
        return opponent_source_text(g, rl)

    u = plan.unit
    tout = tournament_out(plan, row)
    base = (period, rl, u.label, u.start, u.end, plan.ro, plan_ro_text(plan))
    if tout is None:  # pooled toward a first rating
        return [
            ExplainGame(
                *base,
                opponent=g.opponent,
                opponent_rating=g.opponent_elo,
                opponent_rating_source=source(g),
                opponent_elo_tag=g.opponent_elo_tag,
                capped=False,
                difference_used=None,
                expected=None,
                score=g.score,
                change=None,
                k=None,
                k_change=None,
                counted=True,
                reason="toward a first rating",
            )
            for g in plan.counted
        ]
    return [
        ExplainGame(
            *base,
            opponent=g.label or fact.opponent,
            opponent_rating=g.opponent_rating,
            opponent_rating_source=source(fact),
            opponent_elo_tag=fact.opponent_elo_tag,
            capped=g.capped,
            difference_used=g.difference_used,
            expected=g.expected,
            score=g.score,
            change=g.change,
            k=tout.k if g.counted else None,
            k_change=g.k_change,
            counted=g.counted,
            reason=None if g.counted else g.reason,
        )
        for g, fact in zip(tout.games, plan.counted, strict=False)
    ]


def not_counted_game(replay_: Replay, row: PeriodRow, n: NotCounted) -> ExplainGame:
    """A game of the period `row` that did not count, with the reason."""
    return ExplainGame(
        row.period,
        replay_.rating_list,
        tournament=n.tournament,
        start=n.game.date,
        end=None,
        ro=None,
        ro_source=None,
        opponent=n.game.opponent,
        opponent_rating=n.game.opponent_elo,
        opponent_rating_source=opponent_source_text(n.game, replay_.rating_list),
        opponent_elo_tag=n.game.opponent_elo_tag,
        capped=False,
        difference_used=None,
        expected=None,
        score=None,
        change=None,
        k=None,
        k_change=None,
        counted=False,
        reason=why_text(n),
    )
