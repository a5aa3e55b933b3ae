"""`reconcile`: the replay of one list compared with the official entries, period by period,
with the likely causes of each difference and where re-anchoring makes the rest match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tracker.check.causes import likely_causes
from tracker.check.context import Context, before_2008
from tracker.check.games import games_count
from tracker.check.report import (
    DIFFERS,
    MATCH,
    START,
    Cause,
    CheckNote,
    CheckReport,
    CheckRow,
    ReanchorMatches,
    StartsHere,
    ranked,
)
from tracker.model import ListKind, OfficialEntry
from tracker.periods import PeriodRow, Replay, ReplayInputs, replay
from tracker.periods.assumed import closing_dates, left_out, list_assumed_games
from tracker.periods.notes import TournamentNote


def reconcile(
    inputs: ReplayInputs,
    *,
    player: str = "",
    analyse: bool = True,
    replayed: Replay | None = None,
    who: str = "ID",
) -> CheckReport:
    """Replay `inputs` and compare every period that has an official entry (`replayed`: the
    replay of `inputs` when the caller has it already; `who`: how a command names the
    player, in the commands that record an assumed fact)."""
    base = replay(inputs) if replayed is None else replayed
    ctx = Context(inputs, base)
    rows: list[CheckRow] = []
    for row in base.rows:
        entry = row.official
        if entry is None:
            continue
        kind = base.list_kinds.get(row.period)
        if _is_start(base, row):
            rows.append(_row(row, entry, START, (), (StartsHere(),), kind=kind))
            continue
        if _rating_matches(row, entry):
            rows.append(_row(row, entry, MATCH, (), _elo_notes(row), kind))
            continue
        causes = likely_causes(ctx, row) if analyse else ()
        rows.append(_row(row, entry, DIFFERS, causes, _elo_notes(row), kind))
    rows = _reanchor_notes(rows)
    pre = len(before_2008(base))
    return CheckReport(player, inputs.rating_list, tuple(rows), base.start_source, pre, who)


def _is_start(base: Replay, row: PeriodRow) -> bool:
    return (
        row.period == base.start
        and row.out is None
        and row.rating_before is None
        and (row.first is None)
    )


def _rating_matches(row: PeriodRow, entry: OfficialEntry) -> bool:
    return row.replayed == entry.rating


def _row(
    row: PeriodRow,
    entry: OfficialEntry,
    status: str,
    causes: Sequence[Cause],
    notes: Sequence[CheckNote],
    kind: ListKind | None = None,
) -> CheckRow:
    count_differs = entry.games is not None and entry.games != row.games
    best_first = ranked(causes, count_differs)
    return CheckRow(
        period=row.period,
        rating_list=row.rating_list,
        replayed=row.replayed,
        official=entry.rating,
        games=row.games,
        official_games=entry.games,
        k=row.k,
        official_k=row.facts.official_k,
        status=status,
        causes=best_first,
        notes=tuple(notes),
        assumptions=row.assumptions,
        official_source=entry.source,
        official_flag=entry.flag,
        list_assumed_games=list_assumed_games(row),
        not_counted=left_out(row),
        closing_dates=closing_dates(row),
        games_count=None if status == START else games_count(row, entry, best_first, kind),
        official_kind=None if entry.source == "manual" else kind,
    )


def _elo_notes(row: PeriodRow) -> tuple[TournamentNote, ...]:
    return tuple(TournamentNote(p.unit.label, p.note) for p in row.tournaments if p.note)


def _reanchor_notes(rows: list[CheckRow]) -> list[CheckRow]:
    out: list[CheckRow] = []
    for i, r in enumerate(rows):
        later = [x for x in rows[i + 1 :] if x.status != START]
        if r.status == DIFFERS and r.official is not None and later:
            note: ReanchorMatches | None = None
            if all(x.status == MATCH for x in later):
                note = ReanchorMatches(r.official, later=len(later))
            elif later[0].status == MATCH:
                note = ReanchorMatches(r.official, next_period=later[0].period)
            if note is not None:
                r = replace(r, notes=(*r.notes, note))
        out.append(r)
    return out
