"""The rating chart (the only package that imports matplotlib; Agg backend).

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

The modules: `panel` (one list in its panel) and `figure` (the panels laid out, the legend,
the values written, the files).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # before pyplot is imported (by the modules below)

from tracker.reports.plot.figure import (  # noqa: E402
    FORMATS,
    MIN_SPAN,
    Series,
    chart_of,
    chart_svg,
    draw_chart,
    draw_history,
    month_ticks,
    plot_history,
    y_limits,
)
from tracker.reports.plot.panel import COLORS  # noqa: E402

__all__ = [
    "COLORS",
    "FORMATS",
    "MIN_SPAN",
    "Series",
    "chart_of",
    "chart_svg",
    "draw_chart",
    "draw_history",
    "month_ticks",
    "plot_history",
    "y_limits",
]
