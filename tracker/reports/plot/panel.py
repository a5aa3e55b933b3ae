"""One list in its panel of the rating chart (tracker.reports.plot): the step line of the
replayed rating, the replay's start, each period's point, the next list expected, the
official ratings and their gaps, the Elo tags re-anchored on, the tournaments; and what the
figure needs of a list (`values_of`, `days_of`: its y and x spans). Drawn on a matplotlib
Axes that tracker.reports.plot.figure lays out; the Agg backend is chosen by the package."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import matplotlib.dates as mdates
from matplotlib.axes import Axes

from tracker.model import RatingList
from tracker.reports.chart import ChartList, ChartPeriod, ChartTournament

COLORS: dict[str, str] = {
    RatingList.STANDARD: "#1f5fa8",
    RatingList.RAPID: "#d0741c",
    RatingList.BLITZ: "#3a8f3a",
}
GAP_COLOR = "#c0392b"
DENSE = 30  # a list with more points than this: smaller markers
BUSY = 16  # a list with more points than this: its last, highest and lowest values only


def date_x(day: dt.date) -> float:
    """A date as matplotlib's date number."""
    return float(mdates.date2num(day))  # type: ignore[no-untyped-call]


@dataclass(frozen=True)
class Value:
    """A value to write beside a point: lower priorities are written first."""

    priority: int
    x: float
    y: float
    text: str
    color: str
    ha: str
    va: str
    offset: tuple[float, float]
    weight: str


@dataclass
class Drawing:
    """What draw_chart collects while drawing: the hover texts and data attributes of the
    SVG groups, the values to write in the panel being drawn, the kinds of marks drawn (the
    legend's entries)."""

    titles: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)
    labels: list[Value] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)

    def group(self, artist: object, gid: str, title: str, **data: str) -> None:
        artist.set_gid(gid)  # type: ignore[attr-defined]
        self.titles[gid] = (title, data)

    def label(
        self,
        priority: int,
        x: float,
        y: float,
        text: str,
        *,
        color: str,
        ha: str = "left",
        va: str = "center",
        offset: tuple[float, float] = (0, 0),
        weight: str = "normal",
    ) -> None:
        self.labels.append(Value(priority, x, y, text, color, ha, va, offset, weight))


def _steps(cl: ChartList) -> tuple[list[float], list[float], list[tuple[ChartPeriod, float]]]:
    """The step line of a list (NaN breaks it where a jump is drawn on its own) and the
    re-anchoring jumps (a period and the rating the next period starts from)."""
    nan = float("nan")
    xs: list[float] = []
    ys: list[float] = []
    jumps: list[tuple[ChartPeriod, float]] = []
    level: float | None = None
    if cl.start is not None and not any(p.start for p in cl.periods):
        xs.append(date_x(cl.start.day))
        ys.append(cl.start.rating)
        level = cl.start.rating
    projected = cl.projection.period if cl.projection is not None else None
    for p in cl.points:
        assert p.rating is not None
        x = date_x(p.day)
        if level is not None:
            xs.append(x)
            ys.append(level)
        elif xs:
            xs.append(nan)
            ys.append(nan)
        if p.period == projected:
            # the dashed projection takes over from the level before it
            level = None if p.published is None else float(p.published)
            xs.append(nan)
            ys.append(nan)
            continue
        xs.append(x)
        ys.append(p.rating)
        level = float(p.published if p.published is not None else p.rating)
        if level != p.rating:
            jumps.append((p, level))
            xs.append(nan)
            ys.append(nan)
            xs.append(x)
            ys.append(level)
    return xs, ys, jumps


def tournaments_of(cl: ChartList) -> list[tuple[ChartPeriod, int, ChartTournament, int]]:
    """The tournaments drawn: each with its period, its index there and the rating it was
    played under. Those played toward a first rating (under no rating) and any before the
    line starts are left out: no line is there to put them on (the hover of the period that
    rated them names them)."""
    origin = min(
        (
            date_x(d)
            for d in (
                *((cl.start.day,) if cl.start is not None else ()),
                *(p.day for p in cl.points),
            )
        ),
        default=None,
    )
    out = []
    for p in cl.periods:
        for j, t in enumerate(p.tournaments):
            ro = t.ro if t.ro is not None else p.rating_before
            if ro is not None and origin is not None and date_x(t.day) >= origin:
                out.append((p, j, t, ro))
    return out


def values_of(cl: ChartList) -> list[int]:
    """Every rating a list's panel shows (its y axis spans them)."""
    values = [
        v for p in cl.periods for v in (p.rating, p.official, p.tag, p.published) if v is not None
    ]
    values += [ro for _, _, _, ro in tournaments_of(cl)]
    if cl.start is not None:
        values.append(cl.start.rating)
    if cl.projection is not None and cl.projection.expected is not None:
        values.append(cl.projection.expected)
    return values


