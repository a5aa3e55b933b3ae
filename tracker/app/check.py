"""`tracker check`: the replay of a player's lists against FIDE's official ones
(`check_player`), or of every player with an official rating (`check_all`, `--all`), their
facts read in one pass a piece of `CHUNK` players (`check_ids`), the pieces spread over
worker processes that each open the database themselves (`check_in_processes`). The
replay's inputs come from tracker.app.histories (as for `tracker history`); the comparison
and the analysis of a difference are tracker.check's, over plain values."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from tracker.app.histories import list_inputs, opponent_lists
from tracker.check import DIFFERS, CheckReport, CheckRow, GamesCount, GamesStep, reconcile
from tracker.model import OfficialEntry, PlayerRef, RatingList
from tracker.periods import Replay, ReplayInputs
from tracker.store import Store, open_store
from tracker.store.entries import entries_for
from tracker.store.players import get_player
from tracker.store.reading import (
    facts_of_players,
    games_of,
    official_of_players,
    players_by_name,
    players_with_ratings,
    tournaments_of,
)

__all__ = [
    "CHUNK",
    "DIFFERS",
    "CheckReport",
    "CheckRow",
    "GamesCount",
    "GamesStep",
    "check_all",
    "check_player",
]

CHUNK = 200  # players checked per read of their facts (and per task in several processes)


def check_all(
    store: Store,
    rating_lists: Sequence[RatingList] = (),
    *,
    analyse: bool = True,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
) -> list[CheckReport]:
    """Check every player with an official rating (`tracker check --all`), by name.

    `progress(done, total)` is called as players are looked at; `jobs` > 1 spreads the
    players over that many processes (worth it from a few hundred players), 0 over one per
    CPU."""
    if jobs == 0:
        jobs = os.cpu_count() or 1
    everyone = players_by_name(store)
    pieces = cut_in_pieces(everyone, players_with_ratings(store), CHUNK)
    if jobs > 1 and len(everyone) >= 2 * CHUNK:
        return check_in_processes(
            store.url, pieces, len(everyone), rating_lists, analyse, jobs, progress
        )
    reports: list[CheckReport] = []
    done = 0
    for size, ids in pieces:
        for found in check_ids(store, ids, rating_lists, analyse):
            reports += found
        done += size
        if progress is not None:
            progress(done, len(everyone))
    return reports


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


# --- check --all over worker processes ------------------------------------------------------


def cut_in_pieces(
    everyone: Sequence[int], rated: set[int], chunk: int
) -> list[tuple[int, list[int]]]:
    """`everyone` cut in order into pieces holding `chunk` players with an official rating
    each: (players in the piece, the ids of those to check)."""
    pieces: list[tuple[int, list[int]]] = []
    size = 0
    ids: list[int] = []
    for pid in everyone:
        size += 1
        if pid in rated:
            ids.append(pid)
            if len(ids) == chunk:
                pieces.append((size, ids))
                size, ids = 0, []
    if size:
        pieces.append((size, ids))
    return pieces


def _check_chunk(
    url: str, ids: Sequence[int], rating_lists: Sequence[RatingList], analyse: bool
) -> list[CheckReport]:
    with open_store(url, upgrade=False) as store:
        return [r for found in check_ids(store, ids, rating_lists, analyse) for r in found]


def check_in_processes(
    url: str,
    pieces: list[tuple[int, list[int]]],
    total: int,
    rating_lists: Sequence[RatingList],
    analyse: bool,
    jobs: int,
    progress: Callable[[int, int], None] | None,
) -> list[CheckReport]:
    """`check_all` over `jobs` worker processes (each opens the database itself); reports
    come back in the players' order."""
    results: list[list[CheckReport]] = [[] for _ in pieces]
    done = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {
            pool.submit(_check_chunk, url, ids, tuple(rating_lists), analyse): n
            for n, (_, ids) in enumerate(pieces)
        }
        for fut in as_completed(futures):
            n = futures[fut]
            results[n] = fut.result()
            done += pieces[n][0]
            if progress is not None:
                progress(done, total)
    return [r for chunk in results for r in chunk]
