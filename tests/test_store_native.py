"""tracker.store.native: the writer's games rows bound through SQLite's C API
(tracker/store/_batch.c) store what Python's sqlite3 executemany stores, fail the way it
fails, and are used only where the extension can prove it fits."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import corpus_files, subprocess_env
from tests.test_import import pgn, run, write
from tracker.errors import DatabaseError
from tracker.importer import import_paths
from tracker.model import PreparedGame
from tracker.store import native, open_store
from tracker.store.games import GameWriter

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "sample_pgns"

needs_native = pytest.mark.skipif(
    native.NATIVE is None, reason="tracker.store._batch is not built or not usable here")


def _dump(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the database, every column of every row with its SQLite type (the
    times an import was made at aside)."""
    con = sqlite3.connect(db)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        found: dict[str, list[tuple[Any, ...]]] = {}
        for table in tables:
            cur = con.execute(f'SELECT * FROM "{table}" ORDER BY rowid')
            names = [d[0] for d in cur.description]
            keep = [i for i, n in enumerate(names) if n not in ("started_at", "finished_at")]
            found[table] = [tuple((type(r[i]).__name__, r[i]) for i in keep) for r in cur]
        found["sqlite_master"] = sorted(
            con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall())
    finally:
        con.close()
    return found


def _import(db: Path, groups: list[list[str]], monkeypatch: pytest.MonkeyPatch,
            *, bound: bool) -> list[list[tuple[Any, ...]]]:
    """Import each group of paths in turn into a new database, through the C extension or
    (bound false) through executemany; the reports."""
    reports = []
    with monkeypatch.context() as m:
        if not bound:
            m.setattr(native, "NATIVE", None)
        with open_store(str(db)) as s:
            for paths in groups:
                rep = import_paths(s, paths)
                reports.append([(r.name, r.games_read, r.added, r.duplicates, r.skipped,
                                 list(r.problems), r.error) for r in rep.sources])
    return reports


