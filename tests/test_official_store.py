"""tracker.store.official: add / list / remove entries, and importing list rows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import insert, select

from tests.builders import inserted_id
from tracker.errors import BadInput, NotFound
from tracker.lists import ListRating, ListRow
from tracker.model import OfficialEntry, Period, RatingList
from tracker.store import Store
from tracker.store.entries import add_entry, entries_for, remove_entry
from tracker.store.official import import_entries
from tracker.store.schema import official_ratings, player_names, players

pytestmark = pytest.mark.databases  # on SQLite and on PostgreSQL (tests/conftest.py)


P = Period(2025, 11)


def _player(
    store: Store, name: str, fide_id: int | None = None, birth_year: int | None = None
) -> int:
    with store.engine.begin() as conn:
        pid = inserted_id(
            conn.execute(
                insert(players).values(
                    name=name, norm_name=name.lower(), fide_id=fide_id, birth_year=birth_year
                )
            )
        )
        conn.execute(insert(player_names).values(norm_name=name.lower(), player_id=pid))
    return pid


def test_add_list_replace_remove(store: Store) -> None:
    pid = _player(store, "Smith, Ann", 1001)
    assert add_entry(store, OfficialEntry(pid, RatingList.BLITZ, P, 1500)) is False
    assert add_entry(store, OfficialEntry(pid, RatingList.STANDARD, P.next(), 1810, 9, 20)) is False
    assert add_entry(store, OfficialEntry(pid, RatingList.STANDARD, P, 1800, 4, 40)) is False
    assert add_entry(store, OfficialEntry(pid, RatingList.STANDARD, P, 1805, 5, 40)) is True
    got = entries_for(store, pid)
    assert [(e.list, str(e.period), e.rating) for e in got] == [
        (RatingList.STANDARD, "2025-11", 1805),
        (RatingList.STANDARD, "2025-12", 1810),
        (RatingList.BLITZ, "2025-11", 1500),
    ]
    assert got[0].games == 5 and got[0].k == 40 and got[0].source == "manual"
    assert [e.rating for e in entries_for(store, pid, RatingList.BLITZ)] == [1500]
    assert remove_entry(store, pid, RatingList.BLITZ, P) is True
    assert remove_entry(store, pid, RatingList.BLITZ, P) is False
    assert len(entries_for(store, pid)) == 2


def test_add_entry_checks(store: Store) -> None:
    with pytest.raises(NotFound):
        add_entry(store, OfficialEntry(999, RatingList.STANDARD, P, 1800))
    pid = _player(store, "Smith, Ann", 1001)
    with pytest.raises(BadInput):
        add_entry(store, OfficialEntry(pid, RatingList.STANDARD, P, 0))
    with pytest.raises(BadInput):
        add_entry(store, OfficialEntry(pid, RatingList.STANDARD, P, 1800, k=-1))


def _row(
    fid: int,
    name: str,
    std: int | None,
    period: Period = P,
    birth: int | None = None,
    rapid: int | None = None,
) -> ListRow:
    ratings = (
        ListRating(RatingList.STANDARD, std, 3 if std else None, 20 if std else None),
        ListRating(RatingList.RAPID, rapid, None, 20 if rapid else None),
    )
    return ListRow(
        fide_id=fid,
        name=name,
        period=period,
        ratings=ratings,
        title="FM",
        birth_year=birth,
        flag="i",
    )


def test_import_keeps_known_players_only(store: Store) -> None:
    ann = _player(store, "Smith, Ann", 1001)
    rows = [_row(1001, "Smith, Ann", 1800, birth=1990, rapid=1700), _row(1002, "Other, Bob", 1900)]
    s = import_entries(store, rows, keep_all=False, source="standard_nov25frl.zip", progress=None)
    assert (s.rows, s.kept, s.skipped, s.created, s.entries, s.replaced) == (2, 1, 1, 0, 2, 0)
    assert s.birth_years == 1
    got = entries_for(store, ann)
    assert [(e.list, e.rating, e.k, e.flag, e.title, e.birth_year) for e in got] == [
        (RatingList.STANDARD, 1800, 20, "i", "FM", 1990),
        (RatingList.RAPID, 1700, 20, "i", "FM", 1990),
    ]
    with store.engine.connect() as conn:
        assert (
            conn.execute(select(players.c.birth_year).where(players.c.id == ann)).scalar() == 1990
        )
        assert conn.execute(select(players.c.id).where(players.c.fide_id == 1002)).first() is None


def test_import_again_replaces_and_clears(store: Store) -> None:
    ann = _player(store, "Smith, Ann", 1001, birth_year=1991)
    import_entries(
        store,
        [_row(1001, "Smith, Ann", 1800, birth=1990, rapid=1700)],
        keep_all=False,
        source="a",
        progress=None,
    )
    s = import_entries(
        store,
        [_row(1001, "Smith, Ann", 1805, birth=1990)],
        keep_all=False,
        source="b",
        progress=None,
    )
    assert (s.entries, s.replaced, s.cleared, s.birth_years) == (1, 1, 1, 0)
    got = entries_for(store, ann)
    assert [(e.list, e.rating, e.source) for e in got] == [(RatingList.STANDARD, 1805, "b")]
    # another period does not replace anything
    s = import_entries(
        store,
        [_row(1001, "Smith, Ann", 1810, period=P.next())],
        keep_all=False,
        source="c",
        progress=None,
    )
    assert (s.entries, s.replaced, s.cleared) == (1, 0, 0)
    assert len(entries_for(store, ann)) == 2


def test_import_keep_all_creates_players(store: Store) -> None:
    import tracker.store.official as official

    seen: list[int] = []
    old = official.BATCH
    official.BATCH = 2
    try:
        rows = [_row(2000 + i, f"Player, N{i}", 1500 + i) for i in range(5)]
        rows.append(_row(2001, "Player, N1", 1600))  # same ID again, a later batch: last wins
        s = import_entries(store, rows, keep_all=True, source="x", progress=seen.append)
    finally:
        official.BATCH = old
    assert seen == [2, 4, 6]
    assert (s.rows, s.created, s.entries, s.duplicates) == (6, 5, 5, 1)
    with store.engine.connect() as conn:
        pid = conn.execute(select(players.c.id).where(players.c.fide_id == 2001)).scalar_one()
    assert [e.rating for e in entries_for(store, pid)] == [1600]


def test_import_is_one_transaction(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    import tracker.store.official as official

    monkeypatch.setattr(official, "BATCH", 1)
    _player(store, "Smith, Ann", 1001)

    def rows() -> Iterator[ListRow]:
        yield _row(1001, "Smith, Ann", 1800)
        yield _row(1003, "New, One", 1800)
        raise BadInput("list.txt:3: broken line")

    with pytest.raises(BadInput):
        import_entries(store, rows(), keep_all=True, source="x", progress=None)
    with store.engine.connect() as conn:
        assert len(conn.execute(select(players.c.id)).all()) == 1
        assert conn.execute(select(official_ratings.c.id)).all() == []


def test_known_fide_ids(store: Store) -> None:
    from tracker.store.official import known_fide_ids

    assert known_fide_ids(store) == set()
    _player(store, "Smith, Ann", 1001)
    _player(store, "Other, Bob", 1002)
    _player(store, "No, Id")
    assert known_fide_ids(store) == {1001, 1002}
    assert known_fide_ids(store, limit=1) is None  # too many to hold: match row by row


@pytest.mark.parametrize("k", [0, 41, 1000])
def test_a_k_fide_never_prints_is_refused_and_an_old_one_ignored(store: Store, k: int) -> None:
    """Issue 19, item 10: `official add --k 0` was stored and then every report failed
    (exit 2); `--k 1000` was stored and used (K 140 after the 700 rule)."""
    import datetime as dt
    from fractions import Fraction

    from tracker.periods import PlayerInfo, ReplayInputs, replay
    from tracker.periods.inputs import GameFact, TournamentFact

    with store.engine.begin() as conn:
        pid = inserted_id(conn.execute(insert(players).values(name="A, B", norm_name="a b")))
    with pytest.raises(BadInput, match=f"K {k} is not a K FIDE prints"):
        add_entry(store, OfficialEntry(pid, RatingList.STANDARD, Period(2025, 10), 1800, k=k))
    assert entries_for(store, pid) == []
    # one stored before the refusal existed is ignored by the replay: an adult with 100
    # games, a win vs 1800 (D 0, PD 0.50) -> K 20, +10 -> 1810
    t = TournamentFact(1, "Open", start=dt.date(2025, 10, 4), end=dt.date(2025, 10, 5))
    g = GameFact(
        1,
        1,
        dt.date(2025, 10, 4),
        "1",
        True,
        2,
        "C, D",
        1800,
        1800,
        "1-0",
        Fraction(1),
        RatingList.STANDARD,
    )
    entry = OfficialEntry(pid, RatingList.STANDARD, Period(2025, 10), 1800, k=k)
    rows = replay(
        ReplayInputs(
            RatingList.STANDARD, [g], [t], [entry], PlayerInfo(birth_year=1980, rated_games=100)
        )
    ).rows
    assert [(str(r.period), r.k, r.published) for r in rows] == [
        ("2025-10", None, 1800),
        ("2025-11", 20, 1810),
    ]


def test_import_records_the_list_and_who_was_looked_up(store: Store) -> None:
    """Every import records the file's lists and periods (official_lists) and every player
    with a FIDE ID as looked up on them (official_checked), rated, unrated or not listed; a
    player without one is matched by name (`names`); the same rows again add nothing."""
    from tracker.model import ListStatus
    from tracker.store.lists import list_ratings, lists_imported, unmatched_players
    from tracker.store.schema import official_checked, official_lists

    ann = _player(store, "Smith, Ann", 1001)
    bob = _player(store, "Other, Bob", 1002)  # not on the list
    cy = _player(store, "Young,C")  # no FIDE ID: "Young, Cy" of the list
    rows = [_row(1001, "Smith, Ann", 1800), _row(1003, "Young, Cy", None, rapid=1500)]
    for _ in range(2):
        s = import_entries(
            store,
            rows,
            keep_all=False,
            source="standard_nov25frl.zip",
            names=unmatched_players(store),
            list_source="/lists/x.zip",
        )
    assert (s.rows, s.kept, s.matched, s.entries, s.unchanged) == (2, 2, 0, 0, 2)
    statuses = list_ratings(store, [ann, bob, cy], RatingList.STANDARD)
    assert statuses == {
        ann: {P: ListStatus(1800, "standard_nov25frl.zip")},
        bob: {P: ListStatus(None, "x.zip")},
        cy: {P: ListStatus(None, "x.zip")},
    }
    assert list_ratings(store, [cy], RatingList.RAPID) == {
        cy: {P: ListStatus(1500, "standard_nov25frl.zip")}
    }
    assert lists_imported(store, RatingList.RAPID) == [(P, "/lists/x.zip")]
    with store.engine.connect() as conn:
        assert len(conn.execute(select(official_lists.c.id)).all()) == 2
        assert len(conn.execute(select(official_checked.c.player_id)).all()) == 6
        assert conn.execute(select(players.c.fide_id).where(players.c.id == cy)).scalar() == 1003
