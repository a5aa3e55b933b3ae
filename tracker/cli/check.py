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
from tracker.errors import BadInput, NotFound
from tracker.model import RatingList

if TYPE_CHECKING:
    from rich.progress import Progress

    from tracker.app.check import CheckReport, CheckRow, GamesCount


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("check")(check)
    app.command("target")(target)


# --- output helpers ------------------------------------------------------------------------


def _n(x: int | None) -> str:
    return "-" if x is None else str(x)


def _signed(x: int | None) -> str:
    return "" if x is None else f"{x:+d}" if x else "0"


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
                raise NotFound(
                    "no player has an official rating: record one with "
                    "`tracker official add` or import a list with "
                    "`tracker official import`"
                )
        else:
            who = resolve_player(store, player)
            reports = check_player(store, who.id, lists)
            if not any(r.rows for r in reports):
                where = f" on the {lists[0]} list" if lists else ""
                raise NotFound(
                    f"no official rating recorded for {who.name}{where}: record one with "
                    "`tracker official add PLAYER --period YYYY-MM --rating R` or import a "
                    "list with `tracker official import FILE`"
                )
    differ = any(not r.all_match for r in reports)
    if differ:
        ClosedOutput.exit_code = 1  # `tracker check | head`: still a finding
    if fmt is Format.json:
        emit_json([r.to_json() for r in reports])  # always a list: one report per player-list
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


CHECK_COLUMNS = (
    "player",
    "list",
    "period",
    "replayed",
    "official",
    "difference",
    "games",
    "official_games",
    "k",
    "official_k",
    "status",
    "official_source",
    "likely_cause",
    "assumptions",
    "list_assumed_games",
    "not_counted",
    "period_assumed",
)
"""`tracker check --format csv`: one row per period checked, of every player-list."""
ALL_COLUMNS = (
    "player",
    "list",
    "checked",
    "differ",
    "first_difference",
    "difference",
    "likely_cause",
)
"""`tracker check --all --format csv`: one row per player-list (the table's rows)."""


def _check_csv(reports: list[CheckReport], all_players: bool) -> None:
    if all_players:
        rows = []
        for r in reports:
            first = r.differences[0] if r.differences else None
            rows.append(
                {
                    "player": r.player,
                    "list": str(r.rating_list),
                    "checked": len(r.compared),
                    "differ": len(r.differences),
                    "first_difference": str(first.period) if first else None,
                    "difference": first.difference if first else None,
                    "likely_cause": first.causes[0].kind if first and first.causes else None,
                }
            )
        emit_csv(ALL_COLUMNS, rows)
        return
    emit_csv(
        CHECK_COLUMNS,
        [
            {
                "player": r.player,
                "list": str(r.rating_list),
                "period": str(row.period),
                "replayed": row.replayed,
                "official": row.official,
                "difference": row.difference,
                "games": row.games,
                "official_games": row.official_games,
                "k": row.k,
                "official_k": row.official_k,
                "status": row.status,
                "official_source": row.official_source,
                "likely_cause": row.causes[0].kind if row.causes else None,
                # as the history's CSV writes them (docs/export.md)
                "assumptions": ";".join(fact for fact, _, _ in row.assumptions) or None,
                "list_assumed_games": row.list_assumed_games,
                "not_counted": ";".join(f"{label} {n}" for label, n in row.not_counted) or None,
                "period_assumed": ";".join(
                    f"{c.tournament_id} {c.earlier}" for c in row.closing_dates
                )
                or None,
            }
            for r in reports
            for row in r.rows
        ],
    )


CHECK_HEADERS = [
    "period",
    "replayed",
    "official",
    "diff",
    "games",
    "FIDE games",
    "K",
    "FIDE K (prev)",
    "status",
    "from",
    "assumed",
]


def _assumed(report: CheckReport) -> tuple[list[str], list[str]]:
    """What each compared row's replayed number rests on that nobody recorded, as short marks
    for the table's last column ("K", "list 4", "period", "not counted 1"), and the lines
    under the table that say each in full once, with the command that settles it."""
    from tracker.reports import LIST_ASSUMED_HOW

    compared = [r for r in report.rows if r.status != "start"]
    marks: list[str] = []
    for r in report.rows:
        if r.status == "start":
            marks.append("")
            continue
        parts = []
        if r.assumptions:
            parts.append("K")
        if r.list_assumed_games:
            parts.append(f"list {r.list_assumed_games}")
        if r.closing_dates:
            parts.append("period")
        if r.not_counted:
            parts.append(f"not counted {sum(n for _, n in r.not_counted)}")
        marks.append(", ".join(parts))
    every = len(compared)

    def where(periods: list[str]) -> str:
        return "" if len(periods) == every else f" ({', '.join(periods)})"

    lines: list[str] = []
    k: dict[tuple[str, str, str], list[str]] = {}
    for r in compared:
        for a in r.assumptions:
            k.setdefault(a, []).append(str(r.period))
    lines += [
        f"  K: K assumes {assumed} ({command}){where(periods)}"
        for (_, assumed, command), periods in k.items()
    ]
    listed = [r for r in compared if r.list_assumed_games]
    if listed:
        n = sum(r.list_assumed_games for r in listed)
        total = sum(r.games for r in compared)
        lines.append(
            f"  list N: {n} of the {total} games compared {'has' if n == 1 else 'have'} no "
            f"time control: put on their list {LIST_ASSUMED_HOW}"
            f"{where([str(r.period) for r in listed])}"
        )
    lines += [f"  period: {c.text()} ({c.command})" for r in compared for c in r.closing_dates]
    for r in compared:
        if r.not_counted:
            total = sum(n for _, n in r.not_counted)
            why = ", ".join(f"{label} {n}" for label, n in r.not_counted)
            lines.append(
                f"  not counted N: {r.period}: {total} game{'' if total == 1 else 's'} "
                f"left out ({why}); `tracker explain {r.period}` names them"
            )
    if lines:
        lines.insert(0, "What the replayed numbers rest on (assumed, or left out):")
    return marks, lines


