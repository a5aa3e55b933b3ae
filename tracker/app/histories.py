"""Replay a player's lists from their facts, standard first: the one place that does it for
the reports (`tracker history` and friends), `tracker check` and `tracker target`.

Rapid and blitz read the published standard ratings of the standard replay (the Oct 2022
raise to standard - 100, and the standard rating an unrated rapid/blitz player is rated at
from Mar 2024), so the standard list is replayed first whenever another list is asked for.
`list_inputs` turns facts already read into one `ReplayInputs` per list (and the standard
replay it made on the way); `inputs_for` and `load_history` read the facts from the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tracker.model import ListKind, ListStatus, OfficialEntry, Period, PlayerRef, RatingList
from tracker.periods import GameFact, PlayerInfo, Replay, ReplayInputs, TournamentFact, replay
from tracker.store import Store
from tracker.store.entries import entries_for
from tracker.store.lists import list_kinds, list_ratings
from tracker.store.players import get_player
from tracker.store.reading import games_of, tournaments_of


@dataclass(frozen=True)
class PlayerHistory:
    """A player's replays, one per list asked for."""

    player: PlayerRef
    replays: dict[RatingList, Replay]


OpponentLists = Mapping[RatingList, Mapping[int, Mapping[Period, ListStatus]]]
"""What the imported FIDE lists said of opponents: list -> player id -> period -> status."""


@dataclass(frozen=True)
class ListsSaid:
    """What the imported FIDE lists said: of each opponent (`opponents`), and which kind
    each list imported was (`kinds`: list -> period -> WHOLE or EXCERPT)."""

    opponents: OpponentLists
    kinds: Mapping[RatingList, Mapping[Period, ListKind]]


def opponent_lists(
    store: Store, games: Iterable[GameFact], rating_lists: Iterable[RatingList]
) -> ListsSaid:
    """What the imported lists of each of `rating_lists` said of the opponents of `games`
    (tracker.store.lists.list_ratings), and the kind of each list imported; a list with
    nothing imported is left out."""
    ids = {g.opponent_id for g in games}
    out: dict[RatingList, dict[int, dict[Period, ListStatus]]] = {}
    kinds: dict[RatingList, dict[Period, ListKind]] = {}
    for rl in set(rating_lists) | {RatingList.STANDARD}:
        found = list_ratings(store, ids, rl)
        if found:
            out[rl] = found
        kind = list_kinds(store, rl)
        if kind:
            kinds[rl] = kind
    return ListsSaid(out, kinds)


def list_inputs(
    p: PlayerRef,
    games: Sequence[GameFact],
    tournaments: Sequence[TournamentFact],
    official: Sequence[OfficialEntry],
    rating_lists: Sequence[RatingList],
    lists: ListsSaid | None = None,
) -> tuple[dict[RatingList, ReplayInputs], Replay | None]:
    """The replay's inputs of each of `rating_lists` from facts read already, and the
    standard replay when it was made (it is the replay of the standard inputs: a caller
    need not make it again). Rapid and blitz take the standard replay's published ratings.
    `lists`: what FIDE's imported lists said of the opponents (`opponent_lists`)."""
    info = PlayerInfo(p.birth_year, p.rated_games, p.ever_2400)
    lists = lists or ListsSaid({}, {})
    out: dict[RatingList, ReplayInputs] = {}
    standard: dict[Period, int] = {}
    std: Replay | None = None
    if any(rl != RatingList.STANDARD for rl in rating_lists):
        std = replay(
            ReplayInputs(
                RatingList.STANDARD,
                games,
                tournaments,
                official,
                info,
                opponent_lists=lists.opponents.get(RatingList.STANDARD, {}),
                list_kinds=lists.kinds.get(RatingList.STANDARD, {}),
            )
        )
        standard = {r.period: r.published for r in std.rows if r.published is not None}
    for rl in rating_lists:
        out[rl] = ReplayInputs(
            rl,
            games,
            tournaments,
            official,
            info,
            standard_ratings=standard if rl != RatingList.STANDARD else {},
            opponent_lists=lists.opponents.get(rl, {}),
            list_kinds=lists.kinds.get(rl, {}),
        )
    return out, std


def inputs_for(
    store: Store,
    player: PlayerRef | int,
    rating_lists: Sequence[RatingList],
    official: Sequence[OfficialEntry] | None = None,
) -> dict[RatingList, ReplayInputs]:
    """The replay's facts for one player, one `ReplayInputs` per list, read once.

    `official`: the player's entries when the caller has read them already.
    """
    p = get_player(store, player) if isinstance(player, int) else player
    games = games_of(store, p.id)
    tournaments = tournaments_of(store, p.id)
    if official is None:
        official = entries_for(store, p.id)
    lists = opponent_lists(store, games, rating_lists)
    return list_inputs(p, games, tournaments, official, rating_lists, lists)[0]


def load_history(
    store: Store, player: PlayerRef, lists: Sequence[RatingList] = tuple(RatingList)
) -> PlayerHistory:
    """Read the player's facts once and replay each list asked for (standard first)."""
    games = games_of(store, player.id)
    inputs, std = list_inputs(
        player,
        games,
        tournaments_of(store, player.id),
        entries_for(store, player.id),
        lists,
        opponent_lists(store, games, lists),
    )
    order = sorted(lists, key=lambda rl: rl != RatingList.STANDARD)  # standard first
    out = {
        rl: std if rl == RatingList.STANDARD and std is not None else replay(inputs[rl])
        for rl in order
    }
    return PlayerHistory(player, out)


def load_replay(store: Store, player: PlayerRef, rating_list: RatingList) -> Replay:
    """One list of `load_history`."""
    return load_history(store, player, (rating_list,)).replays[rating_list]
