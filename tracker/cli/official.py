"""`tracker official import|fetch|add|list|remove`: what FIDE published, in the database."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.fetch import fetch
from tracker.cli.options import (
    DEFAULT_DB,
    LIST_CHOICES,
    DbOption,
    Format,
    FormatOption,
    PlayerArg,
    period_option,
    store_for,
)
from tracker.cli.output import emit_csv, emit_json, err, print_table
from tracker.errors import BadInput, NotFound, TrackerError
from tracker.model import OfficialEntry, Period, RatingList

if TYPE_CHECKING:
    from rich.progress import Progress

    from tracker.app.database import Store
    from tracker.app.official import ListTarget

PROGRESS_FROM_BYTES = 4 << 20  # a progress bar for lists bigger than this (on a terminal)
COLUMNS = ("list", "period", "rating", "games", "k", "flag", "title", "birth_year", "source")


def _list(text: str | None) -> RatingList | None:
    return None if text is None else RatingList.parse(text)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    group = typer.Typer(
        help="FIDE's official ratings: import the published lists, or record entries by hand.",
        no_args_is_help=True,
    )
    group.command("import")(import_lists)
    group.command("fetch")(fetch)
    group.command("add")(add)
    group.command("list")(list_entries)
    group.command("remove")(remove)
    app.add_typer(group, name="official")


# --- import -----------------------------------------------------------------------------


# The arguments and options of `import`, in the order --help shows them.
FilesArgument = Annotated[
    list[Path],
    typer.Argument(
        help="FIDE list files (.txt, .xml or .zip) or folders of them (a downloaded archive).",
        show_default=False,
    ),
]
ListPeriodOption = Annotated[
    str | None,
    typer.Option(
        "--period",
        help="The list month, YYYY-MM, when the file name and header lack it.",
        show_default=False,
    ),
]
AllOption = Annotated[
    bool,
    typer.Option(
        "--all",
        help="Keep every player of the list (creating them), not only those already "
        "in the database.",
    ),
]
ImportListOption = Annotated[
    str | None,
    typer.Option(
        "--list",
        "-l",
        metavar=LIST_CHOICES,
        help="standard, rapid or blitz: names the list of a single-list file "
        "whose name does not; keeps only that list of a combined file.",
        show_default=False,
    ),
]
WholeOption = Annotated[
    bool,
    typer.Option(
        "--whole",
        help="Each file is FIDE's whole list: a player it lacks is unrated for FIDE "
        "(default: judged by its rows, docs/lists.md).",
    ),
]
ExcerptOption = Annotated[
    bool,
    typer.Option(
        "--excerpt",
        help="Each file is an excerpt of FIDE's list: a player it lacks keeps their "
        "earlier rating or Elo tag.",
    ),
]


def import_lists(
    files: FilesArgument,
    period: ListPeriodOption = None,
    keep_all: AllOption = False,
    rating_list: ImportListOption = None,
    whole: WholeOption = False,
    excerpt: ExcerptOption = False,
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Import FIDE's downloadable rating lists (TXT or XML, plain or zipped), of any year
    since 2001.

    The list month comes from the file name (standard_nov25frl.zip, APR04FRL.TXT), the TXT
    header (NOV25, Mar11) or --period; lists up to next month's are accepted, a later one is
    refused. Players are matched by FIDE ID; by default only players already in the
    database are kept (--all keeps everyone). A list for a month already imported replaces
    those players' entries for that month: the newest file wins. A file that fails leaves
    nothing behind, and the other files are still imported. A folder is searched for .txt,
    .xml and .zip files (its subfolders too), imported in name order.

    Players without a FIDE ID are matched by name ("Andreikin,D" is the list's "Andreikin,
    Dmitry"); a unique match gets the list's FIDE ID and its entries, and each match is
    shown. When another player already has that FIDE ID the two are merged, unless they
    played each other or their surnames differ (a warning). A name that several players fit
    is not used: it is shown with the command that settles it, tracker player set "NAME"
    --fide-id N. docs/lists.md tells the whole story.

    A file is FIDE's whole list when it has as many rows as FIDE's list of that month has at
    the least (20,000 in 2001, 150,000 since 2020 for standard: docs/lists.md), or with
    --whole: a player it lacks is unrated for FIDE. Otherwise it is an excerpt (--excerpt
    says so outright): a player it lacks keeps their earlier rating or Elo tag.

    Examples:

      tracker official import standard_mar11frl.txt

      tracker official import standard_nov25frl.zip rapid_nov25frl.zip

      tracker official import fide-archive/

      tracker official import players_list.zip --period 2025-11

      tracker official import players_list_xml.zip --period 2025-11 --list rapid

      tracker official import standard_nov25frl.zip --all

      tracker official import my-opponents-nov25.txt --period 2025-11 --excerpt

      tracker official import fide-archive/ --format json

    --format csv or json: one row (object) per file, with its counts and outcome, on stdout
    (the warnings and the error line stay on stderr).
    """
    from tracker.app.official import list_targets

    if whole and excerpt:
        raise BadInput("give --whole or --excerpt, not both")
    given_period = period_option(period)
    given_list = _list(rating_list)
    targets, several = list_targets(files)
    store = store_for(db, create=True)
    try:
        _import_all(
            store,
            targets,
            several,
            given_period,
            given_list,
            keep_all,
            whole=True if whole else False if excerpt else None,
            fmt=fmt,
        )
    finally:
        store.close()


