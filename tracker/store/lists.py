"""FIDE's lists and the database's players: who was looked up on which list, and players
known only by name matched to a list's rows.

Coverage (`official_lists`, `official_checked`) lets `list_ratings` tell a rating, unrated
(looked up, no rating) and unknown (never looked up, or lacked by an excerpt) apart, and
`list_kinds` which months were imported whole; the name match (`NameIndex`, `settle`, by the
rules of tracker.identity.names: `name_forms`, `name_fit`) gives a PGN's "Andreikin,D" the
list's "Andreikin, Dmitry" when exactly one row fits. How both work: docs/architecture.md,
section tracker/store/.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Connection, select, text, union_all, update

from tracker.identity.names import Form, name_fit, name_forms, normalize_name
from tracker.model import (
    Ambiguous,
    ListCandidate,
    ListKind,
    ListRow,
    ListStatus,
    Period,
    RatingList,
)
from tracker.store.db import Store, chunks
from tracker.store.schema import games, official_lists, players


@dataclass(frozen=True)
class Unmatched:
    """A player without a FIDE ID, as name matching sees them."""

    id: int
    name: str
    forms: tuple[Form, ...]
    title: str | None
    birth_year: int | None


@dataclass
class NameIndex:
    """The database's players without a FIDE ID, by surname (see the module docstring).
    `words`: the first word of every surname reading (normalized), for a reader's cheap
    filter."""

    players: dict[int, Unmatched] = field(default_factory=dict)
    by_surname: dict[tuple[str, ...], list[int]] = field(default_factory=dict)
    words: set[str] = field(default_factory=set)

    def add(self, player: Unmatched) -> None:
        self.players[player.id] = player
        for sur, _ in player.forms:
            ids = self.by_surname.setdefault(sur, [])
            if player.id not in ids:
                ids.append(player.id)
            self.words.add(sur[0])

    def __bool__(self) -> bool:
        return bool(self.players)

    def fits(self, name: str) -> list[tuple[int, int]]:
        """(player id, EXACT or INITIALS) of the players a list row's name fits."""
        forms = name_forms(name)
        found: dict[int, int] = {}
        for sur, _ in forms:
            for pid in self.by_surname.get(sur, ()):
                if pid in found:
                    continue
                rank = name_fit(self.players[pid].forms, forms)
                if rank is not None:
                    found[pid] = rank
        return list(found.items())


def unmatched_players(store: Store) -> NameIndex:
    """The players without a FIDE ID (the ones a list import matches by name)."""
    index = NameIndex()
    with store.engine.connect() as conn:
        for pid, name, title, birth in conn.execute(
            select(players.c.id, players.c.name, players.c.title, players.c.birth_year)
            .where(players.c.fide_id.is_(None))
            .order_by(players.c.id)
        ):
            forms = name_forms(str(name))
            if forms:
                index.add(Unmatched(int(pid), str(name), forms, title, birth))
    return index


Found = dict[int, dict[int, tuple[int, ListRow]]]
"""player id -> FIDE ID of a row that fits -> (how well, the row): what a file offered."""


def settle(
    conn: Connection, index: NameIndex, found: Found
) -> tuple[list[tuple[int, ListRow]], list[Ambiguous]]:
    """For each player rows fit: the one row that fits best (the birth year, then the title
    of the database or of the player's games, breaking a tie), or the rows that fit as well
    (`Ambiguous`, by name and FIDE ID). In player id order."""
    unique: list[tuple[int, ListRow]] = []
    ambiguous: list[Ambiguous] = []
    for pid in sorted(found):
        rows = found[pid]
        best = min(rank for rank, _ in rows.values())
        fitting = [row for rank, row in rows.values() if rank == best]
        if len(fitting) > 1:
            fitting = _tie_break(conn, index.players[pid], fitting)
        if len(fitting) == 1:
            unique.append((pid, fitting[0]))
            continue
        fitting.sort(key=lambda r: (normalize_name(r.name), r.fide_id))
        ambiguous.append(
            Ambiguous(
                index.players[pid].name,
                tuple(
                    ListCandidate(r.name, r.fide_id, r.federation, r.birth_year) for r in fitting
                ),
            )
        )
    return unique, ambiguous


