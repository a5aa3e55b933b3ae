"""`tracker event show`: one tournament, every player's rating change (registered on the
`event` group by tracker.cli.reports)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.options import DEFAULT_DB, LIST_CHOICES, DbOption, Format, FormatOption, store_for
from tracker.cli.output import echo_lines, emit_csv, emit_json, err, out, print_table
from tracker.model import RatingList

if TYPE_CHECKING:
    from tracker.model import TournamentSummary

TournamentArg = Annotated[
    str,
    typer.Argument(
        metavar="TOURNAMENT",
        help="The tournament's id (from `tracker event list`) or its name (unique, or a "
        "unique part of it).",
        show_default=False,
    ),
]


def event_show(
    tournament: TournamentArg,
    rating_list: Annotated[
        str | None,
        typer.Option(
            "--list",
            "-l",
            metavar=LIST_CHOICES,
            help="The list to show (default: the tournament's pinned list, else the list "
            "most of its games are on).",
            show_default=False,
        ),
    ] = None,
    sort: Annotated[
        str,
        typer.Option("--sort", metavar="standing|change", help="Order of the players."),
    ] = "standing",
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Every player of one tournament, as FIDE's tournament report shows it.

    Per player: Ro and where it came from, K, the games counted, the points in them, the
    expected score, the change K x (W - We) of this tournament to two decimals and the
    performance; an unrated player's games toward a first rating and what is missing;
    the place (#) by the tournament's score, an unplayed game (a forfeit) included as in
    the standings (then a Score column beside Pts, the points of the games rated);
    the games that did not count, with the reason. Each player is rated as `tracker
    explain` rates them, so the two agree to the cent.

    Examples:

      tracker event show 12

      tracker event show "Teplice Open 2012" --sort change --format csv
    """
    from tracker.app.event_show import show_event
    from tracker.errors import BadInput
    from tracker.reports.event import (
        EVENT_SHOW_COLUMNS,
        Order,
        event_csv,
        event_json,
        event_notes,
        event_rows,
        event_table,
        event_title,
        no_games_text,
        other_lists_line,
        table_headers,
        table_optional,
        table_right,
    )

    try:
        order = Order(sort.strip().lower())
    except ValueError:
        raise BadInput(f"--sort {sort!r}: use standing or change") from None
    rl = RatingList.parse(rating_list) if rating_list is not None else None
    with store_for(db) as store:
        ev = show_event(store, tournament, rl)
    if fmt is not Format.table and ev.other_lists:  # which list the data is of: stderr
        err.print(other_lists_line(ev), markup=False, soft_wrap=True)
    if fmt is Format.json:
        emit_json([event_json(r) for r in event_rows(ev, order)])
    elif fmt is Format.csv:
        emit_csv(EVENT_SHOW_COLUMNS, [event_csv(r) for r in event_rows(ev, order)])
    else:
        cells = event_table(ev, order)
        if not cells:
            echo_lines([no_games_text(ev)])
            echo_lines([other_lists_line(ev)] if ev.other_lists else [])
            return
        print_table(
            table_headers(ev),
            cells,
            table_right(ev),
            title=event_title(ev),
            optional=table_optional(ev),
            wrap_least=0,  # (a note is rare: under its row rather than a column less)
        )
        echo_lines(["", *event_notes(ev)])


def every_tournament(found: list[TournamentSummary], fmt: Format) -> None:
    """Every tournament of a database that tracks no player (an arbiter's, a club's), with
    the id `tracker event show` takes."""
    from tracker.reports.event import (
        ALL_EVENT_COLUMNS,
        ALL_EVENT_HEADERS,
        ALL_EVENT_TITLE,
        summary_cells,
        summary_json,
    )

    if fmt is Format.json:
        emit_json([summary_json(t) for t in found])
    elif fmt is Format.csv:
        emit_csv(ALL_EVENT_COLUMNS, [summary_json(t) for t in found])
    elif not found:
        from tracker.reports.export import no_tournaments_text

        out.print(no_tournaments_text(), markup=False)
    else:
        print_table(
            ALL_EVENT_HEADERS,
            [summary_cells(t) for t in found],
            {0, 5},
            title=ALL_EVENT_TITLE,
            optional=(2,),
            wrap=1,
        )