def _import_all(
    store: Store,
    targets: list[ListTarget],
    several: bool,
    period: Period | None,
    rating_list: RatingList | None,
    keep_all: bool,
    *,
    whole: bool | None = None,
    fmt: Format = Format.table,
) -> None:
    from tracker.app.official import import_lists
    from tracker.cli.listlines import warn_summary
    from tracker.cli.output import fitted_lines, out
    from tracker.reports import terminal_width
    from tracker.reports.listfile import (
        LIST_FILE_COLUMNS,
        files_read_text,
        list_file_json,
        match_lines,
        not_imported_text,
        reason,
        report_line,
    )

    total = sum(t.size for t in targets)
    show = err.is_terminal and out.is_terminal and total >= PROGRESS_FROM_BYTES
    progress = _list_bar(show)

    rows: list[dict[str, Any]] = []  # (--format csv|json: said at the end, nothing before)

    def say(line: str) -> None:
        # (shown: a newline in a file or member name cannot forge a line; cut to the width)
        if fmt is not Format.table:
            return
        lines = fitted_lines([line], terminal_width())
        if show and out.is_terminal:  # above the bar, through its console
            for part in lines:
                progress.console.print(part, markup=False, highlight=False, soft_wrap=True)
        else:
            sys.stdout.write("".join(f"{part}\n" for part in lines))
            sys.stdout.flush()

    failed: list[tuple[ListTarget, TrackerError]] = []
    with progress:
        task = progress.add_task("", total=total or None)

        def advance(target: ListTarget, at: float) -> None:
            progress.update(task, description=target.path.name, completed=at)

        for outcome in import_lists(
            store,
            targets,
            several=several,
            period=period,
            rating_list=rating_list,
            keep_all=keep_all,
            progress=advance,
            whole=whole,
        ):
            target = outcome.target
            if outcome.error is not None:
                failed.append((target, outcome.error))
                why = reason(str(outcome.error), target.label)
                rows.append(list_file_json(target.label, None, why))
                say(not_imported_text(target.label, why))
                continue
            assert outcome.summary is not None
            rows.append(list_file_json(target.label, outcome.summary, None))
            warn_summary(outcome.summary, outcome.problems)
            say(report_line(outcome.summary, keep_all, whole))
            for line in match_lines(outcome.summary):
                say(line)
    if several:
        say(files_read_text(len(targets), len(failed)))
    if fmt is Format.json:
        emit_json(rows)
    elif fmt is Format.csv:
        emit_csv(LIST_FILE_COLUMNS, rows)
    if failed:
        why = "above" if fmt is Format.table else "the error field"
        raise _not_imported(failed, len(targets), why)


def _list_bar(show: bool) -> Progress:
    """The progress bar of the lists imported (shown on a terminal only)."""
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        TaskProgressColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=err.console,
        transient=True,
        disable=not show,
        redirect_stdout=False,
    )


def _not_imported(
    failed: list[tuple[ListTarget, TrackerError]], files: int, why: str = "above"
) -> TrackerError:
    """The error the command ends with when files of its `files` failed (`why`: where the
    reasons were said: above, or in each file's error field)."""
    from tracker.app.official import NAMES_SHOWN
    from tracker.reports.imports import failed_files

    names = ", ".join(t.label for t, _ in failed[:NAMES_SHOWN])
    more = f" and {len(failed) - NAMES_SHOWN:,} more" if len(failed) > NAMES_SHOWN else ""
    kind = NotFound if all(isinstance(e, NotFound) for _, e in failed) else BadInput
    them = "it" if len(failed) == 1 else "them"
    return kind(
        f"{failed_files(len(failed), files)} (nothing of {them} was "
        f"stored; why: {why}): {names}{more}"
    )


# --- add / list / remove ----------------------------------------------------------------


