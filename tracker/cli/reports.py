"""`tracker history`, `explain`, `next`, `export`, `plot`, `event list`, `event set` (and
`event show`, tracker.cli.eventshow)."""

from __future__ import annotations

import json
import shlex
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.eventset import event_set
from tracker.cli.eventshow import event_show, every_tournament
from tracker.cli.options import (
    DEFAULT_DB,
    LIST_CHOICES,
    DbOption,
    ForceOption,
    Format,
    FormatOption,
    PlayerArg,
    period_option,
    store_for,
    today,
)
from tracker.cli.output import echo_lines, emit_csv, emit_json, output_file, print_table, wrote
from tracker.errors import BadInput
from tracker.model import Period, RatingList

if TYPE_CHECKING:
    from tracker.reports.export import TournamentRow

# tracker.reports (and through it the replay and the official-list store) is imported by
# each command when it runs, so that the other commands of the CLI start faster.

ListOption = Annotated[
    str,
    typer.Option("--list", "-l", metavar=LIST_CHOICES, help="The rating list.", show_default=True),
]


class What(StrEnum):
    history = "history"
    games = "games"


class ExportFormat(StrEnum):
    """What `tracker export` writes: CSV (for a spreadsheet) or JSON (for programs)."""

    csv = "csv"
    json = "json"


def _list(text: str) -> RatingList:
    return RatingList.parse(text)


def check_range(first: Period | None, last: Period | None) -> None:
    """Refuse a reversed --from/--to (it would select nothing, and say so misleadingly)."""
    if first is not None and last is not None and first > last:
        raise BadInput(f"--from {first} is after --to {last}: give the earlier period with --from")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("history")(history)
    app.command("explain")(explain)
    app.command("next")(next_list)
    app.command("export")(export)
    app.command("plot")(plot)
    event = typer.Typer(
        help="The tournaments: a player's, one with every player's change, and the overrides "
        "of their rating.",
        no_args_is_help=True,
    )
    event.command("list")(event_list)
    event.command("show")(event_show)
    event.command("set")(event_set)
    app.add_typer(event, name="event")


