"""`tracker event set`: the user's word on a tournament, or on every tournament dated only
by a year (registered on the `event` group by tracker.cli.reports)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from tracker.cli.options import DEFAULT_DB, LIST_CHOICES, DbOption, period_option, store_for
from tracker.cli.output import out
from tracker.errors import BadInput
from tracker.model import RatingList


def event_set(
    tournament: Annotated[
        str | None,
        typer.Argument(
            metavar="[TOURNAMENT]",
            help="The tournament: its id from `event list`, or its name (whole, or a part "
            "only it has); or --year. The name stays when an import is taken out and put "
            "back; the id may not.",
            show_default=False,
        ),
    ] = None,
    year: Annotated[
        int | None,
        typer.Option(
            "--year",
            metavar="YYYY",
            help="Instead of an ID: every tournament dated only by this year (Date tags like "
            "2011.??.??), all at once.",
            show_default=False,
        ),
    ] = None,
    period: Annotated[
        str | None,
        typer.Option(
            "--period", help="Pin to this list month (YYYY-MM), or 'default'.", show_default=False
        ),
    ] = None,
    rating_list: Annotated[
        str | None,
        typer.Option(
            "--list",
            "-l",
            metavar=LIST_CHOICES + "|default",
            help="Rate all its games on this list, or 'default'.",
            show_default=False,
        ),
    ] = None,
    exclude: Annotated[
        bool | None,
        typer.Option(
            "--exclude/--include", help="Mark it never rated (or rated again).", show_default=False
        ),
    ] = None,
    ro: Annotated[
        str | None,
        typer.Option(
            "--ro",
            help="The starting rating FIDE used for the player, or 'none'.",
            show_default=False,
        ),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(
            "--player", help="Whose Ro (--ro); default: the player marked --me.", show_default=False
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Pin --period even to a list dated before the last round the PGN "
            "gives (its dates are wrong and FIDE's page says so).",
        ),
    ] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Record an override for one tournament: the list month it was rated on, its list,
    that it was never rated, or the Ro FIDE's calculation page shows.

    --period takes a list dated after the tournament's last round (a late report can land it
    one or more lists later; no list rates a tournament that was not over); when the PGN's
    dates are wrong and FIDE's page shows an earlier list, --force pins it there anyway.

    --year YYYY instead of an ID settles every tournament dated only by that year (its
    games' Date tags give the year and no month, `2011.??.??`) at once: pins them all to one
    list month, or sets them all aside with --exclude.

    Examples:

      tracker event set 7 --period 2026-01

      tracker event set "Weinviertel Open 2025" --ro 1849

      tracker event set --year 2011 --period 2012-01

      tracker event set --year 2011 --exclude
    """
    kwargs = _override_kwargs(tournament, year, period, rating_list, exclude, ro, player)
    if year is not None:
        _event_set_year(db, year, force, kwargs)
        return
    assert tournament is not None
    _event_set_one(db, tournament, ro, player, force, kwargs)


def _override_kwargs(
    tournament: str | None,
    year: int | None,
    period: str | None,
    rating_list: str | None,
    exclude: bool | None,
    ro: str | None,
    player: str | None,
) -> dict[str, Any]:
    """`event set`'s options checked (a bad value: BadInput) and made the overrides that
    need no database (period, list, excluded); --ro is read against the database."""
    if (tournament is None) == (year is None):
        raise BadInput(
            "give a tournament ID (from `tracker event list`) or --year YYYY, not both"
            if year is not None
            else "give a tournament ID (from `tracker event list`), or --year YYYY for "
            "every tournament dated only by that year"
        )
    if period is None and rating_list is None and exclude is None and ro is None:
        raise BadInput("nothing to set: give --period, --list, --exclude/--include or --ro")
    if year is not None and not 1 <= year <= 9999:
        raise BadInput(f"--year {year} is not the year of a Date tag: give one like 2011")
    if year is not None and (ro is not None or player is not None):
        raise BadInput("--ro is one tournament's: give its ID, not --year")
    kwargs: dict[str, Any] = {}
    if period is not None:
        kwargs["period"] = (
            None if period.strip().lower() == "default" else period_option(period, "--period")
        )
    if rating_list is not None:
        kwargs["rating_list"] = (
            None if rating_list.strip().lower() == "default" else RatingList.parse(rating_list)
        )
    if exclude is not None:
        kwargs["excluded"] = exclude
    return kwargs


def _event_set_one(
    db: str,
    tournament: str,
    ro: str | None,
    player: str | None,
    force: bool,
    kwargs: dict[str, Any],
) -> None:
    """`event set TOURNAMENT`: the overrides of one tournament, --ro for `player` with them."""
    from tracker.app.event_show import find_tournament
    from tracker.app.events import record_override
    from tracker.app.players import resolve_player

    with store_for(db) as store:
        if ro is not None:
            who = resolve_player(store, player)
            if ro.strip().lower() == "none":
                kwargs["ro"] = (who.id, None)
            elif ro.strip().isdigit():
                kwargs["ro"] = (who.id, int(ro))
            else:
                raise BadInput(f"--ro {ro!r} is not a rating: give a number like 1850 or none")
        found = find_tournament(store, tournament)
        change = record_override(store, found.id, force=force, **kwargs)
    from tracker.reports.event import overridden_text

    t = change.tournament
    out.print(overridden_text(t.id, t.name, change.changes), markup=False)


def _event_set_year(db: str, year: int, force: bool, kwargs: dict[str, Any]) -> None:
    """`event set --year`: the same overrides for every tournament dated only by `year`."""
    from tracker.app.events import record_year_override
    from tracker.reports.event import year_overridden_lines

    with store_for(db) as store:
        change = record_year_override(store, year, force=force, **kwargs)
    ts = [(t.id, t.name) for t in change.tournaments]
    for line in year_overridden_lines(year, ts, change.changes):
        out.print(line, markup=False)
