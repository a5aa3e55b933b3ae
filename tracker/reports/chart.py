"""What the rating chart draws, as plain values: one model for `tracker plot`, `tracker demo`
and the season report (no matplotlib here: tracker.reports.plot draws it, the report inlines that).

A `ChartList` per list holds one `ChartPeriod` per period of the replay (the rating before and
after, the change, the games and their tournaments, the official rating and the player's own
Elo tag the next period starts from), the point the replay starts from (`ChartStart`: the
official rating or the Elo tag it took) and the next-list projection (`Projection`: what
`tracker next` expects on the next list, beyond the last official one). `Chart` adds the
title and the footnote of what the numbers assume.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from tracker.app.histories import PlayerHistory
from tracker.model import Period, PlayerRef, RatingList
from tracker.periods import PeriodRow, RatingSource, Replay, previous_list
from tracker.reports import (
    fmt_points,
    fmt_signed,
    next_report,
    plural,
    tournament_figures,
)
from tracker.reports.said import command_line
from tracker.reports.words import assumed_text, before_text, tag_anchor_text

_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    r"""`text` with every control character (newline included), C1 code and bidi override
    written as an escape (`\x1b`, `\u202e`): a name from a PGN file shown on a chart or in a
    page can neither break the file (XML allows no C0 control) nor reorder what follows."""

    def escape(found: re.Match[str]) -> str:
        code = ord(found.group())
        return f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}"

    return _CONTROLS.sub(escape, text)


@dataclass(frozen=True)
class ChartTournament:
    """A tournament of a period: drawn at its first day, at the rating it was played under."""

    name: str
    start: dt.date | None
    end: dt.date | None
    day: dt.date  # where it is drawn: the first round (else the last, else the list date)
    ro: int | None  # the rating it was played under (None: toward a first rating)
    games: int  # the games that counted
    points: Fraction
    change: int | None  # its K x chg rounded on its own (None: pooled toward a first rating)

    @property
    def dates(self) -> str:
        s = self.start.isoformat() if self.start else "?"
        e = self.end.isoformat() if self.end else "?"
        return s if s == e else f"{s} to {e}"

    def describe(self, period: Period) -> str:
        """One line for a hover: name, dates, games, points, change, the list that rates it."""
        change = "" if self.change is None else f", change {fmt_signed(self.change) or '0'}"
        return (
            f"{visible(self.name)} ({self.dates}): {plural(self.games, 'game')}, "
            f"{fmt_points(self.points)} points{change}; rated on the {period} list"
        )


@dataclass(frozen=True)
class ChartPeriod:
    """One period of a list: the replayed rating on its list and what made it."""

    period: Period
    day: dt.date  # the list date
    rating_before: int | None
    rating: int | None  # the replayed rating on this list (None: unrated)
    published: int | None  # what the next period starts from (the official or a tag)
    change: int | None
    games: int
    points: Fraction
    tournaments: tuple[ChartTournament, ...]
    official: int | None
    tag: int | None  # the player's own Elo tag the next period starts from (no official)
    start: bool  # the replay's starting official rating (no game rated here)
    assumed: bool  # K rested on a fact nobody recorded
    # rapid and blitz: the tag and the event that printed it (`words.tag_anchor_text`)
    tag_said: str | None = None

    @property
    def difference(self) -> int | None:
        """Replayed minus official (None without both)."""
        if self.rating is None or self.official is None or self.start:
            return None
        return self.rating - self.official

    def describe(self, rating_list: RatingList) -> str:
        """The hover text: period, rating, change, games, official, tournaments."""
        rating = "unrated" if self.rating is None else str(self.rating)
        if self.start:
            head = f"{rating_list} {self.period}: {rating} (official, the replay starts here)"
        else:
            change = fmt_signed(self.change) or "0" if self.change is not None else ""
            before = "unrated" if self.rating_before is None else str(self.rating_before)
            head = (
                f"{rating_list} {self.period}: {rating} ({before} {change}, "
                f"{plural(self.games, 'game')}, {fmt_points(self.points)} points)"
                if change
                else f"{rating_list} {self.period}: {rating}"
            )
        lines = [head]
        if self.official is not None and not self.start:
            diff = self.difference
            lines.append(
                f"official {self.official}"
                + ("" if not diff else f" (replayed {fmt_signed(diff)})")
            )
        if self.tag is not None:
            said = f" ({self.tag_said})" if self.tag_said else ""
            lines.append(f"own Elo tag {self.tag}: the next period starts from it{said}")
        if self.assumed:
            lines.append(f"K assumed ({command_line('history')} says which fact)")
        lines += [f"- {t.describe(self.period)}" for t in self.tournaments]
        return "\n".join(lines)


@dataclass(frozen=True)
class ChartStart:
    """The rating the replay starts from, drawn at the list it belongs to."""

    day: dt.date
    rating: int
    what: str  # "official 2025-09 list", "Elo tag in Znojmo Rapid 2025"...


@dataclass(frozen=True)
class Projection:
    """The next list as `tracker next` expects it: a step from `before` to `expected`."""

    period: Period
    day: dt.date
    before: int | None
    expected: int | None
    since: Period | None  # the last official list (None: none recorded)

    def describe(self, rating_list: RatingList) -> str:
        expected = "unrated" if self.expected is None else str(self.expected)
        since = (
            "no official rating recorded"
            if self.since is None
            else f"from the games since the {self.since} list"
        )
        return f"{rating_list}: expected {expected} on the {self.period} list ({since})"


@dataclass(frozen=True)
class ChartList:
    rating_list: RatingList
    periods: tuple[ChartPeriod, ...]
    start: ChartStart | None
    projection: Projection | None

    @property
    def name(self) -> str:
        return str(self.rating_list)

    @property
    def points(self) -> tuple[ChartPeriod, ...]:
        """The periods drawn as points (those with a rating)."""
        return tuple(p for p in self.periods if p.rating is not None)


@dataclass(frozen=True)
class Chart:
    title: str
    lists: tuple[ChartList, ...]
    footnote: str = ""

    @property
    def drawn(self) -> tuple[ChartList, ...]:
        """The lists with something to draw."""
        return tuple(
            c
            for c in self.lists
            if c.points or c.start is not None or any(p.official for p in c.periods)
        )


def _is_start(row: PeriodRow) -> bool:
    return row.rating_before is None and row.out is None and row.first is None and row.anchored


def _tournaments(row: PeriodRow) -> tuple[ChartTournament, ...]:
    out: list[ChartTournament] = []
    for plan in row.tournaments:
        if not plan.counted:
            continue  # nothing of it counted (online, excluded...)
        u = plan.unit
        fig = tournament_figures(plan, row)
        out.append(
            ChartTournament(
                u.label,
                u.start,
                u.end,
                u.start or u.end or row.period.list_date,
                plan.ro,
                fig.games,
                fig.points,
                fig.change,
            )
        )
    return tuple(out)


def chart_period(row: PeriodRow) -> ChartPeriod:
    start = _is_start(row)
    rating = row.published if start else row.replayed
    tag = row.elo_tag if row.source is RatingSource.ELO_TAG else None
    return ChartPeriod(
        period=row.period,
        day=row.period.list_date,
        rating_before=row.rating_before,
        rating=rating,
        published=row.published,
        change=row.change,
        games=row.games,
        points=row.points,
        tournaments=_tournaments(row),
        official=row.official_rating,
        tag=tag,
        start=start,
        assumed=bool(row.assumptions),
        tag_said=tag_anchor_text(row),
    )


def chart_start(replay_: Replay) -> ChartStart | None:
    """Where the replay starts: its first official rating (a row of its own), else the
    rating before its first period (an Elo tag, a standard rating) at the list before."""
    if not replay_.rows:
        return None
    first = replay_.rows[0]
    if _is_start(first) and first.official_rating is not None:
        return ChartStart(
            first.period.list_date, first.official_rating, f"official {first.period} list"
        )
    if first.rating_before is None:
        return None  # unrated: the line starts at the first rating
    before = previous_list(first.period, replay_.rating_list)
    day = before.list_date if before is not None else first.period.prev().list_date
    return ChartStart(day, first.rating_before, visible(before_text(first.rating_before_source)))


def chart_projection(replay_: Replay, player: PlayerRef) -> Projection | None:
    """The next list `tracker next` expects (None when no game came after the last
    official list)."""
    rep = next_report(replay_, player)
    if rep.next_period is None or not rep.rows:
        return None
    row = replay_.row(rep.next_period)
    before = None if row is None else row.rating_before
    return Projection(
        rep.next_period, rep.next_period.list_date, before, rep.expected, rep.last_official
    )


def chart_list(replay_: Replay, player: PlayerRef) -> ChartList:
    return ChartList(
        replay_.rating_list,
        tuple(chart_period(r) for r in replay_.rows),
        chart_start(replay_),
        chart_projection(replay_, player),
    )


def chart_footnote(replays: Iterable[Replay]) -> str:
    """What the chart's numbers assume, in one line ("" when nothing)."""
    parts: list[str] = []
    for rp in replays:
        facts: dict[str, int] = {}
        for r in rp.rows:
            for a in r.assumptions:
                what = assumed_text(a)
                facts[what] = facts.get(what, 0) + 1
        parts += [
            f"{rp.rating_list}: K assumes {what} in {plural(n, 'period')}"
            for what, n in facts.items()
        ]
        tagged = sum(1 for r in rp.rows if r.source is RatingSource.ELO_TAG)
        if tagged:
            parts.append(
                f"{rp.rating_list}: {plural(tagged, 'list')} re-anchored on the "
                "player's own Elo tag"
            )
    where = f" ({command_line('history')} says where)"
    return ("Assumed: " + "; ".join(parts) + where) if parts else ""


def replayed_title(player: PlayerRef, what: str) -> str:
    """A chart's title: the player's name and `what` is drawn, said to be the tracker's
    replay and not the list FIDE published."""
    return f"{visible(player.name)}: replayed {what} (tracker), not FIDE's published list"


def chart_model(history: PlayerHistory, lists: Iterable[RatingList] | None = None) -> Chart:
    """The chart of a player's history: every list replayed (or those of `lists`), in the
    order of RatingList (standard first)."""
    wanted = set(history.replays) if lists is None else set(lists)
    replays = [history.replays[rl] for rl in RatingList if rl in wanted and rl in history.replays]
    return Chart(
        replayed_title(history.player, "FIDE rating history"),
        tuple(chart_list(rp, history.player) for rp in replays),
        chart_footnote(replays),
    )
