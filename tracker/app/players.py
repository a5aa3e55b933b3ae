"""Players as users name them: find one by name or FIDE ID (`resolve_player`, what every
command's PLAYER goes through), list them (`tracker players`), merge two spellings and undo a
merge (`tracker player merge|unmerge`), record their facts and mark the tracked player
(`tracker player set`, `tracker import --player`), with the other spellings beside the
tracked player that may be the same person (`Beside`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tracker.identity.names import best_matches, normalize_name
from tracker.model import MergeDone, PlayerRef, PlayerSummary
from tracker.store import Store
from tracker.store import players as stored
from tracker.store.players import UnmergeDone
from tracker.unresolved import (
    MayBeOne,
    NoMatch,
    NoneTracked,
    NotAName,
    PlayerNotFound,
    PlayerUnclear,
    SeveralMatch,
    TooLong,
    Unresolved,
)

__all__ = [
    "Beside",
    "MAX_NAME_LENGTH",
    "PlayerSet",
    "find_player",
    "list_players",
    "merge_players",
    "resolve_player",
    "set_player",
    "track",
    "unmerge_players",
]


MAX_NAME_LENGTH = 200
"""A player argument longer than this is no name (PGN tags are capped too)."""


def find_player(store: Store, text: str | None) -> PlayerRef | Unresolved:
    """The player the user means by `text`: a FIDE ID, or a name matched through its
    normalized spellings (tracker.identity.names.best_matches: the same name, the same
    words in another order, the start of the name, the starts of its words, a part of it;
    the best rank found decides), or None for the tracked player; else why no one player
    (nobody tracked, too long, no name, nobody matches, several match as well: MayBeOne
    when their names may all be one person's, SeveralMatch else; never one of them picked
    or merged on names alone). Every command's PLAYER comes here, so each says the same. A
    name that matches nothing is matched by `tracker players --search` neither (that search
    finds the parts of names)."""
    if text is None or not text.strip():
        found = stored.me(store)
        return NoneTracked() if found is None else found
    text = text.strip()
    if len(text) > MAX_NAME_LENGTH:
        return TooLong(len(text), MAX_NAME_LENGTH)
    if text.isdigit() and len(text) <= stored.MAX_FIDE_ID_DIGITS:
        holder = stored.player_with_fide_id(store, int(text))
        if holder is not None:
            return holder
    key = normalize_name(text)
    if not key:
        return NotAName(text)
    exact = stored.player_spelled(store, key)  # the usual case, through the index
    if exact is not None:
        return exact
    ids, word, spellings = _best(store, key)
    if len(ids) == 1:
        return stored.get_player(store, ids[0])
    if ids:
        return _may_be_one(store, text, ids) or SeveralMatch(
            text, tuple(stored.names_of(store, ids))
        )
    near = sorted({pid for pid, _ in spellings})
    return NoMatch(
        text,
        word,
        tuple(stored.names_of(store, near)),
        0 if near else stored.player_count(store),
    )


def _best(store: Store, key: str) -> tuple[list[int], str, list[tuple[int, str]]]:
    """The players a normalized name `key` matches best (tracker.identity.names.best_matches),
    its longest word, and the spellings with that word (every rank but SAME needs it)."""
    word = max(key.split(), key=len)
    spellings = stored.spellings_with(store, word)
    return best_matches(key, spellings), word, spellings


def _may_be_one(store: Store, text: str, ids: list[int]) -> MayBeOne | None:
    """The players `ids` that `text` matches as well, when their names may all be one
    person's (tracker.store.players.spellings_of_one: the same surname, given names that fit,
    no two FIDE IDs, no game between them), most games first; None when they cannot be.
    Nothing is merged and none is picked: that is the user's word (`merge_players`)."""
    them = stored.spellings_of_one(store, ids)
    if them is None:
        return None
    return MayBeOne(text, tuple((p.name, p.fide_id, sum(p.games.values())) for p in them))


def resolve_player(store: Store, text: str | None) -> PlayerRef:
    """`find_player`'s player, else an error that carries why (PlayerNotFound when nothing
    matches or no player is tracked, PlayerUnclear when several players match as well, may
    they be one person or not, or the text is no name; tracker.reports.words says them)."""
    found = find_player(store, text)
    if isinstance(found, PlayerRef):
        return found
    if isinstance(found, NoneTracked | NoMatch):
        raise PlayerNotFound(found)
    raise PlayerUnclear(found)


def list_players(store: Store, search: str | None = None) -> list[PlayerSummary]:
    """The players, by name, with their games per list, dates and aliases; with `search`,
    only those whose name (or an alias) holds it, or with that FIDE ID."""
    return stored.list_players(store, search)


def merge_players(store: Store, keep: str, other: str) -> MergeDone:
    """`tracker player merge KEEP OTHER`: the two players the user names are one person;
    OTHER's games and spellings go to KEEP (recorded: `unmerge_players` undoes it)."""
    kept = resolve_player(store, keep)
    gone = resolve_player(store, other)
    return stored.merge(store, kept.id, gone.id)


def unmerge_players(store: Store, number: int | None, player: str | None) -> UnmergeDone:
    """Undo the merge `number`, or the latest into the player `player` names."""
    if number is None and player is not None and player.strip():
        return stored.unmerge(store, None, resolve_player(store, player), player)
    return stored.unmerge(store, number)


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
    ref = resolve_player(store, player)
    done: MergeDone | None = None
    if facts:
        recorded = stored.record_facts(store, ref.id, **facts, merge=merge)
        ref, done = recorded.player, recorded.merge
    beside = track(store, ref) if me else None
    return PlayerSet(ref, done, beside)
