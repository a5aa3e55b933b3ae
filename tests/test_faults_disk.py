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

import functools
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from tests import listgen
from tests.builders import sample_season_db
from tests.conftest import REPO, dump_db, subprocess_env, tracker_command
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


# --- a full disk under every command that writes (issue 35, item 6) ---------------------------
#
# A real full disk: the database on a small tmpfs mounted in a mount namespace of its own
# (`unshare --mount`; `--map-root-user` too when not root), filled with a file but for
# SLACK pages: room for SQLite's -shm (8 pages) and the -wal's first page, not for the
# first page a write adds. SQLite then meets ENOSPC: "database or disk is full". Before,
# `official import`, `official add` and `player set` (every command that writes through
# tracker.store.db.writing) said it as an internal error, exit 3.

SLACK = 9
FULL_DISK = r"""
set -u
W=$1; shift
mount -t tmpfs -o size=4m tracker-full "$W/mnt" || exit 99
[ -e "$W/base.db" ] && cp "$W/base.db" "$W/mnt/t.db"
dd if=/dev/zero of="$W/mnt/slack" bs=4096 count=$SLACK 2>/dev/null
dd if=/dev/zero of="$W/mnt/fill" bs=4096 2>/dev/null
rm "$W/mnt/slack"
"$@" > "$W/out" 2> "$W/err"
echo $? > "$W/rc"
rm "$W/mnt/fill"
for f in "$W"/mnt/t.db "$W"/mnt/t.db-wal; do [ -e "$f" ] && cp "$f" "$W/after${f##*/t}"; done
exit 0
"""


@dataclass(frozen=True)
class Full:
    code: int
    out: str
    err: str
    after: Path  # the database as the command left it (with its -wal, if any)


@functools.cache
def _unshare() -> tuple[str, ...] | None:
    """The command that runs a shell in a mount namespace of its own where a tmpfs can be
    mounted, or None (then the tests skip)."""
    if shutil.which("unshare") is None or not sys.platform.startswith("linux"):
        return None
    command = ("unshare", "--mount") if os.geteuid() == 0 else ("unshare", "--mount", "-r")
    with tempfile.TemporaryDirectory() as folder:
        probe = subprocess.run(
            [*command, "sh", "-c", 'mount -t tmpfs -o size=1m probe "$0"', folder],
            capture_output=True,
            timeout=30,
        )
    return command if probe.returncode == 0 else None


