"""`tracker.store.maintenance` and `tracker db backup|check`; the schema upgrade from the
first released schema (tests/data/schema-0001.db, see make_schema_0001.py beside it).

The damaged databases are made by hand with sqlite3 (foreign keys and CHECK constraints
switched off for that connection), so each invariant is seen failing once.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest
from alembic import command

from tests.conftest import REPO, dump_db, run_cli
from tests.test_import import pgn, write
from tracker.app.importing import ImportOptions, import_paths
from tracker.errors import BadInput, DatabaseError, NotFound
from tracker.store import Store, open_store
from tracker.store.db import _alembic_config, current_revision, head_revision
from tracker.store.maintenance import INVARIANTS, backup, check_database, open_existing

FIXTURE_0001 = REPO / "tests" / "data" / "schema-0001.db"


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


_TEMPLATE: dict[str, bytes] = {}


def _filled(tmp_path: Path, name: str = "f.db") -> Path:
    """A database holding three imported games (built once, then copied: faster)."""
    db = tmp_path / name
    write(tmp_path / "games.pgn", "x")
    if not _TEMPLATE:
        f = write(
            tmp_path / "games.pgn",
            pgn(Round="1"),
            pgn(Round="2", White="Dvorak, Ivo"),
            pgn(Round="3", Black="Dvorak, Ivo", WhiteFideId="99012345"),
        )
        with open_store(str(db)) as store:
            (s,) = import_paths(store, [str(f)], ImportOptions()).sources
            assert s.added == 3
        _TEMPLATE["db"] = db.read_bytes()  # closing the store checkpointed the WAL
        return db
    db.write_bytes(_TEMPLATE["db"])
    return db


def _raw(db: Path, *sql: str) -> None:
    con = sqlite3.connect(db)
    con.execute("PRAGMA foreign_keys = OFF")
    con.execute("PRAGMA ignore_check_constraints = ON")
    for s in sql:
        con.execute(s)
    con.commit()
    con.close()


def _checks(db: Path) -> dict[str, int]:
    with open_existing(str(db)) as store:
        return {p.check: p.count for p in check_database(store)}


def test_a_fresh_import_passes_every_check(tmp_path: Path) -> None:
    assert _checks(_filled(tmp_path)) == {}


def test_an_empty_database_passes(store: Store) -> None:
    assert check_database(store) == []


# Each damage, and the one check (with its count) that must report it.
DAMAGE = [
    ("UPDATE games SET white_id = 999 WHERE id = 1", "game-white", 1),
    ("UPDATE games SET black_id = 999 WHERE id IN (1, 2)", "game-black", 2),
    ("UPDATE games SET tournament_id = 999 WHERE id = 1", "game-tournament", 1),
    ("UPDATE games SET import_id = 999 WHERE id = 1", "game-import", 1),
    ("UPDATE games SET black_id = white_id WHERE id = 1", "game-self", 1),
    ("UPDATE games SET list = 'bullet' WHERE id = 1", "game-list", 1),
    ("UPDATE games SET result = '2-0' WHERE id = 1", "game-result", 1),
    ("INSERT INTO player_names VALUES ('nobody', 999)", "player-name", 1),
    (
        "INSERT INTO official_ratings (player_id, list, period, source, recorded_at) "
        "VALUES (999, 'standard', '2025-01', 'manual', '2025-01-01')",
        "official-player",
        1,
    ),
    (
        "INSERT INTO official_ratings (player_id, list, period, source, recorded_at) "
        "VALUES (1, 'bullet', '2025-01', 'manual', '2025-01-01')",
        "official-list",
        1,
    ),
    (
        "INSERT INTO official_ratings (player_id, list, period, source, recorded_at) "
        "VALUES (1, 'standard', '2025-13', 'manual', '2025-01-01')",
        "official-period",
        1,
    ),
    ("UPDATE tournaments SET pinned_period = 'March' WHERE id = 1", "tournament-period", 1),
    ("UPDATE tournaments SET end_date = '2000-01-01' WHERE id = 1", "tournament-dates", 1),
    ("UPDATE games SET date = '9999-12-31' WHERE id IN (1, 2)", "game-date", 2),
    ("UPDATE tournaments SET end_date = '9999-11-30' WHERE id = 1", "tournament-date", 1),
    (
        "INSERT INTO imports (source, content_hash, started_at) VALUES ('x.pgn', 'h', "
        "'2025-01-01')",
        "import-unfinished",
        1,
    ),
]


@pytest.mark.parametrize("sql,check,count", DAMAGE, ids=[d[1] for d in DAMAGE])
def test_each_invariant_reports_its_damage(
    tmp_path: Path, sql: str, check: str, count: int
) -> None:
    db = _filled(tmp_path)
    _raw(db, sql)
    found = _checks(db)
    assert found.get(check) == count, found
    # Dangling references are also what SQLite's foreign_key_check sees, and a broken CHECK
    # constraint what its integrity_check sees; nothing else is reported.
    also = {"foreign-keys"} | ({"integrity"} if check.endswith("-list") else set())
    assert set(found) <= {check} | also, found


def _without_unique(db: Path, table: str, constraint: str) -> None:
    """Rebuild `table` without one UNIQUE constraint (the only way to store a duplicate)."""
    con = sqlite3.connect(db)
    (ddl,) = con.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    start = ddl.index(f", \n\tCONSTRAINT {constraint}")
    end = ddl.index(")", ddl.index("UNIQUE", start)) + 1
    new = ddl[:start] + ddl[end:]
    con.executescript(f"""
        PRAGMA foreign_keys = OFF;
        PRAGMA legacy_alter_table = ON;
        BEGIN;
        ALTER TABLE {table} RENAME TO old_{table};
        {new};
        INSERT INTO {table} SELECT * FROM old_{table};
        DROP TABLE old_{table};
        COMMIT;
    """)
    con.close()


def test_duplicate_identity_and_fide_id_are_found(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    _without_unique(db, "games", "uq_games_identity")
    _without_unique(db, "players", "uq_players_fide_id")
    _raw(
        db,
        "INSERT INTO games (identity, tournament_id, white_id, black_id, result, "
        "has_moves, list, rated) SELECT identity, tournament_id, white_id, black_id, "
        "result, has_moves, list, rated FROM games WHERE id = 1",
        "UPDATE players SET fide_id = 99012345 WHERE fide_id IS NULL AND id = "
        "(SELECT min(id) FROM players WHERE fide_id IS NULL)",
    )
    found = _checks(db)
    assert found["game-identity"] == 1 and found["player-fide-id"] == 1, found


def test_every_invariant_has_a_damage_test() -> None:
    tested = {d[1] for d in DAMAGE} | {"game-identity", "player-fide-id", "official-duplicate"}
    assert {name for name, _, _ in INVARIANTS} <= tested


def test_duplicate_official_entry_is_found(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    _without_unique(db, "official_ratings", "uq_official_ratings_player_id_list_period")
    entry = (
        "INSERT INTO official_ratings (player_id, list, period, rating, source, "
        "recorded_at) VALUES (1, 'standard', '2025-01', 1800, 'manual', '2025-01-01')"
    )
    _raw(db, entry, entry)
    assert _checks(db) == {"official-duplicate": 1}


def test_a_damaged_file_is_reported_not_raised(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode = DELETE")
    page = con.execute("PRAGMA page_size").fetchone()[0]
    (root,) = con.execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'ix_games_white_id'"
    ).fetchone()
    con.close()
    with db.open("r+b") as fh:  # scribble over one index page (not the header, not page 1)
        fh.seek((root - 1) * page + 8)
        fh.write(b"\xff" * 64)
    found = _checks(db)
    assert "integrity" in found or "unreadable" in found, found


def test_an_older_schema_is_a_problem(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    shutil.copy(FIXTURE_0001, db)
    found = {p.check: p.message for p in check_database(open_existing(str(db)))}
    assert found == {
        "schema": f"schema 0001 is not the current {head_revision()}: run `tracker db upgrade`"
    }


# --- backup -----------------------------------------------------------------------------


def test_backup_is_a_whole_copy(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    copy = tmp_path / "copy.db"
    with open_existing(str(db)) as store:
        done = backup(store, copy)
    assert done.size == copy.stat().st_size > 0 and done.removed == ()
    assert dump_db(copy) == dump_db(db)
    assert not list(tmp_path.glob("*.part")) and not (tmp_path / "copy.db-wal").exists()
    with open_existing(str(copy)) as store:
        assert check_database(store) == []


def test_backup_during_an_open_write_copies_the_committed_state(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    before = dump_db(db)
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # as an import holds it
    writer.execute("DELETE FROM games")
    try:
        with open_existing(str(db)) as store:
            backup(store, tmp_path / "snap.db")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert dump_db(tmp_path / "snap.db") == before


def test_backup_while_importing_in_a_thread(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    big = write(
        tmp_path / "big.pgn", *(pgn(Round=str(i), Event="Thread Open") for i in range(3000))
    )
    errors: list[BaseException] = []

    def work() -> None:
        try:
            with open_store(str(db)) as s:
                import_paths(s, [str(big)], ImportOptions())
        except BaseException as exc:  # noqa: BLE001 - reported by the assert below
            errors.append(exc)

    t = threading.Thread(target=work)
    t.start()
    with open_existing(str(db)) as store:
        backup(store, tmp_path / "mid.db")
    t.join()
    assert not errors
    games = sqlite3.connect(tmp_path / "mid.db").execute("SELECT count(*) FROM games")
    assert games.fetchone()[0] in (3, 3003)  # before the big file, or after it: never between


@pytest.mark.parametrize("case", ["exists", "folder", "no-folder", "itself"])
def test_backup_refusals(tmp_path: Path, case: str) -> None:
    db = _filled(tmp_path)
    target = {
        "exists": tmp_path / "games.pgn",
        "folder": tmp_path,
        "no-folder": tmp_path / "nope" / "b.db",
        "itself": db,
    }[case]
    before = target.read_bytes() if target.is_file() else None
    with open_existing(str(db)) as store, pytest.raises(BadInput):
        backup(store, target, overwrite=case == "itself")  # --force never overwrites the db
    if before is not None:
        assert target.read_bytes() == before
    assert not list(tmp_path.glob(".*.part"))


def test_backup_force_replaces(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    old = write(tmp_path / "old.db", "not a database")
    with open_existing(str(db)) as store:
        backup(store, old, overwrite=True)
    assert dump_db(old) == dump_db(db)


def test_backup_of_a_non_file_database_is_refused(tmp_path: Path) -> None:
    with open_store("sqlite://") as store, pytest.raises(DatabaseError, match="SQLite"):
        backup(store, tmp_path / "m.db")


def test_open_existing_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="no database at"):
        open_existing(str(tmp_path / "missing.db"))
    assert not (tmp_path / "missing.db").exists()


# --- the commands -----------------------------------------------------------------------


def test_cli_check_and_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)
    db = _filled(tmp_path)
    code, out, err = run(capsys, monkeypatch, "db", "check", "--db", str(db))
    assert (code, out, err) == (0, f"{db}: ok (integrity and every invariant hold)\n", "")
    code, out, err = run(capsys, monkeypatch, "db", "backup", "b.db", "--db", str(db))
    assert code == 0 and out.startswith(f"backed up {db} to b.db (") and err == ""
    code, out, err = run(capsys, monkeypatch, "db", "backup", "b.db", "--db", str(db))
    assert (code, out) == (2, "")
    assert err == "error: b.db already exists: give another name, or --force to replace it\n"
    code, out, err = run(capsys, monkeypatch, "db", "backup", "b.db", "--force", "--db", str(db))
    assert code == 0
    _raw(db, "UPDATE games SET black_id = white_id WHERE id = 1")
    code, out, err = run(capsys, monkeypatch, "db", "check", "--db", str(db), "-f", "json")
    assert code == 1
    assert json.loads(out) == {
        "ok": False,
        "problems": [
            {
                "check": "game-self",
                "count": 1,
                "message": "1 games have the same player on both sides",
            }
        ],
    }
    assert err == (
        f"error: {db}: 1 problem found; restore a backup (tracker db restore BACKUP) "
        "or report them\n"
    )
    code, out, err = run(capsys, monkeypatch, "db", "check", "--db", "missing.db")
    assert (code, out) == (1, "")
    assert err == "error: no database at missing.db: give the file with --db (or TRACKER_DB)\n"


# --- restore ------------------------------------------------------------------------------


def _crash_after_a_commit(db: Path, sql: str) -> None:
    """A process that commits `sql` into `db` and dies (no close, no checkpoint): the -wal
    and -shm stay beside the database holding that commit, as after a SIGKILL."""
    import subprocess
    import sys

    code = (
        "import os, sqlite3, sys\n"
        "con = sqlite3.connect(sys.argv[1])\n"
        "con.execute('PRAGMA journal_mode = WAL')\n"
        "con.execute('PRAGMA wal_autocheckpoint = 0')\n"
        "con.execute(sys.argv[2])\n"
        "con.commit()\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(db), sql], check=True, timeout=60)
    assert Path(f"{db}-wal").stat().st_size > 0


def _names(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [r[0] for r in con.execute("SELECT name FROM players ORDER BY id")]
    finally:
        con.close()


def test_copying_a_backup_back_after_a_crash_is_what_restore_prevents(tmp_path: Path) -> None:
    """The hazard itself, seen for real: the backup copied over the database by hand, with
    the crashed process's -wal beside it, reads back the crashed state, not the backup."""
    db = _filled(tmp_path)
    with open_existing(str(db)) as store:
        backup(store, tmp_path / "b.db")
    _crash_after_a_commit(db, "UPDATE players SET name = 'Crashed'")
    shutil.copyfile(tmp_path / "b.db", db)
    assert set(_names(db)) == {"Crashed"}  # SQLite replayed the stale -wal onto the copy


