"""Players: finding the one the user means, the tracked player (`--me`), the facts that
decide K (`set_facts`), `merge` (two spellings, one person: when the user says so, or when
one FIDE ID comes to both), and the list behind `tracker players`.
"""

from __future__ import annotations

import datetime as dt
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Connection,
    Row,
    delete,
    func,
    insert,
    select,
    tuple_,
    union,
    union_all,
    update,
)

from tracker.errors import BadInput, NotFound
from tracker.identity.names import PART, match_rank, normalize_name
from tracker.model import PlayerRef
from tracker.store.db import Store, chunks, writing
from tracker.store.lists import name_fit, name_forms, surnames_agree
from tracker.store.schema import (
    games,
    official_checked,
    official_ratings,
    player_names,
    players,
    ro_overrides,
)

MAX_CANDIDATES_SHOWN = 10
MAX_FIDE_ID_DIGITS = 12  # FIDE IDs have at most 9 digits; longer digit strings are names
MAX_FIDE_ID = 10**MAX_FIDE_ID_DIGITS - 1
MAX_NAME_LENGTH = 200  # a player argument longer than this is no name (PGN tags are capped too)


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


def resolve_player(store: Store, text: str | None) -> PlayerRef:
    """The player the user means by `text`: a FIDE ID, or a name matched through its
    normalized spellings (tracker.identity.names.match_rank: the same name, the same
    words in another order, the start of the name, the starts of its words, a part of it;
    the best rank found decides), or None for the tracked player.

    Raises NotFound (nothing matches, or no tracked player) or BadInput (several players
    match as well, with the first of them listed). A name that matches nothing is matched
    by `tracker players --search` neither (that search finds the parts of names).
    """
    if text is None or not text.strip():
        found = me(store)
        if found is None:
            raise NotFound(
                "no player given and none is tracked: name one (a FIDE ID or a name), or mark "
                "yours with `tracker player set NAME --me`"
            )
        return found
    text = text.strip()
    if len(text) > MAX_NAME_LENGTH:
        raise BadInput(
            f"a player argument of {len(text):,} characters is no name or FIDE ID: "
            f"give at most {MAX_NAME_LENGTH} (a FIDE ID, or a part of the name)"
        )
    with store.engine.connect() as conn:
        if text.isdigit() and len(text) <= MAX_FIDE_ID_DIGITS:
            row = conn.execute(select(players).where(players.c.fide_id == int(text))).first()
            if row is not None:
                return player_ref(row)
        key = normalize_name(text)
        if not key:
            raise BadInput(f"{text!r} is not a player name or FIDE ID")
        exact = conn.execute(  # the usual case, through the index
            select(players)
            .join(player_names, player_names.c.player_id == players.c.id)
            .where(player_names.c.norm_name == key)
        ).first()
        if exact is not None:
            return player_ref(exact)
        word = max(key.split(), key=len)  # every rank but SAME needs it in the name
        spellings = union(
            select(player_names.c.player_id.label("id"), player_names.c.norm_name.label("n")).where(
                player_names.c.norm_name.contains(word, autoescape=True)
            ),
            select(players.c.id, players.c.norm_name).where(
                players.c.norm_name.contains(word, autoescape=True)
            ),
        ).subquery()
        best: dict[int, int] = {}
        near: set[int] = set()  # the players with `word` in a spelling
        for pid, norm in conn.execute(select(spellings.c.id, spellings.c.n)):
            near.add(int(pid))
            rank = match_rank(key, str(norm))
            if rank is not None and rank < best.get(int(pid), PART + 1):
                best[int(pid)] = rank
        if not best:
            raise NotFound(_no_match(conn, text, word, sorted(near)))
        top = min(best.values())
        ids = sorted(pid for pid, rank in best.items() if rank == top)
        if len(ids) == 1:
            return player_ref(conn.execute(select(players).where(players.c.id == ids[0])).one())
        names = _names(conn, ids)
    raise BadInput(
        f"{len(names):,} players match {text!r}: {_listed(names)}; give more of "
        "the name or the FIDE ID"
    )


def _names(conn: Connection, ids: list[int]) -> list[tuple[str, int | None]]:
    """(name, FIDE ID) of these players, by name (a few hundred ids at a time: SQLite's
    limit of bound values)."""
    found: list[tuple[str, int | None]] = []
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        found.extend(
            (str(r.name), r.fide_id)
            for r in conn.execute(
                select(players.c.name, players.c.fide_id).where(players.c.id.in_(chunk))
            )
        )
    return sorted(found, key=lambda nf: (normalize_name(nf[0]), nf[0]))