def _tie_break(conn: Connection, player: Unmatched, rows: list[ListRow]) -> list[ListRow]:
    """The rows of the player's birth year (when the database has it), then of a title the
    player is known by (players.title, the title tags of their games), when some are."""
    if player.birth_year is not None:
        born = [r for r in rows if r.birth_year == player.birth_year]
        if born:
            rows = born
    if len(rows) > 1:
        titles = _titles(conn, player)
        if titles:
            titled = [
                r
                for r in rows
                if (r.title and r.title.upper() in titles)
                or (r.women_title and r.women_title.upper() in titles)
            ]
            if titled:
                rows = titled
    return rows


def _titles(conn: Connection, player: Unmatched) -> set[str]:
    found = {player.title.strip().upper()} if player.title and player.title.strip() else set()
    tags = union_all(
        select(games.c.white_title.label("t")).where(games.c.white_id == player.id),
        select(games.c.black_title.label("t")).where(games.c.black_id == player.id),
    ).subquery()
    for (title,) in conn.execute(select(tags.c.t).distinct()):
        if title and str(title).strip():
            found.add(str(title).strip().upper())
    return found


# --- coverage: the lists imported, the players looked up ----------------------------------


def record_coverage(
    conn: Connection,
    held: Iterable[tuple[RatingList, Period]],
    source: str,
    stamp: dt.datetime,
    kind: ListKind = ListKind.WHOLE,
    listed: Iterable[int] = (),
) -> int:
    """Record, in the import's transaction, that the file `source` held these lists and
    periods, and which players were looked up on them: a whole list every player with a
    FIDE ID (the file gave each their rating, no rating, or left them out: unrated); an
    excerpt only the players it `listed` (player ids; one it lacks is not known). Rows
    already there stay as they are (the same file again writes nothing); a file imported
    before as whole and now as an excerpt takes back what it alone said of the players it
    lacks. Returns the rows added to official_checked."""
    added = 0
    ids = sorted({int(p) for p in listed}) if kind is ListKind.EXCERPT else []
    for rating_list, period in sorted(set(held), key=lambda lp: (str(lp[0]), lp[1])):
        key = {"list": str(rating_list), "period": str(period)}
        there = conn.execute(
            select(official_lists.c.id, official_lists.c.kind).where(
                official_lists.c.list == key["list"],
                official_lists.c.period == key["period"],
                official_lists.c.source == source,
            )
        ).first()
        if there is None:
            conn.execute(
                official_lists.insert().values(
                    **key, source=source, imported_at=stamp, kind=str(kind)
                )
            )
        elif there.kind != str(kind):
            conn.execute(
                update(official_lists)
                .where(official_lists.c.id == there.id)
                .values(kind=str(kind), imported_at=stamp)
            )
            if kind is ListKind.EXCERPT and not _whole_there(conn, key):
                conn.execute(
                    text("DELETE FROM official_checked WHERE list = :list AND period = :period"),
                    key,
                )
        if kind is ListKind.WHOLE:
            added += _check(conn, key, "p.fide_id IS NOT NULL")
            continue
        for chunk in chunks(ids):
            added += _check(conn, key, f"p.id IN ({_ids(chunk)})")
    return added


def _check(conn: Connection, key: dict[str, str], which: str) -> int:
    """Record the players `which` (an SQL condition on players AS p) as looked up on the
    list and period of `key` (those not recorded yet); the rows added."""
    return (
        conn.execute(
            text(
                "INSERT INTO official_checked (player_id, list, period) "
                "SELECT p.id, CAST(:list AS VARCHAR(8)), CAST(:period AS VARCHAR(7)) "
                f"FROM players AS p WHERE {which} AND NOT EXISTS (SELECT 1 "
                "FROM official_checked AS c WHERE c.player_id = p.id AND c.list = :list "
                "AND c.period = :period)"
            ),
            key,
        ).rowcount
        or 0
    )


