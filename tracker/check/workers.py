"""`check --all` over worker processes: the players cut in order into pieces, each piece
checked in a process that opens the database itself, the reports put back in the players'
order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from tracker.check.inputs import check_ids
from tracker.check.report import CheckReport
from tracker.model import RatingList
from tracker.store import open_store


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
