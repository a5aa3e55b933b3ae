"""`tracker official import|add|list|remove`: what FIDE published, in the database."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.common import (
    DEFAULT_DB,
    LIST_CHOICES,
    DbOption,
    Format,
    FormatOption,
    PlayerArg,
    emit_csv,
    emit_json,
    err,
    period_option,
    print_table,
    store_for,
)
from tracker.errors import BadInput, NotFound, TrackerError
from tracker.model import OfficialEntry, Period, RatingList

if TYPE_CHECKING:
    from tracker.usecases.database import Store
    from tracker.usecases.official import ImportSummary, ListTarget

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
    group.command("add")(add)
    group.command("list")(list_entries)
    group.command("remove")(remove)
    app.add_typer(group, name="official")


# --- import -----------------------------------------------------------------------------


def import_lists(
    files: Annotated[list[Path], typer.Argument(
        help="FIDE list files (.txt, .xml or .zip) or folders of them (a downloaded archive).",
        show_default=False)],
    period: Annotated[str | None, typer.Option(
        "--period", help="The list month, YYYY-MM, when the file name and header lack it.",
        show_default=False)] = None,
    keep_all: Annotated[bool, typer.Option(
        "--all", help="Keep every player of the list (creating them), not only those already "
                      "in the database.")] = False,
    rating_list: Annotated[str | None, typer.Option(
        "--list", "-l", metavar=LIST_CHOICES,
            help="standard, rapid or blitz: names the list of a single-list file "
                             "whose name does not; keeps only that list of a combined file.",
        show_default=False)] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Import FIDE's downloadable rating lists (TXT or XML, plain or zipped), of any year
    since 2001.

    The list month comes from the file name (standard_nov25frl.zip, APR04FRL.TXT), the TXT
    header (NOV25, Mar11) or --period; lists up to next month's are accepted, as by
    `official add`, a later one is refused. Players are matched by FIDE ID; by default only
    players already in the database are kept (--all keeps everyone). A list for a month
    already imported replaces those players' entries for that month: the newest file wins;
    the same file again changes nothing. Each file is one transaction: a file that fails
    leaves nothing behind, and the other files are still imported. A folder is searched
    for .txt, .xml and .zip files (its subfolders too), imported in name order.

    Examples:

      tracker official import standard_nov25frl.zip rapid_nov25frl.zip

      tracker official import fide-archive/

      tracker official import players_list.zip --period 2025-11

      tracker official import players_list_xml.zip --period 2025-11 --list rapid

      tracker official import standard_nov25frl.zip --all
    """
    from tracker.usecases.official import list_targets
    given_period = period_option(period)
    given_list = _list(rating_list)
    targets, several = list_targets(files)
    store = store_for(db, create=True)
    try:
        _import_all(store, targets, several, given_period, given_list, keep_all)
    finally:
        store.close()


def _import_all(store: Store, targets: list[ListTarget], several: bool,
                period: Period | None, rating_list: RatingList | None,
                keep_all: bool) -> None:
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    from tracker.cli.common import out, shown
    from tracker.usecases.official import NAMES_SHOWN, import_lists
    total = sum(t.size for t in targets)
    show = err.is_terminal and out.is_terminal and total >= PROGRESS_FROM_BYTES
    progress = Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                        TaskProgressColumn(), DownloadColumn(), TimeRemainingColumn(),
                        console=err.console,
                        transient=True, disable=not show, redirect_stdout=False)

    def say(line: str) -> None:
        line = shown(line)  # a newline in a file or member name cannot forge a line
        if show and out.is_terminal:  # above the bar, through its console
            progress.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    failed: list[tuple[ListTarget, TrackerError]] = []
    with progress:
        task = progress.add_task("", total=total or None)

        def advance(target: ListTarget, at: float) -> None:
            progress.update(task, description=target.path.name, completed=at)

        for outcome in import_lists(store, targets, several=several, period=period,
                                    rating_list=rating_list, keep_all=keep_all,
                                    progress=advance):
            target = outcome.target
            if outcome.error is not None:
                failed.append((target, outcome.error))
                say(f"{target.label}: not imported: {_reason(str(outcome.error), target.label)}")
                continue
            assert outcome.summary is not None
            _warn(outcome.summary, outcome.problems)
            say(_report(outcome.summary, keep_all))
    if several:
        read = len(targets) - len(failed)
        say(f"{len(targets):,} {'file' if len(targets) == 1 else 'files'}: {read:,} read, "
            f"{len(failed):,} not imported")
    if failed:
        names = ", ".join(t.label for t, _ in failed[:NAMES_SHOWN])
        more = f" and {len(failed) - NAMES_SHOWN:,} more" if len(failed) > NAMES_SHOWN else ""
        kind = NotFound if all(isinstance(e, NotFound) for _, e in failed) else BadInput
        from tracker.cli.importing import failed_files
        them = "it" if len(failed) == 1 else "them"
        raise kind(f"{failed_files(len(failed), len(targets))} (nothing of {them} was "
                   f"stored; why: above): {names}{more}")


