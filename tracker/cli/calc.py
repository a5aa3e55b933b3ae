"""`tracker calc`: FIDE's rating calculator, exact, under the edition of the date given."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.common import (
    LIST_CHOICES,
    Format,
    FormatOption,
    emit_csv,
    emit_json,
    in_years,
    out,
    print_table,
)
from tracker.errors import BadInput
from tracker.model import MAX_RATING, Period, RatingList

if TYPE_CHECKING:
    from tracker.fide import FirstRatingOut, GameIn, PeriodOut

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

_OPPONENT = re.compile(r"^\s*(\d{1,4})\s*:\s*(1|1\.0|0|0\.0|0\.5|\.5|1/2|½)\s*$")
ASSUMED_GAMES = 30  # without --rated-games: an established player
MAX_K = 40  # the highest K of any edition (older editions and the 700 rule give smaller ones)
_SCORES = {"1": Fraction(1), "1.0": Fraction(1), "0": Fraction(0), "0.0": Fraction(0)}


def parse_opponent(text: str) -> GameIn:
    """`RATING:SCORE` -> a game; anything else is a BadInput that says what to write."""
    from tracker.fide import GameIn
    m = _OPPONENT.match(text)
    if not m:
        if ":" in text:
            written_rating, _, written = text.partition(":")
            if not written_rating.strip().isdigit() or len(written_rating.strip()) > 4:
                raise BadInput(
                    f"opponent {text!r}: the rating {written_rating.strip()!r} must be a whole "
                    "number "
                    "(for example 1650:0.5)"
                )
            raise BadInput(
                f"opponent {text!r}: the score {written.strip()!r} must be 1, 0.5 (or 1/2) or 0"
            )
        raise BadInput(
            f"opponent {text!r} is not RATING:SCORE (for example 1650:0.5)"
        )
    rating = int(m.group(1))
    if not 1 <= rating <= MAX_RATING:
        raise BadInput(f"opponent {text!r}: a rating must be between 1 and {MAX_RATING}")
    score = _SCORES.get(m.group(2), Fraction(1, 2))
    return GameIn(rating, score, label=m.group(1))


def parse_date(text: str | None) -> dt.date:
    if text is None:
        return dt.date.today()
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise BadInput(f"date {text!r} is not YYYY-MM-DD (for example 2025-03-01)") from None
    return in_years(day, f"date {text!r}")


def parse_period(text: str | None, on: dt.date, rl: RatingList) -> Period:
    """The list that rates games of a tournament started on `on` (`--period`, else the
    first list after `on` under the era's calendar)."""
    from tracker.periods import default_period, is_list_month
    if text is None:
        return default_period(on, rl)
    period = Period.parse(text)
    if period.list_date <= on:
        raise BadInput(
            f"--period {period} is not after --date {on.isoformat()}: a tournament is rated "
            f"on a list published after it starts (give a later --period, or an earlier --date)"
        )
    if not is_list_month(period, rl):
        raise BadInput(
            f"--period {period}: FIDE published no {rl} list that month "
            f"(lists were not monthly then); give a list month"
        )
    return period


def _dec(x: Decimal | Fraction | None) -> str | None:
    if x is None:
        return None
    if isinstance(x, Fraction):
        x = Decimal(x.numerator) / Decimal(x.denominator)
    return str(x)


def _signed(x: Decimal | int | None) -> str:
    if x is None:
        return ""
    return f"+{x}" if x > 0 else str(x)


def _score(s: Fraction) -> str:
    return {Fraction(1): "1", Fraction(0): "0"}.get(s, "0.5")


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
            str, typer.Option("--list", "-l", metavar=LIST_CHOICES,
                              help="standard, rapid or blitz.")
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
        from tracker.fide import (
            PlayerFacts,
            TournamentIn,
            edition_for,
            first_rating,
            one_off_adjustment,
            rate_period,
            standard_seed,
        )

        if date is None and period_text is not None:
            # only the list given: the tournament starts in the month before it
            on = Period.parse(period_text).prev().list_date
        else:
            on = parse_date(date)
        rl = RatingList.parse(rating_list)
        start_edition = edition_for(rl, on)  # refuses dates before 2008, with the reason
        period = parse_period(period_text, on, rl)
        list_date = period.list_date
        edition = edition_for(rl, list_date)
        names = (edition.name if start_edition.name == edition.name else
                 f"per-game rules {start_edition.name}, period rules {edition.name}")
        games = tuple(parse_opponent(o) for o in opponents)
        if not games:
            raise BadInput("give at least one opponent as RATING:SCORE (for example 1650:0.5)")
        if k is not None and not 1 <= k <= MAX_K:
            raise BadInput(f"--k must be a positive whole number up to {MAX_K} (usually 40, "
                           f"20 or 10; 30, 25 or 15 in older editions; less by the 700 rule), "
                           f"not {k}")
        if period_games is not None and period_games < 0:
            raise BadInput("--period-games must be zero or more")
        if rated_games is not None and rated_games < 0:
            raise BadInput("--rated-games must be zero or more")
        if birth_year is not None and not 1900 <= birth_year <= on.year:
            raise BadInput(f"--birth-year {birth_year} is not a plausible birth year")
        if standard_rating is not None and not 1 <= standard_rating <= MAX_RATING:
            raise BadInput(f"--standard-rating {standard_rating}: a rating must be between 1 "
                           f"and {MAX_RATING}")
        tournament = TournamentIn(on, rating, games, label="the games given")
        seed: int | None = None
        if unrated:
            if rating is not None:
                raise BadInput("give either --rating or --unrated, not both")
            # Spec section 4: unrated in rapid/blitz with a standard rating (from Mar 2024)
            # -> rated at it, and the games are rated from it as the replay does.
            seed = standard_seed(rl, list_date, standard_rating)
            if seed is None:
                if k is not None or period_games is not None:
                    raise BadInput(
                        "--k and --period-games do not apply to a first rating (--unrated)"
                    )
                first = first_rating([tournament], rating_list=rl, list_date=list_date)
                note = (None if standard_rating is None
                        else unused_standard_note(rl, edition.name))
                _show_first(first, rl, on, period, names, fmt, note)
                return
            rating = seed
        if rating is None:
            raise BadInput("give your rating with --rating N, or --unrated for a first rating")
        if not 1 <= rating <= MAX_RATING:
            raise BadInput(f"--rating {rating}: a rating must be between 1 and {MAX_RATING}")
        # Unrated on this list (seeded): no game completed on it unless --rated-games says so
        # (the replay's recorded games describe the standard list only, PLAYER_FACTS_LISTS).
        assumed = 0 if seed is not None else ASSUMED_GAMES
        facts = PlayerFacts(
            birth_year=birth_year,
            rated_games=assumed if rated_games is None else rated_games,
            ever_2400=ever_2400,
            reached_2300=reached_2300,
        )
        result = rate_period(
            rating, [tournament], rating_list=rl, list_date=list_date, facts=facts, k=k,
            period_games=period_games, standard_rating=standard_rating, seeded=seed is not None,
        )
        adjusted = (
            one_off_adjustment(rl, list_date, result.rating_after,
                               standard_rating=standard_rating)
            if result.rating_after is not None
            else None
        )
        if rated_games is None and k is None:
            # Say in K's reason that the games completed were assumed, not given.
            said, meant = ((f"{ASSUMED_GAMES} games completed",
                            f"assumed at least {ASSUMED_GAMES} games completed, give --rated-games")
                           if seed is None else
                           ("(0 completed)",
                            f"(0 completed on the {rl} list, assumed: give --rated-games)"))
            result = replace(result, k_reason=result.k_reason.replace(said, meant))
        _show_period(result, adjusted, on, period, names, fmt, seed)


def seed_note(rl: RatingList, seed: int) -> str:
    """What calc says when an unrated rapid/blitz player is rated at the standard rating."""
    return (f"unrated on the {rl} list: rated at the standard rating {seed} (spec section 4), "
            "the games change it; not a first rating from the games")


def unused_standard_note(rl: RatingList, edition: str) -> str:
    """Why --standard-rating gives no rating to an unrated player on this list and date."""
    if rl == RatingList.STANDARD:
        return "--standard-rating not used: it seeds only rapid and blitz ratings"
    return (f"--standard-rating not used: the {edition} regulations give a first rating from "
            "the games (the standard rating is used from the Mar 2024 list on)")


def _header(rl: RatingList, on: dt.date, period: Period, edition: str) -> str:
    return (f"{rl} list: tournament start {on.isoformat()}, rated on the {period} list "
            f"({edition} regulations)")


GAME_FIELDS = ("opponent_rating", "difference", "difference_used", "capped", "expected",
               "score", "change", "k_change", "counted", "reason")
"""The fields of a game in `tracker calc --format json` (and the columns of its CSV)."""


def period_json(result: PeriodOut, adjusted: tuple[int, str] | None, on: dt.date,
                period: Period, seed: int | None = None) -> dict[str, Any]:
    games = [g for t in result.tournaments for g in t.games]
    return {
        "list": str(result.rating_list),
        "date": on.isoformat(),
        "period": str(period),
        "edition": result.edition,
        "rating_before": result.rating_before,
        "rating_before_source": "given" if seed is None else "standard rating",
        "note": None if seed is None else seed_note(result.rating_list, seed),
        "k": result.k,
        "k_base": result.k_base,
        "k_reason": result.k_reason,
        "games_counted": result.games,
        "points": _dec(result.points),
        "expected": _dec(result.expected),
        "change_exact": _dec(result.change_exact),
        "change": result.change,
        "rating_after": result.rating_after,
        "reason": result.reason,
        "adjusted_rating": adjusted[0] if adjusted else None,
        "adjustment": adjusted[1] if adjusted else None,
        "games": [
            {
                "opponent_rating": g.opponent_rating,
                "difference": g.difference,
                "difference_used": g.difference_used,
                "capped": g.capped,
                "expected": _dec(g.expected),
                "score": _score(g.score),
                "change": _dec(g.change),
                "k_change": _dec(g.k_change),
                "counted": g.counted,
                "reason": g.reason,
            }
            for g in games
        ],
    }


def _show_period(result: PeriodOut, adjusted: tuple[int, str] | None, on: dt.date,
                 period: Period, editions: str, fmt: Format, seed: int | None) -> None:
    data = period_json(result, adjusted, on, period, seed)
    if fmt is Format.json:
        emit_json(data)
        return
    if fmt is Format.csv:
        emit_csv(["#", *GAME_FIELDS], [{"#": i, **g} for i, g in enumerate(data["games"], 1)])
        return
    if seed is not None:
        out.print(seed_note(result.rating_list, seed))
    cells = []
    games = [g for t in result.tournaments for g in t.games]
    for i, g in enumerate(games, 1):
        if not g.counted:
            cells.append([str(i), str(g.opponent_rating or "unrated"), _signed(g.difference),
                          "", "", _score(g.score), f"not rated: {g.reason}", ""])
            continue
        used = _signed(g.difference_used) + (" (capped)" if g.capped else "")
        cells.append([str(i), str(g.opponent_rating), _signed(g.difference), used,
                      _dec(g.expected) or "", _score(g.score), _signed(g.change),
                      _signed(g.k_change)])
    print_table(["#", "Opponent", "D", "D used", "Expected", "Score", "Change", "K x change"],
                cells, range(8), title=_header(result.rating_list, on, period, editions))
    out.print(f"K {result.k} ({result.k_reason})")
    out.print(
        f"games {result.games}, points {_dec(result.points)}, expected {_dec(result.expected)}"
    )
    out.print(f"change {_signed(result.change_exact)} exact, rounded {_signed(result.change)}")
    if result.rating_after is None:
        out.print(f"new rating: unrated ({result.reason})")
    else:
        out.print(f"new rating {result.rating_after}")
        if adjusted:
            out.print(f"then {adjusted[1]}: published {adjusted[0]}")


def first_json(
    first: FirstRatingOut, rl: RatingList, on: dt.date, period: Period, edition: str,
    note: str | None = None,
) -> dict[str, Any]:
    return {
        "list": str(rl),
        "date": on.isoformat(),
        "period": str(period),
        "edition": edition,
        "rating": first.rating,
        "reason": first.reason,
        "average": _dec(first.average),
        "unrounded": _dec(first.unrounded),
        "p": _dec(first.p),
        "games_counted": first.games,
        "points": _dec(first.points),
        "ignored": list(first.ignored),
        "ignored_reasons": list(first.ignored_reasons),
        "note": note,
    }


def _show_first(
    first: FirstRatingOut, rl: RatingList, on: dt.date, period: Period, edition: str,
    fmt: Format, note: str | None,
) -> None:
    if fmt is Format.json:
        emit_json(first_json(first, rl, on, period, edition, note))
        return
    if fmt is Format.csv:  # one row: the first rating and what it came from
        data = first_json(first, rl, on, period, edition, note)
        emit_csv(list(data), [{k: "; ".join(v) if isinstance(v, list) else v
                               for k, v in data.items()}])
        return
    out.print(f"first rating: {_header(rl, on, period, edition)}")
    if note:
        out.print(note)
    out.print(f"games against rated opponents {first.games}, points {_dec(first.points)}")
    for label, why in zip(first.ignored, first.ignored_reasons, strict=True):
        out.print(f"ignored: {label} ({why})")
    if first.average is not None:
        out.print(f"average opponent rating Ra {first.average.quantize(Decimal('0.01'))}")
    if first.p is not None and first.unrounded is not None:
        p = Decimal(first.p.numerator) / Decimal(first.p.denominator)
        ru = first.unrounded.quantize(Decimal("0.01"))
        out.print(f"p {p.quantize(Decimal('0.0001'))}, Ru {ru}")
    if first.rating is None:
        out.print(f"no rating published: {first.reason}")
    else:
        extra = f" ({first.reason})" if first.reason else ""
        out.print(f"first rating {first.rating}{extra}")
