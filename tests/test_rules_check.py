"""`tracker check`'s what-ifs (tracker/check/rules.py) follow the rules the replay followed.

A what-if re-rates a period under another treatment (another K, cap, rounding, a base one
point off); the rating it compares with FIDE's must then go through what the replay's period
went through: the list's one-off adjustment (the Mar 2024 compression, the Oct 2022 raise),
the floor after it, and for a player rated at a standard seed, `rate_period(..., seeded=True)`.
Expected numbers are derived by hand from shared/spec/fide-rules.md and its table 8.1.2
(rows used: 0,3,0.50,0.50 | 392,411,0.92,0.08 | 433,456,0.94,0.06 | 485,517,0.96,0.04).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.builders import Replay
from tracker.check.rules import (
    _published,
    _rate,
    _tournaments_in,
    base_correction_causes,
    cap_causes,
    k_causes,
)
from tracker.fide import policies
from tracker.model import OfficialEntry, Period, RatingList
from tracker.periods import PeriodRow, PlayerInfo
from tracker.reports.causes import cause_text

STD, RAPID = RatingList.STANDARD, RatingList.RAPID
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)
ADULT = PlayerInfo(birth_year=1980, rated_games=100)


def _row(
    rl: RatingList,
    start: str,
    games: list[tuple[int, Fraction]],
    official: list[tuple[str, int, int | None]],
    period: str,
    player: PlayerInfo = ADULT,
    standard: dict[Period, int] | None = None,
) -> PeriodRow:
    """The replayed row of `period` for one tournament played on `start`."""
    season = Replay(player, rl)
    season.event(start, *games, name="T")
    for p, rating, k in official:
        season.off(p, rating, k=k)
    row = season.run(standard=standard).row(Period.parse(period))
    assert row is not None
    return row


def test_cap_cause_on_the_compression_list() -> None:
    # Official Feb 2024 1500, adult (K 20). Tournament started 5 Feb 2024 (the cap once per
    # tournament, Jan 2022 - Feb 2024), rated on the Mar 2024 list: draws vs 1000, 1050,
    # 1050 (D 500, 450, 450).
    # Replay: only the 500 capped (0.92), the 450s true (0.94): -0.42 - 0.44 - 0.44 = -1.30
    # x 20 = -26 -> 1474 -> compressed 1474 + 0.4 x 526 = 1684.4 -> 1684.
    # FIDE 1685 = the cap in every game: 3 x -0.42 = -1.26 x 20 = -25.2 -> -25 -> 1475 ->
    # 1475 + 210 = 1685. The what-if must be compressed too to be recognised.
    row = _row(
        STD,
        "2024-02-05",
        [(1000, HALF), (1050, HALF), (1050, HALF)],
        [("2024-02", 1500, None)],
        "2024-03",
    )
    assert (row.out is not None and row.out.rating_after, row.replayed) == (1474, 1684)
    entry = OfficialEntry(1, STD, Period(2024, 3), 1685)
    causes = cap_causes(row, entry)
    assert [c.reproduces for c in causes] == [True]
    assert "in every game; that gives 1685" in cause_text(causes[0])


def test_k_cause_below_the_floor_before_the_compression_lifts_it() -> None:
    # Official Feb 2024 1300, adult (K 20). Two losses at D 0 on 10 Feb -> Mar 2024 list:
    # K 20: -20 -> 1280 -> 1280 + 0.4 x 720 = 1568 (the replay).
    # K 40: -40 -> 1260 (below the new 1400 floor before the compression) -> 1260 + 296 =
    # 1556 >= 1400: published. FIDE 1556 is K 40; the floor comes after the compression.
    row = _row(
        STD, "2024-02-10", [(1300, ZERO), (1300, ZERO)], [("2024-02", 1300, None)], "2024-03"
    )
    assert row.replayed == 1568
    causes = k_causes(row, OfficialEntry(1, STD, Period(2024, 3), 1556))
    assert [cause_text(c).split(";")[0] for c in causes if c.reproduces] == [
        "K differs: FIDE's rating follows from K 40 (40 x -1.00 = -40.00 -> 1556)"
    ]


def test_base_correction_on_the_compression_list_without_games() -> None:
    # Official Feb 2024 1500, no game in the period: the Mar 2024 list compresses it to
    # 1500 + 200 = 1700. FIDE 1701: from 1501, 1501 + 199.6 = 1700.6 -> 1701.
    row = _row(STD, "2024-03-10", [(1500, ONE)], [("2024-02", 1500, None)], "2024-03")
    assert row.out is None and row.replayed == 1700
    causes = base_correction_causes(row, OfficialEntry(1, STD, Period(2024, 3), 1701))
    assert len(causes) == 1 and "started the 2024-03 period from 1501" in cause_text(causes[0])


def test_published_applies_the_oct_2022_raise_with_the_rows_standard_rating() -> None:
    # Oct 2022, rapid: a rating more than 100 below the standard rating of the same list is
    # raised to standard - 100 (section 2). Standard Oct 2022 1800: 1650 -> 1700; 1700 stays.
    row = _row(
        RAPID,
        "2022-09-10",
        [(1650, ONE)],
        [("2022-09", 1650, None)],
        "2022-10",
        standard={Period(2022, 10): 1800},
    )
    assert row.standard_rating == 1800
    assert (_published(row, 1650), _published(row, 1700), _published(row, 999)) == (
        1700,
        1700,
        1700,
    )


@pytest.mark.parametrize("counts", [True, False])
def test_check_rates_a_seeded_period_as_the_replay_did(
    monkeypatch: pytest.MonkeyPatch, counts: bool
) -> None:
    # Unrated in rapid, standard Oct 2025 2450: rated at 2450 from the Nov 2025 rapid list
    # (section 4). Win vs 2450 (D 0) on 10 Oct 2025. Policy SEED_COUNTS_AS_PUBLISHED_FOR_K:
    # True -> the seed is a published 2400: K 10, +5 -> 2455; False -> K from the rapid
    # facts alone: no rapid game, adult -> K 40, +20 -> 2470. Check's what-ifs (`_rate`) must
    # derive the same K as the replay: without `seeded`, False would give K 10 (the 2450
    # taken as a published rapid rating).
    monkeypatch.setattr(policies, "SEED_COUNTS_AS_PUBLISHED_FOR_K", counts)
    row = _row(
        RAPID,
        "2025-10-10",
        [(2450, ONE)],
        [],
        "2025-11",
        player=PlayerInfo(birth_year=1980),
        standard={Period(2025, 10): 2450},
    )
    assert row.seeded and row.out is not None
    k, after = (10, 2455) if counts else (40, 2470)
    assert (row.out.k, row.out.rating_after) == (k, after)
    assert row.rating_before is not None
    again = _rate(row, row.rating_before, _tournaments_in(row.out))
    assert (again.k, again.rating_after) == (k, after)
