"""`tracker check`: the replay against the official lists. `tracker target` (what score is
needed on the next list) is tracker.cli.target, registered here."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.options import (
    DEFAULT_DB,
    LIST_CHOICES,
    DbOption,
    Format,
    FormatOption,
    PlayerArg,
    store_for,
)
from tracker.cli.output import ClosedOutput, echo_lines, emit_csv, emit_json, err, out, print_table
from tracker.cli.target import target
from tracker.errors import BadInput, Unavailable
from tracker.model import RatingList

if TYPE_CHECKING:
    from rich.progress import Progress

    from tracker.app.check import CheckReport


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("check")(check)
    app.command("target")(target)


# --- output helpers ------------------------------------------------------------------------


def _progress() -> Progress:
    """A progress bar on stderr, shown only on a terminal (transient)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err.console,
        transient=True,
        disable=not (err.is_terminal and out.is_terminal),
    )


# --- check ---------------------------------------------------------------------------------


def check(
    player: PlayerArg = None,
    all_players: Annotated[
        bool, typer.Option("--all", help="Check every player with an official rating.")
    ] = False,
    rating_list: Annotated[
        str | None,
        typer.Option(
            "--list",
            "-l",
            metavar=LIST_CHOICES,
            help="standard, rapid or blitz (default: every list with an official rating).",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = Format.table,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="With --all: worker processes (0: one per CPU).")
    ] = 1,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Compare the replay with FIDE's official ratings, period by period, and say why a
    number differs.

    For every period with an official rating: the replayed rating, the official one and
    the difference. For every difference, the likely causes, ranked (a cause that
    reproduces FIDE's number when the period is re-computed comes first): games missing
    or extra (with the `tracker event set` command that pins a tournament, verified by
    re-running the replay), K, rounding, a one-point base correction, an unrated
    opponent, the cap or the 2650 rule, the Ro FIDE used, the pre-2008 era.

    Exit code 0 when every period matches, 1 otherwise (so a script can rely on it).
    `--format json` gives a list with one report per player and list.

    Example: tracker check --list standard
    """
    from tracker.app.check import check_all, check_player
    from tracker.app.players import resolve_player

    lists = [RatingList.parse(rating_list)] if rating_list else []
    if all_players and player:
        raise BadInput("give a PLAYER or --all, not both")
    if jobs < 0:
        raise BadInput(f"--jobs {jobs}: give a number of processes, or 0 for one per CPU")
    with store_for(db) as store:
        if all_players:
            with _progress() as bar:
                task = bar.add_task("checking players", total=None)

                def advance(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                reports = check_all(store, lists, progress=advance, jobs=jobs)
            if not reports:
                raise Unavailable(
                    "no player has an official rating: record one with "
                    "`tracker official add` or import a list with "
                    "`tracker official import`"
                )
        else:
            who = resolve_player(store, player)
            reports = check_player(store, who.id, lists)
            if not any(r.rows for r in reports):
                where = f" on the {lists[0]} list" if lists else ""
                raise Unavailable(
                    f"no official rating recorded for {who.name}{where}: record one with "
                    "`tracker official add PLAYER --period YYYY-MM --rating R` or import a "
                    "list with `tracker official import FILE`"
                )
    differ = any(not r.all_match for r in reports)
    if differ:
        ClosedOutput.exit_code = 1  # `tracker check | head`: still a finding
    if fmt is Format.json:
        from tracker.reports.check import check_json

        emit_json([check_json(r) for r in reports])  # always a list: one report per player-list
    elif fmt is Format.csv:
        _check_csv(reports, all_players)
    elif all_players:
        _print_all(reports)
    else:
        for i, report in enumerate(reports):
            if i:
                echo_lines([""])
            _print_report(report)
    if differ:
        # Not typer.Exit: under main()'s standalone_mode=False click returns its code and
        # main() drops it; SystemExit reaches the shell.
        sys.stdout.flush()
        sys.exit(1)


def _check_csv(reports: list[CheckReport], all_players: bool) -> None:
    from tracker.reports.check import ALL_COLUMNS, CHECK_COLUMNS, all_csv_rows, check_csv_rows

    if all_players:
        emit_csv(ALL_COLUMNS, all_csv_rows(reports))
        return
    emit_csv(CHECK_COLUMNS, check_csv_rows(reports))


def _print_report(report: CheckReport) -> None:
    from tracker.reports.check import CHECK_OPTIONAL, CHECK_RIGHT, check_lines, check_table

    title, headers, cells = check_table(report)
    print_table(headers, cells, CHECK_RIGHT, title=title, optional=CHECK_OPTIONAL)
    echo_lines(check_lines(report))


def _print_all(reports: list[CheckReport]) -> None:
    from tracker.reports.check import ALL_RIGHT, all_lines, all_table

    headers, cells = all_table(reports)
    print_table(headers, cells, ALL_RIGHT)
    echo_lines(all_lines(reports))
