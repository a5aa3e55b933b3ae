"""The rating chart's figure (tracker.reports.plot): the panels laid out one above the other
over one time axis, the legend, the values written where they cover nothing, and the chart
written as PNG or SVG (with hover titles). Each list's panel is drawn by
tracker.reports.plot.panel; the Agg backend is chosen by the package."""

from __future__ import annotations

import datetime as dt
import html
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import matplotlib.dates as mdates
import matplotlib.patheffects as effects
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Annotation
from matplotlib.ticker import FixedLocator, MaxNLocator, NullLocator
from matplotlib.transforms import Bbox
from matplotlib.typing import LineStyleType

from tracker.errors import BadInput, TrackerError
from tracker.files.outputs import resolve_output, write_atomic
from tracker.model import Period, RatingList
from tracker.reports.chart import Chart, ChartList, ChartPeriod
from tracker.reports.plot.panel import (
    COLORS,
    GAP_COLOR,
    Drawing,
    Value,
    date_x,
    days_of,
    draw_list,
    values_of,
)

FORMATS = {".png": "png", ".svg": "svg"}
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


def _plain(text: str) -> str:
    """Text drawn as it is: a `$` would start matplotlib's mathtext (and a lone one fail)."""
    return text.replace("$", r"\$")


def _legend(fig: Figure, d: Drawing, anchor: tuple[float, float]) -> None:
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


def _write_values(fig: Figure, panels: Sequence[tuple[Axes, Sequence[Value]]]) -> None:
    """Each panel's values, most important first, each where it is asked (else on the other
    side of its point, else below or above it instead) only if its drawn box stays inside
    the panel and covers no value written before and no marker (but its own point's and the
    tournaments'); a value equal to one already written on the same list is not repeated
    (a flat step, the start and the first list at the same rating: one value, not two)."""
    canvas = fig.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    for ax, values in panels:
        box = ax.get_window_extent(renderer)
        marks = _marks(ax, fig.dpi)
        taken: list[Bbox] = []
        written: set[str] = set()
        for v in sorted(values, key=lambda v: v.priority):
            if v.text in written:
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
                    written.add(v.text)
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
        d = Drawing()
        days = [x for cl in drawn for x in days_of(cl)]
        first, last = min(days), max(days)
        margin = max(dt.timedelta(days=MARGIN_DAYS), (last - first) / 40)
        # the dashed step to the next list is long enough for its value written above it
        room = EXPECTED_ROOM / (PANEL_WIDTH * DPI)
        span = (last - first).days + 2 * margin.days
        stub = max(margin.days * 1.5, 25.0, (room * span - margin.days) / (1 - room))
        projected = any(cl.projection is not None for cl in drawn)
        ticks = [date_x(t) for t in month_ticks(first, last)]
        panels: list[tuple[Axes, list[Value]]] = []
        top: Axes | None = None
        for cl, rect in zip(drawn, rects, strict=True):
            ax = fig.add_axes(rect, sharex=top)
            top = top or ax
            d.labels = []
            draw_list(ax, cl, d, stub)
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
            ax.set_ylim(*y_limits(values_of(cl)))
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
        bottom.set_xlim(date_x(first - margin), date_x(last + margin) + (stub if projected else 0))
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
