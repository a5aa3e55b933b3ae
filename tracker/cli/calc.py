"""`tracker calc`: FIDE's rating calculator, exact, under the edition of the date given."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.options import LIST_CHOICES, Format, FormatOption, in_years
from tracker.cli.output import emit_csv, emit_json, out, print_table
from tracker.errors import BadInput
from tracker.model import (
    MAX_RATING as MAX_RATING,  # calc's limit (the rules: tracker.app.calc)
)
from tracker.model import Period, RatingList
from tracker.reports.calc import (
    GAME_FIELDS,
    PERIOD_HEADERS,
    calc_header,
    first_json,
    first_lines,
    period_cells,
    period_json,
    period_lines,
)

if TYPE_CHECKING:
    from tracker.app.calc import CalcOut

HELP = (
    "Compute a rating change (or a first rating) game by game, exactly as FIDE does.\n\n"
    "Opponents are RATING:SCORE, the score 1, 0.5 (or 1/2) or 0. --date is the tournament's "
    "start (default today): it picks the per-game rules (cap, table). --period is the list "
    "that rates the games (default: the first list after --date, by the closing days of the "
    "era): it picks K, the 700 rule, the floor, first ratings and the one-off adjustments. "
    "K comes from --k or from the player facts.\n\n"
    "Examples:\n\n"
    "  tracker calc --rating 1500 --k 20 1400:1 1600:0.5 1550:0\n\n"
    "  tracker calc --rating 2813 --k 10 --date 2025-11-07 2310:1 2505:0.5\n\n"
    "  tracker calc --rating 1950 --birth-year 2010 --rated-games 12 1800:1\n\n"
    "  tracker calc --unrated 1850:1 1700:0 2010:0.5 1600:1 1750:0\n\n"
    "  tracker calc --unrated --list rapid --standard-rating 1720 1500:1 1700:1"
)


def parse_date(text: str | None) -> dt.date | None:
    """`--date` as a date (None: not given)."""
    if text is None:
        return None
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise BadInput(f"date {text!r} is not YYYY-MM-DD (for example 2025-03-01)") from None
    return in_years(day, f"date {text!r}")


def register(app: typer.Typer) -> None:
    """Add `tracker calc`."""

    @app.command("calc", help=HELP)
    def calc(
        opponents: Annotated[
            list[str], typer.Argument(help="Opponents as RATING:SCORE, e.g. 1650:0.5.")
        ],
        rating: Annotated[
            int | None, typer.Option("--rating", help="Your published rating (Ro).")
        ] = None,
        unrated: Annotated[
            bool, typer.Option("--unrated", help="You are unrated: compute a first rating.")
        ] = False,
        date: Annotated[
            str | None,
            typer.Option(
                "--date",
                help="Tournament start (YYYY-MM-DD): per-game rules and ratings; default today.",
            ),
        ] = None,
        period_text: Annotated[
            str | None,
            typer.Option(
                "--period",
                help="The list that rates the games (YYYY-MM): K, floor, first ratings, "
                "one-off adjustments; default: the first list after --date.",
            ),
        ] = None,
        rating_list: Annotated[
            str,
            typer.Option("--list", "-l", metavar=LIST_CHOICES, help="standard, rapid or blitz."),
        ] = "standard",
        k: Annotated[
            int | None, typer.Option("--k", help="K to use, 1 to 40 (else derived from the facts).")
        ] = None,
        birth_year: Annotated[
            int | None, typer.Option("--birth-year", help="Birth year (junior K).")
        ] = None,
        rated_games: Annotated[
            int | None,
            typer.Option(
                "--rated-games", help="Rated games completed before (default: 30 or more)."
            ),
        ] = None,
        ever_2400: Annotated[
            bool, typer.Option("--ever-2400", help="A published rating of 2400+ ever.")
        ] = False,
        reached_2300: Annotated[
            bool, typer.Option("--reached-2300", help="Your rating has reached 2300.")
        ] = False,
        period_games: Annotated[
            int | None,
            typer.Option(
                "--period-games",
                help="All your rated games in the period (700 rule), if more than listed.",
            ),
        ] = None,
        standard_rating: Annotated[
            int | None,
            typer.Option(
                "--standard-rating",
                help="Your standard rating (rapid/blitz: the Oct 2022 raise; with --unrated "
                "from Mar 2024, you are rated at it and the games change it).",
            ),
        ] = None,
        fmt: FormatOption = Format.table,
    ) -> None:
        from tracker.app.calc import calculate

        if date is None and period_text is not None:
            on, period = None, Period.parse(period_text)
        else:
            on, period = parse_date(date), None
        rl = RatingList.parse(rating_list)
        if period is None and period_text is not None:
            period = Period.parse(period_text)
        done = calculate(
            opponents,
            rating=rating,
            unrated=unrated,
            on=on,
            period=period,
            rating_list=rl,
            k=k,
            birth_year=birth_year,
            rated_games=rated_games,
            ever_2400=ever_2400,
            reached_2300=reached_2300,
            period_games=period_games,
            standard_rating=standard_rating,
        )
        if done.first is not None:
            _show_first(done, fmt)
        else:
            _show_period(done, fmt)


def _show_period(done: CalcOut, fmt: Format) -> None:
    data = period_json(done)
    if fmt is Format.json:
        emit_json(data)
        return
    if fmt is Format.csv:
        emit_csv(["#", *GAME_FIELDS], [{"#": i, **g} for i, g in enumerate(data["games"], 1)])
        return
    if done.note is not None:
        out.print(done.note)
    print_table(PERIOD_HEADERS, period_cells(done), range(8), title=calc_header(done))
    for line in period_lines(done):
        out.print(line)


def _show_first(done: CalcOut, fmt: Format) -> None:
    if fmt is Format.json:
        emit_json(first_json(done))
        return
    if fmt is Format.csv:  # one row: the first rating and what it came from
        data = first_json(done)
        emit_csv(
            list(data), [{k: "; ".join(v) if isinstance(v, list) else v for k, v in data.items()}]
        )
        return
    for line in first_lines(done):
        out.print(line)
