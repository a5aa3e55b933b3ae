"""FIDE's tables 8.1.2 and 8.1.1, row by row, read from the CSVs the package ships
(tracker/data), which a test checks are the spec's own (shared/spec).

Every expected value here comes from those CSV files (cross-checked against FIDE's
Handbook), never from our own code.
"""

from __future__ import annotations

import csv
from decimal import Decimal
from fractions import Fraction

import pytest

from tests.conftest import REPO, SPEC, need_shared
from tracker.fide import dp_for, expected_score, round_change, round_half_away

TABLES = REPO / "tracker" / "data"


def _spec_rows(name: str) -> list[dict[str, str]]:
    with (TABLES / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _spec_edges() -> list[tuple[int, Decimal, Decimal]]:
    """(D, p_high, p_low) for both edges of every row of table 8.1.2."""
    edges = []
    for r in _spec_rows("table-8-1-2.csv"):
        for d in (r["d_min"], r["d_max"]):
            if d.strip():
                edges.append((int(d), Decimal(r["p_high"]), Decimal(r["p_low"])))
    return edges


def _spec_dp() -> list[tuple[Decimal, int]]:
    return [(Decimal(r["p"]), int(r["dp"])) for r in _spec_rows("table-8-1-1.csv")]


@pytest.mark.parametrize("name", ["table-8-1-1.csv", "table-8-1-2.csv"])
def test_packaged_tables_are_the_spec_tables(name: str) -> None:
    need_shared()
    packaged = (TABLES / name).read_bytes()
    assert packaged == (SPEC / name).read_bytes()


def test_table_8_1_2_has_51_rows_and_8_1_1_has_101() -> None:
    assert len(_spec_rows("table-8-1-2.csv")) == 51
    assert len(_spec_rows("table-8-1-1.csv")) == 101


@pytest.mark.parametrize("d,p_high,p_low", _spec_edges())
def test_expected_score_on_every_row_edge_both_signs(
    d: int, p_high: Decimal, p_low: Decimal
) -> None:
    assert expected_score(d) == p_high
    assert expected_score(-d) == (p_low if d else p_high)  # D = 0: both sides 0.50


def test_open_last_row() -> None:
    # last row: D >= 736 -> 1.00 / 0.00, however large D is
    assert expected_score(736) == Decimal("1.00")
    assert expected_score(5000) == Decimal("1.00")
    assert expected_score(-5000) == Decimal("0.00")


@pytest.mark.parametrize("p,dp", _spec_dp())
def test_dp_for_every_p(p: Decimal, dp: int) -> None:
    assert dp_for(p) == dp
    assert dp_for(Fraction(p)) == dp


def test_dp_table_is_antisymmetric() -> None:
    table = dict(_spec_dp())
    assert len(table) == 101
    for p, dp in table.items():
        assert table[Decimal(1) - p] == -dp


@pytest.mark.parametrize(
    "p,dp",
    [
        (Fraction(5, 8), 95),  # 0.625 -> 0.63 half up (half-even would give 0.62 -> 87)
        (Fraction(1, 8), -322),  # 0.125 -> 0.13 -> -322
        (Fraction(2, 3), 125),  # 0.666.. -> 0.67 -> 125
        (Fraction(1, 3), -125),  # 0.333.. -> 0.33 -> -125
    ],
)
def test_dp_rounds_p_to_two_decimals_half_up(p: Fraction, dp: int) -> None:
    assert dp_for(p) == dp


def test_dp_rejects_impossible_p() -> None:
    with pytest.raises(ValueError):
        dp_for(Fraction(3, 2))


@pytest.mark.parametrize(
    "x,rounded",
    [
        ("2.5", 3),
        ("-2.5", -3),
        ("1.4", 1),
        ("-1.4", -1),
        ("0.5", 1),
        ("-0.5", -1),
        ("1.49", 1),
        ("-10.80", -11),
        ("0", 0),
        ("7.5000", 8),
    ],
)
def test_round_change_half_away_from_zero(x: str, rounded: int) -> None:
    # spec section 1.6: -2.5 -> -3, +2.5 -> +3
    assert round_change(Decimal(x)) == rounded


def test_round_half_away_places() -> None:
    assert round_half_away(Fraction(5, 8), 2) == Decimal("0.63")
    assert round_half_away(Fraction(-5, 8), 2) == Decimal("-0.63")


def test_table_8_1_2_rows_are_contiguous_from_zero() -> None:
    rows = _spec_rows("table-8-1-2.csv")
    assert rows[0]["d_min"] == "0" and rows[-1]["d_max"] == ""
    for a, b in zip(rows, rows[1:], strict=False):
        assert int(a["d_max"]) + 1 == int(b["d_min"])
    # every D inside a row has that row's value (not only its edges)
    for r in rows[:-1]:
        for d in range(int(r["d_min"]), int(r["d_max"]) + 1):
            assert expected_score(d) == Decimal(r["p_high"])
            assert expected_score(-d) == (Decimal(r["p_low"]) if d else Decimal("0.50"))
