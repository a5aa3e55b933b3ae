"""Games without a usable date (issue 13 item 5): they join the dated tournament of the same
event and site when there is one to join; what stays undated is listed with its real id and
the command that dates it.

The files are written by the tests; a "usable date" is a whole calendar date in Date or
EventDate (`2025.03.01`); `????.??.??`, `2025.??.??`, `2025.03.??` and a missing tag are not.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from typer.testing import CliRunner

from tests.test_import import pgn, run, write
from tracker.advice import PinPeriod
from tracker.app.imports import UndatedTournament
from tracker.cli import app
from tracker.store import Store, open_store
from tracker.store.imports import undated_tournaments
from tracker.store.schema import games, players, tournaments

pytestmark = pytest.mark.databases  # on SQLite and on PostgreSQL (tests/conftest.py)


runner = CliRunner()


def _tournaments(store: Store) -> list[Any]:
    with store.engine.connect() as conn:
        return list(
            conn.execute(
                select(
                    tournaments.c.id,
                    tournaments.c.event,
                    tournaments.c.start_date,
                    tournaments.c.end_date,
                ).order_by(tournaments.c.id)
            ).all()
        )


def _homes(store: Store) -> list[tuple[str | None, int]]:
    """(date tag, tournament id) of each game, in file order."""
    with store.engine.connect() as conn:
        return [
            (tag, int(tid))
            for tag, tid in conn.execute(
                select(games.c.date_tag, games.c.tournament_id).order_by(games.c.id)
            )
        ]


def test_an_undated_game_among_dated_ones_joins_them(store: Store, tmp_path: Path) -> None:
    f = write(
        tmp_path / "a.pgn",
        pgn(Event="Club Ch", Date="2025.03.01", Round="1"),
        pgn(Event="Club Ch", Date="????.??.??", Round="2", White="Dvorak, Karel"),
        pgn(Event="Club Ch", Date="2025.03.08", Round="3", White="Benes, Jiri"),
    )
    run(store, f)
    (t,) = _tournaments(store)
    assert (t.start_date, t.end_date) == (dt.date(2025, 3, 1), dt.date(2025, 3, 8))
    assert {tid for _, tid in _homes(store)} == {t.id}
    assert undated_tournaments(store) == []


def test_undated_games_before_the_dated_ones_are_merged(store: Store, tmp_path: Path) -> None:
    # Undated first (a tournament of their own while the file is read), dated after: when
    # the file is complete the undated tournament joins the one dated tournament.
    f = write(
        tmp_path / "a.pgn",
        pgn(Event="Club Ch", Date="2025.??.??", Round="1"),
        pgn(Event="Club Ch", Round="2", White="Dvorak, Karel", Date=""),
        pgn(Event="Club Ch", Date="2025.03.08", Round="3", White="Benes, Jiri"),
    )
    run(store, f)
    (t,) = _tournaments(store)
    assert t.start_date == dt.date(2025, 3, 8)
    assert [tid for _, tid in _homes(store)] == [t.id] * 3


def test_a_later_import_joins_the_dated_tournament(store: Store, tmp_path: Path) -> None:
    run(store, write(tmp_path / "a.pgn", pgn(Event="Club Ch", Date="2025.03.01", Round="1")))
    run(
        store,
        write(
            tmp_path / "b.pgn",
            pgn(Event="Club Ch", Date="2025.03.??", Round="2", White="Dvorak, Karel"),
        ),
    )
    (t,) = _tournaments(store)
    assert [tid for _, tid in _homes(store)] == [t.id, t.id]


def test_an_undated_tournament_of_an_earlier_import_joins_a_later_dated_one(
    store: Store, tmp_path: Path
) -> None:
    run(
        store,
        write(
            tmp_path / "a.pgn",
            pgn(Event="Club Ch", Date="????.??.??", Round="2", White="Dvorak, Karel"),
        ),
    )
    assert len(undated_tournaments(store)) == 1
    run(store, write(tmp_path / "b.pgn", pgn(Event="Club Ch", Date="2025.03.01", Round="1")))
    (t,) = _tournaments(store)
    assert t.start_date == dt.date(2025, 3, 1)
    assert [tid for _, tid in _homes(store)] == [t.id, t.id]
    assert undated_tournaments(store) == []


def test_the_date_tag_chooses_among_several(store: Store, tmp_path: Path) -> None:
    # The yearly Club Ch of 2024 and of 2025 (two tournaments). A game of "2024.??.??" joins
    # the 2024 one, "2025.02.??" the 2025 one (2025-02-01); "????.??.??" could be either:
    # it stays undated, listed with its id.
    run(
        store,
        write(
            tmp_path / "a.pgn",
            pgn(Event="Club Ch", Date="2024.02.01", Round="1"),
            pgn(Event="Club Ch", Date="2025.02.01", Round="1"),
        ),
    )
    run(
        store,
        write(
            tmp_path / "b.pgn",
            pgn(Event="Club Ch", Date="2024.??.??", Round="2", White="A, A"),
            pgn(Event="Open", Date="2025.01.05", Round="1", White="B, B"),
            pgn(Event="Club Ch", Date="2025.02.??", Round="2", White="C, C"),
            pgn(Event="Open", Date="2025.01.06", Round="2", White="D, D"),
            pgn(Event="Club Ch", Date="????.??.??", Round="3", White="E, E"),
        ),
    )
    ts = {t.start_date: t.id for t in _tournaments(store) if t.event == "Club Ch"}
    homes = [h for h in _homes(store) if h[0] not in ("2025.01.05", "2025.01.06")]
    undated = undated_tournaments(store)
    assert [(u.event, u.site, u.date_tag, u.games, u.rated) for u in undated] == [
        ("Club Ch", "Brno CZE", "????.??.??", 1, 1)
    ]
    assert homes == [
        ("2024.02.01", ts[dt.date(2024, 2, 1)]),
        ("2025.02.01", ts[dt.date(2025, 2, 1)]),
        ("2024.??.??", ts[dt.date(2024, 2, 1)]),
        ("2025.02.??", ts[dt.date(2025, 2, 1)]),
        ("????.??.??", undated[0].id),
    ]
    assert UndatedTournament(*undated[0]).advice == PinPeriod(undated[0].id)


def test_a_user_override_keeps_an_undated_tournament(store: Store, tmp_path: Path) -> None:
    # The user already said when it was rated (`event set ID --period`): it is not merged.
    run(
        store,
        write(
            tmp_path / "a.pgn",
            pgn(Event="Club Ch", Date="????.??.??", Round="2", White="Dvorak, Karel"),
        ),
    )
    (t,) = _tournaments(store)
    with store.engine.begin() as conn:
        conn.execute(
            update(tournaments).where(tournaments.c.id == t.id).values(pinned_period="2025-04")
        )
    run(store, write(tmp_path / "b.pgn", pgn(Event="Club Ch", Date="2025.03.01", Round="1")))
    assert len(_tournaments(store)) == 2
    assert undated_tournaments(store) == []  # pinned: in a period


def test_undated_of_a_player(store: Store, tmp_path: Path) -> None:
    run(
        store,
        write(
            tmp_path / "a.pgn",
            pgn(Event="Club Ch", Date="????.??.??", Round="1"),
            pgn(
                Event="Club Ch",
                Date="????.??.??",
                Round="2",
                White="Dvorak, Karel",
                Black="Benes, Jiri",
            ),
        ),
    )
    with store.engine.connect() as conn:
        pid = {n: i for i, n in conn.execute(select(players.c.id, players.c.name))}
    (novak,) = undated_tournaments(store, player_id=pid["Novak, Jan"])
    assert novak.games == 1
    (benes,) = undated_tournaments(store, player_id=pid["Benes, Jiri"])
    assert benes.games == 1 and benes.id == novak.id
    assert undated_tournaments(store)[0].games == 2


def test_the_import_summary_names_the_real_id(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    runner.invoke(
        app,
        [
            "import",
            str(write(tmp_path / "a.pgn", pgn(Event="Spring Open", Date="2025.04.01"))),
            "--db",
            db,
            "--quiet",
        ],
    )
    f = write(
        tmp_path / "b.pgn",
        pgn(Event="Club Ch", Date="????.??.??", Round="1"),
        pgn(Event="Club Ch", Date="????.??.??", Round="2", White="Dvorak, Karel"),
        # before 2008: that era is not replayed, no period to ask for
        pgn(Event="Old Open", Date="1998.??.??", Round="1", White="Benes, Jiri"),
    )
    result = runner.invoke(app, ["import", str(f), "--db", db, "--quiet"])
    assert result.exit_code == 0, result.output
    with open_store(db) as store:
        (u,) = [x for x in undated_tournaments(store) if x.event == "Club Ch"]
    assert u.id == 2  # Spring Open is 1
    lines = result.stdout.splitlines()
    assert (
        "no date: 2 games in 1 tournament in no period (no dated tournament of the same "
        "event and site); say which list rated each:"
    ) in lines
    assert "  tracker event set 2 --period YYYY-MM  (Club Ch, Brno CZE: 2 games)" in lines
    assert "Old Open" not in result.stdout


def test_the_undated_of_many_events_are_merged_at_once(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The merges are made together when the file is complete, here with the indexes of games
    # deferred (a first import into an empty database, on SQLite): each event's undated
    # games join its one dated tournament; an event with two dated years keeps its undated
    # tournament (the tag says no year), and one of the other event's games stays apart.
    import tracker.importer.batches as importer
    import tracker.store.games as store_games

    monkeypatch.setattr(importer, "BATCH", 3)
    monkeypatch.setattr(store_games, "DEFER_INDEXES_AFTER", 2)
    texts = [
        pgn(Event=f"Open {e}", Date="????.??.??", Round=str(r), White=f"W{e}{r}")
        for e in range(6)
        for r in (1, 2)
    ]
    texts += [
        pgn(Event=f"Open {e}", Date=f"2025.0{1 + e}.10", Round="3", White=f"V{e}") for e in range(6)
    ]
    texts += [pgn(Event="Open 0", Date="2024.01.10", Round="4", White="X")]  # a second year
    run(store, write(tmp_path / "a.pgn", *texts))
    events: dict[str, set[int]] = {}
    with store.engine.connect() as conn:
        for event, tid in conn.execute(
            select(tournaments.c.event, games.c.tournament_id).join(
                tournaments, tournaments.c.id == games.c.tournament_id
            )
        ):
            events.setdefault(str(event), set()).add(int(tid))
    assert [len(events[f"Open {e}"]) for e in range(6)] == [3, 1, 1, 1, 1, 1]
    assert [u.event for u in undated_tournaments(store)] == ["Open 0"]
    assert len(_tournaments(store)) == 8
