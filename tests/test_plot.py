"""tracker.reports.plot: PNG and SVG, deterministic output, clear errors; small multiples
(a panel per list, one time axis), values that never overprint, a legend of every marker."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Annotation
from matplotlib.transforms import Bbox

from tracker.errors import BadInput, TrackerError
from tracker.model import Period, RatingList
from tracker.reports.chart import (
    Chart,
    ChartList,
    ChartPeriod,
    ChartStart,
    ChartTournament,
    Projection,
)
from tracker.reports.plot import Series, chart_of, draw_chart, plot_history

SERIES = [
    Series(
        "standard",
        [(dt.date(2025, 9, 1), 1850), (dt.date(2025, 10, 1), 1855)],
        [(dt.date(2025, 9, 1), 1850)],
    ),
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
        (dt.date(2025, 11, 1), 1830)
    ]
    assumed = _one_win(1800).run(PlayerInfo(birth_year=1980, ever_2400=False))
    note = chart_footnote([tagged, assumed])
    assert note == (
        "Assumed: standard: 1 list re-anchored on the player's own Elo tag; "
        "standard: K assumes 30+ rated games completed in 1 period (tracker "
        "history says where)"
    )
    fig, _ = draw_chart(Chart("t", (cl,), note))
    try:
        assert [t.get_text() for t in fig.texts] == ["t", note]
        (legend,) = fig.legends
        assert "own Elo tag (re-anchored)" in [t.get_text() for t in legend.get_texts()]
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)
    assert chart_footnote([_one_win(1800).run(PlayerInfo())]) != ""
    assert (
        chart_footnote(
            [_one_win(1800).run(PlayerInfo(birth_year=1980, rated_games=100, ever_2400=False))]
        )
        == ""
    )


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
        (shown,) = fig.legends
        legend = shown.get_window_extent()
        assert all(legend.x0 >= ax.get_window_extent().x1 for ax in fig.axes)  # right of them
        assert legend.x1 <= fig.bbox.x1  # and inside the figure
        ax = fig.axes[0]
        written = [t.get_text() for t in ax.texts]
        assert "1850" in written and "1855" in written
        assert ax.get_ylim()[1] - ax.get_ylim()[0] >= 100
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_svg_hover_titles_and_gaps(tmp_path: Path) -> None:
    """An official rating that differs from the replayed one: its diamond has a hover title
    with the difference, the gap is labelled, each point is a group with data-period."""
    series = [
        Series(
            "standard",
            [
                (dt.date(2025, 9, 1), 1850),
                (dt.date(2025, 10, 1), 1859),
                (dt.date(2025, 11, 1), 1861),
            ],
            [(dt.date(2025, 10, 1), 1855)],
        )
    ]
    out = plot_history(series, tmp_path / "g.svg", title="$5 & <b>")
    text = out.read_text(encoding="utf-8")
    assert text.count("data-period=") == 3
    assert (
        '<g id="standard-official-2025-10" data-official="1855" data-list="standard">'
        "<title>standard 2025-10: official 1855; replayed 1859 (+4)</title>" in text
    )
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


def _labels(
    replayed: Sequence[tuple[dt.date, int]], official: Sequence[tuple[dt.date, int]] = ()
) -> list[str]:
    from tracker.reports.plot import Series, draw_history

    fig = draw_history([Series("standard", replayed, official)], title="t")
    try:
        fig.canvas.draw()
        ax = fig.axes[0]
        low, high = ax.get_xlim()
        return [t.get_text() for t in ax.get_xticklabels() if low <= t.get_position()[0] <= high]
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
        "2025-10",
        "2025-11",
    ]


@pytest.mark.slow  # draws charts of many sizes and checks every label
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


# --- small multiples: read at a glance (issue 28) ---------------------------------------------


def _period(
    day: dt.date,
    before: int | None,
    rating: int,
    *,
    official: int | None = None,
    tag: int | None = None,
    start: bool = False,
    tournaments: Sequence[tuple[int | None, int | None]] = (),
) -> ChartPeriod:
    """A period on the list of `day`; `tournaments`: (rating played under, change) each,
    played 10 days before the list."""
    return ChartPeriod(
        period=Period.of(day),
        day=day,
        rating_before=before,
        rating=rating,
        published=tag if tag is not None else official if official is not None else rating,
        change=None if before is None else rating - before,
        games=5,
        points=Fraction(3),
        tournaments=tuple(
            ChartTournament(
                f"T {day} {i}",
                day - dt.timedelta(days=10),
                day - dt.timedelta(days=8),
                day - dt.timedelta(days=10),
                ro,
                5,
                Fraction(3),
                change,
            )
            for i, (ro, change) in enumerate(tournaments)
        ),
        official=official,
        tag=tag,
        start=start,
        assumed=False,
    )


def _list(
    rl: RatingList,
    first: Period,
    ratings: Sequence[int],
    *,
    official: dict[int, int] | None = None,
    tags: dict[int, int] | None = None,
    expected: int | None = None,
) -> ChartList:
    """A list replayed from an official rating on `first` (its start) through `ratings`, one
    a month; `official`/`tags`: by index into `ratings`; a tournament per period (a gain, a
    loss or no change by the rating's move); `expected`: the next list's projection."""
    official, tags = official or {}, tags or {}
    days = [first.list_date]
    p = first
    for _ in ratings:
        p = p.next()
        days.append(p.list_date)
    periods = [_period(days[0], None, ratings[0], official=ratings[0], start=True)]
    before = ratings[0]
    for i, r in enumerate(ratings[1:], start=1):
        periods.append(
            _period(
                days[i],
                before,
                r,
                official=official.get(i),
                tag=tags.get(i),
                tournaments=[(before, r - before)],
            )
        )
        before = tags.get(i, official.get(i, r))
    start = ChartStart(days[0], ratings[0], f"official {first} list")
    projection = None
    if expected is not None:
        periods.append(
            _period(days[len(ratings)], before, expected, tournaments=[(before, expected - before)])
        )
        projection = Projection(
            Period.of(days[len(ratings)]), days[len(ratings)], before, expected, first
        )
    return ChartList(rl, tuple(periods), start, projection)


def _far_apart() -> Chart:
    """Standard near 2850, rapid 300 points lower, blitz empty: three lists, two with data;
    the values of 2014-10 (2844 replayed and official on standard) are those the issue saw
    written twice."""
    std = _list(
        RatingList.STANDARD,
        Period(2014, 1),
        [2850, 2846, 2840, 2844, 2849, 2852, 2848, 2851, 2845, 2844, 2847, 2850],
        official={9: 2844, 5: 2850},
        tags={7: 2855},
        expected=2853,
    )
    rapid = _list(
        RatingList.RAPID,
        Period(2014, 3),
        [2540, 2552, 2547, 2547, 2560, 2556, 2551],
        official={4: 2558},
    )
    return Chart(
        "Carlsen, Magnus: replayed FIDE rating history (tracker), not FIDE's published list",
        (std, rapid, ChartList(RatingList.BLITZ, (), None, None)),
        "Assumed: x",
    )


def _list_values(cl: ChartList) -> list[int]:
    return [v for p in cl.periods for v in (p.rating, p.official, p.tag) if v is not None]


def test_one_panel_per_list_with_its_own_y_scale() -> None:
    chart = _far_apart()
    fig, _ = draw_chart(chart)
    try:
        fig.canvas.draw()
        assert len(fig.axes) == len(chart.drawn) == 2  # blitz has nothing to draw
        for ax, cl, other in zip(fig.axes, chart.drawn, reversed(chart.drawn), strict=True):
            low, high = ax.get_ylim()
            assert all(low < v < high for v in _list_values(cl))
            assert not any(low < v < high for v in _list_values(other))
            assert ax.get_title(loc="left") == cl.name
        # one time axis: the same x limits, dates written under the bottom panel only
        assert fig.axes[0].get_xlim() == fig.axes[1].get_xlim()
        assert not fig.axes[0].xaxis.get_tick_params()["labelbottom"]
        assert [t.get_text() for t in fig.axes[1].get_xticklabels()][:2] == ["2014-01", "2014-03"]
        top, bottom = (ax.get_window_extent() for ax in fig.axes)
        assert bottom.y1 < top.y0  # stacked, not overlapping
    finally:
        plt.close(fig)


def test_the_title_says_it_is_the_replay() -> None:
    fig, _ = draw_chart(_far_apart())
    try:
        assert fig.texts[0].get_text() == (
            "Carlsen, Magnus: replayed FIDE rating history (tracker), not FIDE's published list"
        )
    finally:
        plt.close(fig)


def _boxes(fig: Figure) -> list[tuple[str, Bbox]]:
    return [(t.get_text(), t.get_window_extent()) for ax in fig.axes for t in ax.texts]


@pytest.mark.slow  # draws charts of many sizes and checks every label
@pytest.mark.parametrize("n", [12, 40, 130])
def test_values_never_overprint(n: int) -> None:
    """Close values on every list (a long career, or a season), several lists: after the
    chart is drawn no two values' boxes meet, each stays inside its panel, and a value equal
    to the official one beside it is written once."""
    chart = _far_apart()
    if n != 12:
        ratings = [2800 + (i * 7) % 23 for i in range(n)]
        lists = tuple(
            _list(
                rl,
                Period(2012, 7),
                [r - k * 5 for r in ratings],
                official={i: ratings[i] - k * 5 for i in range(3, n, 9)},
                expected=ratings[-1] - k * 5 + 2,
            )
            for k, rl in enumerate(RatingList)
        )
        chart = Chart("t", lists)
    fig, _ = draw_chart(chart)
    try:
        fig.canvas.draw()
        boxes = _boxes(fig)
        assert len(boxes) >= 6
        for i, (a, box) in enumerate(boxes):
            for b, other in boxes[i + 1 :]:
                assert not box.overlaps(other), (a, b)
        for ax, cl in zip(fig.axes, chart.drawn, strict=True):
            panel = ax.get_window_extent()
            marks = _marker_boxes(ax)
            for t in ax.texts:
                box = t.get_window_extent()
                assert panel.x0 <= box.x0 and box.x1 <= panel.x1
                assert panel.y0 <= box.y0 and box.y1 <= panel.y1
                assert isinstance(t, Annotation)
                covered = [at for at, m in marks if box.overlaps(m) and at != tuple(t.xy)]
                assert not covered, (t.get_text(), covered)  # no marker but its own point's
            # the next list's value is written on every list, however long
            assert any(t.get_text().endswith(" expected") for t in ax.texts) == bool(cl.projection)
        if n == 12:
            # matplotlib.dates has no annotations
            october = float(mdates.date2num(dt.date(2014, 10, 1)))  # type: ignore[no-untyped-call]
            written = [
                t.get_text()
                for t in fig.axes[0].texts
                if isinstance(t, Annotation) and t.xy[0] == october
            ]
            assert written == ["2844"]  # official 2844 = replayed 2844
    finally:
        plt.close(fig)


def _points(line: Line2D) -> list[tuple[float, float]]:
    """A line's points (matplotlib types its data as any array-like; the chart's are
    numbers: dates as date2num days)."""
    xs, ys = line.get_xdata(), line.get_ydata()
    assert isinstance(xs, Sequence | np.ndarray) and isinstance(ys, Sequence | np.ndarray)
    return [(float(x), float(y)) for x, y in zip(xs, ys, strict=True)]


def _marker_boxes(ax: Axes) -> list[tuple[tuple[float, float], Bbox]]:
    """Each marker drawn in a panel but the tournaments' (a value may cover those): its
    point (data) and its box on the canvas (pixels)."""
    out = []
    for line in ax.get_lines():
        if str(line.get_marker()) in ("None", "none", "", " ") or "-tournament-" in str(
            line.get_gid()
        ):
            continue
        r = line.get_markersize() * ax.figure.dpi / 72 / 2
        for x, y in _points(line):
            px, py = ax.transData.transform((x, y))
            out.append(((x, y), Bbox.from_extents(px - r, py - r, px + r, py + r)))
    return out


def _markers(fig: Figure) -> set[tuple[str, bool]]:
    """The markers drawn in the panels: (marker, hollow)."""
    from matplotlib.colors import to_hex

    found = set()
    for ax in fig.axes:
        for line in ax.get_lines():
            marker = str(line.get_marker())
            if marker not in ("None", "none", "", " ") and _points(line):
                found.add((marker, to_hex(line.get_markerfacecolor()) == "#ffffff"))
    return found


def test_every_marker_drawn_is_in_the_legend() -> None:
    fig, _ = draw_chart(_far_apart())
    try:
        drawn = _markers(fig)
        # start, period points, official, tag, tournaments up/down/none, projection
        assert {
            ("s", True),
            ("o", False),
            ("D", True),
            ("x", False),
            ("^", False),
            ("v", False),
            ("o", True),
        } <= drawn
        (legend,) = fig.legends
        from matplotlib.colors import to_hex

        shown = {
            (str(h.get_marker()), to_hex(h.get_markerfacecolor()) == "#ffffff")
            for h in legend.legend_handles
            if isinstance(h, Line2D)
        }
        assert drawn <= shown, drawn - shown
        texts = [t.get_text() for t in legend.get_texts()]
        assert "tournament: no change" in texts and "expected on the next list" in texts
        # and nothing in it that is not drawn
        lone = draw_chart(chart_of(SERIES[:1], "t"))[0]
        try:
            (legend,) = lone.legends
            assert "tournament: gain" not in [t.get_text() for t in legend.get_texts()]
        finally:
            plt.close(lone)
    finally:
        plt.close(fig)


def test_nothing_is_drawn_before_the_line_starts() -> None:
    """An unrated player's first rating pools tournaments played under no rating: none is
    drawn before the line starts (the first period's hover names them)."""
    from tests.builders import Replay
    from tracker.model import PlayerRef
    from tracker.periods import PlayerInfo
    from tracker.reports.chart import chart_list

    b = Replay(PlayerInfo(birth_year=1990))
    for start, scores in (("2025-03-01", (1, 1, 0, 1, 0)), ("2025-07-01", (1, 0, 0, 1, 1))):
        t = b.t(f"Open {start}", start, start)
        for opp, score in zip((1700, 1750, 1800, 1650, 1720), scores, strict=True):
            b.g(t, opp, score)
    cl = chart_list(b.run(), PlayerRef(1, "New, Player"))
    assert cl.start is None and cl.periods[0].tournaments[0].ro is None
    first = cl.points[0].day
    fig, titles = draw_chart(Chart("t", (cl,)))
    try:
        (ax,) = fig.axes
        xs = [x for line in ax.get_lines() for x, _ in _points(line)]
        # matplotlib.dates has no annotations
        assert min(xs) == float(mdates.date2num(first))  # type: ignore[no-untyped-call]
        assert f"standard-tournament-{cl.periods[0].period}-0" not in titles
        assert "Open 2025-03-01" in titles[f"standard-period-{cl.periods[0].period}"][0]
    finally:
        plt.close(fig)


def test_a_period_hover_and_data_attributes_stay(tmp_path: Path) -> None:
    chart = _far_apart()
    out = plot_history(chart, tmp_path / "c.svg")
    text = out.read_text(encoding="utf-8")
    periods = sum(len(cl.points) for cl in chart.drawn)
    assert text.count(" data-period=") == periods
    assert '<g id="rapid-official-2014-07" data-official="2558" data-list="rapid">' in text
    again = plot_history(chart, tmp_path / "d.svg")
    assert again.read_bytes() == out.read_bytes()
