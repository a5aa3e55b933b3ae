"""Players as users name them: find one by name or FIDE ID, list them, record their facts,
mark the tracked player, merge two spellings and undo a merge (`tracker players`, `tracker
player ...` and every command's `PLAYER`), and the other spellings beside a player
(`spellings_beside`: what `--player` and `player set --me` point to when a bigger one may be
the same person)."""

from __future__ import annotations

from tracker.identity.names import NamesApart
from tracker.store.merges import NotOnePerson
from tracker.store.players import (
    FactsSet,
    MergeDone,
    PlayerSummary,
    UnmergeDone,
    list_players,
    merge,
    record_facts,
    resolve_player,
    set_facts,
    set_me,
    spellings_beside,
    unmerge,
)

__all__ = [
    "FactsSet",
    "MergeDone",
    "NamesApart",
    "NotOnePerson",
    "PlayerSummary",
    "UnmergeDone",
    "list_players",
    "merge",
    "record_facts",
    "resolve_player",
    "set_facts",
    "set_me",
    "spellings_beside",
    "unmerge",
]