def _print_report(report: CheckReport) -> None:
    from tracker.app.check import DIFFERS

    marks, assumed = _assumed(report)
    cells = [
        [
            str(r.period),
            _n(r.replayed),
            _n(r.official),
            _signed(r.difference),
            str(r.games),
            _n(r.official_games),
            _n(r.k),
            _n(r.official_k),
            r.status,
            _from(r),
            mark,
        ]
        for r, mark in zip(report.rows, marks, strict=True)
    ]
    headers = CHECK_HEADERS if any(marks) else CHECK_HEADERS[:-1]
    if not any(marks):
        cells = [c[:-1] for c in cells]
    print_table(
        headers,
        cells,
        {1, 2, 3, 4, 5, 6, 7},
        title=f"{report.player}, {report.rating_list} list (the replay starts from {report.start})",
    )
    if assumed:
        echo_lines(["", *assumed])
    for r in report.differences:
        echo_lines(
            [
                "",
                f"{r.period}: replayed {_n(r.replayed)}, official {_n(r.official)} "
                f"({_signed(r.difference)}). Likely causes, most likely first:",
            ]
        )
        if r.games_count is not None:
            echo_lines([f"  games: {_games_text(r.games_count)}"])
        for i, c in enumerate(r.causes, 1):
            mark = "reproduces the official rating" if c.reproduces else "possible"
            echo_lines([f"  {i}. [{mark}] {c.text}"])
            if c.command:
                echo_lines([f"     to record it: {c.command}"])
        for note in r.notes:
            echo_lines([f"  note: {note}"])
    for r in report.rows:
        if r.status != DIFFERS and r.status != "start":
            if r.games_count is not None:
                echo_lines([f"  {r.period} games: {_games_text(r.games_count)}"])
            for note in r.notes:
                echo_lines([f"  {r.period} note: {note}"])
    for note in report.notes:
        echo_lines([f"Note: {note}"])
    n, d = len(report.compared), len(report.differences)
    if not n:
        echo_lines(
            [
                "",
                "Nothing to compare yet: the replay starts from the only official rating. "
                "Record later ones with `tracker official add` or `tracker official "
                "import`.",
            ]
        )
        return
    echo_lines(["", _checked(n, d)])


def _from(r: CheckRow) -> str:
    """The `from` column: the official number's file (and that list's kind), or `manual`;
    the list's inactive flag."""
    said = [] if r.official_kind is None else [str(r.official_kind)]
    if r.official_flag and "i" in r.official_flag:
        said.append("inactive")
    return r.official_source + (f" ({', '.join(said)})" if said else "")


def _games_text(g: GamesCount) -> str:
    """FIDE's count of rated games against the replay's, and the next step."""
    from tracker.app.check import GamesStep
    from tracker.reports.explain import kind_text
    from tracker.reports.text import plural

    where = (
        "recorded by hand"
        if g.source == "manual"
        else g.source
        if g.kind is None
        else f"{g.source}, {kind_text(g.kind)}"
    )
    text = (
        f"FIDE rated {plural(g.fide, 'game')} of yours on the {g.period} list ({where}); "
        f"your files hold {g.replay} for it"
    )
    n = abs(g.missing)
    if g.step is GamesStep.CAUSE:
        return text + (
            ": a tournament of yours belongs on this list (cause 1 below, with its command)"
            if g.missing > 0
            else ": a tournament of them was rated on another list or not at all (cause 1 below, "
            "with its command)"
        )
    if g.step is GamesStep.LEFT_OUT:
        return text + (
            f" and left out {g.left_out} of this period: FIDE may have counted some of them "
            f"(`tracker explain {g.period}` says why each was left out); else import the "
            "missing tournament (`tracker import FILE`)"
        )
    if g.step is GamesStep.IMPORT:
        return text + (
            f": import the missing tournament, {plural(n, 'game')} (`tracker import FILE`)"
        )
    return text + (
        f": {n} of them {'was' if n == 1 else 'were'} rated on another list or not at all "
        f"(`tracker explain {g.period}` lists the tournaments; `tracker event set ID "
        "--period YYYY-MM` or `--exclude` says so)"
    )


def _checked(n: int, d: int) -> str:
    """The last line of a check: how many periods were compared and how many differ."""
    if not d:
        return "The one period checked matches." if n == 1 else f"All {n} periods checked match."
    return (
        "The one period checked differs."
        if n == 1
        else f"{d} of the {n} periods checked differ."
        if d > 1
        else f"1 of the {n} periods checked differs."
    )


def _print_all(reports: list[CheckReport]) -> None:
    cells = []
    for r in reports:
        first = r.differences[0] if r.differences else None
        cause = first.causes[0].kind if first and first.causes else ""
        cells.append(
            [
                r.player,
                str(r.rating_list),
                str(len(r.compared)),
                str(len(r.differences)),
                str(first.period) if first else "",
                _signed(first.difference) if first else "",
                cause,
            ]
        )
    print_table(
        ["player", "list", "checked", "differ", "first difference", "diff", "likely cause"],
        cells,
        {2, 3, 5},
    )
    bad = sum(1 for r in reports if not r.all_match)
    n = len(reports)
    echo_lines(
        [
            "",
            f"{n} player-list{'s' if n != 1 else ''} checked, {bad} with differences"
            + (": see `tracker check PLAYER` for the causes." if bad else "."),
        ]
    )