@needs_native
def test_both_paths_store_the_same_corpus_and_season(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every corpus file, the sample season, then the corpus again (all duplicates, the
    clash lookups): the same databases, every table and column, and the same reports."""
    files = [str(p) for p in corpus_files()]
    groups = [files, [str(SAMPLES)], files] if files else [[str(SAMPLES)], [str(SAMPLES)]]
    dumps, reports = [], []
    for bound in (True, False):
        db = tmp_path / f"{bound}.db"
        reports.append(_import(db, groups, monkeypatch, bound=bound))
        dumps.append(_dump(db))
    assert reports[0] == reports[1]
    assert dumps[0].keys() == dumps[1].keys()
    for table in dumps[0]:
        assert dumps[0][table] == dumps[1][table], table
    assert len(dumps[0]["games"]) > (1000 if files else 50)


# -- the extension itself, on a plain sqlite3 connection ------------------------------------

_TABLE = ("CREATE TABLE t (k INTEGER PRIMARY KEY, u TEXT UNIQUE, a, b, "
          "p INTEGER REFERENCES parent (id))")


def _connect(path: Path, **kw: Any) -> sqlite3.Connection:
    con: sqlite3.Connection = sqlite3.connect(path, isolation_level=None, **kw)
    con.execute("PRAGMA foreign_keys = ON")
    con.execute("CREATE TABLE IF NOT EXISTS parent (id INTEGER PRIMARY KEY)")
    con.execute(_TABLE.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"))
    con.execute("INSERT OR IGNORE INTO parent VALUES (1)")
    return con


_SQL = "INSERT OR IGNORE INTO t (u, a, b, p) VALUES (?, ?, ?, ?)"


class _Int(int):
    pass


class _Str(str):
    pass


_VALUES: list[tuple[Any, ...]] = [
    ("none", None, None, None),
    ("ints", 0, -(2**63), 1),
    ("max", 2**63 - 1, _Int(7), None),
    ("bools", True, False, 1),
    ("float", 1.5, -0.0, None),
    ("text", "Novák, Tomáš", "", None),
    ("astral", "\U0001F600 ♞", _Str("sub"), None),
    ("blob", b"\x00\xff" * 8, b"", None),
    ("buffers", bytearray(b"ab"), memoryview(b"cd"), None),
    ("none", 1, 2, None),  # a duplicate of the first: ignored, not counted
]


def _stored(con: sqlite3.Connection) -> list[tuple[Any, ...]]:
    return con.execute(
        "SELECT u, a, typeof(a), b, typeof(b), p FROM t ORDER BY k").fetchall()


@needs_native
def test_insert_binds_as_executemany_binds(tmp_path: Path) -> None:
    """Every kind of value the writer binds (and the few it does not: floats, buffers,
    subclasses): the same values of the same types, and the same count of rows inserted
    (a duplicate ignored by INSERT OR IGNORE counts nothing)."""
    assert native.NATIVE is not None
    con = _connect(tmp_path / "a.db")
    ref = _connect(tmp_path / "b.db")
    con.execute("BEGIN")
    ref.execute("BEGIN")
    assert native.NATIVE.insert(con, _SQL, _VALUES) == len(_VALUES) - 1
    assert ref.executemany(_SQL, _VALUES).rowcount == len(_VALUES) - 1
    con.execute("COMMIT")
    ref.execute("COMMIT")
    assert _stored(con) == _stored(ref)
    assert len(_stored(con)) == len(_VALUES) - 1


@needs_native
def test_insert_takes_the_resolved_ids_the_fixed_values_and_the_picks(tmp_path: Path) -> None:
    """A row's values: its own tuple, then `fixed`, then the items `picks` of its game."""
    assert native.NATIVE is not None
    con = _connect(tmp_path / "a.db")
    con.execute("BEGIN")
    games = [("x", "g1", 10, "y"), ("x", "g2", 20, "y")]
    sql = "INSERT INTO t (p, b, u, a) VALUES (?, ?, ?, ?)"
    assert native.NATIVE.insert(con, sql, [(1,), (None,)], games, ("fixed",), (1, 2)) == 2
    assert _stored(con) == [("g1", 10, "integer", "fixed", "text", 1),
                            ("g2", 20, "integer", "fixed", "text", None)]
    with pytest.raises(IndexError):
        native.NATIVE.insert(con, sql, [(1,)], [("short",)], ("fixed",), (1, 2))
    with pytest.raises(ValueError):
        native.NATIVE.insert(con, sql, [(1,), (1,)], [games[0]], ("fixed",), (1, 2))


def _both(tmp_path: Path, rows: list[tuple[Any, ...]], sql: str = _SQL,
          **kw: Any) -> tuple[BaseException, BaseException, list[Any], list[Any]]:
    """The exceptions of the extension and of executemany for the same rows, and what each
    database holds after the rollback."""
    assert native.NATIVE is not None
    found: list[BaseException] = []
    held = []
    for name, call in (("a", native.NATIVE.insert), ("b", None)):
        con = _connect(tmp_path / f"{name}.db", **kw)
        con.execute("INSERT INTO t (u) VALUES ('before')")
        con.execute("BEGIN")
        with pytest.raises(Exception) as caught:
            if call is None:
                con.executemany(sql, rows)
            else:
                call(con, sql, rows)
        found.append(caught.value)
        con.execute("ROLLBACK")
        held.append(_stored(con))
        con.execute("DROP TABLE t")  # nothing of the statement left running on it
        con.close()
    return found[0], found[1], held[0], held[1]


@pytest.mark.parametrize("bad", [
    pytest.param(("big", 2**63, None, None), id="int too large"),
    pytest.param(("small", -(2**63) - 1, None, None), id="int too small"),
    pytest.param(("surrogate", "\udc80", None, None), id="surrogate"),
    pytest.param(("object", object(), None, None), id="an object"),
    pytest.param(("fk", None, None, 99), id="a foreign key"),
    pytest.param(("few", None), id="too few values"),
])
@needs_native
def test_insert_fails_as_executemany_fails(tmp_path: Path, bad: tuple[Any, ...]) -> None:
    """A value SQLite cannot take, a constraint, a row of the wrong length: the same
    exception (class, message, SQLite's code) as executemany, raised after the rows before
    it (in the transaction, which the caller rolls back)."""
    mine, theirs, held, ref = _both(tmp_path, [("ok", 1, 2, None), bad])
    assert type(mine) is type(theirs)
    assert str(mine) == str(theirs)
    for attr in ("sqlite_errorcode", "sqlite_errorname"):
        assert getattr(mine, attr, None) == getattr(theirs, attr, None)
    assert held == ref == [("before", None, "null", None, "null", None)]


def _statements(con: sqlite3.Connection) -> int:
    """How many prepared statements the connection's handle has (sqlite3_next_stmt, called
    through ctypes on the handle the extension binds through: the first field after the
    object's head)."""
    import _sqlite3
    import ctypes

    lib = ctypes.CDLL(_sqlite3.__file__)
    lib.sqlite3_next_stmt.restype = ctypes.c_void_p
    lib.sqlite3_next_stmt.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    db = ctypes.c_void_p.from_address(id(con) + object.__basicsize__).value
    count, st = 0, lib.sqlite3_next_stmt(db, None)
    while st:
        count += 1
        st = lib.sqlite3_next_stmt(db, st)
    return count


@needs_native
def test_the_statement_is_finalized_on_every_path(tmp_path: Path) -> None:
    """After a batch stored, a value refused, a constraint, a row of the wrong length, SQL
    that does not prepare or is not one statement: the connection has no statement more
    than before (sqlite3's own cache aside)."""
    assert native.NATIVE is not None
    con = _connect(tmp_path / "a.db")
    con.execute("BEGIN")
    before = _statements(con)
    assert native.NATIVE.insert(con, _SQL, [("a", 1, 2, None)]) == 1
    assert _statements(con) == before
    failing: list[tuple[str, list[tuple[Any, ...]]]] = [
        (_SQL, [("b", 1, 2, None), ("c", 2**64, None, None)]),
        (_SQL, [("d", "\udc80", None, None)]),
        (_SQL, [("e", 1, 2, 99)]),
        (_SQL, [("f", 1)]),
        (_SQL, [("g", object(), None, None)]),
        ("INSERT INTO nowhere VALUES (?)", [(1,)]),
        (_SQL + "; SELECT 1", [("h", 1, 2, None)]),
        ("SELECT ?", [(1,)]),
    ]
    for sql, rows in failing:
        with pytest.raises((sqlite3.Error, OverflowError, UnicodeEncodeError)):
            native.NATIVE.insert(con, sql, rows)
        assert _statements(con) == before, (sql, rows)
    con.execute("ROLLBACK")


@needs_native
def test_a_busy_database_fails_as_executemany_fails(tmp_path: Path) -> None:
    """Another connection holds the write lock: after the busy timeout, "database is
    locked" (OperationalError), as executemany says it."""
    db = tmp_path / "a.db"
    holder = _connect(db)
    holder.execute("BEGIN IMMEDIATE")
    try:
        assert native.NATIVE is not None
        found = []
        for call in (native.NATIVE.insert, None):
            con = sqlite3.connect(db, isolation_level=None, timeout=0.05)
            con.execute("BEGIN")  # deferred: the write lock is asked for by the insert
            with pytest.raises(sqlite3.OperationalError) as caught:
                if call is None:
                    con.executemany(_SQL, [("x", 1, 2, None)])
                else:
                    call(con, _SQL, [("x", 1, 2, None)])
            found.append(caught.value)
            con.execute("ROLLBACK")
            con.close()
        assert str(found[0]) == str(found[1]) == "database is locked"
        assert found[0].sqlite_errorcode == found[1].sqlite_errorcode
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@needs_native
def test_insert_refuses_what_it_cannot_take(tmp_path: Path) -> None:
    """The wrong object, a closed connection, no transaction, a statement that is not one
    INSERT: refused before anything is written."""
    assert native.NATIVE is not None
    insert = native.NATIVE.insert
    con = _connect(tmp_path / "a.db")
    with pytest.raises(TypeError, match="sqlite3.Connection"):
        insert(object(), _SQL, [("x", 1, 2, None)])
    with pytest.raises(sqlite3.ProgrammingError, match="transaction"):
        insert(con, _SQL, [("x", 1, 2, None)])
    con.execute("BEGIN")
    with pytest.raises(sqlite3.ProgrammingError, match="one INSERT"):
        insert(con, "SELECT ?", [(1,)])
    with pytest.raises(sqlite3.ProgrammingError, match="one statement"):
        insert(con, _SQL + "; DELETE FROM t", [("x", 1, 2, None)])
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        insert(con, "INSERT INTO nowhere VALUES (?)", [(1,)])
    with pytest.raises(TypeError):
        insert(con, _SQL, [["x", 1, 2, None]])  # type: ignore[list-item] # (not a tuple)
    assert insert(con, _SQL, []) == 0
    con.execute("COMMIT")
    assert _stored(con) == []
    con.close()
    with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
        insert(con, _SQL, [("x", 1, 2, None)])

    class Mine(sqlite3.Connection):
        pass

    sub = sqlite3.connect(tmp_path / "a.db", isolation_level=None, factory=Mine)
    sub.execute("BEGIN")
    assert insert(sub, _SQL, [("x", 1, 2, None)]) == 1
    sub.execute("COMMIT")
    sub.close()
    assert native.usable(sub) is False  # (closed)
    assert native.usable(object()) is False


@needs_native
def test_ctrl_c_stops_a_long_batch(tmp_path: Path) -> None:
    """SIGINT while a long batch is stored (sent by another thread while the statement
    runs): the insert stops with KeyboardInterrupt before the end of the batch (it looks at
    the signals every SIGNAL_EVERY rows)."""
    assert native.NATIVE is not None
    con = _connect(tmp_path / "a.db")
    rows = [(str(i), i, None, None) for i in range(1_000_000)]
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    ctrl_c = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    try:
        con.execute("BEGIN")
        ctrl_c.start()
        with pytest.raises(KeyboardInterrupt):
            native.NATIVE.insert(con, _SQL, rows)
            time.sleep(5)  # (not reached: at most the wait for the signal, if it is late)
        (stored,) = con.execute("SELECT count(*) FROM t").fetchone()
        con.execute("ROLLBACK")
    finally:
        ctrl_c.join()
        signal.signal(signal.SIGINT, old)
    every = native.NATIVE.SIGNAL_EVERY  # type: ignore[attr-defined]
    assert 0 < stored < len(rows) and stored % every == 0


# -- through the writer ---------------------------------------------------------------------

_GAME = PreparedGame(
    line=1, white="A, B", white_norm="a b", white_fide=None, black="C, D", black_norm="c d",
    black_fide=None, event="E", site="S", event_date="2025-01-01", online=False,
    identity=b"0123456789abcdef", date="2025-01-01", date_tag="2025.01.01", round="1",
    result="1-0", white_elo=None, black_elo=None, white_elo_tag=None, black_elo_tag=None,
    white_title=None, black_title=None, time_control=None, termination=None, variant=None,
    has_moves=True, list="standard", list_assumed=False, rated=True, not_rated_reason=None)


def _broken(w: GameWriter, how: str) -> list[tuple[Any, ...]]:
    """A second batch (the same players and tournament: only the games insert runs) that
    the database cannot take, made so as `how` says."""
    game = _GAME._replace(identity=b"1123456789abcdef", line=2, round="2")
    if how == "constraint":
        w.import_id = 10**6  # no such import: the foreign key fails
    elif how == "int too large":
        game = game._replace(white_elo=2**64)
    elif how == "surrogate":
        game = game._replace(termination="bad \udcff")
    elif how == "closed":
        raw = w.conn.connection.driver_connection
        assert raw is not None
        raw.close()
    return [tuple(game)]


@pytest.mark.parametrize("bound", [True, False], ids=["C binding", "executemany"])
@pytest.mark.parametrize("how, said", [
    ("constraint", "the database refused a game: FOREIGN KEY constraint failed"),
    ("int too large",
     "the database refused a game: Python int too large to convert to SQLite INTEGER"),
    ("surrogate", "the database refused a game: 'utf-8' codec can't encode character "
                  "'\\udcff' in position 4: surrogates not allowed"),
    ("closed", "cannot write to the database: Cannot operate on a closed database."),
])
def test_the_writer_says_one_line_and_keeps_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bound: bool, how: str, said: str
) -> None:
    """A game the database refuses, on either path: one line (DatabaseError), and the
    database as it was before the source (its transaction rolled back)."""
    if bound and native.NATIVE is None:
        pytest.skip("tracker.store._batch is not built or not usable here")
    if not bound:
        monkeypatch.setattr(native, "NATIVE", None)
    db = tmp_path / "t.db"
    with open_store(str(db)) as s:
        assert run(s, write(tmp_path / "a.pgn", pgn())).sources[0].added == 1
        before = _dump(db)
        with pytest.raises(DatabaseError) as caught, GameWriter(s, "x.pgn", "") as w:
            assert (w._native is not None) is bound
            assert w.add([tuple(_GAME._replace(identity=b"2" * 16))]) == 1
            w.add(_broken(w, how))
    assert str(caught.value) == said
    assert "\n" not in str(caught.value)
    assert _dump(db) == before


