"""tracker.reports.plot: PNG and SVG, deterministic output, clear errors."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from tracker.errors import BadInput, TrackerError
from tracker.model import Period
from tracker.reports.plot import Series, plot_history

SERIES = [
    Series("standard", [(dt.date(2025, 9, 1), 1850), (dt.date(2025, 10, 1), 1855)],
           [(dt.date(2025, 9, 1), 1850)]),
    Series("rapid", [(dt.date(2025, 9, 1), 1795)], []),
    Series("blitz", [], []),
]


def test_svg_is_deterministic(tmp_path: Path) -> None:
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    plot_history(SERIES, a, title="Novák, Tomáš")
    plot_history(SERIES, b, title="Novák, Tomáš")
    assert a.read_bytes() == b.read_bytes()
    text = a.read_text(encoding="utf-8")
    assert "<svg" in text and ">standard<" in text and "blitz" not in text


def test_png(tmp_path: Path) -> None:
    out = plot_history(SERIES, tmp_path / "h.PNG", title="t")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_errors(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match=".png or .svg"):
        plot_history(SERIES, tmp_path / "h.jpg", title="t")
    with pytest.raises(BadInput, match="does not exist"):
        plot_history(SERIES, tmp_path / "no" / "h.png", title="t")
    with pytest.raises(TrackerError, match="nothing to draw"):
        plot_history([Series("standard", [], [])], tmp_path / "h.png", title="t")


def test_tags_and_what_is_assumed_are_on_the_chart(tmp_path: Path) -> None:
    """Issue 13: a number built on a guess says so where it is shown, the chart included."""
    from tests.test_history_evidence import _one_win, _season_with_missing_games
    from tracker.model import PlayerRef
    from tracker.periods import PlayerInfo
    from tracker.reports.chart import Chart, chart_footnote, chart_list
    from tracker.reports.plot import draw_chart

    tagged = _season_with_missing_games().run()
    who = PlayerRef(1, "Novák, Tomáš")
    cl = chart_list(tagged, who)
    assert [(p.day, p.tag) for p in cl.periods if p.tag is not None] == [
        (dt.date(2025, 11, 1), 1830)]
    assumed = _one_win(1800).run(PlayerInfo(birth_year=1980, ever_2400=False))
    note = chart_footnote([tagged, assumed])
    assert note == ("Assumed: standard: 1 list re-anchored on the player's own Elo tag; "
                    "standard: K assumes 30+ rated games completed in 1 period (tracker "
                    "history says where)")
    fig, _ = draw_chart(Chart("t", (cl,), note))
    try:
        assert [t.get_text() for t in fig.texts] == [note]
        legend = fig.axes[0].get_legend()
        assert legend is not None
        assert "own Elo tag (re-anchored)" in [t.get_text() for t in legend.get_texts()]
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)
    assert chart_footnote([_one_win(1800).run(PlayerInfo())]) != ""
    assert chart_footnote([_one_win(1800).run(PlayerInfo(birth_year=1980, rated_games=100,
                                                         ever_2400=False))]) == ""


def test_small_changes_stay_small() -> None:
    """A 12-point drop on a 100-point axis at least, centred on the data."""
    from tracker.reports.plot import MIN_SPAN, y_limits
    low, high = y_limits([1850, 1838])
    assert high - low == MIN_SPAN and (low + high) / 2 == 1844
    low, high = y_limits([2430, 2800])
    assert low < 2430 and high > 2800 and high - low < 440


def test_legend_outside_the_data_and_values_written(tmp_path: Path) -> None:
    from tracker.reports.plot import draw_history
    fig = draw_history(SERIES, title="t")
    try:
        fig.canvas.draw()
        ax = fig.axes[0]
        box = ax.get_window_extent()
        shown = ax.get_legend()
        assert shown is not None
        legend = shown.get_window_extent()
        assert legend.x0 >= box.x1  # right of the axes
        written = [t.get_text() for t in ax.texts]
        assert "1850" in written and "1855" in written
        assert ax.get_ylim()[1] - ax.get_ylim()[0] >= 100
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)


def test_svg_hover_titles_and_gaps(tmp_path: Path) -> None:
    """An official rating that differs from the replayed one: its diamond has a hover title
    with the difference, the gap is labelled, each point is a group with data-period."""
    series = [Series("standard", [(dt.date(2025, 9, 1), 1850), (dt.date(2025, 10, 1), 1859),
                                  (dt.date(2025, 11, 1), 1861)],
                     [(dt.date(2025, 10, 1), 1855)])]
    out = plot_history(series, tmp_path / "g.svg", title="$5 & <b>")
    text = out.read_text(encoding="utf-8")
    assert text.count("data-period=") == 3
    assert '<g id="standard-official-2025-10" data-official="1855" data-list="standard">' \
        "<title>standard 2025-10: official 1855; replayed 1859 (+4)</title>" in text
    assert "$5 &amp; &lt;b&gt;" in text  # the title as it is (no mathtext), escaped
    from tracker.reports.plot import chart_of, draw_chart
    fig, _ = draw_chart(chart_of(series, "t"))
    try:
        written = [t.get_text() for t in fig.axes[0].texts]  # drawn with a halo: paths in SVG
        assert "+4" in written and "1855" in written
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)


# --- one x label per list month (bug 16 of the QA run) ---------------------------------------


def _labels(replayed: Sequence[tuple[dt.date, int]],
            official: Sequence[tuple[dt.date, int]] = ()) -> list[str]:
    from tracker.reports.plot import Series, draw_history
    fig = draw_history([Series("standard", replayed, official)], title="t")
    try:
        fig.canvas.draw()
        ax = fig.axes[0]
        low, high = ax.get_xlim()
        return [t.get_text() for t in ax.get_xticklabels()
                if low <= t.get_position()[0] <= high]
    finally:
        plt.close(fig)


def _months(first: Period, n: int) -> list[tuple[dt.date, int]]:
    out, p = [], first
    for i in range(n):
        out.append((p.list_date, 1800 + i % 7))
        p = p.next()
    return out


def test_chart_one_period_one_label() -> None:
    assert _labels([(dt.date(2025, 10, 1), 1685)]) == ["2025-10"]
    assert _labels([], [(dt.date(2025, 10, 1), 1685)]) == ["2025-10"]


def test_chart_two_lists_two_labels() -> None:
    """The QA case (Marek): blitz on 2025-10, standard on 2025-11 (drawn as one series here:
    the ticks depend only on the dates)."""
    assert _labels([(dt.date(2025, 10, 1), 1685)], [(dt.date(2025, 11, 1), 1593)]) == [
        "2025-10", "2025-11"]


@pytest.mark.parametrize("n", [2, 3, 7, 12, 13, 25, 40, 61, 120, 121, 180, 240])
def test_chart_labels_never_repeat(n: int) -> None:
    """From 2 list months to 20 years: distinct labels, at most 12, inside the data's span."""
    points = _months(Period(2008, 7), n)
    labels = _labels(points)
    assert labels and len(labels) == len(set(labels)) <= 12, labels
    assert all(re.fullmatch(r"\d{4}-\d{2}", x) for x in labels), labels
    assert labels == sorted(labels)
    assert labels[0] >= "2008-07" and labels[-1] <= str(Period.of(points[-1][0]))
    if n <= 12:
        assert len(labels) == n  # every month on a short span
    else:
        assert len(labels) >= 4
