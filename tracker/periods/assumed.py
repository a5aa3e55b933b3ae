"""What a period's replayed number rests on that nobody recorded, in the words every command
says it with (history, next, explain, check, event list, the report): the games whose list
was assumed (no TimeControl), the games put off the list (a name, the schedule, online...),
by one label each, and the tournaments the closing-date rule moved to a later list (they
ended a few days before a list's date; FIDE often rates them on that earlier list when the
report arrives in time). The K facts assumed are the row's `assumptions`."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from tracker.fide.calendar import previous_list
from tracker.fide.eventnames import NAME_REASONS
from tracker.model import NotRated, Period, RatingList
from tracker.periods.grouping import Unit
from tracker.periods.inputs import GameFact
from tracker.periods.rows import NotCounted, PeriodRow, TournamentPlan

LIST_ASSUMED_HOW = (
    "by assumption (the event's name, else standard); `tracker event set ID --list LIST` "
    "corrects a tournament"
)
"""How games without a time control came to their list, and the command that corrects it:
every output that counts such games ends its sentence with it."""

BY_THE_NAME = NAME_REASONS - {NotRated.VARIANT.value}
"""The not-rated reasons only a name gives (a variant comes from the Variant tag too)."""


def not_counted_label(reason: str) -> str:
    """A not-counted game's reason as one short label, as `tracker history` writes it:
    "tie-break (by the name)" for a reason only a name gives, else the reason's words before
    its detail (":", " (")."""
    if reason in BY_THE_NAME:
        return f"{reason} (by the name)"
    return re.split(r": | \(", reason, maxsplit=1)[0]


def label_counts(skipped: Iterable[NotCounted]) -> dict[str, int]:
    """Games not counted by label (not_counted_label)."""
    counts: dict[str, int] = {}
    for n in skipped:
        label = not_counted_label(n.reason)
        counts[label] = counts.get(label, 0) + 1
    return counts


def most_first(counts: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """(label, games), the most games first (then by label)."""
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def not_counted_counts(row: PeriodRow) -> tuple[tuple[str, int], ...]:
    """The period's games not counted, (label, games), most first: those the replay left
    out and those the engine did (an opponent without a rating), as `history` counts them."""
    counts = label_counts(row.not_counted)
    unrated = sum(len(plan.counted) - len(counted_games(plan, row)) for plan in row.tournaments)
    if unrated and row.out is not None:  # given to the engine, which left them out
        counts[NotRated.UNRATED_OPPONENT.value] = unrated
    return most_first(counts)


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
    def command(self) -> str:
        return f"tracker event set {self.tournament_id} --period {self.earlier}"

    def text(self) -> str:
        days = "1 day" if self.days_before == 1 else f"{self.days_before} days"
        return (
            f"{self.tournament} ended {self.end.isoformat()}, {days} before the {self.earlier} "
            f"list: put on the {self.put_on} list by the closing-date rule, assumed; FIDE "
            f"rates it on the {self.earlier} list when the report arrives in time"
        )

    def to_json(self) -> dict[str, object]:
        """As `history --format json` writes it (`period_assumed`), with the last round."""
        return {
            "tournament": self.tournament,
            "tournament_id": self.tournament_id,
            "may_be": str(self.earlier),
            "command": self.command,
            "end": self.end.isoformat(),
        }


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
