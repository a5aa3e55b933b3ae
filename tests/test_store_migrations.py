"""The schema is made only by Alembic, and the migrations match the tables of schema.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from tracker.errors import DatabaseError
from tracker.store import open_store
from tracker.store.db import current_revision, head_revision, to_url
from tracker.store.schema import metadata


def test_empty_database_migrates_to_head(db_path: Path) -> None:
    with open_store(str(db_path)) as s:
        assert current_revision(s) == head_revision()
        tables = set(inspect(s.engine).get_table_names())
    assert {"players", "games", "tournaments", "imports", "official_ratings"} <= tables


def test_models_and_migrations_do_not_drift(db_path: Path) -> None:
    with open_store(str(db_path)) as s, s.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []


def test_check_constraints_do_not_drift(db_path: Path, tmp_path: Path) -> None:
    """Alembic's comparison ignores CHECK constraints: compare them as SQLite stores them,
    between the migrated database and one made from schema.py directly."""
    direct = create_engine(f"sqlite:///{tmp_path / 'direct.db'}")
    metadata.create_all(direct)
    with open_store(str(db_path)) as s:
        migrated = {t: inspect(s.engine).get_check_constraints(t) for t in metadata.tables}
    made = {t: inspect(direct).get_check_constraints(t) for t in metadata.tables}
    direct.dispose()
    assert migrated == made
    assert migrated["games"] == [
        {
            "name": "ck_games_list",
            "sqltext": "\"list\" = 'standard' OR \"list\" = 'rapid' OR \"list\" = 'blitz'",
        }
    ]


def test_every_new_database_gets_the_same_schema_text(tmp_path: Path) -> None:
    """Migrations that copy a table must not depend on set order (dumps compare as text)."""
    schemas = []
    for name in ("a.db", "b.db"):
        with open_store(str(tmp_path / name)) as s, s.engine.connect() as conn:
            schemas.append(
                conn.exec_driver_sql(
                    "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"
                ).all()
            )
    assert schemas[0] == schemas[1]
    assert any(
        "\"list\" = 'standard' OR" in str(sql) for _, name, sql in schemas[0] if name == "games"
    )


def test_wal_mode(db_path: Path) -> None:
    with open_store(str(db_path)) as s, s.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_newer_schema_is_refused(db_path: Path) -> None:
    open_store(str(db_path)).close()
    engine = create_engine(f"sqlite:///{db_path}")
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = 'ffff_future'")
    engine.dispose()
    with pytest.raises(DatabaseError, match="newer version of tracker"):
        open_store(str(db_path))


@pytest.mark.parametrize(
    "setup,message",
    [
        ("folder", "is a folder"),
        ("garbage", "not a tracker database"),
        ("missing_parent", "does not exist"),
    ],
)
def test_bad_db_targets(tmp_path: Path, setup: str, message: str) -> None:
    target = tmp_path / "x.db"
    if setup == "folder":
        target.mkdir()
    elif setup == "garbage":
        target.write_bytes(b"this is not sqlite at all, just text" * 10)
    else:
        target = tmp_path / "nope" / "x.db"
    with pytest.raises(DatabaseError, match=message):
        open_store(str(target))


def test_revisions_read_as_text_agree_with_alembic() -> None:
    from alembic.script import ScriptDirectory

    from tracker.store.db import _alembic_config, known_revisions

    script = ScriptDirectory.from_config(_alembic_config())
    assert script.get_heads() == [head_revision()]
    assert {r.revision: r.down_revision for r in script.walk_revisions()} == known_revisions()


@pytest.mark.slow  # processes opening one new database at once
def test_concurrent_first_opens_migrate_once(tmp_path: Path) -> None:
    import subprocess
    import sys

    target = tmp_path / "race.db"
    code = "import sys; from tracker.store import open_store; open_store(sys.argv[1]).close()"
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(target)], stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    errors = [p.communicate()[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
    with open_store(str(target)) as s:
        assert current_revision(s) == head_revision()


def _migrate_down(target: str, revision: str) -> None:
    """The database at `target` taken down to `revision` by the migrations' downgrades."""
    from alembic import command
    from sqlalchemy import create_engine

    from tracker.store.db import _alembic_config, to_url

    engine = create_engine(to_url(target))
    try:
        with engine.begin() as conn:
            cfg = _alembic_config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, revision)
    finally:
        engine.dispose()


