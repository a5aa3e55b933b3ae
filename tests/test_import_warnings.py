"""A stored game that loses a tag value (an Elo or a date that is no value) is said, with
the game's line: the user sees why a game came out unrated or undated."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest

from tracker.app.importing import ImportOptions, import_paths
from tracker.errors import BadInput
from tracker.store import Store


def _game(
    white_elo: str, black_elo: str, date: str = "2025.10.04", event_date: str | None = None
) -> str:
    tags = [
        ("Event", "Club Open"),
        ("Site", "Brno CZE"),
        ("Date", date),
        ("Round", "1"),
        ("White", "Novak, Jan"),
        ("Black", "Svoboda, Petr"),
        ("Result", "1-0"),
        ("WhiteElo", white_elo),
        ("BlackElo", black_elo),
        ("TimeControl", "5400+30"),
    ]
    if event_date is not None:
        tags.append(("EventDate", event_date))
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    return head + "\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"


def _import(store: Store, tmp_path: Path, text: str, strict: bool = False) -> list[str]:
    path = tmp_path / "games.pgn"
    path.write_text(text, encoding="utf-8")
    report = import_paths(store, [str(path)], ImportOptions(strict=strict))
    return [p.rpartition("games.pgn:")[2] for s in report.sources for p in s.problems]


def _stored(db_path: Path) -> list[tuple[object, ...]]:
    con = sqlite3.connect(db_path)
    try:
        return con.execute(
            "SELECT white_elo, black_elo, coalesce(white_elo_tag, CAST(white_elo AS TEXT)), "
            "coalesce(black_elo_tag, CAST(black_elo AS TEXT)), date, date_tag "
            "FROM games ORDER BY id"
        ).fetchall()
    finally:
        con.close()


def test_an_elo_that_is_no_rating_is_said_and_the_game_kept(
    store: Store, db_path: Path, tmp_path: Path
) -> None:
    text = _game("1800a", "1750") + _game("2100", "17500", date="2025.10.05")
    problems = _import(store, tmp_path, text)
    assert problems == [
        "1: WhiteElo '1800a' is not a rating (a whole number from 1 to 3999): the game is "
        "stored without White's rating",
        "14: BlackElo '17500' is not a rating (a whole number from 1 to 3999): the game is "
        "stored without Black's rating",
    ]
    rows = _stored(db_path)
    assert [r[:4] for r in rows] == [(None, 1750, "1800a", "1750"), (2100, None, "2100", "17500")]


def test_the_usual_no_rating_marks_are_not_problems(store: Store, tmp_path: Path) -> None:
    text = "".join(
        _game(w, b, date=f"2025.10.{i + 1:02d}")
        for i, (w, b) in enumerate(
            [("-", "1750"), ("0", "?"), ("", "1600"), ("0000", "1500"), (" 1800 ", "1700")]
        )
    )
    assert _import(store, tmp_path, text) == []


def test_a_date_outside_the_calendar_is_said_and_the_game_kept_without_it(
    store: Store, db_path: Path, tmp_path: Path
) -> None:
    problems = _import(store, tmp_path, _game("1800", "1750", date="2025.13.45"))
    assert problems == [
        "1: Date '2025.13.45' is not a calendar date: the game is stored without it"
    ]
    assert _stored(db_path)[0][4:] == (None, "2025.13.45")


def test_a_partial_date_is_normal(store: Store, tmp_path: Path) -> None:
    assert _import(store, tmp_path, _game("1800", "1750", date="2025.??.??")) == []


def test_a_date_after_today_is_said(store: Store, db_path: Path, tmp_path: Path) -> None:
    later = dt.date.today() + dt.timedelta(days=400)
    tag = later.strftime("%Y.%m.%d")
    problems = _import(store, tmp_path, _game("1800", "1750", date=tag))
    assert problems == [f"1: Date '{tag}' is after today: check the file"]
    assert _stored(db_path)[0][4] is not None  # kept as written: the user decides


def test_a_bad_event_date_is_said_once_per_game(store: Store, tmp_path: Path) -> None:
    text = _game("1800", "1750", event_date="2025.02.30") + _game(
        "1800", "1750", date="2025.10.05", event_date="2025.02.30"
    )
    assert _import(store, tmp_path, text) == [
        "1: EventDate '2025.02.30' is not a calendar date: the game is stored without it",
        "15: EventDate '2025.02.30' is not a calendar date: the game is stored without it",
    ]


def test_strict_stores_nothing_of_a_file_with_such_a_game(
    store: Store, db_path: Path, tmp_path: Path
) -> None:
    text = _game("1800", "1750") + _game("abc", "1750", date="2025.10.05")
    with pytest.raises(BadInput, match=r"games.pgn:14: WhiteElo 'abc' .*--strict: nothing"):
        _import(store, tmp_path, text, strict=True)
    assert _stored(db_path) == []
