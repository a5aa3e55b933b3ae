"""What a tournament's schedule says of games without a time control, on real events of the
corpus (shared/corpus): a play-off played one game a day is classical; a knock-out match
played two games a day, or an event of three games a day on several days, is not standard;
a day of four games is not standard unless the rounds say the file's dates are wrong; an
online game keeps its own reason; a rapid event's tag that is the standard rating is no
rating of the rapid list. Expected values are the events' own schedules and FIDE's bands
(spec section 6: a standard game needs 120 minutes for a 2400 player, so no standard match
plays two games a day and no standard event three rounds a day for days on end).
"""

from __future__ import annotations

import dataclasses
import json
import lzma
import re
from fractions import Fraction
from pathlib import Path

import pytest

from tests.builders import Replay
from tests.conftest import CORPUS, need_shared, run_captured
from tracker.app.histories import load_history
from tracker.app.players import resolve_player
from tracker.model import RatingList
from tracker.periods import GameFact, PlayerInfo, RatingFrom, RatingSource
from tracker.periods import Replay as ReplayResult
from tracker.periods.notes import PlayoffsClassical, WaitsForList
from tracker.periods.reasons import NotCounted, NotCountedWhy, ScheduleSays, StandardTag
from tracker.periods.rows import PeriodRow
from tracker.reports.words import why_text
from tracker.store import open_store

STD, RAPID = RatingList.STANDARD, RatingList.RAPID

pytestmark = pytest.mark.slow  # (real corpus files imported, or a bench script run)


def _games_of(files: tuple[str, ...], events: tuple[str, ...]) -> str:
    """The games of the named events, as they are in the corpus files."""
    need_shared()
    out: list[str] = []
    for name in files:
        text = lzma.decompress((CORPUS / name).read_bytes()).decode("utf-8", "replace")
        for game in re.split(r"\n(?=\[Event )", text):
            m = re.match(r'\s*\[Event "(.*)"\]', game)
            if m and m.group(1) in events:
                out.append(game.strip() + "\n")
    assert out, f"no game of {events} in {files}"
    return "\n".join(out)


def _import(tmp_path: Path, files: tuple[str, ...], events: tuple[str, ...]) -> str:
    pgn = tmp_path / "games.pgn"
    pgn.write_text(_games_of(files, events), encoding="utf-8")
    db = str(tmp_path / "t.db")
    code, _, err = run_captured("import", str(pgn), "--db", db)
    assert code == 0, err
    return db


def _load(db: str, player: str) -> dict[RatingList, ReplayResult]:
    with open_store(db) as store:
        return load_history(store, resolve_player(store, player)).replays


def _replays(
    tmp_path: Path, files: tuple[str, ...], events: tuple[str, ...], player: str
) -> dict[RatingList, ReplayResult]:
    return _load(_import(tmp_path, files, events), player)


def _counted(rp: ReplayResult, event: str) -> list[str]:
    """The rounds of the event's games the replay counted."""
    return sorted(
        g.round or ""
        for r in rp.rows
        for t in r.tournaments
        if t.unit.label == event
        for g in t.counted
    )


def _not_counted(rp: ReplayResult, event: str) -> list[NotCounted]:
    return [n for r in rp.rows for n in r.not_counted if n.tournament == event]


def test_a_play_off_played_one_game_a_day_is_classical(tmp_path: Path) -> None:
    # FIDE Grand Prix 2022 Belgrade: semifinals and final of two classical games, one a day
    # (9-10 and 12-13 March); Giri-Andreikin was decided by two rapid games on 11 March.
    event = "FIDE Grand Prix 2 Playoff"
    files = ("twic1427.pgn.xz", "twic1428.pgn.xz")
    counted: dict[str, list[str]] = {}
    db = _import(tmp_path, files, (event,))
    for player in ("Giri,A", "Andreikin,D", "Rapport,R", "Vachier Lagrave,M"):
        rps = _load(db, player)
        counted[player] = _counted(rps[STD], event)
        rows = [r for r in rps[STD].rows if any(t.unit.label == event for t in r.tournaments)]
        assert any(isinstance(n, PlayoffsClassical) for r in rows for n in r.notes)
        tie_breaks = _not_counted(rps[RAPID], event)
        assert all((n.why, n.detail) == (NotCountedWhy.NOT_RATED, "tie-break") for n in tie_breaks)
        if player in ("Giri,A", "Andreikin,D"):
            assert sorted(n.game.round or "" for n in tie_breaks) == ["1.3", "1.4"]
    assert counted == {
        "Giri,A": ["1.1", "1.2"],
        "Andreikin,D": ["1.1", "1.2", "2.1", "2.2"],
        "Rapport,R": ["1.1", "1.2", "2.1", "2.2"],
        "Vachier Lagrave,M": ["1.1", "1.2"],
    }
    # the six classical games, each counted for both its players
    assert sum(len(v) for v in counted.values()) == 2 * 6