def days_of(cl: ChartList) -> list[dt.date]:
    """Every date a list's panel shows (the shared x axis spans those of every list)."""
    return [
        *(p.day for p in cl.periods),
        *((cl.start.day,) if cl.start else ()),
        *(t.day for _, _, t, _ in tournaments_of(cl)),
    ]


@dataclass(frozen=True)
class _Look:
    """How a list's marks look: its colour, and smaller marks on a dense list (many
    points), fewer values written on a busy one."""

    color: str
    dense: bool
    busy: bool
    dot: float

    @classmethod
    def of(cls, cl: ChartList) -> _Look:
        dense = len(cl.points) > DENSE
        return cls(
            COLORS.get(cl.name, "#333333"), dense, len(cl.points) > BUSY, 2.6 if dense else 4.2
        )


def draw_list(ax: Axes, cl: ChartList, d: Drawing, stub: float) -> None:
    """One list in its panel, in drawing order (a later mark is drawn over an earlier one);
    on a busy list (many points) only its last value, its highest and its lowest are
    written. `stub`: the length of the dashed step to the next list (days)."""
    look = _Look.of(cl)
    xs, ys, jumps = _steps(cl)
    ax.plot(
        xs,
        ys,
        color=look.color,
        linewidth=1.3 if look.dense else 1.7,
        solid_joinstyle="miter",
        zorder=2,
    )
    if cl.start is not None:
        _draw_start(ax, cl, d, look)
    if len(xs) > 1:
        d.kinds.add("line")
    _draw_points(ax, cl, d, look, stub)
    _draw_officials(ax, cl, d, look)
    _draw_tags(ax, cl, jumps, d, look)
    _draw_tournaments(ax, cl, d, look)


def _draw_start(ax: Axes, cl: ChartList, d: Drawing, look: _Look) -> None:
    """The start of the replay: a square, with its value."""
    s = cl.start
    assert s is not None
    rl = cl.rating_list
    start_period = next((p for p in cl.periods if p.start), None)
    (line,) = ax.plot(
        [date_x(s.day)],
        [s.rating],
        linestyle="none",
        marker="s",
        markersize=look.dot + 2.5,
        markerfacecolor="white",
        markeredgecolor=look.color,
        markeredgewidth=1.4,
        zorder=4,
    )
    if start_period is not None:
        d.group(
            line,
            f"{cl.name}-period-{start_period.period}",
            start_period.describe(rl),
            period=str(start_period.period),
            list=cl.name,
            rating=str(start_period.rating),
        )
    else:
        d.group(
            line,
            f"{cl.name}-start",
            f"{rl}: the replay starts from {s.rating} ({s.what})",
            list=cl.name,
            start=str(s.rating),
        )
    d.label(
        0,
        date_x(s.day),
        s.rating,
        f"{s.rating}",
        color=look.color,
        ha="right",
        va="bottom",
        offset=(-4, 3),
    )
    d.kinds.add("start")


def _draw_points(ax: Axes, cl: ChartList, d: Drawing, look: _Look, stub: float) -> None:
    """The points of the periods (the start's is its square), each with its value where it
    matters (the last, the highest, the lowest first); the next list expected, dashed."""
    rl = cl.rating_list
    projected = cl.projection.period if cl.projection is not None else None
    points = [p for p in cl.points if not p.start]
    last = points[-1] if points else None
    rated = [p for p in points if p.period != projected]
    high = max(rated, key=lambda p: p.rating or 0) if rated else None
    low = min(rated, key=lambda p: p.rating or 0) if rated else None
    for p in points:
        assert p.rating is not None
        x = date_x(p.day)
        if p.period == projected and cl.projection is not None:
            _draw_projection(ax, cl, p, d, look, stub)
            continue
        (line,) = ax.plot(
            [x],
            [p.rating],
            linestyle="none",
            marker="o",
            markersize=look.dot,
            color=look.color,
            zorder=4,
        )
        d.group(
            line,
            f"{cl.name}-period-{p.period}",
            p.describe(rl),
            period=str(p.period),
            list=cl.name,
            rating=str(p.rating),
        )
        d.kinds.add("point")
        up = p.rating_before is None or p.rating >= p.rating_before
        priority = 3 if p is last else 4 if p is high or p is low else 9 if look.busy else 5
        if priority < 9:
            d.label(
                priority,
                x,
                p.rating,
                str(p.rating),
                color=look.color,
                ha="right",
                va="bottom" if up else "top",
                offset=(-3, 2 if up else -2),
            )