def _no_match(conn: Connection, text: str, word: str, near: list[int]) -> str:
    """Nothing matched `text`: the players whose name has its longest `word` (`near`), or
    where to look instead (not a search for `text`: it would find nothing either, since a
    part of a name matches)."""
    if near:
        names = _names(conn, near)
        return f"no player matches {text!r}; with {word!r} in the name: {_listed(names)}"
    total = conn.execute(select(func.count()).select_from(players)).scalar_one()
    if not total:
        return (
            f"no player matches {text!r}: the database has no player yet (import games "
            "first: tracker import FILE)"
        )
    stored = "the one player" if total == 1 else f"all {total:,} players"
    return (
        f"no player matches {text!r}: `tracker players` lists {stored}, "
        "`tracker players --search PART` those whose name contains PART"
    )


def _listed(names: list[tuple[str, int | None]]) -> str:
    """The first players of `names` as `Name (FIDE ID n)`, '; '-separated."""
    shown = [f"{name} (FIDE ID {fide_id or '-'})" for name, fide_id in names[:MAX_CANDIDATES_SHOWN]]
    more = (
        f"; and {len(names) - MAX_CANDIDATES_SHOWN:,} more"
        if (len(names) > MAX_CANDIDATES_SHOWN)
        else ""
    )
    return "; ".join(shown) + more


_UNSET: Any = object()


