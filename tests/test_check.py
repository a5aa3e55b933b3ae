"""`reconcile`: a hand-built season whose official entries disagree with the replay in each
way issue 5 lists; the check must name the right cause first.

Every official number is derived by hand from FIDE's table 8.1.2
(shared/spec/table-8-1-2.csv: the rows quoted below) and the rules of
shared/spec/fide-rules.md (section 1: per-game D, the 400 cap, K x sum rounded once,
.5 away from zero; section 2: the 2650 rule from Oct 2025; section 3: K). The replay's own
numbers are derived the same way, so each test states both sides. Nothing here was
produced by running tracker code.

Common ground: a player rated 1800 on the 2025-01 standard list (anchor), adult, 200 rated
games (K 20 unless said). Monthly lists: a tournament whose last round is at least 3 days
before the 1st is rated on that list (spec section 2, 1 Jul 2012 row).
"""

from __future__ import annotations

from fractions import Fraction

from tests.builders import Replay
from tracker.advice import ExcludeTournament, PinPeriod, PlayerFact, SetPlayerFact, SetRo
from tracker.check import (
    BASE_CORRECTION,
    CAP,
    DIFFERS,
    ELO_TAG,
    GAMES_EXTRA,
    GAMES_MISSING,
    K_DIFFERS,
    MATCH,
    NOT_IN_DATABASE,
    PRE_2008,
    ROUNDING,
    START,
    UNRATED_OPPONENT,
    CheckReport,
    CheckRow,
    reconcile,
)
from tracker.check.report import ReanchorMatches
from tracker.model import Period, RatingList
from tracker.periods import PlayerInfo
from tracker.periods.notes import TournamentNote
from tracker.reports.causes import cause_text
from tracker.reports.check import check_json

STD = RatingList.STANDARD
ESTABLISHED = PlayerInfo(birth_year=1980, rated_games=200)


class Season(Replay):
    """The player's facts, built by hand (tests/builders.py's Replay: player id 1, opponents
    get fresh ids); `off(...)` an official entry."""

    def __init__(self, info: PlayerInfo = ESTABLISHED) -> None:
        super().__init__(info)

    def tournament(self, name: str, start: str, end: str) -> int:
        return self.t(name, start, end)

    def game(
        self,
        tid: int,
        day: str,
        opponent_elo: int | None,
        score: Fraction | int,
        *,
        own_elo: int | None = None,
        opponent: str | None = None,
    ) -> None:
        self.g(tid, opponent_elo, score, own=own_elo, day=day, name=opponent)

    def check(self) -> CheckReport:
        return reconcile(self.inputs(), player="Novák, Tomáš")


def _row(report: CheckReport, period: str) -> CheckRow:
    return next(r for r in report.rows if r.period == Period.parse(period))


HALF = Fraction(1, 2)


def _three_games_vs_1700(s: Season, tid: int, day: str) -> None:
    # Ro 1800 vs 1700: D = +100, table row 99-106 -> p_high 0.64 each; scores 1, 1/2, 1:
    # sum of (score - PD) = 2.5 - 1.92 = 0.58.
    for score in (1, HALF, 1):
        s.game(tid, day, 1700, score)


def test_games_missing_and_extra_a_tournament_rated_a_list_earlier() -> None:
    # "Spring Open" ends 12 Jan -> the Feb list. "Club League" ends 30 Jan: under 3 days
    # before 1 Feb, so the replay puts it on the Mar list; FIDE rated it on Feb's.
    # Spring Open: sum 0.58 (see helper). Club League, Ro 1800 (the Jan list in force at its
    # start) vs 1900: D = -100, row 99-106 -> p_low 0.36; two draws: 1 - 0.72 = 0.28.
    # FIDE Feb, K 20: 20 x (0.58 + 0.28) = 17.2 -> 17 -> 1817, 5 games.
    # Replay Feb: 20 x 0.58 = 11.6 -> 12 -> 1812, 3 games (2 missing).
    # FIDE Mar: no games, 1817. Replay Mar: from the official 1817, 20 x 0.28 = 5.6 -> 6 ->
    # 1823, 2 games (2 extra).
    s = Season()
    s.off("2025-01", 1800, k=20)
    spring = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
    _three_games_vs_1700(s, spring, "2025-01-10")
    league = s.tournament("Club League", "2025-01-25", "2025-01-30")
    s.game(league, "2025-01-25", 1900, HALF)
    s.game(league, "2025-01-30", 1900, HALF)
    s.off("2025-02", 1817, games=5, k=20)
    s.off("2025-03", 1817, games=0, k=20)
    report = s.check()

    assert _row(report, "2025-01").status == START
    feb = _row(report, "2025-02")
    assert (feb.status, feb.replayed, feb.official, feb.difference) == (DIFFERS, 1812, 1817, -5)
    assert (feb.games, feb.official_games) == (3, 5)
    top = feb.causes[0]
    assert top.kind == GAMES_MISSING and top.reproduces and top.games_match
    assert top.advice == (PinPeriod(league, Period(2025, 2)),)
    assert "Club League" in cause_text(top)

    mar = _row(report, "2025-03")
    assert (mar.status, mar.replayed, mar.official) == (DIFFERS, 1823, 1817)
    top = mar.causes[0]
    assert top.kind == GAMES_EXTRA and top.reproduces
    assert top.advice == (PinPeriod(league, Period(2025, 2)),)
    assert not report.all_match


