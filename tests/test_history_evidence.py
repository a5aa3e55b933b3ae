"""Real seasons, honest numbers (issue 13): the player's own Elo tags as evidence of a list,
official entries that re-anchor without hiding what came before, and every K assumption
said where the number is shown.

Numbers by hand from table 8.1.2 (shared/spec/table-8-1-2.csv): D = 0 gives PD 0.50 for
both sides. K from spec section 3 (K 20 for an adult with 30+ games under 2400, K 40 for a
new player or a junior under 2300, K 10 from 2400).
"""

from __future__ import annotations

import datetime as dt
import json
import lzma
from fractions import Fraction
from pathlib import Path

import pytest

from tests.builders import Replay, Season
from tests.conftest import CORPUS, need_shared, run_cli
from tracker.advice import PlayerFact, SetPlayerFact
from tracker.model import OfficialEntry, Period, RatingList
from tracker.periods import (
    NotCountedWhy,
    PeriodRow,
    PlayerInfo,
    RatingFrom,
    RatingSource,
    ReplayInputs,
    ScheduleSays,
    replay,
)
from tracker.periods.notes import ReanchoredOnTag, TagDiffers, TagsDisagree
from tracker.reports.words import why_text
from tracker.store import open_store

STD = RatingList.STANDARD
H = Fraction(1, 2)
ADULT = PlayerInfo(birth_year=1980, rated_games=100, ever_2400=False)


def _season_with_missing_games() -> Replay:
    # Oct Open (4-5 Oct 2025, -> Nov list), the player's tag 1800: a win vs 1800, D 0, PD 0.50,
    # +0.50 x K 20 = +10 -> replayed 1810 on the Nov list. The organiser of the Nov Open
    # (8-9 Nov, under the Nov list) printed 1830: games the file lacks moved the real rating.
    # A draw vs 1830 there.
    b = Replay(ADULT)
    t1 = b.t("Oct Open", "2025-10-04", "2025-10-05")
    b.g(t1, 1800, 1, own=1800)
    t2 = b.t("Nov Open", "2025-11-08", "2025-11-09")
    b.g(t2, 1830, H, own=1830)
    return b


def test_the_players_own_tag_re_anchors_a_list_without_an_official_entry() -> None:
    rp = _season_with_missing_games().run()
    nov, dec = rp.row(Period(2025, 11)), rp.row(Period(2025, 12))
    assert nov is not None and dec is not None
    assert (nov.rating_before, nov.change, nov.replayed) == (1800, 10, 1810)
    assert (nov.elo_tag, nov.tag_difference, nov.published, nov.source) == (
        1830,
        -20,
        1830,
        RatingSource.ELO_TAG,
    )
    assert ReanchoredOnTag(1830, ("Nov Open",), 1810) in nov.notes
    # Dec starts from the tag: the draw vs 1830 is D 0, PD 0.50, no change -> 1830.
    assert (dec.rating_before, dec.rating_before_source) == (
        1830,
        RatingFrom(RatingSource.ELO_TAG, Period(2025, 11)),
    )
    assert (dec.change, dec.replayed) == (0, 1830)


