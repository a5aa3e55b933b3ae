"""Players: finding the one the user means, the tracked player (`--me`), the facts that
decide K (`set_facts`), `merge` and `unmerge` (two spellings, one person, when the user says
so; each merge recorded by tracker.store.merges, undone by tracker.store.unmerge), and the
list behind `tracker players`.
"""

from __future__ import annotations

import datetime as dt
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from sqlalchemy import (
    Connection,
    Row,
    func,
    select,
    union,
    union_all,
    update,
)

from tracker.errors import BadInput, NotFound
from tracker.identity.names import name_fit, name_forms, normalize_name
from tracker.model import MergeDone, PlayerRef, PlayerSummary
from tracker.store.db import Store, chunks, writing
from tracker.store.merges import MergeHow, games_between, merge_rows
from tracker.store.schema import games, player_names, players
from tracker.store.unmerge import latest_merges, merge_into, unmerge_rows

MAX_FIDE_ID_DIGITS = 12  # FIDE IDs have at most 9 digits; longer digit strings are names
MAX_FIDE_ID = 10**MAX_FIDE_ID_DIGITS - 1


def player_ref(row: Row[tuple[object, ...]]) -> PlayerRef:
    """A players row as the value the store hands out."""
    m = row._mapping
    return PlayerRef(
        id=int(m["id"]),
        name=str(m["name"]),
        fide_id=m["fide_id"],
        birth_year=m["birth_year"],
        rated_games=m["rated_games"],
        ever_2400=m["ever_2400"],
        is_me=bool(m["is_me"]),
    )


def get_player(store: Store, player_id: int) -> PlayerRef:
    with store.engine.connect() as conn:
        row = conn.execute(select(players).where(players.c.id == player_id)).first()
    if row is None:
        raise NotFound(f"no player with id {player_id}")
    return player_ref(row)


def me(store: Store) -> PlayerRef | None:
    """The tracked player, if one is marked."""
    with store.engine.connect() as conn:
        row = conn.execute(select(players).where(players.c.is_me.is_(True))).first()
    return None if row is None else player_ref(row)


def set_me(store: Store, player_id: int) -> None:
    with writing(store) as conn:
        conn.execute(update(players).values(is_me=False).where(players.c.is_me.is_(True)))
        conn.execute(update(players).values(is_me=True).where(players.c.id == player_id))


def player_with_fide_id(store: Store, fide_id: int) -> PlayerRef | None:
    """The player holding `fide_id`, if any."""
    with store.engine.connect() as conn:
        row = conn.execute(select(players).where(players.c.fide_id == fide_id)).first()
    return None if row is None else player_ref(row)


def player_spelled(store: Store, key: str) -> PlayerRef | None:
    """A player with the normalized spelling `key` (through the index of spellings)."""
    with store.engine.connect() as conn:
        row = conn.execute(
            select(players)
            .join(player_names, player_names.c.player_id == players.c.id)
            .where(player_names.c.norm_name == key)
        ).first()
    return None if row is None else player_ref(row)


def spellings_with(store: Store, word: str) -> list[tuple[int, str]]:
    """(player id, normalized spelling) of every spelling, and every player's own name, that
    contains `word`."""
    spellings = union(
        select(player_names.c.player_id.label("id"), player_names.c.norm_name.label("n")).where(
            player_names.c.norm_name.contains(word, autoescape=True)
        ),
        select(players.c.id, players.c.norm_name).where(
            players.c.norm_name.contains(word, autoescape=True)
        ),
    ).subquery()
    with store.engine.connect() as conn:
        rows = conn.execute(select(spellings.c.id, spellings.c.n)).all()
    return [(int(pid), str(norm)) for pid, norm in rows]


def names_of(store: Store, ids: Sequence[int]) -> list[tuple[str, int | None]]:
    """(name, FIDE ID) of these players, by name (a few hundred ids at a time: SQLite's
    limit of bound values)."""
    found: list[tuple[str, int | None]] = []
    with store.engine.connect() as conn:
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            found.extend(
                (str(r.name), r.fide_id)
                for r in conn.execute(
                    select(players.c.name, players.c.fide_id).where(players.c.id.in_(chunk))
                )
            )
    return sorted(found, key=lambda nf: (normalize_name(nf[0]), nf[0]))


def player_count(store: Store) -> int:
    """How many players the database has."""
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(players)).scalar_one())


_UNSET: Any = object()