def _warn(s: ImportSummary, shown_problems: list[str]) -> None:
    """A file's malformed rows on stderr: the first ones, then how many in all."""
    for problem in shown_problems:
        err.print(f"warning: {problem}", markup=False, soft_wrap=True)
    if s.problems:
        more = s.problems - len(shown_problems)
        tail = f" ({more} more not shown)" if more > 0 else ""
        rows = "row" if s.problems == 1 else "rows"
        err.print(f"warning: {s.source}: {s.problems} malformed {rows} "
                  f"skipped{tail}", markup=False, soft_wrap=True)


def _reason(message: str, label: str) -> str:
    """A file's error without its name in front ('f.txt:3: x' -> 'line 3: x')."""
    if message.startswith(f"{label}: "):
        return message[len(label) + 2:]
    head, sep, rest = message[len(label) + 1:].partition(": ")
    if message.startswith(f"{label}:") and sep and head.isdigit():
        return f"line {head}: {rest}"
    return message


def _n(value: int) -> str:
    return f"{value:,}"


def _report(s: ImportSummary, keep_all: bool) -> str:
    periods = ", ".join(str(p) for p in sorted(s.periods)) or "-"
    lists = ", ".join(str(x) for x in RatingList if x in s.lists) or "-"
    parts = [f"{s.source}: {periods} ({lists}): {_n(s.rows)} players read"]
    if keep_all:
        parts.append(f"{_n(s.kept)} kept ({_n(s.created)} new)")
        if s.unnamed:
            parts.append(f"{_n(s.unnamed)} without a name not created")
    else:
        parts.append(f"{_n(s.kept)} in the database")
        if s.skipped:
            parts.append(f"{_n(s.skipped)} {'other' if s.skipped == 1 else 'others'} skipped "
                         "(--all keeps them)")
    parts.append(f"{_n(s.entries)} {'entry' if s.entries == 1 else 'entries'} written")
    if s.unchanged:
        parts.append(f"{_n(s.unchanged)} already as imported before (unchanged)")
    if s.replaced:
        parts.append(f"{_n(s.replaced)} replaced an earlier import for the same month")
    if s.cleared:
        parts.append(f"{_n(s.cleared)} earlier entries removed (no rating in this list)")
    if s.duplicates:
        parts.append(f"{_n(s.duplicates)} repeated FIDE IDs (the last row won)")
    if s.birth_years:
        parts.append(f"{_n(s.birth_years)} birth years filled in")
    return "; ".join(parts)


# --- add / list / remove ----------------------------------------------------------------