# -- which path runs ------------------------------------------------------------------------


def test_the_gates_refuse_what_they_should(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    """TRACKER_PURE_PYTHON=1, a Python whose layout was not checked, another interface
    version, a build older than its C source: no extension."""
    with monkeypatch.context() as m:
        m.setenv("TRACKER_PURE_PYTHON", "1")
        assert native.load() is None
    with monkeypatch.context() as m:
        m.setattr(native, "LAYOUTS", ((3, 99),))
        assert native.load() is None
    if native.NATIVE is None:
        pytest.skip("tracker.store._batch is not built or not usable here")
    assert native.load() is native.NATIVE
    with monkeypatch.context() as m:
        m.setattr(native, "VERSION", native.VERSION + 1)
        assert native.load() is None
    newer = tmp_path / "_batch.c"
    newer.write_text("/* edited after the build */\n")
    built = os.stat(str(native.NATIVE.__file__)).st_mtime_ns  # type: ignore[attr-defined]
    os.utime(newer, ns=(built + 10**9, built + 10**9))
    with monkeypatch.context() as m:
        m.setattr(native, "SOURCE", str(newer))
        assert native.load() is None


_OTHER_LIBRARY = textwrap.dedent("""
    import sqlite3, sys, types
    import _sqlite3
    import tracker.pgn._speedups as other  # a loaded extension that has no SQLite
    fake = types.ModuleType("_sqlite3")
    fake.__dict__.update({k: v for k, v in vars(_sqlite3).items() if not k.startswith("__")})
    fake.__file__ = FILE
    sys.modules["_sqlite3"] = fake
    import tracker.store._batch as b
    sys.modules["_sqlite3"] = _sqlite3
    import tracker.store.native as n
    print(b.LINKED, b.WHY, n.NATIVE, sep="|")
    con = sqlite3.connect(":memory:", isolation_level=None)
    con.execute("CREATE TABLE t (a)")
    con.execute("BEGIN")
    try:
        b.insert(con, "INSERT INTO t VALUES (?)", [(1,)])
    except RuntimeError as exc:
        print(exc)
""")


@needs_native
@pytest.mark.parametrize("file, why", [
    ("other.__file__", "sqlite3_libversion is not the function Python's _sqlite3 calls"),
    ("'/nowhere/_sqlite3.so'", "/nowhere/_sqlite3.so is not loaded"),
    ("None", "Python's _sqlite3 module has no file"),
])
def test_another_sqlite_library_is_refused(file: str, why: str) -> None:
    """When the functions the extension was linked to cannot be shown to be those of
    Python's `_sqlite3` (here a `_sqlite3` that names another file), it says why and is
    not used; its insert refuses."""
    out = subprocess.run(
        [sys.executable, "-c", _OTHER_LIBRARY.replace("FILE", file)], cwd=REPO,
        env=subprocess_env(), capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0] == f"False|{why}|None"
    assert lines[1] == f"tracker.store._batch cannot be used here: {why}"


@needs_native
def test_the_extension_is_linked_to_pythons_sqlite() -> None:
    """Here the check at load found Python's own SQLite library (the one sqlite3 reports)."""
    mod: Any = native.NATIVE
    assert mod.LINKED is True and mod.WHY == "" and mod.LAYOUT == 1
    assert sqlite3.sqlite_version == mod.SQLITE_VERSION