def test_k_differs_a_junior_whose_birth_year_is_unknown() -> None:
    # Replay K 20 (200 games, no birth year); FIDE K 40 (a junior).
    # Feb: sum 0.58: replay 20 x 0.58 = 11.6 -> 12 -> 1812; FIDE 40 x 0.58 = 23.2 -> 23 ->
    # 1823. No other K of any scheme gives +23 (30 -> 17.4 -> 17; 25 -> 14.5 -> 15).
    # Mar: no games; the replay re-anchors at 1823, FIDE prints 1823: match.
    s = Season(info=PlayerInfo(birth_year=None, rated_games=200))
    s.off("2025-01", 1800)
    spring = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
    _three_games_vs_1700(s, spring, "2025-01-10")
    s.off("2025-02", 1823, games=3)
    s.off("2025-03", 1823, games=0)
    report = s.check()
    feb = _row(report, "2025-02")
    assert (feb.replayed, feb.official, feb.k) == (1812, 1823, 20)
    top = feb.causes[0]
    assert top.kind == K_DIFFERS and top.reproduces
    assert "K 40" in cause_text(top) and "junior" in cause_text(top)
    assert top.advice == (SetPlayerFact(PlayerFact.BIRTH_YEAR),)
    assert _row(report, "2025-03").status == MATCH
    assert ReanchorMatches(1823, later=1) in feb.notes


def test_a_games_count_that_differs_ranks_its_cause_above_a_k_that_fits() -> None:
    # The junior season above (FIDE K 40: 40 x 0.58 = 23.2 -> 23 -> 1823), but FIDE counted
    # 4 games where the files hold 3. K 40 gives FIDE's rating with 3 games, a coincidence
    # until the fourth game is found: the count's cause (a game not in the database) comes
    # first in the numbered causes, as the games line under the period does.
    s = Season(info=PlayerInfo(birth_year=None, rated_games=200))
    s.off("2025-01", 1800)
    spring = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
    _three_games_vs_1700(s, spring, "2025-01-10")
    s.off("2025-02", 1823, games=4)
    feb = _row(s.check(), "2025-02")
    assert (feb.replayed, feb.official, feb.games, feb.official_games) == (1812, 1823, 3, 4)
    kinds = [c.kind for c in feb.causes]
    assert kinds[0] == NOT_IN_DATABASE and not feb.causes[0].reproduces
    k = feb.causes[kinds.index(K_DIFFERS)]
    assert k.reproduces and "K 40" in cause_text(k)
    assert feb.games_count is not None and feb.games_count.missing == 1