@dataclass(frozen=True)
class FactsSet:
    """What `record_facts` did: the player (the one kept, after a merge) and the merge."""

    player: PlayerRef
    merge: MergeDone | None = None


def set_facts(
    store: Store,
    player_id: int,
    *,
    birth_year: int | None = _UNSET,
    rated_games: int | None = _UNSET,
    ever_2400: bool | None = _UNSET,
    fide_id: int | None = _UNSET,
) -> PlayerRef:
    """Record facts about a player (those given; None clears one). Returns the player. A
    FIDE ID another player holds is refused (`record_facts` with `merge` merges them)."""
    return record_facts(
        store,
        player_id,
        birth_year=birth_year,
        rated_games=rated_games,
        ever_2400=ever_2400,
        fide_id=fide_id,
    ).player


def record_facts(
    store: Store,
    player_id: int,
    *,
    birth_year: int | None = _UNSET,
    rated_games: int | None = _UNSET,
    ever_2400: bool | None = _UNSET,
    fide_id: int | None = _UNSET,
    merge: bool = False,
) -> FactsSet:
    """Record facts about a player (those given; None clears one), in one transaction.

    One FIDE ID, one person: a FIDE ID another player already holds is refused (BadInput,
    naming the holder, nothing written), a typo must not make two people one; with `merge`
    the user says they are one person: the player is merged into the holder (`merge_rows`,
    recorded; refused when they played each other), and the holder, with the other facts,
    is returned.
    """
    values: dict[str, Any] = {}
    if birth_year is not _UNSET:
        if birth_year is not None and not 1900 <= birth_year <= dt.date.today().year:
            raise BadInput(f"birth year {birth_year} is not plausible: give a year like 2008")
        values["birth_year"] = birth_year
    if rated_games is not _UNSET:
        if rated_games is not None and rated_games < 0:
            raise BadInput("the number of rated games cannot be negative")
        values["rated_games"] = rated_games
    if ever_2400 is not _UNSET:
        values["ever_2400"] = ever_2400
    if fide_id is not _UNSET:
        if fide_id is not None and not 0 < fide_id <= MAX_FIDE_ID:
            raise BadInput(
                f"FIDE ID {fide_id} is not valid: FIDE IDs are positive numbers of "
                f"at most {MAX_FIDE_ID_DIGITS} digits (as FIDE's profile page "
                "shows them, e.g. 1503014)"
            )
        values["fide_id"] = fide_id
    done: tuple[int, PlayerRef] | None = None
    with writing(store) as conn:
        this = conn.execute(select(players).where(players.c.id == player_id)).first()
        if this is None:
            raise NotFound(f"no player with id {player_id}")
        if values.get("fide_id") is not None:
            fid = int(values["fide_id"])
            other = conn.execute(
                select(players.c.id, players.c.name).where(
                    players.c.fide_id == fid, players.c.id != player_id
                )
            ).first()
            if other is not None:
                if not merge:
                    raise BadInput(_held(conn, fid, int(other.id), str(other.name), this))
                number = merge_rows(conn, int(other.id), player_id, how=MergeHow.FIDE_ID)
                done = (number, player_ref(this))
                player_id = int(other.id)
                del values["fide_id"]
        if values:
            conn.execute(update(players).where(players.c.id == player_id).values(**values))
    ref = get_player(store, player_id)
    return FactsSet(ref, None if done is None else MergeDone(done[0], ref, done[1]))


def _held(conn: Connection, fide_id: int, holder: int, holder_name: str, this: Any) -> str:
    """Why `player set --fide-id` refused a FIDE ID another player holds."""
    met = games_between(conn, holder, int(this.id))
    if met:
        return (
            f"FIDE ID {fide_id} already belongs to {holder_name}, who played {this.name} "
            f"({met} {'game' if met == 1 else 'games'}): they cannot be one person; check "
            "the FIDE ID"
        )
    return (
        f"FIDE ID {fide_id} already belongs to {holder_name}: nothing changed; if "
        f"{this.name} is that person, `tracker player set {shlex.quote(str(this.name))} "
        f"--fide-id {fide_id} --merge` makes them one; otherwise check the FIDE ID"
    )


def merge(store: Store, keep_id: int, other_id: int) -> MergeDone:
    """Make `other` the same person as `keep` (`merge_rows`, in a transaction of its own,
    recorded: `unmerge` undoes it)."""
    gone = get_player(store, other_id)
    with writing(store) as conn:
        number = merge_rows(conn, keep_id, other_id, how=MergeHow.COMMAND)
    return MergeDone(number, get_player(store, keep_id), gone)


