"""What `tracker calc` says: a period's games as a table and the lines under it (K, the
change, the new rating), a first rating's figures, and both as JSON and CSV (moved from the
command line, word for word)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tracker.reports.rulewords import (
    adjustment_text,
    engine_text,
    engine_words,
    ignored_text,
    ignored_words,
    k_text,
)

if TYPE_CHECKING:
    from tracker.app.calc import CalcOut

__all__ = [
    "GAME_FIELDS",
    "PERIOD_HEADERS",
    "calc_header",
    "first_json",
    "first_lines",
    "period_cells",
    "period_json",
    "period_lines",
]


def _dec(x: Decimal | Fraction | None) -> str | None:
    if x is None:
        return None
    if isinstance(x, Fraction):
        x = Decimal(x.numerator) / Decimal(x.denominator)
    return str(x)


def _signed(x: Decimal | int | None) -> str:
    if x is None:
        return ""
    return f"+{x}" if x > 0 else str(x)


def _score(s: Fraction) -> str:
    return {Fraction(1): "1", Fraction(0): "0"}.get(s, "0.5")


def calc_header(done: CalcOut) -> str:
    return (
        f"{done.rating_list} list: tournament start {done.on.isoformat()}, rated on the "
        f"{done.period} list ({done.editions} regulations)"
    )


GAME_FIELDS = (
    "opponent_rating",
    "difference",
    "difference_used",
    "capped",
    "expected",
    "score",
    "change",
    "k_change",
    "counted",
    "reason",
)
"""The fields of a game in `tracker calc --format json` (and the columns of its CSV)."""


def period_json(done: CalcOut) -> dict[str, Any]:
    result, adjusted = done.result, done.adjusted
    assert result is not None
    games = [g for t in result.tournaments for g in t.games]
    return {
        "list": str(result.rating_list),
        "date": done.on.isoformat(),
        "period": str(done.period),
        "edition": result.edition,
        "rating_before": result.rating_before,
        "rating_before_source": "given" if done.seed is None else "standard rating",
        "note": done.note,
        "k": result.k,
        "k_base": result.k_base,
        "k_reason": k_text(result.k_reason),
        "games_counted": result.games,
        "points": _dec(result.points),
        "expected": _dec(result.expected),
        "change_exact": _dec(result.change_exact),
        "change": result.change,
        "rating_after": result.rating_after,
        "reason": engine_words(result.reason),
        "adjusted_rating": adjusted[0] if adjusted else None,
        "adjustment": adjustment_text(adjusted[1]) if adjusted else None,
        "games": [
            {
                "opponent_rating": g.opponent_rating,
                "difference": g.difference,
                "difference_used": g.difference_used,
                "capped": g.capped,
                "expected": _dec(g.expected),
                "score": _score(g.score),
                "change": _dec(g.change),
                "k_change": _dec(g.k_change),
                "counted": g.counted,
                "reason": g.reason,
            }
            for g in games
        ],
    }


PERIOD_HEADERS = ["#", "Opponent", "D", "D used", "Expected", "Score", "Change", "K x change"]
"""The columns of `tracker calc`'s table of a period's games."""


def period_cells(done: CalcOut) -> list[list[str]]:
    """The rows of `tracker calc`'s table: a period's games, one a row."""
    result = done.result
    assert result is not None
    cells = []
    games = [g for t in result.tournaments for g in t.games]
    for i, g in enumerate(games, 1):
        if not g.counted:
            cells.append(
                [
                    str(i),
                    str(g.opponent_rating or "unrated"),
                    _signed(g.difference),
                    "",
                    "",
                    _score(g.score),
                    f"not rated: {g.reason}",
                    "",
                ]
            )
            continue
        used = _signed(g.difference_used) + (" (capped)" if g.capped else "")
        cells.append(
            [
                str(i),
                str(g.opponent_rating),
                _signed(g.difference),
                used,
                _dec(g.expected) or "",
                _score(g.score),
                _signed(g.change),
                _signed(g.k_change),
            ]
        )
    return cells


def period_lines(done: CalcOut) -> list[str]:
    """The lines under the table: K, the games and points, the change, the new rating."""
    result, adjusted = done.result, done.adjusted
    assert result is not None
    lines = [
        f"K {result.k} ({k_text(result.k_reason)})",
        f"games {result.games}, points {_dec(result.points)}, expected {_dec(result.expected)}",
        f"change {_signed(result.change_exact)} exact, rounded {_signed(result.change)}",
    ]
    if result.rating_after is None:
        lines.append(f"new rating: unrated ({engine_words(result.reason)})")
    else:
        lines.append(f"new rating {result.rating_after}")
        if adjusted:
            lines.append(f"then {adjustment_text(adjusted[1])}: published {adjusted[0]}")
    return lines


def first_json(done: CalcOut) -> dict[str, Any]:
    first = done.first
    assert first is not None
    return {
        "list": str(done.rating_list),
        "date": done.on.isoformat(),
        "period": str(done.period),
        "edition": done.editions,
        "rating": first.rating,
        "reason": engine_words(first.reason),
        "average": _dec(first.average),
        "unrounded": _dec(first.unrounded),
        "p": _dec(first.p),
        "games_counted": first.games,
        "points": _dec(first.points),
        "ignored": list(first.ignored),
        "ignored_reasons": ignored_words(first.ignored_reasons),
        "note": done.note,
    }


def first_lines(done: CalcOut) -> list[str]:
    """A first rating as `tracker calc --unrated` prints it, line by line."""
    first = done.first
    assert first is not None
    lines = [f"first rating: {calc_header(done)}"]
    if done.note:
        lines.append(done.note)
    lines.append(f"games against rated opponents {first.games}, points {_dec(first.points)}")
    for label, why in zip(first.ignored, first.ignored_reasons, strict=True):
        lines.append(f"ignored: {label} ({ignored_text(why)})")
    if first.average is not None:
        lines.append(f"average opponent rating Ra {first.average.quantize(Decimal('0.01'))}")
    if first.p is not None and first.unrounded is not None:
        p = Decimal(first.p.numerator) / Decimal(first.p.denominator)
        ru = first.unrounded.quantize(Decimal("0.01"))
        lines.append(f"p {p.quantize(Decimal('0.0001'))}, Ru {ru}")
    if first.rating is None:
        lines.append(f"no rating published: {engine_words(first.reason)}")
    else:
        extra = f" ({engine_text(first.reason)})" if first.reason else ""
        lines.append(f"first rating {first.rating}{extra}")
    return lines
