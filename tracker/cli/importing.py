"""`tracker import`, `tracker imports`, `tracker imports remove`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.options import DEFAULT_DB, LIST_CHOICES, DbOption, Format, FormatOption, store_for
from tracker.cli.output import (
    ClosedOutput,
    Interruption,
    echo_lines,
    emit_csv,
    emit_json,
    err,
    fitted_lines,
    out,
    print_table,
    shown,
    unless_closed,
)
from tracker.errors import BadInput, TrackerError
from tracker.model import EloTags, RatingList

if TYPE_CHECKING:
    from rich.progress import Progress

    from tracker.app.importing import ImportReport, SourceReport
    from tracker.app.imports import ImportOutcome


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("import")(import_command)
    imports = typer.Typer(help=_IMPORTS_HELP, invoke_without_command=True, no_args_is_help=False)
    imports.callback()(imports_command)
    imports.command("remove")(remove_command)
    app.add_typer(imports, name="imports")


# --- import -----------------------------------------------------------------------------


class _Bar:
    """The importer's progress, drawn by rich on stderr (only on a terminal, not --quiet):
    the file (N of M) and its name, a bar of the bytes on disk with their percentage, the
    games so far and per second, and the time left."""

    NAME_WIDTH = 32

    def __init__(self, progress: Progress) -> None:
        import time

        self._clock = time.monotonic
        self.progress = progress
        self.task = progress.add_task("", total=None, file="", games="", rate="")
        self.files = 0
        self.n = 0
        self.games = 0
        self.done = 0  # bytes of the sources finished
        self.size: int | None = None
        self.began = self._clock()

    def plan(self, files: int, total_bytes: int | None) -> None:
        self.files = files
        self.progress.update(self.task, total=total_bytes or None)

    def _name(self, name: str) -> str:
        name = shown(name)
        width = self.NAME_WIDTH
        return name if len(name) <= width else "…" + name[-(width - 1) :]

    def start(self, name: str, total_bytes: int | None) -> None:
        self.n += 1
        self.size = total_bytes
        of = f" of {self.files:,}" if self.files else ""
        self.progress.update(self.task, description=self._name(name), file=f"file {self.n:,}{of}")

    def advance(self, games: int, at: int | None = None) -> None:
        self.games += games
        rate = self.games / max(self._clock() - self.began, 1e-3)
        fields: dict[str, Any] = {"games": f"{self.games:,} games", "rate": f"{rate:,.0f}/s"}
        if at is not None:
            fields["completed"] = self.done + (at if self.size is None else min(at, self.size))
        self.progress.update(self.task, **fields)

    def finish(self) -> None:
        self.done += self.size or 0
        self.progress.update(self.task, completed=self.done)


def _progress_bar() -> Progress:
    """The import's progress bar (transient: it disappears at the end)."""
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.fields[file]}", markup=False),
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        TaskProgressColumn(),
        DownloadColumn(),
        TextColumn("{task.fields[games]}", markup=False),
        TextColumn("{task.fields[rate]}", markup=False),
        TimeRemainingColumn(),
        console=err.console,
        transient=True,
        redirect_stdout=False,
    )


