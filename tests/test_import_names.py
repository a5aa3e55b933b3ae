"""Games without a TimeControl tag: the list (or "never rated") their event and round names
say, on real files (issue 13 item 4).

shared/corpus/pgnmentor-Carlsen.pgn.xz has no TimeControl tag at all. Its Event tags (read
with `xzcat ... | grep '^\\[Event '`) include "7th Sinquefield Cup TB" (4 games), "7th Norway
Armageddon" (7), "8th Norway Armageddon" (3), "World Blitz" (95), "Amber Rapid" (22), "Magnus
Inv Simul 2017" (1), "Amber Blindfold" (22); twic1427 has "FIDE Grand Prix 2 Playoff" (8) and
"ch-ROU Rapid 2022" (265). What each should become is the module's reading
(tracker/fide/eventnames.py), never a count our code produced: the counts are the files'.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from tests.conftest import need_shared
from tests.test_import import pgn, run, write
from tracker.cli import app
from tracker.model import RatingList
from tracker.store import Store
from tracker.store.schema import games, tournaments

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
CARLSEN = CORPUS / "pgnmentor-Carlsen.pgn.xz"
TWIC = CORPUS / "twic1427.pgn.xz"


def by_event(store: Store) -> dict[str, Counter[tuple[str, bool, bool, str | None]]]:
    """Event -> Counter of (list, assumed, rated, reason) of its games."""
    found: dict[str, Counter[tuple[str, bool, bool, str | None]]] = {}
    with store.engine.connect() as conn:
        for event, lst, assumed, rated, reason in conn.execute(
            select(
                tournaments.c.event,
                games.c.list,
                games.c.list_assumed,
                games.c.rated,
                games.c.not_rated_reason,
            ).join(tournaments, tournaments.c.id == games.c.tournament_id)
        ):
            found.setdefault(str(event), Counter())[
                (str(lst), bool(assumed), bool(rated), reason)
            ] += 1
    return found


@pytest.mark.slow
def test_carlsen_file(store: Store) -> None:
    need_shared()
    run(store, CARLSEN)
    ev = by_event(store)
    assert ev["7th Sinquefield Cup TB"] == Counter({("rapid", True, False, "tie-break"): 4})
    assert ev["7th Norway Armageddon"] == Counter({("blitz", True, False, "armageddon"): 7})
    assert ev["8th Norway Armageddon"] == Counter({("blitz", True, False, "armageddon"): 3})
    assert ev["Magnus Inv Simul 2017"] == Counter({("standard", True, False, "simul"): 1})
    assert ev["Amber Blindfold"] == Counter({("standard", True, False, "blindfold"): 22})
    # rated ones: only where both players have a rating (a rated opponent)
    assert set(ev["World Blitz"]) == {("blitz", True, True, None)}
    assert sum(ev["World Blitz"].values()) == 95
    assert set(ev["Amber Rapid"]) == {("rapid", True, True, None)}
    assert sum(ev["Amber Rapid"].values()) == 22
    # the standard event the tie-break games followed: nothing in the name, standard by
    # assumption (11 games in the file)
    assert ev["7th Sinquefield Cup 2019"] == Counter({("standard", True, True, None): 11})


@pytest.mark.slow
def test_twic_playoff_and_rapid(store: Store) -> None:
    need_shared()
    run(store, TWIC)
    ev = by_event(store)
    assert ev["FIDE Grand Prix 2 Playoff"] == Counter({("rapid", True, False, "tie-break"): 8})
    rapid = ev["ch-ROU Rapid 2022"]
    assert sum(rapid.values()) == 265
    assert {k[:2] for k in rapid} == {("rapid", True)}


def _one(store: Store) -> Any:
    with store.engine.connect() as conn:
        (g,) = conn.execute(
            select(games.c.list, games.c.list_assumed, games.c.rated, games.c.not_rated_reason)
        ).all()
    return tuple(g)


@pytest.mark.parametrize(
    "tags,expected",
    [
        # the round name says it
        ({"Event": "Sinquefield Cup", "Round": "TB1"}, ("rapid", True, False, "tie-break")),
        ({"Event": "Norway Chess", "Round": "Armageddon"}, ("blitz", True, False, "armageddon")),
        ({"Event": "Norway Chess", "Round": "3.1"}, ("standard", True, True, None)),
        # a time control decides, whatever the names say
        ({"Event": "World Blitz", "TimeControl": "5400+30"}, ("standard", False, True, None)),
        ({"Event": "Sinquefield Cup TB", "TimeControl": "300+2"}, ("blitz", False, True, None)),
        # an unreadable one does not: the names do
        ({"Event": "World Blitz", "TimeControl": "G/5"}, ("blitz", True, True, None)),
        # facts about the game itself come first
        ({"Event": "Norway Armageddon", "Result": "*"}, ("blitz", True, False, "unfinished")),
    ],
)
def test_names_in_a_file(
    store: Store, tmp_path: Path, tags: dict[str, str], expected: tuple[Any, ...]
) -> None:
    run(store, write(tmp_path / "a.pgn", pgn(WhiteElo="2700", BlackElo="2650", **tags)))
    assert _one(store) == expected


@pytest.mark.parametrize(
    "given,expected",
    [
        (RatingList.STANDARD, ("standard", True, False, "tie-break")),
        (RatingList.RAPID, ("rapid", True, True, None)),
    ],
)
def test_list_given_with_a_tie_break(
    store: Store, tmp_path: Path, given: RatingList, expected: tuple[Any, ...]
) -> None:
    # --list names the list of the games without a time control: the tie-break of an event
    # put on the standard list is never rated, that of a rapid one is rated there.
    f = write(
        tmp_path / "a.pgn", pgn(Event="7th Sinquefield Cup TB", WhiteElo="2700", BlackElo="2650")
    )
    run(store, f, default_list=given)
    assert _one(store) == expected


def test_online_by_site_suffix_and_event(store: Store, tmp_path: Path) -> None:
    # twic1427: "Millennium Hybrid Masters" at "Tornelo INT"; a Site ending in INT is the
    # internet in TWIC's and ChessBase's notation; "Online" in the Event always counts.
    f = write(
        tmp_path / "a.pgn",
        pgn(Event="Millennium Hybrid Masters", Site="Tornelo INT", Round="1"),
        pgn(Event="Capechecs Online Trophy A", Site="Paris FRA", Round="2"),
        pgn(Event="Club Open", Site="Brno CZE", Round="3"),
    )
    run(store, f)
    with store.engine.connect() as conn:
        reasons = [
            r for (r,) in conn.execute(select(games.c.not_rated_reason).order_by(games.c.id))
        ]
    assert reasons == ["online", "online", None]


runner = CliRunner()


@pytest.mark.slow
def test_summary_says_what_the_names_said(tmp_path: Path) -> None:
    need_shared()
    db = str(tmp_path / "c.db")
    result = runner.invoke(app, ["import", str(CARLSEN), "--db", db, "--quiet"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    line = next(x for x in lines if x.startswith("by the event or round name"))
    assert "armageddon 10" in line and "simul 2" in line and "tie-break" in line
    assert "blitz " in line and "rapid " in line and "(the name says nothing)" in line
    # the line before still says how many were assumed in all
    assert any(
        x.startswith("no time control: 3,430 games put on a list by assumption") for x in lines
    )


def test_summary_with_list_given_names_only_the_never_rated(tmp_path: Path) -> None:
    f = write(
        tmp_path / "a.pgn",
        pgn(Event="World Blitz", Round="1"),
        pgn(Event="Norway Armageddon", Round="2"),
    )
    db = str(tmp_path / "c.db")
    result = runner.invoke(app, ["import", str(f), "--db", db, "--quiet", "--list", "rapid"])
    assert result.exit_code == 0, result.output
    assert "no time control: 2 games put on the rapid list (--list)" in result.stdout
    assert (
        "by the event or round name, of the games added: not rated: armageddon 1 " in result.stdout
    )
