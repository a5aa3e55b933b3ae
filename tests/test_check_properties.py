"""Invariants of `reconcile` (Hypothesis): official entries equal to the replay's own numbers
all match; moving one of them makes that period the first to differ, with a cause listed."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.check import DIFFERS, MATCH, START, reconcile
from tracker.model import OfficialEntry, Period, RatingList
from tracker.periods import GameFact, PlayerInfo, ReplayInputs, TournamentFact, replay

STD = RatingList.STANDARD
SCORES = (Fraction(0), Fraction(1, 2), Fraction(1))
RESULTS = {Fraction(1): "1-0", Fraction(1, 2): "1/2-1/2", Fraction(0): "0-1"}

season = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=9),  # month after Jan 2025 the tournament ends in
        st.lists(
            st.tuples(st.integers(min_value=1400, max_value=2300), st.sampled_from(SCORES)),
            min_size=1,
            max_size=6,
        ),
    ),
    min_size=1,
    max_size=5,
)


def _inputs(
    spec: list[tuple[int, list[tuple[int, Fraction]]]], start: int, official: list[OfficialEntry]
) -> ReplayInputs:
    games: list[GameFact] = []
    tournaments: list[TournamentFact] = []
    for tid, (month, gs) in enumerate(spec, 1):
        day = dt.date(2025, 2 + month, 5)
        tournaments.append(TournamentFact(id=tid, name=f"T{tid}", start=day, end=day))
        for opp, score in gs:
            gid = len(games) + 1
            games.append(
                GameFact(
                    id=gid,
                    tournament_id=tid,
                    date=day,
                    round=str(gid),
                    white=True,
                    opponent_id=1000 + gid,
                    opponent=f"O{gid}",
                    own_elo=None,
                    opponent_elo=opp,
                    result=RESULTS[score],
                    score=score,
                    rating_list=STD,
                )
            )
    anchor = OfficialEntry(1, STD, Period(2025, 1), start, k=20)
    return ReplayInputs(
        STD, games, tournaments, [anchor, *official], PlayerInfo(birth_year=1980, rated_games=200)
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=season,
    start=st.integers(min_value=1500, max_value=2200),
    which=st.integers(min_value=0, max_value=20),
    shift=st.sampled_from((-3, -1, 1, 5)),
)
def test_own_numbers_match_and_one_moved_entry_differs(
    spec: list[tuple[int, list[tuple[int, Fraction]]]], start: int, which: int, shift: int
) -> None:
    rows = [
        r
        for r in replay(_inputs(spec, start, [])).rows
        if r.period > Period(2025, 1) and r.replayed is not None
    ]
    own = [OfficialEntry(1, STD, r.period, r.replayed, games=r.games) for r in rows]
    report = reconcile(_inputs(spec, start, own))
    assert report.all_match
    assert [r.status for r in report.rows] == [START] + [MATCH] * len(own)

    moved = own[which % len(own)]
    rated = [
        e
        if e is not moved
        else OfficialEntry(1, STD, e.period, (e.rating or 0) + shift, games=e.games)
        for e in own
    ]
    report = reconcile(_inputs(spec, start, rated))
    # The moved period differs; the later ones build on the published (moved) rating, as
    # FIDE's do, so they may differ too; none before it does.
    differing = [r for r in report.rows if r.status == DIFFERS]
    assert differing and differing[0].period == moved.period
    assert differing[0].difference == -shift
    assert differing[0].causes
