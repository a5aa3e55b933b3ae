"""Opening the database: URL or path, SQLite pragmas, Alembic upgrade on open.

`open_store(target)` is the one way in. It accepts a path (`tracker.db`) or any SQLAlchemy
URL, turns SQLite into WAL mode with a busy timeout (so a second `tracker` process waits
instead of failing), and upgrades the schema to head through Alembic. A database written by
a newer tracker is refused with a clear sentence, never touched.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.script.revision import RevisionError
from alembic.util import CommandError
from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.exc import DatabaseError as SADatabaseError

from tracker.errors import DatabaseError

DEFAULT_DB = "tracker.db"
BUSY_TIMEOUT_MS = 60_000


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
    """A path becomes a sqlite URL; a URL (`scheme://...`) is kept as it is."""
    if "://" in target:
        return target
    return f"sqlite:///{Path(target)}"


def _alembic_config() -> Config:
    cfg = Config()
    location = resources.files("tracker.migrations")
    cfg.set_main_option("script_location", str(location))
    return cfg


def head_revision() -> str:
    heads = ScriptDirectory.from_config(_alembic_config()).get_heads()
    if len(heads) != 1:  # pragma: no cover - guarded by tests
        raise DatabaseError(f"the migrations have {len(heads)} heads; expected exactly one")
    return heads[0]


def _known_revision(revision: str) -> bool:
    script = ScriptDirectory.from_config(_alembic_config())
    try:
        return script.get_revision(revision) is not None
    except (CommandError, RevisionError):
        return False


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    if isinstance(dbapi_conn, sqlite3.Connection):
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.close()


def _check_sqlite_target(url: str) -> None:
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or not parsed.database:
        return
    if parsed.database == ":memory:":
        return
    path = Path(parsed.database)
    if path.is_dir():
        raise DatabaseError(f"{path} is a folder, not a database file: give a file path to --db")
    if path.exists():
        if not os.access(path, os.R_OK):
            raise DatabaseError(f"{path} cannot be read: check its permissions")
        with path.open("rb") as fh:
            head = fh.read(16)
        if head and head != b"SQLite format 3\x00":
            raise DatabaseError(
                f"{path} is not a tracker database (not SQLite): give another --db path"
            )
    elif not path.parent.exists():
        raise DatabaseError(f"the folder {path.parent} does not exist: create it or pick --db")


def make_engine(url: str) -> Engine:
    try:
        engine = create_engine(url)
    except (ArgumentError, ImportError, ValueError) as exc:
        raise DatabaseError(f"cannot use database {url!r}: {exc}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def open_store(target: str = DEFAULT_DB, *, upgrade: bool = True) -> Store:
    """Open (creating if needed) and upgrade the database at `target` (path or URL)."""
    url = to_url(target)
    _check_sqlite_target(url)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                mode = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
                if mode != "wal" and make_url(url).database not in (None, "", ":memory:"):
                    conn.exec_driver_sql("PRAGMA journal_mode = WAL")
                conn.commit()
            current = MigrationContext.configure(conn).get_current_revision()
            head = head_revision()
            if current is not None and current != head and not _known_revision(current):
                raise DatabaseError(
                    f"{target} was written by a newer version of tracker (schema "
                    f"{current}); upgrade tracker to use it"
                )
            if current is None and inspect(conn).get_table_names():
                tables = set(inspect(conn).get_table_names())
                if "games" not in tables:
                    raise DatabaseError(
                        f"{target} is an SQLite database of another program: pick another --db"
                    )
        if upgrade:
            migrate(engine)
    except (OperationalError, SADatabaseError) as exc:
        engine.dispose()
        raise DatabaseError(f"cannot open database {target}: {exc.orig}") from None
    except DatabaseError:
        engine.dispose()
        raise
    return Store(engine=engine, url=url)


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to `revision` (head by default) through Alembic."""
    cfg = _alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def current_revision(store: Store) -> str | None:
    with store.engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
