"""The next list: the expected rating from the games since the last official list, by the
list expected to rate them, and the tournaments still open (`tracker next`)."""

from __future__ import annotations

from dataclasses import dataclass

from tracker.model import Period, PlayerRef, RatingList
from tracker.periods import PeriodRow, Replay
from tracker.reports.explain import ignored_lines
from tracker.reports.history import assumption_text, k_by_tournament
from tracker.reports.text import fmt_signed, plural, plural_points, unit_dates


@dataclass(frozen=True)
class NextReport:
    player: PlayerRef
    rating_list: RatingList
    last_official: Period | None
    last_rating: int | None
    rows: tuple[PeriodRow, ...]  # replayed periods after the last official list
    expected: int | None
    next_period: Period | None
    open: tuple[tuple[str, str], ...]  # (tournament, why it is still open)


OPEN_MARGIN_DAYS = 7
"""A tournament whose last round is this close to its list date may be reported late."""


def next_report(replay_: Replay, player: PlayerRef) -> NextReport:
    """The expected rating on the next list(s) from the games since the last official one."""
    anchors = [r for r in replay_.rows if r.anchored]
    last = anchors[-1] if anchors else None
    pending = tuple(
        r for r in replay_.rows if (last is None or r.period > last.period) and r.tournaments
    )
    expected = pending[-1].published if pending else (last.published if last else None)
    next_period = pending[-1].period if pending else None
    open_: list[tuple[str, str]] = []
    for r in pending:
        for plan in r.tournaments:
            u = plan.unit
            if u.pinned or u.end is None or u.period is None:
                continue
            margin = (u.period.list_date - u.end).days
            if margin <= OPEN_MARGIN_DAYS:
                open_.append(
                    (
                        u.label,
                        f"last round {u.end.isoformat()}, {margin} days before "
                        f"the {u.period} list: a late report lands it on a later list",
                    )
                )
    for n in replay_.unplaced:
        entry = (n.tournament, n.reason)
        if entry not in open_:
            open_.append(entry)
    return NextReport(
        player,
        replay_.rating_list,
        last.period if last else None,
        last.published if last else None,
        pending,
        expected,
        next_period,
        tuple(open_),
    )


def next_lines(rep: NextReport) -> list[str]:
    rl = rep.rating_list
    lines: list[str] = []
    if rep.last_official is not None:
        lines.append(f"Last official {rl} rating: {rep.last_rating} ({rep.last_official} list)")
    else:
        lines.append(
            f"No official {rl} rating recorded: the replay starts from the games "
            "(record one with `tracker official add`)."
        )
    if not rep.rows:
        lines.append("No games since then: the next list should show the same rating.")
        return lines
    lines.append("")
    lines.append("Games since then, by the list expected to rate them:")
    for r in rep.rows:
        before = "unrated" if r.rating_before is None else str(r.rating_before)
        after = "unrated" if r.published is None else str(r.published)
        change = fmt_signed(r.change) if r.change is not None else ""
        k = f" K {r.k}," if r.k is not None else ""
        if r.out is not None and r.out.k_by_tournament:
            k = f" K {r.k} ({k_by_tournament(r.out)}),"
        lines.append(
            f"  {r.period}: {before} -> {after} ({plural(r.games, 'game')}, "
            f"{plural_points(r.points)},{k} change {change or '0'})"
        )
        for plan in r.tournaments:
            lines.append(f"    {plan.unit.label} ({unit_dates(plan.unit)})")
        if r.first is not None:
            lines += ignored_lines(r.first, "    ", "ignored for the first rating")
        if r.source == "Elo tag" and r.tag_difference not in (None, 0):
            lines.append(
                f"    the list's rating is the player's own Elo tag {r.elo_tag} "
                "(a tournament that started under it)"
            )
        lines += [f"    {assumption_text(a, rep.player)}" for a in r.assumptions]
    lines.append("")
    final = "unrated" if rep.expected is None else str(rep.expected)
    lines.append(f"Expected {rl} rating on the {rep.next_period} list: {final}")
    if rep.open:
        lines.append("Still open:")
        lines += [f"  {name}: {why}" for name, why in rep.open]
    return lines