@dataclass(frozen=True)
class UnmergeDone:
    """A merge undone: its number, the player it had kept and the one back (as they are
    now), and what went back to that one."""

    number: int
    kept: PlayerRef
    restored: PlayerRef
    games: int
    spellings: int
    entries: int
    overrides: int


MERGES_SHOWN = 5
"""The latest merges named when `unmerge` is given nothing to undo."""


def unmerge(
    store: Store,
    number: int | None = None,
    player: PlayerRef | None = None,
    spelled: str = "",
) -> UnmergeDone:
    """Undo a recorded merge (tracker.store.unmerge.unmerge_rows): merge `number`, or the
    latest merge into `player` (the one that brought the spelling `spelled`, the user's
    words for them, when one did). Refused when none is recorded."""
    if number is None:
        if player is None:
            raise BadInput(_nothing_named(store))
        ref = player
        with store.engine.connect() as conn:
            found = merge_into(conn, ref.id, normalize_name(spelled))
        if found is None:
            raise NotFound(
                f"no merge into {ref.name} is recorded (merges made before tracker recorded "
                "them cannot be undone)"
            )
        number = found
    with writing(store) as conn:
        done = unmerge_rows(conn, number)
    return UnmergeDone(
        done.merge,
        get_player(store, done.kept_id),
        get_player(store, done.restored_id),
        done.games,
        done.spellings,
        done.entries,
        done.overrides,
    )


def _nothing_named(store: Store) -> str:
    with store.engine.connect() as conn:
        found = latest_merges(conn, MERGES_SHOWN)
    if not found:
        return "nothing to undo: no merge is recorded"
    shown = "; ".join(f"merge {m.id}: {m.gone} into {m.kept}" for m in found)
    return f"name the player or give --merge N; the latest merges: {shown}"


def list_players(store: Store, search: str | None = None) -> list[PlayerSummary]:
    """Players (optionally those whose name or alias contains the normalized `search`), with
    their games per list and date range, by name."""
    with store.engine.connect() as conn:
        query = select(players.c.id, players.c.name, players.c.fide_id, players.c.is_me)
        if search is not None and search.strip():
            text = search.strip()
            key = normalize_name(text)
            ids = select(player_names.c.player_id).where(
                player_names.c.norm_name.contains(key, autoescape=True)
            )
            cond = players.c.id.in_(ids) | players.c.norm_name.contains(key, autoescape=True)
            if text.isdigit() and len(text) <= MAX_FIDE_ID_DIGITS:
                cond = cond | (players.c.fide_id == int(text))
            query = query.where(cond)
        found = conn.execute(query.order_by(players.c.norm_name, players.c.id)).all()
        result: dict[int, dict[str, Any]] = {
            int(r.id): {
                "name": r.name,
                "fide_id": r.fide_id,
                "is_me": bool(r.is_me),
                "games": {},
                "first": None,
                "last": None,
                "aliases": [],
            }
            for r in found
        }
        if search is None or not search.strip():
            # Every player: one pass over the games (a grouped UNION ALL of both sides) is
            # about twice as fast as 500 ids at a time through the two player indexes.
            sides = union_all(
                select(games.c.white_id.label("pid"), games.c.list, games.c.date),
                select(games.c.black_id.label("pid"), games.c.list, games.c.date),
            ).subquery()
            _add_counts(
                result,
                conn.execute(
                    select(
                        sides.c.pid,
                        sides.c.list,
                        func.count(),
                        func.min(sides.c.date),
                        func.max(sides.c.date),
                    ).group_by(sides.c.pid, sides.c.list)
                ).all(),
            )
            _add_aliases(
                result,
                conn.execute(
                    select(player_names.c.player_id, player_names.c.norm_name).order_by(
                        player_names.c.norm_name
                    )
                ).all(),
            )
        else:
            for chunk in chunks(list(result)):
                for side in (games.c.white_id, games.c.black_id):
                    _add_counts(
                        result,
                        conn.execute(
                            select(
                                side,
                                games.c.list,
                                func.count(),
                                func.min(games.c.date),
                                func.max(games.c.date),
                            )
                            .where(side.in_(chunk))
                            .group_by(side, games.c.list)
                        ).all(),
                    )
                _add_aliases(
                    result,
                    conn.execute(
                        select(player_names.c.player_id, player_names.c.norm_name)
                        .where(player_names.c.player_id.in_(chunk))
                        .order_by(player_names.c.norm_name)
                    ).all(),
                )
    return [
        PlayerSummary(
            id=pid,
            name=str(e["name"]),
            fide_id=e["fide_id"],
            is_me=e["is_me"],
            games=dict(e["games"]),
            first=e["first"],
            last=e["last"],
            aliases=tuple(e["aliases"]),
        )
        for pid, e in result.items()
    ]


