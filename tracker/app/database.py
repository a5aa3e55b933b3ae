"""The database itself, as the command line asks for it: open one, its revision, back it up,
restore it, check it (`tracker db ...` and every command's `--db`)."""

from __future__ import annotations

from tracker.store import DEFAULT_DB, Store, open_store
from tracker.store.db import current_revision, database_file, head_revision
from tracker.store.maintenance import backup, check_database, open_existing, restore, what_holds

__all__ = [
    "DEFAULT_DB",
    "Store",
    "backup",
    "check_database",
    "current_revision",
    "database_file",
    "head_revision",
    "open_existing",
    "open_store",
    "restore",
    "what_holds",
]
