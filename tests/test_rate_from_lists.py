"""The replay rates every opponent as FIDE's list in force at the tournament's start says,
whatever the PGN's Elo tag says: a missing, wrong or national tag gives way to the list, an
opponent the list has without a rating (or does not have) is unrated for FIDE, and a name
without a FIDE ID is matched against the list.

Each case is run twice through the real command line: once with the organisers' tags and a
FIDE list file imported (the layouts of three eras, tests/listgen.py), once with FIDE's own
ratings written into the tags and no list at all. FIDE computes from the second; the first
must give the same replay, period by period and game by game.

The list files hold the few players of the case and stand for FIDE's whole list, which a
user says with `--whole` (a file of a few rows is otherwise an excerpt, which says nothing
of the players it lacks: tests/test_list_kinds.py).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.listgen import Figures, Player, write_list
from tracker.model import Period, RatingList

ME = ("Novák, Tomáš", 99012345, 1850)


@dataclass(frozen=True)
class Opp:
    name: str
    fide_id: int | None  # in the PGN
    tag: str | None  # the organiser's WhiteElo/BlackElo
    listed: bool  # on FIDE's list at all
    rating: int | None  # FIDE's rating on the list in force (None: listed without one)
    list_id: int = 0  # the FIDE ID on the list (a name matched: the PGN has none)


OPPONENTS = (
    Opp("Adler, Anna", 1001, None, True, 1900),  # tag missing
    Opp("Berg, Bruno", 1002, "2150", True, 2000),  # tag wrong
    Opp("Cerny, Cyril", 1003, "1650", True, 1800),  # a national rating
    Opp("Dorn, Dora", 1004, "1700", True, None),  # FIDE lists her without a rating
    Opp("Egger, Emil", 1005, "1750", False, None),  # not on FIDE's list
    Opp("Fuchs, Franz", None, None, True, 1850, list_id=1006),  # no ID: matched by name
)
SCORES = ("1-0", "1/2-1/2", "0-1", "1-0", "1-0", "1/2-1/2")

ERAS = [  # (list layout, the list in force, the tournament's first day)
    pytest.param("txt", Period(2025, 11), dt.date(2025, 11, 7), id="txt-2025"),
    pytest.param("xml", Period(2025, 11), dt.date(2025, 11, 7), id="xml-2025"),
    pytest.param("txt-2012", Period(2014, 5), dt.date(2014, 5, 9), id="txt-2014"),
    pytest.param("txt-2009", Period(2011, 3), dt.date(2011, 3, 11), id="txt-2011"),
]


def _player(name: str, fide_id: int, rating: int | None) -> Player:
    figures = Figures(rating, None if rating is None else 12, None if rating is None else 20)
    empty = Figures(None, None, None)
    return Player(fide_id, name, "GER", "M", "", "", "", "", figures, empty, empty, 1985, "")


def _pgn(start: dt.date, fide_tags: bool) -> str:
    """The tournament: one game a day against each opponent, a standard time control. With
    `fide_tags`, each tag is FIDE's rating on the list in force (what FIDE computes from)."""
    games = []
    for i, (o, result) in enumerate(zip(OPPONENTS, SCORES, strict=True)):
        day = start + dt.timedelta(days=i)
        tag = (
            (None if not o.listed else None if o.rating is None else str(o.rating))
            if fide_tags
            else o.tag
        )
        headers = {
            "Event": "Lists Open",
            "Site": "Berlin",
            "Date": day.strftime("%Y.%m.%d"),
            "EventDate": start.strftime("%Y.%m.%d"),
            "Round": str(i + 1),
            "White": ME[0],
            "Black": o.name,
            "Result": result,
            "WhiteFideId": str(ME[1]),
            "WhiteElo": str(ME[2]),
            "TimeControl": "5400+30",
        }
        if o.fide_id is not None:
            headers["BlackFideId"] = str(o.fide_id)
        if tag is not None:
            headers["BlackElo"] = tag
        games.append(
            "".join(f'[{k} "{v}"]\n' for k, v in headers.items())
            + f"\n1. e4 e5 2. Nf3 Nc6 {result}\n"
        )
    return "\n".join(games)


def _cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    code, out, err = run_cli(capsys, monkeypatch, *args)
    assert code == 0, err
    return out


