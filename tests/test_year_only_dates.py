"""Tournaments dated only by a year or a month (issue 37 item 2): pgnmentor dates 87 of
Ivanchuk's tournaments `1989.??.??`, which history, next and the season report called "no
date", each with its own pin to ask for.

- A year before the replay's first list (2008 standard, 2012 rapid and blitz) is a year
  FIDE rated by tournament averages (or without rapid and blitz lists): "before 2008, not
  replayed", with the other games of that kind.
- A year inside the replayed span is "dated only by year (2011)", one line a year, with one
  command that pins them all (`tracker event set --year 2011 --period YYYY-MM`) or sets them
  all aside (`--exclude`).
- A year and a month (`2011.05.??`) is in a known period: FIDE rates a tournament on the
  first list after its last round (spec, the list calendar: lists every two months from 1 Jul
  2009, a tournament must finish 7 days before the list date), so any day of May 2011 is
  rated on the 1 Jul 2011 list.

The small files are written by the tests; the real one is shared/corpus's pgnmentor file.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import lzma
import re
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import CORPUS, need_shared, run_captured
from tests.test_import import pgn, write
from tracker.advice import ExcludeYear, PinYear
from tracker.app.histories import load_history
from tracker.app.players import resolve_player
from tracker.fide.calendar import default_period
from tracker.model import Period, RatingList
from tracker.periods import GameFact, TagDate, TournamentFact, assign_units
from tracker.periods.plans import placed
from tracker.periods.reasons import NotCountedWhy, Unplaced
from tracker.reports.words import command, reason_label, why_text
from tracker.store import open_store

STD, RAPID = RatingList.STANDARD, RatingList.RAPID


def _game(gid: int, tid: int, rl: RatingList = STD) -> GameFact:
    return GameFact(
        id=gid,
        tournament_id=tid,
        date=None,
        round="1",
        white=True,
        opponent_id=1000 + gid,
        opponent=f"Opp {gid}",
        own_elo=2100,
        opponent_elo=2000,
        result="1-0",
        score=Fraction(1),
        rating_list=rl,
    )


def _unplaced(tag: TagDate | None, rl: RatingList = STD) -> tuple[Period | None, list[object]]:
    """The period of a one-game tournament dated by `tag` only, and why its game is in
    none (NotCountedWhy, Unplaced)."""
    t = TournamentFact(1, "Club League", tag_date=tag)
    (unit,) = assign_units([_game(1, 1, rl)], [t], rl)
    _, unplaced = placed([unit], rl)
    return unit.period, [(n.why, n.detail) for n in unplaced]


# --- the tags a tournament's games give ----------------------------------------------------


def test_the_latest_tag_date_is_the_last_year_and_its_last_month_when_all_give_one() -> None:
    assert TagDate.latest([]) is None
    assert TagDate.latest([TagDate(1988), TagDate(1989)]) == TagDate(1989)
    assert TagDate.latest([TagDate(2011, 5), TagDate(2011, 4)]) == TagDate(2011, 5)
    # a game of 2011 without a month may be later than May: the month is not known
    assert TagDate.latest([TagDate(2011, 5), TagDate(2011)]) == TagDate(2011)
    assert TagDate.latest([TagDate(2010), TagDate(2011, 2)]) == TagDate(2011, 2)


# --- where the replay puts them -------------------------------------------------------------


def test_a_year_before_the_replay_is_not_replayed_like_the_other_games_of_then() -> None:
    assert _unplaced(TagDate(1989)) == (
        None,
        [(NotCountedWhy.TOO_EARLY, Unplaced(STD, 1, None, 1989))],
    )
    # rapid lists begin with the games of 2012: a rapid event of 2011 is before them
    assert _unplaced(TagDate(2011), RAPID)[1] == [
        (NotCountedWhy.TOO_EARLY, Unplaced(RAPID, 1, None, 2011))
    ]


def test_a_year_of_the_replayed_span_is_dated_only_by_year_with_its_year() -> None:
    period, why = _unplaced(TagDate(2011))
    assert period is None
    assert why == [(NotCountedWhy.ONLY_YEAR, Unplaced(STD, 1, None, 2011))]
    (only,) = why
    assert isinstance(only, tuple)
    assert reason_label(*only) == "dated only by year (2011)"


def test_no_year_at_all_is_still_no_date() -> None:
    assert _unplaced(None)[1] == [(NotCountedWhy.NO_DATE, Unplaced(STD, 1, None, None))]


@pytest.mark.parametrize(
    ("tag", "period"),
    [
        # two-monthly lists (1 Jul 2009 to 1 May 2012), 7 days' closing: every day of May
        # 2011 is at least 31 days before the 1 Jul list
        (TagDate(2011, 5), Period(2011, 7)),
        (TagDate(2011, 6), Period(2011, 7)),  # (its last week: the Sep list, assumed not)
        # quarterly lists (1 Jan/Apr/Jul/Oct) before Jul 2009: May 2008 is rated in July
        (TagDate(2008, 5), Period(2008, 7)),
        # monthly lists from Jul 2012: the month's own list, the next month's first day
        (TagDate(2013, 5), Period(2013, 6)),
    ],
)
def test_a_year_and_a_month_is_in_the_period_of_that_month(tag: TagDate, period: Period) -> None:
    assert tag.month is not None
    assert _unplaced(tag) == (period, [])
    # the list any day of the month's first three weeks gives (the closing days, seven at
    # most, come after them)
    days = [dt.date(tag.year, tag.month, d) for d in range(1, 22)]
    assert {default_period(d) for d in days} == {period}


def test_a_month_before_the_replay_is_not_replayed() -> None:
    assert _unplaced(TagDate(2005, 3)) == (
        None,
        [(NotCountedWhy.TOO_EARLY, Unplaced(STD, 1, None, 2005))],
    )


def test_the_group_commands() -> None:
    assert command(PinYear(2011)) == "tracker event set --year 2011 --period YYYY-MM"
    assert command(PinYear(2011, Period(2012, 1))) == (
        "tracker event set --year 2011 --period 2012-01"
    )
    assert command(ExcludeYear(2011)) == "tracker event set --year 2011 --exclude"


# --- on the command line --------------------------------------------------------------------


def _games(elo: int = 2100) -> str:
    """A season of Novak's: two dated opens, three tournaments dated only by 2011 (two
    games each), one of 1999 only, one of May 2011, one without any date."""
    out = [
        pgn(Event="Spring Open 2010", Date="2010.03.10", WhiteElo=str(elo), BlackElo="2050"),
        pgn(Event="Autumn Open 2012", Date="2012.10.10", WhiteElo=str(elo), BlackElo="2050"),
        pgn(Event="Old Open", Date="1999.??.??", WhiteElo="2000", BlackElo="1900"),
        pgn(Event="Mystery", Site="Nowhere", Date="????.??.??", WhiteElo=str(elo)),
    ]
    for event in ("Club League 2011", "Summer Cup", "Town Cup"):
        for rnd in ("1", "2"):
            out.append(
                pgn(
                    Event=event,
                    Date="2011.??.??",
                    Round=rnd,
                    Black=f"Opp {event} {rnd}",
                    WhiteElo=str(elo),
                    BlackElo="2000",
                )
            )
    for rnd in ("1", "2"):
        out.append(
            pgn(
                Event="May Open",
                Date="2011.05.??",
                Round=rnd,
                Black=f"May {rnd}",
                WhiteElo=str(elo),
                BlackElo="2000",
                Result="1/2-1/2",
            )
        )
    return "".join(out)


@pytest.fixture
def season(tmp_path: Path) -> str:
    db = str(tmp_path / "t.db")
    f = write(tmp_path / "a.pgn", _games())
    code, out, err = run_captured("import", str(f), "--db", db, "--player", "Novak, Jan")
    assert code == 0, err
    # the import summary: the year's tournaments one line with the group commands; May's
    # are in a period; the undated one with its own pin
    assert (
        "dated only by year (2011): 6 games in 3 tournaments in no period: "
        "`tracker event set --year 2011 --period YYYY-MM` pins them all, "
        "`tracker event set --year 2011 --exclude` sets them all aside"
    ) in out.splitlines()
    assert "May Open" not in out and "Old Open" not in out
    assert "  tracker event set 4 --period YYYY-MM  (Mystery, Nowhere: 1 game)" in out
    return db


def _history(db: str) -> list[str]:
    code, out, err = run_captured("history", "--db", db)
    assert code == 0, err
    return out.splitlines()


def test_history_groups_the_year_and_places_the_month(season: str) -> None:
    lines = _history(season)
    assert (
        "In no period: dated only by year (2011): 3 tournaments, 6 games (Club League 2011, "
        "Summer Cup, Town Cup): `tracker event set --year 2011 --period YYYY-MM` pins them "
        "all, `tracker event set --year 2011 --exclude` sets them all aside"
    ) in lines
    assert "In no period: Mystery (1 game, no date): tracker event set 4 --period YYYY-MM" in lines
    assert "Not replayed: 1 game before the first standard list the tracker replays" in lines
    # May 2011's two draws are the 2011-07 list's games: 2100 against 2000, D = 100, an
    # expected score of 0.64 a game (FIDE's table 8.1.2)
    (row,) = [line for line in lines if line.startswith("2011-07")]
    assert row.split()[:5] == ["2011-07", "2100", "2", "1", "1.28"]
    code, out, err = run_captured("next", "--db", season)
    assert code == 0, err
    assert (
        "  3 tournaments: dated only by year (2011): `tracker event set --year 2011 --period "
        "YYYY-MM` pins them all, `tracker event set --year 2011 --exclude` sets them all aside "
        "(Club League 2011, Summer Cup, Town Cup)"
    ) in out.splitlines()
    assert "May Open (2011-05)" in out


def test_one_command_pins_the_whole_year(season: str) -> None:
    code, out, err = run_captured(
        "event", "set", "--year", "2011", "--period", "2012-01", "--db", season
    )
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "3 tournaments dated only by 2011: period 2012-01",
        "  5 Club League 2011",
        "  6 Summer Cup",
        "  7 Town Cup",
    ]
    lines = _history(season)
    assert not [line for line in lines if "dated only by year" in line]
    (row,) = [line for line in lines if line.startswith("2012-01")]
    assert row.split()[2:4] == ["6", "6"]  # six wins
    # and back to where the dates put them
    code, _, err = run_captured(
        "event", "set", "--year", "2011", "--period", "default", "--db", season
    )
    assert code == 0, err
    assert any("dated only by year (2011)" in line for line in _history(season))


def test_one_command_sets_the_whole_year_aside(season: str) -> None:
    code, out, err = run_captured("event", "set", "--year", "2011", "--exclude", "--db", season)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "3 tournaments dated only by 2011: excluded"
    lines = _history(season)
    assert not [line for line in lines if "dated only by year" in line]
    code, out, _ = run_captured("next", "--db", season)
    assert "dated only by year" not in out


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        # a list dated on 1 January 2011 cannot rate a tournament of 2011
        (
            ("--year", "2011", "--period", "2011-01"),
            2,
            "error: tournament 5 (Club League 2011, dated 2011) cannot be rated on the 2011-01 "
            "list (dated 2011-01-01, before it was over): give a later list (if its dates in "
            "the PGN are wrong and FIDE's page says otherwise, add --force)\n",
        ),
        (
            ("--year", "2010", "--exclude"),
            2,  # a year that matches nothing is a bad value, as a name or an id
            "error: --year 2010: no tournament is dated only by the year 2010 (Date tags like "
            "2010.??.?? and no whole date); `tracker event list` shows the tournaments\n",
        ),
        (
            ("5", "--year", "2011", "--exclude"),
            2,
            "error: give a tournament ID (from `tracker event list`) or --year YYYY, not both\n",
        ),
        (
            ("--exclude",),
            2,
            "error: give a tournament ID (from `tracker event list`), or --year YYYY for every "
            "tournament dated only by that year\n",
        ),
        (
            ("--year", "2011", "--ro", "2000"),
            2,
            "error: --ro is one tournament's: give its ID, not --year\n",
        ),
    ],
)
def test_the_group_command_refuses_in_one_line(
    season: str, args: tuple[str, ...], code: int, said: str
) -> None:
    assert run_captured("event", "set", *args, "--db", season) == (code, "", said)
    # nothing was recorded
    assert any("dated only by year (2011)" in line for line in _history(season))


# --- Ivanchuk's career (shared/corpus) ------------------------------------------------------


def _year_only_games(player: re.Pattern[str]) -> int:
    """The games of the pgnmentor file with a Date tag of a year (and maybe a month) but no
    day, where `player` is White or Black: counted in the file itself."""
    text = lzma.decompress((CORPUS / "pgnmentor-Ivanchuk.pgn.xz").read_bytes()).decode(
        "utf-8", "replace"
    )
    n = 0
    for game in re.split(r"\n(?=\[Event )", text):
        date = re.search(r'\[Date "(\d{4})\.(\d\d|\?\?)\.\?\?"\]', game)
        names = re.findall(r'\[(?:White|Black) "([^"]*)"\]', game)
        if date and any(player.fullmatch(name) for name in names):
            n += 1
    return n


@pytest.mark.slow
def test_ivanchuks_career_says_no_date_nowhere(tmp_path: Path) -> None:
    need_shared()
    db = str(tmp_path / "t.db")
    code, _, err = run_captured("import", str(CORPUS / "pgnmentor-Ivanchuk.pgn.xz"), "--db", db)
    assert code == 0, err
    # the file spells him two ways: one person
    code, _, err = run_captured("player", "merge", "Ivanchuk,V", "Ivanchuk, Vassily", "--db", db)
    assert code == 0, err
    code, _, err = run_captured("player", "set", "Ivanchuk,V", "--me", "--db", db)
    assert code == 0, err
    said = []
    for rl in RatingList:
        code, out, err = run_captured("history", "--list", str(rl), "--db", db)
        assert code == 0, err
        said.append(out)
    code, out, err = run_captured("next", "--db", db)
    assert code == 0, err
    said.append(out)
    page = tmp_path / "season.html"
    code, _, err = run_captured("report", "--output", str(page), "--db", db)
    assert code == 0, err
    said.append(page.read_text(encoding="utf-8"))
    for text in said:
        assert "no date" not in text
        assert "dated only by year" not in text  # every year of his is before 2008
    # next says them with the other tournaments of before 2008
    assert "before 2008: FIDE rated by tournament averages, not replayed" in said[3]
    # every game of his dated without a day (all of 1985-2002) is before the replay, and
    # counts as such: none is left in no period for want of a day
    with open_store(db) as store:
        who = resolve_player(store, "Ivanchuk,V")
        replays = load_history(store, who, tuple(RatingList)).replays
    undated = [n for rp in replays.values() for n in rp.unplaced if n.game.date is None]
    assert len(undated) == _year_only_games(re.compile(r"Ivanchuk, ?V(assily)?")) == 1029
    assert {n.why for n in undated} == {NotCountedWhy.TOO_EARLY}
    assert all("before 20" in why_text(n) for n in undated)


# --- what the lists of tournaments show of them --------------------------------------------


def _cells(out: str, name: str) -> list[str]:
    """The cells of the table row that names the tournament `name` (columns apart by two
    spaces or more)."""
    (line,) = [line for line in out.splitlines() if f"  {name}  " in line]
    return re.split(r"\s{2,}", line.strip())


def test_event_list_shows_the_year_or_the_month_a_tournament_is_dated_by(season: str) -> None:
    # Novak's tournaments (Id, Tournament, Start, End, ...): what the date tags give (ISO
    # 8601's reduced precision: a year, a year and a month), "?" when they give nothing
    code, out, err = run_captured("event", "list", "--db", season)
    assert code == 0, err
    assert _cells(out, "Old Open")[:4] == ["3", "Old Open", "1999", "1999"]
    assert _cells(out, "Summer Cup")[:4] == ["6", "Summer Cup", "2011", "2011"]
    assert _cells(out, "May Open")[:4] == ["8", "May Open", "2011-05", "2011-05"]
    assert _cells(out, "Mystery")[:4] == ["4", "Mystery", "?", "?"]
    assert _cells(out, "Spring Open 2010")[:4] == ["1", "Spring Open 2010"] + ["2010-03-10"] * 2


def test_every_tournament_shows_the_year_or_the_month_it_is_dated_by(tmp_path: Path) -> None:
    # the same games with no player tracked: `event list` lists every tournament (Id,
    # Tournament, Site, Start, End, Games)
    db = str(tmp_path / "t.db")
    code, _, err = run_captured("import", str(write(tmp_path / "a.pgn", _games())), "--db", db)
    assert code == 0, err
    code, out, err = run_captured("event", "list", "--db", db)
    assert code == 0, err
    assert _cells(out, "Old Open") == ["3", "Old Open", "Brno CZE", "1999", "1999", "1"]
    assert _cells(out, "Town Cup") == ["7", "Town Cup", "Brno CZE", "2011", "2011", "2"]
    assert _cells(out, "May Open") == ["8", "May Open", "Brno CZE", "2011-05", "2011-05", "2"]
    assert _cells(out, "Mystery") == ["4", "Mystery", "Nowhere", "?", "?", "1"]


def test_the_candidates_of_a_name_say_the_year_or_the_month(season: str) -> None:
    code, out, err = run_captured("event", "show", "Cup", "--db", season)
    assert (code, out) == (2, "")
    assert err == (
        "error: 2 tournaments match 'Cup': 6 Summer Cup (Brno CZE, 2011, 2 games); "
        "7 Town Cup (Brno CZE, 2011, 2 games); give the id\n"
    )
    code, out, err = run_captured("event", "show", "Open", "--db", season)
    assert code == 2
    assert (
        "1 Spring Open 2010 (Brno CZE, 2010-03-10, 1 game); 2 Autumn Open 2012 (Brno CZE, "
        "2012-10-10, 1 game); 3 Old Open (Brno CZE, 1999, 1 game); 8 May Open (Brno CZE, "
        "2011-05, 2 games)"
    ) in err


def test_the_title_of_one_tournament_says_the_year_or_the_month(season: str) -> None:
    # the first line of `event show`: the tournament, its site and what its dates say
    code, out, err = run_captured("event", "show", "Summer Cup", "--db", season)
    assert code == 0, err
    assert out.splitlines()[0].startswith("Summer Cup (Brno CZE, 2011): standard")
    code, out, err = run_captured("event", "show", "May Open", "--db", season)
    assert code == 0, err
    assert out.splitlines()[0].startswith("May Open (Brno CZE, 2011-05): standard")
    code, out, err = run_captured("event", "show", "Mystery", "--db", season)
    assert code == 0, err
    assert out.splitlines()[0].startswith("Mystery (Nowhere, ?): standard")


def test_the_json_and_csv_of_event_list_carry_the_year_or_the_month(
    season: str, tmp_path: Path
) -> None:
    # start and end stay whole dates (empty without one); partial_date says what the date
    # tags give, with the player tracked and without one
    code, out, err = run_captured("event", "list", "--db", season, "--format", "json")
    assert code == 0, err
    rows = {r["name"]: r for r in json.loads(out)}
    got = {n: (rows[n]["start"], rows[n]["partial_date"]) for n in ("Old Open", "May Open")}
    assert got == {"Old Open": (None, "1999"), "May Open": (None, "2011-05")}
    assert (rows["Mystery"]["start"], rows["Mystery"]["partial_date"]) == (None, None)
    assert rows["Spring Open 2010"]["partial_date"] is None
    db = str(tmp_path / "nobody.db")
    code, _, err = run_captured("import", str(write(tmp_path / "b.pgn", _games())), "--db", db)
    assert code == 0, err
    code, out, err = run_captured("event", "list", "--db", db, "--format", "csv")
    assert code == 0, err
    table = list(csv.DictReader(io.StringIO(out)))
    assert {r["name"]: r["partial_date"] for r in table} == {
        "Spring Open 2010": "",
        "Autumn Open 2012": "",
        "Old Open": "1999",
        "Mystery": "",
        "Club League 2011": "2011",
        "Summer Cup": "2011",
        "Town Cup": "2011",
        "May Open": "2011-05",
    }