@pytest.mark.parametrize(
    ("file", "player", "event", "games"),
    [
        # a knock-out's matches of two games a day: 1.1 and 1.2 against one opponent
        ("pgnmentor-Ivanchuk.pgn.xz", "Ivanchuk,V", "ACP Cup 2013", 2),
        ("pgnmentor-Shirov.pgn.xz", "Shirov,A", "ACP Cup 2013", 2),
        ("pgnmentor-Ivanchuk.pgn.xz", "Ivanchuk,V", "Trophee Karpov KO 2012", 10),
        ("pgnmentor-Ivanchuk.pgn.xz", "Ivanchuk,V", "2nd Karpov Trophy KO", 2),
        # eleven rounds in four days, three a day
        ("pgnmentor-Kosteniuk.pgn.xz", "Kosteniuk,A", "ACP Women Cup 2012", 11),
        ("pgnmentor-Stefanova.pgn.xz", "Stefanova,A", "ACP Women Cup 2012", 11),
    ],
)
def test_a_rapid_knock_out_or_round_robin_is_not_standard(
    tmp_path: Path, file: str, player: str, event: str, games: int
) -> None:
    # ("Corsica Masters KO 2011", Anand's ten games of 2011-10-28 to 31, was a case here:
    # its name now says rapid, the series being a rapid knock-out: the next test)
    rps = _replays(tmp_path, (file,), (event,), player)
    assert _counted(rps[STD], event) == []
    off = _not_counted(rps[STD], event)
    assert len(off) == games
    for n in off:
        assert n.why in (NotCountedWhy.MATCH_GAMES_A_DAY, NotCountedWhy.FAST_EVENT)
        assert isinstance(n.detail, ScheduleSays)
        assert n.detail.tournament_id == n.game.tournament_id
        # as every report says it: why, and how to put it on a list
        said = why_text(n)
        assert "not standard" in said
        assert "same opponent" in said or "rapid or blitz event" in said
        assert f"tracker event set {n.game.tournament_id} --list rapid|blitz" in said


def test_a_rapid_series_by_its_name_is_on_the_rapid_list(tmp_path: Path) -> None:
    # the Corsica Masters is a rapid knock-out whatever its name says: Anand's ten games of
    # 2011 are rapid games by the name, none standard (no schedule rule needed)
    event = "Corsica Masters KO 2011"
    rps = _replays(tmp_path, ("pgnmentor-Anand.pgn.xz",), (event,), "Anand,V")
    assert _counted(rps[STD], event) == [] and _not_counted(rps[STD], event) == []
    on_rapid = [g for u in rps[RAPID].units if u.label == event for g in u.games]
    assert len(on_rapid) == 10


def test_rounds_the_file_dates_on_one_day_stay_standard(tmp_path: Path) -> None:
    # 37th Greek Team Championship 2009: nine rounds, one a day from 4 to 9 July, but the
    # file dates rounds 2 to 5 on 5 July (a team championship plays one round a day).
    event = "37th Greek Teams"
    rps = _replays(tmp_path, ("pgnmentor-Ivanchuk.pgn.xz",), (event,), "Ivanchuk,V")
    assert _counted(rps[STD], event) == [str(r) for r in sorted(range(1, 10), key=str)]
    assert _not_counted(rps[STD], event) == []


def test_a_knock_outs_classical_games_dated_with_its_tie_breaks(tmp_path: Path) -> None:
    # Women's World Championship 2008 (Nalchik), a knock-out of two-game classical matches
    # played one game a day, tie-breaks the next day. The file dates all four games of
    # Hou's round 3 on 4 September and both games of round 4 on 7 September: the first two
    # of each match are classical, as in her other rounds; 3.3, 3.4, 5.3-5.6 are tie-breaks.
    event = "WCh-Women"
    rps = _replays(tmp_path, ("pgnmentor-Hou.pgn.xz",), (event,), "Hou Yifan")
    counted = _counted(rps[STD], event)
    assert {"3.1", "3.2", "4.1", "4.2", "1.1", "1.2", "5.1", "5.2"} <= set(counted)
    off = {n.game.round: n.why for n in _not_counted(rps[STD], event)}
    assert set(off) == {"3.3", "3.4", "5.3", "5.4", "5.5", "5.6"}
    assert all(why is NotCountedWhy.MATCH_GAMES_A_DAY for why in off.values())


def test_an_online_event_keeps_its_reason_and_gets_no_list_advice(tmp_path: Path) -> None:
    # Titled Tuesday (chess.com): ten games one evening, not rated by FIDE on any list
    event = "Titled Tuesday 2nd June"
    rps = _replays(tmp_path, ("pgnmentor-Giri.pgn.xz",), (event,), "Giri,A")
    off = _not_counted(rps[STD], event)
    assert len(off) >= 4
    assert {(n.why, n.detail) for n in off} == {(NotCountedWhy.NOT_RATED, "online")}


