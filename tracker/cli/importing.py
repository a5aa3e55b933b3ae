"""`tracker import`, `tracker imports`, `tracker imports remove`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.common import (
    DEFAULT_DB,
    LIST_CHOICES,
    ClosedOutput,
    DbOption,
    Format,
    FormatOption,
    Interruption,
    echo_lines,
    emit_csv,
    emit_json,
    err,
    out,
    print_table,
    shown,
    store_for,
    unless_closed,
)
from tracker.cli.players import bigger_spellings, who
from tracker.errors import BadInput, TrackerError
from tracker.model import PlayerRef, RatingList

if TYPE_CHECKING:
    from rich.progress import Progress

    from tracker.importer import ImportReport, Interrupted, SourceReport
    from tracker.usecases.database import Store

PROBLEMS_SHOWN = 20  # problems printed per run (all are counted)


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


def import_command(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="PGN files, folders (searched recursively), glob patterns, .gz/.bz2/.xz/.zip "
            "archives, or - for standard input.",
            show_default=False,
        ),
    ],
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            help="Mark this player (name or FIDE ID) as yours: later commands default "
            "to them. Checked before anything is stored: a bad value or a name "
            "several players match stops the import (exit 2); a name several players "
            "of these files match is not marked (exit 2, the games stay stored); a player "
            "found in no file is a warning (the games stay stored, exit 0). Another "
            "spelling with more games that may be the same person is named, with the "
            "command that merges them.",
            show_default=False,
        ),
    ] = None,
    rating_list: Annotated[
        str | None,
        typer.Option(
            "--list",
            "-l",
            metavar=LIST_CHOICES,
            help="standard, rapid or blitz: the list of games whose time control "
            "is unknown (default: standard, said in the report).",
            show_default=False,
        ),
    ] = None,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Stop at the first problem; nothing of that file is stored. A file "
            "imported before with problems (without --strict) is read and checked again; one "
            "imported before without a problem is skipped as usual.",
        ),
    ] = False,
    validate: Annotated[
        bool, typer.Option("--validate", help="Also replay every move with python-chess (slow).")
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="No progress bar and no per-file lines: only the summary."
        ),
    ] = False,
    max_size: Annotated[
        str,
        typer.Option(
            "--max-size",
            metavar="SIZE",
            help="The most one compressed file (or archive member) may hold once decompressed, "
            "and standard input: bytes, or with K, M, G, T. Past it the import stops (a "
            "decompression bomb?).",
        ),
    ] = "16G",
    max_ratio: Annotated[
        int,
        typer.Option(
            "--max-ratio",
            min=1,
            metavar="N",
            help="The most a compressed file may grow per byte (PGN grows 5 to 15 times), looked "
            "at past 16 MiB.",
        ),
    ] = 1000,
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
    """
    from tracker.files.sources import Limits, parse_size
    from tracker.importer import ImportOptions, Interrupted, import_paths
    from tracker.usecases.players import resolve_player, set_me

    default_list = RatingList.parse(rating_list) if rating_list is not None else None
    options = ImportOptions(default_list=default_list, strict=strict, validate=validate)
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
        from tracker.usecases.imports import last_game_id

        # --player is checked before anything is stored: a bad value (or several players
        # matching) stops here; a name nobody has yet may come with these files
        known = None if player is None else _known_player(store, player)
        before = last_game_id(store)  # the games this run adds have higher ids
        # Only where someone watches: stderr and stdout both on a terminal (a log, a pipe,
        # a cron job get the lines alone). Not redirect_stdout: rich would send the results
        # printed meanwhile to its console, stderr (see _Said.source_done).
        show = err.is_terminal and out.is_terminal and not quiet
        progress = _progress_bar()
        progress.disable = not show
        said = _Said(progress if show else None, quiet=quiet, strict=strict)
        try:
            with progress:
                bar = _Bar(progress)
                report = import_paths(store, paths, options, bar, said.source_done, limits)
        except Interrupted as stop:
            err.print(_interrupted_line(stop), markup=False, soft_wrap=True)
            Interruption.told = True
            raise typer.Exit(130) from None
        with unless_closed():
            _print_report(report, said, default_list=default_list, store=store, before=before)
        several: BadInput | None = None  # --player fits several players of these files
        if player is not None:
            try:
                ref = known or resolve_player(store, player)
            except BadInput as exc:  # as before the import on a database that has them
                several = BadInput(
                    f"--player {player!r} not marked: {exc}; the games are stored: mark "
                    "your player with `tracker player set PLAYER --me`"
                )
            except TrackerError as exc:  # the games are stored: a warning, not a failure
                err.print(
                    f"warning: --player {player!r} not marked: {exc}; the games are "
                    "stored: mark your player with `tracker player set PLAYER --me`",
                    markup=False,
                    soft_wrap=True,
                )
            else:
                set_me(store, ref.id)
                with unless_closed():
                    out.print(f"tracked player: {who(ref)}", markup=False)
                    sys.stdout.flush()
                bigger = bigger_spellings(store, ref, f"--player {player!r} marked {ref.name}")
                if bigger is not None:
                    err.print(bigger, markup=False, soft_wrap=True)
    finally:
        store.close()
    if ClosedOutput.closed:
        err.print(_closed_line(report), markup=False, soft_wrap=True)
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
    if several is not None:  # exit 2, as `--help` says, whether the database had them or not
        raise several


