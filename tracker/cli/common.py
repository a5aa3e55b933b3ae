"""What every command shares: the --db and --format options, consoles, opening the store.

Nothing heavy is imported here or at the top of a command module: SQLAlchemy (through
tracker.store), rich and the use cases are imported by the commands that run, so that
`tracker --help` and the commands that need little start fast.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from tracker.store import Store

DEFAULT_DB = "tracker.db"
"""tracker.store.DEFAULT_DB, written out so that the command line starts without importing
the store (tests/test_bench_history.py keeps the two equal)."""


class _LazyConsole:
    """A rich Console made on first use, with these options (importing rich costs start-up
    time to every command, most of which print plain text)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    @property
    def console(self) -> Console:
        """The Console itself (to hand to rich, e.g. a Progress)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console, name)


out = _LazyConsole(highlight=False, soft_wrap=True)  # results: stdout
err = _LazyConsole(stderr=True, highlight=False)  # diagnostics and progress: stderr

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
    from tracker.store import open_store

    return open_store(db)
