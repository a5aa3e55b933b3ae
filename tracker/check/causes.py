"""`likely_causes`: every analysis of one difference, ranked by evidence (`Cause.rank_key`);
here too the pre-2008 era, the Ro of the player's own Elo tag, and the unexplained rest."""

from __future__ import annotations

from dataclasses import replace

from tracker.advice import SetRo
from tracker.check.context import Context, before_2008, reproduced
from tracker.check.games import closing_date_causes, games_extra_causes, games_missing_causes
from tracker.check.report import (
    ELO_TAG,
    PRE_2008,
    UNEXPLAINED,
    Before2008,
    Cause,
    RoFromTag,
    Unexplained,
    ranked,
)
from tracker.check.rules import base_correction_causes, cap_causes, k_causes, rounding_causes
from tracker.fide.editions import FIRST_DATE
from tracker.model import OfficialEntry
from tracker.periods import PeriodRow


def likely_causes(ctx: Context, row: PeriodRow) -> list[Cause]:
    """The likely causes of the difference in `row`, ranked (best first)."""
    entry = row.official
    assert entry is not None
    if row.period.list_date < FIRST_DATE:
        return [_pre_2008(ctx, row, entry)]
    causes: list[Cause] = []
    ours = row.games
    theirs = entry.games
    if theirs is not None and theirs > ours:
        causes += games_missing_causes(ctx, row, entry, theirs - ours)
    elif theirs is not None and theirs < ours:
        causes += games_extra_causes(ctx, row, entry, ours - theirs)
    # the closing-date rule undone (FIDE's game count unknown, or the counts' analyses
    # did not pin that tournament)
    pinned = {c.advice for c in causes}
    causes += [c for c in closing_date_causes(ctx, row, entry) if c.advice not in pinned]
    if row.out is not None and row.rating_before is not None:
        causes += k_causes(row, entry)
        causes += cap_causes(row, entry)
        causes += rounding_causes(row, entry)
    causes += _elo_tag(ctx, row, entry)
    causes += base_correction_causes(row, entry)
    if not any(c.reproduces for c in causes):
        said = Unexplained(row.period, entry.rating, len(row.tournaments))
        causes.append(Cause(UNEXPLAINED, reproduces=False, said=said))
    return list(ranked(causes, theirs is not None and theirs != ours))


def _pre_2008(ctx: Context, row: PeriodRow, entry: OfficialEntry) -> Cause:
    said = Before2008(row.period, entry.rating, len(before_2008(ctx.base)))
    return Cause(PRE_2008, reproduces=False, said=said)


def _elo_tag(ctx: Context, row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    causes: list[Cause] = []
    for plan in row.tournaments:
        tag = plan.elo_tag
        if tag is None or plan.ro is None or tag == plan.ro:
            continue
        t = ctx.tournament(plan.unit.tournament.id)
        rep = ctx.rerun(tournaments=[replace(t, ro=tag)])
        ok = reproduced(rep, row.period, entry)
        got = rep.row(row.period)
        rating = got.replayed if got else None
        said = RoFromTag(plan.unit.label, plan.ro, plan.ro_source, plan.ro_list, tag, rating)
        causes.append(
            Cause(
                ELO_TAG,
                reproduces=ok,
                games_match=ok and entry.games is not None,
                advice=(SetRo(t.id, tag),) if ok else (),
                said=said,
            )
        )
    return causes
