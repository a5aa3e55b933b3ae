"""`check` replays exactly what `tracker history` shows: the inputs it reads from the store
give the same replay as tracker.app.histories.load_history, on every list."""

from __future__ import annotations

import pytest

from tests.builders import Season
from tracker.app.histories import inputs_for, load_history
from tracker.model import RatingList
from tracker.periods import replay
from tracker.store import Store
from tracker.store.players import get_player

pytestmark = pytest.mark.databases  # on SQLite and on PostgreSQL (tests/conftest.py)


def test_same_replay_as_history(store: Store) -> None:
    s = Season(store, birth_year=1988, rated_games=100)
    t = s.tournament("Autumn Open", "2025-10-04", "2025-10-05")
    s.game(t, 1700, 1, own_elo=1850, date="2025-10-04")
    s.game(t, 2000, 0, own_elo=1850, date="2025-10-05")
    r = s.tournament("Rapid Cup", "2025-10-11", "2025-10-11")
    s.game(r, 1700, 1, own_elo=1700, date="2025-10-11", rating_list="rapid")
    b = s.tournament("Blitz Night", "2025-10-17", "2025-10-17")
    s.game(b, 1650, "1/2", date="2025-10-17", rating_list="blitz")
    s.official("2025-10", 1850, k=20)
    s.official("2025-10", 1700, k=20, rating_list="rapid")
    s.official("2025-11", 1851, rating_list="standard")
    lists = tuple(RatingList)
    mine = inputs_for(store, s.player_id, lists)
    theirs = load_history(store, get_player(store, s.player_id), lists).replays
    for rl in lists:
        assert replay(mine[rl]) == theirs[rl], rl
