"""The rating chart (the only module that imports matplotlib; Agg backend).

`draw_chart(chart)` draws a `tracker.reports.chart.Chart` as small multiples: one panel per
list, stacked, each with its own y scale (a rapid line far from the standard one does not
squash it), one shared time axis. In each panel: the replayed rating as a step line (a step
at every list), its starting point, the official ratings as diamonds with their values, the
player's own Elo tags the replay re-anchored on, the tournaments (up for a gain, down for a
loss) at the rating they were played under, the gap between a replayed and an official
rating as a red segment with the difference, and the next list `tracker next` expects as a
dashed step. A y axis spans at least MIN_SPAN points (a 12-point drop stays small); the
legend, outside the panels, names every marker drawn; values are written only where their
drawn boxes cover no other value. `plot_history(chart, output)` writes PNG or SVG by the
file suffix; in SVG each period's point, tournament and official rating is a group with a
`<title>` (shown on hover) and `data-` attributes. The output is deterministic for the same
input (no timestamps in the file).
"""

from __future__ import annotations

import datetime as dt
import html
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates  # noqa: E402
import matplotlib.patheffects as effects  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.text import Annotation  # noqa: E402
from matplotlib.ticker import FixedLocator, MaxNLocator, NullLocator  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402
from matplotlib.typing import LineStyleType  # noqa: E402

from tracker.errors import BadInput, TrackerError  # noqa: E402
from tracker.files.outputs import resolve_output, write_atomic  # noqa: E402
from tracker.model import Period, RatingList  # noqa: E402
from tracker.reports.chart import (  # noqa: E402
    Chart,
    ChartList,
    ChartPeriod,
    ChartTournament,
)

FORMATS = {".png": "png", ".svg": "svg"}
COLORS: dict[str, str] = {
    RatingList.STANDARD: "#1f5fa8",
    RatingList.RAPID: "#d0741c",
    RatingList.BLITZ: "#3a8f3a",
}
GAP_COLOR = "#c0392b"
MARK_COLOR = "#555555"  # the legend's markers that stand for every list


@dataclass(frozen=True)
class Series:
    """One list's points as plain pairs: (list date, replayed rating), (list date, official
    rating) and the own Elo tags; `chart_of` makes a Chart of them (for callers and tests
    that have only points)."""

    name: str
    replayed: Sequence[tuple[dt.date, int]]
    official: Sequence[tuple[dt.date, int]]
    tags: Sequence[tuple[dt.date, int]] = ()


def chart_of(series: Sequence[Series], title: str, footnote: str = "") -> Chart:
    """A Chart of plain points: one period per date, nothing else known."""
    lists = []
    for s in series:
        days = sorted({d for d, _ in (*s.replayed, *s.official, *s.tags)})
        rated, official, tags = dict(s.replayed), dict(s.official), dict(s.tags)
        periods = tuple(
            ChartPeriod(
                period=Period.of(d),
                day=d,
                rating_before=None,
                rating=rated.get(d),
                published=tags.get(d, official.get(d, rated.get(d))),
                change=None,
                games=0,
                points=Fraction(0),
                tournaments=(),
                official=official.get(d),
                tag=tags.get(d),
                start=False,
                assumed=False,
            )
            for d in days
        )
        lists.append(ChartList(RatingList.parse(s.name), periods, None, None))
    return Chart(title, tuple(lists), footnote)


MAX_TICKS = 12
TICK_STEPS = (1, 2, 3, 4, 6, 12, 24, 36, 60, 120)  # months between two x labels
MARGIN_DAYS = 20  # room left and right of the first and last list
MIN_SPAN = 100  # the y axis spans at least this many rating points
DENSE = 30  # a list with more points than this: smaller markers
BUSY = 16  # a list with more points than this: its last, highest and lowest values only
DPI = 100
# The layout, in inches: the panels at the left, the legend at the right of them.
WIDTH = 10.0
LEFT, PANEL_WIDTH = 0.72, 6.95
SINGLE = 3.9  # the height of the panel of a chart of one list
PANEL = 2.05  # the height of each panel of a chart of several lists
TITLE_ROOM = 0.62  # above the first panel: the chart's title and the panel's name
GAP = 0.34  # between two panels: the x axis they share, the next panel's name
BOTTOM = 0.82  # below the last panel: the x labels
FOOTNOTE_ROOM = 0.42  # below that, the footnote (when there is one)
FONT = 7.0  # points, the values written beside the points
LABEL_PAD = 1.0  # pixels kept free around a value written
EXPECTED_ROOM = 84  # pixels right of the next list's point: its value "1880 expected"
HALO = [effects.withStroke(linewidth=2.2, foreground="white")]  # values readable over lines


