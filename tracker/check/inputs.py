"""The store side: a player's facts read from the store as the replay's inputs (`inputs_for`),
`check_player`, and the check of many players with their facts read in one pass
(`check_ids`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from tracker.check.reconcile import reconcile
from tracker.check.report import CheckReport
from tracker.model import OfficialEntry, Period, PlayerRef, RatingList
from tracker.periods import GameFact, PlayerInfo, Replay, ReplayInputs, TournamentFact, replay
from tracker.store import Store
from tracker.store.history import facts_of_players, games_of, official_of_players, tournaments_of
from tracker.store.official import entries_for
from tracker.store.players import get_player


def inputs_for(store: Store, player: PlayerRef | int, rating_lists: Sequence[RatingList],
               official: Sequence[OfficialEntry] | None = None
               ) -> dict[RatingList, ReplayInputs]:
    """The replay's facts for one player, one `ReplayInputs` per list, read once.

    Rapid and blitz take the published standard ratings (Oct 2022 raise, unrated seeds) from
    the standard replay, as `tracker history` does. `official`: the player's entries when the
    caller has read them already.
    """
    p = get_player(store, player) if isinstance(player, int) else player
    games = games_of(store, p.id)
    tournaments = tournaments_of(store, p.id)
    if official is None:
        official = entries_for(store, p.id)
    return _inputs(p, games, tournaments, official, rating_lists)[0]


def _inputs(p: PlayerRef, games: Sequence[GameFact], tournaments: Sequence[TournamentFact],
            official: Sequence[OfficialEntry], rating_lists: Sequence[RatingList]
            ) -> tuple[dict[RatingList, ReplayInputs], Replay | None]:
    """`inputs_for` over facts read already, and the standard replay when it was made (it
    is the replay of the standard inputs: the check need not make it again)."""
    info = PlayerInfo(p.birth_year, p.rated_games, p.ever_2400)
    out: dict[RatingList, ReplayInputs] = {}
    standard: dict[Period, int] = {}
    std: Replay | None = None
    if any(rl != RatingList.STANDARD for rl in rating_lists):
        std = replay(ReplayInputs(RatingList.STANDARD, games, tournaments, official, info))
        standard = {r.period: r.published for r in std.rows if r.published is not None}
    for rl in rating_lists:
        out[rl] = ReplayInputs(rl, games, tournaments, official, info,
                               standard_ratings=standard if rl != RatingList.STANDARD else {})
    return out, std


def _lists_in(entries: Iterable[OfficialEntry]) -> list[RatingList]:
    found = {e.list for e in entries if e.rating is not None}
    return [rl for rl in RatingList if rl in found]


def check_player(store: Store, player: PlayerRef | int, rating_lists: Sequence[RatingList] = (),
                 *, analyse: bool = True) -> list[CheckReport]:
    """Check one player on the given lists (default: every list with official ratings); a
    list without an official entry gives no report."""
    official = entries_for(store, player if isinstance(player, int) else player.id)
    lists = list(rating_lists) or _lists_in(official)
    if not lists or not _lists_in(official):
        return []
    p = get_player(store, player) if isinstance(player, int) else player
    inputs = _inputs(p, games_of(store, p.id), tournaments_of(store, p.id), official, lists)
    return _reconcile_lists(p, inputs, lists, analyse)


def _reconcile_lists(p: PlayerRef,
                     inputs: tuple[dict[RatingList, ReplayInputs], Replay | None],
                     lists: Sequence[RatingList], analyse: bool) -> list[CheckReport]:
    by_list, std = inputs
    reports = [reconcile(by_list[rl], player=p.name, who=p.command_name, analyse=analyse,
                         replayed=std if rl == RatingList.STANDARD else None) for rl in lists]
    return [r for r in reports if r.rows]


def check_ids(store: Store, ids: Sequence[int], rating_lists: Sequence[RatingList],
               analyse: bool) -> Iterator[list[CheckReport]]:
    """`check_player` of each of `ids`, in order, with the facts of all of them read in one
    pass (a handful of queries instead of five per player)."""
    official = {pid: entries for pid, entries in official_of_players(store, ids).items()
                if _lists_in(entries)}
    facts = facts_of_players(store, official)
    for pid in ids:
        f = facts.get(pid)
        if f is None:
            yield []
            continue
        lists = list(rating_lists) or _lists_in(f.official)
        inputs = _inputs(f.player, f.games, f.tournaments, f.official, lists)
        yield _reconcile_lists(f.player, inputs, lists, analyse)
