"""tracker.store.reading: the replay's queries and the tournament overrides."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from tests.builders import Season
from tracker.errors import BadInput, NotFound
from tracker.model import Period, RatingList
from tracker.store import Store
from tracker.store.reading import games_of, get_tournament, record_override, tournaments_of

pytestmark = pytest.mark.databases  # on SQLite and on PostgreSQL (tests/conftest.py)


def test_games_seen_from_the_players_side(store: Store) -> None:
    s = Season(store)
    t = s.tournament("Open A", "2025-10-04", "2025-10-05")
    s.game(t, 1700, 1, own_elo=1850, date="2025-10-04", white=True)
    s.game(t, 1900, 1, own_elo=1850, date="2025-10-05", white=False)  # black wins
    s.game(t, None, Fraction(1, 2), own_elo=1850, date="2025-10-05", white=False)
    gs = games_of(store, s.player_id)
    assert [g.score for g in gs] == [1, 1, Fraction(1, 2)]
    assert [g.white for g in gs] == [True, False, False]
    assert [g.own_elo for g in gs] == [1850, 1850, 1850]
    assert [g.opponent_elo for g in gs] == [1700, 1900, None]
    assert gs[1].result == "0-1"
    assert all(g.rating_list is RatingList.STANDARD for g in gs)


def test_unfinished_game_has_no_score(store: Store) -> None:
    s = Season(store)
    t = s.tournament("Open A", "2025-10-04", "2025-10-05")
    s.game(t, 1700, 0, result="*", rated=False, reason="unfinished")
    (g,) = games_of(store, s.player_id)
    assert g.score is None and not g.rated and g.not_rated_reason == "unfinished"


def test_overrides_round_trip(store: Store) -> None:
    s = Season(store)
    t = s.tournament("Open A", "2025-10-04", "2025-10-05")
    s.game(t, 1700, 1)
    change = record_override(
        store,
        t,
        period=Period(2025, 12),
        rating_list=RatingList.RAPID,
        excluded=True,
        ro=(s.player_id, 1849),
    )
    assert change.tournament.pinned_period == Period(2025, 12)
    assert change.tournament.pinned_list is RatingList.RAPID
    assert change.tournament.excluded and change.tournament.ro == 1849
    (fact,) = tournaments_of(store, s.player_id)
    assert fact == change.tournament
    assert fact.start == dt.date(2025, 10, 4)
    record_override(store, t, period=None, rating_list=None, excluded=False, ro=(s.player_id, None))
    back = get_tournament(store, t, s.player_id)
    assert (back.pinned_period, back.pinned_list, back.excluded, back.ro) == (
        None,
        None,
        False,
        None,
    )


def test_override_errors_are_clear(store: Store) -> None:
    s = Season(store)
    with pytest.raises(NotFound, match="tracker event list"):
        record_override(store, 999, excluded=True)
    t = s.tournament("Open A", "2025-10-04", "2025-10-05")
    with pytest.raises(BadInput, match="not a rating"):
        record_override(store, t, ro=(s.player_id, -5))


def test_only_the_players_tournaments(store: Store) -> None:
    s = Season(store)
    t1 = s.tournament("Mine", "2025-10-04", "2025-10-05")
    s.tournament("Not mine", "2025-10-04", "2025-10-05")
    s.game(t1, 1700, 1)
    assert [t.name for t in tournaments_of(store, s.player_id)] == ["Mine"]
