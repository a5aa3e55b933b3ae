"""tracker.store.games: the writer's caches never change what lands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, select

from tests.test_import import pgn, run, write
from tracker.store import open_store
from tracker.store.schema import games, player_names, players, tournaments


def _dump(db: Path) -> list[list[tuple[object, ...]]]:
    with open_store(str(db)) as s, s.engine.connect() as conn:
        return [
            [tuple(r) for r in conn.execute(select(t).order_by(*t.primary_key))]
            for t in (players, player_names, tournaments)
        ] + [
            [tuple(r)[:2] + tuple(r)[3:] for r in conn.execute(select(games).order_by(games.c.id))]
        ]


def test_bounded_caches_store_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tracker.importer.batches as importer
    import tracker.store.games as store_games

    monkeypatch.setattr(importer, "BATCH", 7)  # many batches, so caches are emptied often
    texts = [
        pgn(
            Round=str(r),
            White=f"P{r % 13}",
            Black=f"Q{r % 11}",
            WhiteFideId=str(500 + r % 13) if r % 3 else "",
            Event=f"Open {r % 4}",
            Site=f"Town {r % 2}",
            Date=f"2025.{1 + r % 12:02d}.{1 + r % 27:02d}",
        )
        for r in range(160)
    ]
    f = write(tmp_path / "c.pgn", *texts)
    dumps = []
    for limit in (10**9, 8):
        monkeypatch.setattr(store_games, "MAX_CACHED", limit)
        db = tmp_path / f"{limit}.db"
        with open_store(str(db)) as s:
            assert run(s, f).sources[0].added == 160
        dumps.append(_dump(db))
    assert dumps[0] == dumps[1]


def _games_indexes(db: Path) -> list[tuple[str, str]]:
    with open_store(str(db)) as s, s.engine.connect() as conn:
        rows = conn.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games' "
            "ORDER BY name"
        ).all()
    return [(str(n), str(q)) for n, q in rows]


def _season(tmp_path: Path, name: str, games_: int, offset: int = 0) -> Path:
    texts = [
        pgn(
            Round=str(r),
            White=f"P{r % 17}",
            Black=f"Q{r % 13}",
            Event=f"Open {r % 5}",
            Date=f"2025.{1 + r % 12:02d}.{1 + r % 27:02d}",
        )
        for r in range(offset, offset + games_)
    ]
    return write(tmp_path / name, *texts)


def _spy_on_deferral(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The games added each time the writer defers the indexes (it still does)."""
    import tracker.store.games as store_games

    calls: list[int] = []
    real = store_games.GameWriter._defer_indexes

    def spy(self: store_games.GameWriter) -> None:
        calls.append(self.added)
        real(self)

    monkeypatch.setattr(store_games.GameWriter, "_defer_indexes", spy)
    return calls


def test_deferred_indexes_store_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A big source into an empty database drops the secondary indexes of games and builds
    them again before the commit: same rows, same indexes (same SQL) as without."""
    import tracker.importer.batches as importer
    import tracker.store.games as store_games

    monkeypatch.setattr(importer, "BATCH", 7)
    f = _season(tmp_path, "s.pgn", 120)
    calls = _spy_on_deferral(monkeypatch)
    dumps, indexes = [], []
    for after in (10**9, 20):
        monkeypatch.setattr(store_games, "DEFER_INDEXES_AFTER", after)
        db = tmp_path / f"{after}.db"
        with open_store(str(db)) as s:
            assert run(s, f).sources[0].added == 120
            with s.engine.connect() as conn:
                assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
        dumps.append(_dump(db))
        indexes.append(_games_indexes(db))
    assert calls == [21]  # the first batch once 20 games were added (batches of 7)
    assert dumps[0] == dumps[1]
    assert indexes[0] == indexes[1]
    assert {n for n, _ in indexes[0]} >= set(store_games.DEFERRABLE_INDEXES)


def test_indexes_kept_when_the_database_holds_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deferring pays only when the source outweighs the table: a small source into a
    bigger database inserts into the indexes as it goes."""
    import tracker.importer.batches as importer
    import tracker.store.games as store_games

    monkeypatch.setattr(importer, "BATCH", 7)
    monkeypatch.setattr(store_games, "DEFER_INDEXES_AFTER", 10)
    calls = _spy_on_deferral(monkeypatch)
    db = tmp_path / "t.db"
    with open_store(str(db)) as s:
        assert run(s, _season(tmp_path, "big.pgn", 60)).sources[0].added == 60
        assert len(calls) == 1  # 60 games into an empty table: deferred once
        calls.clear()
        assert run(s, _season(tmp_path, "small.pgn", 30, offset=1000)).sources[0].added == 30
    assert calls == []  # 30 games into a table of 60: never