def _known_player(store: Store, player: str) -> PlayerRef | None:
    """The player --player names, if the database has them already (None: not yet, perhaps
    in the files being imported). A bad value, or several players matching, is an error
    before anything is stored."""
    from tracker.errors import NotFound
    from tracker.usecases.players import resolve_player

    try:
        return resolve_player(store, player)
    except NotFound:
        return None


def _spooling(name: str, done: int) -> None:
    """Progress while standard input (or a pipe) is read, before anything is imported (on a
    terminal: one line, rewritten, and erased at the end)."""
    what = "standard input" if name == "-" else name
    stderr = err.console.file  # its own codes, past the guard of control characters
    stderr.write("\r\x1b[K" if done < 0 else f"\rreading {shown(what)}: {done >> 20:,} MiB so far")
    stderr.flush()


def _closed_line(report: ImportReport) -> str:
    """What an import whose standard output closed (`| head`) did all the same."""
    stored = sum(1 for s in report.sources if s.error is None)
    what = (
        "could not be written before the end (a full disk?)"
        if ClosedOutput.full
        else "was closed before the end (a `| head`?)"
    )
    return (
        f"note: standard output {what}; the import went "
        f"on: {_n(stored, 'file')} of {len(report.sources)} stored or already imported, "
        f"{_n(report.total('added'), 'game')} added (`tracker imports` lists them)"
    )


def _interrupted_line(stop: Interrupted) -> str:
    """What Ctrl-C left: the source it stopped (rolled back) and the ones done before it."""
    done = [s for s in stop.report.sources if s.error is None]
    if stop.source is None:
        return (
            f"interrupted: {_n(len(done), 'file')} stored (or already imported); "
            "the rest was not imported"
        )
    before = (
        ""
        if not done
        else f"; {_n(len(done), 'file')} before it {'is' if len(done) == 1 else 'are'} stored"
    )
    return f"interrupted: {stop.source} was not imported (nothing of it stored){before}"


class _Said:
    """Says what happened to each source as soon as it is done: its problems (stderr, the
    first PROBLEMS_SHOWN of the run) and its line (stdout, unless --quiet)."""

    def __init__(self, progress: Progress | None, *, quiet: bool, strict: bool = False) -> None:
        self.progress = progress
        self.quiet = quiet
        self.strict = strict
        self.problems_shown = 0

    def source_done(self, s: SourceReport) -> None:
        for p in s.problems:
            if self.problems_shown < PROBLEMS_SHOWN:
                err.print(f"warning: {p}", markup=False, soft_wrap=True)
                self.problems_shown += 1
        _say_foreign_ids(s)
        if self.quiet:
            if s.error is not None:  # why a file failed is said even with --quiet (stderr)
                err.print(_source_line(s, strict=self.strict), markup=False, soft_wrap=True)
            return
        line = _source_line(s, strict=self.strict)
        if self.progress is not None and out.is_terminal:
            # Both on the screen: above the progress bar, through its console.
            self.progress.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            with unless_closed():
                out.print(line, markup=False)
                sys.stdout.flush()


def _say_foreign_ids(s: SourceReport) -> None:
    """On stderr: each name of the source given another player's FIDE ID (the game filed
    under the name, nothing merged), with the command that merges them if they are one."""
    import shlex

    from tracker.cli.common import shown
    from tracker.cli.players import names_apart_said

    for f in s.foreign_ids:
        more = f.games - 1
        also = ""
        if more:
            games = f"{more:,} more {'game' if more == 1 else 'games'} of the file"
            also = f" (so {'is' if more == 1 else 'are'} {games})"
        said = (
            f"{s.name}:{f.line}: {f.side} {f.name} has {f.side}FideId {f.fide_id}, the FIDE ID "
            f"of {f.holder}, {names_apart_said(f.apart, f.name)}: the game is filed under "
            f"{f.name}, without the FIDE ID{also}; if they are one person, `tracker player "
            f"merge {f.fide_id} {shlex.quote(f.name)}` makes them one"
        )
        err.print(f"warning: {shown(said)}", markup=False, soft_wrap=True)
    if s.foreign_more:
        err.print(
            f"warning: {s.name}: {s.foreign_more:,} more "
            f"{'game names' if s.foreign_more == 1 else 'games name'} a player with the FIDE "
            "ID of a player of another name (not shown): filed under the names",
            markup=False,
            soft_wrap=True,
        )


