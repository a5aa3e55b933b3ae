"""What every command shares on its command line: the --db, --format, --list, --force
options and the PLAYER argument, the dates and periods given, the click classes every
command and group is made of, and the database --db opens.

Nothing heavy is imported here or at the top of a command module: SQLAlchemy (through
tracker.store), rich and the use cases are imported by the commands that run, so that
`tracker --help` and the commands that need little start fast.
"""

from __future__ import annotations

import datetime as dt
import os
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from tracker.model import FIRST_PERIOD_YEAR, LAST_PERIOD_YEAR, RatingList

if TYPE_CHECKING:
    from tracker.app.database import Store
    from tracker.model import Period

DEFAULT_DB = "tracker.db"
"""tracker.store.DEFAULT_DB, written out so that the command line starts without importing
the store (tests/test_bench_history.py keeps the two equal)."""


def given(ctx: Any, name: str) -> bool:
    """Whether the option `name` of `ctx` was on the command line (not its default or the
    environment)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def db_given_before(ctx: Any) -> None:
    """The --db a command runs on: its own when given on the command line, else the nearest
    one given before the command (`tracker --db club.db history`, `tracker imports --db
    club.db remove 3`), else the environment's (TRACKER_DB) or the default. Settled when the
    command is invoked (Command.invoke, Group.invoke), once click knows where each value
    came from (newer click records it only after an option's callback)."""
    if "db" not in ctx.params or given(ctx, "db"):
        return
    parent = ctx.parent
    while parent is not None:
        if "db" in parent.params and given(parent, "db"):
            ctx.params["db"] = parent.params["db"]
            return
        parent = parent.parent


PlayerArg = Annotated[
    str | None,
    typer.Argument(
        help="FIDE ID or name (default: the player marked with --me).", show_default=False
    ),
]
"""The optional PLAYER of every command about one player."""


def period_option(text: str | None, option: str = "--period") -> Period | None:
    """A period (YYYY-MM) given with `option`, None when not given; a bad one is refused
    in one line naming the option."""
    from tracker.errors import BadInput
    from tracker.model import Period

    if text is None:
        return None
    try:
        return Period.parse(text)
    except BadInput as exc:
        raise BadInput(f"{option}: {exc}") from None


DB_HELP = "Database file or SQLAlchemy URL (env TRACKER_DB)."

DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="TRACKER_DB",
        help=DB_HELP,
        show_default=True,
    ),
]


class Format(StrEnum):
    """What every reading command prints: a table (for people), CSV (one row per line:
    the rows the table shows, for a spreadsheet) or JSON (for programs)."""

    table = "table"
    csv = "csv"
    json = "json"


FormatOption = Annotated[
    Format, typer.Option("--format", "-f", help="table, csv or json.", case_sensitive=False)
]

LIST_CHOICES = "|".join(RatingList)
"""The metavar of every --list option (a list name is parsed by RatingList.parse, whose
message is clearer than click's own)."""


def _plain_flags(params: list[Any]) -> list[Any]:
    """A flag (--strict, --help) shows no value in --help: typer's `<bool>` reads as if one
    were needed (and `--strict true` then takes `true` for a file)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Command(TyperCommand):
    """Every command of tracker: flags without a metavar in its help; the --db given before
    the command taken when it has none of its own (db_given_before)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_flags(super().get_params(ctx))

    def invoke(self, ctx: Any) -> Any:
        db_given_before(ctx)
        return super().invoke(ctx)


class Group(TyperGroup):
    """Every group of tracker (and the program itself): flags without a metavar; the --db
    given before it taken as for a command."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_flags(super().get_params(ctx))

    def invoke(self, ctx: Any) -> Any:
        db_given_before(ctx)
        return super().invoke(ctx)


def today() -> dt.date:
    """Today, or the day TRACKER_TODAY (YYYY-MM-DD) names: what `next` measures a list's
    age against, so that a saved output (docs/walkthrough.md) reads the same later."""
    given = os.environ.get("TRACKER_TODAY", "")
    try:
        return dt.date.fromisoformat(given) if given else dt.date.today()
    except ValueError:
        from tracker.errors import BadInput

        raise BadInput(f"TRACKER_TODAY={given!r}: give a date as YYYY-MM-DD") from None


FIRST_YEAR, LAST_YEAR = FIRST_PERIOD_YEAR, LAST_PERIOD_YEAR
"""The years of a date on the command line: those of a period (model.Period.parse)."""


def in_years(day: dt.date, what: str) -> dt.date:
    """`day` (a date), refused (exit 2) outside FIRST_YEAR..LAST_YEAR: its rating list would
    be of a year Python's dates cannot hold (9999-12-31: the list of 10000-01)."""
    from tracker.errors import BadInput

    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise BadInput(f"{what}: the year must be from {FIRST_YEAR} to {LAST_YEAR}")
    return day


ForceOption = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Replace the output file if it "
        "exists (a device or a FIFO is written into, "
        "never replaced).",
    ),
]


def store_for(db: str = DEFAULT_DB, *, create: bool = False) -> Store:
    """Open the database named by --db (upgrading it as needed; an upgrade is announced on
    stderr first: on a big database it takes a while). A missing file is created only with
    `create`, which the commands that bring facts in from outside pass (`import`, `official
    import`); any other refuses it with a sentence saying how to make one (a mistyped --db
    is not an empty database). `tracker db upgrade` and `tracker demo` create theirs
    through open_store."""
    from tracker.app.database import open_database

    return open_database(db, on_upgrade=lambda old, new: _upgrading(db, old, new), create=create)


def _upgrading(db: str, old: str, new: str) -> None:
    import sys

    from tracker.reports.database import upgrading_text

    print(upgrading_text(db, old, new), file=sys.stderr, flush=True)
