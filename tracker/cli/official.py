"""`tracker official import|fetch|add|list|remove`: what FIDE published, in the database."""

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
    Interruption,
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
    from rich.progress import Progress

    from tracker.app.database import Store
    from tracker.app.fetch import FetchOutcome, FetchSettings, ListImport, ListMonth
    from tracker.app.official import Candidate, ImportSummary, ListTarget

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


def import_lists(
    files: Annotated[
        list[Path],
        typer.Argument(
            help="FIDE list files (.txt, .xml or .zip) or folders of them (a downloaded archive).",
            show_default=False,
        ),
    ],
    period: Annotated[
        str | None,
        typer.Option(
            "--period",
            help="The list month, YYYY-MM, when the file name and header lack it.",
            show_default=False,
        ),
    ] = None,
    keep_all: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Keep every player of the list (creating them), not only those already "
            "in the database.",
        ),
    ] = False,
    rating_list: Annotated[
        str | None,
        typer.Option(
            "--list",
            "-l",
            metavar=LIST_CHOICES,
            help="standard, rapid or blitz: names the list of a single-list file "
            "whose name does not; keeps only that list of a combined file.",
            show_default=False,
        ),
    ] = None,
    whole: Annotated[
        bool,
        typer.Option(
            "--whole",
            help="Each file is FIDE's whole list: a player it lacks is unrated for FIDE "
            "(default: judged by its rows, docs/lists.md).",
        ),
    ] = False,
    excerpt: Annotated[
        bool,
        typer.Option(
            "--excerpt",
            help="Each file is an excerpt of FIDE's list: a player it lacks keeps their "
            "earlier rating or Elo tag.",
        ),
    ] = False,
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
) -> None:
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    from tracker.app.official import NAMES_SHOWN, import_lists
    from tracker.cli.common import out, shown

    total = sum(t.size for t in targets)
    show = err.is_terminal and out.is_terminal and total >= PROGRESS_FROM_BYTES
    progress = Progress(
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
                say(f"{target.label}: not imported: {_reason(str(outcome.error), target.label)}")
                continue
            assert outcome.summary is not None
            _warn(outcome.summary, outcome.problems)
            say(_report(outcome.summary, keep_all, whole))
            for line in _match_lines(outcome.summary):
                say(line)
    if several:
        read = len(targets) - len(failed)
        say(
            f"{len(targets):,} {'file' if len(targets) == 1 else 'files'}: {read:,} read, "
            f"{len(failed):,} not imported"
        )
    if failed:
        names = ", ".join(t.label for t, _ in failed[:NAMES_SHOWN])
        more = f" and {len(failed) - NAMES_SHOWN:,} more" if len(failed) > NAMES_SHOWN else ""
        kind = NotFound if all(isinstance(e, NotFound) for _, e in failed) else BadInput
        from tracker.reports.imports import failed_files

        them = "it" if len(failed) == 1 else "them"
        raise kind(
            f"{failed_files(len(failed), len(targets))} (nothing of {them} was "
            f"stored; why: above): {names}{more}"
        )


def _warn(s: ImportSummary, shown_problems: list[str]) -> None:
    """A file's malformed rows on stderr: the first ones, then how many in all; and each
    FIDE ID a name matched that another player holds who is not that person."""
    from tracker.cli.common import shown
    from tracker.cli.players import not_one_person_said

    for warning in s.warnings:  # names from files: a newline in one cannot forge a line
        err.print(f"warning: {shown(warning)}", markup=False, soft_wrap=True)
    for n in s.not_merged:
        why = (
            f"and they cannot be merged: {n.refused}"
            if n.why is None
            else not_one_person_said(n.why, n.player, n.fide_id)
        )
        said = (
            f"{Path(s.source).name}: {n.player} fits {n.listed} (FIDE ID {n.fide_id}) "
            f"on the list, but FIDE ID {n.fide_id} belongs to {n.holder}, {why}"
        )
        err.print(f"warning: {shown(said)}", markup=False, soft_wrap=True)
    for problem in shown_problems:
        err.print(f"warning: {problem}", markup=False, soft_wrap=True)
    if s.problems:
        more = s.problems - len(shown_problems)
        tail = f" ({more} more not shown)" if more > 0 else ""
        rows = "row" if s.problems == 1 else "rows"
        err.print(
            f"warning: {s.source}: {s.problems} malformed {rows} skipped{tail}",
            markup=False,
            soft_wrap=True,
        )


def _reason(message: str, label: str) -> str:
    """A file's error without its name in front ('f.txt:3: x' -> 'line 3: x')."""
    if message.startswith(f"{label}: "):
        return message[len(label) + 2 :]
    head, sep, rest = message[len(label) + 1 :].partition(": ")
    if message.startswith(f"{label}:") and sep and head.isdigit():
        return f"line {head}: {rest}"
    return message


def _n(value: int) -> str:
    return f"{value:,}"


def _kind(s: ImportSummary, whole: bool | None) -> str:
    """Which kind of list the file was, and what that means, after its count of rows."""
    from tracker.app.official import ListKind, whole_floor

    if s.kind is ListKind.WHOLE:
        return "FIDE's whole list" + (" (--whole)" if whole else "")
    lacks = "the players it lacks keep their earlier rating or Elo tag"
    if whole is False or not s.periods:
        return f"an excerpt (--excerpt): {lacks}"
    period = min(s.periods)
    return (
        f"an excerpt (FIDE's whole list of {period} has {_n(whole_floor(s.lists, period))} "
        f"rows or more): {lacks} (--whole if it is the whole list)"
    )


def _report(
    s: ImportSummary, keep_all: bool, whole: bool | None = None, *, all_hint: bool = True
) -> str:
    periods = ", ".join(str(p) for p in sorted(s.periods)) or "-"
    lists = ", ".join(str(x) for x in RatingList if x in s.lists) or "-"
    parts = [f"{s.source}: {periods} ({lists}): {_n(s.rows)} players read"]
    by_name = f"{_n(s.matched)} matched by name" if s.matched else ""
    if keep_all:
        parts.append(f"{_n(s.kept)} kept ({_n(s.created)} new{by_name and ', ' + by_name})")
        if s.unnamed:
            parts.append(f"{_n(s.unnamed)} without a name not created")
    else:
        parts.append(f"{_n(s.kept)} in the database{by_name and f' ({by_name})'}")
        if s.skipped:
            hint = " (--all keeps them)" if all_hint else ""
            parts.append(f"{_n(s.skipped)} {'other' if s.skipped == 1 else 'others'} skipped{hint}")
    if s.merged:
        parts.append(f"{_n(len(s.merged))} merged into the player who had their FIDE ID")
    if s.ambiguous:
        parts.append(
            f"{_n(len(s.ambiguous))} {'name' if len(s.ambiguous) == 1 else 'names'} "
            "not matched (several players of the list fit: below)"
        )
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
        parts.append(
            f"{_n(s.birth_years)} birth {'year' if s.birth_years == 1 else 'years'} filled in"
        )
    parts.append(_kind(s, whole))
    return "; ".join(parts)


MATCHES_SHOWN = 10
"""The players matched by name (or not) a file's report names one by one."""
CANDIDATES_SHOWN = 5
"""The list's players shown for a name several of them fit."""


def _candidate(c: Candidate) -> str:
    """A list's player a name fits: "Smith, J (FIDE ID 1001, ENG, born 1990)"."""
    facts = [f"FIDE ID {c.fide_id}"]
    if c.federation:
        facts.append(c.federation)
    if c.birth_year:
        facts.append(f"born {c.birth_year}")
    return f"{c.name} ({', '.join(facts)})"


def _match_lines(s: ImportSummary) -> list[str]:
    """Below a file's line: who was matched by name (merged or not), and the names several
    players of the list fit, with them and the command that settles each."""
    import shlex

    lines: list[str] = []
    matches = [*s.named, *s.merged]
    for m in matches[:MATCHES_SHOWN]:
        if m.into is None:
            lines.append(f"  {m.player}: {m.listed}, FIDE ID {m.fide_id} (matched by name)")
        else:
            from tracker.cli.players import undo_said

            lines.append(
                f"  {m.player}: {m.listed}, FIDE ID {m.fide_id}, which {m.into} had: merged "
                f"{m.player} into {m.into}, named {m.listed} now{undo_said(m.merge)}"
            )
    if len(matches) > MATCHES_SHOWN:
        lines.append(
            f"  and {_n(len(matches) - MATCHES_SHOWN)} more matched by name "
            "(`tracker players` lists them)"
        )
    for a in s.ambiguous[:MATCHES_SHOWN]:
        shown = [_candidate(c) for c in a.candidates[:CANDIDATES_SHOWN]]
        more = len(a.candidates) - CANDIDATES_SHOWN
        if more > 0:
            shown.append(f"and {_n(more)} more")
        lines.append(
            f"  {a.player}: not matched, {_n(len(a.candidates))} players of the "
            f"list fit the name: {'; '.join(shown)}; settle it with `tracker player "
            f"set {shlex.quote(a.player)} --fide-id N`"
        )
    if len(s.ambiguous) > MATCHES_SHOWN:
        lines.append(
            f"  and {_n(len(s.ambiguous) - MATCHES_SHOWN)} more names that several "
            "players of the list fit (not matched)"
        )
    return lines


# --- fetch ------------------------------------------------------------------------------

FIDE_DOWNLOADS = "https://ratings.fide.com/download/"
"""tracker.lists.fetch.FIDE_DOWNLOADS, written out so that `--help` does not import the
network module (tests/test_official_fetch.py keeps the two equal)."""
CACHE_ENV = "TRACKER_LIST_CACHE"
"""tracker.lists.fetch.CACHE_ENV (the same)."""
MAX_TIMEOUT, MAX_RETRIES = 600.0, 10


def fetch(
    period: Annotated[
        str | None,
        typer.Option("--period", help="One list month, YYYY-MM.", show_default=False),
    ] = None,
    first: Annotated[
        str | None,
        typer.Option(
            "--from", help="The first list month of a range, YYYY-MM.", show_default=False
        ),
    ] = None,
    last: Annotated[
        str | None,
        typer.Option(
            "--to",
            help="The last list month of the range (default: the latest list out).",
            show_default=False,
        ),
    ] = None,
    rating_lists: Annotated[
        list[str] | None,
        typer.Option(
            "--list",
            "-l",
            metavar=LIST_CHOICES,
            help="Only this list (repeat for two; default: all three).",
            show_default=False,
        ),
    ] = None,
    base_url: Annotated[
        str,
        typer.Option("--base-url", help="The folder of FIDE's list zips (a mirror, a copy)."),
    ] = FIDE_DOWNLOADS,
    xml: Annotated[
        bool, typer.Option("--xml", help="The XML files instead of the TXT ones.")
    ] = False,
    cache: Annotated[
        Path | None,
        typer.Option(
            "--cache",
            envvar=CACHE_ENV,
            help="The folder the files are kept in (default: ~/.cache/tracker/lists, or "
            "$XDG_CACHE_HOME/tracker/lists).",
            show_default=False,
        ),
    ] = None,
    offline: Annotated[
        bool,
        typer.Option("--offline", help="Only the files already in the cache: no network."),
    ] = False,
    timeout: Annotated[
        float,
        typer.Option("--timeout", help="Seconds the server may stall before a try fails."),
    ] = 30.0,
    retries: Annotated[
        int,
        typer.Option(
            "--retries", help="Tries again after a network error, waiting longer each time."
        ),
    ] = 3,
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
    """
    from tracker.app.fetch import (
        FetchSettings,
        asked_lists,
        check_base_url,
        default_cache,
        lists_to_fetch,
    )
    from tracker.cli.common import echo_lines
    from tracker.errors import TrackerError
    from tracker.reports.fetch import failure_line, summary_lines

    when = period_option(period)
    start = period_option(first, "--from")
    end = period_option(last, "--to")
    lists = tuple(dict.fromkeys(RatingList.parse(x) for x in rating_lists or ()))
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
    today = dt.date.today()
    if any(x is not None for x in (when, start, end)):
        # the months named: fetched before the database is opened (nothing had, nothing
        # opened or created)
        wanted = asked_lists(lists, when, start, end, today)
        outcome = _fetch_all(None, db, wanted, settings, today)
    else:
        store = store_for(db)
        try:
            wanted = lists_to_fetch(store, lists, None, None, None, today)
            outcome = _fetch_all(store, db, wanted, settings, today)
        finally:
            store.close()
    echo_lines(summary_lines(outcome), cut=False)
    if outcome.failed:
        raise TrackerError(failure_line(outcome))


def _fetch_all(
    store: Store | None,
    db: str,
    wanted: list[ListMonth],
    settings: FetchSettings,
    today: dt.date,
) -> FetchOutcome:
    """Fetch, then import what was had (into `store`, else the --db database, opened or
    made then), saying each month and each file as it is done; a progress bar on a terminal.
    Ctrl-C: one line saying what stays (exit 130)."""
    from tracker.app.fetch import Fetched, Missing, fetch_files, import_fetched
    from tracker.cli.common import out, shown
    from tracker.reports.fetch import result_line

    show = err.is_terminal and out.is_terminal
    progress = _download_bar(show)

    def say(line: str) -> None:
        line = shown(line)
        if show:
            progress.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            sys.stdout.write(line + "\n")
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
            why = _reason(str(done.error), label)
            say(
                f"{label}: not imported: {why} (the file: {done.target.path}; delete it to "
                "download it again)"
            )
            return
        assert done.summary is not None
        _warn(done.summary, done.problems)
        say(_report(done.summary, False, all_hint=False))
        for line in _match_lines(done.summary):
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
        err.print(
            f"interrupted: the lists downloaded stay in the cache ({settings.cache}) and those "
            "imported stay imported; nothing of the file being downloaded or imported was "
            "kept: run the command again to go on",
            markup=False,
            soft_wrap=True,
        )
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

    when = period_option(period)
    assert when is not None
    which = RatingList.parse(rating_list)
    check_entry(which, when, rating)  # before the database is opened: nothing written
    with store_for(db) as store:
        who = resolve_player(store, player)
        replaced = add_entry(store, OfficialEntry(who.id, which, when, rating, games, k))
    note = " (replaced the earlier entry)" if replaced else ""
    sys.stdout.write(f"recorded {who.name}: {which} {when} {rating}{note}\n")


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
    from tracker.app.official import entries_for
    from tracker.app.players import resolve_player

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
        err.print(
            f"no official entries for {who.name}: import a list with `tracker official "
            "import FILE` or add one with `tracker official add`",
            markup=False,
            soft_wrap=True,
        )
        return
    print_table(
        [c.replace("_", " ") for c in COLUMNS],
        [["" if row[c] is None else str(row[c]) for c in COLUMNS] for row in rows],
        [i for i, c in enumerate(COLUMNS) if c in ("rating", "games", "k", "birth_year")],
        title=f"{who.name} (FIDE ID {who.fide_id or '-'})",
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
    sys.stdout.write(f"removed {who.name}: {which} {when}\n")
