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

from tracker.errors import BadInput, TrackerError  # noqa: E402

FORMATS = {".png": "png", ".svg": "svg"}
COLORS = {"standard": "#1f5fa8", "rapid": "#d0741c", "blitz": "#3a8f3a"}


@dataclass(frozen=True)
class Series:
    """One list's points: (list date, replayed rating) and (list date, official rating)."""

    name: str
    replayed: Sequence[tuple[dt.date, int]]
    official: Sequence[tuple[dt.date, int]]


def plot_history(series: Sequence[Series], output: Path, *, title: str) -> Path:
    """Write the chart to `output` (.png or .svg) and return the path."""
    fmt = FORMATS.get(output.suffix.lower())
    if fmt is None:
        raise BadInput(f"{output}: the chart is written as .png or .svg; give such a file name")
    if not output.parent.exists():
        raise BadInput(f"the folder {output.parent} does not exist: create it first")
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
        ax.set_title(title)
        ax.set_xlabel("rating period (list month)")
        ax.set_ylabel("rating")
        ax.grid(True, alpha=0.3)
        ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m"))  # type: ignore[no-untyped-call]
        ax.xaxis.set_major_locator(mdates.AutoDateLocator(  # type: ignore[no-untyped-call]
            minticks=3, maxticks=10))
        fig.autofmt_xdate()
        ax.legend(loc="best", fontsize="small")
        fig.tight_layout()
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        try:
            fig.savefig(output, format=fmt, metadata=metadata)
        except OSError as exc:
            raise TrackerError(f"cannot write {output}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
    return output
