"""`tracker players`, `tracker player merge|unmerge|set`: list the players, say that two
spellings are one person (or take back such a merge), record the facts that decide K or mark
the player you track."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.options import DEFAULT_DB, DbOption, Format, FormatOption, store_for
from tracker.cli.output import emit_csv, emit_json, err, out, print_table
from tracker.errors import BadInput
from tracker.model import RatingList

if TYPE_CHECKING:
    pass


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("players")(players_command)
    player = typer.Typer(
        help="Tell the tracker about a player: merge spellings (or undo a merge), set facts.",
        no_args_is_help=True,
    )
    player.command("merge")(merge_command)
    player.command("unmerge")(unmerge_command)
    player.command("set")(set_command)
    app.add_typer(player, name="player")


PLAYER_COLUMNS = ("id", "name", "fide_id", "me", *RatingList, "first", "last", "aliases")
"""`tracker players --format csv`: the fields of its JSON, the games per list in a column
each, the aliases joined by "; "."""


def players_command(
    search: Annotated[
        str | None,
        typer.Option(
            "--search",
            "-s",
            help="Only players whose name (or an alias) contains this, or with this FIDE ID.",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = Format.table,
    db: DbOption = DEFAULT_DB,
) -> None:
    """List players with their FIDE ID, games per list and the dates of their games.

    Examples:

      tracker players --search carlsen

      tracker players --format json
    """
    from tracker.app.players import list_players
    from tracker.reports import NO_WRAP

    store = store_for(db)
    try:
        rows = list_players(store, search)
    finally:
        store.close()
    lists = [str(x) for x in RatingList]
    if fmt is Format.json:
        emit_json(
            [
                {
                    "id": p.id,
                    "name": p.name,
                    "fide_id": p.fide_id,
                    "me": p.is_me,
                    "games": {lst: p.games.get(lst, 0) for lst in lists},
                    "first": _iso(p.first),
                    "last": _iso(p.last),
                    "aliases": list(p.aliases),
                }
                for p in rows
            ]
        )
        return
    if fmt is Format.csv:
        emit_csv(
            PLAYER_COLUMNS,
            [
                {
                    "id": p.id,
                    "name": p.name,
                    "fide_id": p.fide_id,
                    "me": "yes" if p.is_me else "no",
                    **{lst: p.games.get(lst, 0) for lst in lists},
                    "first": _iso(p.first),
                    "last": _iso(p.last),
                    "aliases": "; ".join(p.aliases),
                }
                for p in rows
            ],
        )
        return
    if not rows:
        from tracker.reports.players import no_players_text

        out.print(no_players_text(search), markup=False)
        return
    headers = ["id", "name", "FIDE ID", *lists, "first", "last"]
    cells = [
        [
            str(p.id),
            p.name + (" (me)" if p.is_me else ""),
            str(p.fide_id or "-"),
            *(f"{p.games.get(lst, 0):,}" for lst in lists),
            _iso(p.first) or "-",
            _iso(p.last) or "-",
        ]
        for p in rows
    ]
    right = [0, 2, *range(3, 3 + len(lists))]
    last = len(headers) - 1
    # too wide: the dates of the first and last games go first (names never wrap)
    print_table(headers, cells, right, optional=(last - 1, last), wrap=NO_WRAP)


def _iso(value: Any) -> str | None:
    return None if value is None else str(value.isoformat())


# --- player merge / set -----------------------------------------------------------------


def merge_command(
    keep: Annotated[
        str, typer.Argument(help="The player to keep (FIDE ID or name).", show_default=False)
    ],
    other: Annotated[
        str,
        typer.Argument(
            help="The same person under another spelling: merged into KEEP, then removed.",
            show_default=False,
        ),
    ],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Two spellings, one person: move OTHER's games and spellings to KEEP.

    The tracker never merges players by guesswork; this is how you say they are one.
    Refused when they have different FIDE IDs or played each other. Every merge is
    recorded under a number, and `tracker player unmerge` undoes it.

    Example:

      tracker player merge 1503014 "Carlsen,M"
    """
    from tracker.app.players import merge_players
    from tracker.reports.players import merged_text

    store = store_for(db)
    try:
        done = merge_players(store, keep, other)
    finally:
        store.close()
    out.print(merged_text(done), markup=False, soft_wrap=True)


