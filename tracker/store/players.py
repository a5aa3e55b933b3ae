"""Players: finding the one the user means, and the tracked player (`--me`)."""

from __future__ import annotations

from sqlalchemy import Row, func, select, update

from tracker.errors import BadInput, NotFound
from tracker.model import PlayerRef
from tracker.names import normalize_name
from tracker.store.db import Store
from tracker.store.schema import player_names, players

MAX_CANDIDATES_SHOWN = 10


def _ref(row: Row[tuple[object, ...]]) -> PlayerRef:
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
    return _ref(row)


def me(store: Store) -> PlayerRef | None:
    """The tracked player, if one is marked."""
    with store.engine.connect() as conn:
        row = conn.execute(select(players).where(players.c.is_me.is_(True))).first()
    return None if row is None else _ref(row)


def set_me(store: Store, player_id: int) -> None:
    with store.engine.begin() as conn:
        conn.execute(update(players).values(is_me=False).where(players.c.is_me.is_(True)))
        conn.execute(update(players).values(is_me=True).where(players.c.id == player_id))


def resolve_player(store: Store, text: str | None) -> PlayerRef:
    """The player the user means by `text`: a FIDE ID, a name (normalized match, or a unique
    prefix of a normalized name), or None for the tracked player.

    Raises NotFound (nothing matches, or no tracked player) or BadInput (ambiguous, with the
    candidates listed).
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
    with store.engine.connect() as conn:
        if text.isdigit():
            row = conn.execute(select(players).where(players.c.fide_id == int(text))).first()
            if row is not None:
                return _ref(row)
        key = normalize_name(text)
        if not key:
            raise BadInput(f"{text!r} is not a player name or FIDE ID")
        exact = conn.execute(
            select(players)
            .join(player_names, player_names.c.player_id == players.c.id)
            .where(player_names.c.norm_name == key)
        ).all()
        if len(exact) == 1:
            return _ref(exact[0])
        rows = exact or conn.execute(
            select(players)
            .join(player_names, player_names.c.player_id == players.c.id)
            .where(func.substr(player_names.c.norm_name, 1, len(key)) == key)
            .group_by(players.c.id)
            .limit(MAX_CANDIDATES_SHOWN + 1)
        ).all()
    unique = {int(r._mapping["id"]): r for r in rows}
    if len(unique) == 1:
        return _ref(next(iter(unique.values())))
    if not unique:
        raise NotFound(f"no player matches {text!r}: see `tracker players --search {text}`")
    shown = [
        f"{r._mapping['name']} (FIDE ID {r._mapping['fide_id'] or '-'})"
        for r in list(unique.values())[:MAX_CANDIDATES_SHOWN]
    ]
    more = ", ..." if len(unique) > MAX_CANDIDATES_SHOWN else ""
    raise BadInput(f"{text!r} matches several players: {'; '.join(shown)}{more}; "
                   "give a FIDE ID or more of the name")