def test_rounding_per_tournament() -> None:
    # Four one-game tournaments in January, each a draw against 1885: D = -85, row 84-91 ->
    # p_low 0.38; 0.5 - 0.38 = 0.12 each; K 20: 2.4 each.
    # Replay: once per period, 20 x 0.48 = 9.6 -> 10 -> 1810.
    # FIDE, per tournament: 2.4 -> 2, four times: +8 -> 1808.
    # No other single cause gives 1808: base 1799 -> D -86, same row -> 1809; base 1801 ->
    # 1811; K x 0.48 = +8 needs 15.6 <= K < 17.7 (no K); no |D| above 400.
    s = Season()
    s.off("2025-01", 1800, k=20)
    for i in range(4):
        t = s.tournament(f"Rapidplay {i + 1}", f"2025-01-{10 + i}", f"2025-01-{10 + i}")
        s.game(t, f"2025-01-{10 + i}", 1885, HALF)
    s.off("2025-02", 1808, games=4)
    feb = _row(s.check(), "2025-02")
    assert (feb.replayed, feb.official) == (1810, 1808)
    assert feb.causes[0].kind == ROUNDING and feb.causes[0].reproduces
    assert "2 + 2 + 2 + 2" in cause_text(feb.causes[0])


def test_one_point_base_correction() -> None:
    # FIDE starts February from 1799 instead of the published 1800: D = +99 is still row
    # 99-106 (p_high 0.64), so the change is the replay's +12 (11.6): 1799 + 12 = 1811.
    # Replay: 1812. No K gives +11 (K x 0.58 in [10.5, 11.5) needs 18.1 <= K < 19.8).
    s = Season()
    s.off("2025-01", 1800, k=20)
    spring = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
    _three_games_vs_1700(s, spring, "2025-01-10")
    s.off("2025-02", 1811, games=3)
    feb = _row(s.check(), "2025-02")
    assert (feb.replayed, feb.official) == (1812, 1811)
    assert feb.causes[0].kind == BASE_CORRECTION and feb.causes[0].reproduces
    assert "1799" in cause_text(feb.causes[0])


def test_the_2650_rule() -> None:
    # A 2660 player (Sep 2025 list, K 10) plays four draws against 2000 in a tournament
    # starting 20 Sep 2025 (before the 2650 rule of 1 Oct 2025): D = +660.
    # Replay, capped at 400: row 392-411 -> p_high 0.92; 4 x (0.5 - 0.92) = -1.68;
    # 10 x -1.68 = -16.8 -> -17 -> 2643.
    # FIDE with the true D (2650 rule): row 620-735 -> 0.99; 4 x -0.49 = -1.96 -> -19.6 ->
    # -20 -> 2640.
    # Not another cause: base 2659/2661 gives 2642/2644; K x -1.68 = -20 needs K in
    # (11.6, 12.2]; capped once per tournament: 3 x -0.49 - 0.42 = -1.89 -> -19 -> 2641;
    # cap 350 (row 345-357, 0.89): 4 x -0.39 = -1.56 -> -16 -> 2644.
    s = Season()
    s.off("2025-09", 2660, k=10)
    t = s.tournament("Autumn Masters", "2025-09-20", "2025-09-25")
    for day in ("2025-09-20", "2025-09-21", "2025-09-22", "2025-09-23"):
        s.game(t, day, 2000, HALF)
    s.off("2025-10", 2640, games=4)
    oct_ = _row(s.check(), "2025-10")
    assert (oct_.replayed, oct_.official) == (2643, 2640)
    top = oct_.causes[0]
    assert top.kind == CAP and top.reproduces
    assert "2650 rule" in cause_text(top)


def test_an_opponent_unrated_for_fide() -> None:
    # Spring Open: the three games against 1700 (sum 0.58) and a win against "Dupont, Luc",
    # Elo 1500 in the PGN: D = +300, row 291-302 -> p_high 0.85 -> +0.15.
    # Replay: 20 x 0.73 = 14.6 -> 15 -> 1815, 4 games. FIDE (Dupont unrated there): 20 x
    # 0.58 = 11.6 -> 12 -> 1812, 3 games.
    s = Season()
    s.off("2025-01", 1800, k=20)
    spring = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
    _three_games_vs_1700(s, spring, "2025-01-10")
    s.game(spring, "2025-01-12", 1500, 1, opponent="Dupont, Luc")
    s.off("2025-02", 1812, games=3)
    feb = _row(s.check(), "2025-02")
    assert (feb.replayed, feb.official) == (1815, 1812)
    top = feb.causes[0]
    assert top.kind == UNRATED_OPPONENT and top.reproduces and "Dupont, Luc" in cause_text(top)


