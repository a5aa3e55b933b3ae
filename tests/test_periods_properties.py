"""Hypothesis invariants of the replay: it is deterministic, and neither the order of the
games nor the order of the tournaments within a period changes any number."""

from __future__ import annotations

import datetime as dt
import random
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tracker.model import OfficialEntry, Period, RatingList
from tracker.periods import GameFact, PlayerInfo, ReplayInputs, TournamentFact, replay
from tracker.reports import history_json, history_rows

STD = RatingList.STANDARD
SCORES = st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)])

# Tournaments in Sep-Dec 2025 (3 Oct-Jan lists), games with rated/unrated opponents.
tournament = st.tuples(
    st.integers(min_value=0, max_value=100),  # start: days after 1 Sep 2025
    st.integers(min_value=0, max_value=9),  # length in days
    st.lists(
        st.tuples(st.one_of(st.none(), st.integers(1400, 2700)), SCORES, st.booleans()),
        min_size=1,
        max_size=8,
    ),
)


# A tournament drawn: (start offset, length in days, [(opponent's rating, score, rated)]).
Spec = tuple[int, int, list[tuple[int | None, Fraction, bool]]]


def _season(
    specs: list[Spec],
) -> tuple[list[GameFact], list[TournamentFact]]:
    games: list[GameFact] = []
    ts: list[TournamentFact] = []
    base = dt.date(2025, 9, 1)
    for tid, (offset, length, gs) in enumerate(specs, start=1):
        start = base + dt.timedelta(days=offset)
        ts.append(
            TournamentFact(tid, f"T{tid}", start=start, end=start + dt.timedelta(days=length))
        )
        for opp, score, rated in gs:
            n = len(games) + 1
            games.append(
                GameFact(
                    n,
                    tid,
                    start,
                    str(n),
                    True,
                    1000 + n,
                    f"O{n}",
                    None,
                    opp,
                    "*",
                    score,
                    STD,
                    rated,
                    None if rated else "forfeit",
                )
            )
    return games, ts


def _run(
    games: list[GameFact], ts: list[TournamentFact], rating: int | None
) -> list[dict[str, object]]:
    official = [] if rating is None else [OfficialEntry(1, STD, Period(2025, 8), rating, k=20)]
    rp = replay(ReplayInputs(STD, games, ts, official, PlayerInfo(birth_year=1990, rated_games=50)))
    return [history_json(r) for r in history_rows(rp)]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(tournament, min_size=1, max_size=5),
    st.one_of(st.none(), st.integers(1400, 2800)),
    st.randoms(use_true_random=False),
)
def test_order_within_a_period_does_not_matter(
    specs: list[Spec], rating: int | None, rnd: random.Random
) -> None:
    games, ts = _season(specs)
    expected = _run(games, ts, rating)
    assert _run(games, ts, rating) == expected  # deterministic
    shuffled_games = games[:]
    rnd.shuffle(shuffled_games)
    shuffled_ts = ts[:]
    rnd.shuffle(shuffled_ts)
    assert _run(shuffled_games, shuffled_ts, rating) == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(tournament, min_size=1, max_size=5), st.integers(1500, 2600), st.integers(0, 2))
def test_an_official_entry_equal_to_the_replay_changes_nothing(
    specs: list[Spec], rating: int, pick: int
) -> None:
    # Re-anchoring on a published rating that equals the replayed one is a no-op for every
    # later period.
    games, ts = _season(specs)
    base = [OfficialEntry(1, STD, Period(2025, 8), rating, k=20)]
    info = PlayerInfo(birth_year=1990, rated_games=50)
    first = replay(ReplayInputs(STD, games, ts, base, info))
    rated = [r for r in first.rows if r.out is not None and r.replayed is not None]
    assume(rated)
    row = rated[min(pick, len(rated) - 1)]
    extra = OfficialEntry(1, STD, row.period, row.replayed)
    second = replay(ReplayInputs(STD, games, ts, [*base, extra], info))
    later = [(r.period, r.replayed, r.change_exact) for r in first.rows if r.period > row.period]
    again = [(r.period, r.replayed, r.change_exact) for r in second.rows if r.period > row.period]
    assert later == again
