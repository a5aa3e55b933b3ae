"""The imports of sources: what `tracker imports` lists, `tracker imports remove`, and what
an import left for its summary (games whose list was assumed, tournaments without a date).
The writer of an import is tracker.store.games.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import Connection, and_, case, delete, exists, func, or_, select, union_all, update
from sqlalchemy.exc import DatabaseError as SADatabaseError
from sqlalchemy.exc import OperationalError
from sqlalchemy.sql import Select

from tracker.errors import DatabaseError, NotFound
from tracker.model import EloTags, ImportRecord, RatingList
from tracker.periods.tags import PlayerTag
from tracker.store.db import Store, chunks, is_busy, lock_for_writing, one_line, writing
from tracker.store.schema import (
    games,
    imports,
    official_ratings,
    player_names,
    players,
    ro_overrides,
    tournaments,
)


def find_import(store: Store, content_hash: str) -> ImportRecord | None:
    """The finished import of this exact content, if there was one."""
    with store.engine.connect() as conn:
        row = conn.execute(
            select(imports)
            .where(imports.c.content_hash == content_hash, imports.c.finished_at.is_not(None))
            .order_by(imports.c.id)
            .limit(1)
        ).first()
    return None if row is None else _import_record(row._mapping)


def _import_record(m: Any) -> ImportRecord:
    return ImportRecord(
        id=int(m["id"]),
        source=str(m["source"]),
        content_hash=str(m["content_hash"]),
        started_at=m["started_at"],
        finished_at=m["finished_at"],
        games_read=int(m["games_read"]),
        games_added=int(m["games_added"]),
        duplicates=int(m["duplicates"]),
        problems=int(m["problems"]),
        elo_tags=EloTags(str(m["elo_tags"])),
    )


def set_elo_tags(store: Store, import_id: int, elo_tags: EloTags) -> None:
    """Record what the Elo tags of an imported file's rapid and blitz events are
    (`tracker import FILE --tags` for a file imported before)."""
    with writing(store) as conn:
        conn.execute(
            update(imports).where(imports.c.id == import_id).values(elo_tags=str(elo_tags))
        )


def list_imports(store: Store) -> list[ImportRecord]:
    """Every finished import, oldest first."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(imports).where(imports.c.finished_at.is_not(None)).order_by(imports.c.id)
        ).all()
    return [_import_record(r._mapping) for r in rows]


@dataclass(frozen=True)
class RemovedImport:
    """What `remove_import` removed (or, on a dry run, would remove)."""

    record: ImportRecord
    games: int
    tournaments: tuple[str, ...]  # the events of the tournaments removed
    players: tuple[str, ...]  # the names of the players removed
    kept_tournaments: int  # had games of this import, kept: other games or user overrides
    kept_players: int  # had games of this import, kept: other games, official entries...
    # Later imports that skipped duplicates (perhaps of these games): their content is
    # forgotten, so that importing such a file again stores what it has.
    forgotten: tuple[str, ...] = ()


def remove_import(store: Store, import_id: int, *, dry_run: bool = False) -> RemovedImport:
    """Remove one import in one transaction: the games it added (games.import_id), then what
    only they needed: its tournaments left without games and without a user override
    (pinned period or list, excluded, a starting rating), its players left without games,
    official entries, facts (birth year, rated games, ever 2400, title, federation), a
    spelling other than their own (a merge) or the mark of the tracked player; and the
    import row itself, so that the same file can be imported again. A dry run says the same
    and writes nothing. Games of other imports that joined its tournaments keep them (with
    the dates they have). A later import that skipped duplicates may have skipped these
    games: its content is forgotten (content_hash ''), so that its file is not taken for
    "already imported" and brings them back when imported again."""
    if not 0 < import_id < 2**63:  # no such id can be stored (SQLite's integers)
        raise NotFound(
            f"there is no import {import_id}: `tracker imports` lists them with their ids"
        )
    try:
        with store.engine.connect() as conn:
            lock_for_writing(conn)  # no importer adds a game meanwhile
            removed = _remove_import(conn, import_id)
            if dry_run:
                conn.rollback()
            else:
                conn.commit()
    except (OperationalError, SADatabaseError) as exc:
        if is_busy(exc):
            raise DatabaseError(
                "the database stayed busy: another tracker is writing to it; "
                "remove the import when that one has finished"
            ) from None
        raise DatabaseError(f"cannot write to the database: {one_line(exc.orig)}") from None
    return removed


