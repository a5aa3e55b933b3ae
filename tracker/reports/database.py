"""What `tracker db upgrade|backup|restore|check` say when they are done (moved from the
command line, word for word; their errors are the app's)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tracker.app.database import Backup, Upgrade

__all__ = ["backed_up_text", "check_lines", "restored_lines", "upgraded_text", "upgrading_text"]


def upgraded_text(db: str, done: Upgrade) -> str:
    """Where the schema of the database `db` stands after `db upgrade`."""
    if done.before == done.after:
        return f"{db}: schema {done.after} is current (head {done.head})"
    return f"{db}: schema upgraded from {done.before or 'empty'} to {done.after}"


def backed_up_text(db: str, file: Path, done: Backup) -> str:
    """What `db backup` wrote, and what killed backups had left beside it (removed)."""
    removed = "".join(f"; removed {p}, left by a backup that did not finish" for p in done.removed)
    return f"backed up {db} to {file} ({done.size:,} bytes){removed}"


def restored_lines(database: Path, file: Path, size: int, kept: Sequence[Path]) -> list[str]:
    """What `db restore` put in place, and where the files it replaced went."""
    lines = [f"restored {database} from {file} ({size:,} bytes)"]
    if kept:
        lines.append("the replaced files are kept as " + ", ".join(str(p) for p in kept))
    return lines


def check_lines(db: str, problems: Sequence[tuple[str, str]], holds: str) -> list[str]:
    """`db check`'s lines: the database sound and what it holds, or each problem (its check
    and message)."""
    if not problems:
        return [f"{db}: ok ({holds})"]
    return [f"{db}: {check}: {message}" for check, message in problems]


def upgrading_text(db: str, old: str, new: str) -> str:
    """What a command says on stderr while it upgrades the schema of the database `db`."""
    return (
        f"{db}: upgrading the database schema from {old} to {new} (once; a database of a "
        "million games takes about half a minute)"
    )
