"""A full disk and a read-only database during an import, and a backup onto a full disk
(issue 7): a clear one-line error, and nothing half-written.

Two ways to fill the disk without root: SQLite's `PRAGMA max_page_count` on the importer's
connections (in-process: SQLite's own "database or disk is full"), and a file-size limit
(RLIMIT_FSIZE) on a real `tracker` process, whose writes then fail in the kernel (EFBIG, the
same path as ENOSPC inside SQLite's VFS: "disk I/O error"). Read-only: `PRAGMA query_only`
on every connection (works as root too), and a file without write permission (skipped when
running as root, who may write anyway).
"""

from __future__ import annotations

import os
import resource
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from tests.conftest import REPO, dump_db, subprocess_env
from tests.test_import import pgn, write
from tracker.app.importing import ImportOptions, import_paths
from tracker.store import Store, open_store
from tracker.store.maintenance import check_database

pytestmark = pytest.mark.slow  # fault injection: processes killed, disks full, writers at once


def _big(path: Path, games: int) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(games):
            fh.write(
                pgn(
                    Event=f"Big {i // 300}",
                    Round=str(i),
                    White=f"W{i % 397}",
                    Black=f"B{i % 391}",
                    WhiteElo=str(1500 + i % 900),
                )
            )
    return path


def _base(tmp_path: Path) -> Path:
    db = tmp_path / "d.db"
    with open_store(str(db)) as store:
        f = write(tmp_path / "first.pgn", pgn(Round="1"), pgn(Round="2"))
        (rep,) = import_paths(store, [str(f)], ImportOptions()).sources
        assert rep.added == 2
    return db


def _store_with(db: Path, pragma: Callable[[Any], None]) -> Store:
    store = open_store(str(db))
    store.engine.dispose()  # new connections from here on get the pragma

    def on_connect(dbapi_conn: Any, _record: Any) -> None:
        pragma(dbapi_conn)

    event.listen(store.engine, "connect", on_connect)
    return store


def _after_failure(db: Path, before: list[str]) -> None:
    assert dump_db(db) == before, "the failed file left something behind"
    with open_store(str(db)) as store:
        assert check_database(store) == []


def test_disk_full_in_process(tmp_path: Path) -> None:
    db = _base(tmp_path)
    before = dump_db(db)
    pages = len(db.read_bytes()) // 4096

    def limit(conn: Any) -> None:
        conn.execute(f"PRAGMA max_page_count = {pages + 8}")

    big = _big(tmp_path / "big.pgn", 3_000)
    with _store_with(db, limit) as store:
        (rep,) = import_paths(store, [str(big)], ImportOptions()).sources
    assert rep.error == "cannot write to the database: database or disk is full"
    assert rep.added == 0
    _after_failure(db, before)
    # Room again: the same file imports whole.
    with open_store(str(db)) as store:
        (rep,) = import_paths(store, [str(big)], ImportOptions()).sources
    assert (rep.error, rep.added) == (None, 3_000)


def test_read_only_in_process(tmp_path: Path) -> None:
    db = _base(tmp_path)
    before = dump_db(db)

    def read_only(conn: Any) -> None:
        conn.execute("PRAGMA query_only = ON")

    with _store_with(db, read_only) as store:
        (rep,) = import_paths(
            store, [str(write(tmp_path / "n.pgn", pgn(Round="9")))], ImportOptions()
        ).sources
    assert rep.error == "cannot write to the database: attempt to write a readonly database"
    _after_failure(db, before)


def _limited(size: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return apply


@pytest.mark.slow
def test_disk_full_during_a_real_import(tmp_path: Path) -> None:
    db = _base(tmp_path)
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = dump_db(db)
    big = _big(tmp_path / "big.pgn", 4_000)
    done = subprocess.run(
        [sys.executable, "-m", "tracker", "import", str(big), "--db", str(db), "--quiet"],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_limited(db.stat().st_size + 64 * 1024),
    )
    assert done.returncode == 1
    why, error = done.stderr.splitlines()  # (--quiet: why it failed, on stderr all the same)
    assert why.startswith(f"{big}: not imported: cannot write to the database")
    assert error == f"error: the file could not be imported (nothing of it was stored): {big}"
    assert "Traceback" not in done.stdout
    _after_failure(db, before)


@pytest.mark.slow
def test_backup_onto_a_full_disk_leaves_no_file(tmp_path: Path) -> None:
    db = _base(tmp_path)
    _big_db = _big(tmp_path / "big.pgn", 2_000)
    with open_store(str(db)) as store:
        import_paths(store, [str(_big_db)], ImportOptions())
    target = tmp_path / "backup.db"
    done = subprocess.run(
        [sys.executable, "-m", "tracker", "db", "backup", str(target), "--db", str(db)],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limited(64 * 1024),
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "error: the backup failed: disk I/O error; nothing was written\n"
    assert not target.exists() and not list(tmp_path.glob(".backup.db.*"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only files anyway")
def test_read_only_file(tmp_path: Path) -> None:  # pragma: no cover - not as root
    db = _base(tmp_path)
    raw = db.read_bytes()
    db.chmod(0o444)
    tmp_path.chmod(0o555)  # nor may a -wal file be created beside it
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tracker",
                "import",
                str(REPO / "tests" / "data" / "hostile" / "odd-tags.pgn"),
                "--db",
                str(db),
            ],
            env=subprocess_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        tmp_path.chmod(0o755)
        db.chmod(0o644)
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1
    assert "internal error" not in done.stderr
    assert db.read_bytes() == raw


def test_failed_file_report_claims_nothing_stored(tmp_path: Path) -> None:
    # Regression: the report of a failed file still counted its first batch's games as put
    # on a list by assumption and not counted for rating (only added/duplicates were reset).
    db = _base(tmp_path)
    pages = len(db.read_bytes()) // 4096

    def limit(conn: Any) -> None:
        conn.execute(f"PRAGMA max_page_count = {pages + 200}")  # full in batch 2

    big = _big(tmp_path / "big.pgn", 6_000)
    with _store_with(db, limit) as store:
        report = import_paths(store, [str(big)], ImportOptions())
    assert report.sources[0].error is not None
    assert report.total("list_assumed") == 0 and not report.not_rated
    assert report.total("games_read") == report.total("skipped") == report.total("added") == 0