def _month(day: dt.date) -> int:
    return day.year * 12 + day.month - 1


def month_ticks(first: dt.date, last: dt.date) -> list[dt.date]:
    """The list months to label from `first` to `last`: every month on a short span, else
    every 2, 3, 4 or 6 months, every year or every few years (months aligned on the year, so
    that the labels read 2024-01, 2024-07...), at most MAX_TICKS of them, never one twice."""
    a, b = _month(first), _month(last)
    for step in TICK_STEPS:
        months = range(-(-a // step) * step, b + 1, step)
        if len(months) <= MAX_TICKS:
            break
    return [dt.date(m // 12, m % 12 + 1, 1) for m in months]


def y_limits(values: Sequence[int]) -> tuple[float, float]:
    """The y axis around `values`: a margin of 8% of their span (at least 8 points) on each
    side, and at least MIN_SPAN points in all, centred on the data: a 12-point drop is a
    small step on a 100-point axis, not a cliff."""
    lo, hi = min(values), max(values)
    pad = max((hi - lo) * 0.08, 8.0)
    low, high = lo - pad, hi + pad
    if high - low < MIN_SPAN:
        mid = (lo + hi) / 2
        low, high = mid - MIN_SPAN / 2, mid + MIN_SPAN / 2
    return low, high


def _num(day: dt.date) -> float:
    """A date as matplotlib's date number."""
    return float(mdates.date2num(day))  # type: ignore[no-untyped-call]


def _plain(text: str) -> str:
    """Text drawn as it is: a `$` would start matplotlib's mathtext (and a lone one fail)."""
    return text.replace("$", r"\$")


@dataclass(frozen=True)
class _Value:
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
class _Drawing:
    """What draw_chart collects while drawing: the hover texts and data attributes of the
    SVG groups, the values to write in the panel being drawn, the kinds of marks drawn (the
    legend's entries)."""

    titles: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)
    labels: list[_Value] = field(default_factory=list)
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
        self.labels.append(_Value(priority, x, y, text, color, ha, va, offset, weight))


def _steps(cl: ChartList) -> tuple[list[float], list[float], list[tuple[ChartPeriod, float]]]:
    """The step line of a list (NaN breaks it where a jump is drawn on its own) and the
    re-anchoring jumps (a period and the rating the next period starts from)."""
    nan = float("nan")
    xs: list[float] = []
    ys: list[float] = []
    jumps: list[tuple[ChartPeriod, float]] = []
    level: float | None = None
    if cl.start is not None and not any(p.start for p in cl.periods):
        xs.append(_num(cl.start.day))
        ys.append(cl.start.rating)
        level = cl.start.rating
    projected = cl.projection.period if cl.projection is not None else None
    for p in cl.points:
        assert p.rating is not None
        x = _num(p.day)
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


def _tournaments(cl: ChartList) -> list[tuple[ChartPeriod, int, ChartTournament, int]]:
    """The tournaments drawn: each with its period, its index there and the rating it was
    played under. Those played toward a first rating (under no rating) and any before the
    line starts are left out: no line is there to put them on (the hover of the period that
    rated them names them)."""
    origin = min(
        (
            _num(d)
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
            if ro is not None and origin is not None and _num(t.day) >= origin:
                out.append((p, j, t, ro))
    return out


def _values(cl: ChartList) -> list[int]:
    """Every rating a list's panel shows (its y axis spans them)."""
    values = [
        v for p in cl.periods for v in (p.rating, p.official, p.tag, p.published) if v is not None
    ]
    values += [ro for _, _, _, ro in _tournaments(cl)]
    if cl.start is not None:
        values.append(cl.start.rating)
    if cl.projection is not None and cl.projection.expected is not None:
        values.append(cl.projection.expected)
    return values


def _days(cl: ChartList) -> list[dt.date]:
    """Every date a list's panel shows (the shared x axis spans those of every list)."""
    return [
        *(p.day for p in cl.periods),
        *((cl.start.day,) if cl.start else ()),
        *(t.day for _, _, t, _ in _tournaments(cl)),
    ]


def _draw_list(ax: Axes, cl: ChartList, d: _Drawing, stub: float) -> None:
    """One list in its panel; on a busy list (many points) only its last value, its
    highest and its lowest are written."""
    color = COLORS.get(cl.name, "#333333")
    dense = len(cl.points) > DENSE
    busy = len(cl.points) > BUSY
    dot = 2.6 if dense else 4.2
    rl = cl.rating_list
    xs, ys, jumps = _steps(cl)
    ax.plot(xs, ys, color=color, linewidth=1.3 if dense else 1.7, solid_joinstyle="miter", zorder=2)
    # the start of the replay
    if cl.start is not None:
        s = cl.start
        start_period = next((p for p in cl.periods if p.start), None)
        (line,) = ax.plot(
            [_num(s.day)],
            [s.rating],
            linestyle="none",
            marker="s",
            markersize=dot + 2.5,
            markerfacecolor="white",
            markeredgecolor=color,
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
            _num(s.day),
            s.rating,
            f"{s.rating}",
            color=color,
            ha="right",
            va="bottom",
            offset=(-4, 3),
        )
        d.kinds.add("start")
    # the points of the periods (the start's is its square)
    projected = cl.projection.period if cl.projection is not None else None
    points = [p for p in cl.points if not p.start]
    last = points[-1] if points else None
    rated = [p for p in points if p.period != projected]
    high = max(rated, key=lambda p: p.rating or 0) if rated else None
    low = min(rated, key=lambda p: p.rating or 0) if rated else None
    if len(xs) > 1:
        d.kinds.add("line")
    for p in points:
        assert p.rating is not None
        x = _num(p.day)
        if p.period == projected and cl.projection is not None:
            pr = cl.projection
            y = float(pr.expected if pr.expected is not None else p.rating)
            before = y if pr.before is None else float(pr.before)
            ax.plot(
                [x, x, x + stub],
                [before, y, y],
                color=color,
                linestyle=(0, (4, 2.5)),
                linewidth=1.5,
                zorder=2,
            )
            (line,) = ax.plot(
                [x],
                [y],
                linestyle="none",
                marker="o",
                markersize=dot + 1.6,
                markerfacecolor="white",
                markeredgecolor=color,
                markeredgewidth=1.4,
                zorder=4,
            )
            d.group(
                line,
                f"{cl.name}-period-{p.period}",
                pr.describe(rl) + "\n" + p.describe(rl),
                period=str(p.period),
                list=cl.name,
                rating=str(p.rating),
                expected="yes",
            )
            d.label(
                0, x, y, f"{int(y)} expected", color=color, ha="left", va="bottom", offset=(4, 3)
            )
            d.kinds.add("projection")
            continue
        (line,) = ax.plot(
            [x], [p.rating], linestyle="none", marker="o", markersize=dot, color=color, zorder=4
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
        priority = 3 if p is last else 4 if p is high or p is low else 9 if busy else 5
        if priority < 9:
            d.label(
                priority,
                x,
                p.rating,
                str(p.rating),
                color=color,
                ha="right",
                va="bottom" if up else "top",
                offset=(-3, 2 if up else -2),
            )
    # official ratings, with their values
    for p in cl.periods:
        if p.official is None or p.start:
            continue
        x = _num(p.day)
        diff = p.difference
        (line,) = ax.plot(
            [x],
            [p.official],
            linestyle="none",
            marker="D",
            markersize=dot + 2.2,
            markerfacecolor="white",
            markeredgecolor=color,
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
            color=color,
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
    # the re-anchoring on own Elo tags (and on an official rating: the gap above)
    for p, level in jumps:
        if p.official is not None:
            continue
        x = _num(p.day)
        assert p.rating is not None
        ax.plot([x, x], [p.rating, level], color=color, linewidth=0.9, linestyle=":", zorder=2)
    tagged = [(_num(p.day), p.tag) for p in cl.periods if p.tag is not None]
    if tagged:
        ax.plot(
            [x for x, _ in tagged],
            [y for _, y in tagged],
            linestyle="none",
            marker="x",
            markersize=dot + 1.5,
            color=color,
            markeredgewidth=1.0,
            zorder=4,
        )
        d.kinds.add("tag")
    # the tournaments, at the rating they were played under
    # (a white edge: they sit on the line of their own colour and would melt into it)
    small = 4.6 if dense else 6.2
    for p, j, t, ro in _tournaments(cl):
        change = t.change or 0
        mark, kind = ("^", "gain") if change > 0 else ("v", "loss") if change < 0 else ("o", "even")
        even = kind == "even"
        (line,) = ax.plot(
            [_num(t.day)],
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


def _legend(fig: Figure, d: _Drawing, anchor: tuple[float, float]) -> None:
    """One legend for every panel, at `anchor` (figure coordinates, its upper left corner):
    an entry for each kind of mark drawn, in grey (the panels' colours are the lists')."""

    def mark(
        marker: str,
        face: str = MARK_COLOR,
        color: str = MARK_COLOR,
        linestyle: LineStyleType = "none",
        size: float = 7,
    ) -> Line2D:
        return Line2D(
            [],
            [],
            color=color,
            linestyle=linestyle,
            marker=marker,
            markerfacecolor=face,
            markeredgecolor=color,
            markersize=size,
        )

    entries = [
        ("line", Line2D([], [], color=MARK_COLOR, linewidth=1.7), "replayed rating"),
        ("point", mark("o", size=5), "a period's rating"),
        ("start", mark("s", "white"), "start of the replay"),
        ("official", mark("D", "white"), "official rating"),
        ("gap", mark("|", GAP_COLOR, GAP_COLOR), "replayed minus official"),
        ("tag", mark("x", linestyle=":"), "own Elo tag (re-anchored)"),
        ("tournament-gain", mark("^"), "tournament: gain"),
        ("tournament-loss", mark("v"), "tournament: loss"),
        ("tournament-even", mark("o", "white", size=5), "tournament: no change"),
        (
            "projection",
            Line2D(
                [],
                [],
                color=MARK_COLOR,
                linestyle=(0, (4, 2.5)),
                marker="o",
                markerfacecolor="white",
            ),
            "expected on the next list",
        ),
    ]
    shown = [(handle, text) for kind, handle, text in entries if kind in d.kinds]
    fig.legend(
        [h for h, _ in shown],
        [t for _, t in shown],
        loc="upper left",
        bbox_to_anchor=anchor,
        fontsize="small",
        frameon=False,
        borderaxespad=0.0,
    )


def _marks(ax: Axes, dpi: float) -> list[tuple[tuple[float, float], Bbox]]:
    """The markers drawn in a panel that a value must not cover, each one's point (data)
    and its box (pixels): all but the tournaments' (small, many, on the line: a long list's
    start or lowest value would find no room among them)."""
    out = []
    for line in ax.get_lines():
        if str(line.get_marker()) in ("None", "none", "", " ") or "-tournament-" in str(
            line.get_gid()
        ):
            continue
        r = line.get_markersize() * dpi / 72 / 2
        xs: Sequence[float] = line.get_xdata()  # type: ignore[assignment]
        ys: Sequence[float] = line.get_ydata()  # type: ignore[assignment]
        for x, y in zip(xs, ys, strict=True):
            px, py = ax.transData.transform((x, y))
            out.append(((x, y), Bbox.from_extents(px - r, py - r, px + r, py + r)))
    return out


def _write_values(fig: Figure, panels: Sequence[tuple[Axes, Sequence[_Value]]]) -> None:
    """Each panel's values, most important first, each where it is asked (else on the other
    side of its point, else below or above it instead) only if its drawn box stays inside
    the panel and covers no value written before and no marker (but its own point's and the
    tournaments'); a value equal to one already written at the same list is not repeated."""
    canvas = fig.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    for ax, values in panels:
        box = ax.get_window_extent(renderer)
        marks = _marks(ax, fig.dpi)
        taken: list[Bbox] = []
        written: set[tuple[float, str]] = set()
        for v in sorted(values, key=lambda v: v.priority):
            if (v.x, v.text) in written:
                continue
            dx0, dy0 = v.offset
            side = {"left": "right", "right": "left", "center": "center"}[v.ha]
            other = {"bottom": "top", "top": "bottom", "center": "center"}[v.va]
            for ha, dx, va, dy in (
                (v.ha, dx0, v.va, dy0),
                (side, -dx0, v.va, dy0),
                (v.ha, dx0, other, -dy0),
                (side, -dx0, other, -dy0),
            ):
                text: Annotation = ax.annotate(
                    _plain(v.text),
                    (v.x, v.y),
                    xytext=(dx, dy),
                    textcoords="offset points",
                    ha=ha,
                    va=va,
                    fontsize=FONT,
                    color=v.color,
                    weight=v.weight,
                    annotation_clip=False,
                    zorder=6,
                    path_effects=HALO,
                )
                drawn = text.get_window_extent(renderer).padded(LABEL_PAD)
                inside = (
                    box.x0 <= drawn.x0
                    and drawn.x1 <= box.x1
                    and box.y0 <= drawn.y0
                    and drawn.y1 <= box.y1
                )
                if (
                    inside
                    and not any(drawn.overlaps(b) for b in taken)
                    and not any(at != (v.x, v.y) and drawn.overlaps(b) for at, b in marks)
                ):
                    taken.append(drawn)
                    written.add((v.x, v.text))
                    break
                text.remove()


def _layout(panels: int, footnote: bool) -> tuple[float, list[tuple[float, float, float, float]]]:
    """The figure's height (inches) and each panel's rectangle (figure fractions: left,
    bottom, width, height), top to bottom."""
    tall = SINGLE if panels == 1 else PANEL
    height = (
        TITLE_ROOM
        + panels * tall
        + (panels - 1) * GAP
        + BOTTOM
        + (FOOTNOTE_ROOM if footnote else 0.0)
    )
    rects = []
    for i in range(panels):
        top = height - TITLE_ROOM - i * (tall + GAP)
        rects.append((LEFT / WIDTH, (top - tall) / height, PANEL_WIDTH / WIDTH, tall / height))
    return height, rects


def draw_chart(chart: Chart) -> tuple[Figure, dict[str, tuple[str, dict[str, str]]]]:
    """The chart as a matplotlib Figure (the caller saves and closes it), and the hover text
    and data attributes of each SVG group by its id."""
    drawn = chart.drawn
    if not drawn:
        raise TrackerError("nothing to draw: no rated period on any list (import games first)")
    plt.rcParams["svg.hashsalt"] = "tracker"
    plt.rcParams["svg.fonttype"] = "none"
    height, rects = _layout(len(drawn), bool(chart.footnote))
    fig = plt.figure(figsize=(WIDTH, height), dpi=DPI)
    try:
        d = _Drawing()
        days = [x for cl in drawn for x in _days(cl)]
        first, last = min(days), max(days)
        margin = max(dt.timedelta(days=MARGIN_DAYS), (last - first) / 40)
        # the dashed step to the next list is long enough for its value written above it
        room = EXPECTED_ROOM / (PANEL_WIDTH * DPI)
        span = (last - first).days + 2 * margin.days
        stub = max(margin.days * 1.5, 25.0, (room * span - margin.days) / (1 - room))
        projected = any(cl.projection is not None for cl in drawn)
        ticks = [_num(t) for t in month_ticks(first, last)]
        panels: list[tuple[Axes, list[_Value]]] = []
        top: Axes | None = None
        for cl, rect in zip(drawn, rects, strict=True):
            ax = fig.add_axes(rect, sharex=top)
            top = top or ax
            d.labels = []
            _draw_list(ax, cl, d, stub)
            panels.append((ax, d.labels))
            ax.set_title(
                _plain(cl.name),
                loc="left",
                fontsize="medium",
                fontweight="bold",
                color=COLORS.get(cl.name, "#333333"),
                pad=4,
            )
            ax.set_ylabel("rating", fontsize="small")
            ax.grid(True, alpha=0.3)
            ax.set_ylim(*y_limits(_values(cl)))
            ax.yaxis.set_major_locator(
                MaxNLocator(nbins=8 if len(drawn) == 1 else 5, steps=[1, 2, 5, 10], integer=True)
            )
            ax.tick_params(labelbottom=False)
        bottom = panels[-1][0]
        # One label per chosen list month: matplotlib's own date locator puts several ticks
        # inside one month on a short span, and every one of them reads the same "2025-10".
        bottom.xaxis.set_major_locator(FixedLocator(ticks))
        bottom.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m"))  # type: ignore[no-untyped-call]
        bottom.xaxis.set_minor_locator(NullLocator())
        bottom.set_xlim(_num(first - margin), _num(last + margin) + (stub if projected else 0))
        bottom.tick_params(labelbottom=True)
        for label in bottom.get_xticklabels():
            label.set_rotation(30)
            label.set_horizontalalignment("right")
        bottom.set_xlabel("rating period (list month)")
        fig.text(
            0.5, 1 - 0.24 / height, _plain(chart.title), ha="center", va="center", fontsize="large"
        )
        left, low, width, tall = rects[0]
        _legend(fig, d, (left + width + 0.14 / WIDTH, low + tall))
        _write_values(fig, panels)
        if chart.footnote:
            fig.text(
                0.01,
                0.1 / height,
                _plain(chart.footnote),
                fontsize="x-small",
                color="#555555",
                ha="left",
                va="bottom",
                wrap=True,
            )
    except BaseException:
        plt.close(fig)
        raise
    return fig, d.titles


def draw_history(
    series: Chart | Sequence[Series], *, title: str = "", footnote: str = ""
) -> Figure:
    """The figure alone (a Chart, or plain points with a title and footnote)."""
    chart = series if isinstance(series, Chart) else chart_of(series, title, footnote)
    return draw_chart(chart)[0]


_GROUP = re.compile(r'<g id="([^"]+)">')


def _with_titles(svg: str, titles: dict[str, tuple[str, dict[str, str]]]) -> str:
    """Each group drawn with an id gets its data- attributes and a <title> (the hover)."""

    def group(found: re.Match[str]) -> str:
        gid = found.group(1)
        if gid not in titles:
            return found.group(0)
        text, data = titles[gid]
        attrs = "".join(f' data-{k}="{html.escape(v)}"' for k, v in data.items())
        return f'<g id="{gid}"{attrs}><title>{html.escape(text, quote=False)}</title>'

    return _GROUP.sub(group, svg)


def chart_svg(chart: Chart) -> str:
    """The chart as SVG text, with the hover titles."""
    fig, titles = draw_chart(chart)
    try:
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    finally:
        plt.close(fig)
    return _with_titles(buffer.getvalue(), titles)


def plot_history(
    chart: Chart | Sequence[Series], output: Path, *, title: str = "", footnote: str = ""
) -> Path:
    """Write the chart to `output` (.png or .svg; a device or a FIFO of another name, such
    as /dev/stdout, gets PNG) and return the path."""
    fmt = FORMATS.get(output.suffix.lower())
    if fmt is None and resolve_output(output)[1]:
        fmt = "png"
    if fmt is None:
        raise BadInput(f"{output}: the chart is written as .png or .svg; give such a file name")
    if not output.parent.exists():
        raise BadInput(f"the folder {output.parent} does not exist: create it first")
    model = chart if isinstance(chart, Chart) else chart_of(chart, title, footnote)
    if fmt == "svg":
        text = chart_svg(model)
        write_atomic(output, lambda tmp: tmp.write_text(text, encoding="utf-8"))
        return output
    fig, _ = draw_chart(model)
    try:
        # Written beside `output` and renamed into place: never half a chart (a device or a
        # FIFO is written into once the chart is whole).
        write_atomic(
            output, lambda tmp: fig.savefig(tmp, format="png", metadata={"Software": None})
        )
    finally:
        plt.close(fig)
    return output