def failed_files(failed: int, of: int) -> str:
    """ "the file could not be imported", "1 of 3 files could not be imported"."""
    if of == 1:
        return "the file could not be imported"
    return f"{failed:,} of {of:,} files could not be imported"


def _n(value: int, word: str) -> str:
    return f"{value:,} {word}" + ("" if value == 1 else "s")


def _source_line(s: SourceReport, *, strict: bool = False) -> str:
    if s.already is not None:
        when = s.already.started_at.strftime("%Y-%m-%d %H:%M")
        same = "" if s.already.source == s.name else f" as {s.already.source}"
        if s.checked:
            return (
                f"{s.name}: already imported on {when} UTC{same} with problems; checked "
                "again with --strict: no problem now, nothing added"
            )
        clean = " (imported then without a problem)" if strict else ""
        return f"{s.name}: already imported on {when} UTC{same}, nothing added{clean}"
    if s.error is not None:
        error = s.error.removeprefix(f"{s.name}: ")
        return f"{s.name}: not imported: {error}"
    parts = [f"{s.name}: {_n(s.games_read, 'game')} read", f"{s.added:,} added"]
    if s.duplicates:
        parts.append(f"{s.duplicates:,} already stored")
    if s.skipped:
        parts.append(f"{s.skipped:,} skipped")
    if s.problem_count:
        parts.append(_n(s.problem_count, "problem"))
    return ", ".join(parts)


def _print_report(
    report: ImportReport,
    said: _Said,
    *,
    default_list: RatingList | None,
    store: Store | None = None,
    before: int = 0,
) -> None:
    """The summary of the run (each source's problems and line were said as it finished).
    With the store, what the names said of the games added (games with an id above
    `before`) and the tournaments they left without a date."""
    total_problems = report.total("problem_count")
    hidden = total_problems - said.problems_shown
    if hidden > 0:
        err.print(
            f"warning: {hidden:,} more {'problem' if hidden == 1 else 'problems'} not "
            f"shown (only the first {PROBLEMS_SHOWN} of a run are printed)",
            markup=False,
            soft_wrap=True,
        )
    files = len(report.sources)
    already = sum(1 for s in report.sources if s.already is not None)
    summary = [
        f"{_n(files, 'file')}",
        f"{_n(report.total('games_read'), 'game')} read",
        f"{report.total('added'):,} added",
        f"{report.total('duplicates'):,} duplicates skipped",
    ]
    if already:
        summary.append(f"{already:,} already imported")
    if report.total("skipped"):
        summary.append(f"{_n(report.total('skipped'), 'game')} not stored (problems)")
    summary.append(_n(total_problems, "problem"))
    out.print(", ".join(summary), markup=False)
    not_rated = report.not_rated
    if not_rated:
        reasons = ", ".join(f"{reason} {n:,}" for reason, n in sorted(not_rated.items()))
        out.print(f"not counted for rating: {reasons}", markup=False)
    assumed = report.total("list_assumed")
    if assumed:
        if default_list is not None:
            out.print(
                f"no time control: {_n(assumed, 'game')} put on the {default_list} list (--list)",
                markup=False,
            )
        else:
            out.print(
                f"no time control: {_n(assumed, 'game')} put on a list by assumption "
                "(standard, or blitz/rapid when the event name says so); --list "
                "states it",
                markup=False,
            )
    if store is not None and report.total("added"):
        _print_assumed_kinds(store, before, default_list)
        _print_undated(store, before)
        _print_unlisted(store, before)


def _print_assumed_kinds(store: Store, before: int, default_list: RatingList | None) -> None:
    """What the event and round names of the games added without a time control said
    (tracker.fide.eventnames): a list, or never rated and why. Nothing when they said
    nothing (the line above says standard, or --list)."""
    from tracker.fide.eventnames import NAME_REASONS
    from tracker.usecases.imports import assumed_since

    by_list: dict[str, int] = {}
    never: dict[str, int] = {}
    for a in assumed_since(store, before):
        if a.reason is None:
            by_list[a.rating_list] = by_list.get(a.rating_list, 0) + a.games
        elif a.reason in NAME_REASONS:
            never[a.reason] = never.get(a.reason, 0) + a.games
    named = (
        {}
        if default_list is not None
        else {lst: n for lst, n in by_list.items() if lst != RatingList.STANDARD.value}
    )
    if not named and not never:
        return
    parts = [", ".join(f"{lst} {n:,}" for lst, n in sorted(named.items()))] if named else []
    if never:
        parts.append("not rated: " + ", ".join(f"{r} {n:,}" for r, n in sorted(never.items())))
    rest = by_list.get(RatingList.STANDARD.value, 0) if default_list is None else 0
    if rest:
        parts.append(f"standard {rest:,} (the name says nothing)")
    out.print(
        f"by the event or round name, of the games added: {'; '.join(parts)} "
        "(`tracker event set ID --list LIST` or `--exclude` corrects a tournament)",
        markup=False,
        soft_wrap=True,
    )


