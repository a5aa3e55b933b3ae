"""Replay a player's rating history on one list, period after period, and say for each
period what the rules made of it and why (pure: standard library, tracker.model,
tracker.advice and tracker.fide only). The facts come in as plain values gathered by
tracker.store.reading; the rules come from tracker.fide; nothing here reads a file or a
database. The public API is `assign_units` (a player's tournaments put on their rating
periods) and `replay` (one `PeriodRow` a period); how the loop runs and the policies it adds
are in docs/architecture.md, section tracker/periods/.

Modules: `inputs` (what comes in), `grouping` (a list's tournaments on their periods),
`policies` (what the replay assumes), `rows` (what comes out), with `reasons` (why a game did
not count), `sources` (where a rating came from) and `notes` (what a period notes) as values
that tracker.reports words; `replay` (the loop, in named steps), `state` (what the loop knows
between periods; it changes only through its own methods), `plans` (how a tournament enters
its period: the games counted, its Ro), `tags` (the player's Elo tags as evidence), `pins`
(which list a tournament may be pinned to).
"""

from __future__ import annotations

from tracker.fide.calendar import (
    default_period,
    is_list_month,
    list_in_force,
    next_list,
    previous_list,
    replay_from,
)
from tracker.periods.grouping import Unit, assign_units, game_list
from tracker.periods.inputs import (
    GameFact,
    PlayerInfo,
    ReplayInputs,
    TagDate,
    TournamentFact,
    game_facts,
)
from tracker.periods.pins import check_pin
from tracker.periods.policies import ASSUMED_GAMES_WHEN_ESTABLISHED, PLAYER_FACTS_LISTS
from tracker.periods.reasons import (
    NotCounted,
    NotCountedDetail,
    NotCountedWhy,
    ScheduleSays,
    StandardTag,
    Unplaced,
)
from tracker.periods.replay import replay
from tracker.periods.rows import Assumption, PeriodRow, Replay, TournamentPlan
from tracker.periods.sources import RatingFrom, RatingSource

__all__ = [
    "check_pin",
    "ASSUMED_GAMES_WHEN_ESTABLISHED",
    "GameFact",
    "Assumption",
    "NotCounted",
    "NotCountedDetail",
    "NotCountedWhy",
    "ScheduleSays",
    "StandardTag",
    "Unplaced",
    "PeriodRow",
    "PLAYER_FACTS_LISTS",
    "PlayerInfo",
    "Replay",
    "RatingFrom",
    "RatingSource",
    "ReplayInputs",
    "TagDate",
    "TournamentFact",
    "TournamentPlan",
    "Unit",
    "assign_units",
    "default_period",
    "game_facts",
    "game_list",
    "is_list_month",
    "list_in_force",
    "next_list",
    "previous_list",
    "replay",
    "replay_from",
]