def test_a_failed_source_keeps_the_indexes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The drop is part of the source's transaction: when the source fails after it, the
    rollback brings the indexes back with the database as it was."""
    import tracker.store.games as store_games
    from tracker.importer.prepare import Preparer
    from tracker.pgn import read_games

    monkeypatch.setattr(store_games, "DEFER_INDEXES_AFTER", 5)
    f = _season(tmp_path, "s.pgn", 40)
    db = tmp_path / "t.db"
    before = _games_indexes(db)  # a new database, at the head of the migrations
    prepare = Preparer().prepare
    with f.open("rb") as stream:
        rows = [
            p for g in read_games(stream, f.name) for p in [prepare(g)] if not isinstance(p, str)
        ]
    with open_store(str(db)) as s:
        with pytest.raises(RuntimeError), store_games.GameWriter(s, "s.pgn", "") as w:
            for i in range(0, len(rows), 10):
                w.add(rows[i : i + 10])
            with w.conn.exec_driver_sql(
                "SELECT count(*) FROM sqlite_master WHERE name = 'ix_games_white_id'"
            ) as found:
                assert found.scalar() == 0  # dropped inside the transaction
            raise RuntimeError("the source failed")
        with s.engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM games").scalar() == 0
    assert _games_indexes(db) == before


def test_the_writer_binds_through_its_adapters_and_takes_them_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a writer stores a batch of games, sqlite3 finds an adapter for None, bool and
    bytes (the values it would otherwise look up in vain for every game); the values stored
    are those it stored without them (NULL, the integers 0 and 1, the identity's 16 bytes),
    and the adapters are gone right after the statement, also when it fails."""
    import sqlite3

    before = dict(sqlite3.adapters)
    seen: list[set[type]] = []
    real = Connection.exec_driver_sql

    def spy(self: Connection, sql: str, *args: Any, **kw: Any) -> Any:
        if sql.startswith("INSERT OR IGNORE INTO games"):
            seen.append({kind for kind, _ in sqlite3.adapters})
        return real(self, sql, *args, **kw)

    monkeypatch.setattr(Connection, "exec_driver_sql", spy)
    f = write(tmp_path / "a.pgn", pgn(), pgn(Round="2", Result="*", WhiteElo="2100 "))
    db = tmp_path / "t.db"
    with open_store(str(db)) as s:
        assert run(s, f).sources[0].added == 2
        assert seen and all({type(None), bool, bytes} <= kinds for kinds in seen)
        assert dict(sqlite3.adapters) == before
        with s.engine.connect() as conn:
            stored = conn.exec_driver_sql(
                "SELECT typeof(identity), length(identity), has_moves, typeof(has_moves), "
                "rated, typeof(rated), list_assumed, typeof(list_assumed), typeof(variant), "
                "white_elo_tag FROM games ORDER BY id"
            ).all()
        assert [tuple(r) for r in stored] == [
            ("blob", 16, 1, "integer", 1, "integer", 1, "integer", "null", None),
            ("blob", 16, 1, "integer", 0, "integer", 1, "integer", "null", "2100 "),
        ]

        def failing(self: Connection, sql: str, *args: Any, **kw: Any) -> Any:
            if sql.startswith("INSERT OR IGNORE INTO games"):
                assert (bool, sqlite3.PrepareProtocol) in sqlite3.adapters
                raise RuntimeError("the statement failed")
            return real(self, sql, *args, **kw)

        monkeypatch.setattr(Connection, "exec_driver_sql", failing)
        g = write(tmp_path / "b.pgn", pgn(Round="3"))
        with pytest.raises(RuntimeError):
            run(s, g)
        assert dict(sqlite3.adapters) == before


def test_an_adapter_registered_before_the_writer_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer adds only the adapters nobody registered, and takes away only its own
    (as above)."""
    import sqlite3

    def mine(value: bool) -> int:
        return int(value)

    sqlite3.register_adapter(bool, mine)
    try:
        with open_store(str(tmp_path / "t.db")) as s:
            assert run(s, write(tmp_path / "a.pgn", pgn())).sources[0].added == 1
        assert sqlite3.adapters[(bool, sqlite3.PrepareProtocol)] is mine
        assert (type(None), sqlite3.PrepareProtocol) not in sqlite3.adapters
    finally:
        del sqlite3.adapters[(bool, sqlite3.PrepareProtocol)]