UNDATED_SHOWN = 5  # undated tournaments named in the import summary (the rest are counted)


def _print_unlisted(store: Store, before: int) -> None:
    """The players of the games added that no FIDE list imported so far looked up (they came
    after the lists): their games keep the Elo tags until the lists are imported again."""
    from pathlib import Path

    from tracker.model import RatingList
    from tracker.usecases.imports import players_after
    from tracker.usecases.official import lists_imported, unchecked

    ids: set[int] | None = None
    for rl in RatingList:
        imported = lists_imported(store, rl)
        if not imported:
            continue
        if ids is None:
            ids = players_after(store, before)
        missing = unchecked(store, ids, rl)
        if missing:
            files = sorted({Path(path).name for _, path in imported})
            shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
            out.print(
                f"{rl} lists: {_n(len(missing), 'player')} of these games came after the "
                f"lists imported ({shown}): their opponents' ratings are the Elo tags until "
                "`tracker official import` reads those lists again",
                markup=False,
                soft_wrap=True,
            )


def _print_undated(store: Store, before: int) -> None:
    """The tournaments the games added left in no period (no usable date, no dated
    tournament of the same event and site to join), each with the command that dates it."""
    from tracker.fide.editions import FIRST_DATE
    from tracker.reports.words import command
    from tracker.usecases.imports import undated_tournaments

    # (a date tag of a year before 2008 needs no period: that era is not replayed)
    undated = [
        u
        for u in undated_tournaments(store, after_game_id=before)
        if u.year is None or u.year >= FIRST_DATE.year
    ]
    if not undated:
        return
    games = sum(u.games for u in undated)
    out.print(
        f"no date: {_n(games, 'game')} in {_n(len(undated), 'tournament')} in no "
        "period (no dated tournament of the same event and site); say which list "
        "rated each:",
        markup=False,
        soft_wrap=True,
    )
    for u in undated[:UNDATED_SHOWN]:
        out.print(
            f"  {command(u.advice)}  ({u.event}, {u.site}: {_n(u.games, 'game')})",
            markup=False,
            soft_wrap=True,
        )
    if len(undated) > UNDATED_SHOWN:
        out.print(
            f"  and {len(undated) - UNDATED_SHOWN:,} more (`tracker event list`)", markup=False
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
    from tracker.usecases.imports import list_imports

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
        out.print("no imports yet: run `tracker import FOLDER`", markup=False)
        return
    print_table(
        ["id", "source", "imported (UTC)", "read", "added", "duplicates", "problems"],
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
            for r in rows
        ],
        (0, 3, 4, 5, 6),
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
    from tracker.usecases.imports import remove_import

    store = store_for(db)
    try:
        gone = remove_import(store, import_id, dry_run=dry_run)
    finally:
        store.close()
    r = gone.record
    when = r.started_at.strftime("%Y-%m-%d %H:%M")
    verb = "would remove" if dry_run else "removed"
    lines = [
        f"{verb} import {r.id}: {r.source} (imported {when} UTC)",
        f"  {_n(gone.games, 'game')}",
        f"  {_n(len(gone.tournaments), 'tournament')}{_some(gone.tournaments, ', ')}",
        f"  {_n(len(gone.players), 'player')}{_some(gone.players, '; ')}",
    ]
    kept = []
    if gone.kept_tournaments:
        kept.append(
            f"{_n(gone.kept_tournaments, 'tournament')} with games of other imports "
            "or your overrides"
        )
    if gone.kept_players:
        kept.append(
            f"{_n(gone.kept_players, 'player')} with other games, official entries or facts"
        )
    if kept:
        lines.append(f"  kept: {'; '.join(kept)}")
    if gone.forgotten:
        lines.append(
            f"  {_n(len(gone.forgotten), 'later import')} skipped duplicates, perhaps "
            f"of these games{_some(gone.forgotten, ', ')}: importing "
            f"{'it' if len(gone.forgotten) == 1 else 'one'} again stores them"
        )
    lines.append(
        "--dry-run: nothing was changed"
        if dry_run
        else f"import the corrected file again with `tracker import {r.source}`"
    )
    echo_lines(lines)


def _some(names: tuple[str, ...], sep: str, shown: int = 5) -> str:
    """': a, b, c and 4 more' (nothing for none)."""
    if not names:
        return ""
    more = f" and {len(names) - shown:,} more" if len(names) > shown else ""
    return ": " + sep.join(names[:shown]) + more
