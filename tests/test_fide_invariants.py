"""Hypothesis invariants of the rules engine (shared/DESIGN.md, issue 2)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tracker.fide import (
    GameIn,
    PeriodOut,
    PlayerFacts,
    TournamentIn,
    expected_score,
    rate_period,
)
from tracker.model import RatingList

SCORES = st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)])
RATINGS = st.integers(1000, 2900)
# dates with different cap rules: 350 (2008), every game, once per tournament, 2650 rule
DATES = st.sampled_from(
    [dt.date(2008, 10, 1), dt.date(2015, 5, 1), dt.date(2023, 5, 1), dt.date(2025, 11, 1)]
)
LISTS = st.sampled_from(list(RatingList))


@given(st.integers(-3000, 3000))
def test_table_sums_to_one(d: int) -> None:
    assert expected_score(d) + expected_score(-d) == 1


@pytest.mark.slow  # property: Hypothesis, 100-200 examples of whole periods
@settings(max_examples=200, deadline=None)
@given(RATINGS, RATINGS, st.lists(SCORES, min_size=1, max_size=1), DATES, LISTS)
def test_both_sides_of_a_game_sum_to_one(
    a: int, b: int, scores: list[Fraction], on: dt.date, rl: RatingList
) -> None:
    # equal treatment: both below 2650 (from Oct 2025 a 2650+ player uses the true D while
    # the other side is capped, by design) and nobody excluded by the 600 rule
    a, b = min(a, 2649), min(b, 2649)
    if rl is not RatingList.STANDARD and on < dt.date(2012, 1, 1):
        rl = RatingList.STANDARD
    assume(not (rl is not RatingList.STANDARD and abs(a - b) >= 600 and max(a, b) > 2600))

    def pd(own: int, opp: int) -> Fraction:
        t = TournamentIn(on, own, (GameIn(opp, scores[0]),))
        out = rate_period(own, [t], rating_list=rl, list_date=on, facts=PlayerFacts(), k=20)
        e = out.tournaments[0].games[0].expected
        assert e is not None
        return Fraction(e)

    assert pd(a, b) + pd(b, a) == 1


def _tournaments(draw: st.DrawFn) -> list[TournamentIn]:
    n = draw(st.integers(1, 3))
    out = []
    for i in range(n):
        games = draw(
            st.lists(st.tuples(st.one_of(st.none(), RATINGS), SCORES), min_size=1, max_size=8)
        )
        start = draw(DATES)
        out.append(
            TournamentIn(start, draw(RATINGS), tuple(GameIn(r, s) for r, s in games), f"t{i}")
        )
    return out


tournaments = st.composite(_tournaments)


def _december(rating: int, ts: list[TournamentIn]) -> PeriodOut:
    """The standard list of December 2025 for a player of 10 rated games."""
    return rate_period(
        rating,
        ts,
        rating_list=RatingList.STANDARD,
        list_date=dt.date(2025, 12, 1),
        facts=PlayerFacts(rated_games=10),
    )


@pytest.mark.slow  # property: Hypothesis, 100-200 examples of whole periods
@settings(max_examples=100, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False), RATINGS)
def test_order_of_games_does_not_matter(ts: list[TournamentIn], rnd: object, rating: int) -> None:
    import random

    assert isinstance(rnd, random.Random)
    shuffled = []
    for t in ts:
        games = list(t.games)
        rnd.shuffle(games)
        shuffled.append(TournamentIn(t.start, t.own_rating, tuple(games), t.label))
    rnd.shuffle(shuffled)
    a = _december(rating, ts)
    b = _december(rating, shuffled)
    assert (a.k, a.change_exact, a.change, a.rating_after, a.points, a.expected) == (
        b.k,
        b.change_exact,
        b.change,
        b.rating_after,
        b.points,
        b.expected,
    )


@pytest.mark.slow  # property: Hypothesis, 100-200 examples of whole periods
@settings(max_examples=100, deadline=None)
@given(tournaments(), RATINGS, st.data())
def test_change_is_monotone_in_points(
    ts: list[TournamentIn], rating: int, data: st.DataObject
) -> None:
    # raising one game's score (same games, same K) never lowers the change
    ti = data.draw(st.integers(0, len(ts) - 1))
    gi = data.draw(st.integers(0, len(ts[ti].games) - 1))
    g = ts[ti].games[gi]
    assume(g.score != 1)
    better = list(ts)
    games = list(ts[ti].games)
    games[gi] = GameIn(g.opponent_rating, g.score + Fraction(1, 2))
    better[ti] = TournamentIn(ts[ti].start, ts[ti].own_rating, tuple(games), ts[ti].label)
    a = _december(rating, ts)
    b = _december(rating, better)
    assert b.change_exact >= a.change_exact and b.change >= a.change
