"""Players as users name them: find one by name or FIDE ID, list them, record their facts,
mark the tracked player, merge two spellings (`tracker players`, `tracker player ...` and
every command's `PLAYER`)."""

from __future__ import annotations

from tracker.store.players import list_players, merge, resolve_player, set_facts, set_me

__all__ = ["list_players", "merge", "resolve_player", "set_facts", "set_me"]
