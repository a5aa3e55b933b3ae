"""What was imported and what it left: the imports listed and taken back out, and what an
import's summary reports after it (`tracker import`, `tracker imports`). The import itself
is tracker.importer's."""

from __future__ import annotations

from tracker.store.imports import (
    assumed_since,
    last_game_id,
    list_imports,
    players_after,
    remove_import,
    undated_tournaments,
)

__all__ = [
    "assumed_since",
    "last_game_id",
    "list_imports",
    "players_after",
    "remove_import",
    "undated_tournaments",
]