def test_without_the_tag_policy_the_replay_drifts(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    replay_module = importlib.import_module("tracker.periods.replay")

    monkeypatch.setattr(replay_module, "TAG_IS_EVIDENCE_OF_THE_LIST", False)
    rp = _season_with_missing_games().run()
    nov, dec = rp.row(Period(2025, 11)), rp.row(Period(2025, 12))
    assert nov is not None and dec is not None
    assert (nov.published, nov.elo_tag, nov.source) == (1810, None, RatingSource.REPLAYED)
    # Ro 1830 (the tag) for the Nov Open, draw vs 1830: 0 -> 1810 + 0.
    assert (dec.rating_before, dec.replayed) == (1810, 1810)


def test_tags_that_disagree_are_said_and_the_most_common_wins() -> None:
    b = _season_with_missing_games()
    t3 = b.t("Nov Rapidplay", "2025-11-15", "2025-11-16")
    b.g(t3, 1830, H, own=1825)
    t4 = b.t("Nov League", "2025-11-22", "2025-11-22")
    b.g(t4, 1830, H, own=1830)
    nov = b.run().row(Period(2025, 11))
    assert nov is not None and nov.elo_tag == 1830 and nov.published == 1830
    (note,) = [n for n in nov.notes if isinstance(n, TagsDisagree)]
    assert (1830, "Nov Open") in note.tags and (1825, "Nov Rapidplay") in note.tags


def test_an_official_entry_wins_over_the_tags_and_the_disagreement_is_shown() -> None:
    b = _season_with_missing_games()
    b.off("2025-11", 1815)
    rp = b.run()
    nov, dec = rp.row(Period(2025, 11)), rp.row(Period(2025, 12))
    assert nov is not None and dec is not None
    assert (nov.published, nov.source, nov.elo_tag) == (1815, RatingSource.OFFICIAL, None)
    assert dec.tournaments[0].note == TagDiffers(1830, Period(2025, 11), 1815)


def test_an_official_entry_after_the_games_never_hides_them() -> None:
    # Issue 13: recording "my rating today" made history shrink to one row. The official
    # Jan 2026 1835 comes after the Nov and Dec periods: both are replayed and shown, marked.
    b = _season_with_missing_games()
    b.off("2026-01", 1835)
    rp = b.run()
    assert [str(r.period) for r in rp.rows] == ["2025-11", "2025-12", "2026-01"]
    assert [r.before_official for r in rp.rows] == [True, True, False]
    jan = rp.row(Period(2026, 1))
    assert jan is not None and jan.anchored and jan.published == 1835


# --- K assumptions, one kind at a time ----------------------------------------------------


def _one_win(start_rating: int) -> Replay:
    # Official Oct 2025 list, no K; the Nov list rates a win vs an equal opponent (D 0).
    b = Replay(ADULT)
    b.off("2025-10", start_rating)
    t = b.t("Oct Open", "2025-10-04", "2025-10-05")
    b.g(t, start_rating, 1, own=start_rating)
    return b


def _nov(b: Replay, player: PlayerInfo) -> PeriodRow:
    row = b.run(player).row(Period(2025, 11))
    assert row is not None
    return row


def test_games_completed_unknown_is_assumed_30_and_said() -> None:
    # An adult rated 1800 with no count recorded: policy GAMES_COMPLETED_WHEN_UNKNOWN -> 30+,
    # K 20: +0.50 x 20 = +10 -> 1810 (the adult "rated for years" got K 40 before).
    row = _nov(_one_win(1800), PlayerInfo(birth_year=1980, ever_2400=False))
    assert (row.k, row.replayed) == (20, 1810)
    assert [a.fact for a in row.assumptions] == ["rated-games"]
    assert row.assumptions[0].advice == SetPlayerFact(PlayerFact.RATED_GAMES)
    # Recorded: 10 games -> a new player, K 40: +20 -> 1820, nothing assumed.
    row = _nov(_one_win(1800), PlayerInfo(birth_year=1980, rated_games=10, ever_2400=False))
    assert (row.k, row.replayed, row.assumptions) == (40, 1820, ())


def test_birth_year_unknown_is_assumed_adult_and_said() -> None:
    row = _nov(_one_win(1800), PlayerInfo(rated_games=100, ever_2400=False))
    assert (row.k, row.replayed) == (20, 1810)
    assert [a.fact for a in row.assumptions] == ["birth-year"]
    # Born 2012: a junior under 2300 on the Oct 2025 list -> K 40: +20 -> 1820.
    row = _nov(_one_win(1800), PlayerInfo(birth_year=2012, rated_games=100, ever_2400=False))
    assert (row.k, row.replayed, row.assumptions) == (40, 1820, ())


def test_2400_reached_unknown_is_said_for_a_player_near_it() -> None:
    # 2350 (2300 or more: PEAK_FOR_2400_QUESTION), 2400 ever not recorded: K 20 taken,
    # +10 -> 2360, and said; recorded "never": nothing said; recorded "yes": K 10, +5.
    row = _nov(_one_win(2350), PlayerInfo(birth_year=1980, rated_games=100))
    assert (row.k, row.replayed) == (20, 2360)
    assert [a.fact for a in row.assumptions] == ["ever-2400"]
    row = _nov(_one_win(2350), PlayerInfo(birth_year=1980, rated_games=100, ever_2400=False))
    assert row.assumptions == ()
    row = _nov(_one_win(2350), PlayerInfo(birth_year=1980, rated_games=100, ever_2400=True))
    assert (row.k, row.replayed, row.assumptions) == (10, 2355, ())
    # Far below 2300 the question is not asked.
    row = _nov(_one_win(1800), PlayerInfo(birth_year=1980, rated_games=100))
    assert row.assumptions == ()


def test_an_official_k_is_no_assumption() -> None:
    b = _one_win(1800)
    b.official[0] = OfficialEntry(1, STD, Period(2025, 10), 1800, k=20)
    row = _nov(b, PlayerInfo())
    assert (row.k, row.assumptions) == (20, ())


def test_every_command_shows_the_assumption(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "a.db"
    with open_store(str(db)) as store:
        s = Season(store, birth_year=1980, rated_games=None)
        t = s.tournament("Autumn Open", "2025-10-04", "2025-10-05")
        s.game(t, 1800, 1, own_elo=1800, date="2025-10-04")
        s.official("2025-10", 1800)
        s.official("2025-11", 1810)
        t2 = s.tournament("Club League", "2025-11-08", "2025-11-09")
        s.game(t2, 1810, 1, own_elo=1810, date="2025-11-08")
    want = "K assumes 30+ rated games completed (tracker player set 99012345 --rated-games N)"
    for args in (["history"], ["next"], ["explain", "2025-11"], ["check"]):
        code, out, err = run_cli(capsys, monkeypatch, *args, "--db", str(db))
        assert code == 0, (args, err)
        assert want in out, (args, out)
    for args in (
        ["history", "-f", "json"],
        ["explain", "2025-11", "-f", "json"],
        ["next", "-f", "json"],
        ["check", "-f", "json"],
    ):
        code, out, err = run_cli(capsys, monkeypatch, *args, "--db", str(db))
        assert code == 0, (args, err)
        assert '"fact": "rated-games"' in out and "--rated-games N" in out, (args, out)
        json.loads(out)


# --- the newcomer's exact steps on a real file --------------------------------------------


@pytest.mark.slow
def test_recording_todays_rating_keeps_the_earlier_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13: after importing a player's games, `tracker official add 1503014 --period
    2025-11 --rating 2839 --k 10 --games 9` made `history` shrink to one row."""
    need_shared()
    pgn = tmp_path / "carlsen.pgn"
    pgn.write_bytes(lzma.decompress((CORPUS / "pgnmentor-Carlsen.pgn.xz").read_bytes()))
    db = str(tmp_path / "c.db")
    code, _, err = run_cli(capsys, monkeypatch, "import", str(pgn), "--db", db)
    assert code == 0, err
    assert (
        run_cli(
            capsys,
            monkeypatch,
            "player",
            "set",
            "Carlsen,M",
            "--me",
            "--fide-id",
            "1503014",
            "--db",
            db,
        )[0]
        == 0
    )
    code, before, _ = run_cli(capsys, monkeypatch, "history", "-f", "json", "--db", db)
    assert code == 0
    rows_before = json.loads(before)
    assert len(rows_before) > 50
    code, _, err = run_cli(
        capsys,
        monkeypatch,
        "official",
        "add",
        "1503014",
        "--period",
        "2025-11",
        "--rating",
        "2839",
        "--k",
        "10",
        "--games",
        "9",
        "--db",
        db,
    )
    assert code == 0, err
    code, after, _ = run_cli(capsys, monkeypatch, "history", "-f", "json", "--db", db)
    rows_after = json.loads(after)
    assert [r["period"] for r in rows_after] == [r["period"] for r in rows_before] + ["2025-11"]
    assert all(r["before_official"] for r in rows_after[:-1])
    assert rows_after[-1]["official_rating"] == 2839 and rows_after[-1]["source"] == "official"
    for key in ("rating_after", "published", "elo_tag"):
        assert [r[key] for r in rows_after[:-1]] == [r[key] for r in rows_before]
    code, table, _ = run_cli(capsys, monkeypatch, "history", "--db", db)
    assert "before the first official rating" in table and "2839" in table


# --- what the lists say feeds the replay (issue 14) ---------------------------------------


def test_the_lists_games_columns_count_toward_the_30() -> None:
    # Sep 2025 (20 games in the period) and Oct 2025 (12) as FIDE's lists print them: 32
    # rated games at least, so the count is no assumption (K 20, adult, born 1980).
    b = _one_win(1800)
    b.official = [
        OfficialEntry(1, STD, Period(2025, 9), 1790, games=20, source="a.txt"),
        OfficialEntry(1, STD, Period(2025, 10), 1800, games=12, source="b.txt"),
    ]
    row = _nov(b, PlayerInfo(birth_year=1980, ever_2400=False))
    assert (row.k, row.replayed, row.assumptions) == (20, 1810, ())
    b.official = [OfficialEntry(1, STD, Period(2025, 10), 1800, games=12, source="b.txt")]
    assert [a.fact for a in _nov(b, PlayerInfo(birth_year=1980, ever_2400=False)).assumptions] == [
        "rated-games"
    ]


def test_explain_and_history_name_the_list_behind_k_and_the_inactive_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "l.db"
    with open_store(str(db)) as store:
        s = Season(store, birth_year=None, rated_games=100)
        t = s.tournament("Autumn Open", "2025-10-04", "2025-10-05")
        s.game(t, 1800, 1, own_elo=1800, date="2025-10-04")
    from tracker.store.entries import add_entry

    with open_store(str(db)) as store:
        add_entry(
            store,
            OfficialEntry(
                s.player_id,
                STD,
                Period(2025, 10),
                1800,
                k=40,
                birth_year=2010,
                source="standard_oct25frl.zip",
            ),
        )
        add_entry(
            store,
            OfficialEntry(
                s.player_id, STD, Period(2025, 12), 1820, flag="i", source="standard_dec25frl.zip"
            ),
        )
    code, out, err = run_cli(capsys, monkeypatch, "explain", "2025-11", "--db", str(db))
    assert code == 0, err
    # K 40 printed on the Oct list wins; +0.50 x 40 = +20 -> 1820
    assert "K 40: official K (printed on the 2025-10 list, standard_oct25frl.zip)" in out
    code, out, err = run_cli(capsys, monkeypatch, "history", "--db", str(db))
    assert "inactive on this list (flag i)" in out
    code, out, err = run_cli(capsys, monkeypatch, "check", "--db", str(db))
    assert "standard_dec25frl.zip (inactive)" in out and "standard_oct25frl.zip" in out


def test_a_team_leagues_season_tag_is_no_new_evidence() -> None:
    # A league prints the season's first rating on every weekend: its 1800 under the Oct
    # list is evidence of Oct; the same 1800 on the Nov weekend is no evidence of the Nov
    # list, where the replayed 1810 (Oct Open: win vs 1800, +10) stands.
    b = Replay(ADULT)
    t1 = b.t("Bundesliga 2025/26", "2025-10-04", "2025-10-05")
    b.g(t1, 1800, 1, own=1800)
    t2 = b.t("Bundesliga 2025/26", "2025-11-08", "2025-11-09")
    b.g(t2, 1810, H, own=1800)
    b.g(t2, 1810, H, own=1800)
    nov = b.run().row(Period(2025, 11))
    assert nov is not None and (nov.replayed, nov.published, nov.elo_tag) == (1810, 1810, None)


def test_tags_weighted_by_games_and_the_replay_agreeing_with_one_of_them() -> None:
    # Under the Nov list: a 9-game open printed 1830, a 1-game league match 1825: the open's
    # tag stands (weighted by games, not one vote a tournament).
    b = _season_with_missing_games()  # Nov Open: 1 game at 1830
    for _ in range(8):
        b.g(2, 1830, H, own=1830)
    t3 = b.t("League", "2025-11-15", "2025-11-15")
    b.g(t3, 1830, H, own=1825)
    b.g(t3, 1830, H, own=1825)
    nov = b.run().row(Period(2025, 11))
    assert nov is not None and nov.published == 1830
    # When the tags disagree and one of them is the replayed 1810, the replay stands.
    b = _season_with_missing_games()
    t3 = b.t("League", "2025-11-15", "2025-11-15")
    b.g(t3, 1830, H, own=1810)
    nov = b.run().row(Period(2025, 11))
    assert nov is not None and (nov.published, nov.source) == (1810, RatingSource.REPLAYED)
    assert any(isinstance(n, TagsDisagree) for n in nov.notes)


def test_games_stored_from_before_the_replay_are_completed_games() -> None:
    # 30 games of 2007 (before 2008: not replayed) against rated opponents: 30 completed is a
    # fact, not the policy's assumption (adult, born 1980, K 20: +10 -> 1810).
    b = _one_win(1800)
    t0 = b.t("Old Open", "2007-05-01", "2007-05-09")
    for _ in range(30):
        b.g(t0, 1700, H, own=1750)
    row = _nov(b, PlayerInfo(birth_year=1980, ever_2400=False))
    assert (row.k, row.replayed, row.assumptions) == (20, 1810, ())
    b = _one_win(1800)
    t0 = b.t("Old Open", "2007-05-01", "2007-05-09")
    for _ in range(29):
        b.g(t0, 1700, H, own=1750)
    assert [a.fact for a in _nov(b, PlayerInfo(birth_year=1980, ever_2400=False)).assumptions] == [
        "rated-games"
    ]


# --- dates, name-based reasons, first-rating notes -----------------------------------------


def test_history_lists_an_undated_tournament_with_its_real_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13 item 5: a game without a usable date, no dated tournament of its event and
    site to join: `history` (not only `next`) names it with the id that fixes it."""
    games = "".join(
        f'[Event "{ev}"]\n[Site "Brno"]\n[Date "{d}"]\n[Round "{r}"]\n[White "Me, Myself"]\n'
        f'[Black "Opp, {r}"]\n[Result "1-0"]\n[WhiteElo "1800"]\n[BlackElo "1800"]\n'
        '[TimeControl "5400+30"]\n\n1. e4 e5 1-0\n\n'
        for ev, d, r in (("Autumn Open", "2025.10.04", "1"), ("Club Ch", "????.??.??", "2"))
    )
    (tmp_path / "g.pgn").write_text(games, encoding="utf-8")
    db = str(tmp_path / "u.db")
    assert (
        run_cli(
            capsys,
            monkeypatch,
            "import",
            str(tmp_path / "g.pgn"),
            "--player",
            "Me, Myself",
            "--db",
            db,
        )[0]
        == 0
    )
    code, out, _ = run_cli(capsys, monkeypatch, "event", "list", "-f", "json", "--db", db)
    club = next(r for r in json.loads(out) if r["name"] == "Club Ch")
    code, out, _ = run_cli(capsys, monkeypatch, "history", "--db", db)
    assert code == 0
    assert (
        f"In no period: Club Ch (1 game, no date): tracker event set {club['id']} --period YYYY-MM"
    ) in out


def test_a_name_based_not_rated_counts_once_the_user_puts_it_on_a_list() -> None:
    # A tie-break read from the name is not rated; `event set ID --list rapid` (FIDE's page
    # shows it rated there) makes it count: win vs 1800 (D 0), K 20 -> +10 -> 1810.
    rp_games = Replay(ADULT)
    t = rp_games.t("Cup TB", "2025-10-04", "2025-10-04")
    rp_games.g(t, 1800, 1, own=1800)
    g = rp_games.games[0]
    import dataclasses

    rp_games.games[0] = dataclasses.replace(
        g, rated=False, not_rated_reason="tie-break", rating_list=RatingList.RAPID
    )
    inputs = ReplayInputs(RatingList.RAPID, rp_games.games, rp_games.tournaments, (), ADULT)
    (row,) = replay(inputs).rows  # the period is shown, the game not counted
    n = row.not_counted[0]
    assert row.games == 0 and (n.why, n.detail) == (NotCountedWhy.NOT_RATED, "tie-break")
    pinned = [dataclasses.replace(rp_games.tournaments[0], pinned_list=RatingList.RAPID)]
    rows = replay(ReplayInputs(RatingList.RAPID, rp_games.games, pinned, (), ADULT)).rows
    nov = next(r for r in rows if str(r.period) == "2025-11")
    assert (nov.games, nov.replayed) == (1, 1810)
    # a variant (Chess960) stays never rated, pinned or not
    rp_games.games[0] = dataclasses.replace(
        g, rated=False, not_rated_reason="variant", rating_list=RatingList.RAPID
    )
    rows = replay(ReplayInputs(RatingList.RAPID, rp_games.games, pinned, (), ADULT)).rows
    assert all(r.games == 0 for r in rows)


def test_history_says_why_a_first_event_was_ignored() -> None:
    # Spec section 4 (Jul 2014 - Feb 2024): a zero score in the first event is disregarded.
    # An unrated player (no Elo tag) loses all five games of May 2023: no rating, and the
    # history note says which event was ignored and why.
    from tracker.reports import row_note

    b = Replay(ADULT)
    t = b.t("May Open", "2023-05-10", "2023-05-14")
    for _ in range(5):
        b.g(t, 2100, 0, own=None)
    (row,) = [r for r in b.run(PlayerInfo()).rows if r.first is not None]
    assert row.first is not None and row.first.rating is None
    assert "ignored: May Open (zero score in the first event)" in row_note(row)


def test_four_games_a_day_without_a_time_control_are_no_standard_games() -> None:
    # Policy GAMES_A_DAY_NOT_STANDARD: a classical round on 4 Oct, then 4 games on 5 Oct,
    # none with a TimeControl: the 5 Oct games are not standard. The win vs 1800 on 4 Oct
    # alone counts: +0.50 x 20 = +10 -> 1810 (the four losses would have cost 40 more).
    import dataclasses

    b = Replay(ADULT)
    t = b.t("Classic", "2025-10-04", "2025-10-05")
    b.g(t, 1800, 1, own=1800)
    for _ in range(4):
        b.g(t, 1800, 0, own=1800)
    day2 = dt.date(2025, 10, 5)
    b.games = [
        dataclasses.replace(g, list_assumed=True, date=day2 if i else g.date)
        for i, g in enumerate(b.games)
    ]
    nov = b.run().row(Period(2025, 11))
    assert nov is not None and (nov.games, nov.replayed) == (1, 1810)
    assert len(nov.not_counted) == 4
    n = nov.not_counted[0]
    assert (n.why, n.detail) == (NotCountedWhy.GAMES_A_DAY, ScheduleSays(1))
    assert why_text(n) == (
        "4+ games on one day without a time control: not standard (rapid or blitz? "
        "tracker event set 1 --list rapid|blitz)"
    )
    # three a day (a weekend open's Saturday) stay standard: 1 win, 3 losses
    b.games = b.games[:4]
    nov = b.run().row(Period(2025, 11))
    assert nov is not None and nov.games == 4
    # with a TimeControl read (not assumed) the games are what it says
    b.games = [dataclasses.replace(g, list_assumed=False) for g in b.games] + [
        dataclasses.replace(b.games[1], id=99, list_assumed=False)
    ]
    nov = b.run().row(Period(2025, 11))
    assert nov is not None and nov.games == 5


def test_a_game_put_on_a_list_by_assumption_is_said_in_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13 item 4: what was assumed is reported in the history notes too."""
    game = (
        '[Event "League"]\n[Site "Brno"]\n[Date "2025.10.04"]\n[Round "1"]\n'
        '[White "Me, Myself"]\n[Black "Opp, One"]\n[Result "1-0"]\n[WhiteElo "1800"]\n'
        '[BlackElo "1800"]\n\n1. e4 e5 1-0\n'
    )
    (tmp_path / "g.pgn").write_text(game, encoding="utf-8")
    db = str(tmp_path / "a.db")
    assert (
        run_cli(
            capsys,
            monkeypatch,
            "import",
            str(tmp_path / "g.pgn"),
            "--player",
            "Me, Myself",
            "--db",
            db,
        )[0]
        == 0
    )
    code, out, _ = run_cli(capsys, monkeypatch, "history", "-f", "json", "--db", db)
    (row,) = json.loads(out)
    assert row["list_assumed_games"] == 1
    assert (
        "1 game on this list by assumption (no time control: tracker event set ID --list)"
        in row["note"]
    )
