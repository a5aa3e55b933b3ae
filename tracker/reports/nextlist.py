"""The next list: the expected rating from the games since the last official list, by the
list expected to rate them, and the tournaments still open (`tracker next`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from tracker.advice import AddOfficial, SetTournamentList
from tracker.model import Period, PlayerRef, RatingList
from tracker.periods import NotCountedWhy, PeriodRow, RatingSource, Replay
from tracker.periods.assumed import list_assumed_games
from tracker.periods.notes import ReanchoredOnTag
from tracker.reports.explain import ignored_lines
from tracker.reports.history import assumption_text, k_by_tournament, not_counted_text
from tracker.reports.said import command_line
from tracker.reports.text import fmt_signed, months_text, plural, plural_points, unit_dates
from tracker.reports.words import (
    before_text,
    closing_texts,
    command,
    not_counted_counts,
    reason_text,
    tag_anchor_text,
    why_text,
)


@dataclass(frozen=True)
class NextReport:
    player: PlayerRef
    rating_list: RatingList
    last_official: Period | None
    last_rating: int | None
    rows: tuple[PeriodRow, ...]  # replayed periods after the last official list
    expected: int | None
    next_period: Period | None
    open: tuple[tuple[str, str], ...]  # (tournament, why it is still open for the next list)
    # (tournament, why) of the earlier lists since the last official one: ended close to
    # their list's closing date, so FIDE may have rated them a list later
    earlier: tuple[tuple[str, str], ...] = ()
    # no rating of this list to start from: the tags of the player's events of the list were
    # the standard rating (policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD), none came since
    waiting: bool = False
    # each open item's reason with its tournament's id as ID: what items of one kind share
    shared: tuple[str, ...] = ()
    # the lists since the last official one without a tournament of the player's that
    # re-anchor the rating on an Elo tag (the next list starts from the tag): the rows
    # above do not show them, and the rating jumps between two of those rows
    reanchors: tuple[tuple[Period, ReanchoredOnTag], ...] = ()


OPEN_MARGIN_DAYS = 7
"""A tournament whose last round is this close to its list date may be reported late."""

DETAIL_LISTS = 3
"""`next` shows this many of the last lists with games since the official one in full
(tournaments and all), and the lists after them; when there are more than twice this many,
the lists before them are summed up in one line (`tracker history` shows each)."""

OPEN_LINES = 8
"""`next` names at most this many open items one by one; kinds of three or more items
that share a reason are one line each, the rest summed up (JSON lists them all)."""

FUTURE_MONTHS = 2
"""A next list more than this many months after today is flagged: its games are dated in
the future (a Date tag's typo, or a schedule imported before the games were played)."""


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
    shared: list[str] = []
    earlier: list[tuple[str, str]] = []
    for r in pending:
        for plan in r.tournaments:
            u = plan.unit
            if u.pinned or u.end is None or u.period is None:
                continue
            margin = (u.period.list_date - u.end).days
            if margin <= OPEN_MARGIN_DAYS:
                why = (
                    f"last round {u.end.isoformat()}, {margin} days before "
                    f"the {u.period} list: a late report lands it on a later list"
                )
                if r.period == next_period:
                    open_.append((u.label, why))
                    shared.append(why)
                else:
                    earlier.append((u.label, why))
    reanchors = tuple(
        (r.period, n)
        for r in replay_.rows
        if (last is None or r.period > last.period) and not r.tournaments
        for n in r.notes
        if isinstance(n, ReanchoredOnTag)
    )
    for n in replay_.unplaced:
        if n.why is NotCountedWhy.EXCLUDED:
            continue  # the user set it aside: nothing open
        entry = (n.tournament, why_text(n))
        if entry not in open_:
            open_.append(entry)
            shared.append(reason_text(n.why, n.detail, any_id=True))
    return NextReport(
        player,
        replay_.rating_list,
        last.period if last else None,
        last.published if last else None,
        pending,
        expected,
        next_period,
        tuple(open_),
        tuple(earlier),
        replay_.start_source.source is RatingSource.WAITING and expected is None,
        tuple(shared),
        reanchors,
    )


def _months(a: dt.date, b: dt.date) -> int:
    """Whole months from `a` to `b` (negative when `b` is earlier)."""
    return (b.year - a.year) * 12 + b.month - a.month - (1 if b.day < a.day else 0)


def future_text(period: Period, today: dt.date) -> str | None:
    """ "N months away: games are dated after today ..." for a list more than FUTURE_MONTHS
    after `today`; None for a nearer one."""
    months = _months(today, period.list_date)
    if months <= FUTURE_MONTHS:
        return None
    return (
        f"{months_text(months)} away: games are dated after today ({today.isoformat()}); check "
        "their Date tags."
    )


def open_groups(rep: NextReport) -> list[tuple[str, list[str]]]:
    """The open items as (reason, tournaments), in order: three or more items that share a
    reason (a tournament's id in the command that settles it aside: `NextReport.shared`) are
    one group, the others one group an item."""
    shared: dict[str, list[tuple[str, str]]] = {}
    for (name, why), key in zip(rep.open, rep.shared, strict=True):
        shared.setdefault(key, []).append((name, why))
    out: list[tuple[str, list[str]]] = []
    for why, group in shared.items():
        if len(group) >= 3:
            out.append((why, [name for name, _ in group]))
        else:
            out += [(w, [name]) for name, w in group]
    return out


def _period_line(r: PeriodRow) -> str:
    before = "unrated" if r.rating_before is None else str(r.rating_before)
    after = "unrated" if r.published is None else str(r.published)
    change = fmt_signed(r.change) if r.change is not None else ""
    k = f" K {r.k}," if r.k is not None else ""
    if r.out is not None and r.out.k_by_tournament:
        k = f" K {r.k} ({k_by_tournament(r.out)}),"
    return (
        f"  {r.period}: {before} -> {after} ({plural(r.games, 'game')}, "
        f"{plural_points(r.points)},{k} change {change or '0'})"
    )


def next_lines(rep: NextReport, today: dt.date | None = None) -> list[str]:
    """`tracker next` as text: the last official rating, the lists since it (the last
    DETAIL_LISTS in full), the expected rating and how far that list is from `today`, and
    what is still open for it, each kind of thing left out summed up in a line."""
    lines = [_official_line(rep, today)]
    if not rep.rows:
        return lines + _no_games_lines(rep, today)
    lines.append("")
    first = rep.rows[0]
    if first.rating_before is not None and first.rating_before != rep.last_rating:
        lines.append(
            f"The replay starts from {first.rating_before} "
            f"({before_text(first.rating_before_source)})"
            + ("." if rep.last_rating is None else f", not from the official {rep.last_rating}.")
        )
    detail, summed = _split_rows(rep.rows)
    if summed:
        lines += _summed_lines(rep, summed)
    else:
        lines.append("Games since then, by the list expected to rate them:")
    shown = summed[-1].period if summed else None
    for r in detail:
        lines += [
            _reanchor_line(p, n)
            for p, n in rep.reanchors
            if (shown is None or p > shown) and p < r.period
        ]
        lines += _detail_lines(rep, r)
        shown = r.period
    lines += _summed_notes(rep, summed)
    lines.append("")
    lines += _expected_lines(rep, today)
    lines += _open_lines(rep)
    return lines


def _official_line(rep: NextReport, today: dt.date | None) -> str:
    """The last official rating (and how long ago, past a year), or why there is none."""
    rl = rep.rating_list
    if rep.last_official is not None:
        line = f"Last official {rl} rating: {rep.last_rating} ({rep.last_official} list)"
        if today is not None:
            months = _months(rep.last_official.list_date, today)
            if months >= 12:
                line += f", {months_text(months)} ago"
        return line
    if rep.waiting:
        return (
            f"No official {rl} rating recorded, and no Elo tag that is one (the tags of the "
            f"player's {rl} events are the standard rating): the {rl} history waits for an "
            f"official rating ({command(AddOfficial(rl), rep.player.command_name).quoted()})."
        )
    return (
        f"No official {rl} rating recorded: the replay starts from the games "
        f"(record one with {command_line('official', 'add').quoted()})."
    )


def _no_games_lines(rep: NextReport, today: dt.date | None) -> list[str]:
    """No games since the last official list: the same rating next, and, a year on, the
    advice to record the lists FIDE has published since."""
    lines = ["No games since then: the next list should show the same rating."]
    if (
        today is not None
        and rep.last_official is not None
        and _months(rep.last_official.list_date, today) >= 12
    ):
        lines.append(
            "  FIDE has published lists since: record the latest with "
            f"{command(AddOfficial(), rep.player.command_name).quoted()} "
            f"or import it ({command_line('official', 'import', 'FILE').quoted()})."
        )
    return lines


def _split_rows(rows: Sequence[PeriodRow]) -> tuple[Sequence[PeriodRow], Sequence[PeriodRow]]:
    """The lists shown in full (the last DETAIL_LISTS with games, and those after them) and
    the lists before them, summed up when there are more than twice DETAIL_LISTS."""
    rated = [i for i, r in enumerate(rows) if r.games]
    cut = rated[-DETAIL_LISTS] if len(rated) >= DETAIL_LISTS else 0
    cut = 0 if len(rows) <= 2 * DETAIL_LISTS else max(cut, len(rows) - 2 * DETAIL_LISTS)
    return rows[cut:], rows[:cut]


def _summed_lines(rep: NextReport, summed: Sequence[PeriodRow]) -> list[str]:
    """The games since the last official list, and the lists summed up in one line."""
    rl = rep.rating_list
    games = sum(r.games for r in rep.rows)
    s_games = sum(r.games for r in summed)
    before = "unrated" if summed[0].rating_before is None else str(summed[0].rating_before)
    after = "unrated" if summed[-1].published is None else str(summed[-1].published)
    return [
        f"Games since then: {plural(games, 'game')} on {len(rep.rows)} lists "
        f"({rep.rows[0].period} to {rep.rows[-1].period}).",
        f"  {summed[0].period} to {summed[-1].period}: {before} -> {after} "
        f"({len(summed)} lists, {plural(s_games, 'game')}; each in "
        f"{command_line('history', '--list', rl, '--from', summed[0].period).quoted()})",
    ]


def _reanchor_line(period: Period, n: ReanchoredOnTag) -> str:
    """A list without games that re-anchors the rating on the player's Elo tag: where the
    rating the next list starts from comes from."""
    replayed = "unrated" if n.replayed is None else str(n.replayed)
    return (
        f"  {period}: {replayed} -> {n.tag}, re-anchored on the player's Elo tag {n.tag} in "
        f"{', '.join(n.tournaments)} (no games on this list)"
    )


def _detail_lines(rep: NextReport, r: PeriodRow) -> list[str]:
    """One list shown in full: its change, its tournaments, and what it assumed or left
    out."""
    if not r.games and r.out is None and r.first is None:
        labels = ", ".join(p.unit.label for p in r.tournaments)
        why = not_counted_text(r) or "no game counted"
        return [f"  {r.period}: {why} ({labels})"]
    lines = [_period_line(r)]
    for plan in r.tournaments:
        lines.append(f"    {plan.unit.label} ({unit_dates(plan.unit)})")
    if r.first is not None:
        lines += ignored_lines(r.first, "    ", "ignored for the first rating")
    fast_tag = tag_anchor_text(r)
    if fast_tag is not None:
        lines.append(f"    {fast_tag}")
    elif r.source is RatingSource.ELO_TAG and r.tag_difference not in (None, 0):
        lines.append(
            f"    the list's rating is the player's own Elo tag {r.elo_tag} "
            "(a tournament that started under it)"
        )
    lines += [f"    {assumption_text(a, rep.player)}" for a in r.assumptions]
    assumed_list = list_assumed_games(r)
    if assumed_list:
        lines.append(
            f"    list assumed: {plural(assumed_list, 'game')} without a time control "
            f"({command(SetTournamentList()).quoted()} corrects a tournament)"
        )
    if r.not_counted:
        lines.append(f"    {not_counted_text(r)}")
    lines += [f"    period assumed: {x}" for x in closing_texts(r)]
    return lines


def _summed_notes(rep: NextReport, summed: Sequence[PeriodRow]) -> list[str]:
    """What the lists summed up assumed, left out or re-anchored on, counted."""
    lines: list[str] = []
    if summed:
        s_assumed = sum(list_assumed_games(r) for r in summed)
        s_skipped = sum(n for r in summed for _, n in not_counted_counts(r))
        s_closing = sum(len(closing_texts(r)) for r in summed)
        said = [
            f"{plural(s_assumed, 'game')} on their list by assumption (no time control)"
            if s_assumed
            else "",
            f"{plural(s_skipped, 'game')} not counted" if s_skipped else "",
            f"{plural(s_closing, 'tournament')} on a list by the closing date, assumed"
            if s_closing
            else "",
        ]
        if any(said):
            lines.append(
                "  in the lists summed up: " + "; ".join(x for x in said if x) + " (history "
                "says which)"
            )
    tagged = sorted(
        [
            r.period
            for r in summed
            if r.source is RatingSource.ELO_TAG and r.tag_difference not in (None, 0)
        ]
        + [p for p, _ in rep.reanchors if summed and p < summed[-1].period]
    )
    assumed = {assumption_text(a, rep.player) for r in summed for a in r.assumptions}
    if tagged:
        lines.append(
            f"  re-anchored on the player's own Elo tag on {plural(len(tagged), 'earlier list')}"
            f" ({', '.join(str(p) for p in tagged[:4])}"
            + (", ..." if len(tagged) > 4 else "")
            + ")"
        )
    lines += [f"  earlier lists: {a}" for a in sorted(assumed)]
    return lines


def _expected_lines(rep: NextReport, today: dt.date | None) -> list[str]:
    """The expected rating on the next list, and whether that list is out already or far
    ahead of `today`."""
    final = "unrated" if rep.expected is None else str(rep.expected)
    lines = [f"Expected {rep.rating_list} rating on the {rep.next_period} list: {final}"]
    if today is not None and rep.next_period is not None:
        ago = _months(rep.next_period.list_date, today)
        ahead = future_text(rep.next_period, today)
        if rep.next_period.list_date <= today:
            lines.append(
                f"  That list was published {months_text(ago) + ' ago' if ago > 0 else 'already'}"
                ": its rating is FIDE's to read (record it with "
                f"{command(AddOfficial(period=rep.next_period), rep.player.command_name).quoted()}"
                ", or import the list)."
            )
        elif ahead is not None:
            lines.append(f"  That list is {ahead}")
    return lines


def _open_lines(rep: NextReport) -> list[str]:
    """What is still open for the next list (at most OPEN_LINES lines), and the tournaments
    of earlier lists that may have been rated a list later."""
    lines: list[str] = []
    groups = open_groups(rep)
    if groups:
        lines.append("Still open:")
        for why, names in groups[:OPEN_LINES]:
            if len(names) == 1:
                lines.append(f"  {names[0]}: {why}")
            else:
                more = ", ..." if len(names) > 3 else ""
                lines.append(f"  {len(names)} tournaments: {why} ({', '.join(names[:3])}{more})")
        rest = groups[OPEN_LINES:]
        if rest:
            n = sum(len(names) for _, names in rest)
            lines.append(
                f"  and {plural(n, 'tournament')} more "
                f"({command_line('next', '--format', 'json').quoted()} lists them all)"
            )
    if rep.earlier:
        lines.append(
            f"Left out: {plural(len(rep.earlier), 'tournament')} of the earlier lists ended "
            f"{OPEN_MARGIN_DAYS} days or less before their list: FIDE may have rated them a "
            f"list later ({command_line('check').quoted()} compares with the lists)."
        )
    return lines
