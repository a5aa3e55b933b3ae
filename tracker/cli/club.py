"""`tracker club`: many players at once, each with the last official rating, the rating
expected on the next list, the change and the games since (`tracker next` for each), as a
table, CSV, JSON or a page for the club's noticeboard."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.options import (
    DEFAULT_DB,
    LIST_CHOICES,
    DbOption,
    ForceOption,
    Format,
    FormatOption,
    store_for,
    today,
)
from tracker.cli.output import (
    echo_lines,
    emit_csv,
    emit_json,
    err,
    out,
    output_file,
    print_table,
    wrote,
)
from tracker.errors import BadInput
from tracker.model import RatingList

if TYPE_CHECKING:
    import datetime as dt

    from rich.progress import Progress

    from tracker.app.club import ClubList
    from tracker.app.outputs import Output
    from tracker.reports.club import Order


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("club")(club)


def _progress() -> Progress:
    """A progress bar on stderr, shown only on a terminal (transient)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err.console,
        transient=True,
        disable=not (err.is_terminal and out.is_terminal),
    )


# The options of `club`, in the order --help shows them.
ListOption = Annotated[
    str,
    typer.Option("--list", "-l", metavar=LIST_CHOICES, help="The rating list."),
]
FedOption = Annotated[
    str | None,
    typer.Option(
        "--fed",
        metavar="FED",
        help="Only the tracked players of this federation (its three-letter code, as "
        "FIDE's lists have it: CZE). The database has a player's federation when a FIDE "
        "list import created the player (`official import --all`).",
        show_default=False,
    ),
]
IdsOption = Annotated[
    Path | None,
    typer.Option(
        "--ids",
        metavar="FILE",
        help="Instead, the players of the FIDE IDs of FILE: one a line, # starts a comment.",
        show_default=False,
    ),
]
SortOption = Annotated[
    str,
    typer.Option("--sort", metavar="name|change", help="Order of the players."),
]
HtmlOption = Annotated[
    str | None,
    typer.Option(
        "--html",
        metavar="FILE",
        help="Write the list as one self-contained HTML page (for the noticeboard: "
        "sorted by name or by change at a click) instead of printing it.",
        show_default=False,
    ),
]
TitleOption = Annotated[
    str | None,
    typer.Option(
        "--title",
        help="The page's heading, with --html (your club's name).",
        show_default=False,
    ),
]


def club(
    rating_list: ListOption = "standard",
    fed: FedOption = None,
    ids: IdsOption = None,
    sort: SortOption = "name",
    fmt: FormatOption = Format.table,
    html: HtmlOption = None,
    title: TitleOption = None,
    force: ForceOption = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """A club's list: every player the database tracks, or a chosen set, each with the last
    official rating, the rating expected on the next list, the change and the games since.

    Each player is replayed as `tracker next` replays them. Tracked: the players with games
    and a FIDE ID, an official rating or a fact recorded with `tracker player set`, and
    yours (--me); opponents known by name only are not (the list says how many). With
    --fed, the tracked players of one federation (those whose federation the database does
    not have are left out, counted); with --ids, the players of a file of FIDE IDs, whether
    tracked or not. Numbers that rest on an assumption say so: the list a game without a
    time control was put on, a K fact nobody recorded, a rating waited for.

    Examples:

      tracker club

      tracker club --fed CZE --sort change

      tracker club --ids members.txt --list rapid --format csv

      tracker club --ids members.txt --html noticeboard.html --title "ŠK Brno"
    """
    from tracker.app.club import read_ids

    order = _order(sort)
    rl = RatingList.parse(rating_list)
    if fed is not None and ids is not None:
        raise BadInput("give --fed or --ids, not both")
    if html is None and title is not None:
        raise BadInput("--title is the page's heading: give it with --html FILE")
    if html is not None and fmt is not Format.table:
        raise BadInput("--html writes the page: leave out --format")
    chosen_ids = read_ids(ids, str(ids)) if ids is not None else None
    page = output_file(html, db, force=force) if html is not None else None
    found = _replayed(db, rl, fed, chosen_ids, None if ids is None else str(ids))
    day = today()
    if page is not None:
        _write_page(page, found, day, order, title)
    else:
        _show(found, day, order, fmt)


def _order(sort: str) -> Order:
    """The --sort given, as an Order."""
    from tracker.reports.club import Order

    try:
        return Order(sort.strip().lower())
    except ValueError:
        raise BadInput(f"--sort {sort!r}: use name or change") from None


def _replayed(
    db: str, rl: RatingList, fed: str | None, ids: list[int] | None, source: str | None
) -> ClubList:
    """The players of the club, each replayed (a progress bar on a terminal)."""
    from tracker.app.club import club_list

    with store_for(db) as store, _progress() as bar:
        task = bar.add_task("replaying players", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return club_list(store, rl, federation=fed, ids=ids, source=source, progress=advance)


def _write_page(
    page: Output, found: ClubList, day: dt.date, order: Order, title: str | None
) -> None:
    """The club's list as an HTML page (--html)."""
    from tracker import __version__
    from tracker.app.outputs import write_text
    from tracker.reports.club import club_rows
    from tracker.reports.clubpage import club_page
    from tracker.reports.text import wrote_players_text

    rows = club_rows(found, day, order)
    write_text(page, club_page(found, day, order, title=title, version=__version__))
    wrote(page, wrote_players_text(page, len(rows)))


def _show(found: ClubList, day: dt.date, order: Order, fmt: Format) -> None:
    """The club's list on stdout: a table, CSV or JSON."""
    from tracker.reports.club import (
        CLUB_COLUMNS,
        club_json,
        club_notes,
        club_rows,
        club_table,
        club_title,
        csv_rows,
        left_out_line,
    )

    rows = club_rows(found, day, order)
    if fmt is Format.json:
        emit_json(club_json(found, rows))
    elif fmt is Format.csv:
        emit_csv(CLUB_COLUMNS, csv_rows(rows))
        for x in found.left_out:  # who is not in the rows, and why: not data
            err.print(left_out_line(found, x), markup=False, soft_wrap=True)
    else:
        headers, cells, right, optional = club_table(rows)
        print_table(
            headers,
            cells,
            right,
            title=club_title(found, rows),
            optional=optional,
            wrap_least=0,  # (a note is rare: under its row rather than a column less)
        )
        echo_lines(["", *club_notes(found, rows)])
