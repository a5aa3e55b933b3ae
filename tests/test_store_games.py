"""tracker.store.games: the writer's caches never change what lands."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from tests.test_import import pgn, run, write
from tracker.store import open_store
from tracker.store.schema import games, player_names, players, tournaments


def _dump(db: Path) -> list[list[tuple[object, ...]]]:
    with open_store(str(db)) as s, s.engine.connect() as conn:
        return [[tuple(r) for r in conn.execute(select(t).order_by(*t.primary_key))]
                for t in (players, player_names, tournaments)] + [
            [tuple(r)[:2] + tuple(r)[3:] for r in conn.execute(select(games).order_by(
                games.c.id))]]


def test_bounded_caches_store_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tracker.importer as importer
    import tracker.store.games as store_games

    monkeypatch.setattr(importer, "BATCH", 7)  # many batches, so caches are emptied often
    texts = [pgn(Round=str(r), White=f"P{r % 13}", Black=f"Q{r % 11}",
                 WhiteFideId=str(500 + r % 13) if r % 3 else "",
                 Event=f"Open {r % 4}", Site=f"Town {r % 2}",
                 Date=f"2025.{1 + r % 12:02d}.{1 + r % 27:02d}") for r in range(160)]
    f = write(tmp_path / "c.pgn", *texts)
    dumps = []
    for limit in (10**9, 8):
        monkeypatch.setattr(store_games, "MAX_CACHED", limit)
        db = tmp_path / f"{limit}.db"
        with open_store(str(db)) as s:
            assert run(s, f).sources[0].added == 160
        dumps.append(_dump(db))
    assert dumps[0] == dumps[1]
