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
share). All work over plain values: reading the store and spreading `check --all` over
processes is the verb's, tracker.app.check.
"""

from __future__ import annotations

from tracker.check.causes import likely_causes
from tracker.check.context import NEIGHBOUR_LISTS
from tracker.check.games import MAX_COMBOS, PIN_SUBSETS
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

__all__ = [
    "BASE_CORRECTION",
    "CAP",
    "CAP_MODES",
    "CAUSE_ORDER",
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
    "likely_causes",
    "reconcile",
]
