"""Players as users name them: find one by name or FIDE ID, list them, record their facts,
mark the tracked player, merge two spellings (`tracker players`, `tracker player ...` and
every command's `PLAYER`), and the other spellings beside a player (`spellings_beside`: what
`--player` and `player set --me` point to when a bigger one may be the same person)."""

from __future__ import annotations

from tracker.store.players import (
    PlayerSummary,
    list_players,
    merge,
    resolve_player,
    set_facts,
    set_me,
    spellings_beside,
)

__all__ = [
    "PlayerSummary",
    "list_players",
    "merge",
    "resolve_player",
    "set_facts",
    "set_me",
    "spellings_beside",
]