def _draw_projection(
    ax: Axes, cl: ChartList, p: ChartPeriod, d: Drawing, look: _Look, stub: float
) -> None:
    """The next list `tracker next` expects: a dashed step from the level before it, an open
    point, and its value "... expected"."""
    pr = cl.projection
    assert pr is not None and p.rating is not None
    x = date_x(p.day)
    y = float(pr.expected if pr.expected is not None else p.rating)
    before = y if pr.before is None else float(pr.before)
    ax.plot(
        [x, x, x + stub],
        [before, y, y],
        color=look.color,
        linestyle=(0, (4, 2.5)),
        linewidth=1.5,
        zorder=2,
    )
    (line,) = ax.plot(
        [x],
        [y],
        linestyle="none",
        marker="o",
        markersize=look.dot + 1.6,
        markerfacecolor="white",
        markeredgecolor=look.color,
        markeredgewidth=1.4,
        zorder=4,
    )
    d.group(
        line,
        f"{cl.name}-period-{p.period}",
        pr.describe(cl.rating_list) + "\n" + p.describe(cl.rating_list),
        period=str(p.period),
        list=cl.name,
        rating=str(p.rating),
        expected="yes",
    )
    d.label(0, x, y, f"{int(y)} expected", color=look.color, ha="left", va="bottom", offset=(4, 3))
    d.kinds.add("projection")


def _draw_officials(ax: Axes, cl: ChartList, d: Drawing, look: _Look) -> None:
    """The official ratings, diamonds with their values, and the gap to the replayed rating
    (a red segment with the difference)."""
    rl = cl.rating_list
    for p in cl.periods:
        if p.official is None or p.start:
            continue
        x = date_x(p.day)
        diff = p.difference
        (line,) = ax.plot(
            [x],
            [p.official],
            linestyle="none",
            marker="D",
            markersize=look.dot + 2.2,
            markerfacecolor="white",
            markeredgecolor=look.color,
            markeredgewidth=1.4,
            zorder=5,
        )
        said = "" if not diff else f"; replayed {p.rating} ({'+' if diff > 0 else ''}{diff})"
        d.group(
            line,
            f"{cl.name}-official-{p.period}",
            f"{rl} {p.period}: official {p.official}{said}",
            official=str(p.official),
            list=cl.name,
        )
        d.label(
            1,
            x,
            p.official,
            str(p.official),
            color=look.color,
            ha="left",
            va="bottom",
            offset=(4, 3),
            weight="bold",
        )
        d.kinds.add("official")
        if diff:
            assert p.rating is not None
            ax.plot([x, x], [p.rating, p.official], color=GAP_COLOR, linewidth=1.1, zorder=3)
            d.label(
                2,
                x,
                (p.rating + p.official) / 2,
                f"{'+' if diff > 0 else ''}{diff}",
                color=GAP_COLOR,
                ha="left",
                va="center",
                offset=(4, 0),
            )
            d.kinds.add("gap")


def _draw_tags(
    ax: Axes, cl: ChartList, jumps: list[tuple[ChartPeriod, float]], d: Drawing, look: _Look
) -> None:
    """The re-anchoring on own Elo tags (a dotted jump; on an official rating the gap says
    it) and the tags, crosses."""
    for p, level in jumps:
        if p.official is not None:
            continue
        x = date_x(p.day)
        assert p.rating is not None
        ax.plot([x, x], [p.rating, level], color=look.color, linewidth=0.9, linestyle=":", zorder=2)
    tagged = [(date_x(p.day), p.tag) for p in cl.periods if p.tag is not None]
    if tagged:
        ax.plot(
            [x for x, _ in tagged],
            [y for _, y in tagged],
            linestyle="none",
            marker="x",
            markersize=look.dot + 1.5,
            color=look.color,
            markeredgewidth=1.0,
            zorder=4,
        )
        d.kinds.add("tag")


def _draw_tournaments(ax: Axes, cl: ChartList, d: Drawing, look: _Look) -> None:
    """The tournaments, at the rating they were played under: up for a gain, down for a
    loss (a white edge: they sit on the line of their own colour and would melt into it)."""
    color = look.color
    small = 4.6 if look.dense else 6.2
    for p, j, t, ro in tournaments_of(cl):
        change = t.change or 0
        mark, kind = ("^", "gain") if change > 0 else ("v", "loss") if change < 0 else ("o", "even")
        even = kind == "even"
        (line,) = ax.plot(
            [date_x(t.day)],
            [ro],
            linestyle="none",
            marker=mark,
            markersize=small - (1.5 if even else 0.0),
            markerfacecolor="white" if even else color,
            markeredgecolor=color if even else "white",
            markeredgewidth=0.9 if even else 0.6,
            alpha=0.85,
            zorder=3,
        )
        d.group(
            line,
            f"{cl.name}-tournament-{p.period}-{j}",
            t.describe(p.period),
            tournament=str(p.period),
            list=cl.name,
        )
        d.kinds.add(f"tournament-{kind}")