def _add_counts(result: dict[int, dict[str, Any]], rows: Sequence[Any]) -> None:
    """Fold (player id, list, games, first date, last date) rows into `result`."""
    for pid, lst, n, first, last in rows:
        entry = result.get(int(pid))
        if entry is None:
            continue
        entry["games"][lst] = entry["games"].get(lst, 0) + int(n)
        if first is not None and (entry["first"] is None or first < entry["first"]):
            entry["first"] = first
        if last is not None and (entry["last"] is None or last > entry["last"]):
            entry["last"] = last


def _add_aliases(result: dict[int, dict[str, Any]], rows: Sequence[Any]) -> None:
    for pid, norm in rows:
        entry = result.get(int(pid))
        if entry is not None:
            entry["aliases"].append(str(norm))


def spellings_beside(store: Store, player_id: int) -> tuple[PlayerSummary, list[PlayerSummary]]:
    """The player (as `list_players` shows them) and the other players whose name may be
    theirs, most games first: the same surname, given names that agree word by word, an
    initial standing for a word (tracker.store.lists.name_fit: "Carlsen,M" beside
    "Carlsen, Magnus"), and no other FIDE ID. The spellings `tracker player merge` can
    make one person; the tracker never merges them by itself."""
    ref = get_player(store, player_id)
    forms = name_forms(ref.name)
    found: dict[int, PlayerSummary] = {}
    for surname in sorted({" ".join(sur) for sur, _ in forms}):  # (none: a name of no words)
        for summary in list_players(store, surname):
            found.setdefault(summary.id, summary)
    me = found.get(player_id) or PlayerSummary(ref.id, ref.name, ref.fide_id, ref.is_me)
    others = [
        p
        for p in found.values()
        if p.id != player_id
        and not (p.fide_id is not None and ref.fide_id is not None and p.fide_id != ref.fide_id)
        and name_fit(forms, name_forms(p.name)) is not None
    ]
    others.sort(key=lambda p: (-sum(p.games.values()), normalize_name(p.name), p.id))
    return me, others


SPELLINGS_OF_ONE_AT_MOST = 10
"""The most players `spellings_of_one` weighs (more: not the spellings of one person)."""


def spellings_of_one(store: Store, ids: Sequence[int]) -> list[PlayerSummary] | None:
    """The players `ids` (as `list_players` shows them, most games first) when their names
    may all be one person's: every two of them the same surname with given names that fit
    (name_fit: "Ivanchuk,V" and "Ivanchuk, Vassily"; not "Ivanchuk" alone, not "Ivanchuk,
    Valery" beside "Ivanchuk, Vassily"), no two FIDE IDs, and no game between any two. None
    otherwise, or for fewer than two players or more than SPELLINGS_OF_ONE_AT_MOST. The
    tracker never merges them by itself: `tracker player merge` does, when the user says
    they are one person."""
    if not 2 <= len(ids) <= SPELLINGS_OF_ONE_AT_MOST:
        return None
    refs = [get_player(store, pid) for pid in ids]
    if len({r.fide_id for r in refs if r.fide_id is not None}) > 1:
        return None
    forms = [name_forms(r.name) for r in refs]
    if any(name_fit(a, b) is None for a, b in combinations(forms, 2)):
        return None
    with store.engine.connect() as conn:
        if any(games_between(conn, a.id, b.id) for a, b in combinations(refs, 2)):
            return None
    found: dict[int, PlayerSummary] = {}
    for surname in sorted({" ".join(sur) for sur, _ in forms[0]}):
        for summary in list_players(store, surname):
            found.setdefault(summary.id, summary)
    them = [found.get(r.id) or PlayerSummary(r.id, r.name, r.fide_id, r.is_me) for r in refs]
    them.sort(key=lambda p: (-sum(p.games.values()), normalize_name(p.name), p.id))
    return them
