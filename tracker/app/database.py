"""The database itself, as the command line asks for it (`tracker db ...` and every command's
`--db`): open the one --db names, bring its schema up to date, back it up, restore a backup,
check it. Each verb takes what the user named (a path or URL) and opens and closes the
database itself; `open_database` hands the other verbs their store."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tracker.files.outputs import is_stdout
from tracker.store import DEFAULT_DB, Store, open_store
from tracker.store.db import current_revision, head_revision
from tracker.store.maintenance import (
    Problem,
    Restored,
    backup,
    check_database,
    open_existing,
    what_holds,
)
from tracker.store.maintenance import restore as restore_store

__all__ = [
    "Backup",
    "DatabaseCheck",
    "Store",
    "Upgrade",
    "backup_database",
    "check_the_database",
    "open_database",
    "restore_database",
    "upgrade_database",
]


def open_database(
    target: str = DEFAULT_DB,
    *,
    create: bool = True,
    upgrade: bool = True,
    on_upgrade: Callable[[str, str], None] | None = None,
) -> Store:
    """The database `target` names (a path or URL), its schema upgraded first unless not
    `upgrade` (`on_upgrade(old, new)` is told before). A missing file is made only with
    `create`: a command that only reads refuses it (a mistyped --db is not an empty
    database)."""
    return open_store(target, upgrade=upgrade, on_upgrade=on_upgrade, create=create)


@dataclass(frozen=True)
class Upgrade:
    """`tracker db upgrade`: the schema's revision before and after, and the newest one."""

    before: str | None  # None: an empty database
    after: str | None
    head: str


def upgrade_database(target: str) -> Upgrade:
    """Create the database `target`, or bring its schema up to this version of tracker."""
    with open_store(target, upgrade=False) as store:
        before = current_revision(store)
    with open_store(target) as store:
        after = current_revision(store)
    return Upgrade(before, after, head_revision())


@dataclass(frozen=True)
class Backup:
    """What `backup_database` wrote: its bytes, the files killed backups of the same file
    left beside it (removed first), and whether it went to the standard output (a device
    or a FIFO, `/dev/stdout`: then it is not a place to say so)."""

    size: int
    removed: tuple[Path, ...]
    to_stdout: bool


def backup_database(target: str, file: str | os.PathLike[str], *, overwrite: bool) -> Backup:
    """Copy the database `target` (which must exist; never upgraded) into `file`, safely,
    even while another tracker imports (tracker.store.maintenance.backup)."""
    to_stdout = is_stdout(Path(file))
    with open_existing(target) as store:
        done = backup(store, file, overwrite=overwrite)
    return Backup(done.size, done.removed, to_stdout)


def restore_database(file: str | os.PathLike[str], target: str) -> Restored:
    """Put the backup `file` in place as the database `target`, the files it replaces moved
    aside (tracker.store.maintenance.restore)."""
    return restore_store(file, target)


@dataclass(frozen=True)
class DatabaseCheck:
    """`tracker db check`: what is wrong ([] when nothing) and, for a sound database, what
    was found holding."""

    problems: list[Problem]
    holds: str


def check_the_database(target: str) -> DatabaseCheck:
    """Check the database `target` (which must exist; never upgraded nor changed)."""
    with open_existing(target) as store:
        return DatabaseCheck(check_database(store), what_holds(store))
