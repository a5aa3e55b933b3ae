"""The period replay on hand-checked seasons.

Every expected number is derived by hand in the test from `shared/spec/fide-rules.md` and
its tables (table 8.1.2: D -> PD, `p_high` for D >= 0, `p_low` for D < 0; table 8.1.1:
p -> dp), never from running tracker code. Rows of 8.1.2 used below (d_min,d_max,p_high,
p_low): 0,3,0.50,0.50 | 11,17,0.52,0.48 | 47,53,0.57,0.43 | 146,153,0.70,0.30 |
246,256,0.81,0.19 | 392,411,0.92,0.08 | 433,456,0.94,0.06 | 485,517,0.96,0.04.
Rows of 8.1.1 used: 0.57 -> 50.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from tests.builders import Replay
from tracker.fide import Cut700, EngineReason, EngineWhy
from tracker.model import NotRated, Period, RatingList
from tracker.periods import (
    NotCountedWhy,
    PlayerInfo,
    RatingFrom,
    RatingSource,
    assign_units,
    default_period,
    list_in_force,
)
from tracker.periods.notes import IncludesEarlier, TagDiffers

STD = RatingList.STANDARD
OFFICIAL = RatingSource.OFFICIAL
H = Fraction(1, 2)


def test_calendar_assignment_by_era() -> None:
    # spec section 2: monthly lists since Jul 2012 closing 3 days before the list;
    # two-monthly Jul 2009 - Jun 2012 closing 7 days before; quarterly before Jul 2009.
    assert default_period(dt.date(2025, 10, 5)) == Period(2025, 11)
    assert default_period(dt.date(2025, 10, 29)) == Period(2025, 11)  # 3 days before Nov 1
    assert default_period(dt.date(2025, 10, 30)) == Period(2025, 12)  # 2 days: too late
    assert default_period(dt.date(2010, 2, 20)) == Period(2010, 3)  # 9 days before Mar 1
    assert default_period(dt.date(2010, 2, 25)) == Period(2010, 5)  # 4 days: next list
    assert default_period(dt.date(2008, 2, 10)) == Period(2008, 4)  # quarterly
    assert list_in_force(dt.date(2010, 4, 15)) == Period(2010, 3)
    assert list_in_force(dt.date(2025, 10, 25)) == Period(2025, 10)


def test_multi_tournament_period() -> None:
    # Official 2025-10: 1850, K 20. Both tournaments end in October -> the Nov 2025 list.
    # Ro 1850 (official list in force at each start).
    # A: vs 1700 win  D=+150 -> 0.70 -> +0.30 ; vs 1900 draw D=-50 -> 0.43 -> +0.07
    # B: vs 2000 loss D=-150 -> 0.30 -> -0.30 ; vs 1850 draw D=0 -> 0.50 -> 0
    #    vs 1600 win  D=+250 -> 0.81 -> +0.19
    # sum = +0.26 ; K 20 (official K of the Oct list) -> +5.20 -> +5 -> 1855.
    b = Replay()
    b.off("2025-10", 1850, k=20)
    a = b.t("A", "2025-10-04", "2025-10-05")
    b.g(a, 1700, 1)
    b.g(a, 1900, H)
    t = b.t("B", "2025-10-18", "2025-10-19")
    b.g(t, 2000, 0)
    b.g(t, 1850, H)
    b.g(t, 1600, 1)
    rp = b.run()
    row = rp.row(Period(2025, 11))
    assert row is not None and row.out is not None
    assert [p.ro for p in row.tournaments] == [1850, 1850]
    assert [(p.ro_source, p.ro_list) for p in row.tournaments] == [(OFFICIAL, Period(2025, 10))] * 2
    assert [str(x.change) for x in row.out.tournaments] == ["0.37", "-0.11"]
    assert row.games == 5 and row.points == 3
    assert str(row.change_exact) == "5.20" and row.change == 5
    assert row.k == 20 and row.replayed == 1855 and row.published == 1855


def test_700_rule_cuts_k() -> None:
    # A newcomer with K 40 (official) plays 20 games in one period: 20 x 40 = 800 > 700 ->
    # K = floor(700 / 20) = 35 (spec section 1.5; the seed articles' example: 20 games at
    # K 40 -> K 35). Ro 1850 vs 1850 each game: D=0 -> PD 0.50. 11 wins, 9 losses:
    # sum = 11 x 0.5 - 9 x 0.5 = +1.0 -> 35 x 1.0 = +35 -> 1885.
    b = Replay()
    b.off("2025-10", 1850, k=40)
    t = b.t("Long open", "2025-10-01", "2025-10-20")
    for i in range(20):
        b.g(t, 1850, 1 if i < 11 else 0)
    rp = b.run(player=PlayerInfo(birth_year=1990, rated_games=10))
    row = rp.row(Period(2025, 11))
    assert row is not None and row.out is not None
    assert row.out.k_base == 40 and row.k == 35
    assert row.out.k_reason.cut == Cut700(20, 40, 35)
    assert row.change == 35 and row.replayed == 1885


def test_junior_turning_19() -> None:
    # Born 2007, 100 rated games, never 2300. Official 2025-11: 1900 (no K recorded).
    # Dec 2025 list: 2025 - 2007 = 18 -> junior K 40. Win vs 1900: D=0 -> +0.5 -> +20
    #   -> 1920.
    # Jan 2026 list: its K is the one published on the previous (Dec 2025) list, whose year
    #   is 2025: 2025 - 2007 = 18 -> still junior K 40 (spec section 3 rule 2, Handbook B02:
    #   K 40 "until the end of the year of their 18th birthday"; "a junior born in 2007 plays
    #   December 2025 with K 40, and that period is rated on the January 2026 list with K
    #   40"). The Dec tournament starts under the Dec list: Ro = replayed 1920. Win vs 1920:
    #   D=0 -> +0.5 x 40 = +20 -> 1940.
    # Feb 2026 list: the K printed on the Jan 2026 list (2026 - 2007 = 19: no longer junior;
    #   100 games -> K 20). Win vs 1940: D=0 -> +0.5 x 20 = +10 -> 1950.
    b = Replay()
    b.off("2025-11", 1900)
    t1 = b.t("Nov open", "2025-11-08", "2025-11-09")
    b.g(t1, 1900, 1)
    t2 = b.t("Dec open", "2025-12-06", "2025-12-07")
    b.g(t2, 1920, 1)
    t3 = b.t("Jan open", "2026-01-10", "2026-01-11")
    b.g(t3, 1940, 1)
    rp = b.run(player=PlayerInfo(birth_year=2007, rated_games=100))
    dec, jan, feb = (rp.row(Period(2025, 12)), rp.row(Period(2026, 1)), rp.row(Period(2026, 2)))
    assert dec is not None and jan is not None and feb is not None
    assert dec.k == 40 and dec.replayed == 1920
    assert jan.tournaments[0].ro == 1920
    assert (jan.tournaments[0].ro_source, jan.tournaments[0].ro_list) == (
        RatingSource.REPLAYED,
        Period(2025, 12),
    )
    assert jan.k == 40 and jan.replayed == 1940
    assert feb.k == 20 and feb.replayed == 1950


def test_reaching_2400_sets_k_10() -> None:
    # 2390, K 20 on the Oct 2025 list, 200 games. Nov: win vs 2390, D=0 -> +0.5 x 20 = +10
    # -> 2400 published. Dec: a published 2400 ever -> K 10; win vs 2400 (Ro 2400, D=0)
    # -> +0.5 x 10 = +5 -> 2405.
    b = Replay()
    b.off("2025-10", 2390, k=20)
    t1 = b.t("Oct open", "2025-10-11", "2025-10-12")
    b.g(t1, 2390, 1)
    t2 = b.t("Nov open", "2025-11-08", "2025-11-09")
    b.g(t2, 2400, 1)
    rp = b.run(player=PlayerInfo(birth_year=1990, rated_games=200))
    nov, dec = rp.row(Period(2025, 11)), rp.row(Period(2025, 12))
    assert nov is not None and dec is not None
    assert nov.k == 20 and nov.replayed == 2400
    assert not nov.facts.ever_2400 and dec.facts.ever_2400
    assert dec.k == 10 and dec.replayed == 2405


def test_tournament_started_under_the_previous_list() -> None:
    # Official Oct 2025: 1800, K 20.
    # Nov list: A (Oct 4-5) win vs 1800, D=0 -> +0.5 x 20 = +10 -> 1810.
    # Dec list: B starts 25 Oct (under the Oct list) and ends 2 Nov -> Dec list. Spec 1.2:
    #   Ro = 1800 (the Oct list), not 1810. Three losses vs 1797: D=+3 -> row 0..3 -> 0.50
    #   -> 3 x -0.50 = -1.50 x 20 = -30 -> 1810 - 30 = 1780.
    #   (With Ro 1810, D=13 -> 0.52 -> -1.56 x 20 = -31.2 -> -31: a different answer.)
    b = Replay()
    b.off("2025-10", 1800, k=20)
    a = b.t("A", "2025-10-04", "2025-10-05")
    b.g(a, 1800, 1)
    t = b.t("B", "2025-10-25", "2025-11-02")
    for _ in range(3):
        b.g(t, 1797, 0)
    rp = b.run(player=PlayerInfo(rated_games=100))
    dec = rp.row(Period(2025, 12))
    assert dec is not None
    assert dec.rating_before == 1810
    assert dec.tournaments[0].ro == 1800
    assert (dec.tournaments[0].ro_source, dec.tournaments[0].ro_list) == (
        OFFICIAL,
        Period(2025, 10),
    )
    assert dec.change == -30 and dec.replayed == 1780


def test_pinned_tournament_moves_to_its_list() -> None:
    # A ends 5 Oct 2025 -> Nov list by default; pinned to the Jan 2026 list it is rated
    # there, with Ro from the Oct list (its start): win vs 1800, D=0 -> +10 -> 1810.
    b = Replay()
    b.off("2025-10", 1800, k=20)
    a = b.t("A", "2025-10-04", "2025-10-05", pinned_period=Period(2026, 1))
    b.g(a, 1800, 1)
    rp = b.run(player=PlayerInfo(rated_games=100))
    assert [str(r.period) for r in rp.rows] == ["2025-10", "2026-01"]
    jan = rp.row(Period(2026, 1))
    assert jan is not None and jan.tournaments[0].unit.pinned
    assert jan.rating_before == 1800 and jan.change == 10 and jan.replayed == 1810


def test_first_rating_current_rules() -> None:
    # Unrated, no Elo tag. One tournament in Sep 2025 -> Oct 2025 list (Mar 2024 rules,
    # spec section 4): 5 games vs rated opponents 1600 (1), 1700 (1/2), 1800 (0), 1500 (1),
    # 1650 (1/2): 3 points.
    # Ra = (1600+1700+1800+1500+1650 + 1800+1800) / 7 = 11850 / 7 = 1692.857...
    # p = (3 + 1) / (5 + 2) = 4/7 = 0.5714 -> 0.57 -> dp = 50 (table 8.1.1)
    # Ru = 1742.857... -> 1743 (under the 2200 cap, over the 1400 floor).
    b = Replay()
    t = b.t("Sep open", "2025-09-06", "2025-09-14")
    for opp, s in ((1600, 1), (1700, H), (1800, 0), (1500, 1), (1650, H)):
        b.g(t, opp, s)
    rp = b.run()
    assert rp.start_source == RatingFrom(RatingSource.UNRATED)
    row = rp.row(Period(2025, 10))
    assert row is not None and row.first is not None and row.out is None
    assert row.first.rating == 1743
    assert row.replayed == 1743 and row.published == 1743


def test_first_rating_needs_five_games_pooled() -> None:
    # 3 games in Sep (Oct list): no rating yet; 2 more in Oct (Nov list): 5 pooled.
    # Opponents 1800 x 5, scores 1/2 x 5: Ra = 1800 (all seven at 1800), p = (2.5+1)/7
    # = 0.50 -> dp 0 -> 1800.
    b = Replay()
    t1 = b.t("Sep", "2025-09-06", "2025-09-07")
    for _ in range(3):
        b.g(t1, 1800, H)
    t2 = b.t("Oct", "2025-10-11", "2025-10-12")
    for _ in range(2):
        b.g(t2, 1800, H)
    rp = b.run()
    oct_, nov = rp.row(Period(2025, 10)), rp.row(Period(2025, 11))
    assert oct_ is not None and nov is not None
    assert oct_.replayed is None and oct_.first is not None and oct_.first.rating is None
    assert nov.first is not None and nov.first.rating == 1800 and nov.first.games == 5


def test_first_rating_leaves_out_the_games_against_unrated_opponents() -> None:
    # Issue 35 item 9. Spec section 4: only games against rated opponents count toward a
    # first rating. Sep 2025 (-> Oct list): 1800 (1/2) x 3 and two wins against opponents
    # without a rating; Oct 2025 (-> Nov list): 1800 (1/2) x 2 and a loss to an unrated one.
    # Pooled: 5 games, 2.5 points (the wins against unrated opponents add nothing): Ra 1800,
    # p = 3.5/7 = 0.50 -> dp 0 -> 1800. The games against unrated opponents are the rows'
    # not counted games (unrated-opponent), never the tournaments' counted ones.
    b = Replay()
    t1 = b.t("Sep", "2025-09-06", "2025-09-08")
    for opp, s in ((1800, H), (None, 1), (1800, H), (None, 1), (1800, H)):
        b.g(t1, opp, s)
    t2 = b.t("Oct", "2025-10-11", "2025-10-13")
    for opp, s in ((1800, H), (None, 0), (1800, H)):
        b.g(t2, opp, s)
    rp = b.run()
    oct_, nov = rp.row(Period(2025, 10)), rp.row(Period(2025, 11))
    assert oct_ is not None and nov is not None
    assert [len(p.counted) for p in oct_.tournaments] == [3]
    assert [(n.game.opponent_elo, n.why, n.detail) for n in oct_.not_counted] == [
        (None, NotCountedWhy.NOT_RATED, NotRated.UNRATED_OPPONENT),
        (None, NotCountedWhy.NOT_RATED, NotRated.UNRATED_OPPONENT),
    ]
    assert oct_.first is not None and oct_.first.rating is None and oct_.first.games == 3
    assert [len(p.counted) for p in nov.tournaments] == [2]
    assert [(n.why, n.detail) for n in nov.not_counted] == [
        (NotCountedWhy.NOT_RATED, NotRated.UNRATED_OPPONENT)
    ]
    assert nov.first is not None and nov.first.rating == 1800
    assert (nov.first.games, nov.first.points) == (5, Fraction(5, 2))


def test_first_event_against_unrated_opponents_only_says_what_is_missing() -> None:
    # A first tournament with no rated opponent: nothing counts (section 4), and the row
    # still says why there is no rating (0 games against rated opponents, 5 needed).
    b = Replay()
    t = b.t("Sep", "2025-09-06", "2025-09-07")
    b.g(t, None, 1)
    b.g(t, None, H)
    row = b.run().row(Period(2025, 10))
    assert row is not None and [len(p.counted) for p in row.tournaments] == [0]
    assert [(n.why, n.detail) for n in row.not_counted] == [
        (NotCountedWhy.NOT_RATED, NotRated.UNRATED_OPPONENT)
    ] * 2
    assert row.first is not None and row.first.rating is None
    assert row.first.reason == EngineReason(EngineWhy.FIRST_TOO_FEW_GAMES, 0, 5)


def test_drop_below_the_floor() -> None:
    # Official Oct 2025: 1410, K 20. Two losses vs 1410 (D=0 -> 0.50): -1.0 x 20 = -20 ->
    # 1390 < 1400 (floor since Mar 2024): published as unrated. In the next period the
    # player is a newcomer again: 2 games are not enough for a first rating.
    b = Replay()
    b.off("2025-10", 1410, k=20)
    t = b.t("Oct", "2025-10-04", "2025-10-05")
    b.g(t, 1410, 0)
    b.g(t, 1410, 0)
    t2 = b.t("Nov", "2025-11-08", "2025-11-09")
    b.g(t2, 1500, 1)
    b.g(t2, 1500, 1)
    rp = b.run(player=PlayerInfo(rated_games=100))
    nov, dec = rp.row(Period(2025, 11)), rp.row(Period(2025, 12))
    assert nov is not None and dec is not None and nov.out is not None
    assert nov.change == -20 and nov.out.rating_after is None and nov.replayed is None
    assert nov.out.reason is not None and nov.out.reason.why is EngineWhy.BELOW_FLOOR
    assert dec.rating_before is None and dec.first is not None and dec.first.rating is None


def test_march_2024_compression() -> None:
    # Official Feb 2024: 1600, K 20. A (Feb 3-4) -> Mar 2024 list: win vs 1600, D=0 ->
    # +0.5 x 20 = +10 -> 1610; then the compression (spec 5, policy: on Feb + March change,
    # half up): 1610 + 0.4 x (2000 - 1610) = 1610 + 156 = 1766.
    b = Replay()
    b.off("2024-02", 1600, k=20)
    a = b.t("A", "2024-02-03", "2024-02-04")
    b.g(a, 1600, 1)
    row = b.run(player=PlayerInfo(rated_games=100)).row(Period(2024, 3))
    assert row is not None and row.out is not None
    assert row.out.rating_after == 1610
    assert row.replayed == 1766 and row.adjustment is not None


def test_march_2024_compression_without_games() -> None:
    # FIDE's own example: 1600 -> 1760 (1600 + 0.4 x 400). No games in the period.
    b = Replay()
    b.off("2024-02", 1600, k=20)
    row = b.run(until="2024-04").row(Period(2024, 3))
    assert row is not None and row.out is None
    assert row.replayed == 1760 and row.published == 1760


def test_2650_exemption() -> None:
    # Official Sep 2025: 2700, K 10.
    # Oct list: tournament starting 20 Sep 2025 (before the Oct 2025 edition): the cap of
    #   400 applies. vs 2200 win: D=500 -> 400 -> 0.92 -> +0.08; vs 2250 draw: D=450 ->
    #   400 -> 0.92 -> -0.42. Sum -0.34 x 10 = -3.4 -> -3 -> 2697.
    # Nov list: tournament starting 4 Oct 2025: Ro 2697 >= 2650 -> true D (spec 2, Oct 2025).
    #   vs 2200 win: D=497 -> row 485..517 -> 0.96 -> +0.04; vs 2250 draw: D=447 -> row
    #   433..456 -> 0.94 -> -0.44. Sum -0.40 x 10 = -4 -> 2693.
    b = Replay()
    b.off("2025-09", 2700, k=10)
    a = b.t("Before", "2025-09-20", "2025-09-21")
    b.g(a, 2200, 1)
    b.g(a, 2250, H)
    t = b.t("After", "2025-10-04", "2025-10-05")
    b.g(t, 2200, 1)
    b.g(t, 2250, H)
    rp = b.run(player=PlayerInfo(rated_games=500, ever_2400=True))
    oct_, nov = rp.row(Period(2025, 10)), rp.row(Period(2025, 11))
    assert oct_ is not None and nov is not None and oct_.out is not None and nov.out is not None
    assert [g.capped for g in oct_.out.tournaments[0].games] == [True, True]
    assert oct_.change == -3 and oct_.replayed == 2697
    assert [g.capped for g in nov.out.tournaments[0].games] == [False, False]
    assert [g.difference_used for g in nov.out.tournaments[0].games] == [497, 447]
    assert nov.k == 10 and nov.change == -4 and nov.replayed == 2693


def test_rapid_and_blitz_beside_standard() -> None:
    # Each list replays its own games from its own official entry (Oct 2025, K 20 each).
    # standard: win vs 1850 (D=0) +10 -> 1860; rapid: win vs 1700 +10 -> 1710;
    # blitz: loss vs 1650 -10 -> 1640.
    b = Replay()
    b.off("2025-10", 1850, k=20)
    b.off("2025-10", 1700, k=20, rl=RatingList.RAPID)
    b.off("2025-10", 1650, k=20, rl=RatingList.BLITZ)
    s = b.t("Classical", "2025-10-04", "2025-10-05")
    b.g(s, 1850, 1)
    r = b.t("Rapid", "2025-10-11", "2025-10-11")
    b.g(r, 1700, 1, rl=RatingList.RAPID)
    z = b.t("Blitz", "2025-10-12", "2025-10-12")
    b.g(z, 1650, 0, rl=RatingList.BLITZ)
    info = PlayerInfo(rated_games=100, birth_year=1980)
    got = {rl: b.run(rl, info).row(Period(2025, 11)) for rl in RatingList}
    assert {rl: (row.games, row.replayed) for rl, row in got.items() if row} == {
        RatingList.STANDARD: (1, 1860),
        RatingList.RAPID: (1, 1710),
        RatingList.BLITZ: (1, 1640),
    }


def test_pinned_list_moves_games() -> None:
    b = Replay()
    t = b.t("Misfiled", "2025-10-11", "2025-10-11", pinned_list=RatingList.RAPID)
    b.g(t, 1700, 1)
    assert assign_units(b.games, b.tournaments, STD) == []
    (unit,) = assign_units(b.games, b.tournaments, RatingList.RAPID)
    assert unit.period == Period(2025, 11)


def test_games_not_counted_with_reasons() -> None:
    # Win vs 1850 counts (+10); the unrated opponent, the forfeit and the unfinished game
    # do not, each listed with its reason.
    b = Replay()
    b.off("2025-10", 1850, k=20)
    t = b.t("Open", "2025-10-04", "2025-10-05")
    b.g(t, 1850, 1)
    b.g(t, None, 1)
    b.g(t, 1700, 1, rated=False, reason="forfeit")
    b.games.append(b.games[0].__class__(**{**b.games[0].__dict__, "id": 99, "score": None}))
    row = b.run(player=PlayerInfo(rated_games=100)).row(Period(2025, 11))
    assert row is not None and row.out is not None
    assert row.games == 1 and row.change == 10
    assert sorted((n.why, n.detail or "") for n in row.not_counted) == [
        (NotCountedWhy.NOT_RATED, "forfeit"),
        (NotCountedWhy.UNFINISHED, ""),
    ]
    reasons = [g.reason for g in row.out.tournaments[0].games if not g.counted]
    assert reasons == ["unrated-opponent"]


def test_excluded_tournament_and_ro_override() -> None:
    # Excluded: not counted at all. --ro 1840 on the other: D = 1840 - 1850 = -10 ->
    # row 4..10 p_low 0.49 -> win +0.51 x 20 = +10.2 -> +10 -> 1860 (from 1850).
    b = Replay()
    b.off("2025-10", 1850, k=20)
    x = b.t("Never rated", "2025-10-04", "2025-10-05", excluded=True)
    b.g(x, 1850, 1)
    t = b.t("Open", "2025-10-11", "2025-10-12", ro=1840)
    b.g(t, 1850, 1)
    row = b.run(player=PlayerInfo(rated_games=100)).row(Period(2025, 11))
    assert row is not None
    assert [n.why for n in row.not_counted] == [NotCountedWhy.EXCLUDED]
    assert row.tournaments[1].ro == 1840 and row.tournaments[1].ro_source is RatingSource.OVERRIDE
    assert str(row.change_exact) == "10.20" and row.replayed == 1860


def test_reanchor_on_later_official_entry() -> None:
    # Replayed Nov: 1850 + 10 = 1860, but FIDE published 1858: Dec starts from 1858.
    # Dec: win vs 1858 (D=0) +10 -> 1868.
    b = Replay()
    b.off("2025-10", 1850, k=20)
    b.off("2025-11", 1858, k=20)
    a = b.t("A", "2025-10-04", "2025-10-05")
    b.g(a, 1850, 1)
    t = b.t("B", "2025-11-08", "2025-11-09")
    b.g(t, 1858, 1)
    rp = b.run(player=PlayerInfo(rated_games=100))
    nov, dec = rp.row(Period(2025, 11)), rp.row(Period(2025, 12))
    assert nov is not None and dec is not None
    assert nov.replayed == 1860 and nov.official_rating == 1858 and nov.difference == 2
    assert nov.anchored and nov.published == 1858
    assert dec.rating_before == 1858 and dec.replayed == 1868


def test_elo_tag_disagreeing_with_the_official_list_is_said() -> None:
    b = Replay()
    b.off("2025-10", 1850, k=20)
    t = b.t("Open", "2025-10-04", "2025-10-05")
    b.g(t, 1850, 1, own=1849)
    row = b.run(player=PlayerInfo(rated_games=100)).row(Period(2025, 11))
    assert row is not None
    plan = row.tournaments[0]
    assert plan.ro == 1850 and plan.elo_tag == 1849
    assert plan.note == TagDiffers(1849, Period(2025, 10), 1850)


def test_start_from_elo_tag_without_official() -> None:
    # No official entry: the first tournament's Elo tag 1700 is the starting rating.
    # 10 games completed (recorded) -> K 40 (fewer than 30). Win vs 1700 -> +20 -> 1720.
    b = Replay()
    t = b.t("Open", "2025-10-04", "2025-10-05")
    b.g(t, 1700, 1, own=1700)
    rp = b.run(player=PlayerInfo(rated_games=10, birth_year=1980))
    assert rp.start_source == RatingFrom(RatingSource.ELO_TAG, tournaments=("Open",), rating=1700)
    row = rp.row(Period(2025, 11))
    assert row is not None and row.k == 40 and row.replayed == 1720


def test_before_2008_is_not_replayed() -> None:
    b = Replay()
    t = b.t("Old", "2006-05-01", "2006-05-07")
    b.g(t, 1800, 1)
    rp = b.run()
    assert rp.rows == ()
    assert rp.unplaced and rp.unplaced[0].why is NotCountedWhy.TOO_EARLY


def test_games_inside_the_starting_rating_count_toward_30() -> None:
    # Recorded: 25 games before the first game in the database. 5 rated games in Sep 2025
    # are inside the official Oct 2025 rating (they carry no Elo tag of the player's to
    # replay them from, so the replay starts there and lists them): 30 completed, so
    # K 20 (adult) in Nov, not K 40. Win vs 1800 (D=0): +0.5 x 20 = +10 -> 1810.
    b = Replay()
    b.off("2025-10", 1800)
    t0 = b.t("Sep", "2025-09-06", "2025-09-07")
    for _ in range(5):
        b.g(t0, 1800, H)
    t = b.t("Oct", "2025-10-04", "2025-10-05")
    b.g(t, 1800, 1)
    rp = b.run(player=PlayerInfo(birth_year=1980, rated_games=25))
    assert [u.label for u in rp.before_start] == ["Sep"]
    oct_ = rp.row(Period(2025, 10))
    assert oct_ is not None and IncludesEarlier(("Sep",)) in oct_.notes
    row = rp.row(Period(2025, 11))
    assert row is not None and row.facts.rated_games == 30
    assert row.k == 20 and row.replayed == 1810


def test_oct_2022_rapid_raise_uses_the_standard_rating() -> None:
    # Spec section 2 (1 Oct 2022): a rapid rating more than 100 below the standard rating
    # is raised to standard - 100. Rapid 1500 (Sep 2022), standard 1800: 1500 < 1700 ->
    # 1700 on the Oct 2022 rapid list, with no rapid games.
    b = Replay()
    b.off("2022-09", 1500, k=20, rl=RatingList.RAPID)
    rp = b.run(RatingList.RAPID, until="2022-10", standard={Period(2022, 9): 1800})
    row = rp.row(Period(2022, 10))
    assert row is not None and row.replayed == 1700 and row.adjustment is not None


def test_unrated_in_rapid_starts_from_the_standard_rating() -> None:
    # Spec section 4 (from Mar 2024): unrated in rapid, standard 1800 -> rapid starts at
    # 1800. Win vs 1800 (D=0) +0.5; the 100 recorded games are standard games
    # (PLAYER_FACTS_LISTS): no rapid game completed, adult -> K 40 -> +20 -> 1820.
    b = Replay()
    t = b.t("Rapid", "2025-10-11", "2025-10-11")
    b.g(t, 1800, 1, rl=RatingList.RAPID)
    rp = b.run(
        RatingList.RAPID,
        PlayerInfo(rated_games=100, birth_year=1980),
        standard={Period(2025, 10): 1800},
    )
    row = rp.row(Period(2025, 11))
    assert row is not None and row.rating_before == 1800
    assert row.rating_before_source == RatingFrom(RatingSource.STANDARD)
    assert row.k == 40 and row.replayed == 1820


def test_tournament_started_while_unrated_uses_the_first_rating() -> None:
    # Spec 4: a tournament played before the first rating is published but rated after it
    # is rated with the player as rated, at that rating.
    # Oct 2025 official 1410 (K 20); Nov: two losses vs 1410 (D=0, -0.5 each) x 20 = -20 ->
    # 1390 < 1400: unrated. X (8-9 Nov) -> Dec: 5 draws vs 1800 -> Ra 1800, p = 3.5/7 =
    # 0.50 -> dp 0 -> first rating 1800. Y starts 15 Nov (unrated then), ends 10 Jan ->
    # Feb list: Ro = 1800 (not the old 1410); win vs 1800, D=0 -> +0.5 x K 20 (adult, 107
    # games) = +10 -> 1810.
    b = Replay()
    b.off("2025-10", 1410, k=20)
    t0 = b.t("Oct", "2025-10-04", "2025-10-05")
    b.g(t0, 1410, 0)
    b.g(t0, 1410, 0)
    x = b.t("X", "2025-11-08", "2025-11-09")
    for _ in range(5):
        b.g(x, 1800, H)
    y = b.t("Y", "2025-11-15", "2026-01-10")
    b.g(y, 1800, 1, day="2026-01-10")
    rp = b.run(player=PlayerInfo(rated_games=100, birth_year=1980))
    dec, feb = rp.row(Period(2025, 12)), rp.row(Period(2026, 2))
    assert dec is not None and dec.first is not None and dec.first.rating == 1800
    assert feb is not None and feb.tournaments[0].ro == 1800
    assert feb.k == 20 and feb.replayed == 1810


# --- review fixes (rules review, Nov 2026) ---------------------------------------------------
# Rows of 8.1.2 used below: 0,3,0.50,0.50 | 33,39,0.55,0.45. Rows of 8.1.1: 0.50 -> 0,
# 0.57 -> 50, 0.44 -> -43.
RAPID = RatingList.RAPID


def test_rapid_seed_is_the_standard_list_in_force_at_the_start_before_compression() -> None:
    # Unrated in rapid; standard 1600 on the Feb 2024 list, 1760 on Mar 2024 (compressed).
    # A rapid tournament starting 2024-02-10 (ends the same day -> the Mar 2024 rapid list).
    # Spec 1.2: Ro = the rating of the list in force at the START: Feb 2024 -> 1600 (spec 4:
    # unrated in rapid -> the standard rating). Draw vs 1600: D 0 -> PD 0.50 -> change 0
    # whatever K. 1600 + 0 = 1600, then the Mar 2024 compression (section 5):
    # 1600 + 0.4 x (2000 - 1600) = 1760. (Seeding from the Mar list would compress twice.)
    b = Replay()
    t = b.t("rapid Feb", "2024-02-10", "2024-02-10")
    b.g(t, 1600, H, rl=RAPID)
    rep = b.run(RAPID, standard={Period(2024, 2): 1600, Period(2024, 3): 1760})
    (row,) = rep.rows
    assert row.period == Period(2024, 3)
    assert row.rating_before == 1600 and row.tournaments[0].ro == 1600
    assert row.out is not None and row.out.change == 0
    assert row.replayed == 1760 and row.published == 1760


def test_rapid_seed_uses_the_list_in_force_at_the_start_not_the_rating_list() -> None:
    # Standard 2000 on Oct 2025, 2100 on Nov 2025. Rapid win vs 2000 on 2025-10-10 -> rated on
    # the Nov 2025 rapid list, Ro = standard of the list in force on 2025-10-10 = 2000.
    # D 0 -> PD 0.50 -> +0.50.
    # K: the player has no rapid games (the recorded facts are standard-only,
    # PLAYER_FACTS_LISTS) -> new player, K 40 -> +20 -> 2020.
    # With the official K 20 recorded on the previous (Oct 2025) rapid list: +10 -> 2010.
    standard = {Period(2025, 10): 2000, Period(2025, 11): 2100}
    b = Replay()
    t = b.t("rapid Oct", "2025-10-10", "2025-10-10")
    b.g(t, 2000, 1, rl=RAPID)
    (row,) = b.run(RAPID, player=PlayerInfo(rated_games=100), standard=standard).rows
    assert row.period == Period(2025, 11) and row.rating_before == 2000
    assert row.k == 40 and row.published == 2020
    b.off("2025-10", None, k=20, rl=RAPID)
    (row,) = b.run(RAPID, player=PlayerInfo(rated_games=100), standard=standard).rows
    assert row.k == 20 and row.published == 2010


def test_rapid_seed_per_tournament_start() -> None:
    # Two rapid tournaments rated on the Nov 2025 list: A starts 2025-09-28 (Sep list in
    # force: standard 1900), B starts 2025-10-10 (Oct list: 2000). Each uses its own Ro:
    # A: win vs 1900, D 0 -> +0.50 ; B: draw vs 2000, D 0 -> 0. Sum +0.50, K 40 (no rapid
    # games) -> +20; the period starts from A's 1900 -> 1920.
    b = Replay()
    a = b.t("A", "2025-09-28", "2025-10-05")
    c = b.t("B", "2025-10-10", "2025-10-12")
    b.g(a, 1900, 1, rl=RAPID)
    b.g(c, 2000, H, rl=RAPID)
    (row,) = b.run(RAPID, standard={Period(2025, 9): 1900, Period(2025, 10): 2000}).rows
    assert [p.ro for p in row.tournaments] == [1900, 2000]
    assert row.rating_before == 1900 and row.published == 1920


def test_first_rating_of_the_2024_formula_is_not_compressed() -> None:
    # Unrated; 5 games vs 1600 from 2024-02-10 (ends 02-14 -> Mar 2024 list), 2.5 points.
    # 2024 formula: Ra = (5 x 1600 + 2 x 1800) / 7 = 11600 / 7 = 1657.14;
    # p = (2.5 + 1) / 7 = 0.50 -> dp 0 -> Ru 1657. Policy COMPRESS_FIRST_RATING_OF_2024_FORMULA
    # (False): already on the new scale -> published 1657 (compressed it would be 1794).
    b = Replay()
    t = b.t("Feb open", "2024-02-10", "2024-02-14")
    for s in (1, H, H, 0, H):
        b.g(t, 1600, s)
    (row,) = b.run().rows
    assert row.period == Period(2024, 3)
    assert row.first is not None and row.first.rating == 1657
    assert row.adjustment is None and row.published == 1657


def test_recorded_facts_do_not_reach_the_rapid_list() -> None:
    # ever_2400 recorded (standard). Rapid official Oct 2025 1900, no K. Win vs 1900 on
    # 2025-10-10 -> Nov 2025. Rapid K: 1900 never 2400 on the rapid list (not K 10); the rapid
    # games completed are unknown: policy GAMES_COMPLETED_WHEN_UNKNOWN, 30 or more -> K 20,
    # said as an assumption. D 0 -> +0.50 x 20 = +10 -> 1910.
    b = Replay()
    b.off("2025-10", 1900, rl=RAPID)
    t = b.t("rap", "2025-10-10", "2025-10-10")
    b.g(t, 1900, 1, rl=RAPID)
    rows = b.run(RAPID, player=PlayerInfo(rated_games=100, ever_2400=True)).rows
    assert rows[-1].k == 20 and rows[-1].published == 1910
    assert "rated-games" in {a.fact for a in rows[-1].assumptions}
    # On the standard list the same facts give K 10: +0.50 x 10 = +5 -> 1905.
    s = Replay()
    s.off("2025-10", 1900)
    t = s.t("std", "2025-10-10", "2025-10-10")
    s.g(t, 1900, 1)
    rows = s.run(player=PlayerInfo(rated_games=100, ever_2400=True)).rows
    assert rows[-1].k == 10 and rows[-1].published == 1905


def test_rapid_2400_ever_from_its_own_official_entry() -> None:
    # Rapid official Sep 2025 2410, Oct 2025 2390 (no K). Win vs 2390 on 2025-10-10 -> Nov:
    # 2410 published on the rapid list -> K 10 (spec 3 rule 1). D 0 -> +5 -> 2395.
    b = Replay()
    b.off("2025-09", 2410, rl=RAPID)
    b.off("2025-10", 2390, rl=RAPID)
    t = b.t("rap", "2025-10-10", "2025-10-10")
    b.g(t, 2390, 1, rl=RAPID)
    rows = b.run(RAPID).rows
    assert rows[-1].k == 10 and rows[-1].published == 2395


def test_junior_reached_2300_in_the_replay() -> None:
    # Born 2008, official Nov 2024 2290 (no K), 100 games recorded.
    # Dec 2024 list: junior (2024 - 2008 = 16 <= 18), never 2300 -> K 40; win vs 2290, D 0
    # -> +0.50 x 40 = +20 -> 2310. Jan 2025 list: 2310 reached 2300 -> not junior K;
    # 100+ games -> K 20; win vs 2310, D 0 -> +10 -> 2320.
    b = Replay()
    b.off("2024-11", 2290)
    t1 = b.t("Nov", "2024-11-10", "2024-11-10")
    b.g(t1, 2290, 1)
    t2 = b.t("Dec", "2024-12-10", "2024-12-10")
    b.g(t2, 2310, 1)
    rows = b.run(player=PlayerInfo(rated_games=100, birth_year=2008)).rows
    assert [(r.k, r.published) for r in rows[1:]] == [(40, 2310), (20, 2320)]


def test_games_completed_kept_after_a_floor_drop() -> None:
    # Official Sep 2025 1405, K 20, 100 games recorded. Loss vs 1405 (D 0 -> -0.50 x 20 = -10)
    # -> 1395 < 1400: unrated on the Oct 2025 list. Nov 2025 tournament: 5 games vs 1500,
    # 3 points -> Dec 2025 list: Ra = (5 x 1500 + 2 x 1800) / 7 = 11100 / 7 = 1585.71,
    # p = (3 + 1) / 7 = 0.5714 -> 0.57 -> dp 50 -> Ru 1635.71 -> 1636.
    # Games completed (RATED_GAMES_KEPT_AFTER_FLOOR_DROP): 100 + 1 + 5 = 106 >= 30.
    # Jan 2026 list: win vs 1600, D 36 -> PD 0.55 -> +0.45 x K 20 = +9 -> 1645
    # (reset to 5 games it would be K 40: +18 -> 1654).
    b = Replay()
    b.off("2025-09", 1405, k=20)
    t1 = b.t("drop", "2025-09-10", "2025-09-10")
    b.g(t1, 1405, 0)
    t2 = b.t("back", "2025-11-10", "2025-11-15")
    for s in (1, H, H, H, H):
        b.g(t2, 1500, s)
    t3 = b.t("next", "2025-12-10", "2025-12-10")
    b.g(t3, 1600, 1)
    rows = b.run(player=PlayerInfo(rated_games=100)).rows
    assert [(str(r.period), r.published) for r in rows] == [
        ("2025-09", 1405),
        ("2025-10", None),
        ("2025-12", 1636),
        ("2026-01", 1645),
    ]
    assert rows[-1].facts.rated_games == 106 and rows[-1].k == 20


def test_zero_first_event_judged_after_the_window_trim() -> None:
    # E1 Jan 2023: 2 losses vs 1600 (zero). E2 Apr 2025: 1 loss vs 1600 (zero). E3 May 2025:
    # 5 draws vs 1600 -> Jun 2025 list. Window: 26 months before Jun 2025 = 1 Apr 2023, so E1
    # (started Jan 2023) leaves the pool. ZERO_FIRST_EVENT_JUDGED_ON (after the trim): the
    # first event is E2, a zero -> disregarded. Pool E3: Ra = (5 x 1600 + 2 x 1800) / 7 =
    # 1657.14, p = (2.5 + 1) / 7 = 0.50 -> dp 0 -> 1657.
    # (Judged before the trim E2 would count: 6 games, 2.5 points, Ra = 13200 / 8 = 1650,
    # p = 3.5 / 8 = 0.4375 -> 0.44 -> dp -43 -> 1607.)
    b = Replay()
    e1 = b.t("E1", "2023-01-10", "2023-01-11")
    b.g(e1, 1600, 0)
    b.g(e1, 1600, 0)
    e2 = b.t("E2", "2025-04-10", "2025-04-10")
    b.g(e2, 1600, 0)
    e3 = b.t("E3", "2025-05-10", "2025-05-14")
    for _ in range(5):
        b.g(e3, 1600, H)
    row = b.run().rows[-1]
    assert row.period == Period(2025, 6)
    assert row.first is not None and row.first.rating == 1657 and row.first.games == 5