def test_an_unrated_opponent_fide_counted() -> None:
    # As above, but the fourth game has no Elo at all: the replay leaves it out (1812, 3
    # games) while FIDE rated 4 games (and some rating we cannot know): 1815.
    s = Season()
    s.off("2025-01", 1800, k=20)
    spring = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
    _three_games_vs_1700(s, spring, "2025-01-10")
    s.game(spring, "2025-01-12", None, 1, opponent="Newcomer, Ana")
    s.off("2025-02", 1815, games=4)
    feb = _row(s.check(), "2025-02")
    assert (feb.replayed, feb.games, feb.official_games) == (1812, 3, 4)
    kinds = [c.kind for c in feb.causes]
    assert kinds[0] == UNRATED_OPPONENT and "Newcomer, Ana" in cause_text(feb.causes[0])
    assert feb.causes[0].games_match
    assert NOT_IN_DATABASE in kinds


def test_the_ro_fide_used_was_the_players_elo_tag() -> None:
    # The Jan list says 1800 but the player's Elo tag in "Winter Cup" is 1810, and FIDE used
    # 1810. Five games against 1703, score 4:
    #   replay Ro 1800: D = +97, row 92-98 -> p_high 0.63; 4 - 3.15 = 0.85; 20 x 0.85 = 17
    #   -> 1817;
    #   FIDE Ro 1810: D = +107, row 107-113 -> 0.65; 4 - 3.25 = 0.75; 20 x 0.75 = 15 -> 1815.
    # Not another cause: base 1799 (D 96, 0.63) -> 1816, base 1801 (D 98, 0.63) -> 1818;
    # K x 0.85 = 15 needs 17.1 <= K < 18.2.
    s = Season()
    s.off("2025-01", 1800, k=20)
    t = s.tournament("Winter Cup", "2025-01-10", "2025-01-14")
    for i, score in enumerate((1, 1, 1, 1, 0)):
        s.game(t, f"2025-01-1{i}", 1703, score, own_elo=1810)
    s.off("2025-02", 1815, games=5)
    feb = _row(s.check(), "2025-02")
    assert (feb.replayed, feb.official) == (1817, 1815)
    top = feb.causes[0]
    assert top.kind == ELO_TAG and top.reproduces
    assert top.advice == (SetRo(t, 1810),)
    assert any(isinstance(n, TournamentNote) and n.note.tag == 1810 for n in feb.notes)


def test_a_pre_2008_list_is_not_replayed() -> None:
    # Anchor 2007-07 (1800); the 2007-10 list says 1810 after a tournament of Aug 2007,
    # which the tracker does not replay (tournament averages then): the difference is named,
    # and the replay re-anchors, so 2008-01 matches.
    s = Season()
    s.off("2007-07", 1800, k=15)
    old = s.tournament("Old Open", "2007-08-01", "2007-08-05")
    s.game(old, "2007-08-01", 1900, 1)
    s.off("2007-10", 1810, k=15)
    s.off("2008-01", 1810, k=15)
    report = s.check()
    row = _row(report, "2007-10")
    assert (row.status, row.replayed, row.official) == (DIFFERS, 1800, 1810)
    assert [c.kind for c in row.causes] == [PRE_2008]
    assert _row(report, "2008-01").status == MATCH
    assert report.before_2008 == 1


def test_all_match_and_json() -> None:
    # Feb: 1812 (sum 0.58, K 20 -> 11.6 -> 12), as published.
    s = Season()
    s.off("2025-01", 1800, k=20)
    spring = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
    _three_games_vs_1700(s, spring, "2025-01-10")
    s.off("2025-02", 1812, games=3)
    report = s.check()
    assert report.all_match
    data = check_json(report)
    assert data["all_match"] is True and data["compared"] == 1
    rows = data["rows"]
    assert isinstance(rows, list)
    assert rows[1]["replayed"] == 1812 and rows[1]["difference"] == 0


def test_k_differs_2400_reached_before_the_replay() -> None:
    # 2390 on the Jan list; FIDE knows a 2405 from years ago (K 10 for good), the replay
    # does not (K 20). Three games vs 2290: D = +100, row 99-106 p_high 0.64; 1, 1/2, 1:
    # sum 0.58. Replay 20 x 0.58 = 11.6 -> 12 -> 2402; FIDE 10 x 0.58 = 5.8 -> 6 -> 2396.
    # (K 40: 23.2 -> 23 -> 2413; base 2389/2391 -> 2401/2403.)
    s = Season()
    s.off("2025-01", 2390)
    t = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
    for score in (1, HALF, 1):
        s.game(t, "2025-01-10", 2290, score)
    s.off("2025-02", 2396, games=3)
    feb = _row(s.check(), "2025-02")
    assert (feb.replayed, feb.official) == (2402, 2396)
    top = feb.causes[0]
    assert top.kind == K_DIFFERS and "K 10" in cause_text(top) and "2400" in cause_text(top)
    assert top.advice == (SetPlayerFact(PlayerFact.EVER_2400),)


