"""Players as users name them: find one by name or FIDE ID (`resolve_player`, what every
command's PLAYER goes through), list them (`tracker players`), merge two spellings and undo a
merge (`tracker player merge|unmerge`), record their facts and mark the tracked player
(`tracker player set`, `tracker import --player`), with the other spellings beside the
tracked player that may be the same person (`Beside`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tracker.model import MergeDone, PlayerRef, PlayerSummary
from tracker.store import Store
from tracker.store import players as stored
from tracker.store.players import UnmergeDone

__all__ = [
    "Beside",
    "PlayerSet",
    "list_players",
    "merge_players",
    "resolve_player",
    "set_player",
    "track",
    "unmerge_players",
]


def resolve_player(store: Store, text: str | None) -> PlayerRef:
    """The player the user means by `text`: a FIDE ID, or a name (its spellings matched
    best first), or None for the tracked player. NotFound when nothing matches (or no
    player is tracked), BadInput when several players match as well."""
    return stored.resolve_player(store, text)


def list_players(store: Store, search: str | None = None) -> list[PlayerSummary]:
    """The players, by name, with their games per list, dates and aliases; with `search`,
    only those whose name (or an alias) holds it, or with that FIDE ID."""
    return stored.list_players(store, search)


def merge_players(store: Store, keep: str, other: str) -> MergeDone:
    """`tracker player merge KEEP OTHER`: the two players the user names are one person;
    OTHER's games and spellings go to KEEP (recorded: `unmerge_players` undoes it)."""
    kept = stored.resolve_player(store, keep)
    gone = stored.resolve_player(store, other)
    return stored.merge(store, kept.id, gone.id)


def unmerge_players(store: Store, number: int | None, player: str | None) -> UnmergeDone:
    """Undo the merge `number`, or the latest into the player `player` names."""
    return stored.unmerge(store, number, player)


@dataclass(frozen=True)
class Beside:
    """The tracked player as `tracker players` shows them, and the other players whose name
    may be theirs (the same surname, given names that fit, no other FIDE ID), most games
    first: spellings `tracker player merge` can make one person."""

    player: PlayerSummary
    others: list[PlayerSummary]

    @property
    def bigger(self) -> list[PlayerSummary]:
        """The other spellings with more games than the player's own."""
        mine = sum(self.player.games.values())
        return [p for p in self.others if sum(p.games.values()) > mine]


def track(store: Store, ref: PlayerRef) -> Beside:
    """Mark `ref` as the tracked player (the one later commands default to), and say which
    spellings beside them may be theirs."""
    stored.set_me(store, ref.id)
    me, others = stored.spellings_beside(store, ref.id)
    return Beside(me, others)


@dataclass(frozen=True)
class PlayerSet:
    """What `set_player` did: the player (the one kept, after a merge), the merge made (if
    any) and, when the player was marked as tracked, the spellings beside them."""

    player: PlayerRef
    merge: MergeDone | None
    beside: Beside | None


def set_player(
    store: Store, player: str, facts: dict[str, Any], *, me: bool = False, merge: bool = False
) -> PlayerSet:
    """`tracker player set`: record `facts` about the player `player` names (birth_year,
    rated_games, ever_2400, fide_id; a FIDE ID another player holds is refused unless
    `merge`: then they are one person, merged), and with `me` mark them as tracked."""
    ref = stored.resolve_player(store, player)
    done: MergeDone | None = None
    if facts:
        recorded = stored.record_facts(store, ref.id, **facts, merge=merge)
        ref, done = recorded.player, recorded.merge
    beside = track(store, ref) if me else None
    return PlayerSet(ref, done, beside)
