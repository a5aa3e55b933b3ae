"""Whether the writer binds its games rows through SQLite's C API: the C extension
`tracker.store._batch` (built from `tracker/store/_batch.c` by `pip install` where a C
compiler and sqlite3.h exist) or Python's sqlite3 `executemany` (tracker.store.games).

`NATIVE` is the extension when it imports, matches this source (`VERSION`), is not older
than the C source beside it (tracker.pgn.native.stale), was built for a Python whose
`sqlite3.Connection` layout was checked (`LAYOUT`; `LAYOUTS` here too) and calls the very
SQLite library Python's `_sqlite3` calls (`LINKED`, checked when it loads); None otherwise,
and when the environment variable `TRACKER_PURE_PYTHON` is 1. `usable(connection)` says
whether it can take a given DBAPI connection (a `sqlite3.Connection`, open). Both paths
store the same rows (tests/test_store_native.py).
"""

from __future__ import annotations

import os
import sqlite3
import sys
from typing import Any, Protocol, cast

from tracker.pgn.native import extension

__all__ = ["LAYOUTS", "NATIVE", "VERSION", "Batch", "load", "usable"]

VERSION = 1
"""The extension's interface this source expects (`VERSION` in `_batch.c`)."""

LAYOUTS = ((3, 11), (3, 13))
"""The Python versions whose `pysqlite_Connection` (Modules/_sqlite/connection.h) was read:
it starts with the `sqlite3 *` the extension binds through (3.12 and 3.14 were not
checked: there the pure Python path runs)."""

SOURCE = os.path.join(os.path.dirname(__file__), "_batch.c")


class Batch(Protocol):
    """The extension (see `tracker/store/_batch.c`)."""

    VERSION: int
    LAYOUT: int
    LINKED: bool
    WHY: str
    SQLITE_VERSION: str

    def insert(
        self, connection: Any, sql: str, rows: list[tuple[Any, ...]],
        games: list[tuple[Any, ...]] | None = None, fixed: tuple[Any, ...] = (),
        picks: tuple[int, ...] = (),
    ) -> int: ...


def load() -> Batch | None:
    """The extension, or None (not built, another revision, built before its source last
    changed, a Python or an SQLite library it cannot prove it fits, or pure Python asked
    for)."""
    if sys.version_info[:2] not in LAYOUTS:
        return None
    module = extension("tracker.store._batch", VERSION, SOURCE)
    if (
        module is None
        or getattr(module, "LAYOUT", 0) != 1
        or getattr(module, "LINKED", False) is not True
    ):
        return None
    return cast(Batch, module)


def usable(connection: Any) -> bool:
    """Whether `NATIVE` can take this DBAPI connection: a `sqlite3.Connection` (or a
    subclass) that is open."""
    if NATIVE is None or not isinstance(connection, sqlite3.Connection):
        return False
    try:
        connection.total_changes  # noqa: B018 (raises ProgrammingError when closed)
    except sqlite3.ProgrammingError:
        return False
    return True


NATIVE = load()
