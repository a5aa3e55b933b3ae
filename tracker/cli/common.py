"""What every command shares: the --db and --format options, consoles, opening the store."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer
from rich.console import Console

from tracker.store import DEFAULT_DB, Store, open_store

out = Console(highlight=False, soft_wrap=True)  # results: stdout
err = Console(stderr=True, highlight=False)  # diagnostics and progress: stderr

DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="TRACKER_DB",
        help="Database file or SQLAlchemy URL (env TRACKER_DB).",
        show_default=True,
    ),
]


class Format(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


class TableOrJson(StrEnum):
    table = "table"
    json = "json"


def store_for(db: str = DEFAULT_DB) -> Store:
    """Open the database named by --db (creating and upgrading it as needed)."""
    return open_store(db)