PathsArgument = Annotated[
    list[str],
    typer.Argument(
        help="PGN files, folders (searched recursively), glob patterns, .gz/.bz2/.xz/.zip "
        "archives, or - for standard input.",
        show_default=False,
    ),
]
PlayerOption = Annotated[
    str | None,
    typer.Option(
        "--player",
        help="Mark this player (name or FIDE ID) as yours: later commands default "
        "to them. Checked before anything is stored: a bad value or a name "
        "several players match stops the import (exit 2); a name several players "
        "of these files match is not marked (exit 2, the games stay stored; spellings "
        "that may be one person's, Ivanchuk,V and Ivanchuk, Vassily, are named with the "
        "command that makes them one, never merged by themselves); a player "
        "found in no file is a warning (the games stay stored, exit 0). Another "
        "spelling with more games that may be the same person is named, with the "
        "command that merges them.",
        show_default=False,
    ),
]
ListOption = Annotated[
    str | None,
    typer.Option(
        "--list",
        "-l",
        metavar=LIST_CHOICES,
        help="standard, rapid or blitz: the list of games whose time control "
        "is unknown (default: standard, said in the report).",
        show_default=False,
    ),
]
TagsOption = Annotated[
    str | None,
    typer.Option(
        "--tags",
        metavar="standard|own|auto",
        help="What the files' Elo tags in rapid and blitz events are: standard (the file "
        "prints the standard rating in every event, as TWIC and pgnmentor do: none is a "
        "rating of its list), own (each event prints its own list's rating) or auto (judged "
        "tag by tag: one that can be the player's standard rating of the months around is "
        "set aside). Default auto; stored per file, and given for a file imported before it "
        "changes what was stored.",
        show_default=False,
    ),
]
StrictOption = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Stop at the first problem; nothing of that file is stored. A file "
        "imported before with problems (without --strict) is read and checked again; one "
        "imported before without a problem is skipped as usual.",
    ),
]
ValidateOption = Annotated[
    bool, typer.Option("--validate", help="Also replay every move with python-chess (slow).")
]
QuietOption = Annotated[
    bool,
    typer.Option("--quiet", "-q", help="No progress bar and no per-file lines: only the summary."),
]
MaxSizeOption = Annotated[
    str,
    typer.Option(
        "--max-size",
        metavar="SIZE",
        help="The most one compressed file (or archive member) may hold once decompressed, "
        "and standard input: bytes, or with K, M, G, T. Past it the import stops (a "
        "decompression bomb?).",
    ),
]
MaxRatioOption = Annotated[
    int,
    typer.Option(
        "--max-ratio",
        min=1,
        metavar="N",
        help="The most a compressed file may grow per byte (PGN grows 5 to 15 times), looked "
        "at past 16 MiB.",
    ),
]


