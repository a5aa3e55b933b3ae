"""The players side of writing games (tracker.store.games.GameWriter): the player each game
names, through in-memory caches filled by one SELECT per batch (by FIDE ID, by normalized
name), new players and spellings collected for the batch's insert, and the names given
another player's FIDE ID noted (`foreign`). How players are matched: docs/architecture.md,
section tracker/store/."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, select

from tracker.identity.names import NamesApart, names_apart
from tracker.model import ForeignFideId, PreparedGame
from tracker.store.db import chunks
from tracker.store.schema import player_names, players

MAX_FOREIGN = 200  # names with another player's FIDE ID kept per source (all are counted)

# What the writer looks up per batch (`_select_in` adds `WHERE column IN (...)`).
PLAYERS_BY_FIDE = select(players.c.id, players.c.fide_id, players.c.name)
PLAYERS_BY_NAME = select(player_names.c.norm_name, players.c.id, players.c.fide_id).join(
    players, players.c.id == player_names.c.player_id
)


class PlayerLookup:
    """GameWriter's players: the caches it fills and the player of each game's side (the
    hot path: two dictionary lookups a side). GameWriter sets the attributes below."""

    _sqlite: bool
    _by_fide: dict[int, int]  # FIDE ID -> player id
    _by_name: dict[str, int]  # normalized spelling -> player id
    _fide_of: dict[int, int | None]  # player id -> FIDE ID
    _holder_name: dict[int, str]  # the name of a player with a FIDE ID
    _fits: dict[tuple[str, int], NamesApart | None]
    foreign: dict[tuple[str, int], ForeignFideId]
    foreign_more: int
    _next_player: int
    _all_players_cached: bool
    _in_sql: dict[tuple[int, int], str]

    @property
    def conn(self) -> Connection:
        raise NotImplementedError  # GameWriter's transaction

    def _load_players(self, batch: Sequence[PreparedGame]) -> None:
        if self._all_players_cached:
            return
        fides = {g.white_fide for g in batch} | {g.black_fide for g in batch}
        fides.discard(None)
        fides -= self._by_fide.keys()
        names = {g.white_norm for g in batch} | {g.black_norm for g in batch}
        names -= self._by_name.keys()
        for chunk in chunks(sorted(fides)):
            for pid, fide, name in self._select_in(PLAYERS_BY_FIDE, players.c.fide_id, chunk):
                self._by_fide[int(fide)] = int(pid)
                self._fide_of[int(pid)] = int(fide)
                self._holder_name[int(pid)] = str(name)
        for chunk in chunks(sorted(names)):
            for norm, pid, fide in self._select_in(
                PLAYERS_BY_NAME, player_names.c.norm_name, chunk
            ):
                self._by_name[str(norm)] = int(pid)
                self._fide_of[int(pid)] = None if fide is None else int(fide)

    def _select_in(self, query: Any, column: Any, values: Sequence[Any]) -> Sequence[Any]:
        """Rows of `query` where `column` IN `values`. On SQLite the statement is compiled
        once and run with plain parameters (SQLAlchemy compiles an expanding IN anew for
        every list length, a cost paid per batch)."""
        size = len(values) if self._sqlite else 0  # postgresql: one array, any length
        sql = self._in_sql.get((id(query), size))
        if sql is None:
            base = str(
                query.compile(dialect=self.conn.dialect, compile_kwargs={"literal_binds": True})
            )
            where = f"{column.table.name}.{column.name}"
            if self._sqlite:
                sql = f"{base} WHERE {where} IN ({', '.join('?' for _ in values)})"
            else:
                sql = f"{base} WHERE {where} = ANY(%s)"
            self._in_sql[(id(query), size)] = sql
        params = tuple(values) if self._sqlite else (list(values),)
        return self.conn.exec_driver_sql(sql, params).all()

    def _player(
        self,
        name: str,
        norm: str,
        fide: int | None,
        new_players: list[tuple[Any, ...]],
        new_names: list[tuple[Any, ...]],
        new_fides: list[tuple[Any, ...]],
        line: int,
        side: str,
    ) -> int:
        """The player a game names (`side` of the game at `line`): by FIDE ID when the game
        gives one and the name fits the holder's (tracker.identity.names.names_fit: a new
        spelling of theirs is recorded), else by name; a name given another player's FIDE
        ID is filed under the name, without the ID, and noted (`foreign`): no tag merges
        two people."""
        if fide is None:
            pid = self._by_name.get(norm)
            if pid is not None:
                return pid
        else:
            pid = self._by_fide.get(fide)
            named = self._by_name.get(norm)
            if pid is None:
                if named is not None and self._fide_of.get(named) is None:
                    # The name's player has no FIDE ID yet: this game gives it.
                    self._fide_of[named] = fide
                    self._by_fide[fide] = named
                    self._holder_name[named] = name
                    new_fides.append((fide, named))
                    return named
            elif named == pid:
                return pid
            else:
                apart = self._apart(name, pid)
                if apart is None:
                    if named is None:
                        self._by_name[norm] = pid
                        new_names.append((norm, pid))
                    return pid
                self._note_foreign(line, side, name, norm, fide, pid, apart)
                if named is not None:
                    return named
                fide = None  # a player of that name, without the FIDE ID
        self._next_player += 1
        pid = self._next_player
        new_players.append((pid, name, norm, fide))
        self._fide_of[pid] = fide
        if fide is not None:
            self._by_fide[fide] = pid
            self._holder_name[pid] = name
        if norm not in self._by_name:
            self._by_name[norm] = pid
            new_names.append((norm, pid))
        return pid

    def _apart(self, name: str, holder: int) -> NamesApart | None:
        """Why `name` is not that of the player `holder` (None: it fits)."""
        key = (name, holder)
        if key in self._fits:
            return self._fits[key]
        held = self._holder_name.get(holder)
        if held is None:
            held = str(
                self.conn.execute(select(players.c.name).where(players.c.id == holder)).scalar()
            )
            self._holder_name[holder] = held
        found = self._fits[key] = names_apart(held, name)
        return found

    def _note_foreign(
        self,
        line: int,
        side: str,
        name: str,
        norm: str,
        fide: int,
        holder: int,
        apart: NamesApart,
    ) -> None:
        seen = self.foreign.get((norm, fide))
        if seen is not None:
            seen.games += 1
        elif len(self.foreign) < MAX_FOREIGN:
            self.foreign[(norm, fide)] = ForeignFideId(
                line, side, name, fide, self._holder_name[holder], apart
            )
        else:
            self.foreign_more += 1