def _remove_import(conn: Connection, import_id: int) -> RemovedImport:
    row = conn.execute(select(imports).where(imports.c.id == import_id)).first()
    if row is None:
        raise NotFound(
            f"there is no import {import_id}: `tracker imports` lists them with their ids"
        )
    record = _import_record(row._mapping)
    mine = games.c.import_id == import_id
    tids = sorted(
        int(t) for t in conn.execute(select(games.c.tournament_id).where(mine).distinct()).scalars()
    )
    pids = sorted(
        {
            int(p)
            for p in conn.execute(
                union_all(
                    select(games.c.white_id).where(mine), select(games.c.black_id).where(mine)
                )
            ).scalars()
        }
    )
    gone = int(conn.execute(delete(games).where(mine)).rowcount)
    # Tournaments: without games now, and without an override of the user's.
    free_t = and_(
        ~exists().where(games.c.tournament_id == tournaments.c.id),
        ~exists().where(ro_overrides.c.tournament_id == tournaments.c.id),
        tournaments.c.pinned_period.is_(None),
        tournaments.c.pinned_list.is_(None),
        or_(tournaments.c.excluded.is_(None), tournaments.c.excluded.is_(False)),
    )
    dead_t: list[tuple[int, str]] = []
    for chunk in chunks(tids):
        dead_t += [
            (int(i), str(e))
            for i, e in conn.execute(
                select(tournaments.c.id, tournaments.c.event)
                .where(tournaments.c.id.in_(chunk), free_t)
                .order_by(tournaments.c.id)
            )
        ]
    for chunk in chunks([i for i, _ in dead_t]):
        conn.execute(delete(tournaments).where(tournaments.c.id.in_(chunk)))
    # Players: without games now, and without anything the user or an official list said.
    free_p = and_(
        ~exists().where(games.c.white_id == players.c.id),
        ~exists().where(games.c.black_id == players.c.id),
        ~exists().where(official_ratings.c.player_id == players.c.id),
        ~exists().where(ro_overrides.c.player_id == players.c.id),
        ~exists().where(
            player_names.c.player_id == players.c.id,
            player_names.c.norm_name != players.c.norm_name,
        ),
        players.c.birth_year.is_(None),
        players.c.rated_games.is_(None),
        players.c.ever_2400.is_(None),
        players.c.title.is_(None),
        players.c.federation.is_(None),
        or_(players.c.is_me.is_(None), players.c.is_me.is_(False)),
    )
    dead_p: list[tuple[int, str]] = []
    for chunk in chunks(pids):
        dead_p += [
            (int(i), str(n))
            for i, n in conn.execute(
                select(players.c.id, players.c.name)
                .where(players.c.id.in_(chunk), free_p)
                .order_by(players.c.id)
            )
        ]
    for chunk in chunks([i for i, _ in dead_p]):
        conn.execute(delete(player_names).where(player_names.c.player_id.in_(chunk)))
        conn.execute(delete(players).where(players.c.id.in_(chunk)))
    conn.execute(delete(imports).where(imports.c.id == import_id))
    later = (imports.c.id > import_id) & (imports.c.duplicates > 0) & (imports.c.content_hash != "")
    forgotten = tuple(
        str(x)
        for x in conn.execute(
            select(imports.c.source).where(later).order_by(imports.c.id)
        ).scalars()
    )
    conn.execute(update(imports).where(later).values(content_hash=""))
    return RemovedImport(
        record=record,
        games=gone,
        tournaments=tuple(e for _, e in dead_t),
        players=tuple(n for _, n in dead_p),
        kept_tournaments=len(tids) - len(dead_t),
        kept_players=len(pids) - len(dead_p),
        forgotten=forgotten,
    )


def players_after(store: Store, after_game_id: int) -> set[int]:
    """The players (either side) of the games with an id above `after_game_id`."""
    g = games.c
    with store.engine.connect() as conn:
        found = conn.execute(select(g.white_id, g.black_id).where(g.id > after_game_id)).all()
    return {int(pid) for row in found for pid in row}


def last_game_id(store: Store) -> int:
    """The highest game id (0 without games): the games an import adds have higher ones."""
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.coalesce(func.max(games.c.id), 0))).scalar_one())