def test_k_differs_30_games_reached_earlier() -> None:
    # The replay counts 10 rated games (K 40, new player); FIDE had the player at 30 or more
    # (K 20). Sum 0.58: replay 40 x 0.58 = 23.2 -> 23 -> 1823; FIDE 11.6 -> 12 -> 1812.
    s = Season(info=PlayerInfo(birth_year=1980, rated_games=10))
    s.off("2025-01", 1800)
    spring = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
    _three_games_vs_1700(s, spring, "2025-01-10")
    s.off("2025-02", 1812, games=3)
    feb = _row(s.check(), "2025-02")
    assert (feb.replayed, feb.official, feb.k) == (1823, 1812, 40)
    top = feb.causes[0]
    assert top.kind == K_DIFFERS and "K 20" in cause_text(top) and "30 games" in cause_text(top)
    assert top.advice == (SetPlayerFact(PlayerFact.RATED_GAMES),)


def test_k_differs_the_700_rule_before_2017() -> None:
    # A junior (born 2002) with the official K 40 of the Jan 2016 list plays 20 games in
    # January 2016 against 1500 from 1500: D = 0, row 0-3 -> 0.50 each; 12 points: sum
    # 12 - 10.00 = 2.00. The replay (policy: the 700 rule from Jul 2017) keeps K 40:
    # 80 -> 1580. FIDE applied the rule: 20 x 40 = 800 > 700 -> K 35 (35 x 20 = 700):
    # 70 -> 1570. (K 20 -> 1540, K 10 -> 1520; base 1499/1501 keep D within row 0-3 ->
    # 1579/1581.)
    s = Season(info=PlayerInfo(birth_year=2002, rated_games=60))
    s.off("2016-01", 1500, k=40)
    t = s.tournament("Junior Open", "2016-01-04", "2016-01-14")
    for i in range(20):
        s.game(t, f"2016-01-{4 + i // 2:02d}", 1500, 1 if i < 4 else HALF)  # 4 wins, 16 draws
    s.off("2016-02", 1570, games=20)
    feb = _row(s.check(), "2016-02")
    assert (feb.replayed, feb.official, feb.k) == (1580, 1570, 40)
    top = feb.causes[0]
    assert top.kind == K_DIFFERS and "K 35" in cause_text(top) and "700 rule" in cause_text(top)


def test_games_extra_a_tournament_never_rated() -> None:
    # "Spring Open" (Feb list, sum 0.58) and "Friday Blitz Club" on 17-18 Jan (2 games vs
    # 1900 drawn: D = -100, p_low 0.36 -> 1 - 0.72 = 0.28) that FIDE never rated.
    # Replay Feb: 20 x 0.86 = 17.2 -> 17 -> 1817, 5 games. FIDE Feb: 20 x 0.58 = 11.6 ->
    # 12 -> 1812, 3 games; Mar, Apr and May 1812 with no games, so no later list takes it
    # (from 1812, +0.28 x 20 = 5.6 -> 6 would give 1818 there).
    s = Season()
    s.off("2025-01", 1800, k=20)
    spring = s.tournament("Spring Open", "2025-01-10", "2025-01-12")
    _three_games_vs_1700(s, spring, "2025-01-10")
    club = s.tournament("Friday Blitz Club", "2025-01-17", "2025-01-18")
    s.game(club, "2025-01-17", 1900, HALF)
    s.game(club, "2025-01-18", 1900, HALF)
    s.off("2025-02", 1812, games=3)
    for month in ("03", "04", "05"):
        s.off(f"2025-{month}", 1812, games=0)
    feb = _row(s.check(), "2025-02")
    assert (feb.replayed, feb.official) == (1817, 1812)
    top = feb.causes[0]
    assert top.kind == GAMES_EXTRA and top.reproduces
    assert top.advice == (ExcludeTournament(club),)
