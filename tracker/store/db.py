"""Opening the database: a path or URL, SQLite pragmas, Alembic upgrade on open, the write
lock.

`open_store(target)` is the one way in, for a path, a SQLite URL or a PostgreSQL URL (the
two databases tracker is tested on, `SUPPORTED`): it sets SQLite's WAL mode and busy
timeout, upgrades the schema to head, refuses a database of a newer tracker, opens a file
that cannot be written read-only, and turns a damaged file into one sentence. One writer at
a time on both databases (`lock_for_writing`), because the importer matches what it read
while nobody else writes. The details: docs/architecture.md, section tracker/store/.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import shlex
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.exc import DatabaseError as SADatabaseError

from tracker.errors import BadInput, DatabaseError, Unavailable

if TYPE_CHECKING:  # alembic is imported only when a schema change is due (it is slow)
    from collections.abc import Callable

    from alembic.config import Config
    from sqlalchemy.engine import ExceptionContext

DEFAULT_DB = "tracker.db"
BUSY_TIMEOUT_MS = 60_000
DAMAGED_EXIT_CODE = 4
ZEROED = "its first bytes, SQLite's header, are zeros"
SUPPORTED = ("sqlite", "postgresql")  # the databases tracker is tested on (dialect names)
# The advisory lock every writing transaction on PostgreSQL takes first: "tracker" as a
# number (pg_advisory_xact_lock takes a bigint key shared by every client of the server).
WRITE_LOCK = int.from_bytes(b"tracker", "big")
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE of a lock wait past lock_timeout
NUMERIC_OUT_OF_RANGE = "22003"  # PostgreSQL's SQLSTATE of a number past its column's type
BUSY = (
    "the database stayed busy: another tracker is writing to it; run the command again "
    "when that one has finished"
)


RESTORE = "restore a backup (`tracker db restore BACKUP`)"
"""What to do with a damaged database: every sentence that says one is damaged ends so
(not `tracker db backup`, which on a damaged file copies the damage)."""


class DamagedDatabase(DatabaseError):
    """SQLite found the database file damaged (SQLITE_CORRUPT, SQLITE_NOTADB), or its header
    is zeros: not something a command can work around, so it has an exit code of its own."""

    exit_code = DAMAGED_EXIT_CODE

    def __init__(self, name: str, reason: str, *, hint: bool = True) -> None:
        self.name, self.reason = name, reason
        check = f"`tracker db check --db {shlex.quote(name)}` tells more; " if hint else ""
        super().__init__(f"{name} is damaged ({reason}): {check}{RESTORE}")


def is_damage(exc: BaseException) -> bool:
    """A SQLite error that says the file itself is damaged (not locked, full or read-only)."""
    name = getattr(exc, "sqlite_errorname", "") if isinstance(exc, sqlite3.DatabaseError) else ""
    return isinstance(name, str) and name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


@dataclass
class Store:
    """An open database. Pass it to the functions of tracker.store.*; close when done."""

    engine: Engine
    url: str

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def to_url(target: str) -> str:
    """A path becomes a sqlite URL; a URL (`scheme://...`) is kept as it is, except that a
    PostgreSQL URL without a driver (`postgresql://`, `postgres://`) names psycopg 3, the
    driver of the `postgres` extra."""
    if "://" in target:
        scheme, rest = target.split("://", 1)
        if scheme in ("postgresql", "postgres"):
            return f"postgresql+psycopg://{rest}"
        return target
    return f"sqlite:///{Path(target)}"


_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^:/@?#]*):[^@/?#]*@")


def shown_target(target: str) -> str:
    """`target` as messages show it: a URL's password hidden (`USER:***@HOST`)."""
    return _PASSWORD.sub(r"\1:***@", target)


IN_CHUNK = 500  # parameters per IN (...) query (SQLite's limit is far above)


def chunks(items: Sequence[Any], size: int = IN_CHUNK) -> Iterable[Sequence[Any]]:
    """`items` a slice of `size` at a time (the values of one IN (...) query)."""
    for i in range(0, len(items), size):
        yield items[i : i + size]


