"""`tracker target`: the points a tournament needs to reach a rating on the next list.
Registered by tracker.cli.check (the module `tracker.cli.COMMANDS` names for it)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

import typer

from tracker.cli.options import (
    DEFAULT_DB,
    LIST_CHOICES,
    DbOption,
    Format,
    FormatOption,
    PlayerArg,
    in_years,
    period_option,
    store_for,
)
from tracker.cli.output import echo_lines, emit_csv, emit_json, err, print_table
from tracker.errors import BadInput
from tracker.model import RatingList


def target(
    rating: Annotated[int, typer.Argument(help="The rating to reach.", show_default=False)],
    player: PlayerArg = None,
    average: Annotated[
        int | None,
        typer.Option(
            "--opponents",
            help="Average rating of the opponents (with --games).",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option("--games", "-n", help="Games in the tournament.", show_default=False),
    ] = None,
    opponent: Annotated[
        list[int] | None,
        typer.Option(
            "--opponent", help="One opponent's rating; repeat once per game.", show_default=False
        ),
    ] = None,
    rating_list: Annotated[
        str, typer.Option("--list", "-l", metavar=LIST_CHOICES, help="standard, rapid or blitz.")
    ] = "standard",
    period: Annotated[
        str | None,
        typer.Option(
            "--period",
            help="The list to reach it on, YYYY-MM (default: the next list after --start).",
            show_default=False,
        ),
    ] = None,
    start: Annotated[
        str | None,
        typer.Option(
            "--start",
            help="The tournament's start date, YYYY-MM-DD (default: today).",
            show_default=False,
        ),
    ] = None,
    k: Annotated[
        int | None,
        typer.Option(
            "--k",
            help="What if K were this (10, 20 or 40: a K the list's rules know).",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The points needed in a tournament to reach RATING on the next list.

    Counts the games already played in that list's period (their changes, and their number
    for K and the 700 rule). The opponents are N games against an average (--opponents AVG
    --games N) or their ratings (--opponent R, once per game). Says when RATING is out of
    reach, and the most the tournament can give. --k asks what if K were another (the
    700 rule still applies).

    Example: tracker target 1900 --opponents 1850 --games 9

    What if K were 40: tracker target 1900 --opponents 1850 --games 9 --k 40
    """
    from tracker.app.players import resolve_player
    from tracker.app.target import TargetQuestion, opponents_from
    from tracker.app.target import target as answer

    rl = RatingList.parse(rating_list)
    opps = opponents_from(games, average, opponent or [])
    day = _date(start) if start else None
    when = period_option(period)
    question = TargetQuestion.of(rating, rl, opps, day, when, k)
    with store_for(db) as store:
        who = resolve_player(store, player)
        result = answer(store, who, question)
    from tracker.reports.target import (
        CSV_COLUMNS,
        OUT_OF_REACH,
        target_csv_rows,
        target_json,
        target_lines,
        target_table,
    )

    if fmt is Format.json:
        emit_json(target_json(result, who.name, who.command_name))
    elif fmt is Format.csv:  # a row per score: the table's rows
        emit_csv(CSV_COLUMNS, target_csv_rows(result))
    else:
        echo_lines(target_lines(result, who.name, who.command_name))
        headers, cells, right = target_table(result)
        print_table(headers, cells, right)
        if result.points_needed is None:
            err.print(OUT_OF_REACH, markup=False)


def _date(text: str) -> dt.date:
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise BadInput(f"--start {text!r} is not a date of the form YYYY-MM-DD") from None
    return in_years(day, f"--start {text!r}")
