"""Players: merge (only when the user says so), facts that decide K, search and listing."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from tests.test_import import pgn, run, write
from tracker.app.players import resolve_player
from tracker.errors import BadInput
from tracker.reports.words import error_text
from tracker.store import Store
from tracker.store.players import (
    get_player,
    list_players,
    me,
    merge,
    set_facts,
    set_me,
)
from tracker.store.schema import games, official_ratings, player_names

pytestmark = pytest.mark.databases  # on SQLite and on PostgreSQL (tests/conftest.py)


@pytest.fixture
def season(store: Store, tmp_path: Path) -> Store:
    run(
        store,
        write(
            tmp_path / "s.pgn",
            pgn(
                White="Carlsen, Magnus",
                WhiteFideId="1503014",
                Black="Giri, Anish",
                Round="1",
                Date="2024.05.01",
            ),
            pgn(
                White="Giri, Anish",
                Black="Carlsen,M",
                Round="2",
                Date="2024.05.02",
                TimeControl="900+10",
            ),
            pgn(White="Caruana, Fabiano", Black="Giri, Anish", Round="3", Date="2024.05.03"),
        ),
    )
    return store


def test_players_list_counts_games_per_list_and_dates(season: Store) -> None:
    found = {p.name: p for p in list_players(season)}
    giri = found["Giri, Anish"]
    assert giri.games == {"standard": 2, "rapid": 1}
    assert (giri.first, giri.last) == (dt.date(2024, 5, 1), dt.date(2024, 5, 3))
    assert found["Carlsen, Magnus"].fide_id == 1503014


def test_search_by_name_part_alias_and_fide_id(season: Store) -> None:
    assert sorted(p.name for p in list_players(season, "carlsen")) == [
        "Carlsen, Magnus",
        "Carlsen,M",
    ]
    assert [p.name for p in list_players(season, "1503014")] == ["Carlsen, Magnus"]
    assert list_players(season, "nobody") == []


def test_merge_moves_games_and_records_the_alias(season: Store) -> None:
    keep = resolve_player(season, "1503014")
    other = resolve_player(season, "Carlsen,M")
    merged = merge(season, keep.id, other.id).player
    assert merged.id == keep.id and merged.fide_id == 1503014
    (p,) = list_players(season, "carlsen")
    assert p.games == {"standard": 1, "rapid": 1}
    assert set(p.aliases) == {"carlsen magnus", "carlsen m"}
    # The alias now finds the kept player, and a re-import of that spelling joins it.
    assert resolve_player(season, "Carlsen,M").id == keep.id


def test_merge_refusals(season: Store) -> None:
    giri = resolve_player(season, "Giri")
    carlsen = resolve_player(season, "1503014")
    with pytest.raises(BadInput, match="played each other"):
        merge(season, carlsen.id, giri.id)
    with pytest.raises(BadInput, match="same player twice"):
        merge(season, giri.id, giri.id)
    caruana = resolve_player(season, "Caruana")
    set_facts(season, caruana.id, fide_id=2020009)
    other = resolve_player(season, "Carlsen,M")
    set_facts(season, other.id, fide_id=1234)
    with pytest.raises(BadInput, match="different FIDE IDs"):
        merge(season, caruana.id, other.id)


def test_merge_keeps_official_entries_and_fills_facts(season: Store) -> None:
    keep = resolve_player(season, "1503014")
    other = resolve_player(season, "Carlsen,M")
    set_facts(season, other.id, birth_year=1990, ever_2400=True)
    set_me(season, other.id)
    with season.engine.begin() as conn:
        conn.execute(
            insert(official_ratings).values(
                player_id=other.id,
                list="standard",
                period="2024-05",
                rating=2830,
                source="manual",
                recorded_at=dt.datetime(2024, 5, 1),
            )
        )
    merged = merge(season, keep.id, other.id).player
    assert (merged.birth_year, merged.ever_2400, merged.is_me) == (1990, True, True)
    with season.engine.connect() as conn:
        owners = conn.execute(select(official_ratings.c.player_id)).scalars().all()
        names = (
            conn.execute(
                select(player_names.c.player_id).where(player_names.c.norm_name == "carlsen m")
            )
            .scalars()
            .all()
        )
        left = conn.execute(
            select(games.c.id).where(
                (games.c.white_id == other.id) | (games.c.black_id == other.id)
            )
        ).all()
    assert owners == [keep.id] and names == [keep.id] and left == []


def test_set_facts_and_me(season: Store) -> None:
    giri = resolve_player(season, "Giri, Anish")
    ref = set_facts(
        season, giri.id, birth_year=1994, rated_games=40, ever_2400=True, fide_id=24116068
    )
    assert (ref.birth_year, ref.rated_games, ref.ever_2400, ref.fide_id) == (
        1994,
        40,
        True,
        24116068,
    )
    ref = set_facts(season, giri.id, ever_2400=False)
    assert ref.ever_2400 is False and ref.birth_year == 1994  # others untouched
    set_me(season, giri.id)
    assert me(season) == get_player(season, giri.id)
    with pytest.raises(BadInput, match="already belongs to Carlsen"):
        set_facts(season, giri.id, fide_id=1503014)
    with pytest.raises(BadInput, match="birth year"):
        set_facts(season, giri.id, birth_year=1066)
    with pytest.raises(BadInput, match="negative"):
        set_facts(season, giri.id, rated_games=-1)


def test_values_no_player_can_have_are_refused_in_one_sentence(season: Store) -> None:
    """Issue 19, item 10: a 50,000-character player argument dumped SQL (exit 3, "LIKE or
    GLOB pattern too complex"); `player set --fide-id 99999999999999999999` was an internal
    error (OverflowError)."""
    from tracker.errors import NotFound
    from tracker.store.reading import get_tournament

    with pytest.raises(BadInput) as caught:
        resolve_player(season, "x" * 50_000)
    assert error_text(caught.value).startswith("a player argument of 50,000 characters is no name")
    carlsen = resolve_player(season, "1503014")
    for bad in (99999999999999999999, 10**12, 0, -5):
        with pytest.raises(BadInput, match=f"FIDE ID {bad} is not valid"):
            set_facts(season, carlsen.id, fide_id=bad)
    assert set_facts(season, carlsen.id, fide_id=10**12 - 1).fide_id == 10**12 - 1
    for bad in (99999999999999999999999, 2**63, 0):
        with pytest.raises(NotFound, match=f"no tournament with id {bad}"):
            get_tournament(season, bad)


def test_the_best_rank_decides_who_a_name_means() -> None:
    # tracker.identity.names.match_rank, best first: the same name, the same words in another
    # order, the start of the name, the starts of its words, a part of it
    from tracker.identity.names import best_matches

    spellings = [(1, "novak jan"), (2, "novakova jana"), (3, "jan novak"), (1, "novak j")]
    assert best_matches("novak jan", spellings) == [1]  # the same name beats the same words
    assert best_matches("jan novak", spellings) == [3]
    assert best_matches("nov", spellings) == [1, 2]  # both start so; 3 only has a word so
    assert best_matches("kova", spellings) == [2]  # a part of the name only
    assert best_matches("zzz", spellings) == []


def test_a_player_argument_that_names_no_one_says_why_as_a_value(season: Store) -> None:
    from tracker.app.players import MAX_NAME_LENGTH, find_player
    from tracker.unresolved import NotAName, TooLong

    assert find_player(season, "x" * 300) == TooLong(300, MAX_NAME_LENGTH)
    assert find_player(season, " % ") == NotAName("%")
    assert find_player(season, "1503014") == resolve_player(season, "Carlsen, Magnus")