def set_facts(
    store: Store,
    player_id: int,
    *,
    birth_year: int | None = _UNSET,
    rated_games: int | None = _UNSET,
    ever_2400: bool | None = _UNSET,
    fide_id: int | None = _UNSET,
) -> PlayerRef:
    """Record facts about a player (those given; None clears one). Returns the player.

    One FIDE ID, one person: a FIDE ID another player already has makes the two one player
    (`merge_rows`, keeping the one that had it: that one is returned), unless they played
    each other or their surnames differ (refused with a sentence saying so).
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
    with writing(store) as conn:
        this = conn.execute(
            select(players.c.id, players.c.name).where(players.c.id == player_id)
        ).first()
        if this is None:
            raise NotFound(f"no player with id {player_id}")
        if values.get("fide_id") is not None:
            other = conn.execute(
                select(players.c.id, players.c.name).where(
                    players.c.fide_id == values["fide_id"], players.c.id != player_id
                )
            ).first()
            if other is not None:
                why = not_one_person(
                    conn,
                    int(other.id),
                    str(other.name),
                    player_id,
                    str(this.name),
                    int(values["fide_id"]),
                )
                if why is not None:
                    raise BadInput(
                        f"FIDE ID {values['fide_id']} already belongs to "
                        f"{other.name}, {why}; check the FIDE ID"
                    )
                merge_rows(conn, int(other.id), player_id)
                player_id = int(other.id)
                del values["fide_id"]
        if values:
            conn.execute(update(players).where(players.c.id == player_id).values(**values))
    return get_player(store, player_id)


def games_between(conn: Connection, a: int, b: int) -> int:
    """The games two players played each other."""
    return int(
        conn.execute(
            select(func.count())
            .select_from(games)
            .where(
                ((games.c.white_id == a) & (games.c.black_id == b))
                | ((games.c.white_id == b) & (games.c.black_id == a))
            )
        ).scalar_one()
    )


def not_one_person(
    conn: Connection, holder: int, holder_name: str, other: int, other_name: str, fide_id: int
) -> str | None:
    """Why two players given one FIDE ID are not merged, as a clause on `holder` ("who
    played X (3 games): ...", "whose surname is not X's: ..."), or None when they are one
    person."""
    met = games_between(conn, holder, other)
    if met:
        return (
            f"who played {other_name} ({met} {'game' if met == 1 else 'games'}): they "
            "cannot be one person"
        )
    if not surnames_agree(holder_name, other_name):
        return (
            f"whose surname is not {other_name}'s: if they are one person, say so with "
            f"`tracker player merge {fide_id} {shlex.quote(other_name)}`"
        )
    return None


def merge(store: Store, keep_id: int, other_id: int) -> PlayerRef:
    """Make `other` the same person as `keep` (`merge_rows`, in a transaction of its own)."""
    with writing(store) as conn:
        merge_rows(conn, keep_id, other_id)
    return get_player(store, keep_id)


def merge_rows(conn: Connection, keep_id: int, other_id: int, *, name: str | None = None) -> None:
    """Make `other` the same person as `keep` in the caller's transaction: its games,
    spellings (aliases in player_names), official entries, the lists it was looked up on
    and overrides move to `keep`, its facts fill those `keep` lacks, and it is removed;
    `name` (a list's spelling) becomes `keep`'s name. Refused (BadInput, before anything is
    written) when they have different FIDE IDs, played each other or have different
    official ratings for one list and period.
    """
    if keep_id == other_id:
        raise BadInput("that is the same player twice: name two different players")
    rows = {
        int(r.id): r
        for r in conn.execute(select(players).where(players.c.id.in_((keep_id, other_id))))
    }
    for pid in (keep_id, other_id):
        if pid not in rows:
            raise NotFound(f"no player with id {pid}")
    keep, other = rows[keep_id], rows[other_id]
    if keep.fide_id is not None and other.fide_id is not None and keep.fide_id != other.fide_id:
        raise BadInput(
            f"{keep.name} (FIDE ID {keep.fide_id}) and {other.name} (FIDE ID "
            f"{other.fide_id}) have different FIDE IDs: they are not the same person"
        )
    met = games_between(conn, keep_id, other_id)
    if met:
        raise BadInput(
            f"{keep.name} and {other.name} played each other ({met} games): they cannot "
            "be one person"
        )
    # Official entries: the same list and period twice must agree.
    mine = {
        (r.list, r.period): r.rating
        for r in conn.execute(
            select(
                official_ratings.c.list, official_ratings.c.period, official_ratings.c.rating
            ).where(official_ratings.c.player_id == keep_id)
        )
    }
    twice: list[int] = []
    for r in conn.execute(
        select(
            official_ratings.c.id,
            official_ratings.c.list,
            official_ratings.c.period,
            official_ratings.c.rating,
        ).where(official_ratings.c.player_id == other_id)
    ).all():
        key = (r.list, r.period)
        if key in mine:
            if mine[key] != r.rating:
                raise BadInput(
                    f"{keep.name} and {other.name} have different official {r.list} "
                    f"ratings for {r.period} ({mine[key]} and {r.rating}): they are not "
                    "the same person, or remove one entry first"
                )
            twice.append(int(r.id))
    if twice:
        conn.execute(delete(official_ratings).where(official_ratings.c.id.in_(twice)))
    conn.execute(
        update(official_ratings)
        .where(official_ratings.c.player_id == other_id)
        .values(player_id=keep_id)
    )
    looked_up = select(official_checked.c.list, official_checked.c.period).where(
        official_checked.c.player_id == keep_id
    )
    conn.execute(
        delete(official_checked).where(
            official_checked.c.player_id == other_id,
            tuple_(official_checked.c.list, official_checked.c.period).in_(looked_up),
        )
    )
    conn.execute(
        update(official_checked)
        .where(official_checked.c.player_id == other_id)
        .values(player_id=keep_id)
    )
    overridden = (
        select(ro_overrides.c.tournament_id)
        .where(ro_overrides.c.player_id == keep_id)
        .scalar_subquery()
    )
    conn.execute(
        delete(ro_overrides).where(
            ro_overrides.c.player_id == other_id, ro_overrides.c.tournament_id.in_(overridden)
        )
    )
    conn.execute(
        update(ro_overrides).where(ro_overrides.c.player_id == other_id).values(player_id=keep_id)
    )
    conn.execute(update(games).where(games.c.white_id == other_id).values(white_id=keep_id))
    conn.execute(update(games).where(games.c.black_id == other_id).values(black_id=keep_id))
    conn.execute(
        update(player_names).where(player_names.c.player_id == other_id).values(player_id=keep_id)
    )
    facts: dict[str, Any] = {}
    for col in ("fide_id", "title", "federation", "birth_year", "rated_games", "ever_2400"):
        if getattr(keep, col) is None and getattr(other, col) is not None:
            facts[col] = getattr(other, col)
    if other.is_me and not keep.is_me:
        facts["is_me"] = True
    spellings = [other.norm_name]
    if name is not None and name != keep.name:
        facts["name"] = name
        facts["norm_name"] = normalize_name(name)
        spellings.append(facts["norm_name"])
    for norm in spellings:
        add_spelling(conn, keep_id, norm)
    conn.execute(delete(players).where(players.c.id == other_id))
    if facts:
        conn.execute(update(players).where(players.c.id == keep_id).values(**facts))


def add_spelling(conn: Connection, player_id: int, norm: str) -> bool:
    """Record `norm` as a spelling of the player, unless it is empty or another player's
    already; True when it was recorded."""
    if not norm:
        return False
    exists = conn.execute(
        select(player_names.c.player_id).where(player_names.c.norm_name == norm)
    ).first()
    if exists is not None:
        return False
    conn.execute(insert(player_names).values(norm_name=norm, player_id=player_id))
    return True


@dataclass(frozen=True)
class PlayerSummary:
    """A row of `tracker players`: FIDE ID, games per list, first and last game date."""

    id: int
    name: str
    fide_id: int | None
    is_me: bool
    games: dict[str, int] = field(default_factory=dict)  # list -> number of games
    first: dt.date | None = None
    last: dt.date | None = None
    aliases: tuple[str, ...] = ()


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