def test_a_rapid_events_tag_that_is_the_standard_rating_is_no_rapid_rating(
    tmp_path: Path,
) -> None:
    # TWIC prints the standard rating in rapid events: Giri's tag 2771 in the Grand Prix's
    # rapid tie-break is his standard rating of March 2022 (his tag in the classical games).
    event = "FIDE Grand Prix 2 Playoff"
    rps = _replays(tmp_path, ("twic1427.pgn.xz", "twic1428.pgn.xz"), (event,), "Giri,A")
    rapid = rps[RAPID]
    assert rapid.start_source == RatingFrom(RatingSource.WAITING)
    assert all(r.published != 2771 and r.source is not RatingSource.ELO_TAG for r in rapid.rows)
    (row,) = [r for r in rapid.rows if r.not_counted]
    assert any(isinstance(n, WaitsForList) for n in row.notes)


def _first_row(b: Replay) -> PeriodRow:
    rows = [r for r in b.run().rows if r.tournaments]
    return rows[0]


def test_a_rapid_tag_of_its_own_starts_the_rapid_history() -> None:
    # a rapid event's tag 2650 where the standard tag of the month is 2700: the rapid list's
    # rating as printed, the rapid history starts from it
    b = Replay(PlayerInfo(birth_year=1980, rated_games=100), rl=RAPID)
    std = b.t("Classic", "2025-10-04", "2025-10-05")
    b.g(std, 2700, 1, own=2700, rl=STD)
    fast = b.t("Rapid Open", "2025-10-11", "2025-10-11")
    b.g(fast, 2650, Fraction(1, 2), own=2650)
    row = _first_row(b)
    assert (row.rating_before, row.rating_before_source) == (2650, _tag_in("Rapid Open", 2650))
    # the same event printing the standard rating: no rapid rating to start from
    b.games = [g if g.rating_list == STD else _with_own(g, 2700) for g in b.games]
    row = _first_row(b)
    assert row.rating_before is None and row.games == 0
    (n,) = row.not_counted
    assert (n.why, n.detail) == (
        NotCountedWhy.NO_RATING_YET,
        StandardTag(RAPID, 2700, "Rapid Open"),
    )


def _tag_in(tournament: str, tag: int) -> RatingFrom:
    return RatingFrom(RatingSource.ELO_TAG, tournaments=(tournament,), rating=tag)


def _with_own(g: GameFact, own: int) -> GameFact:
    return dataclasses.replace(g, own_elo=own)


def test_the_rating_before_names_the_tournament_whose_tag_it_is() -> None:
    # two tournaments under one list, only the second printed the player's rating
    b = Replay(PlayerInfo(birth_year=1980, rated_games=100))
    first = b.t("Club Match", "2025-10-04", "2025-10-04")
    b.g(first, 1800, 1, own=None)
    second = b.t("Autumn Open", "2025-10-11", "2025-10-12")
    b.g(second, 1800, 1, own=1850)
    row = _first_row(b)
    assert (row.rating_before, row.rating_before_source) == (1850, _tag_in("Autumn Open", 1850))


def test_a_never_rated_events_tag_is_evidence_of_the_standard_list(tmp_path: Path) -> None:
    # Kosteniuk's pgnmentor file: "IMSA Basque w 2016" (Basque chess, never rated) printed
    # 2554, her rating on the 2016-03 list; the Belgian team league under the same list
    # printed its season's first rating, 2530. The Basque tag decides the list's rating.
    need_shared()
    db = str(tmp_path / "k.db")
    code, _, err = run_captured(
        "import", str(CORPUS / "pgnmentor-Kosteniuk.pgn.xz"), "--player", "Kosteniuk,A", "--db", db
    )
    assert code == 0, err
    code, out, _ = run_captured(
        "history", "--db", db, "--from", "2016-03", "--to", "2016-03", "--format", "json"
    )
    (row,) = json.loads(out)
    assert row["elo_tag"] == 2554 and row["published"] == 2554
    assert "2554 (IMSA Basque w 2016)" in row["note"] and "2530 (TCh-BEL" in row["note"]


def test_a_rapid_events_standard_tag_is_no_ro_either() -> None:
    # The rapid history starts from a rapid tag of its own (2650); a later rapid event
    # prints the standard rating of its month (2700): FIDE rates it from the player's rapid
    # rating, so its Ro is the replayed rapid one, not the tag.
    b = Replay(PlayerInfo(birth_year=1980, rated_games=100), rl=RAPID)
    first = b.t("Rapid Open", "2025-10-11", "2025-10-11")
    b.g(first, 2650, Fraction(1, 2), own=2650)
    std = b.t("Classic", "2025-12-01", "2025-12-02")
    b.g(std, 2700, Fraction(1, 2), own=2700, rl=STD)
    later = b.t("Winter Rapid", "2025-12-13", "2025-12-13")
    b.g(later, 2700, Fraction(1, 2), own=2700)
    rep = b.run()
    (plan,) = (p for r in rep.rows for p in r.tournaments if p.unit.label == "Winter Rapid")
    assert plan.elo_tag == 2700
    assert plan.ro == 2650 and plan.ro_source is RatingSource.REPLAYED