def add(
    player: Annotated[str, typer.Argument(help="FIDE ID or name.", show_default=False)],
    period: Annotated[str, typer.Option("--period", help="The list month, YYYY-MM.",
                                        show_default=False)],
    rating: Annotated[int, typer.Option("--rating", help="The published rating.",
                                        show_default=False)],
    k: Annotated[int | None, typer.Option("--k", help="The published K.",
                                          show_default=False)] = None,
    games: Annotated[int | None, typer.Option("--games", help="Games rated in the period.",
                                              show_default=False)] = None,
    rating_list: Annotated[str, typer.Option("--list", "-l", metavar=LIST_CHOICES,
                                             help="The rating list.")] = "standard",
    db: DbOption = DEFAULT_DB,
) -> None:
    """Record one official rating by hand (as printed on FIDE's profile page).

    The player must be in the database already (import their games first). An entry for
    the same list and month is replaced. Lists up to next month's are accepted (FIDE
    publishes a list a day or two before its 1st); a later list is refused.

    Example:

      tracker official add 1503014 --period 2025-11 --rating 2839 --k 10 --games 9
    """
    from tracker.usecases.official import add_entry, check_published
    from tracker.usecases.players import resolve_player
    when = period_option(period)
    assert when is not None
    check_published(when)
    which = RatingList.parse(rating_list)
    with store_for(db) as store:
        who = resolve_player(store, player)
        replaced = add_entry(store, OfficialEntry(who.id, which, when, rating, games, k))
    note = " (replaced the earlier entry)" if replaced else ""
    sys.stdout.write(f"recorded {who.name}: {which} {when} {rating}{note}\n")


def check_published(period: Period, today: dt.date | None = None) -> None:
    """Moved to tracker.usecases.official (issue 16): imported there when a command runs."""
    from tracker.usecases.official import check_published as check
    check(period, today)


def list_entries(
    player: PlayerArg = None,
    rating_list: Annotated[str | None, typer.Option(
        "--list", "-l", metavar=LIST_CHOICES, help="Only this list (default: all three).",
        show_default=False)] = None,
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The official entries of a player, by list and month.

    Examples:

      tracker official list

      tracker official list 1503014 --list blitz --format csv
    """
    from tracker.usecases.official import entries_for
    from tracker.usecases.players import resolve_player
    which = _list(rating_list)
    with store_for(db) as store:
        who = resolve_player(store, player)
        entries = entries_for(store, who.id, which)
    rows = [_cells(e) for e in entries]
    if fmt is Format.json:
        emit_json({"player": who.name, "fide_id": who.fide_id, "entries": rows})
        return
    if fmt is Format.csv:
        emit_csv(COLUMNS, rows)
        return
    if not rows:
        err.print(f"no official entries for {who.name}: import a list with `tracker official "
                  "import FILE` or add one with `tracker official add`",
                  markup=False, soft_wrap=True)
        return
    print_table([c.replace("_", " ") for c in COLUMNS],
                [["" if row[c] is None else str(row[c]) for c in COLUMNS] for row in rows],
                [i for i, c in enumerate(COLUMNS) if c in ("rating", "games", "k",
                                                           "birth_year")],
                title=f"{who.name} (FIDE ID {who.fide_id or '-'})")


def _cells(e: OfficialEntry) -> dict[str, Any]:
    return {"list": str(e.list), "period": str(e.period), "rating": e.rating,
            "games": e.games, "k": e.k, "flag": e.flag, "title": e.title,
            "birth_year": e.birth_year, "source": e.source}


def remove(
    player: Annotated[str, typer.Argument(help="FIDE ID or name.", show_default=False)],
    period: Annotated[str, typer.Option("--period", help="The list month, YYYY-MM.",
                                        show_default=False)],
    rating_list: Annotated[str, typer.Option("--list", "-l", metavar=LIST_CHOICES,
                                             help="The rating list.")] = "standard",
    db: DbOption = DEFAULT_DB,
) -> None:
    """Delete one official entry.

    Example:

      tracker official remove 1503014 --period 2025-11 --list rapid
    """
    from tracker.usecases.official import remove_entry
    from tracker.usecases.players import resolve_player
    when = period_option(period)
    assert when is not None
    which = RatingList.parse(rating_list)
    with store_for(db) as store:
        who = resolve_player(store, player)
        if not remove_entry(store, who.id, which, when):
            raise NotFound(f"{who.name} has no {which} entry for {when}: see `tracker official "
                           f"list {who.fide_id or who.name!r}`")
    sys.stdout.write(f"removed {who.name}: {which} {when}\n")