def utc_now() -> dt.datetime:
    """Now in UTC, without a time zone: how the store records when a row was written
    (imports' started_at and finished_at, official entries' recorded_at)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def one_line(exc: object) -> str:
    """A driver's message on one line (psycopg's span several: a hint, a DETAIL)."""
    return " ".join(part.strip() for part in str(exc).splitlines() if part.strip())


def is_busy(exc: BaseException) -> bool:
    """A database error that says another writer holds the lock past the timeout: SQLite's
    "database is locked", PostgreSQL's lock timeout on the write lock."""
    orig = getattr(exc, "orig", exc)
    return "locked" in str(orig) or getattr(orig, "sqlstate", None) == LOCK_NOT_AVAILABLE


def lock_for_writing(conn: Connection) -> None:
    """Make the transaction of `conn` (none begun yet) the database's one writer until it
    ends: SQLite's BEGIN IMMEDIATE; PostgreSQL's advisory WRITE_LOCK, waited for at most
    BUSY_TIMEOUT_MS (then an OperationalError that `is_busy`)."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        return
    # postgresql: the lock_timeout is set for this wait only (set_config(..., true) lasts
    # to the end of the transaction at most)
    conn.execute(
        text("SELECT set_config('lock_timeout', :ms, true)"), {"ms": f"{BUSY_TIMEOUT_MS}ms"}
    )
    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK})
    conn.execute(text("SELECT set_config('lock_timeout', '0', true)"))


def copy_rows(conn: Connection, table: str, columns: str, rows: Iterable[Sequence[Any]]) -> None:
    """PostgreSQL: `rows` into `table` (its `columns`, quoted and comma-separated) by COPY,
    through the driver (psycopg 3) in the transaction of `conn`: ISO dates go as text,
    Python booleans and None as they are. An error of the driver (not wrapped by SQLAlchemy
    here) is one DatabaseError sentence; the transaction is then to be rolled back."""
    raw = conn.connection.driver_connection
    assert raw is not None
    try:
        with raw.cursor() as cur, cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
    except conn.dialect.loaded_dbapi.Error as exc:
        raise DatabaseError(f"cannot write to the database: {one_line(exc)}") from None


@contextmanager
def writing(store: Store) -> Iterator[Connection]:
    """A transaction that writes (`with writing(store) as conn:`), committed at the end of
    the block, rolled back on an exception. The write lock is taken first, on both
    databases (`lock_for_writing`: SQLite's BEGIN IMMEDIATE, PostgreSQL's advisory lock), so
    that what the block reads is still so when it writes: writers take turns. (Before, on
    SQLite, the lock came with the first write: three `official import --all` of one list
    at once all read the new players as missing, and two failed inserting them, "UNIQUE
    constraint failed: players.fide_id", an internal error.) An error of the database while
    the block writes (a full disk, an I/O error, the lock not had within the busy timeout)
    is one DatabaseError sentence, the transaction rolled back."""
    try:
        with store.engine.begin() as conn:
            try:
                lock_for_writing(conn)
            except SADatabaseError as exc:  # (PostgreSQL: the lock's statements)
                if is_busy(exc):
                    raise DatabaseError(BUSY) from None
                raise DatabaseError(f"cannot write to the database: {one_line(exc.orig)}") from None
            yield conn
    except OperationalError as exc:
        raise DatabaseError(
            BUSY if is_busy(exc) else f"cannot write to the database: {one_line(exc.orig)}"
        ) from None


def database_file(target: str) -> Path | None:
    """The file of a SQLite database named by --db (a path or URL), None for other
    databases and for memory."""
    url = make_url(to_url(target))
    if not url.drivername.startswith("sqlite") or url.database in (None, "", ":memory:"):
        return None
    return Path(str(url.database))


def _alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    location = resources.files("tracker.migrations")
    cfg.set_main_option("script_location", str(location))
    return cfg


_REVISION = re.compile(r"""^revision\s*=\s*["']([^"']+)["']""", re.M)
_DOWN = re.compile(r"""^down_revision\s*=\s*(?:["']([^"']+)["']|None)""", re.M)


@cache
def known_revisions() -> dict[str, str | None]:
    """revision -> down_revision of every migration that ships with this tracker.

    Read from the migration files as text, so opening an up-to-date database never imports
    Alembic; tests/test_store_migrations.py checks this agrees with Alembic's own view.
    """
    found: dict[str, str | None] = {}
    versions = resources.files("tracker.migrations").joinpath("versions")
    for entry in versions.iterdir():
        if not entry.name.endswith(".py") or entry.name.startswith("__"):
            continue
        source = entry.read_text(encoding="utf-8")
        rev, down = _REVISION.search(source), _DOWN.search(source)
        if rev and down:
            found[rev.group(1)] = down.group(1)
    return found


def head_revision() -> str:
    revisions = known_revisions()
    heads = set(revisions) - {d for d in revisions.values() if d}
    if len(heads) != 1:  # pragma: no cover - guarded by tests
        raise DatabaseError(f"the migrations have {len(heads)} heads; expected exactly one")
    return heads.pop()


def _read_revision(conn: Connection) -> str | None:
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    if isinstance(dbapi_conn, sqlite3.Connection):
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.close()


def _check_sqlite_target(url: str, target: str, *, create: bool) -> None:
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or not parsed.database:
        return
    if parsed.database == ":memory:":
        return
    path = Path(parsed.database)
    if path.is_dir():
        raise DatabaseError(f"{path} is a folder, not a database file: give a file path to --db")
    if path.exists():
        if not path.is_file():  # a FIFO would hang the open, a device is no database
            raise DatabaseError(f"{path} is not a regular file: give a database file to --db")
        if not os.access(path, os.R_OK):
            raise DatabaseError(f"{path} cannot be read: check its permissions")
        with path.open("rb") as fh:
            head = fh.read(16)
        if head and not head.strip(b"\x00"):  # (a crash, a disk that zeroed its first block)
            raise DamagedDatabase(str(path), ZEROED)
        if head and head != b"SQLite format 3\x00":
            raise DatabaseError(
                f"{path} is not a tracker database (not SQLite): give another --db path"
            )
        if not head and not create:  # a reading command never turns a 0-byte file into one
            raise Unavailable(
                f"{path} is an empty file, not a tracker database: "
                + missing_database(target).split(" (", 1)[1].rstrip(")")
            )
    elif not path.parent.exists():
        raise DatabaseError(f"the folder {path.parent} does not exist: create it or pick --db")
    elif not create:
        raise Unavailable(missing_database(target))
    elif not os.access(path.parent, os.W_OK):
        raise DatabaseError(
            f"cannot create {target}: the folder {path.parent} is read-only; "
            "pick --db in a folder you can write"
        )


def _sqlite_errors(context: ExceptionContext) -> None:
    """Every SQLite error of this engine, wherever a query runs: a damaged file becomes one
    DamagedDatabase sentence (instead of SQLAlchemy's multi-line error with its SQL)."""
    exc = context.original_exception
    if is_damage(exc):
        name = str(context.engine.url.database) if context.engine is not None else "database"
        raise DamagedDatabase(name, str(exc)) from None


def _postgresql_errors(context: ExceptionContext) -> None:
    """A number past what a column holds (SQLSTATE 22003, "bigint out of range"), wherever
    a query meets it: the sentence SQLite's OverflowError gets on the command line."""
    if getattr(context.original_exception, "sqlstate", None) == NUMERIC_OUT_OF_RANGE:
        raise BadInput(
            f"a number given is too large (the most is {(1 << 63) - 1:,}); give a plausible value"
        ) from None


def _read_only_errors(context: ExceptionContext) -> None:
    """A write through an engine that read_only_mode opened read-only: one sentence."""
    exc = context.original_exception
    if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
        name = str(context.engine.url.database) if context.engine is not None else "database"
        raise DatabaseError(
            f"{name} is read-only ({exc}): this command changes it; run it "
            "where the file and its folder can be written, or on a copy"
        ) from None


def read_only_mode(url: str) -> str | None:
    """The SQLite URI parameters to read an existing database file that cannot be written,
    or None when it can be (or is no SQLite file).

    A database in WAL mode is read through its -shm file, which SQLite creates beside it:
    where the folder is not writable (a read-only mount, a CD, someone else's folder) it
    cannot, so the file is opened `immutable` (no -shm, no locks: safe, since nobody can
    write there either). A -wal file with changes not yet moved into the database would be
    ignored that way, so then the plain read-only mode is tried (it reads an existing -shm).
    Where only the file is read-only, `mode=ro` reads it, the folder taking the -shm.
    """
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(str(parsed.database))
    if not path.is_file():
        return None
    folder = path.parent
    if os.access(path, os.W_OK) and os.access(folder, os.W_OK):
        return None
    wal = Path(f"{path}-wal")
    if os.access(folder, os.W_OK) or (wal.is_file() and wal.stat().st_size > 0):
        return "mode=ro"
    return "mode=ro&immutable=1"


def _read_only_creator(url: str, mode: str) -> Callable[[], sqlite3.Connection]:
    path = Path(str(make_url(url).database)).absolute()
    uri = f"file:{quote(str(path), safe='/')}?{mode}"
    return lambda: sqlite3.connect(uri, uri=True, check_same_thread=False)


def missing_database(target: str) -> str:
    """The sentence for a database file that a reading command does not find."""
    db = "" if target == DEFAULT_DB else f" --db {shlex.quote(target)}"
    return f"{target} does not exist (import games first: tracker import FILE{db})"


def make_engine(url: str, *, read_only: str | None = None, name: str | None = None) -> Engine:
    """An engine for `url`; `read_only` (URI parameters from read_only_mode) opens a SQLite
    file read-only; `name` is the database as messages call it (default: `url`)."""
    shown = shown_target(url if name is None else name)
    try:
        backend = make_url(url).get_backend_name()
    except (ArgumentError, ValueError) as exc:
        raise DatabaseError(f"cannot use database {shown!r}: {exc}") from None
    if backend not in SUPPORTED:
        raise DatabaseError(
            f"cannot use database {shown!r}: tracker works on SQLite (a file "
            "path) and PostgreSQL (postgresql+psycopg://USER@HOST/DATABASE) databases only"
        )
    try:
        if read_only is not None:
            engine = create_engine(url, creator=_read_only_creator(url, read_only))
        elif backend == "postgresql":
            engine = create_engine(url, connect_args={"application_name": "tracker"})
        else:
            engine = create_engine(url)
    except ImportError as exc:
        extra = " (pip install 'tracker[postgres]')" if backend == "postgresql" else ""
        raise DatabaseError(f"cannot use database {shown!r}: {exc}{extra}") from None
    except (ArgumentError, ValueError) as exc:
        raise DatabaseError(f"cannot use database {shown!r}: {exc}") from None
    if engine.dialect.name == "postgresql":
        event.listen(engine, "handle_error", _postgresql_errors)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "handle_error", _sqlite_errors)
        if read_only is not None:
            event.listen(engine, "handle_error", _read_only_errors)
    return engine


def open_store(
    target: str = DEFAULT_DB,
    *,
    upgrade: bool = True,
    on_upgrade: Callable[[str, str], None] | None = None,
    create: bool = True,
) -> Store:
    """Open (creating if needed) and upgrade the database at `target` (path or URL).
    `on_upgrade(old, new)` is called before an existing database's schema is upgraded (a
    migration of a big database takes a while: the command line says so first). With
    `create=False` a missing SQLite file is refused (NotFound) instead of created: a command
    that only reads has nothing to read in a new database (a mistyped --db)."""
    url = to_url(target)
    _check_sqlite_target(url, target, create=create)
    read_only = read_only_mode(url)
    shown = shown_target(target)
    engine = make_engine(url, read_only=read_only, name=target)
    sqlite = engine.dialect.name == "sqlite"
    try:
        with engine.connect() as conn:
            if not create and _read_revision(conn) is None and not inspect(conn).get_table_names():
                # A database without the tracker's schema (an SQLite file of a kill during
                # the very first open, a new PostgreSQL database, an empty database of
                # someone's): a reading command leaves it be.
                raise Unavailable(
                    f"{shown} holds no tracker data yet: "
                    + missing_database(shown).split(" (", 1)[1].rstrip(")")
                )
            if sqlite and read_only is None:
                mode = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
                if mode != "wal" and make_url(url).database not in (None, "", ":memory:"):
                    conn.exec_driver_sql("PRAGMA journal_mode = WAL")
                conn.commit()
            current = _read_revision(conn)
            if current is not None and current not in known_revisions():
                raise DatabaseError(
                    f"{shown} was written by a newer version of tracker (schema "
                    f"{current}); upgrade tracker to use it"
                )
            if current is None and inspect(conn).get_table_names():
                tables = set(inspect(conn).get_table_names())
                if "games" not in tables:
                    raise DatabaseError(
                        f"{shown} is an SQLite database of another program: pick another --db"
                        if sqlite
                        else f"{shown} holds tables of another program and no tracker data: give "
                        "tracker a database of its own (createdb NAME, then --db with NAME)"
                    )
        if upgrade and current != head_revision() and read_only is not None:
            raise DatabaseError(
                f"{shown} is read-only and its schema ({current or 'empty'}) is older than "
                f"this tracker's ({head_revision()}): upgrade it where it can be written "
                f"(tracker db upgrade --db {shlex.quote(shown)}), or work on a copy"
            )
        if upgrade and current != head_revision():
            if on_upgrade is not None and current is not None:
                on_upgrade(current, head_revision())
            migrate(engine)
    except (OperationalError, SADatabaseError) as exc:
        engine.dispose()
        wal = Path(f"{make_url(url).database}-wal") if read_only is not None else None
        if wal is not None and wal.is_file() and wal.stat().st_size > 0:
            raise DatabaseError(
                f"cannot open database {target}: {exc.orig}; it is read-only and its changes "
                f"in {target}-wal were never moved into it (SQLite needs to write beside it to "
                "read them): open it once where it can be written, or copy it with its -wal "
                "and -shm files to a writable folder"
            ) from None
        if sqlite:
            raise DatabaseError(f"cannot open database {target}: {exc.orig}") from None
        raise DatabaseError(_server_error(shown, url, exc)) from None
    except BaseException:  # NotFound, DatabaseError, an interrupt: no pooled connection left
        engine.dispose()
        raise
    return Store(engine=engine, url=url)


def _server_error(shown: str, url: str, exc: OperationalError | SADatabaseError) -> str:
    """The sentence for a PostgreSQL server that cannot be used (not reached, no such
    database, a refused login, the write lock not had in time)."""
    if is_busy(exc):
        return f"cannot open database {shown}: {BUSY}"
    reason = one_line(exc.orig)
    name = make_url(url).database
    if name and f'database "{name}" does not exist' in reason:
        return (
            f"cannot open database {shown}: the server has no database {name}: create it "
            f"(createdb {shlex.quote(name)}), tracker makes its tables on first use"
        )
    hint = (
        ""
        if "Is the server running" in reason
        else (
            " (is the server running, and the URL right? postgresql+psycopg://USER@HOST/DATABASE)"
        )
    )
    return f"cannot open database {shown}: {reason}{hint}"


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to `revision` (head by default) through Alembic.

    The write lock is taken before Alembic reads the version, so that several processes
    opening a new (or older) database at once migrate it one after the other: the first
    creates the tables, the others find them at head (on PostgreSQL two CREATE TABLEs of
    one name at once fail: "duplicate key value violates unique constraint
    pg_type_typname_nsp_index")."""
    from alembic import command

    cfg = _alembic_config()
    with engine.begin() as conn:
        lock_for_writing(conn)
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    if engine.dialect.name == "sqlite":
        _give_back_free_pages(engine)


FREE_PAGES_KEPT = 0.25
"""An upgraded SQLite file with more of its pages free than this is VACUUMed."""


def _give_back_free_pages(engine: Engine) -> None:
    """A migration that copies the games table (0004, 0007) leaves the old table's pages
    free in the file, which then stays half as big again as it needs to be: VACUUM (outside
    a transaction, as it must run) gives them back to the disk. It needs the database to
    itself: if another connection holds it, the pages stay free for later writes (nothing
    is lost)."""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        pages = int(conn.exec_driver_sql("PRAGMA page_count").scalar() or 0)
        free = int(conn.exec_driver_sql("PRAGMA freelist_count").scalar() or 0)
        if pages and free > pages * FREE_PAGES_KEPT:
            with contextlib.suppress(OperationalError):
                conn.exec_driver_sql("VACUUM")


def current_revision(store: Store) -> str | None:
    with store.engine.connect() as conn:
        return _read_revision(conn)
