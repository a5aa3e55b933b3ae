"""Looking after the database file: an online backup, and a check of its integrity.

`backup(store, path)` copies a live database with SQLite's online backup API (a consistent
snapshot even while another process imports) into a temporary file renamed into place when
complete, so an interrupted backup never leaves half a file. `check_database(store)` runs
SQLite's own checks, then the tool's invariants as plain SQL counts both databases run, and
returns the `Problem`s found ([] when all holds), never changing the database. The
invariants, one by one: docs/architecture.md, section tracker/store/.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import Connection, Date, bindparam, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DatabaseError as SADatabaseError
from sqlalchemy.exc import OperationalError

from tracker.errors import BadInput, DatabaseError, NotFound, Unavailable
from tracker.files.outputs import check_output, clean_before, write_atomic
from tracker.model import LAST_DATE, RatingList, Result
from tracker.store.db import (
    RESTORE,
    DamagedDatabase,
    Store,
    current_revision,
    head_revision,
    is_damage,
    one_line,
    open_store,
    to_url,
)

_PERIOD = re.compile(r"^[0-9]{4}-(0[1-9]|1[0-2])$")
_LISTS = "(" + ", ".join(f"'{lst.value}'" for lst in RatingList) + ")"
_RESULTS = "(" + ", ".join(f"'{r.value}'" for r in Result) + ")"
MAX_INTEGRITY_LINES = 20  # lines of PRAGMA integrity_check kept (it can print thousands)
# A PostgreSQL database is backed up and restored by the server's own tools (a consistent
# snapshot while others write, and the server's rights): one sentence each.
POSTGRESQL_BACKUP = (
    "tracker db backup copies SQLite database files only: back up a "
    "PostgreSQL database with pg_dump (pg_dump --format=custom --file="
    "tracker.dump DATABASE), which takes a consistent snapshot while others "
    "write"
)
POSTGRESQL_RESTORE = (
    "tracker db restore works on SQLite database files only: restore a "
    "PostgreSQL database with pg_restore (pg_restore --clean --dbname="
    "DATABASE tracker.dump), from a dump of pg_dump --format=custom"
)


DAMAGE = frozenset({"integrity", "unreadable"})
"""The checks that find the file itself damaged (SQLite's integrity check fails, or the
file cannot be read): `tracker db check` exits with DAMAGED_EXIT_CODE then, as every other
command does on a damaged file; the other checks find rows that break a rule (exit 1)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the database: which check, how many rows, and a sentence."""

    check: str
    count: int
    message: str

    @property
    def damage(self) -> bool:
        """Whether the file itself is damaged (DAMAGE), not only rows that break a rule."""
        return self.check in DAMAGE


# (check name, SQL counting the rows that break it, the sentence; {n} is the count)
INVARIANTS: tuple[tuple[str, str, str], ...] = (
    (
        "game-white",
        "SELECT count(*) FROM games g LEFT JOIN players p ON p.id = g.white_id WHERE p.id IS NULL",
        "{n} games name a White player that does not exist",
    ),
    (
        "game-black",
        "SELECT count(*) FROM games g LEFT JOIN players p ON p.id = g.black_id WHERE p.id IS NULL",
        "{n} games name a Black player that does not exist",
    ),
    (
        "game-tournament",
        "SELECT count(*) FROM games g LEFT JOIN tournaments t "
        "ON t.id = g.tournament_id WHERE t.id IS NULL",
        "{n} games belong to a tournament that does not exist",
    ),
    (
        "game-import",
        "SELECT count(*) FROM games g LEFT JOIN imports i ON i.id = g.import_id "
        "WHERE g.import_id IS NOT NULL AND i.id IS NULL",
        "{n} games name an import that does not exist",
    ),
    (
        "game-self",
        "SELECT count(*) FROM games WHERE white_id = black_id",
        "{n} games have the same player on both sides",
    ),
    (
        "game-identity",
        "SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM games "
        "GROUP BY identity HAVING count(*) > 1) AS d",
        "{n} games duplicate another game's identity",
    ),
    (
        "game-list",
        f'SELECT count(*) FROM games WHERE "list" NOT IN {_LISTS}',
        "{n} games name no valid list (standard, rapid, blitz)",
    ),
    (
        "game-result",
        f"SELECT count(*) FROM games WHERE result NOT IN {_RESULTS}",
        "{n} games have a result other than 1-0, 0-1, 1/2-1/2 or *",
    ),
    (
        "player-fide-id",
        "SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM players "
        "WHERE fide_id IS NOT NULL GROUP BY fide_id HAVING count(*) > 1) AS d",
        "{n} players share a FIDE ID with another player",
    ),
    (
        "player-name",
        "SELECT count(*) FROM player_names n LEFT JOIN players p "
        "ON p.id = n.player_id WHERE p.id IS NULL",
        "{n} player spellings point at a player that does not exist",
    ),
    (
        "official-player",
        "SELECT count(*) FROM official_ratings o LEFT JOIN players p "
        "ON p.id = o.player_id WHERE p.id IS NULL",
        "{n} official entries name a player that does not exist",
    ),
    (
        "official-list",
        f'SELECT count(*) FROM official_ratings WHERE "list" NOT IN {_LISTS}',
        "{n} official entries name no valid list (standard, rapid, blitz)",
    ),
    (
        "official-duplicate",
        "SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n "
        'FROM official_ratings GROUP BY player_id, "list", period HAVING count(*) > 1) AS d',
        "{n} official entries repeat a player's list and period",
    ),
    (
        "tournament-dates",
        "SELECT count(*) FROM tournaments WHERE start_date IS NOT NULL "
        "AND end_date IS NOT NULL AND end_date < start_date",
        "{n} tournaments end before they start",
    ),
    (
        "import-unfinished",
        "SELECT count(*) FROM imports WHERE finished_at IS NULL",
        "{n} import rows were never finished",
    ),
)


def _bad_periods(conn: Connection) -> tuple[int, int]:
    """(official entries, tournaments) whose period is not a valid `YYYY-MM`."""
    official = sum(
        1
        for (p,) in conn.execute(text("SELECT period FROM official_ratings"))
        if not _PERIOD.match(str(p))
    )
    pinned = sum(
        1
        for (p,) in conn.execute(
            text("SELECT pinned_period FROM tournaments WHERE pinned_period IS NOT NULL")
        )
        if not _PERIOD.match(str(p))
    )
    return official, pinned


def _late_dates(conn: Connection) -> list[Problem]:
    """Games and tournaments dated after LAST_DATE (stored by a tracker before the importer
    kept to it): the replay puts them in no period."""
    last = bindparam("last", LAST_DATE, type_=Date)
    found: list[Problem] = []
    for check, sql, what in (
        ("game-date", "SELECT count(*) FROM games WHERE date > :last", "games are"),
        (
            "tournament-date",
            "SELECT count(*) FROM tournaments WHERE start_date > :last OR end_date > :last",
            "tournaments are",
        ),
    ):
        n = int(conn.execute(text(sql).bindparams(last)).scalar_one() or 0)
        if n:
            found.append(
                Problem(
                    check,
                    n,
                    f"{n} {what} dated after {LAST_DATE.isoformat()}, "
                    "the last date the tracker rates (stored by an older "
                    "tracker): they are in no period; take their import out "
                    "(tracker imports remove ID) and import the file again, "
                    "which stores them without those dates",
                )
            )
    return found


def _sqlite_checks(conn: Connection) -> list[Problem]:
    found: list[Problem] = []
    lines = [str(r[0]) for r in conn.exec_driver_sql("PRAGMA integrity_check").all()]
    if lines != ["ok"]:
        shown = "; ".join(lines[:MAX_INTEGRITY_LINES])
        more = (
            f" (and {len(lines) - MAX_INTEGRITY_LINES} more)"
            if (len(lines) > MAX_INTEGRITY_LINES)
            else ""
        )
        found.append(Problem("integrity", len(lines), f"SQLite integrity check: {shown}{more}"))
    fk = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
    if fk:
        tables = sorted({str(r[0]) for r in fk})
        found.append(
            Problem(
                "foreign-keys",
                len(fk),
                f"{len(fk)} rows point at rows that do not exist (tables: {', '.join(tables)})",
            )
        )
    return found


def what_holds(store: Store) -> str:
    """What `check_database` found holding when it found nothing wrong, for the database's
    kind: SQLite's own integrity check and the tracker's invariants, or (PostgreSQL, which
    keeps its own integrity) the invariants."""
    if store.engine.dialect.name == "sqlite":
        return "integrity and every invariant hold"
    return "every invariant holds; the server keeps its own integrity"


def check_database(store: Store) -> list[Problem]:
    """Everything wrong with the database ([] when integrity and every invariant hold)."""
    found: list[Problem] = []
    try:
        with store.engine.connect() as conn:
            if store.engine.dialect.name == "sqlite":
                found.extend(_sqlite_checks(conn))
            # postgresql: foreign keys hold by construction (enforced on every write)
            for check, sql, sentence in INVARIANTS:
                n = int(conn.execute(text(sql)).scalar_one() or 0)
                if n:
                    found.append(Problem(check, n, sentence.format(n=n)))
            found.extend(_late_dates(conn))
            official, pinned = _bad_periods(conn)
            if official:
                found.append(
                    Problem(
                        "official-period",
                        official,
                        f"{official} official entries name no valid period (YYYY-MM)",
                    )
                )
            if pinned:
                found.append(
                    Problem(
                        "tournament-period",
                        pinned,
                        f"{pinned} tournaments are pinned to no valid period (YYYY-MM)",
                    )
                )
    except (OperationalError, SADatabaseError) as exc:
        found.append(_unreadable(one_line(exc.orig)))
        return found
    except DamagedDatabase as exc:  # what the engine makes of SQLITE_CORRUPT / NOTADB
        found.append(_unreadable(exc.reason))
        return found
    current, head = current_revision(store), head_revision()
    if current != head:
        found.append(
            Problem(
                "schema",
                1,
                f"schema {current or 'empty'} is not the current {head}: run `tracker db upgrade`",
            )
        )
    return found


def _unreadable(reason: str) -> Problem:
    return Problem(
        "unreadable",
        1,
        f"the database cannot be read: {reason}; {RESTORE}",
    )


def sqlite_file(store: Store) -> Path | None:
    """The file of a file-backed SQLite store (None for other databases and memory)."""
    url = make_url(store.url)
    if not url.drivername.startswith("sqlite") or url.database in (None, "", ":memory:"):
        return None
    return Path(str(url.database))


def open_existing(target: str) -> Store:
    """Open a database that must already exist, without upgrading it (check, backup)."""
    url = make_url(to_url(target))
    if url.drivername.startswith("sqlite") and url.database not in (None, "", ":memory:"):
        path = Path(str(url.database))
        if not path.exists():
            raise Unavailable(f"no database at {path}: give the file with --db (or TRACKER_DB)")
    try:
        return open_store(target, upgrade=False, create=False)
    except DamagedDatabase as exc:  # db check and backup: no hint to run db check
        raise DamagedDatabase(exc.name, exc.reason, hint=False) from None


@dataclass(frozen=True)
class BackedUp:
    """What `backup` wrote: its bytes, and the temporary files of killed backups of the
    same file it removed first."""

    size: int
    removed: tuple[Path, ...] = ()


def backup(store: Store, target: str | os.PathLike[str], *, overwrite: bool = False) -> BackedUp:
    """Copy the live database into `target` (SQLite's online backup).

    The copy is written to a temporary file in the target's folder and renamed into place
    when complete and checked (`PRAGMA quick_check`), so `target` is either the whole backup
    or untouched; what killed backups of `target` left beside it is removed first. An
    existing `target` is refused unless `overwrite`; a character device or a FIFO (or a
    symlink to one: `/dev/stdout`) is written into, never replaced (tracker.files.outputs).
    """
    source = sqlite_file(store)
    if store.engine.dialect.name == "postgresql":
        raise DatabaseError(POSTGRESQL_BACKUP)
    if source is None:
        raise DatabaseError(
            "tracker db backup works on SQLite database files only: back up "
            "other databases with their own tools"
        )
    dest = Path(target)
    if dest.is_dir():
        raise BadInput(
            f"{dest} is a folder: give the backup a file name, e.g. {dest / 'tracker-backup.db'}"
        )
    with contextlib.suppress(OSError):
        if dest.exists() and dest.resolve() == source.resolve():
            raise BadInput(f"{dest} is the database itself: give the backup another name")
    removed = clean_before(check_output(dest, None, force=overwrite))
    # owner-only, as the temporary file it is written to always was
    size = write_atomic(dest, lambda tmp: _copy(store, tmp), mode=0o600)
    return BackedUp(size, tuple(removed))


@dataclass(frozen=True)
class Restored:
    """What `restore` did: the database written, its size, and where the replaced files
    were moved (empty when there was no database)."""

    database: Path
    size: int
    kept: tuple[Path, ...]


COMPANIONS = ("-wal", "-shm", "-journal")


def restore(backup_file: str | os.PathLike[str], target: str) -> Restored:
    """Put the backup `backup_file` in place as the database `target` (a SQLite file).

    Copying a backup over a database by hand is unsafe after a crash: SQLite replays the
    `-wal` left beside the old file onto the copied one ("database disk image is malformed",
    or silently the crashed state again). Here the backup is checked (SQLite, the tracker's
    schema, `quick_check`), copied beside the database with SQLite's backup API and checked
    again; then the old database and its `-wal`/`-shm`/`-journal` are moved aside together
    (`NAME.replaced-YYYYmmdd-HHMMSS`, nothing is deleted) and the copy is renamed into
    place. A database in use by another tracker (a write lock held) is refused; probing
    that lock lets SQLite move a crashed database's committed -wal into it (its own
    recovery), so the file kept aside is usually whole by itself.
    """
    source = Path(backup_file)
    db_url = make_url(to_url(target))
    if db_url.get_backend_name() == "postgresql":
        raise DatabaseError(POSTGRESQL_RESTORE)
    if not db_url.drivername.startswith("sqlite") or db_url.database in (None, "", ":memory:"):
        raise DatabaseError(
            "tracker db restore works on SQLite database files only: restore "
            "other databases with their own tools"
        )
    dest = Path(str(db_url.database))
    if not source.is_file():
        raise NotFound(f"no backup file at {source}")
    if dest.is_dir():
        raise BadInput(f"{dest} is a folder: give the database file with --db")
    if not dest.parent.is_dir():
        raise BadInput(f"the folder {dest.parent} does not exist: create it first")
    with contextlib.suppress(OSError):
        if dest.exists() and os.path.samefile(source, dest):
            raise BadInput(f"{source} is the database itself: give the backup file")
    _check_backup(source)
    if dest.exists():
        _refuse_in_use(dest)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".restore", dir=dest.parent)
    except OSError as exc:
        raise BadInput(f"cannot write in {dest.parent}: {exc.strerror}") from None
    os.close(fd)
    tmp = Path(tmp_name)
    kept: list[Path] = []
    try:
        _copy_file(source, tmp)
        stamp = _now_stamp()
        for suffix in ("", *COMPANIONS):
            old = Path(f"{dest}{suffix}")
            if old.exists():
                aside = Path(f"{dest}.replaced-{stamp}{suffix}")
                os.replace(old, aside)
                kept.append(aside)
        os.replace(tmp, dest)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise DatabaseError(
            f"the restore failed: {exc.strerror or exc}; "
            + (f"the old database is kept as {kept[0]}" if kept else "nothing was changed")
        ) from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return Restored(dest, dest.stat().st_size, tuple(kept))


def _now_stamp() -> str:
    import datetime as dt

    return dt.datetime.now().strftime("%Y%m%d-%H%M%S")


def _check_backup(source: Path) -> None:
    with source.open("rb") as fh:
        if fh.read(16) != b"SQLite format 3\x00":
            raise BadInput(f"{source} is not a tracker backup (not an SQLite file)")
    uri = f"file:{quote(str(source.absolute()), safe='/')}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            tables = {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            ok = conn.execute("PRAGMA quick_check").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise BadInput(f"{source} cannot be read as a backup: {exc}") from None
    if not {"games", "alembic_version"} <= tables:
        raise BadInput(
            f"{source} is an SQLite file but not a tracker backup (no tracker schema in it)"
        )
    if ok is None or ok[0] != "ok":
        raise BadInput(f"{source} is damaged ({ok[0] if ok else 'no answer'}): pick another backup")


def _refuse_in_use(dest: Path) -> None:
    """A write lock on the database (another tracker writing) refuses the restore."""
    try:
        conn = sqlite3.connect(dest, timeout=0.5)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.rollback()
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise DatabaseError(
                f"{dest} is in use by another tracker: restore it when that one has finished"
            ) from None
    except sqlite3.Error:
        pass  # a damaged database is what a restore is for


def _copy_file(source: Path, tmp: Path) -> None:
    uri = f"file:{quote(str(source.absolute()), safe='/')}?mode=ro"
    try:
        src = sqlite3.connect(uri, uri=True)
        try:
            failed = _backup_checked(src, tmp)
            if failed is not None:
                raise DatabaseError(
                    f"the restored copy failed its check ({failed}); nothing was changed"
                )
        finally:
            src.close()
    except sqlite3.Error as exc:
        raise DatabaseError(f"the restore failed: {exc}; nothing was changed") from None


def _backup_checked(src: sqlite3.Connection, tmp: Path) -> str | None:
    """SQLite's backup of `src` into the file `tmp`, made one self-contained file (no -wal
    beside it) and checked (`PRAGMA quick_check`): None when the check passes, else its
    first finding (the copy is page for page the source: the source is damaged)."""
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode = DELETE")
        ok = dst.execute("PRAGMA quick_check").fetchone()
    finally:
        dst.close()
    if ok is not None and ok[0] == "ok":
        return None
    found = [x for x in str(ok[0] if ok else "no answer").splitlines() if not x.startswith("***")]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return (found[0] if found else "no answer") + more


def _copy(store: Store, tmp: Path) -> None:
    raw = store.engine.raw_connection()
    try:
        src = raw.driver_connection
        assert isinstance(src, sqlite3.Connection)
        failed = _backup_checked(src, tmp)
    except sqlite3.Error as exc:
        if is_damage(exc):
            name = str(make_url(store.url).database)
            raise DamagedDatabase(name, f"{exc}; no backup was written") from None
        raise DatabaseError(f"the backup failed: {exc}; nothing was written") from None
    finally:
        raw.close()
    if failed is not None:  # (a copy of the damage, not a backup: exit 4, as any damage)
        name = str(make_url(store.url).database)
        raise DamagedDatabase(
            name, f"SQLite's check of its copy: {failed}; no backup was written"
        ) from None