def test_restore_after_a_crash_gives_the_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19, item 2: `tracker db restore BACKUP` moves the database and its stale -wal and
    -shm aside together, so the restored file is the backup, whole."""
    db = _filled(tmp_path)
    wanted = _names(db)
    with open_existing(str(db)) as store:
        backup(store, tmp_path / "b.db")
    _crash_after_a_commit(db, "UPDATE players SET name = 'Crashed'")
    code, out, err = run(
        capsys, monkeypatch, "db", "restore", str(tmp_path / "b.db"), "--db", str(db)
    )
    assert code == 0, err
    assert out.startswith(f"restored {db} from {tmp_path / 'b.db'} (")
    assert "the replaced files are kept as" in out and ".replaced-" in out
    assert _names(db) == wanted
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
    assert _checks(db) == {}
    kept = sorted(p.name for p in tmp_path.iterdir() if ".replaced-" in p.name)
    assert len([k for k in kept if not k.endswith(("-wal", "-shm"))]) == 1
    # the crashed state is kept, not lost: the aside copy (SQLite moved its -wal into it
    # when the lock was probed, or it lies beside it) reads 'Crashed'
    aside = tmp_path / next(k for k in kept if not k.endswith(("-wal", "-shm")))
    assert set(_names(aside)) == {"Crashed"}
    code, out, err = run(capsys, monkeypatch, "db", "check", "--db", str(db))
    assert code == 0, err


@pytest.mark.parametrize("case", ["missing", "not-sqlite", "foreign-sqlite", "itself", "postgres"])
def test_restore_refusals_change_nothing(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _filled(tmp_path)
    before = db.read_bytes()
    source = tmp_path / "b.db"
    target = str(db)
    if case == "not-sqlite":
        source.write_text('[Event "x"]\n')
    elif case == "foreign-sqlite":
        sqlite3.connect(source).execute("CREATE TABLE t (x)").connection.close()
    elif case == "itself":
        source = db
    elif case == "postgres":
        shutil.copyfile(db, source)
        target = "postgresql+psycopg://u@localhost/x"
    code, out, err = run(capsys, monkeypatch, "db", "restore", str(source), "--db", target)
    assert code in (1, 2) and out == "" and err.startswith("error: "), (code, out, err)
    assert err.count("\n") == 1
    assert {
        "missing": "no backup file",
        "not-sqlite": "not an SQLite file",
        "foreign-sqlite": "no tracker schema",
        "itself": "the database itself",
        "postgres": "pg_restore",
    }[case] in err
    assert db.read_bytes() == before
    assert not [
        p for p in tmp_path.iterdir() if ".replaced-" in p.name or p.name.endswith(".restore")
    ]


def test_restore_refuses_a_database_being_written(tmp_path: Path) -> None:
    from tracker.store.maintenance import restore

    db = _filled(tmp_path)
    with open_existing(str(db)) as store:
        backup(store, tmp_path / "b.db")
    con = sqlite3.connect(db)
    con.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(DatabaseError, match="in use by another tracker"):
            restore(tmp_path / "b.db", str(db))
    finally:
        con.rollback()
        con.close()
    assert not [p for p in tmp_path.iterdir() if ".replaced-" in p.name]


def test_restore_into_a_new_path(tmp_path: Path) -> None:
    from tracker.store.maintenance import restore

    db = _filled(tmp_path)
    with open_existing(str(db)) as store:
        backup(store, tmp_path / "b.db")
    done = restore(tmp_path / "b.db", str(tmp_path / "new.db"))
    assert done.kept == () and _names(tmp_path / "new.db") == _names(db)


# --- schema upgrade from the first released schema ------------------------------------


FIXTURE_ROWS = {
    "games": 2,
    "players": 2,
    "player_names": 3,
    "tournaments": 1,
    "imports": 1,
    "official_ratings": 1,
    "ro_overrides": 1,
}


def test_fixture_is_the_first_schema() -> None:
    con = sqlite3.connect(f"file:{FIXTURE_0001}?mode=ro", uri=True)
    try:
        assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [("0001",)]
        for table, n in FIXTURE_ROWS.items():
            assert con.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == n
    finally:
        con.close()


def test_upgrade_from_0001_keeps_every_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "old.db"
    shutil.copy(FIXTURE_0001, db)
    before = [
        line
        for line in dump_db(db)
        if line.startswith('INSERT INTO "') and "alembic_version" not in line
    ]
    code, out, _ = run(capsys, monkeypatch, "db", "upgrade", "--db", str(db))
    assert code == 0
    assert out == f"{db}: schema upgraded from 0001 to {head_revision()}\n"
    after = [
        line
        for line in dump_db(db)
        if line.startswith('INSERT INTO "') and "alembic_version" not in line
    ]
    # Every row is kept; migration 0005 cuts each game's identity to its first 32 characters,
    # 0007 stores them as their 16 bytes and an Elo tag that is exactly the rating as NULL.
    cut = [
        re.sub(
            r"^(INSERT INTO \"games\" VALUES\(\d+,)'([0-9a-f]{32})[0-9a-f]{32}'",
            lambda m: f"{m.group(1)}X'{m.group(2).upper()}'",
            line,
        )
        for line in before
    ]
    cut = [
        re.sub(r"(,'1-0',|,'0-1',|,'1/2-1/2',)(\d+),(\d+),'\2','\3',", r"\1\2,\3,NULL,NULL,", line)
        for line in cut
    ]
    # 0011 gives every import's file the Elo tags judged tag by tag ('auto')
    cut = [re.sub(r'^(INSERT INTO "imports" VALUES\(.*)\);$', r"\1,'auto');", line) for line in cut]
    assert cut != before
    assert after == cut and len(before) == sum(FIXTURE_ROWS.values())
    with open_existing(str(db)) as store:
        assert check_database(store) == []
    # The data reads back through the tool: the written name, the FIDE ID, the game.
    code, out, _ = run(capsys, monkeypatch, "players", "--format", "json", "--db", str(db))
    got = {p["name"]: (p["fide_id"], p["games"]["standard"]) for p in json.loads(out)}
    assert got == {"Novák, Jan": (99012345, 2), "Svoboda, Petr": (None, 2)}


def _schema_insensitive(dump: list[str]) -> list[str]:
    """A dump's statements in a stable order, each CREATE TABLE with its clauses sorted: a
    table that a migration copies (batch mode) comes back with its constraints and indexes
    in another order; the rows (with their ids) must be the same."""
    out = []
    for stmt in dump:
        if stmt.startswith("CREATE TABLE"):
            stmt = "\n".join(sorted(part.strip().rstrip(",") for part in stmt.split("\n")))
        out.append(stmt)
    return sorted(out)


def test_downgrade_to_0001_and_back_keeps_data(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    before = [
        line
        for line in dump_db(db)
        if "alembic_version" not in line and "ix_tournaments_event_site" not in line
    ]
    with open_existing(str(db)) as store:
        cfg = _alembic_config()
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0001")
        assert current_revision(store) == "0001"
    with open_store(str(db)) as store:  # opening upgrades again
        assert current_revision(store) == head_revision()
        assert check_database(store) == []
    after = [
        line
        for line in dump_db(db)
        if "alembic_version" not in line and "ix_tournaments_event_site" not in line
    ]
    assert _schema_insensitive(after) == _schema_insensitive(before)


def test_a_newer_schema_is_refused_and_untouched(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    _raw(db, "UPDATE alembic_version SET version_num = '9999'")
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    raw = db.read_bytes()
    for opener in (open_store, open_existing):
        with pytest.raises(DatabaseError, match="newer version of tracker"):
            opener(str(db))
    assert db.read_bytes() == raw


def test_an_upgrade_on_open_is_announced_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Any command opens (and upgrades) the database; an upgrade of an existing database is
    # said on stderr first (a big one takes a while), once; a new database is made quietly.
    db = tmp_path / "old.db"
    shutil.copy(FIXTURE_0001, db)
    code, _, err = run(capsys, monkeypatch, "players", "--db", str(db))
    assert code == 0
    assert err == (
        f"{db}: upgrading the database schema from 0001 to {head_revision()} "
        "(once; a database of a million games takes about half a minute)\n"
    )
    code, _, err = run(capsys, monkeypatch, "players", "--db", str(db))
    assert (code, err) == (0, "")
    code, _, err = run(capsys, monkeypatch, "db", "upgrade", "--db", str(tmp_path / "new.db"))
    assert (code, err) == (0, "")
