"""Check the replay against FIDE's official lists, and say why a number differs.

`reconcile(inputs)` replays one list for one player and compares every period that has an
official entry; for a difference it re-computes the period under each likely cause (games
missing or extra, another K, rounding, a base correction, an unrated opponent, the cap, the
Ro FIDE used, a pre-2008 era) and keeps those that reproduce FIDE's number, ranked by
evidence, ties by `CAUSE_ORDER`: a user is told what to fix, not only that a number differs.
docs/check.md lists the causes and what each asks of the user.

Modules: `report` (what a check gives), `reconcile` (replay vs official, period by period),
`causes` (every analysis, ranked), `games` (games missing or extra, verified by re-running
the replay), `rules` (another K, cap, rounding or base), `context` (what the analyses
share), `inputs` (the only one reading the store), `workers` (`check --all` over
processes); `check_all` is here, next to `CHUNK`, the size of its pieces.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from tracker.check.causes import likely_causes
from tracker.check.context import NEIGHBOUR_LISTS
from tracker.check.games import MAX_COMBOS, PIN_SUBSETS
from tracker.check.inputs import check_ids, check_player
from tracker.check.reconcile import reconcile
from tracker.check.report import (
    BASE_CORRECTION,
    CAP,
    CAUSE_ORDER,
    DIFFERS,
    ELO_TAG,
    GAMES_EXTRA,
    GAMES_MISSING,
    K_DIFFERS,
    MATCH,
    NOT_IN_DATABASE,
    PRE_2008,
    ROUNDING,
    START,
    UNEXPLAINED,
    UNRATED_OPPONENT,
    Cause,
    CheckReport,
    CheckRow,
    GamesCount,
    GamesStep,
)
from tracker.check.rules import CAP_MODES
from tracker.check.workers import check_in_processes, cut_in_pieces
from tracker.model import RatingList
from tracker.store import Store
from tracker.store.reading import players_by_name, players_with_ratings

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


__all__ = [
    "BASE_CORRECTION",
    "CAP",
    "CAP_MODES",
    "CAUSE_ORDER",
    "CHUNK",
    "DIFFERS",
    "ELO_TAG",
    "GAMES_EXTRA",
    "GAMES_MISSING",
    "K_DIFFERS",
    "MATCH",
    "MAX_COMBOS",
    "NEIGHBOUR_LISTS",
    "NOT_IN_DATABASE",
    "PIN_SUBSETS",
    "PRE_2008",
    "ROUNDING",
    "START",
    "UNEXPLAINED",
    "UNRATED_OPPONENT",
    "Cause",
    "CheckReport",
    "CheckRow",
    "GamesCount",
    "GamesStep",
    "check_all",
    "check_player",
    "inputs_for",
    "likely_causes",
    "reconcile",
]
