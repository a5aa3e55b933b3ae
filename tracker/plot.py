"""The rating history as a chart (the only module that imports matplotlib; Agg backend).

`plot_history(series, output)` draws one line per list (the replayed rating, period by
period) with the official ratings as points, periods on the x axis, and writes PNG or SVG by
the file suffix. The output is deterministic for the same input (no timestamps in the file).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FixedLocator, NullLocator  # noqa: E402

from tracker.errors import BadInput, TrackerError  # noqa: E402
from tracker.outputs import write_atomic  # noqa: E402

FORMATS = {".png": "png", ".svg": "svg"}
COLORS = {"standard": "#1f5fa8", "rapid": "#d0741c", "blitz": "#3a8f3a"}


@dataclass(frozen=True)
class Series:
    """One list's points: (list date, replayed rating) and (list date, official rating)."""

    name: str
    replayed: Sequence[tuple[dt.date, int]]
    official: Sequence[tuple[dt.date, int]]
    # the player's own Elo tag for a list no official entry covers (where the replay took
    # the list's rating from): drawn as crosses
    tags: Sequence[tuple[dt.date, int]] = ()


MAX_TICKS = 12
TICK_STEPS = (1, 2, 3, 4, 6, 12, 24, 36, 60, 120)  # months between two x labels
MARGIN_DAYS = 20  # room left and right of the first and last list


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


def _num(days: Sequence[dt.date]) -> list[float]:
    """Dates as matplotlib's date numbers."""
    return [float(x) for x in mdates.date2num(days)]  # type: ignore[no-untyped-call]


def draw_history(series: Sequence[Series], *, title: str, footnote: str = "") -> Figure:
    """The chart as a matplotlib Figure (the caller saves and closes it); `footnote` (what
    the numbers assume) is printed under the plot."""
    drawn = [s for s in series if s.replayed or s.official]
    if not drawn:
        raise TrackerError("nothing to draw: no rated period on any list (import games first)")
    plt.rcParams["svg.hashsalt"] = "tracker"
    fig, ax = plt.subplots(figsize=(9, 4.8), dpi=100)
    try:
        for s in drawn:
            color = COLORS.get(s.name)
            if s.replayed:
                xs, ys = zip(*s.replayed, strict=True)
                ax.plot(xs, ys, drawstyle="steps-post", marker="o", markersize=3,
                        linewidth=1.6, color=color, label=f"{s.name} (replayed)")
            if s.official:
                xs, ys = zip(*s.official, strict=True)
                ax.scatter(xs, ys, marker="D", s=36, facecolors="white", edgecolors=color,
                           linewidths=1.5, zorder=3, label=f"{s.name} (official)")
            if s.tags:
                xs, ys = zip(*s.tags, strict=True)
                ax.scatter(xs, ys, marker="x", s=22, color=color, linewidths=1.0, zorder=3,
                           label=f"{s.name} (own Elo tag)")
        ax.set_title(title)
        ax.set_xlabel("rating period (list month)")
        ax.set_ylabel("rating")
        ax.grid(True, alpha=0.3)
        days = [d for s in drawn for d, _ in (*s.replayed, *s.official, *s.tags)]
        first, last = min(days), max(days)
        ticks = month_ticks(first, last)
        # One label per chosen list month: matplotlib's own date locator puts several ticks
        # inside one month on a short span, and every one of them reads the same "2025-10".
        ax.xaxis.set_major_locator(FixedLocator(_num(ticks)))
        ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m"))  # type: ignore[no-untyped-call]
        ax.xaxis.set_minor_locator(NullLocator())
        margin = max(dt.timedelta(days=MARGIN_DAYS), (last - first) / 40)
        low, high = _num([first - margin, last + margin])
        ax.set_xlim(low, high)
        fig.autofmt_xdate()
        ax.legend(loc="best", fontsize="small")
        if footnote:
            fig.text(0.01, 0.01, footnote, fontsize="x-small", color="#555555", ha="left",
                     va="bottom", wrap=True)
            fig.tight_layout(rect=(0, 0.05, 1, 1))
        else:
            fig.tight_layout()
    except BaseException:
        plt.close(fig)
        raise
    return fig


def plot_history(series: Sequence[Series], output: Path, *, title: str,
                 footnote: str = "") -> Path:
    """Write the chart to `output` (.png or .svg) and return the path."""
    fmt = FORMATS.get(output.suffix.lower())
    if fmt is None:
        raise BadInput(f"{output}: the chart is written as .png or .svg; give such a file name")
    if not output.parent.exists():
        raise BadInput(f"the folder {output.parent} does not exist: create it first")
    fig = draw_history(series, title=title, footnote=footnote)
    try:
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        # Written beside `output` and renamed into place: never half a chart, and a symlink
        # is replaced, not written through.
        write_atomic(output, lambda tmp: fig.savefig(tmp, format=fmt, metadata=metadata))
    finally:
        plt.close(fig)
    return output