def history(
    player: PlayerArg = None,
    rating_list: ListOption = "standard",
    since: Annotated[str | None, typer.Option("--from", help="First period, YYYY-MM.")] = None,
    until: Annotated[str | None, typer.Option("--to", help="Last period, YYYY-MM.")] = None,
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The replayed rating history, one row per rating period.

    Each row: the rating before, games, points, expected score, K, the exact change, the
    rounded change, the rating after, and the official rating with the difference when one
    is recorded. The replay re-anchors at every official rating.

    Example: tracker history --list standard --from 2025-09 --format table
    """
    from tracker.app.histories import load_history
    from tracker.app.players import resolve_player
    from tracker.reports import (
        HISTORY_COLUMNS,
        HISTORY_OPTIONAL,
        future_text,
        history_json,
        history_rows,
        history_table,
        no_periods_text,
        notes_said_once,
        ratings_line,
        season_line,
        season_summary,
        unplaced_head,
        unplaced_lines,
    )
    from tracker.reports.history import ahead_line, history_title

    rl = _list(rating_list)
    first, last = period_option(since, "--from"), period_option(until, "--to")
    check_range(first, last)
    with store_for(db) as store:
        who = resolve_player(store, player)
        replay_ = load_history(store, who, (rl,)).replays[rl]
    rows = history_rows(replay_, first, last, who)
    if fmt is Format.json:
        emit_json([history_json(r) for r in rows])
    elif fmt is Format.csv:
        emit_csv(HISTORY_COLUMNS, [history_json(r) for r in rows])
    else:
        if not rows:
            placed = unplaced_lines(replay_)
            if placed:  # games, none in a replayed period: say where they are
                echo_lines([unplaced_head(rl, who.name), *placed])
                return
            echo_lines([no_periods_text(rl, who.name)])
            return
        headers, cells = history_table(rows)
        cells, legend = notes_said_once(rows, cells)
        print_table(
            headers,
            cells,
            range(1, 12),
            title=history_title(who.name, rl),
            optional=HISTORY_OPTIONAL,
        )
        season = season_summary(replay_, first, last)
        ahead = future_text(rows[-1].period, today())
        extra = (
            legend
            + ([season_line(season), ratings_line(season)] if season is not None else [])
            + unplaced_lines(replay_)
            + ([ahead_line(rows[-1].period, ahead)] if ahead else [])
        )
        if extra:
            echo_lines(["", *extra])


def _is_period(text: str) -> bool:
    try:
        Period.parse(text)
    except BadInput:
        return False
    return True


def explain(
    args: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[PLAYER] PERIOD",
            help="Optional player, then the period YYYY-MM.",
            show_default=False,
        ),
    ] = None,
    rating_list: ListOption = "standard",
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """One rating period the way FIDE's calculation page shows it.

    Per tournament: Ro (and where it came from), Rc, each game's opponent, the rating used
    (* when capped), the expected score, score, change and K x change; then the period
    total, its rounding, and the rule behind K. Games that did not count are listed with
    the reason.

    Examples:

      tracker explain 2025-11

      tracker explain "Novák" 2025-11 --list rapid
    """
    from tracker.app.histories import load_history
    from tracker.app.players import resolve_player
    from tracker.reports import (
        EXPLAIN_COLUMNS,
        explain_games,
        explain_json,
        explain_lines,
        history_json,
        history_row,
        terminal_width,
    )

    if not args or len(args) > 2:
        raise BadInput(
            "give the period (YYYY-MM), optionally after the player: "
            "tracker explain [PLAYER] 2025-11"
        )
    player_text = args[0] if len(args) == 2 else None
    if len(args) == 2 and _is_period(args[0]) and not _is_period(args[1]):
        raise BadInput(
            f"the player comes first, then the period: tracker explain "
            f"{shlex.quote(args[1])} {args[0]}"
        )
    period = period_option(args[-1], "PERIOD")
    assert period is not None
    rl = _list(rating_list)
    with store_for(db) as store:
        who = resolve_player(store, player_text)
        replay_ = load_history(store, who, (rl,)).replays[rl]
    # (refuses a period without a row; JSON keeps the tables whole, the text fits)
    lines = explain_lines(replay_, period, who, None if fmt is Format.json else terminal_width())
    if fmt is Format.json:
        row = replay_.row(period)
        data = (
            {"period": str(period), "list": str(rl), "carried_over": True}
            if row is None
            else history_json(history_row(row, who))
        )
        data["games"] = [explain_json(g) for g in explain_games(replay_, period)]
        data["lines"] = lines
        emit_json(data)
    elif fmt is Format.csv:
        emit_csv(EXPLAIN_COLUMNS, [explain_json(g) for g in explain_games(replay_, period)])
    else:
        echo_lines(lines)


def next_list(
    player: PlayerArg = None,
    rating_list: ListOption = "standard",
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The expected rating on the next list, from the games since the last official one.

    Lists the tournaments included (by the list expected to rate them) and what is still
    open (a tournament that may land on a later list, games without a date).

    Example: tracker next --list standard
    """
    from tracker.app.histories import load_history
    from tracker.app.players import resolve_player
    from tracker.reports import (
        HISTORY_COLUMNS,
        history_json,
        history_rows,
        next_lines,
        next_report,
    )

    rl = _list(rating_list)
    with store_for(db) as store:
        who = resolve_player(store, player)
        replay_ = load_history(store, who, (rl,)).replays[rl]
    rep = next_report(replay_, who)
    periods = (
        [history_json(r) for r in history_rows(replay_, rep.rows[0].period, player=who)]
        if rep.rows
        else []
    )
    if fmt is Format.json:
        emit_json(
            {
                "list": str(rl),
                "last_official_period": None
                if rep.last_official is None
                else str(rep.last_official),
                "last_official_rating": rep.last_rating,
                "next_period": None if rep.next_period is None else str(rep.next_period),
                "expected_rating": rep.expected,
                "periods": periods,
                "tournaments": [p.unit.label for r in rep.rows for p in r.tournaments],
                "next_period_published": None
                if rep.next_period is None
                else rep.next_period.list_date <= today(),
                "open": [{"tournament": n, "why": w} for n, w in rep.open],
                "earlier_near_closing": [{"tournament": n, "why": w} for n, w in rep.earlier],
            }
        )
    elif fmt is Format.csv:  # the periods the next list is expected from
        emit_csv(HISTORY_COLUMNS, periods)
    else:
        echo_lines(next_lines(rep, today()))


def export(
    player: PlayerArg = None,
    what: Annotated[What, typer.Option("--what", help="history or games.")] = What.history,
    output: Annotated[
        str, typer.Option("--output", "-o", help="CSV file to write, or - for stdout.")
    ] = "-",
    force: ForceOption = False,
    fmt: Annotated[
        ExportFormat,
        typer.Option("--format", "-f", help="csv or json.", case_sensitive=False),
    ] = ExportFormat.csv,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Export the history (all lists) or the games as CSV for a spreadsheet (or JSON).

    The columns are stable and documented in docs/export.md. A CSV file is written as UTF-8
    with a byte-order mark (spreadsheets then read names with diacritics correctly);
    stdout gets plain UTF-8. --format json writes the same rows as a JSON list (numbers as
    numbers, `counted` true or false). An existing file is replaced only with --force, and
    never the database itself; a device or a FIFO (/dev/stdout) is written into, never
    replaced.

    Example: tracker export --what history --output history.csv
    """
    from tracker.app.histories import load_history
    from tracker.app.outputs import write_text
    from tracker.app.players import resolve_player
    from tracker.reports import (
        GAME_COLUMNS,
        HISTORY_COLUMNS,
        game_json,
        game_rows,
        game_values,
        history_json,
        history_rows,
        to_csv,
    )
    from tracker.reports.text import wrote_rows_text

    path = None if output == "-" else output_file(output, db, force=force)
    with store_for(db) as store:
        who = resolve_player(store, player)
        hist = load_history(store, who)
    replays = list(hist.replays.values())
    columns: tuple[str, ...] = HISTORY_COLUMNS if what is What.history else GAME_COLUMNS
    games = [] if what is What.history else game_rows(replays)
    rows = (
        [history_json(r) for rp in replays for r in history_rows(rp, player=who)]
        if what is What.history
        else [game_json(r) for r in games]
    )
    if fmt is ExportFormat.json:
        data = rows if what is What.history else [game_values(r) for r in games]
        if path is None:
            emit_json(data)
            return
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        write_text(path, text, encoding="utf-8")
        wrote(path, wrote_rows_text(path, len(data)))
        return
    if path is None:  # text shown: control characters escaped (docs/export.md)
        emit_csv(columns, rows)
        return
    text = to_csv(columns, rows)  # data: the names as they are
    write_text(path, text, encoding="utf-8-sig", newline="")
    lines = text.count("\r\n") - 1
    wrote(path, wrote_rows_text(path, lines))


def plot(
    player: PlayerArg = None,
    output: Annotated[
        str, typer.Option("--output", "-o", help="Chart file: .png or .svg.")
    ] = "history.png",
    lists: Annotated[
        list[str] | None,
        typer.Option(
            "--list",
            "-l",
            metavar=LIST_CHOICES,
            help="Lists to draw (repeatable; default: every list with data).",
            show_default=False,
        ),
    ] = None,
    force: ForceOption = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Draw the replayed rating history: a panel per list, each on its own rating scale,
    stacked over one time axis (the periods). Also drawn: where each list's replay starts,
    the official ratings with their values and the gap to the replayed one, the tournaments
    (up for a gain, down for a loss), and the next list `tracker next` expects as a dashed
    step; the legend names every mark. In SVG, hovering a point shows its period, rating,
    change and tournaments. An existing file is replaced only with --force, and never the
    database itself; a device or a FIFO (/dev/stdout) is written into (PNG unless its name
    ends in .svg), never replaced.

    Example: tracker plot --output history.png
    """
    from tracker.app.histories import load_history
    from tracker.app.players import resolve_player
    from tracker.reports.chart import chart_model
    from tracker.reports.plot import plot_history
    from tracker.reports.text import wrote_text

    chosen = tuple(_list(x) for x in lists) if lists else tuple(RatingList)
    path = output_file(output, db, force=force)
    with store_for(db) as store:
        who = resolve_player(store, player)
        hist = load_history(store, who, chosen)
    plot_history(chart_model(hist, chosen), path.path)
    wrote(path, wrote_text(path))


def event_list(
    player: PlayerArg = None,
    rating_list: Annotated[
        str | None,
        typer.Option(
            "--list",
            "-l",
            metavar=LIST_CHOICES,
            help="Only this list (default: all).",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The player's tournaments with their id, dates, list and rating period.

    Use the id with `tracker event set` to pin a tournament to another list month, move it
    to another list, exclude it, or record the Ro FIDE used, and with `tracker event show`
    to see every player's change. With no player given and none tracked (an arbiter's or a
    club's database), every tournament of the database, with its id.

    Example: tracker event list --format json
    """
    from tracker.app.event_show import tournaments_without_a_player
    from tracker.app.histories import load_history
    from tracker.app.players import resolve_player
    from tracker.reports import EVENT_COLUMNS, event_rows, tournament_json
    from tracker.reports.export import no_tournaments_text

    chosen = (_list(rating_list),) if rating_list else tuple(RatingList)
    with store_for(db) as store:
        every = tournaments_without_a_player(store) if player is None else None
        if every is not None:  # no player tracked: every tournament, for `event show ID`
            every_tournament(every, fmt)
            return
        who = resolve_player(store, player)
        hist = load_history(store, who, chosen)
    rows = event_rows(hist.replays.values())
    if fmt is Format.json:
        emit_json([tournament_json(r) for r in rows])
    elif fmt is Format.csv:
        emit_csv(EVENT_COLUMNS, [tournament_json(r) for r in rows])
    elif not rows:
        echo_lines([no_tournaments_text(who.name)])
    else:
        _event_table(who.name, rows)


EVENT_HEADERS = [
    "Id",
    "Tournament",
    "Start",
    "End",
    "List",
    "Period",
    "Rated",
    "Points",
    "Rp",
    "Change",
    "Not counted",
    "Override",
]
"""The columns of `event list`'s table."""


def _event_table(name: str, rows: list[TournamentRow]) -> None:
    """`event list`'s table of the player `name`'s tournaments, and what its marks mean."""
    from tracker.reports.export import event_list_notes, event_list_title

    print_table(
        EVENT_HEADERS,
        [_event_cells(r) for r in rows],
        {0, 6, 7, 8, 9, 10},
        title=event_list_title(name),
        optional=(3, 8, 10, 9),  # End, Rp, Not counted, Change
        wrap=1,  # the tournament's name
    )
    said = event_list_notes(rows)
    if said:
        echo_lines(["", *said])


def _event_cells(r: TournamentRow) -> list[str]:
    """A tournament's row of `event list`'s table."""
    from tracker.reports import fmt_signed

    marks = [
        m
        for m, on in (
            ("pinned", r.pinned),
            ("excluded", r.excluded),
            (f"Ro {r.ro}", r.ro is not None),
        )
        if on
    ]
    change = r.change_exact
    return [
        str(r.id),
        r.name,
        *r.dates,
        str(r.rating_list) + ("*" if r.list_assumed else ""),
        (str(r.period) if r.period else "none") + ("*" if r.period_assumed else ""),
        str(r.games),
        _points(r.points) if r.games else "",
        "" if r.performance is None else str(r.performance),
        "" if change is None else fmt_signed(change),
        str(r.not_counted or ""),
        ", ".join(marks),
    ]


def _points(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.1f}"
