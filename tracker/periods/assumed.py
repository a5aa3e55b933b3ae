"""What a period's replayed number rests on that nobody recorded (pure): the games whose list
was assumed (no TimeControl), the games the engine left out (an opponent without a rating),
and the tournaments the closing-date rule moved to a later list (they ended a few days before
a list's date; FIDE often rates them on that earlier list when the report arrives in time).
The games put off the list are the row's `not_counted`, the K facts assumed its
`assumptions`; tracker.reports.words says them all in the words every command uses."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import NamedTuple

from tracker.advice import PinPeriod
from tracker.fide.calendar import previous_list
from tracker.model import NotRated, Period, RatingList
from tracker.periods.grouping import Unit
from tracker.periods.inputs import GameFact
from tracker.periods.reasons import NotCountedDetail, NotCountedWhy
from tracker.periods.rows import PeriodRow, TournamentPlan


class LeftOut(NamedTuple):
    """The games of a period not counted for one reason."""

    why: NotCountedWhy
    detail: NotCountedDetail
    games: int


def left_out(row: PeriodRow) -> tuple[LeftOut, ...]:
    """The period's games not counted, by reason, in order: those the replay left out, then
    those the engine did (an opponent without a rating: `unrated_by_engine`)."""
    counts: dict[tuple[NotCountedWhy, NotCountedDetail], int] = {}
    for n in row.not_counted:
        key = (n.why, n.detail)
        counts[key] = counts.get(key, 0) + 1
    found = [LeftOut(why, detail, games) for (why, detail), games in counts.items()]
    unrated = unrated_by_engine(row)
    if unrated:
        found.append(LeftOut(NotCountedWhy.BY_THE_ENGINE, NotRated.UNRATED_OPPONENT.value, unrated))
    return tuple(found)


def unrated_by_engine(row: PeriodRow) -> int:
    """The period's games given to the engine that it left out (an opponent without a
    rating); 0 without a rating change."""
    if row.out is None:
        return 0
    return sum(len(plan.counted) - len(counted_games(plan, row)) for plan in row.tournaments)


def counted_games(plan: TournamentPlan, row: PeriodRow) -> list[GameFact]:
    """The games of the row's tournament `plan` that counted (pooled toward a first
    rating: every game given to the engine with a rated opponent)."""
    index = row.tournaments.index(plan)
    outs = row.out.tournaments if row.out is not None else ()
    if index >= len(outs):
        return [g for g in plan.counted if g.opponent_elo is not None]
    return [
        g
        for g, o in zip(plan.counted, outs[index].games, strict=False)
        if o.counted and o.opponent_rating is not None
    ]


def list_assumed_games(row: PeriodRow) -> int:
    """The period's counted games (those of its games count) whose list was assumed."""
    return sum(1 for p in row.tournaments for g in counted_games(p, row) if g.list_assumed)


@dataclass(frozen=True)
class ClosingDate:
    """A tournament that ended before `earlier`'s list date but inside its closing days: the
    closing-date rule put it on the later list `put_on`; FIDE may have rated it on
    `earlier`."""

    tournament: str
    tournament_id: int
    end: dt.date
    put_on: Period
    earlier: Period

    @property
    def days_before(self) -> int:
        return (self.earlier.list_date - self.end).days

    @property
    def advice(self) -> PinPeriod:
        """Pin the tournament to the earlier list."""
        return PinPeriod(self.tournament_id, self.earlier)


def closing_date_of(u: Unit) -> ClosingDate | None:
    """The tournament's ClosingDate when the closing-date rule moved it past an earlier list
    (not pinned: a pin is a recorded fact), else None."""
    if u.pinned or u.end is None or u.period is None:
        return None
    earlier = closing_date_earlier(u.end, u.period, u.rating_list)
    if earlier is None:
        return None
    return ClosingDate(u.label, u.tournament.id, u.end, u.period, earlier)


def closing_dates(row: PeriodRow) -> tuple[ClosingDate, ...]:
    """The row's tournaments with games that count that the closing-date rule moved past
    an earlier list."""
    found = (closing_date_of(plan.unit) for plan in row.tournaments if plan.counted)
    return tuple(c for c in found if c is not None)


def closing_date_earlier(end: dt.date, period: Period, rating_list: RatingList) -> Period | None:
    """The list before `period` when the tournament ended before its date (so only its
    closing days kept it off), else None."""
    earlier = previous_list(period, rating_list)
    if earlier is None or end >= earlier.list_date:
        return None
    return earlier
