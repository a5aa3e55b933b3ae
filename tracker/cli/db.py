"""`tracker db upgrade` (later also `db backup` and `db check`)."""

from __future__ import annotations

import typer

from tracker.cli.common import DbOption, out
from tracker.store import DEFAULT_DB
from tracker.store.db import current_revision, head_revision, open_store


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    group = typer.Typer(help="The database itself: upgrade its schema.", no_args_is_help=True)
    group.command("upgrade")(upgrade)
    app.add_typer(group, name="db")


def upgrade(db: DbOption = DEFAULT_DB) -> None:
    """Create the database, or bring its schema up to this version of tracker.

    Opening a database does this too; this command does only that, and says where it stands.
    A database written by a newer tracker is refused, never touched.

    Example:

      tracker db upgrade --db club.db
    """
    with open_store(db, upgrade=False) as store:
        before = current_revision(store)
    with open_store(db) as store:
        after = current_revision(store)
    if before == after:
        out.print(f"{db}: schema {after} is current (head {head_revision()})", markup=False)
    else:
        out.print(f"{db}: schema upgraded from {before or 'empty'} to {after}", markup=False)