def _replay(
    tmp: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fmt: str,
    period: Period,
    start: dt.date,
    *,
    with_list: bool,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(history rows, explain games of the period that rates the tournament) as JSON."""
    tmp.mkdir()
    db = str(tmp / "t.db")
    pgn = tmp / "season.pgn"
    pgn.write_text(_pgn(start, fide_tags=not with_list), encoding="utf-8")
    _cli(capsys, monkeypatch, "import", str(pgn), "--db", db, "--player", ME[0])
    if with_list:
        people = [_player(ME[0], ME[1], ME[2])] + [
            _player(o.name, o.fide_id or o.list_id, o.rating) for o in OPPONENTS if o.listed
        ]
        name = f"standard_{period.month:02d}{period.year % 100:02d}frl"  # month from header
        listed = tmp / (name + (".xml" if fmt == "xml" else ".txt"))
        with listed.open("w", encoding="utf-8", newline="\n") as out:
            write_list(out, people, fmt, rating_list=RatingList.STANDARD, period=period)
        _cli(
            capsys,
            monkeypatch,
            "official",
            "import",
            str(listed),
            "--period",
            str(period),
            "--whole",
            "--db",
            db,
        )
    else:
        k = [] if fmt == "txt-2009" else ["--k", "20"]  # (that layout prints no K)
        _cli(
            capsys,
            monkeypatch,
            "official",
            "add",
            ME[0],
            "--period",
            str(period),
            "--rating",
            str(ME[2]),
            *k,
            "--db",
            db,
        )
    history = json.loads(_cli(capsys, monkeypatch, "history", "--db", db, "--format", "json"))
    rated = next(r["period"] for r in history if r["games"])
    games = json.loads(_cli(capsys, monkeypatch, "explain", rated, "--db", db, "--format", "json"))
    return history, games["games"] if isinstance(games, dict) else games


KEYS = ("opponent", "opponent_rating", "counted", "expected", "change", "k_change")


@pytest.mark.slow  # generates and imports a FIDE list for each format and year
@pytest.mark.parametrize("fmt,period,start", ERAS)
def test_the_list_in_force_gives_the_replay_of_fides_inputs(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fmt: str,
    period: Period,
    start: dt.date,
) -> None:
    fide, fide_games = _replay(
        tmp_path / "fide", capsys, monkeypatch, fmt, period, start, with_list=False
    )
    ours, our_games = _replay(
        tmp_path / "lists", capsys, monkeypatch, fmt, period, start, with_list=True
    )
    assert [{k: g[k] for k in KEYS} for g in our_games] == [
        {k: g[k] for k in KEYS} for g in fide_games
    ]
    assert [(r["period"], r["games"], r["change"], r["rating_after"]) for r in ours] == [
        (r["period"], r["games"], r["change"], r["rating_after"]) for r in fide
    ]
    by_name = {g["opponent"]: g for g in our_games}
    # the list's ratings, whatever the tags said; the tags kept as evidence
    assert by_name["Berg, Bruno"]["opponent_rating"] == 2000
    assert by_name["Berg, Bruno"]["opponent_elo_tag"] == "2150"
    assert by_name["Cerny, Cyril"]["opponent_rating"] == 1800
    assert by_name["Adler, Anna"]["opponent_rating"] == 1900
    assert by_name["Fuchs, Franz"]["opponent_rating"] == 1850
    assert all(
        g["opponent_rating_source"].startswith(f"standard {period} list (") for g in our_games
    )
    # unrated for FIDE, though the tag had a number: not counted, the list named
    for name in ("Dorn, Dora", "Egger, Emil"):
        assert by_name[name]["opponent_rating"] is None and by_name[name]["counted"] is False
        assert by_name[name]["opponent_elo_tag"] in ("1700", "1750")
    assert sum(1 for g in our_games if g["counted"]) == 4
    assert sum(r["opponents_from_lists"] for r in ours) == 4
    assert sum(r["opponents_from_lists"] for r in fide) == 0


def test_explain_and_history_say_where_the_ratings_came_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    period, start = Period(2025, 11), dt.date(2025, 11, 7)
    _replay(tmp_path / "lists", capsys, monkeypatch, "txt", period, start, with_list=True)
    db = str(tmp_path / "lists" / "t.db")
    text = _cli(capsys, monkeypatch, "explain", "2025-12", "--db", db)
    assert "list (tag 2150)" in text  # the rating used and the tag both shown
    assert "unrated on the list" in text
    assert "opponents' ratings from the standard 2025-11 list (standard_1125frl.txt)" in text
    history = _cli(capsys, monkeypatch, "history", "--db", db)
    assert "Opponents' ratings: FIDE's lists, all 4 games" in history


def test_lists_before_games_say_which_command_rates_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The list first, the games after: the import says the new players were not looked up
    # and which command does it; once it has run, the replay is the one of the other order.
    period, start = Period(2025, 11), dt.date(2025, 11, 7)
    _, ordered = _replay(
        tmp_path / "games-first", capsys, monkeypatch, "txt", period, start, with_list=True
    )
    folder = tmp_path / "list-first"
    folder.mkdir()
    db = str(folder / "t.db")
    people = [_player(ME[0], ME[1], ME[2])] + [
        _player(o.name, o.fide_id or o.list_id, o.rating) for o in OPPONENTS if o.listed
    ]
    listed = folder / "standard_1125frl.txt"
    with listed.open("w", encoding="utf-8", newline="\n") as out:
        write_list(out, people, "txt", rating_list=RatingList.STANDARD, period=period)
    _cli(
        capsys,
        monkeypatch,
        "official",
        "import",
        str(listed),
        "--period",
        str(period),
        "--whole",
        "--db",
        db,
    )
    pgn = folder / "season.pgn"
    pgn.write_text(_pgn(start, fide_tags=False), encoding="utf-8")
    said = _cli(capsys, monkeypatch, "import", str(pgn), "--db", db, "--player", ME[0])
    assert (
        "standard lists: 7 players of these games came after the lists imported "
        "(standard_1125frl.txt)"
    ) in said
    _cli(
        capsys,
        monkeypatch,
        "official",
        "import",
        str(listed),
        "--period",
        str(period),
        "--whole",
        "--db",
        db,
    )
    games = json.loads(
        _cli(capsys, monkeypatch, "explain", "2025-12", "--db", db, "--format", "json")
    )["games"]
    assert [{k: g[k] for k in KEYS} for g in games] == [{k: g[k] for k in KEYS} for g in ordered]
