"""`check_all`: every player with an official rating, in one process or several.

Numbers as in tests/test_cli_check.py: official Oct 2025 1850 (K 20); "Autumn Open" (Nov
list) sums 0 -> 1850; "Club League" (Dec list) a win vs 1850 (D = 0, row 0-3, 0.50) ->
20 x 0.50 = +10 -> 1860.
"""

from __future__ import annotations

import pytest

from tests.builders import Season
from tracker import check
from tracker.app import check as checking
from tracker.model import RatingList
from tracker.store import Store

pytestmark = pytest.mark.databases  # on SQLite and on PostgreSQL (tests/conftest.py)


def _player(store: Store, name: str, fide_id: int, dec: int) -> None:
    s = Season(store, name=name, fide_id=fide_id, birth_year=1988, rated_games=100, me=False)
    t = s.tournament(f"Autumn Open {fide_id}", "2025-10-04", "2025-10-05")
    s.game(t, 1700, 1, own_elo=1850, date="2025-10-04", opponent=f"A {fide_id}")
    s.game(t, 1850, "1/2", own_elo=1850, date="2025-10-04", opponent=f"B {fide_id}")
    s.game(t, 2000, 0, own_elo=1850, date="2025-10-05", opponent=f"C {fide_id}")
    t2 = s.tournament(f"Club League {fide_id}", "2025-11-08", "2025-11-09")
    s.game(t2, 1850, 1, own_elo=1850, date="2025-11-08", opponent=f"D {fide_id}")
    s.official("2025-10", 1850, k=20)
    s.official("2025-12", dec, games_count=1)


def test_check_all_in_one_process_and_in_several(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    _player(store, "Adam, Ann", 99000001, 1860)
    _player(store, "Bauer, Ben", 99000002, 1859)  # one point off: a base correction
    _player(store, "Cruz, Cid", 99000003, 1860)
    one = checking.check_all(store)
    assert [(r.player, r.all_match) for r in one] == [
        ("Adam, Ann", True),
        ("Bauer, Ben", False),
        ("Cruz, Cid", True),
    ]
    assert one[1].differences[0].causes[0].kind == check.BASE_CORRECTION
    monkeypatch.setattr(checking, "CHUNK", 1)
    seen: list[tuple[int, int]] = []
    several = checking.check_all(
        store,
        (RatingList.STANDARD,),
        jobs=2,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert several == one
    assert seen[-1][0] == seen[-1][1]