def add(
    player: Annotated[str, typer.Argument(help="FIDE ID or name.", show_default=False)],
    period: Annotated[
        str, typer.Option("--period", help="The list month, YYYY-MM.", show_default=False)
    ],
    rating: Annotated[
        int, typer.Option("--rating", help="The published rating.", show_default=False)
    ],
    k: Annotated[
        int | None, typer.Option("--k", help="The published K.", show_default=False)
    ] = None,
    games: Annotated[
        int | None, typer.Option("--games", help="Games rated in the period.", show_default=False)
    ] = None,
    rating_list: Annotated[
        str, typer.Option("--list", "-l", metavar=LIST_CHOICES, help="The rating list.")
    ] = "standard",
    db: DbOption = DEFAULT_DB,
) -> None:
    """Record one official rating by hand (as printed on FIDE's profile page).

    The player must be in the database already (import their games first). An entry for
    the same list and month is replaced. Lists up to next month's are accepted (FIDE
    publishes a list a day or two before its 1st); a later list is refused, and so is an
    entry no list can hold: a month FIDE published no such list in (2010-02: the lists were
    two-monthly then; rapid and blitz before 2012-07), a rating below the floor of that
    list's month (1000 in 2013, 1400 since 2024-03) or above 3999.

    Example:

      tracker official add 1503014 --period 2025-11 --rating 2839 --k 10 --games 9
    """
    from tracker.app.official import add_entry, check_entry
    from tracker.app.players import resolve_player
    from tracker.reports.listfile import recorded_text

    when = period_option(period)
    assert when is not None
    which = RatingList.parse(rating_list)
    check_entry(which, when, rating)  # before the database is opened: nothing written
    with store_for(db) as store:
        who = resolve_player(store, player)
        replaced = add_entry(store, OfficialEntry(who.id, which, when, rating, games, k))
    sys.stdout.write(recorded_text(who.name, which, when, rating, replaced=replaced) + "\n")


def list_entries(
    player: PlayerArg = None,
    rating_list: Annotated[
        str | None,
        typer.Option(
            "--list",
            "-l",
            metavar=LIST_CHOICES,
            help="Only this list (default: all three).",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The official entries of a player, by list and month.

    Examples:

      tracker official list

      tracker official list 1503014 --list blitz --format csv
    """
    from tracker.app.official import official_entries
    from tracker.app.players import resolve_player
    from tracker.reports.listfile import entries_title, no_entries_text

    which = _list(rating_list)
    with store_for(db) as store:
        who = resolve_player(store, player)
        entries = official_entries(store, who.id, which)
    rows = [_cells(e) for e in entries]
    if fmt is Format.json:
        emit_json({"player": who.name, "fide_id": who.fide_id, "entries": rows})
        return
    if fmt is Format.csv:
        emit_csv(COLUMNS, rows)
        return
    if not rows:
        err.print(
            no_entries_text(who.name),
            markup=False,
            soft_wrap=True,
        )
        return
    print_table(
        [c.replace("_", " ") for c in COLUMNS],
        [["" if row[c] is None else str(row[c]) for c in COLUMNS] for row in rows],
        [i for i, c in enumerate(COLUMNS) if c in ("rating", "games", "k", "birth_year")],
        title=entries_title(who.name, who.fide_id),
        # too wide: the player's facts go first; the rating and where it came from stay
        optional=[COLUMNS.index(c) for c in ("flag", "title", "birth_year", "k", "games")],
    )


def _cells(e: OfficialEntry) -> dict[str, Any]:
    return {
        "list": str(e.list),
        "period": str(e.period),
        "rating": e.rating,
        "games": e.games,
        "k": e.k,
        "flag": e.flag,
        "title": e.title,
        "birth_year": e.birth_year,
        "source": e.source,
    }


def remove(
    player: Annotated[str, typer.Argument(help="FIDE ID or name.", show_default=False)],
    period: Annotated[
        str, typer.Option("--period", help="The list month, YYYY-MM.", show_default=False)
    ],
    rating_list: Annotated[
        str, typer.Option("--list", "-l", metavar=LIST_CHOICES, help="The rating list.")
    ] = "standard",
    db: DbOption = DEFAULT_DB,
) -> None:
    """Delete one official entry.

    Example:

      tracker official remove 1503014 --period 2025-11 --list rapid
    """
    from tracker.app.official import remove_entry
    from tracker.app.players import resolve_player
    from tracker.reports.listfile import entry_removed_text

    when = period_option(period)
    assert when is not None
    which = RatingList.parse(rating_list)
    with store_for(db) as store:
        who = resolve_player(store, player)
        if not remove_entry(store, who.id, which, when):
            raise NotFound(
                f"{who.name} has no {which} entry for {when}: see `tracker official "
                f"list {who.fide_id or who.name!r}`"
            )
    sys.stdout.write(entry_removed_text(who.name, which, when) + "\n")
