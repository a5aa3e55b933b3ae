"""`tracker official fetch`: the FIDE lists the database needs, downloaded and imported (the
one command that uses the network; registered in the `official` group by cli/official.py)."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.options import (
    DEFAULT_DB,
    LIST_CHOICES,
    DbOption,
    Format,
    FormatOption,
    period_option,
    store_for,
)
from tracker.cli.output import Interruption, err
from tracker.errors import BadInput
from tracker.model import Period, RatingList

if TYPE_CHECKING:
    from rich.progress import Progress

    from tracker.app.database import Store
    from tracker.app.fetch import FetchOutcome, FetchSettings, ListImport, ListMonth
    from tracker.app.official import ListTarget

FIDE_DOWNLOADS = "https://ratings.fide.com/download/"
"""tracker.lists.fetch.FIDE_DOWNLOADS, written out so that `--help` does not import the
network module (tests/test_official_fetch.py keeps the two equal)."""
CACHE_ENV = "TRACKER_LIST_CACHE"
"""tracker.lists.fetch.CACHE_ENV (the same)."""
MAX_TIMEOUT, MAX_RETRIES = 600.0, 10

# The options of `fetch`, in the order --help shows them.
PeriodOption = Annotated[
    str | None,
    typer.Option("--period", help="One list month, YYYY-MM.", show_default=False),
]
FromOption = Annotated[
    str | None,
    typer.Option("--from", help="The first list month of a range, YYYY-MM.", show_default=False),
]
ToOption = Annotated[
    str | None,
    typer.Option(
        "--to",
        help="The last list month of the range (default: the latest list out).",
        show_default=False,
    ),
]
ListsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--list",
        "-l",
        metavar=LIST_CHOICES,
        help="Only this list (repeat for two; default: all three).",
        show_default=False,
    ),
]
BaseUrlOption = Annotated[
    str,
    typer.Option("--base-url", help="The folder of FIDE's list zips (a mirror, a copy)."),
]
XmlOption = Annotated[bool, typer.Option("--xml", help="The XML files instead of the TXT ones.")]
CacheOption = Annotated[
    Path | None,
    typer.Option(
        "--cache",
        envvar=CACHE_ENV,
        help="The folder the files are kept in (default: ~/.cache/tracker/lists, or "
        "$XDG_CACHE_HOME/tracker/lists).",
        show_default=False,
    ),
]
OfflineOption = Annotated[
    bool,
    typer.Option("--offline", help="Only the files already in the cache: no network."),
]
TimeoutOption = Annotated[
    float,
    typer.Option("--timeout", help="Seconds the server may stall before a try fails."),
]
RetriesOption = Annotated[
    int,
    typer.Option("--retries", help="Tries again after a network error, waiting longer each time."),
]


def fetch(
    period: PeriodOption = None,
    first: FromOption = None,
    last: ToOption = None,
    rating_lists: ListsOption = None,
    base_url: BaseUrlOption = FIDE_DOWNLOADS,
    xml: XmlOption = False,
    cache: CacheOption = None,
    offline: OfflineOption = False,
    timeout: TimeoutOption = 30.0,
    retries: RetriesOption = 3,
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Download the FIDE lists the database needs and import them: the only command that
    uses the network.

    By default: for every tournament, the list in force at its start, on its list (its
    opponents are rated with it); for the tracked player, the list of every period of
    their replay (the official ratings `tracker check` compares with). --period, or --from
    and --to, ask for given months; --list for given lists. The files come from FIDE's
    download folder (standard_nov25frl.zip, rapid_..., blitz_...; TXT, or --xml) and are
    kept in a cache folder: a month is downloaded once, and --offline imports from the cache
    only. A month FIDE never published is named and skipped, one not out yet says when it
    is due. Each file is checked (a zip of that list and month) before it is imported, one
    transaction a file, as `tracker official import` does. Exit 1 when a list could not be
    had or imported (the others are imported).

    Examples:

      tracker official fetch

      tracker official fetch --period 2025-11 --list standard

      tracker official fetch --from 2024-01 --to 2024-12 --list rapid --list blitz

      tracker official fetch --base-url http://mirror.example/fide/ --cache lists/

      tracker official fetch --offline

      tracker official fetch --period 2025-11 --format csv

    --format csv or json: one row (object) per month, with how it was had or why not and
    what importing it gave, on stdout (the warnings and the error line stay on stderr).
    """
    from tracker.cli.output import echo_lines, emit_csv, emit_json
    from tracker.errors import TrackerError
    from tracker.reports.fetch import FETCH_COLUMNS, failure_line, fetch_rows, summary_lines

    when = period_option(period)
    start = period_option(first, "--from")
    end = period_option(last, "--to")
    lists = tuple(dict.fromkeys(RatingList.parse(x) for x in rating_lists or ()))
    settings = _settings(base_url, xml, cache, offline, timeout, retries)
    table = fmt is Format.table
    outcome = _fetch_wanted(db, lists, (when, start, end), settings, table)
    if fmt is Format.json:
        emit_json(fetch_rows(outcome, settings))
    elif fmt is Format.csv:
        emit_csv(FETCH_COLUMNS, fetch_rows(outcome, settings))
    else:
        echo_lines(summary_lines(outcome), cut=False)
    if outcome.failed:
        raise TrackerError(failure_line(outcome, "above" if table else "the why and error fields"))