def test_0005_cuts_identities_and_games_stored_before_stay_duplicates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A database of revision 0004 held the 64 hex characters of each identity's sha256; the
    # importer now writes the first 16 bytes (32 hex characters). Simulated: a season
    # imported now, taken down to 0004 by the downgrades (0007 gives back the 32 hex
    # characters), its identities given a 64-character form (32 more characters, as the
    # full digest had). Opening upgrades to head: 0005 cuts them to 32 again, 0007 makes
    # them the same bytes: a byte-different copy of the season then adds nothing (every
    # game a duplicate).
    import sqlite3

    from tests.conftest import REPO, run_cli

    season = REPO / "sample_pgns" / "2025-09-12_brno-autumn-open.pgn"
    db = tmp_path / "old.db"
    code, _, err = run_cli(capsys, monkeypatch, "import", str(season), "--db", str(db))
    assert code == 0, err
    con = sqlite3.connect(db)
    before = con.execute("SELECT id, identity FROM games ORDER BY id").fetchall()
    con.close()
    assert before and {len(i) for _, i in before} == {16}
    _migrate_down(str(db), "0004")
    con = sqlite3.connect(db)
    with con:
        hexed = con.execute("SELECT id, identity FROM games ORDER BY id").fetchall()
        assert hexed == [(i, b.hex()) for i, b in before]
        con.execute("UPDATE games SET identity = identity || 'f0e1d2c3b4a5968778695a4b3c2d1e0f'")
        assert con.execute("SELECT version_num FROM alembic_version").fetchone() == ("0004",)
    con.close()
    with open_store(str(db)) as s:
        assert current_revision(s) == head_revision()  # through 0005 and 0007
    con = sqlite3.connect(db)
    assert con.execute("SELECT id, identity FROM games ORDER BY id").fetchall() == before
    con.close()
    copy = tmp_path / "copy.pgn"
    copy.write_bytes(season.read_bytes() + b"\n")
    code, out, err = run_cli(capsys, monkeypatch, "import", str(copy), "--db", str(db))
    assert code == 0, err
    assert f"{len(before)} games read, 0 added, {len(before)} already stored" in out, out
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == len(before)
    con.close()


def _games_rows(target: str) -> list[tuple[Any, ...]]:
    """The rows of games with their import's source: the columns as the driver gives them
    (bytes or memoryview for the identity, by backend), hence Any."""
    from sqlalchemy import create_engine, text

    from tracker.store.db import to_url

    engine = create_engine(to_url(target))
    try:
        with engine.connect() as conn:
            return [
                tuple(r)
                for r in conn.execute(
                    text(
                        "SELECT g.id, g.identity, i.source, g.source_line, g.white_elo, "
                        "g.white_elo_tag, g.black_elo, g.black_elo_tag FROM games AS g "
                        "JOIN imports AS i ON i.id = g.import_id ORDER BY g.id"
                    )
                )
            ]
    finally:
        engine.dispose()