def import_command(
    paths: PathsArgument,
    player: PlayerOption = None,
    rating_list: ListOption = None,
    tags: TagsOption = None,
    strict: StrictOption = False,
    validate: ValidateOption = False,
    quiet: QuietOption = False,
    max_size: MaxSizeOption = "16G",
    max_ratio: MaxRatioOption = 1000,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Import PGN games into the database: each file lands whole or not at all.

    A file imported before (same content) is recognized and skipped; games already stored
    (from an overlapping file) are skipped as duplicates. Games are put on a list by their
    TimeControl tag; without one, on --list (default standard). Games that cannot count for
    a rating (unfinished, forfeits, variants, online platforms...) are stored and marked.

    Examples:

      tracker import games/ --player "Novak, Jan"

      tracker import twic1427g.zip tournament.pgn.gz

      cat club.pgn | tracker import - --list rapid

      tracker import pgnmentor/Ivanchuk.pgn --tags standard
    """
    from tracker.app.importing import ImportOptions, Interrupted, Limits, parse_size
    from tracker.app.imports import import_files
    from tracker.reports.imports import interrupted_line

    default_list = RatingList.parse(rating_list) if rating_list is not None else None
    elo_tags = EloTags.parse(tags) if tags is not None else None
    options = ImportOptions(
        default_list=default_list, strict=strict, validate=validate, elo_tags=elo_tags
    )
    limits = Limits(
        max_size=parse_size(max_size),
        max_ratio=max_ratio,
        on_spool=_spooling if err.is_terminal and not quiet else None,
    )
    # stdout closing (`| head`) or full (`> /dev/full`) does not stop an import: what was
    # asked is stored, and said on stderr at the end
    ClosedOutput.go_on, ClosedOutput.closed, ClosedOutput.full = True, False, False
    store = store_for(db, create=True)
    try:
        # Only where someone watches: stderr and stdout both on a terminal (a log, a pipe,
        # a cron job get the lines alone). Not redirect_stdout: rich would send the results
        # printed meanwhile to its console, stderr (see _Said.source_done).
        show = err.is_terminal and out.is_terminal and not quiet
        progress = _progress_bar()
        progress.disable = not show
        said = _Said(progress if show else None, quiet=quiet, strict=strict)
        try:
            with progress:
                done = import_files(
                    store,
                    paths,
                    options,
                    limits=limits,
                    player=player,
                    progress=_Bar(progress),
                    on_source=said.source_done,
                )
        except Interrupted as stop:
            err.print(interrupted_line(stop), markup=False, soft_wrap=True)
            Interruption.told = True
            raise typer.Exit(130) from None
    finally:
        store.close()
    with unless_closed():
        _print_report(done, said, default_list)
    several = None if player is None else _player_said(done, player)
    _end(done.report, several)


def _player_said(done: ImportOutcome, player: str) -> BadInput | None:
    """What became of --player: the player marked (and the bigger spellings beside them),
    a warning when nobody matches, or the error to end with when several players do (the
    games are stored either way)."""
    from tracker.app.imports import PlayerNotMarked
    from tracker.reports.imports import player_not_marked_text

    marked = done.player
    if marked is None:
        return None
    if isinstance(marked, PlayerNotMarked):
        why = player_not_marked_text(player, marked.error)
        if marked.several:  # as before the import on a database that has them
            return BadInput(why)
        # the games are stored: a warning, not a failure
        err.print(f"warning: {why}", markup=False, soft_wrap=True)
        return None
    from tracker.reports.players import bigger_spellings, marked_lead, tracked_text

    ref = marked.player
    with unless_closed():
        out.print(tracked_text(ref), markup=False)
        sys.stdout.flush()
    bigger = bigger_spellings(marked.beside, ref, marked_lead(player, ref))
    if bigger is not None:
        err.print(bigger, markup=False, soft_wrap=True)
    return None


def _end(report: ImportReport, several: BadInput | None) -> None:
    """The end of the run: what a closed standard output missed, the files that failed
    (exit 1), --player matching several players (exit 2, as `--help` says)."""
    from tracker.reports.imports import closed_line, failed_files

    if ClosedOutput.closed:
        err.print(closed_line(report, full=ClosedOutput.full), markup=False, soft_wrap=True)
    failed = report.failed
    if failed:
        names = ", ".join(s.name for s in failed)
        failure = TrackerError(
            f"{failed_files(len(failed), len(report.sources))} (nothing of "
            f"{'it' if len(failed) == 1 else 'them'} was stored): {names}"
        )
        if several is None:
            raise failure
        err.print(f"error: {failure}", markup=False, soft_wrap=True)
    if several is not None:  # exit 2, whether the database had them or not
        raise several


def _spooling(name: str, done: int) -> None:
    """Progress while standard input (or a pipe) is read, before anything is imported (on a
    terminal: one line, rewritten, and erased at the end)."""
    what = "standard input" if name == "-" else name
    stderr = err.console.file  # its own codes, past the guard of control characters
    stderr.write("\r\x1b[K" if done < 0 else f"\rreading {shown(what)}: {done >> 20:,} MiB so far")
    stderr.flush()


class _Said:
    """Says what happened to each source as soon as it is done: its problems (stderr, the
    first PROBLEMS_SHOWN of the run: tracker.reports.imports), its names given another
    player's FIDE ID, and its line (stdout, unless --quiet)."""

    def __init__(self, progress: Progress | None, *, quiet: bool, strict: bool = False) -> None:
        self.progress = progress
        self.quiet = quiet
        self.strict = strict
        self.problems_shown = 0

    def source_done(self, s: SourceReport) -> None:
        from tracker.reports.imports import (
            PROBLEMS_SHOWN,
            foreign_ids_said,
            foreign_more_line,
            source_line,
        )

        for p in s.problems:
            if self.problems_shown < PROBLEMS_SHOWN:
                err.print(f"warning: {p}", markup=False, soft_wrap=True)
                self.problems_shown += 1
        # each name of the source given another player's FIDE ID, and how many more
        for said in foreign_ids_said(s):
            err.print(f"warning: {shown(said)}", markup=False, soft_wrap=True)
        more = foreign_more_line(s)
        if more is not None:
            err.print(more, markup=False, soft_wrap=True)
        if self.quiet:
            if s.error is not None:  # why a file failed is said even with --quiet (stderr)
                err.print(source_line(s, strict=self.strict), markup=False, soft_wrap=True)
            return
        line = source_line(s, strict=self.strict)
        if self.progress is not None and out.is_terminal:
            # Both on the screen: above the progress bar, through its console.
            from tracker.reports import terminal_width

            for part in fitted_lines([line], terminal_width()):
                self.progress.console.print(part, markup=False, highlight=False, soft_wrap=True)
        else:
            with unless_closed():
                echo_lines([line])


def _print_report(done: ImportOutcome, said: _Said, default_list: RatingList | None) -> None:
    """The summary of the run (each source's problems and line were said as it finished)
    and what the names said of the games added, the tournaments they left without a date
    and their players no list imported so far looked up."""
    from tracker.reports.imports import (
        assumed_kinds_line,
        hidden_problems_line,
        looks_standard_line,
        summary_lines,
        undated_lines,
        unlisted_line,
    )

    hidden = hidden_problems_line(done.report, said.problems_shown)
    if hidden is not None:
        err.print(hidden, markup=False, soft_wrap=True)
    kinds = assumed_kinds_line(done.assumed, default_list)
    echo_lines(
        [
            *summary_lines(done.report, default_list),
            *([] if kinds is None else [kinds]),
            *undated_lines(done.undated),
            *(unlisted_line(u) for u in done.unlisted),
            *(looks_standard_line(x) for x in done.looks_standard),
        ]
    )


# --- imports ----------------------------------------------------------------------------


_IMPORTS_HELP = """List what was imported from where: file, when, games read and added.

`tracker imports remove ID` takes an import back out (to import a corrected file again).

Examples:

  tracker imports --format json

  tracker imports remove 3 --dry-run
"""


def imports_command(
    ctx: typer.Context,
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    if ctx.invoked_subcommand is not None:  # (`imports --db X remove 3`: remove takes X)
        return
    from tracker.app.imports import list_imports

    store = store_for(db)
    try:
        rows = list_imports(store)
    finally:
        store.close()
    data = [
        {
            "id": r.id,
            "source": r.source,
            "content_hash": r.content_hash,
            "imported_at": r.started_at.isoformat(timespec="seconds"),
            "games_read": r.games_read,
            "games_added": r.games_added,
            "duplicates": r.duplicates,
            "problems": r.problems,
            "elo_tags": str(r.elo_tags),
        }
        for r in rows
    ]
    if fmt is Format.json:
        emit_json(data)
        return
    if fmt is Format.csv:
        emit_csv(IMPORT_COLUMNS, data)
        return
    if not rows:
        from tracker.reports.imports import NO_IMPORTS

        out.print(NO_IMPORTS, markup=False)
        return
    # (the --tags column only where an import said other than auto)
    tags = any(r.elo_tags is not EloTags.AUTO for r in rows)
    print_table(
        ["id", "source", "imported (UTC)", "read", "added", "duplicates", "problems"]
        + (["tags"] if tags else []),
        [
            [
                str(r.id),
                r.source,
                r.started_at.strftime("%Y-%m-%d %H:%M"),
                f"{r.games_read:,}",
                f"{r.games_added:,}",
                f"{r.duplicates:,}",
                f"{r.problems:,}",
            ]
            + ([str(r.elo_tags)] if tags else [])
            for r in rows
        ],
        (0, 3, 4, 5, 6),
        optional=(5, 2),  # duplicates, then the time of the import
        wrap=1,  # the source, kept whole while a column may go (a path is cut anywhere)
        wrap_least=60,
    )


IMPORT_COLUMNS = (
    "id",
    "source",
    "content_hash",
    "imported_at",
    "games_read",
    "games_added",
    "duplicates",
    "problems",
    "elo_tags",
)
"""`tracker imports --format csv` (the fields of its JSON)."""


def remove_command(
    ctx: typer.Context,
    import_id: Annotated[
        int,
        typer.Argument(
            metavar="ID",
            help="The import's id (the first column of `tracker imports`).",
            show_default=False,
        ),
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Say what would be removed; change nothing.")
    ] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Remove an import: the games it added, and the tournaments and players that only
    those games needed. All in one transaction.

    Tournaments with games of other imports or with your overrides (tracker event set) are
    kept, and so are players with other games, official entries, facts you set, merged
    spellings or the mark of the tracked player. The import is forgotten: the same file can
    be imported again. This is how a corrected file replaces the games of the old one.

    Examples:

      tracker imports remove 3 --dry-run

      tracker imports remove 3 && tracker import corrected.pgn
    """
    from tracker.app.imports import remove_import
    from tracker.reports.imports import removed_lines

    store = store_for(db)
    try:
        gone = remove_import(store, import_id, dry_run=dry_run)
    finally:
        store.close()
    echo_lines(removed_lines(gone, dry_run=dry_run))
