"""FIDE's rating calculator (`tracker calc`), exact, under the edition of the date given.

`calculate(games, ...)` takes plain values (the games as `GameIn` or as `RATING:SCORE`, the
rating or "unrated", the tournament's start, the list that rates it, K or the player facts)
and gives a `CalcOut`: the engine's `PeriodOut` (a rated player, or an unrated rapid/blitz
player rated at the standard rating from Mar 2024) or its `FirstRatingOut` (a first rating),
with the list, the dates and the editions that decided it. The input rules (what is a game,
a K, a birth year; the period must come after the start) raise `BadInput` with the sentence
the command line prints. Nothing here prints, reads a file or a database.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tracker.errors import BadInput
from tracker.fide import (
    FirstRatingOut,
    GameIn,
    PeriodOut,
    PlayerFacts,
    TournamentIn,
    edition_for,
    first_rating,
    one_off_adjustment,
    rate_period,
    standard_seed,
)
from tracker.fide.adjust import Adjustment
from tracker.fide.editions import NEW_PLAYER_GAMES
from tracker.model import MAX_RATING, Period, RatingList
from tracker.periods import default_period, is_list_month

ASSUMED_GAMES = NEW_PLAYER_GAMES
"""Without --rated-games: an established player (at least the games a new player needs)."""
MAX_K = 40
"""The highest K of any edition (older editions and the 700 rule give smaller ones)."""

_OPPONENT = re.compile(r"^\s*(\d{1,4})\s*:\s*(1|1\.0|0|0\.0|0\.5|\.5|1/2|½)\s*$")
_SCORES = {"1": Fraction(1), "1.0": Fraction(1), "0": Fraction(0), "0.0": Fraction(0)}


def parse_opponent(text: str) -> GameIn:
    """`RATING:SCORE` -> a game; anything else is a BadInput that says what to write."""
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
        raise BadInput(f"opponent {text!r} is not RATING:SCORE (for example 1650:0.5)")
    rating = int(m.group(1))
    if not 1 <= rating <= MAX_RATING:
        raise BadInput(f"opponent {text!r}: a rating must be between 1 and {MAX_RATING}")
    score = _SCORES.get(m.group(2), Fraction(1, 2))
    return GameIn(rating, score, label=m.group(1))


def rating_period(period: Period | None, on: dt.date, rl: RatingList) -> Period:
    """The list that rates games of a tournament started on `on` (`period`, else the first
    list after `on` under the era's calendar)."""
    if period is None:
        return default_period(on, rl)
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


def seed_note(rl: RatingList, seed: int) -> str:
    """What calc says when an unrated rapid/blitz player is rated at the standard rating."""
    return (
        f"unrated on the {rl} list: rated at the standard rating {seed} (spec section 4), "
        "the games change it; not a first rating from the games"
    )


def unused_standard_note(rl: RatingList, edition: str) -> str:
    """Why --standard-rating gives no rating to an unrated player on this list and date."""
    if rl == RatingList.STANDARD:
        return "--standard-rating not used: it seeds only rapid and blitz ratings"
    return (
        f"--standard-rating not used: the {edition} regulations give a first rating from "
        "the games (the standard rating is used from the Mar 2024 list on)"
    )


@dataclass(frozen=True)
class CalcOut:
    """What `calculate` found: a period rated (`result`) or a first rating (`first`)."""

    rating_list: RatingList
    on: dt.date  # the tournament's start
    period: Period  # the list that rates it
    editions: str  # the edition's name, or the per-game and the period editions' names
    result: PeriodOut | None = None  # a rated (or seeded) player's period
    adjusted: tuple[int, Adjustment] | None = None  # the list's one-off adjustment: rating, what
    seed: int | None = None  # rated at this standard rating (unrated on rapid/blitz)
    first: FirstRatingOut | None = None  # an unrated player's first rating
    note: str | None = None  # the seed said, or why --standard-rating was not used


def calculate(
    games: Sequence[GameIn | str],
    *,
    rating: int | None = None,
    unrated: bool = False,
    on: dt.date | None = None,
    period: Period | None = None,
    rating_list: RatingList = RatingList.STANDARD,
    k: int | None = None,
    birth_year: int | None = None,
    rated_games: int | None = None,
    ever_2400: bool = False,
    reached_2300: bool = False,
    period_games: int | None = None,
    standard_rating: int | None = None,
) -> CalcOut:
    """Rate `games` (a `GameIn` each, or its `RATING:SCORE` text) as FIDE does.

    `on` is the tournament's start (default: the month before `period` when only that is
    given, else today): it picks the per-game rules. `period` is the list that rates the
    games (default: the first list after `on`): K, the 700 rule, the floor, first ratings and
    the one-off adjustments. K is `k`, else derived from the facts; without `rated_games`
    an established player is assumed (`ASSUMED_GAMES`), and K's reason says so.
    """
    rl = rating_list
    if on is None:
        # only the list given: the tournament starts in the month before it
        on = period.prev().list_date if period is not None else dt.date.today()
    start_edition = edition_for(rl, on)  # refuses dates before 2008, with the reason
    period = rating_period(period, on, rl)
    list_date = period.list_date
    edition = edition_for(rl, list_date)
    names = _editions(start_edition.name, edition.name)
    played = tuple(g if isinstance(g, GameIn) else parse_opponent(g) for g in games)
    if not played:
        raise BadInput("give at least one opponent as RATING:SCORE (for example 1650:0.5)")
    _check_values(k, period_games, rated_games, birth_year, on.year, standard_rating)
    tournament = TournamentIn(on, rating, played, label="the games given")
    seed: int | None = None
    if unrated:
        if rating is not None:
            raise BadInput("give either --rating or --unrated, not both")
        # Spec section 4: unrated in rapid/blitz with a standard rating (from Mar 2024)
        # -> rated at it, and the games are rated from it as the replay does.
        seed = standard_seed(rl, list_date, standard_rating)
        if seed is None:
            if k is not None or period_games is not None:
                raise BadInput("--k and --period-games do not apply to a first rating (--unrated)")
            first = first_rating([tournament], rating_list=rl, list_date=list_date)
            note = None if standard_rating is None else unused_standard_note(rl, edition.name)
            return CalcOut(rl, on, period, names, first=first, note=note)
        rating = seed
    if rating is None:
        raise BadInput("give your rating with --rating N, or --unrated for a first rating")
    if not 1 <= rating <= MAX_RATING:
        raise BadInput(f"--rating {rating}: a rating must be between 1 and {MAX_RATING}")
    facts = _facts(birth_year, rated_games, ever_2400, reached_2300, seeded=seed is not None)
    result = rate_period(
        rating,
        [tournament],
        rating_list=rl,
        list_date=list_date,
        facts=facts,
        k=k,
        period_games=period_games,
        standard_rating=standard_rating,
        seeded=seed is not None,
    )
    adjusted = (
        one_off_adjustment(rl, list_date, result.rating_after, standard_rating=standard_rating)
        if result.rating_after is not None
        else None
    )
    return CalcOut(
        rl,
        on,
        period,
        names,
        result=result,
        adjusted=adjusted,
        seed=seed,
        note=None if seed is None else seed_note(rl, seed),
    )


def _editions(start: str, period: str) -> str:
    """The edition's name, or the per-game and the period editions' names when they differ."""
    return start if start == period else f"per-game rules {start}, period rules {period}"


def _check_values(
    k: int | None,
    period_games: int | None,
    rated_games: int | None,
    birth_year: int | None,
    year: int,
    standard_rating: int | None,
) -> None:
    """The options' values, each refused with what it may be (`year`: the tournament's)."""
    if k is not None and not 1 <= k <= MAX_K:
        raise BadInput(
            f"--k must be a positive whole number up to {MAX_K} (usually 40, "
            f"20 or 10; 30, 25 or 15 in older editions; less by the 700 rule), "
            f"not {k}"
        )
    if period_games is not None and period_games < 0:
        raise BadInput("--period-games must be zero or more")
    if rated_games is not None and rated_games < 0:
        raise BadInput("--rated-games must be zero or more")
    if birth_year is not None and not 1900 <= birth_year <= year:
        raise BadInput(f"--birth-year {birth_year} is not a plausible birth year")
    if standard_rating is not None and not 1 <= standard_rating <= MAX_RATING:
        raise BadInput(
            f"--standard-rating {standard_rating}: a rating must be between 1 and {MAX_RATING}"
        )


def _facts(
    birth_year: int | None,
    rated_games: int | None,
    ever_2400: bool,
    reached_2300: bool,
    *,
    seeded: bool,
) -> PlayerFacts:
    """The facts K is derived from: without --rated-games an established player, but
    unrated on this list (seeded) no game completed on it unless --rated-games says so (the
    replay's recorded games describe the standard list only, PLAYER_FACTS_LISTS)."""
    assumed = 0 if seeded else ASSUMED_GAMES
    return PlayerFacts(
        birth_year=birth_year,
        rated_games=assumed if rated_games is None else rated_games,
        ever_2400=ever_2400,
        reached_2300=reached_2300,
        games_assumed=rated_games is None,
    )
