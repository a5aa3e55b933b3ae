"""Writing games: players, tournaments, games and the import row of one source, in one
transaction (the lists behind `tracker imports` and `tracker players` are in
tracker.store.imports and tracker.store.players).

`GameWriter` takes batches of `PreparedGame`s, resolves players and tournaments through
in-memory caches, allocates ids under the write lock and inserts each batch in one
statement, the unique identity deciding what is a duplicate: an import is as fast as the
database allows and never half done. How it does so on SQLite and PostgreSQL, and how
players and tournaments are matched: docs/architecture.md, section tracker/store/; what was
measured, docs/performance.md.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, exists, func, insert, or_, select, update
from sqlalchemy.exc import DatabaseError as SADatabaseError
from sqlalchemy.exc import IntegrityError, OperationalError

from tracker.errors import DatabaseError
from tracker.identity.names import NamesApart
from tracker.identity.tournaments import Grouping, merges
from tracker.model import GAME_ROW_FIELDS, EloTags, ForeignFideId, PreparedGame
from tracker.store.db import (
    Store,
    chunks,
    copy_rows,
    is_busy,
    lock_for_writing,
    one_line,
    utc_now,
)
from tracker.store.schema import games, imports, player_names, players, ro_overrides, tournaments
from tracker.store.writerplayers import MAX_FOREIGN, PlayerLookup

__all__ = [
    "DEFERRABLE_INDEXES",
    "DEFER_INDEXES_AFTER",
    "MAX_CACHED",
    "MAX_FOREIGN",
    "GameWriter",
]

DEFER_INDEXES_AFTER = 20_000  # games added before the secondary indexes may be deferred
DEFERRABLE_INDEXES = ("ix_games_white_id", "ix_games_black_id", "ix_games_tournament_date")
MAX_CACHED = 100_000  # player keys kept in memory during an import (a quarter: tournaments)


_CLASH_CHUNK = 300  # games per duplicate lookup (3 parameters each: under SQLite's old 999)


# A games row as the writer inserts it: what it resolved, then the PreparedGame's own fields.
_GAME_COLUMNS = (
    "identity",
    "tournament_id",
    "import_id",
    "source_line",
    "white_id",
    "black_id",
    *GAME_ROW_FIELDS,
)
_STAGE = "tracker_batch"  # PostgreSQL: the temporary table a batch of games is copied into

# What the writer looks up per batch (PlayerLookup._select_in adds `WHERE column IN (...)`).
_TOURNAMENTS = select(
    tournaments.c.id,
    tournaments.c.event,
    tournaments.c.site,
    tournaments.c.start_date,
    tournaments.c.end_date,
    tournaments.c.key,
)
# ... and whether the user recorded an override for it (`_date_the_undated`)
_TOURNAMENTS_KEPT = select(
    tournaments.c.id,
    tournaments.c.event,
    tournaments.c.site,
    tournaments.c.start_date,
    tournaments.c.end_date,
    tournaments.c.key,
    or_(
        tournaments.c.pinned_period.is_not(None),
        tournaments.c.pinned_list.is_not(None),
        tournaments.c.excluded.is_(True),
        exists().where(ro_overrides.c.tournament_id == tournaments.c.id),
    ),
)
_MERGE_CHUNK = 10_000  # PostgreSQL: merges per statement

# SQLite: how Python's sqlite3 binds None, a bool and bytes while a writer stores a batch.
# It binds an int, float or str at once, but looks anything else up in its adapters first,
# and a value with no adapter costs a failed lookup and two failed attribute lookups
# (`__adapt__`, `__conform__`) before it is bound as it is, and a games
# row has about 8 NULLs, 3 booleans and the identity. With these adapters the
# lookup finds one and calls it: None stays None ({}.get(None)), a bool becomes the same int
# (what sqlite3 binds a bool as), bytes stay bytes: the same values stored, bound in half
# the time. They are registered for the games statement of a batch only (sqlite3's adapters
# are the whole process's).
_BINDINGS: dict[type, Any] = {type(None): {}.get, bool: int, bytes: bytes}


class GameWriter(PlayerLookup):
    """One source's transaction. Use as a context manager:

        with GameWriter(store, "file.pgn", digest) as w:
            for batch in batches:
                w.add(batch)
            w.finish(games_read=..., problems=...)

    Leaving the block without `finish()` (an exception, a kill) rolls everything back.
    """

    def __init__(
        self, store: Store, source: str, content_hash: str, elo_tags: EloTags = EloTags.AUTO
    ) -> None:
        self.store = store
        self.elo_tags = elo_tags
        self.source = source
        self.content_hash = content_hash
        self.added = 0  # games new to the database
        self.given = 0  # games handed to add() (the rest of those are duplicates)
        self.import_id = 0
        self._conn: Connection | None = None
        self._sqlite = store.engine.dialect.name == "sqlite"
        self._by_fide: dict[int, int] = {}
        self._by_name: dict[str, int] = {}
        self._fide_of: dict[int, int | None] = {}
        # The names of players with a FIDE ID that this transaction met (its new ones, and
        # those of the database a batch looked up by FIDE ID), and whether a name fits one.
        self._holder_name: dict[int, str] = {}
        self._fits: dict[tuple[str, int], NamesApart | None] = {}
        # Names given another player's FIDE ID (by name and FIDE ID), and the games beyond
        # the first MAX_FOREIGN of them.
        self.foreign: dict[tuple[str, int], ForeignFideId] = {}
        self.foreign_more = 0
        self._next_player = 0
        # The tournaments of the event and site pairs this source touched, and the rule that
        # places each game (tracker.identity.tournaments); new ids after the max when it began.
        self._grouping = Grouping(0)
        self._players_before = self._tourneys_before = 0  # the max ids when it began
        self._game_sql = ""
        self._rows_before = 0  # games in the table when the transaction began (max id)
        # Whether the caches hold every player / tournament of the database: true when it
        # had none when the transaction began (we hold the write lock, and every row we
        # write enters the cache) until `_bound_caches` empties them. Then a name missing
        # from the cache is new, with no query.
        self._all_players_cached = False
        self._all_tourneys_cached = False
        self._in_sql: dict[tuple[int, int], str] = {}
        self._deferred: list[str] = []  # CREATE INDEX statements to run before the commit
        self._deferring = False  # the indexes were looked at (and dropped, if found) once
        # Duplicates whose result differs from the stored game's: "LINE: text", in order.
        self.clashes: list[str] = []
        self._import_sources: dict[int, str] = {}
        self._bindings: list[tuple[Any, Any]] = []  # the adapters this writer registered

    # -- transaction ---------------------------------------------------------------------

    def __enter__(self) -> GameWriter:
        try:
            conn = self.store.engine.connect()
            self._conn = conn
            # Take the write lock now: a concurrent importer waits (busy timeout) here,
            # instead of failing later when its read snapshot is stale.
            lock_for_writing(conn)
            if self._sqlite:
                conn.exec_driver_sql("PRAGMA cache_size = -32768")
                names = _GAME_COLUMNS
                marks = ", ".join("?" for _ in names)
                quoted = ", ".join(f'"{c}"' for c in names)
                self._game_sql = f"INSERT OR IGNORE INTO games ({quoted}) VALUES ({marks})"
            else:  # postgresql: a batch is copied into _STAGE, then moved into games
                cols = ", ".join(f'"{c}"' for c in _GAME_COLUMNS)
                conn.exec_driver_sql(
                    f"CREATE TEMPORARY TABLE {_STAGE} ON COMMIT DROP AS "
                    f"SELECT {cols} FROM games WITH NO DATA"
                )
                self._game_sql = (
                    f"INSERT INTO games ({cols}) SELECT {cols} FROM {_STAGE} "
                    "ORDER BY source_line ON CONFLICT (identity) DO NOTHING"
                )
            self._next_player = self._players_before = self._max_id(players.c.id)
            self._tourneys_before = self._max_id(tournaments.c.id)
            self._grouping = Grouping(self._tourneys_before)
            self._rows_before = self._max_id(games.c.id)
            self._all_players_cached = self._next_player == 0
            self._all_tourneys_cached = self._tourneys_before == 0
            key = conn.execute(
                insert(imports).values(
                    source=self.source,
                    content_hash=self.content_hash,
                    started_at=utc_now(),
                    elo_tags=str(self.elo_tags),
                )
            ).inserted_primary_key
            assert key is not None
            self.import_id = int(key[0])
        except (OperationalError, SADatabaseError) as exc:
            self._close()
            if is_busy(exc):
                raise DatabaseError(
                    "the database stayed busy: another tracker is writing to it; run the "
                    "import again when that one has finished"
                ) from None
            raise DatabaseError(f"cannot write to the database: {one_line(exc.orig)}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        self._close()

    def _bind_fast(self) -> None:
        """Register the adapters of `_BINDINGS` that no one registered, for the games
        statement of one batch (`_unbind` takes them away right after it, whatever happens:
        sqlite3's adapters are the whole process's)."""
        adapters: dict[Any, Any] = sqlite3.adapters
        for kind, adapt in _BINDINGS.items():
            key = (kind, sqlite3.PrepareProtocol)
            if key not in adapters:
                adapters[key] = adapt
                self._bindings.append((key, adapt))

    def _unbind(self) -> None:
        adapters: dict[Any, Any] = sqlite3.adapters
        for key, adapt in self._bindings:
            if adapters.get(key) is adapt:
                del adapters[key]
        self._bindings.clear()

    def _close(self) -> None:
        self._unbind()
        if self._conn is not None:
            conn, self._conn = self._conn, None
            try:
                if conn.in_transaction():
                    conn.rollback()
            finally:
                conn.close()

    @property
    def conn(self) -> Connection:
        if self._conn is None:
            raise DatabaseError("the import transaction is closed")
        return self._conn

    def _max_id(self, column: Any) -> int:
        return int(self.conn.execute(select(func.coalesce(func.max(column), 0))).scalar_one())

    def finish(self, *, games_read: int, problems: int) -> None:
        """Write the import row's counts and commit: the source lands whole."""
        conn = self.conn
        try:
            self._flush_tournaments()
            self._restore_indexes()
            self._date_the_undated()
            self._sync_sequences()
            conn.execute(
                update(imports)
                .where(imports.c.id == self.import_id)
                .values(
                    finished_at=utc_now(),
                    content_hash=self.content_hash,
                    games_read=games_read,
                    games_added=self.added,
                    duplicates=self.given - self.added,
                    problems=problems,
                )
            )
            conn.commit()
        except (OperationalError, SADatabaseError) as exc:
            raise DatabaseError(f"cannot write to the database: {one_line(exc.orig)}") from None
        finally:
            self._close()

    def _sync_sequences(self) -> None:
        """PostgreSQL: the sequences of players and tournaments take up after the ids this
        writer allocated itself (under the write lock, so nobody took one meanwhile)."""
        if self._sqlite:
            return
        for table, allocated, before in (
            (players, self._next_player, self._players_before),
            (tournaments, self._grouping.last_id, self._tourneys_before),
        ):
            if allocated > before:
                self.conn.execute(
                    select(func.setval(func.pg_get_serial_sequence(table.name, "id"), allocated))
                )

    # -- rows ----------------------------------------------------------------------------

    def _insert(self, table: Any, cols: Sequence[str], rows: list[tuple[Any, ...]]) -> int:
        if not rows:
            return 0
        conn = self.conn
        names = ", ".join(f'"{c}"' for c in cols)
        if self._sqlite:
            marks = ", ".join("?" for _ in cols)
            res = conn.exec_driver_sql(f"INSERT INTO {table.name} ({names}) VALUES ({marks})", rows)
            return int(res.rowcount)
        copy_rows(conn, table.name, names, rows)  # postgresql
        return len(rows)

    def add(self, batch: Sequence[PreparedGame]) -> int:
        """Store a batch of games (PreparedGames, or plain tuples in their field order);
        returns how many were new (the rest were duplicates)."""
        try:
            return self._add(batch)
        except (OperationalError, SADatabaseError) as exc:
            if isinstance(exc, IntegrityError):
                raise DatabaseError(f"the database refused a game: {one_line(exc.orig)}") from None
            raise DatabaseError(f"cannot write to the database: {one_line(exc.orig)}") from None

    def _add(self, batch: Sequence[PreparedGame]) -> int:
        self.given += len(batch)
        self._bound_caches()
        self._load_players(batch)
        self._load_tournaments(batch)
        new_players: list[tuple[Any, ...]] = []
        new_names: list[tuple[Any, ...]] = []
        new_fides: list[tuple[Any, ...]] = []
        player = self._player
        place = self._grouping.place
        by_name = self._by_name.get
        by_fide = self._by_fide.get
        import_id = self.import_id
        rows: list[tuple[Any, ...]] = []
        append = rows.append
        for g in batch:
            # Fast paths: a player already known by FIDE ID under this spelling, or (no FIDE
            # ID) by name.
            fide = g.white_fide
            wid = by_name(g.white_norm)
            if wid is None or (fide is not None and by_fide(fide) != wid):
                wid = player(
                    g.white, g.white_norm, fide, new_players, new_names, new_fides, g.line, "White"
                )
            fide = g.black_fide
            bid = by_name(g.black_norm)
            if bid is None or (fide is not None and by_fide(fide) != bid):
                bid = player(
                    g.black, g.black_norm, fide, new_players, new_names, new_fides, g.line, "Black"
                )
            tid = place(g.event, g.site, g.event_date, g.date, g.date_tag, g.online)
            append((g.identity, tid, import_id, g.line, wid, bid) + g.row_values())
        try:
            return self._store(batch, rows, new_players, new_names, new_fides)
        except (OverflowError, UnicodeEncodeError) as exc:  # a value SQLite cannot take
            raise DatabaseError(f"the database refused a game: {one_line(exc)}") from None

    def _store(
        self,
        batch: Sequence[PreparedGame],
        rows: list[tuple[Any, ...]],
        new_players: list[tuple[Any, ...]],
        new_names: list[tuple[Any, ...]],
        new_fides: list[tuple[Any, ...]],
    ) -> int:
        """The inserts of one batch: its new players, names and tournaments, then its
        games (`rows`: what `_add` resolved for each game of `batch`)."""
        self._insert(players, ("id", "name", "norm_name", "fide_id"), new_players)
        self._insert(player_names, ("norm_name", "player_id"), new_names)
        if new_fides:
            mark = "?" if self._sqlite else "%s"
            self.conn.exec_driver_sql(
                f"UPDATE players SET fide_id = {mark} WHERE id = {mark}", new_fides
            )
        made = self._grouping.made
        self._insert(
            tournaments, ("id", "event", "site", "start_date", "end_date", "key", "online"), made
        )
        made.clear()
        if not rows:
            added = 0
        elif self._sqlite:
            if not self._deferring and self.added >= max(DEFER_INDEXES_AFTER, self._rows_before):
                self._defer_indexes()
            self._bind_fast()  # for this statement only: nothing else sees them
            try:
                added = int(self.conn.exec_driver_sql(self._game_sql, rows).rowcount)
            finally:
                self._unbind()
        else:
            added = self._insert_games_postgresql(rows)
        if added < len(rows) and self._rows_before:
            # (no game before this source: every duplicate is one of its own, never a clash)
            self._find_clashes(batch)
        self.added += added
        return added

    def _find_clashes(self, batch: Sequence[PreparedGame]) -> None:
        """The duplicates of a batch whose result differs from the game an earlier import
        stored, as problems (only batches that had duplicates get here: one indexed join
        per batch). A game inserted by this batch is equal to itself; a duplicate of a game
        earlier in the same source is left as before (the first one is kept, silently)."""
        conn = self.conn
        found: list[Any] = []
        if not self._sqlite:  # postgresql: the batch is in _STAGE (_insert_games_postgresql)
            found += conn.exec_driver_sql(
                "SELECT s.source_line, s.result, g.result, g.import_id, g.source_line "
                f"FROM {_STAGE} AS s JOIN games AS g ON g.identity = s.identity "
                "WHERE g.result <> s.result"
            ).all()
        for chunk in chunks(batch, _CLASH_CHUNK) if self._sqlite else ():
            wanted = [(g.identity, g.line, g.result) for g in chunk]
            marks = ", ".join("(?, ?, ?)" for _ in wanted)
            found += conn.exec_driver_sql(
                "SELECT v.column2, v.column3, g.result, g.import_id, g.source_line "
                f"FROM (VALUES {marks}) AS v JOIN games AS g ON g.identity = v.column1 "
                "WHERE g.result != v.column3",
                tuple(x for w in wanted for x in w),
            ).all()
        for line, result, was, import_id, stored_line in sorted(found, key=lambda f: f[0]):
            if import_id != self.import_id:  # not a game earlier in this same source
                self.clashes.append(f"{line}: {self._clash(result, was, import_id, stored_line)}")

    def _clash(self, result: str, was: str, import_id: int | None, stored_line: int | None) -> str:
        if import_id is None:
            return (
                f"this game is already stored with result {was}; the file says {result}: "
                "the stored one is kept"
            )
        source = self._import_sources.get(import_id)
        if source is None:
            source = (
                self.conn.execute(
                    select(imports.c.source).where(imports.c.id == import_id)
                ).scalar()
                or "?"
            )
            self._import_sources[import_id] = source
        at = "" if stored_line is None else f", line {stored_line}"
        return (
            f"this game is already stored with result {was} (import {import_id}: "
            f"{source}{at}); the file says {result}: the stored one is kept (`tracker "
            f"imports remove {import_id}`, then import again, to replace it)"
        )

    def _defer_indexes(self) -> None:
        """Drop the secondary indexes of games for the rest of this transaction (see the
        module docstring); `_restore_indexes` builds them again before the commit."""
        self._deferring = True
        conn = self.conn
        marks = ", ".join("?" for _ in DEFERRABLE_INDEXES)
        found = conn.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games' "
            f"AND sql IS NOT NULL AND name IN ({marks}) ORDER BY name",
            DEFERRABLE_INDEXES,
        ).all()
        for name, sql in found:
            conn.exec_driver_sql(f'DROP INDEX "{name}"')
            self._deferred.append(str(sql))

    def _restore_indexes(self) -> None:
        for sql in self._deferred:
            self.conn.exec_driver_sql(sql)
        self._deferred.clear()

    def _insert_games_postgresql(self, rows: list[tuple[Any, ...]]) -> int:
        """PostgreSQL: COPY the batch into the temporary table, then one INSERT ... SELECT
        moves the games new to the database into games (ON CONFLICT on the unique identity:
        the duplicate check is the database's; the first of a file's copies is kept, as
        SQLite's INSERT OR IGNORE keeps it). The batch stays in the temporary table for
        `_find_clashes`."""
        conn = self.conn
        conn.exec_driver_sql(f"DELETE FROM {_STAGE}")
        copy_rows(conn, _STAGE, ", ".join(f'"{c}"' for c in _GAME_COLUMNS), rows)
        return int(conn.exec_driver_sql(self._game_sql).rowcount)

    def _bound_caches(self) -> None:
        """Keep memory flat on huge files: forget what the database can tell again (every
        row this transaction wrote is visible to it)."""
        if len(self._by_name) + len(self._by_fide) > MAX_CACHED:
            self._all_players_cached = False
            self._by_name.clear()
            self._by_fide.clear()
            self._fide_of.clear()
            self._holder_name.clear()
            self._fits.clear()
        if len(self._grouping.by_key) > MAX_CACHED // 4:
            self._all_tourneys_cached = False
            self._flush_tournaments()
            self._grouping.forget()

    # -- tournaments ---------------------------------------------------------------------

    def _load_tournaments(self, batch: Sequence[PreparedGame]) -> None:
        """Give the grouping every tournament of the event and site pairs of this batch it
        does not hold yet (none to look up when the database had none: all are held)."""
        grouping = self._grouping
        pairs = grouping.unheld({(g.event, g.site) for g in batch})
        if not pairs:
            return
        found: dict[tuple[str, str], list[tuple[int, str | None, str | None, str]]] = {
            pair: [] for pair in pairs
        }
        if not self._all_tourneys_cached:
            for chunk in chunks(sorted({e for e, _ in pairs})):
                for tid, event, site, start, end, key in sorted(
                    self._select_in(_TOURNAMENTS, tournaments.c.event, chunk)
                ):
                    held = found.get((str(event), str(site)))
                    if held is not None:  # (not another site's, perhaps held already)
                        held.append((int(tid), _iso(start), _iso(end), str(key)))
        for pair, ts in found.items():
            grouping.hold(pair, ts)

    def _date_the_undated(self) -> None:
        """Merge each undated tournament of an event and site this source touched into the
        one dated tournament of that event and site that fits its date tag (the rule:
        tracker.identity.tournaments.merges): its games move there and it is deleted. A few
        statements whatever the number of tournaments: the tournaments of those events (an
        IN list per chunk of events), then the moves (one executemany on SQLite, after the
        indexes of games are back; a join per chunk of merges on PostgreSQL)."""
        pairs = self._grouping.pairs_undated()
        if not pairs:
            return
        found: dict[tuple[str, str], list[tuple[int, str | None, str | None, str, bool]]] = {
            pair: [] for pair in pairs
        }
        for chunk in chunks(sorted({e for e, _ in pairs})):
            for tid, event, site, start, end, key, kept in self._select_in(
                _TOURNAMENTS_KEPT, tournaments.c.event, chunk
            ):
                held = found.get((str(event), str(site)))
                if held is not None:
                    held.append((int(tid), _iso(start), _iso(end), str(key), bool(kept)))
        moves = [m for pair in sorted(found) for m in merges(sorted(found[pair]))]
        conn = self.conn
        if moves and self._sqlite:  # (the indexes of games are back: each is a probe)
            conn.exec_driver_sql(
                "UPDATE games SET tournament_id = ? WHERE tournament_id = ?",
                [(home, old) for old, home in moves],
            )
            conn.exec_driver_sql(
                "DELETE FROM tournaments WHERE id = ?", [(old,) for old, _ in moves]
            )
            return
        for chunk in chunks(moves, _MERGE_CHUNK):  # postgresql: arrays
            olds, homes = [old for old, _ in chunk], [home for _, home in chunk]
            conn.exec_driver_sql(
                "UPDATE games AS g SET tournament_id = m.home FROM unnest(%s::integer[], "
                "%s::integer[]) AS m(old, home) WHERE g.tournament_id = m.old",
                (olds, homes),
            )
            conn.exec_driver_sql("DELETE FROM tournaments WHERE id = ANY(%s)", (olds,))

    def _flush_tournaments(self) -> None:
        rows = self._grouping.widened()
        if not rows:
            return
        if self._sqlite:
            self.conn.exec_driver_sql(
                "UPDATE tournaments SET start_date = ?, end_date = ? WHERE id = ?", rows
            )
        else:  # postgresql: one statement for them all
            starts, ends, ids = (list(column) for column in zip(*rows, strict=True))
            self.conn.exec_driver_sql(
                "UPDATE tournaments AS t SET start_date = v.s, end_date = v.e FROM "
                "unnest(%s::date[], %s::date[], %s::integer[]) AS v(s, e, id) WHERE t.id = v.id",
                (starts, ends, ids),
            )


def _iso(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)
