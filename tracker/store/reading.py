"""What the period replay reads from the store, and the user's tournament overrides.

Plain values out (tracker.periods.GameFact / TournamentFact, tracker.model values); no ORM
row leaves this module. The replay itself is pure (tracker.periods); this module only
gathers the facts: a player's games with both sides' Elo and each game's tournament, the
tournaments with their overrides (pinned period or list, excluded, the Ro FIDE used), and
records those overrides (`tracker event set`).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import (
    Connection,
    Row,
    Text,
    and_,
    bindparam,
    cast,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.sql import ColumnElement, Select

from tracker.errors import BadInput, NotFound
from tracker.identity.tournaments import TAG_YEAR_MONTH
from tracker.model import (
    BLACK_SCORES,
    MAX_RATING,
    WHITE_SCORES,
    EloTags,
    OfficialEntry,
    Period,
    PlayerRef,
    RatingList,
)
from tracker.periods import GameFact, RatingSource, TagDate, TournamentFact
from tracker.store.db import Store, writing
from tracker.store.entries import entry_order, official_entry
from tracker.store.players import player_ref
from tracker.store.schema import (
    games,
    imports,
    official_ratings,
    players,
    ro_overrides,
    tournaments,
)

__all__ = [
    "UNSET",
    "OverrideChange",
    "Unset",
    "StoredFacts",
    "dated_only_by_year",
    "facts_of_players",
    "games_of",
    "get_tournament",
    "official_of_players",
    "players_by_name",
    "players_with_ratings",
    "record_group_override",
    "record_override",
    "tournament_starts",
    "tournaments_of",
]


_LISTS = {str(rl): rl for rl in RatingList}


def _elo_tag(side: str) -> ColumnElement[object]:
    """A side's Elo tag as written: the row keeps NULL where it is exactly the rating
    (migration 0007), which gives the text back."""
    g = games.c
    return func.coalesce(g[f"{side}_elo_tag"], cast(g[f"{side}_elo"], Text))


@functools.cache
def _side_select(white: bool) -> Select[tuple[object, ...]]:
    """The games of the player on one side, without the WHERE clause: the columns
    `_facts_of_rows` names (white, score and the list are added in Python), the player's
    own id last. Built once (building a statement costs more than running it)."""
    g = games.c
    own, other = ("white", "black") if white else ("black", "white")
    opp = players.alias("opp")
    return select(
        g.id,
        g.tournament_id,
        g.date,
        g.round,
        g[f"{other}_id"],
        opp.c.name,
        g[f"{own}_elo"],
        g[f"{other}_elo"],
        g.result,
        g.list,
        g.rated,
        g.not_rated_reason,
        opp.c.fide_id,
        _elo_tag(own),
        _elo_tag(other),
        g.list_assumed,
        g.import_id,
        g[f"{own}_id"],
    ).join(opp, opp.c.id == g[f"{other}_id"])


@functools.cache
def _one_player(white: bool) -> Select[tuple[object, ...]]:
    own_col = games.c.white_id if white else games.c.black_id
    return _side_select(white).where(own_col == bindparam("player"))


_SIDES = ((True, games.c.white_id), (False, games.c.black_id))


def _tag_kinds(conn: Connection) -> dict[int, EloTags]:
    """What each imported file's Elo tags are, by import id, where its import said other
    than AUTO (`tracker import --tags`): a few rows at most."""
    stmt = select(imports.c.id, imports.c.elo_tags).where(imports.c.elo_tags != str(EloTags.AUTO))
    return {int(i): EloTags(str(k)) for i, k in conn.execute(stmt)}


def _facts_of_rows(
    rows: Iterable[Sequence[Any]], white: bool, kinds: Mapping[int, EloTags]
) -> list[GameFact]:
    """GameFacts from the rows of `_side_select` (the player's id, last, is dropped);
    `kinds`: what each import's Elo tags are, where not AUTO (`_tag_kinds`)."""
    scores = WHITE_SCORES if white else BLACK_SCORES
    auto = EloTags.AUTO
    lists = _LISTS
    return GameFact.many(
        {
            "id": gid,
            "tournament_id": int(tid),
            "date": date,
            "round": round_,
            "white": white,
            "opponent_id": int(opp_id),
            "opponent": str(opp_name),
            "own_elo": own_elo,
            "opponent_elo": opp_elo,
            "result": str(result),
            "score": scores.get(result),
            "rating_list": lists[str(rating_list)],
            "rated": bool(rated),
            "not_rated_reason": reason,
            "opponent_fide_id": opp_fide,
            "own_elo_tag": own_tag,
            "opponent_elo_tag": opp_tag,
            "list_assumed": bool(assumed),
            "opponent_rating_source": RatingSource.ELO_TAG,
            "opponent_list": None,
            "opponent_list_file": None,
            "not_on_excerpt": None,
            "elo_tags": kinds.get(import_id, auto) if kinds else auto,
        }
        for (
            gid,
            tid,
            date,
            round_,
            opp_id,
            opp_name,
            own_elo,
            opp_elo,
            result,
            rating_list,
            rated,
            reason,
            opp_fide,
            own_tag,
            opp_tag,
            assumed,
            import_id,
            _own,
        ) in rows
    )


def _game_order(g: GameFact) -> tuple[object, ...]:
    return (g.date is None, g.date or dt.date.min, g.tournament_id, g.round or "", g.id)


def games_of(store: Store, player_id: int) -> list[GameFact]:
    """Every game of the player on every list, each seen from the player's side, in date
    order (undated games last). The list is the game's own; tournament pins are applied by
    the replay."""
    out: list[GameFact] = []
    with store.engine.connect() as conn:
        kinds = _tag_kinds(conn)
        for white in (True, False):
            rows = conn.execute(_one_player(white), {"player": player_id}).all()
            out += _facts_of_rows(rows, white, kinds)
    out.sort(key=_game_order)
    return out


def _tournament_select(player_id: int | None) -> Select[tuple[object, ...]]:
    if player_id is None:
        return select(tournaments, literal(None).label("ro"))
    return select(tournaments, ro_overrides.c.rating.label("ro")).outerjoin(
        ro_overrides,
        and_(
            ro_overrides.c.tournament_id == tournaments.c.id, ro_overrides.c.player_id == player_id
        ),
    )


def _tournament_fact(row: Row[tuple[object, ...]]) -> TournamentFact:
    m = row._mapping
    pinned_period = m["pinned_period"]
    pinned_list = m["pinned_list"]
    return TournamentFact(
        id=int(m["id"]),
        name=str(m["event"]),
        site=str(m["site"]),
        start=m["start_date"],
        end=m["end_date"],
        online=bool(m["online"]),
        pinned_period=Period.parse(pinned_period) if pinned_period else None,
        pinned_list=RatingList(pinned_list) if pinned_list else None,
        excluded=bool(m["excluded"]),
        ro=m["ro"],
    )


def _tag_date(tag: str | None) -> TagDate | None:
    """The year (and month) a partial date tag gives (`2011.??.??`, `2011.05.??`)."""
    m = TAG_YEAR_MONTH.match(tag or "")
    if m is None:
        return None
    month = m.group(2)
    return TagDate(int(m.group(1)), int(month) if month and "01" <= month <= "12" else None)


def _with_tag_dates(
    conn: Connection, facts: list[TournamentFact], ids: Select[tuple[Any]] | Sequence[int]
) -> list[TournamentFact]:
    """`facts` with the `tag_date` of each tournament without a whole date among `ids` (a
    subquery of tournament ids): what its games' partial date tags say (TagDate.latest)."""
    if all(t.start is not None for t in facts):
        return facts
    tags = tag_dates(conn, ids)
    if not tags:
        return facts
    return [replace(f, tag_date=tags[f.id]) if f.id in tags else f for f in facts]


def tag_dates(
    conn: Connection, ids: Select[tuple[Any]] | Sequence[int] | None = None
) -> dict[int, TagDate]:
    """What the partial date tags of each tournament without a whole date among `ids` (a
    subquery of tournament ids; None: every tournament) say (TagDate.latest), by id; a
    tournament whose tags give not even a year is left out."""
    g, t = games.c, tournaments.c
    stmt = (
        select(g.tournament_id, g.date_tag)
        .select_from(games.join(tournaments, t.id == g.tournament_id))
        .where(t.start_date.is_(None), g.date.is_(None))
        .distinct()
    )
    if ids is not None:
        stmt = stmt.where(g.tournament_id.in_(ids))
    found: dict[int, list[TagDate]] = {}
    for tid, tag in conn.execute(stmt):
        said = _tag_date(tag)
        if said is not None:
            found.setdefault(int(tid), []).append(said)
    out = {tid: TagDate.latest(dates) for tid, dates in found.items()}
    return {tid: d for tid, d in out.items() if d is not None}


def tournaments_of(store: Store, player_id: int) -> list[TournamentFact]:
    """The tournaments the player has games in, with the user's overrides (the Ro override
    is this player's)."""
    own = select(games.c.tournament_id).where(
        or_(games.c.white_id == player_id, games.c.black_id == player_id)
    )
    stmt = (
        _tournament_select(player_id)
        .where(tournaments.c.id.in_(own))
        .order_by(tournaments.c.start_date, tournaments.c.id)
    )
    with store.engine.connect() as conn:
        return _with_tag_dates(conn, [_tournament_fact(r) for r in conn.execute(stmt)], own)


def tournament_starts(store: Store) -> list[tuple[dt.date, RatingList]]:
    """The first day and the list of every dated tournament not excluded, each pair once, in
    date order: the list its games are on (the one it is pinned to, when it is pinned; a
    tournament with games on two lists gives both). What `tracker official fetch` needs:
    the list in force at each start."""
    on_list = func.coalesce(tournaments.c.pinned_list, games.c.list)
    stmt = (
        select(tournaments.c.start_date, on_list)
        .select_from(tournaments.join(games, games.c.tournament_id == tournaments.c.id))
        .where(tournaments.c.start_date.is_not(None), ~tournaments.c.excluded)
        .distinct()
    )
    with store.engine.connect() as conn:
        rows = conn.execute(stmt).all()
    return sorted((start, _LISTS[str(name)]) for start, name in rows if str(name) in _LISTS)


# --- many players at once (check --all, the replay of a whole database) ------------------


@dataclass(frozen=True)
class StoredFacts:
    """What the replay of one player reads, read for many players in one pass: the same
    values `get_player`, `games_of`, `tournaments_of` and `entries_for` give."""

    player: PlayerRef
    games: list[GameFact]
    tournaments: list[TournamentFact]
    official: list[OfficialEntry]


def players_by_name(store: Store) -> list[int]:
    """Every player's id, in the order `list_players` gives them (normalized name, id)."""
    with store.engine.connect() as conn:
        return [
            int(pid)
            for (pid,) in conn.execute(
                select(players.c.id).order_by(players.c.norm_name, players.c.id)
            )
        ]


def players_with_ratings(store: Store) -> set[int]:
    """The ids of the players with an official entry that has a rating."""
    with store.engine.connect() as conn:
        return {
            int(pid)
            for (pid,) in conn.execute(
                select(official_ratings.c.player_id)
                .where(official_ratings.c.rating.is_not(None))
                .distinct()
            )
        }


def official_of_players(store: Store, player_ids: Sequence[int]) -> dict[int, list[OfficialEntry]]:
    """The official entries of each player (as `entries_for` orders them); players without
    one are left out."""
    found: dict[int, list[OfficialEntry]] = {}
    if not player_ids:
        return found
    stmt = select(official_ratings).where(official_ratings.c.player_id.in_(list(player_ids)))
    with store.engine.connect() as conn:
        for row in conn.execute(stmt):
            entry = official_entry(row)
            found.setdefault(entry.player_id, []).append(entry)
    for entries in found.values():
        entries.sort(key=entry_order)
    return found


def facts_of_players(
    store: Store, official: dict[int, list[OfficialEntry]]
) -> dict[int, StoredFacts]:
    """The facts of the players keyed in `official` (their entries, read already), with
    a handful of queries whatever their number: a few hundred players at a time is the
    size this is made for (the ids go into IN lists)."""
    ids = list(official)
    out: dict[int, StoredFacts] = {}
    if not ids:
        return out
    by_player: dict[int, list[GameFact]] = {pid: [] for pid in ids}
    ranks: dict[int, int] = {}
    facts: list[TournamentFact] = []
    ro: dict[tuple[int, int], int] = {}
    with store.engine.connect() as conn:
        refs = {
            int(r.id): player_ref(r)
            for r in conn.execute(select(players).where(players.c.id.in_(ids)))
        }
        kinds = _tag_kinds(conn)
        for white, own_col in _SIDES:
            rows = conn.execute(_side_select(white).where(own_col.in_(ids))).all()
            grouped: dict[int, list[Any]] = {}
            for row in rows:
                pid: Any = row[-1]
                grouped.setdefault(pid, []).append(row)
            for owner, its in grouped.items():
                by_player[owner] += _facts_of_rows(its, white, kinds)
        own = select(games.c.tournament_id).where(
            or_(games.c.white_id.in_(ids), games.c.black_id.in_(ids))
        )
        stmt = (
            _tournament_select(None)
            .where(tournaments.c.id.in_(own))
            .order_by(tournaments.c.start_date, tournaments.c.id)
        )
        for rank, row in enumerate(conn.execute(stmt)):
            fact = _tournament_fact(row)
            ranks[fact.id] = rank
            facts.append(fact)
        facts = _with_tag_dates(conn, facts, own)
        for pid, tid, rating in conn.execute(
            select(
                ro_overrides.c.player_id, ro_overrides.c.tournament_id, ro_overrides.c.rating
            ).where(ro_overrides.c.player_id.in_(ids))
        ):
            ro[(int(pid), int(tid))] = rating
    for pid in ids:
        if pid not in refs:
            continue
        gs = by_player[pid]
        gs.sort(key=_game_order)
        mine = sorted({ranks[g.tournament_id] for g in gs})
        ts = [facts[r] for r in mine]
        if ro:
            ts = [replace(t, ro=ro[(pid, t.id)]) if (pid, t.id) in ro else t for t in ts]
        out[pid] = StoredFacts(refs[pid], gs, ts, official[pid])
    return out


def get_tournament(
    store: Store, tournament_id: int, player_id: int | None = None
) -> TournamentFact:
    """One tournament by id (with `player_id`'s Ro override when given)."""
    if not 0 < tournament_id < 2**63:  # no such id can be stored (SQLite's integers)
        raise NotFound(
            f"no tournament with id {tournament_id}: see `tracker event list` for the ids"
        )
    stmt = _tournament_select(player_id).where(tournaments.c.id == tournament_id)
    with store.engine.connect() as conn:
        row = conn.execute(stmt).first()
        if row is None:
            raise NotFound(
                f"no tournament with id {tournament_id}: see `tracker event list` for the ids"
            )
        return _with_tag_dates(conn, [_tournament_fact(row)], [tournament_id])[0]


class Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET = Unset()
"""Marks an override left as it is (None clears it)."""


@dataclass(frozen=True)
class OverrideChange:
    """What `record_override` changed, for the command's confirmation line."""

    tournament: TournamentFact
    changes: tuple[str, ...]


def _override_values(
    period: Period | None | Unset, rating_list: RatingList | None | Unset, excluded: bool | Unset
) -> tuple[dict[str, object], list[str]]:
    """The tournament columns the overrides set, and what each changes, in words."""
    values: dict[str, object] = {}
    changes: list[str] = []
    if not isinstance(period, Unset):
        values["pinned_period"] = None if period is None else str(period)
        changes.append(f"period {'default' if period is None else period}")
    if not isinstance(rating_list, Unset):
        values["pinned_list"] = None if rating_list is None else str(rating_list)
        changes.append(f"list {'from each game' if rating_list is None else rating_list}")
    if not isinstance(excluded, Unset):
        values["excluded"] = excluded
        changes.append("excluded" if excluded else "included")
    return values, changes


def dated_only_by_year(store: Store, year: int) -> list[TournamentFact]:
    """The tournaments without a whole date whose games' date tags give `year` and no month
    (`2011.??.??`: their `tag_date` is TagDate(year)), by id: the group `tracker event set
    --year` settles at once."""
    undated = select(tournaments.c.id).where(tournaments.c.start_date.is_(None))
    stmt = (
        _tournament_select(None)
        .where(tournaments.c.start_date.is_(None))
        .order_by(tournaments.c.id)
    )
    with store.engine.connect() as conn:
        facts = _with_tag_dates(conn, [_tournament_fact(r) for r in conn.execute(stmt)], undated)
    return [t for t in facts if t.tag_date == TagDate(year)]


def record_group_override(
    store: Store,
    tournament_ids: Sequence[int],
    *,
    period: Period | None | Unset = UNSET,
    rating_list: RatingList | None | Unset = UNSET,
    excluded: bool | Unset = UNSET,
) -> tuple[str, ...]:
    """Record the same overrides (as `record_override`) for every tournament of
    `tournament_ids` in one transaction: all of them or none; what changed, in words."""
    values, changes = _override_values(period, rating_list, excluded)
    if values and tournament_ids:
        with writing(store) as conn:
            conn.execute(
                update(tournaments)
                .where(tournaments.c.id.in_(list(tournament_ids)))
                .values(**values)
            )
    return tuple(changes)


def record_override(
    store: Store,
    tournament_id: int,
    *,
    period: Period | None | Unset = UNSET,
    rating_list: RatingList | None | Unset = UNSET,
    excluded: bool | Unset = UNSET,
    ro: tuple[int, int | None] | Unset = UNSET,
) -> OverrideChange:
    """Record the user's overrides of one tournament in one transaction.

    `period` pins the tournament to a list month (None: back to the default), `rating_list`
    pins it to a list (None: back to each game's own list), `excluded` marks a tournament
    that was never rated, `ro=(player_id, rating)` records the Ro FIDE used for that player
    (rating None removes it). Arguments left UNSET are unchanged. Whether the list can
    rate the tournament is the rules' question (tracker.periods.check_pin), asked by the use
    case (tracker.app.events) before this records it.
    """
    get_tournament(store, tournament_id)  # NotFound with a clear sentence
    values, changes = _override_values(period, rating_list, excluded)
    with writing(store) as conn:
        if values:
            conn.execute(
                update(tournaments).where(tournaments.c.id == tournament_id).values(**values)
            )
        if not isinstance(ro, Unset):
            player_id, rating = ro
            if rating is not None and not 1 <= rating <= MAX_RATING:
                raise BadInput(
                    f"--ro {rating} is not a rating: give a number from 1 to "
                    f"{MAX_RATING}, like 1850"
                )
            conn.execute(
                delete(ro_overrides).where(
                    and_(
                        ro_overrides.c.tournament_id == tournament_id,
                        ro_overrides.c.player_id == player_id,
                    )
                )
            )
            if rating is not None:
                conn.execute(
                    insert(ro_overrides).values(
                        tournament_id=tournament_id, player_id=player_id, rating=rating
                    )
                )
            changes.append(f"Ro {rating}" if rating is not None else "Ro from the lists")
    player = ro[0] if not isinstance(ro, Unset) else None
    return OverrideChange(get_tournament(store, tournament_id, player), tuple(changes))
