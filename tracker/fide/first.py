"""First ratings of unrated players (spec section 4), under the edition of the list date."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from tracker.fide import policies
from tracker.fide.editions import Edition, FirstFormula, edition_for
from tracker.fide.period import EngineReason, EngineWhy, TournamentIn, check_score
from tracker.fide.rounding import round_change, to_decimal
from tracker.fide.tables import dp_for
from tracker.model import Period, RatingList


@dataclass(frozen=True)
class OutsideWindow:
    """The tournament started on `start`, before the first rating's window of `months`
    months (from `since`)."""

    start: dt.date
    months: int
    since: dt.date


@dataclass(frozen=True)
class AfterList:
    """The tournament started on `start`, after the list date."""

    start: dt.date


@dataclass(frozen=True)
class FewOpponents:
    """`count` rated opponents in the event, `needed` in each event."""

    count: int
    needed: int


@dataclass(frozen=True)
class FewPoints:
    """`points` against rated opponents in the event, at least `needed` in each event."""

    points: Fraction
    needed: Fraction


@dataclass(frozen=True)
class FirstEventShort:
    """`points` in the first event (0: the zero score of the first event), at least
    `needed` there."""

    points: Fraction
    needed: Fraction


Ignored = OutsideWindow | AfterList | FewOpponents | FewPoints | FirstEventShort
"""Why a tournament is left out of a first rating (values `tracker.reports` words)."""


@dataclass(frozen=True)
class FirstRatingOut:
    rating: int | None  # None: no rating published yet
    reason: EngineReason | None  # why no rating, or another than computed (None: none)
    average: Decimal | None  # Ra
    games: int
    points: Fraction
    used_tournaments: tuple[str, ...]
    ignored: tuple[str, ...]  # labels (zero first event, outside the window)
    unrounded: Decimal | None = None  # Ru before rounding and the cap
    p: Fraction | None = None  # the fractional score used
    ignored_reasons: tuple[Ignored, ...] = ()  # why, one per label of `ignored`, same order


def window_start(list_date: dt.date, months: int) -> dt.date:
    """The earliest tournament start pooled for a first rating on the list of `list_date`."""
    return Period.of(list_date).shift(-months).list_date


def seeds_from_standard(rating_list: RatingList, list_date: dt.date) -> bool:
    """Whether a player unrated on `rating_list` but rated in standard is rated at the standard
    rating on the list of `list_date` (spec section 4: rapid and blitz, from Mar 2024, the
    edition of the two fictitious draws)."""
    rating_list = RatingList(rating_list)
    return (
        rating_list != RatingList.STANDARD
        and edition_for(rating_list, list_date).first_formula is FirstFormula.FICTITIOUS_DRAWS
    )


def standard_seed(
    rating_list: RatingList, list_date: dt.date, standard_rating: int | None
) -> int | None:
    """The rating an unrated rapid/blitz player with a `standard_rating` is rated at in the
    period of `list_date` (spec section 4), or None where the rule does not apply.

    This is not a first rating: the period's games are then rated from it like those of a
    rated player (`rate_period(..., seeded=True)`; for K the seed counts as a rating published
    on the list, `k.seeded_facts`, policy SEED_COUNTS_AS_PUBLISHED_FOR_K), and the one-off
    adjustments of the list apply to the result.
    """
    if standard_rating is None or not seeds_from_standard(rating_list, list_date):
        return None
    return standard_rating


def first_rating(
    tournaments: Sequence[TournamentIn],
    *,
    rating_list: RatingList,
    list_date: dt.date,
) -> FirstRatingOut:
    """The first rating an unrated player would get on the list of `list_date`.

    Pools the games against rated opponents of the tournaments that started inside the
    edition's window (26 months back from the list month, policy) and not after the list
    date, less the events the edition disregards (`_events_that_count`: from Jul 2014 a zero
    score in the first event; rapid and blitz before 2022 under 1 point in the first event;
    standard before Jul 2014 every event under 1 point or under 3 rated opponents). From Mar
    2024 Ra includes two fictitious 1800 opponents drawn, Ru is capped at 2200. Before: Ra of
    the rated opponents, +bonus per half point above 50%, dp(p) below. Published only at or
    above the floor. `ignored_reasons` says why each ignored tournament was left out.

    Rapid/blitz from Mar 2024, a player with a standard rating gets no first rating: ask
    `standard_seed` first, then rate the games from the seed with `rate_period(...,
    seeded=True)` (as `tracker calc` and the period replay do).
    """
    rating_list = RatingList(rating_list)
    ed = edition_for(rating_list, list_date)
    earliest = window_start(list_date, ed.first_window_months)
    ignored: list[str] = []
    reasons: list[Ignored] = []
    pool: list[TournamentIn] = []
    for t in sorted(tournaments, key=lambda t: t.start):
        for g in t.games:
            check_score(g.score)
        if t.start < earliest:
            ignored.append(t.label)
            reasons.append(OutsideWindow(t.start, ed.first_window_months, earliest))
            continue
        if t.start > list_date:
            ignored.append(t.label)
            reasons.append(AfterList(t.start))
            continue
        pool.append(t)
    pool = _events_that_count(pool, ed, ignored, reasons)
    opponents = [
        (g.opponent_rating, Fraction(g.score))
        for t in pool
        for g in t.games
        if g.opponent_rating is not None
    ]
    n = len(opponents)
    points = sum((s for _, s in opponents), Fraction(0))
    used = tuple(t.label for t in pool)
    if n < ed.first_min_games:
        return FirstRatingOut(
            None,
            EngineReason(EngineWhy.FIRST_TOO_FEW_GAMES, n, ed.first_min_games),
            None,
            n,
            points,
            used,
            tuple(ignored),
            ignored_reasons=tuple(reasons),
        )
    total = sum(r for r, _ in opponents)
    if ed.first_formula is FirstFormula.FICTITIOUS_DRAWS:
        m = ed.first_fictitious_games
        ra = Fraction(total + m * ed.first_fictitious_rating, n + m)
        p = (points + Fraction(m, 2)) / (n + m)
        ru = ra + dp_for(p)
    else:
        ra = Fraction(total, n)
        p = points / n
        if p >= Fraction(1, 2):
            half_points_above = (points - Fraction(n, 2)) * 2
            ru = ra + Fraction(ed.first_bonus) * half_points_above
        else:
            ru = ra + dp_for(p)
    rating = round_change(ru)
    reason: EngineReason | None = None
    if ed.first_cap is not None and rating > ed.first_cap:
        reason = EngineReason(EngineWhy.FIRST_CAPPED, rating, ed.first_cap)
        rating = ed.first_cap
    out_rating: int | None = rating
    if rating < ed.floor:
        reason = EngineReason(EngineWhy.FIRST_BELOW_FLOOR, rating, ed.floor)
        out_rating = None
    return FirstRatingOut(
        out_rating,
        reason,
        _dec(ra),
        n,
        points,
        used,
        tuple(ignored),
        _dec(ru),
        p,
        tuple(reasons),
    )


def _rated_games(t: TournamentIn) -> tuple[int, Fraction]:
    """(games against rated opponents, points scored in them) of a tournament."""
    rated = [g.score for g in t.games if g.opponent_rating is not None]
    return len(rated), sum((Fraction(s) for s in rated), Fraction(0))


def _events_that_count(
    pool: list[TournamentIn], ed: Edition, ignored: list[str], reasons: list[Ignored]
) -> list[TournamentIn]:
    """The events of the pool (in start order) that count toward a first rating under `ed`
    (spec section 4), the others added to `ignored` with their reason.

    Every event: at least `event_min_rated_opponents` rated opponents and
    `event_min_points` against them (standard before Jul 2014: 3 and 1, "a score of 0 or 1/2
    in an event is disregarded"). The first event: at least `first_event_min_points` (1/2
    from Jul 2014, "a zero score in the first event is disregarded"; 1 on rapid and blitz
    before 2022). Events without a game against a rated opponent are no first event (they
    add nothing). Policy FIRST_EVENT_RULE_REPEATS: a disregarded first event leaves no trace,
    the next one is then the first.
    """
    kept: list[TournamentIn] = []
    first_done = False
    for t in pool:
        n, points = _rated_games(t)
        if n and n < ed.event_min_rated_opponents:
            ignored.append(t.label)
            reasons.append(FewOpponents(n, ed.event_min_rated_opponents))
            continue
        if n and points < ed.event_min_points:
            ignored.append(t.label)
            reasons.append(FewPoints(points, ed.event_min_points))
            continue
        if n and not first_done:
            if points < ed.first_event_min_points:
                ignored.append(t.label)
                reasons.append(FirstEventShort(points, ed.first_event_min_points))
                first_done = not policies.FIRST_EVENT_RULE_REPEATS
                continue
            first_done = True
        kept.append(t)
    return kept


def _dec(x: Fraction) -> Decimal:
    """Exact when possible, else to 28 significant digits (averages like 12510/7)."""
    try:
        return to_decimal(x)
    except ValueError:
        return Decimal(x.numerator) / Decimal(x.denominator)