@pytest.mark.slow  # the sample season imported, migrated down and up
@pytest.mark.databases
def test_0007_upgrades_a_database_of_0006_exactly(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Real games (the sample season; a FICS file, online: its Elo tags are kept as written;
    a TWIC issue, with empty and odd Elo tags) in a database of revision 0006, upgraded:
    every row and what the readers give is what a fresh import at head stores and gives.
    The database of 0006 is the fresh import taken down by 0007's downgrade, and checked
    against the files first: each identity the 32 hex characters of its 16 bytes, each Elo
    tag the text of the file."""
    import lzma

    from tests.conftest import CORPUS, SAMPLES, STAMPS, dump_target, need_shared, run_cli
    from tracker.pgn import read_games
    from tracker.store.reading import games_of

    need_shared()
    files = [tmp_path / "fics.pgn", tmp_path / "twic.pgn"]
    for out, name in zip(
        files, ("fics-standard-2000-2199-part01.pgn.xz", "twic0920.pgn.xz"), strict=True
    ):
        out.write_bytes(lzma.decompress((CORPUS / name).read_bytes()))
    code, _, err = run_cli(
        capsys, monkeypatch, "import", str(SAMPLES), *map(str, files), "--db", db_target, "--quiet"
    )
    assert code == 0, err
    with open_store(db_target) as s:
        players = [
            int(p)
            for (p,) in s.engine.connect().exec_driver_sql("SELECT id FROM players ORDER BY id")
        ]
        fresh_facts = [games_of(s, p) for p in players]
    fresh = dump_target(db_target, STAMPS)
    rows = _games_rows(db_target)
    assert len(rows) > 1000 and {len(r[1]) for r in rows} == {16}
    stored_tags = {r[5] for r in rows} | {r[7] for r in rows}
    assert None in stored_tags and "" in stored_tags  # exactly the rating; empty
    written = {}
    for path in files:
        with path.open("rb") as stream:
            for raw in read_games(stream, path.name):
                written[(path.name, raw.line)] = (
                    raw.tags.get("WhiteElo"),
                    raw.tags.get("BlackElo"),
                )

    _migrate_down(db_target, "0006")
    old = _games_rows(db_target)
    assert [r[0] for r in old] == [r[0] for r in rows]
    checked = 0
    for (gid, ident, source, line, welo, wtag, belo, btag), new in zip(old, rows, strict=True):
        assert ident == bytes(new[1]).hex(), gid
        assert (welo, belo) == (new[4], new[6])
        assert wtag == (new[5] if new[5] is not None or welo is None else str(welo))
        assert btag == (new[7] if new[7] is not None or belo is None else str(belo))
        key = (Path(str(source)).name, line)
        if key in written:
            assert (wtag, btag) == written[key], (gid, key)
            checked += 1
    assert checked > 1000
    assert any(r[5] is not None and r[4] is None and r[5] != "" for r in old)  # online

    with open_store(db_target) as s:  # upgrades to head
        assert current_revision(s) == head_revision()
        assert [games_of(s, p) for p in players] == fresh_facts
    assert _games_rows(db_target) == rows
    assert dump_target(db_target, STAMPS) == fresh


@pytest.mark.slow  # every reading command, in process and in a subprocess
@pytest.mark.parametrize("kind", ["empty", "schema-less"])
def test_a_reading_command_never_turns_a_file_into_a_database(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: `tracker history --db some/empty.pgn` (0 bytes) turned the file into a
    110 KB database. A 0-byte file and an SQLite file without the tracker's schema (a kill
    during the very first open) are refused by every reading command and left byte for
    byte as they were; `db check` says the same instead of "unreadable"."""
    import sqlite3

    from tests.conftest import run_cli
    from tests.test_cli_database import READING

    target = tmp_path / ("empty.pgn" if kind == "empty" else "half.db")
    if kind == "empty":
        target.write_bytes(b"")
    else:
        sqlite3.connect(target).execute("PRAGMA user_version = 7").connection.close()
    before = target.read_bytes()
    wanted = (
        "is an empty file, not a tracker database"
        if kind == "empty"
        else ("holds no tracker data yet")
    )
    for args in [*READING, ("db", "check"), ("db", "backup", str(tmp_path / "b.db"))]:
        code, out, err = run_cli(capsys, monkeypatch, *args, "--db", str(target))
        assert code == 1 and out == "", (args, out, err)
        assert err.startswith("error: ") and wanted in err and err.count("\n") == 1, err
        assert "tracker import FILE" in err
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]
    # a command that brings facts in may still use the file
    code, _, err = run_cli(capsys, monkeypatch, "db", "upgrade", "--db", str(target))
    assert code == 0, err


