"""tracker.plot: PNG and SVG, deterministic output, clear errors."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tracker.errors import BadInput, TrackerError
from tracker.plot import Series, plot_history

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
    assert "<svg" in text and "standard (replayed)" in text and "blitz" not in text


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
    from tracker.periods import PlayerInfo
    from tracker.plot import draw_history
    from tracker.reports import chart_footnote, chart_points, chart_tags

    tagged = _season_with_missing_games().run()
    assert chart_tags(tagged) == [(dt.date(2025, 11, 1), 1830)]
    assumed = _one_win(1800).run(PlayerInfo(birth_year=1980, ever_2400=False))
    note = chart_footnote([tagged, assumed])
    assert note == ("Assumed: standard: 1 list re-anchored on the player's own Elo tag; "
                    "standard: K assumes 30+ rated games completed in 1 period (tracker "
                    "history says where)")
    fig = draw_history([Series("standard", *chart_points(tagged), chart_tags(tagged))],
                       title="t", footnote=note)
    try:
        assert [t.get_text() for t in fig.texts] == [note]
        labels = fig.axes[0].get_legend_handles_labels()[1]
        assert "standard (own Elo tag)" in labels
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)
    assert chart_footnote([_one_win(1800).run(PlayerInfo())]) != ""
    assert chart_footnote([_one_win(1800).run(PlayerInfo(birth_year=1980, rated_games=100,
                                                         ever_2400=False))]) == ""
