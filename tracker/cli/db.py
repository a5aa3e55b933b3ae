"""`tracker db upgrade`, `tracker db backup FILE`, `tracker db restore FILE`, `tracker db
check`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tracker.cli.options import DEFAULT_DB, DbOption, Format, FormatOption
from tracker.cli.output import emit_csv, emit_json, err, out
from tracker.errors import TrackerError


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    group = typer.Typer(
        help="The database itself: upgrade its schema, back it up, check it.", no_args_is_help=True
    )
    group.command("upgrade")(upgrade)
    group.command("backup")(backup)
    group.command("check")(check)
    group.command("restore")(restore)
    app.add_typer(group, name="db")


def upgrade(db: DbOption = DEFAULT_DB) -> None:
    """Create the database, or bring its schema up to this version of tracker.

    Opening a database does this too; this command does only that, and says where it stands.
    A database written by a newer tracker is refused, never touched.

    Example:

      tracker db upgrade --db club.db
    """
    from tracker.app.database import upgrade_database
    from tracker.reports.database import upgraded_text

    out.print(upgraded_text(db, upgrade_database(db)), markup=False)


def backup(
    file: Annotated[Path, typer.Argument(help="The backup file to write.", show_default=False)],
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Replace FILE if it exists (a device or a FIFO is written into, never replaced).",
        ),
    ] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Copy the database into FILE, safely, even while another tracker is importing.

    Uses SQLite's online backup: FILE is a consistent snapshot in one self-contained file,
    written beside FILE first and renamed into place when complete, so an interrupted
    backup never leaves half a file. Restore it with `tracker db restore FILE` (never by
    copying it over the database: after a crash SQLite would replay the -wal left beside
    the old file onto the copy), or use FILE itself as --db. A device or a FIFO
    (/dev/stdout) is written into, never replaced. What a killed backup of FILE left beside
    it (.FILE.XXXXXXXX.part) is removed first, and named.

    Example:

      tracker db backup ~/backups/tracker-2025-11.db
    """
    from tracker.app.database import backup_database
    from tracker.reports.database import backed_up_text

    done = backup_database(db, file, overwrite=force)
    (err if done.to_stdout else out).print(
        backed_up_text(db, file, done), markup=False, soft_wrap=True
    )


def restore(
    file: Annotated[Path, typer.Argument(help="The backup file to restore.", show_default=False)],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Put a backup (from `tracker db backup`) back in place as the database.

    The backup is checked first; the database being replaced and its -wal/-shm files are
    moved aside together as NAME.replaced-DATE-TIME (nothing is deleted), so SQLite never
    replays a crashed database's -wal onto the restored one. Refused while another tracker
    is writing the database.

    Example:

      tracker db restore ~/backups/tracker-2025-11.db --db tracker.db
    """
    from tracker.app.database import restore_database
    from tracker.reports.database import restored_lines

    done = restore_database(file, db)
    for line in restored_lines(done.database, file, done.size, done.kept):
        out.print(line, markup=False)


def check(
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Check the database: SQLite's integrity check plus the tracker's own rules.

    No game without its players or tournament, no game stored twice, no player spelling
    pointing nowhere, official entries with a valid list and period, no game or tournament
    dated after 2999-12-31 (the last date the tracker rates), the current schema.
    Changes nothing. Exit code 4 when the file itself is damaged (restore a backup: tracker
    db restore BACKUP), 1 when something else is wrong.

    Example:

      tracker db check --db club.db
    """
    from tracker.app.database import check_the_database
    from tracker.reports.database import check_lines

    checked = check_the_database(db)
    problems, holds = checked.problems, checked.holds
    found = [{"check": p.check, "count": p.count, "message": p.message} for p in problems]
    if fmt is Format.json:
        emit_json({"ok": not problems, "problems": found})
    elif fmt is Format.csv:  # a row per problem (none: the header alone)
        emit_csv(("check", "count", "message"), found)
    else:
        for line in check_lines(db, [(p.check, p.message) for p in problems], holds):
            out.print(line, markup=False)
    if problems:
        n = len(problems)
        found_n = f"{db}: {n} problem{'' if n == 1 else 's'} found"
        if any(p.damage for p in problems):  # the file itself: exit 4, as every command says
            from tracker.cli import DAMAGED_EXIT_CODE

            damaged = TrackerError(
                f"{found_n}; the file is damaged: restore a backup (`tracker db restore BACKUP`)"
            )
            damaged.exit_code = DAMAGED_EXIT_CODE
            raise damaged
        raise TrackerError(
            f"{found_n}; restore a backup (tracker db restore BACKUP) or report them"
        )