def test_a_fifo_as_database_is_refused_not_waited_on(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    for create in (True, False):
        with pytest.raises(DatabaseError, match="not a regular file"):
            open_store(str(fifo), create=create)


def test_an_upgrade_that_copies_games_gives_the_free_pages_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """0007 copies the games table: without a VACUUM after it, the old table's pages stay
    free in the file (a database half as big again as it needs to be)."""
    import sqlite3

    from tests.conftest import SAMPLES, run_cli

    db = tmp_path / "t.db"
    code, _, err = run_cli(capsys, monkeypatch, "import", str(SAMPLES), "--db", str(db), "--quiet")
    assert code == 0, err
    _migrate_down(str(db), "0006")
    conn = sqlite3.connect(db, isolation_level=None)
    try:  # games bigger than the rest of the file: the copy shows
        for _ in range(6):
            conn.execute(
                "INSERT INTO games SELECT id + (SELECT max(id) FROM games), "
                "hex(randomblob(16)), tournament_id, import_id, source_line, "
                "white_id, black_id, date, date_tag, round, result, white_elo, "
                "black_elo, white_elo_tag, black_elo_tag, white_title, black_title, "
                "time_control, termination, variant, has_moves, list, "
                "list_assumed, rated, not_rated_reason FROM games"
            )
        conn.execute("VACUUM")
        before = conn.execute("PRAGMA page_count").fetchone()[0]
    finally:
        conn.close()
    with open_store(str(db)) as s:  # upgrades to head
        assert current_revision(s) == head_revision()
    with sqlite3.connect(db) as conn:
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    assert free == 0
    assert pages < before  # the narrower row of 0007, and no old table left in the file


@pytest.mark.databases
def test_0008_adds_the_coverage_tables_and_takes_them_away(db_target: str) -> None:
    """0008 on a database of 0007: the two tables of the lists imported and the players
    looked up, empty; its downgrade drops them and leaves the rest as it was."""
    from tests.conftest import dump_target

    coverage = {"official_lists", "official_checked"}
    with open_store(db_target) as s:
        assert coverage <= set(inspect(s.engine).get_table_names())
    before = dump_target(db_target)
    _migrate_down(db_target, "0007")
    engine = create_engine(to_url(db_target))
    try:
        assert not coverage & set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    with open_store(db_target) as s:
        assert current_revision(s) == head_revision()
        assert coverage <= set(inspect(s.engine).get_table_names())
        assert inspect(s.engine).get_pk_constraint("official_checked")["constrained_columns"] == [
            "player_id",
            "list",
            "period",
        ]
    assert dump_target(db_target) == before


@pytest.mark.databases
def test_0010_adds_the_merge_record_and_takes_it_away(db_target: str) -> None:
    """0010 on a database of 0009: the tables of the merges recorded, empty; its downgrade
    drops them and leaves the rest as it was. A merge's number is never reused on SQLite
    (AUTOINCREMENT), nor on PostgreSQL (a sequence)."""
    from tests.conftest import dump_target

    record = {
        "player_merges",
        "merge_players",
        "merge_games",
        "merge_names",
        "merge_entries",
        "merge_checked",
        "merge_overrides",
    }
    with open_store(db_target) as s:
        assert record <= set(inspect(s.engine).get_table_names())
    before = dump_target(db_target)
    _migrate_down(db_target, "0009")
    engine = create_engine(to_url(db_target))
    try:
        assert not record & set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    with open_store(db_target) as s:
        assert current_revision(s) == head_revision()
        assert record <= set(inspect(s.engine).get_table_names())
        assert inspect(s.engine).get_foreign_keys("merge_games")[0]["options"] == {
            "ondelete": "CASCADE"
        }
        if s.engine.dialect.name == "sqlite":
            with s.engine.connect() as conn:
                sql = conn.exec_driver_sql(
                    "SELECT sql FROM sqlite_master WHERE name = 'player_merges'"
                ).scalar_one()
            assert "AUTOINCREMENT" in sql
    assert dump_target(db_target) == before
