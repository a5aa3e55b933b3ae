"""`tracker target`: the points a tournament needs to reach a rating on the next list.
Registered by tracker.cli.check (the module `tracker.cli.COMMANDS` names for it)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated

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

if TYPE_CHECKING:
    from tracker.app.target import TargetOut


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
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The points needed in a tournament to reach RATING on the next list.

    Counts the games already played in that list's period (their changes, and their number
    for K and the 700 rule). The opponents are N games against an average (--opponents AVG
    --games N) or their ratings (--opponent R, once per game). Says when RATING is out of
    reach, and the most the tournament can give.

    Example: tracker target 1900 --opponents 1850 --games 9
    """
    from tracker.app.players import resolve_player
    from tracker.app.target import TargetQuestion, opponents_from
    from tracker.app.target import target as answer

    rl = RatingList.parse(rating_list)
    opps = opponents_from(games, average, opponent or [])
    day = _date(start) if start else None
    when = period_option(period)
    question = TargetQuestion.of(rating, rl, opps, day, when)
    with store_for(db) as store:
        who = resolve_player(store, player)
        result = answer(store, who, question)
    if fmt is Format.json:
        emit_json(_target_json(result, who.name, who.command_name))
    elif fmt is Format.csv:  # a row per score: the table's rows
        emit_csv(
            ("points", "games", "change_exact", "rating_after", "needed"),
            [
                {
                    "points": _pts(s.points),
                    "games": result.games,
                    "change_exact": None if s.change_exact is None else str(s.change_exact),
                    "rating_after": s.rating_after,
                    "needed": "yes" if s.points == result.points_needed else "no",
                }
                for s in result.steps
            ],
        )
    else:
        _print_target(result, who.name, who.command_name)


def _date(text: str) -> dt.date:
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise BadInput(f"--start {text!r} is not a date of the form YYYY-MM-DD") from None
    return in_years(day, f"--start {text!r}")


def _pts(x: Fraction | None) -> str | None:
    from tracker.app.target import points_text

    return None if x is None else points_text(x)


def _target_json(t: TargetOut, name: str, who: str = "ID") -> dict[str, object]:
    from tracker.reports.words import assumed_text, assumption_command

    return {
        "player": name,
        "list": str(t.rating_list),
        "period": str(t.period),
        "target": t.target,
        "rating_before": t.rating_before,
        "games_already": t.games_already,
        "games": t.games,
        "opponents": list(t.opponents),
        "expected": None if t.rating_before is None else str(t.expected),
        "k": t.k,
        "k_reason": t.k_reason,
        "reachable": t.reachable,
        "points_needed": _pts(t.points_needed),
        "rating_needed": t.rating_needed,
        "min_rating": t.min_rating,
        "max_rating": t.max_rating,
        "summary": t.summary(),
        # what the answer rests on that nobody recorded (as `history --format json` says it)
        "assumptions": [
            {
                "fact": str(a.fact),
                "assumed": assumed_text(a),
                "command": assumption_command(a, who),
            }
            for a in t.assumptions
        ],
        "list_assumed_games": t.list_assumed_games,
        "last_games": None if t.last_games is None else str(t.last_games),
        "last_official": None if t.last_official is None else str(t.last_official),
        "last_data": None if t.last_data is None else str(t.last_data),
        "months_since_data": t.months_since_data,
        "gap": gap_text(t, who),
        "steps": [
            {
                "points": _pts(s.points),
                "change_exact": None if s.change_exact is None else str(s.change_exact),
                "rating_after": s.rating_after,
            }
            for s in t.steps
        ],
    }


def gap_text(t: TargetOut, who: str = "ID") -> str | None:
    """What the answer rests on when the last data is GAP_MONTHS or more before the target
    list (`who`: how a command names the player), else None."""
    from tracker.reports.text import months_text

    months = t.data_gap
    if months is None:
        return None
    what = (
        f"the last games are on the {t.last_games} list"
        if t.last_games is not None and t.last_games == t.last_data
        else f"the last official rating is of the {t.last_official} list"
    )
    span = months_text(months)
    before = "unrated" if t.rating_before is None else str(t.rating_before)
    how = (
        "carried over from then"
        if t.rating_at_last_data == t.rating_before
        else f"the {t.rating_at_last_data} of then with FIDE's one-off adjustments since"
    )
    return (
        f"{what}, {span} before the {t.period} list: the rating before ({before}) "
        f"is {how}, assumed (no games since, no later official rating); record the "
        f"latest official rating with `tracker official add {who} --list "
        f"{t.rating_list} --period YYYY-MM --rating R` and import the "
        "games since"
    )


def _print_target(t: TargetOut, name: str, who: str = "ID") -> None:
    from tracker.reports.words import LIST_ASSUMED_HOW, assumption_text

    before = "unrated" if t.rating_before is None else str(t.rating_before)
    k = "-" if t.k is None else str(t.k)
    k_said = f"K {k} ({t.k_reason}" + ("; assumed, below)." if t.assumptions else ").")
    lines = [
        f"{name}, {t.rating_list} list {t.period}: rating before the period {before}; "
        f"{t.games_already} game{'s' if t.games_already != 1 else ''} already in the "
        f"period; {k_said}"
    ]
    lines += [f"  {assumption_text(a, who)}" for a in t.assumptions]
    if t.list_assumed_games:
        n = t.list_assumed_games
        lines.append(
            f"  {n} of the games already in the period {'has' if n == 1 else 'have'} no time "
            f"control: put on this list {LIST_ASSUMED_HOW}"
        )
    gap = gap_text(t, who)
    if gap is not None:
        lines.append(f"  Assumed: {gap}.")
    opps = set(t.opponents)
    games = f"{t.games} game{'' if t.games == 1 else 's'}"
    against = (
        f"{games} against {t.opponents[0]}"
        if len(opps) == 1
        else f"{games} against {', '.join(str(r) for r in t.opponents)}"
    )
    first = t.rating_before is None
    lines.append(
        f"New tournament: {against} "
        + (
            "(a first rating: the games are pooled with those already played)."
            if first
            else f"(expected score {t.expected})."
        )
    )
    lines.append(t.summary())
    echo_lines(lines)
    cells = [
        [
            f"{_pts(s.points)}/{t.games}",
            *([] if first else [str(s.change_exact) if s.change_exact is not None else ""]),
            "unrated" if s.rating_after is None else str(s.rating_after),
            "<- needed" if s.points == t.points_needed else "",
        ]
        for s in t.steps
    ]
    headers = ["score", *([] if first else ["period change (exact)"]), "rating", "target"]
    print_table(headers, cells, set(range(len(headers) - 1)))
    if t.points_needed is None:
        err.print("The target is out of reach in this tournament.", markup=False)
