"""`tracker report`: the season report, one self-contained HTML file to open and send on (or,
with --event, one tournament's page: tracker.reports.eventpage)."""

from __future__ import annotations

from typing import Annotated

import typer

from tracker.cli.options import DEFAULT_DB, LIST_CHOICES, DbOption, ForceOption, store_for
from tracker.cli.output import output_file, wrote
from tracker.errors import BadInput
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
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="The HTML file to write (default: season.html; event.html with --event).",
            show_default=False,
        ),
    ] = None,
    event: Annotated[
        str | None,
        typer.Option(
            "--event",
            metavar="TOURNAMENT",
            help="Instead, one tournament's page (its id from `tracker event list`, or its "
            "name): every player's change, the crosstable, the assumptions.",
            show_default=False,
        ),
    ] = None,
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

    With --event, the page of one tournament instead (`tracker event show` as a page): each
    player's Ro, K, games, points, expected score and change K x (W - We), the crosstable,
    the unrated players' way to a first rating, the games not counted and what was assumed.

    Examples:

      tracker report --output season.html

      tracker report 99012345 --list standard -o novak-standard.html

      tracker report --event "Teplice Open 2012" -o teplice.html
    """
    from tracker import __version__
    from tracker.app.outputs import write_text

    if event is not None:
        if player is not None:
            raise BadInput("give a player or --event TOURNAMENT, not both")
        if lists is not None and len(lists) > 1:
            raise BadInput("--event shows one list: give --list once")
        _event_report(event, lists[0] if lists else None, output or "event.html", force, db)
        return
    from tracker.app.histories import load_history
    from tracker.app.players import resolve_player
    from tracker.reports.season import season_report
    from tracker.reports.text import wrote_text

    chosen = tuple(dict.fromkeys(RatingList.parse(x) for x in lists)) if lists else None
    path = output_file(output or "season.html", db, force=force)
    with store_for(db) as store:
        who = resolve_player(store, player)
        hist = load_history(store, who, chosen or tuple(RatingList))
    text = season_report(hist, chosen, version=__version__)
    write_text(path, text)
    wrote(path, wrote_text(path))


def _event_report(event: str, rating_list: str | None, output: str, force: bool, db: str) -> None:
    """`tracker report --event`: the tournament's page."""
    from tracker import __version__
    from tracker.app.event_show import show_event
    from tracker.app.outputs import write_text
    from tracker.reports.eventpage import event_page
    from tracker.reports.text import wrote_text

    rl = RatingList.parse(rating_list) if rating_list is not None else None
    path = output_file(output, db, force=force)
    with store_for(db) as store:
        ev = show_event(store, event, rl)
    text = event_page(ev, version=__version__)
    write_text(path, text)
    wrote(path, wrote_text(path))