def _whole_there(conn: Connection, key: dict[str, str]) -> bool:
    """Whether a whole list of this list and period was imported."""
    return (
        conn.execute(
            select(official_lists.c.id).where(
                official_lists.c.list == key["list"],
                official_lists.c.period == key["period"],
                official_lists.c.kind == str(ListKind.WHOLE),
            )
        ).first()
        is not None
    )


def list_kinds(store: Store, rating_list: RatingList) -> dict[Period, ListKind]:
    """The kind of the list of `rating_list` imported for each period: WHOLE when a whole
    file of it was imported, else EXCERPT (only excerpts of it)."""
    out: dict[Period, ListKind] = {}
    with store.engine.connect() as conn:
        for period, kind in conn.execute(
            select(official_lists.c.period, official_lists.c.kind).where(
                official_lists.c.list == str(rating_list)
            )
        ):
            p = Period.parse(str(period))
            if out.get(p) is not ListKind.WHOLE:
                out[p] = ListKind(str(kind))
    return out


def lists_imported(store: Store, rating_list: RatingList) -> list[tuple[Period, str]]:
    """(period, file path as imported) of every file of `rating_list` imported, by period
    and path."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(official_lists.c.period, official_lists.c.source).where(
                official_lists.c.list == str(rating_list)
            )
        ).all()
    return sorted((Period.parse(str(p)), str(s)) for p, s in rows)


def _ids(values: Iterable[int]) -> str:
    return ", ".join(str(int(v)) for v in values) or "NULL"


def list_ratings(
    store: Store, player_ids: Iterable[int], rating_list: RatingList
) -> dict[int, dict[Period, ListStatus]]:
    """What `rating_list` said of each of these players, month by month: for every period
    they were looked up on (official_checked) and every official entry (a list's or one
    recorded by hand), the rating (None: unrated for FIDE on that list) and the file it
    came from (its name; `manual`). A player or period missing: not known."""
    ids = sorted({int(p) for p in player_ids})
    out: dict[int, dict[Period, ListStatus]] = {}
    if not ids:
        return out
    key = {"list": str(rating_list)}
    with store.engine.connect() as conn:
        newest: dict[str, str] = {}
        for period, source in conn.execute(
            text("SELECT period, source FROM official_lists WHERE list = :list ORDER BY id"), key
        ):
            newest[str(period)] = Path(str(source)).name
        periods: dict[str, Period] = {}

        def period_of(text_: str) -> Period:
            found = periods.get(text_)
            if found is None:
                found = periods[text_] = Period.parse(text_)
            return found

        for chunk in chunks(ids):
            for pid, period in conn.execute(
                text(
                    "SELECT player_id, period FROM official_checked WHERE list = :list AND "
                    f"player_id IN ({_ids(chunk)})"
                ),
                key,
            ):
                p = str(period)
                out.setdefault(int(pid), {})[period_of(p)] = ListStatus(
                    None, newest.get(p, "an imported list")
                )
            for pid, period, rating, source in conn.execute(
                text(
                    "SELECT player_id, period, rating, source FROM official_ratings WHERE "
                    f"list = :list AND player_id IN ({_ids(chunk)})"
                ),
                key,
            ):
                out.setdefault(int(pid), {})[period_of(str(period))] = ListStatus(
                    None if rating is None else int(rating), str(source)
                )
    return out


def unchecked(
    store: Store, player_ids: Iterable[int], rating_list: RatingList
) -> dict[int, tuple[Period, ...]]:
    """The players of these that were not looked up on some whole list of `rating_list`
    already imported (they came after it, or have no FIDE ID and no name match), with those
    periods; `len()` of it counts them, for "run `tracker official import FILES` again". (An
    excerpt looks up only the players it lists: importing it again would not help.)"""
    imported = sorted(p for p, k in list_kinds(store, rating_list).items() if k is ListKind.WHOLE)
    if not imported:
        return {}
    looked = list_ratings(store, player_ids, rating_list)
    out: dict[int, tuple[Period, ...]] = {}
    for pid in sorted({int(p) for p in player_ids}):
        seen = looked.get(pid, {})
        missing = tuple(p for p in imported if p not in seen)
        if missing:
            out[pid] = missing
    return out
