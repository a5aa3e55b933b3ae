"""The store side: `check_player`, and the check of many players with their facts read in one
pass (`check_ids`); the replay's inputs come from tracker.app.histories (as for
`tracker history`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from tracker.app.histories import list_inputs, opponent_lists
from tracker.check.reconcile import reconcile
from tracker.check.report import CheckReport
from tracker.model import OfficialEntry, PlayerRef, RatingList
from tracker.periods import Replay, ReplayInputs
from tracker.store import Store
from tracker.store.official import entries_for
from tracker.store.players import get_player
from tracker.store.reading import facts_of_players, games_of, official_of_players, tournaments_of


def _lists_in(entries: Iterable[OfficialEntry]) -> list[RatingList]:
    found = {e.list for e in entries if e.rating is not None}
    return [rl for rl in RatingList if rl in found]


def check_player(
    store: Store,
    player: PlayerRef | int,
    rating_lists: Sequence[RatingList] = (),
    *,
    analyse: bool = True,
) -> list[CheckReport]:
    """Check one player on the given lists (default: every list with official ratings); a
    list without an official entry gives no report."""
    official = entries_for(store, player if isinstance(player, int) else player.id)
    lists = list(rating_lists) or _lists_in(official)
    if not lists or not _lists_in(official):
        return []
    p = get_player(store, player) if isinstance(player, int) else player
    games = games_of(store, p.id)
    inputs = list_inputs(
        p, games, tournaments_of(store, p.id), official, lists, opponent_lists(store, games, lists)
    )
    return _reconcile_lists(p, inputs, lists, analyse)


def _reconcile_lists(
    p: PlayerRef,
    inputs: tuple[dict[RatingList, ReplayInputs], Replay | None],
    lists: Sequence[RatingList],
    analyse: bool,
) -> list[CheckReport]:
    by_list, std = inputs
    reports = [
        reconcile(
            by_list[rl],
            player=p.name,
            who=p.command_name,
            analyse=analyse,
            replayed=std if rl == RatingList.STANDARD else None,
        )
        for rl in lists
    ]
    return [r for r in reports if r.rows]


def check_ids(
    store: Store, ids: Sequence[int], rating_lists: Sequence[RatingList], analyse: bool
) -> Iterator[list[CheckReport]]:
    """`check_player` of each of `ids`, in order, with the facts of all of them read in one
    pass (a handful of queries instead of five per player)."""
    official = {
        pid: entries
        for pid, entries in official_of_players(store, ids).items()
        if _lists_in(entries)
    }
    facts = facts_of_players(store, official)
    seen = {rl for f in facts.values() for rl in (rating_lists or _lists_in(f.official))}
    rated_by = opponent_lists(store, (g for f in facts.values() for g in f.games), seen)
    for pid in ids:
        f = facts.get(pid)
        if f is None:
            yield []
            continue
        lists = list(rating_lists) or _lists_in(f.official)
        inputs = list_inputs(f.player, f.games, f.tournaments, f.official, lists, rated_by)
        yield _reconcile_lists(f.player, inputs, lists, analyse)