def _settings(
    base_url: str, xml: bool, cache: Path | None, offline: bool, timeout: float, retries: int
) -> FetchSettings:
    """The options of the fetch, checked (before anything is opened or downloaded)."""
    from tracker.app.fetch import FetchSettings, check_base_url, default_cache

    if not 0 < timeout <= MAX_TIMEOUT:
        raise BadInput(
            f"--timeout {timeout:g}: give a number of seconds above 0, at most {MAX_TIMEOUT:g}"
        )
    if not 0 <= retries <= MAX_RETRIES:
        raise BadInput(f"--retries {retries}: give a whole number from 0 to {MAX_RETRIES}")
    settings = FetchSettings(
        base_url=check_base_url(base_url),
        cache=cache if cache is not None else default_cache(),
        xml=xml,
        offline=offline,
        timeout=timeout,
        retries=retries,
    )
    if settings.cache is not None and settings.cache.exists() and not settings.cache.is_dir():
        raise BadInput(f"--cache {settings.cache} is not a folder: give a folder")
    return settings


def _fetch_wanted(
    db: str,
    lists: tuple[RatingList, ...],
    months: tuple[Period | None, Period | None, Period | None],
    settings: FetchSettings,
    lines: bool = True,
) -> FetchOutcome:
    """The lists asked for (`months`: --period, --from, --to), or else those the database
    needs, fetched and imported (`lines`: each said on stdout as it is done)."""
    from tracker.app.fetch import asked_lists, lists_to_fetch

    today = dt.date.today()
    when, start, end = months
    if any(x is not None for x in months):
        # the months named: fetched before the database is opened (nothing had, nothing
        # opened or created)
        wanted = asked_lists(lists, when, start, end, today)
        return _fetch_all(None, db, wanted, settings, today, lines)
    store = store_for(db)
    try:
        wanted = lists_to_fetch(store, lists, None, None, None, today)
        return _fetch_all(store, db, wanted, settings, today, lines)
    finally:
        store.close()


def _fetch_all(
    store: Store | None,
    db: str,
    wanted: list[ListMonth],
    settings: FetchSettings,
    today: dt.date,
    lines: bool = True,
) -> FetchOutcome:
    """Fetch, then import what was had (into `store`, else the --db database, opened or
    made then), saying each month and each file as it is done (unless not `lines`: --format
    csv|json says them at the end); a progress bar on a terminal.
    Ctrl-C: one line saying what stays (exit 130)."""
    from tracker.app.fetch import Fetched, Missing, fetch_files, import_fetched
    from tracker.cli.listlines import warn_summary
    from tracker.cli.output import fitted_lines, out
    from tracker.reports import terminal_width
    from tracker.reports.fetch import fetched_not_imported_text, result_line
    from tracker.reports.listfile import match_lines, reason, report_line

    show = err.is_terminal and out.is_terminal
    progress = _download_bar(show)

    def say(line: str) -> None:
        if not lines:
            return
        parts = fitted_lines([line], terminal_width())  # (shown, cut to the width)
        if show:
            for part in parts:
                progress.console.print(part, markup=False, highlight=False, soft_wrap=True)
        else:
            sys.stdout.write("".join(f"{part}\n" for part in parts))
            sys.stdout.flush()

    task = progress.add_task("", total=None)

    def downloading(name: str, done: int, total: int | None) -> None:
        progress.update(task, description=name, completed=done, total=total)

    def result(got: Fetched | Missing) -> None:
        progress.update(task, description="", completed=0, total=None)
        say(result_line(got, settings))

    def importing(target: ListTarget, at: float) -> None:
        progress.update(task, description=f"importing {target.path.name}", completed=at)

    def imported(one: ListImport) -> None:
        done = one.outcome
        if done.error is not None:
            label = done.target.label
            why = reason(str(done.error), label)
            say(fetched_not_imported_text(label, why, done.target.path))
            return
        assert done.summary is not None
        warn_summary(done.summary, done.problems)
        say(report_line(done.summary, False, all_hint=False))
        for line in match_lines(done.summary):
            say(line)

    try:
        with progress:
            outcome = fetch_files(
                wanted, settings, today=today, on_result=result, on_download=downloading
            )
            if not outcome.had:
                return outcome
            progress.update(task, completed=0, total=sum(r.size for r in outcome.had))
            into = store if store is not None else store_for(db, create=True)
            try:
                return import_fetched(
                    into, outcome, on_import=imported, on_import_progress=importing
                )
            finally:
                if store is None:
                    into.close()
    except KeyboardInterrupt:
        from tracker.reports.fetch import interrupted_text

        err.print(interrupted_text(settings.cache), markup=False, soft_wrap=True)
        Interruption.told = True
        raise typer.Exit(130) from None


def _download_bar(show: bool) -> Progress:
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TransferSpeedColumn,
    )

    return Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        console=err.console,
        transient=True,
        disable=not show,
        redirect_stdout=False,
    )