def on_a_full_disk(work: Path, base: Path | None, *args: str) -> Full:
    """`tracker ARGS` with its --db ("{db}") on a full disk ("{mnt}": the disk's folder)."""
    command = _unshare()
    if command is None:
        pytest.skip("no mount namespace here (unshare --mount): a small tmpfs cannot be filled")
    work.mkdir()
    (work / "mnt").mkdir()
    if base is not None:
        shutil.copy(base, work / "base.db")
    mnt = str(work / "mnt")
    argv = [a.replace("{db}", f"{mnt}/t.db").replace("{mnt}", mnt) for a in args]
    env = subprocess_env() | {"SLACK": str(SLACK)}
    done = subprocess.run(
        [*command, "sh", "-c", FULL_DISK, "full-disk", str(work), *tracker_command(*argv)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode == 99:
        pytest.skip("tmpfs cannot be mounted here")
    assert done.returncode == 0, done.stderr
    return Full(
        int((work / "rc").read_text()),
        (work / "out").read_text().replace(mnt, "{mnt}"),
        (work / "err").read_text().replace(mnt, "{mnt}"),
        work / "after.db",
    )


@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample season, with an official entry and a tracked player."""
    db = sample_season_db(tmp_path_factory.mktemp("full") / "season.db")
    for args in (
        ("official", "add", "99012345", "--period", "2025-10", "--rating", "1850"),
        ("player", "set", "99012345", "--me"),
    ):
        done = subprocess.run(
            tracker_command(*args, "--db", str(db)),
            env=subprocess_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


FULL = "error: cannot write to the database: database or disk is full\n"

# Every command that writes the database, as it meets a full disk: its stderr exactly.
WRITERS = {
    "official-import": (
        ("official", "import", "{list}", "--all", "--db", "{db}"),
        FULL,
    ),
    "official-add": (
        ("official", "add", "99012345", "--period", "2025-11", "--rating", "1860", "--db", "{db}"),
        FULL,
    ),
    "official-remove": (
        ("official", "remove", "99012345", "--period", "2025-10", "--db", "{db}"),
        FULL,
    ),
    "player-set": (("player", "set", "99023390", "--birth-year", "1990", "--db", "{db}"), FULL),
    "player-set-me": (("player", "set", "99023390", "--me", "--db", "{db}"), FULL),
    "player-merge": (("player", "merge", "99070345", "Bohemian_Rhapsody64", "--db", "{db}"), FULL),
    "event-set": (("event", "set", "1", "--exclude", "--db", "{db}"), FULL),
    "imports-remove": (("imports", "remove", "1", "--db", "{db}"), FULL),
}


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(WRITERS))
def test_every_writing_command_on_a_full_disk(
    tmp_path: Path, season_db: Path, command: str
) -> None:
    args, err = WRITERS[command]
    fide_list = listgen.generate(tmp_path / "standard_nov25frl.txt", 300, "txt")
    args = tuple(a.replace("{list}", str(fide_list)) for a in args)
    before = dump_db(season_db)
    done = on_a_full_disk(tmp_path / "w", season_db, *args)
    assert (done.code, done.out, done.err) == (1, "", err)
    _after_failure(done.after, before)


@pytest.mark.slow
def test_an_import_on_a_full_disk(tmp_path: Path, season_db: Path) -> None:
    big = _big(tmp_path / "big.pgn", 300)
    before = dump_db(season_db)
    done = on_a_full_disk(tmp_path / "w", season_db, "import", str(big), "--db", "{db}")
    assert done.code == 1 and "Traceback" not in done.out + done.err
    assert done.out.startswith(
        f"{big}: not imported: cannot write to the database: database or disk is full\n"
    )
    assert done.err == f"error: the file could not be imported (nothing of it was stored): {big}\n"
    _after_failure(done.after, before)


@pytest.mark.slow
def test_an_upgrade_on_a_full_disk(tmp_path: Path) -> None:
    # An older schema: the first command that opens it upgrades it, and there is no room.
    old = REPO / "tests" / "data" / "schema-0001.db"
    before = dump_db(old)
    done = on_a_full_disk(tmp_path / "w", old, "db", "upgrade", "--db", "{db}")
    assert (done.code, done.out) == (1, "")
    assert done.err == "error: cannot open database {mnt}/t.db: database or disk is full\n"
    assert dump_db(done.after) == before


@pytest.mark.slow
def test_a_restore_onto_a_full_disk(tmp_path: Path, season_db: Path) -> None:
    backup = tmp_path / "backup.db"
    shutil.copy(season_db, backup)
    before = dump_db(season_db)
    done = on_a_full_disk(tmp_path / "w", season_db, "db", "restore", str(backup), "--db", "{db}")
    assert (done.code, done.out) == (1, "")
    assert done.err == (
        "error: the restore failed: database or disk is full; nothing was changed\n"
    )
    _after_failure(done.after, before)


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ("plot", "--output", "{mnt}/chart.png"),
        ("report", "--output", "{mnt}/season.html"),
        ("export", "--what", "games", "--output", "{mnt}/games.csv"),
        ("db", "backup", "{mnt}/backup.db"),
        ("demo", "--output-dir", "{mnt}/demo"),
    ],
    ids=lambda a: a[0],
)
def test_the_files_a_command_writes_onto_a_full_disk(
    tmp_path: Path, season_db: Path, args: tuple[str, ...]
) -> None:
    # What these write is a file of their own on the full disk: one line, exit 1 (or done,
    # where it fits), the database untouched, no part file left.
    before = dump_db(season_db)
    db = () if args[0] == "demo" else ("--db", "{db}")
    done = on_a_full_disk(tmp_path / "w", season_db, *args, *db)
    assert "Traceback" not in done.out + done.err and "internal error" not in done.err
    assert done.code in (0, 1), done
    if done.code == 1:
        assert done.err.startswith("error: ") and done.err.count("\n") == 1, done.err
    if args[0] != "demo":
        assert dump_db(done.after) == before
    assert not list((tmp_path / "w" / "mnt").glob(".*.part"))
