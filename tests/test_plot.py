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