def unmerge_command(
    player: Annotated[
        str | None,
        typer.Argument(
            help="The player (FIDE ID or name) a merge kept, or the spelling it brought: "
            "the latest merge into that player is undone.",
            show_default=False,
        ),
    ] = None,
    number: Annotated[
        int | None,
        typer.Option(
            "--merge",
            help="The number of the merge to undo (its message said it).",
            show_default=False,
        ),
    ] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Undo a merge: the player merged away comes back with its games, spellings, official
    entries, facts and overrides.

    Give the merge's number (every merge says it), or the player it kept (the spelling of
    the one merged into it picks that merge). Games imported after the merge stay with the
    player kept. Merges into a player merged away since are undone after that one.

    Examples:

      tracker player unmerge --merge 3

      tracker player unmerge "Carlsen,M"
    """
    from tracker.app.players import unmerge_players
    from tracker.reports.players import unmerged_text

    if number is not None and player is not None:
        raise BadInput("give the player or --merge N, not both")
    store = store_for(db)
    try:
        done = unmerge_players(store, number, player)
    finally:
        store.close()
    out.print(unmerged_text(done), markup=False, soft_wrap=True)


MAX_RATED_GAMES = 100_000
"""The most rated games `player set --rated-games` takes (a long career has a few thousand)."""


def set_command(
    player: Annotated[str, typer.Argument(help="FIDE ID or name.", show_default=False)],
    me: Annotated[bool, typer.Option("--me", help="Mark as the player you track.")] = False,
    birth_year: Annotated[
        int | None,
        typer.Option("--birth-year", help="Year of birth (K 40 for juniors).", show_default=False),
    ] = None,
    rated_games: Annotated[
        int | None,
        typer.Option(
            "--rated-games",
            help="Rated games completed before the first game in the database (K 40 until 30).",
            show_default=False,
        ),
    ] = None,
    ever_2400: Annotated[
        bool | None,
        typer.Option(
            "--ever-2400/--no-ever-2400",
            help="Whether the player has ever been rated 2400 (K 10 for life).",
            show_default=False,
        ),
    ] = None,
    fide_id: Annotated[
        int | None, typer.Option("--fide-id", help="The player's FIDE ID.", show_default=False)
    ] = None,
    merge: Annotated[
        bool,
        typer.Option(
            "--merge",
            help="With --fide-id: when another player holds that FIDE ID, they are the same "
            "person: merge this one into them (recorded; `tracker player unmerge` undoes it).",
        ),
    ] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Record facts about a player that decide K, or mark the player you track.

    A FIDE ID another player holds is refused (a typo must not make two people one), unless
    --merge says they are the same person.

    Examples:

      tracker player set "Novak, Jan" --me --birth-year 2009

      tracker player set 1503014 --ever-2400

      tracker player set "Novak,J" --fide-id 99012345 --merge
    """
    from tracker.app.players import set_player
    from tracker.reports.players import bigger_spellings, merged_text, set_lead, set_text

    if merge and fide_id is None:
        raise BadInput("--merge goes with --fide-id: it merges the player into the one who has it")
    facts: dict[str, Any] = {}
    if birth_year is not None:
        facts["birth_year"] = birth_year
    if rated_games is not None:
        if rated_games > MAX_RATED_GAMES:  # (past 64 bits, SQLite cannot even store it)
            raise BadInput(
                f"--rated-games {rated_games:,} is not plausible: give the rated "
                "games completed before the first game in the database, like 45"
            )
        facts["rated_games"] = rated_games
    if ever_2400 is not None:
        facts["ever_2400"] = ever_2400
    if fide_id is not None:
        facts["fide_id"] = fide_id
    if not facts and not me:
        raise BadInput(
            "nothing to set: give --me, --birth-year, --rated-games, "
            "--ever-2400/--no-ever-2400 or --fide-id"
        )
    store = store_for(db)
    try:
        recorded = set_player(store, player, facts, me=me, merge=merge)
    finally:
        store.close()
    ref, done = recorded.player, recorded.merge
    beside = recorded.beside
    bigger = None if beside is None else bigger_spellings(beside, ref, set_lead(ref))
    if done is not None:
        out.print(merged_text(done), markup=False, soft_wrap=True)
    out.print(set_text(ref, facts, me=me), markup=False)
    if bigger is not None:
        err.print(bigger, markup=False, soft_wrap=True)