def players_tags(store: Store, import_id: int) -> list[PlayerTag]:
    """The players' own Elo tags in the rated rapid and blitz games an import added, and
    in every rated standard game stored of the same players (whatever file it came from),
    one per player, tournament and tag (tracker.periods.tags.file_tags judges them)."""
    g, t = games.c, tournaments.c
    found: set[PlayerTag] = set()

    def side(name: str) -> Select[tuple[object, ...]]:
        own = g[f"{name}_elo"]
        return (
            select(g[f"{name}_id"], g.tournament_id, t.start_date, g.list, own)
            .join(tournaments, t.id == g.tournament_id)
            .where(g.rated.is_(True), own.is_not(None))
            .distinct()
        )

    with store.engine.connect() as conn:
        for name in ("white", "black"):
            stmt = side(name).where(g.import_id == import_id, g.list != str(RatingList.STANDARD))
            found.update(_player_tags(conn.execute(stmt)))
        ids = sorted({p.player_id for p in found})
        for name in ("white", "black"):
            for some in chunks(ids):
                stmt = side(name).where(
                    g.list == str(RatingList.STANDARD), g[f"{name}_id"].in_(some)
                )
                found.update(_player_tags(conn.execute(stmt)))
    return sorted(found, key=lambda p: (p.player_id, p.tournament_id, p.tag))


def _player_tags(rows: Iterable[Any]) -> Iterator[PlayerTag]:
    for pid, tid, start, lst, elo in rows:
        yield PlayerTag(int(pid), int(tid), start, RatingList(str(lst)), int(elo))


@dataclass(frozen=True)
class AssumedGames:
    """Games stored without a readable time control, of one list and not-rated reason."""

    rating_list: str
    reason: str | None  # why not rated (None: rated), e.g. a name reason (tie-break)
    games: int


def assumed_since(store: Store, after_game_id: int) -> list[AssumedGames]:
    """The games with an id above `after_game_id` (those an import added) whose list was
    assumed (`list_assumed`), by list and not-rated reason, in that order."""
    g = games.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(g.list, g.not_rated_reason, func.count())
            .where(g.id > after_game_id, g.list_assumed.is_(True))
            .group_by(g.list, g.not_rated_reason)
        ).all()
    return sorted(
        (AssumedGames(str(lst), None if r is None else str(r), int(n)) for lst, r, n in rows),
        key=lambda a: (a.rating_list, a.reason or ""),
    )


class UndatedRow(NamedTuple):
    """A tournament in no rating period: no game of it has a usable date, and no period is
    pinned (tracker.app.imports.UndatedTournament, with the pin that gives it one)."""

    id: int
    event: str
    site: str
    date_tag: str  # the date tag its games share ("?" for none; `2024.??.??`)
    games: int  # its games (of the player, or added after the game id, when asked)
    rated: int  # of which count for rating


def undated_tournaments(
    store: Store, *, player_id: int | None = None, after_game_id: int | None = None
) -> list[UndatedRow]:
    """The tournaments in no rating period (no usable date, no pinned period), not excluded
    and not online, with their games: of `player_id` only, or only those with an id above
    `after_game_id` (an import's), when given; by id. For `history`/`next` to list them with
    the pin that fixes each (tracker.app.imports.UndatedTournament), and for the import summary."""
    t, g = tournaments.c, games.c
    query = (
        select(
            t.id,
            t.event,
            t.site,
            t.key,
            func.count(g.id),
            func.coalesce(func.sum(case((g.rated.is_(True), 1), else_=0)), 0),
        )
        .join(games, g.tournament_id == t.id)
        .where(
            t.start_date.is_(None),
            t.pinned_period.is_(None),
            or_(t.excluded.is_(None), t.excluded.is_(False)),
            or_(t.online.is_(None), t.online.is_(False)),
        )
        .group_by(t.id, t.event, t.site, t.key)
        .order_by(t.id)
    )
    if player_id is not None:
        query = query.where(or_(g.white_id == player_id, g.black_id == player_id))
    if after_game_id is not None:
        query = query.where(g.id > after_game_id)
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    return [
        UndatedRow(int(i), str(e), str(site), str(k).rpartition("|")[2] or "?", int(n), int(r))
        for i, e, site, k, n, r in rows
    ]
