"""`tracker report`: the season report, one self-contained HTML file to open and send on."""

from __future__ import annotations

from typing import Annotated

import typer

from tracker.cli.common import (
    DEFAULT_DB,
    LIST_CHOICES,
    DbOption,
    ForceOption,
    output_file,
    store_for,
    wrote,
)
from tracker.model import RatingList

# tracker.reports.season (matplotlib and the replay through it) is imported when the command
# runs, so that the other commands start fast.


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("report")(report)


def report(
    player: Annotated[
        str | None,
        typer.Argument(
            help="FIDE ID or name (default: the player marked with --me).", show_default=False
        ),
    ] = None,
    lists: Annotated[
        list[str] | None,
        typer.Option(
            "--list",
            "-l",
            metavar=LIST_CHOICES,
            help="Lists to report (repeatable; default: every list with data).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        str, typer.Option("--output", "-o", help="The HTML file to write.")
    ] = "season.html",
    force: ForceOption = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Write the season report: one HTML file that opens in any browser, with nothing to
    fetch (no network, no fonts, no scripts), to keep or send to a parent or coach.

    Per list (standard first): the chart (hover a point for its period, rating, change and
    tournaments), the next list expected, the history table, every assumption the replay
    made with the command that records the fact, and each period the way FIDE's
    calculation page shows it. An existing file is replaced only with --force, and never
    the database itself; a device or a FIFO (/dev/stdout) is written into, never replaced.

    Examples:

      tracker report --output season.html

      tracker report 99012345 --list standard -o novak-standard.html
    """
    from tracker import __version__
    from tracker.files.outputs import write_atomic
    from tracker.reports.season import season_report
    from tracker.usecases.histories import load_history
    from tracker.usecases.players import resolve_player

    chosen = tuple(dict.fromkeys(RatingList.parse(x) for x in lists)) if lists else None
    path = output_file(output, db, force=force)
    with store_for(db) as store:
        who = resolve_player(store, player)
        hist = load_history(store, who, chosen or tuple(RatingList))
    text = season_report(hist, chosen, version=__version__)
    write_atomic(path.path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    wrote(path, f"wrote {path}")
