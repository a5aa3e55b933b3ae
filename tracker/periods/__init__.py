"""Replay a player's rating history, list period after list period (pure: standard library,
tracker.model and tracker.fide only).

The facts come in as plain values (`GameFact`, `TournamentFact`, official entries, the
player's recorded facts); the store gathers them (tracker.store.reading). The rules come
from tracker.fide. Nothing here reads a file or a database.

Public API
----------
- `assign_units(games, tournaments, rating_list)` -> list[Unit]: the player's tournaments on
  one list, each assigned to a rating period: the tournament's pinned period, else the first
  list after its last round under the era's calendar (`fide.list_calendar`). A tournament
  pinned to a list takes all its games onto that list. Undated tournaments get no period.
- `replay(inputs: ReplayInputs)` -> Replay: the period rows (`PeriodRow`) of one list, in
  order, plus the games that could not be placed. Each row carries the engine's `PeriodOut`
  (`row.out`, for a rated player) or `FirstRatingOut` (`row.first`, while unrated), the
  tournaments with the Ro each used and where it came from (`TournamentPlan`), the games
  not counted with their reason (`NotCounted`), the one-off adjustment applied (if any), the
  official entry of that period (`row.official`) and whether the replay re-anchored on it
  (`row.anchored`), the K facts used (`row.facts`), and the rating the next period starts
  from (`row.published`).

How the replay runs
-------------------
1. Start: at the earliest official entry with a rating, if any (its period's games are
   inside that published rating: they are listed in `Replay.before_start`); otherwise at the
   first period with games, from the player's own Elo tag in their first tournament when
   there is one, else unrated (first rating computed from pooled games, 26-month window).
2. Each list period P (the era's calendar: quarterly, two-monthly, monthly): K facts from
   what is known before P (recorded facts, official entries before P, replayed ratings);
   official K of the previous list wins over the derived one when that list had the same K
   rules (`Edition.k_rules`: not across Jul 2011, Jul 2014, Jul 2017, rapid & blitz Oct
   2022). Each tournament's Ro: the
   recorded `--ro` override, else the official rating on the list in force at its start,
   else the player's own Elo tag in it, else the replayed rating in force at its start,
   else the rating before P. Opponents' ratings come from their Elo tags.
3. `fide.rate_period` over all tournaments of P (700 rule over all of them), then the
   one-off adjustment of P's list (`fide.one_off_adjustment`), then the floor. Where P's
   edition rates each tournament with the K at its start (`Edition.k_by_tournament_start`,
   Jul 2009 - Jun 2017), a tournament whose start list L is older than the list before P
   gets the K of L (`TournamentIn.k_start`): the official K recorded on L, else `derive_k`
   for the period after L from the rating on L and the K facts known once L was published
   (`ReplayState.facts_at`, tracker.periods.state); the period's K when the replay has no
   rating or facts for L.
4. Re-anchor: when P has an official entry with a rating, the next period starts from it
   (so one wrong month does not poison the rest); the row keeps both numbers.

Modules: `facts` (what comes in, the list calendar, grouping into units), `rows` (what comes
out), `replay` (the loop), `state` (what the loop knows between periods, the K facts read
from it), `pins` (which list a tournament may be pinned to). Policies of this package (the
rules' own UNSETTLED policies live in tracker.fide):
- rated games unknown, replay starting from an official entry whose K is below the
  newcomer K of its edition (K 20/15/10): the player is taken to have completed 30 games
  (`ASSUMED_GAMES_WHEN_ESTABLISHED`); the flat K 20 of rapid and blitz before Oct 2022 is
  everyone's K (`Edition.newcomer_k`) and shows nothing;
- the player's recorded facts (`tracker player set --rated-games/--ever-2400`) are one set
  per player and apply to the standard list only (`PLAYER_FACTS_LISTS`; spec section 3:
  "2400 ... ever, on that list"); rapid and blitz derive games completed, 2400 ever and
  2300 reached from their own official entries and replayed ratings (an official K only a
  2400 gives, K 10 under a ladder, means 2400 ever on that list: `Edition.k_shows_2400`); an
  official K of the previous list, which is per list, wins over all of them. A junior who
  reached 2300 before the first official entry of the replay (and is below it there) needs
  that entry's official K recorded, or the replay gives junior K 40;
- the games completed count the recorded number, the counted games inside the starting
  official rating, and every counted game of the replay (first-rating games included);
- a tournament's Ro: `--ro` override, official rating on the list in force at its start,
  the player's own Elo tag (the most common one in that tournament), the replayed rating in
  force at its start, the rating before the period;
- a player unrated in rapid or blitz but rated in standard starts from the standard rating
  of the list in force at the tournament's start (spec 1.2 and 4; from the Mar 2024 edition
  on): each tournament uses the one in force at its own start, the period starts from the
  one of its first tournament that has one; for K that seed counts as a rating published on
  the list, for good ("2400 ever", "reached 2300": `fide.seeded_facts`, policy
  `fide.policies.SEED_COUNTS_AS_PUBLISHED_FOR_K`);
- after a drop below the floor the games completed are kept
  (`fide.policies.RATED_GAMES_KEPT_AFTER_FLOOR_DROP`); a first rating of the Mar 2024
  formula is not compressed (`fide.policies.COMPRESS_FIRST_RATING_OF_2024_FORMULA`); "zero
  in the first event" is judged after the 26-month trim
  (`fide.policies.ZERO_FIRST_EVENT_JUDGED_ON`);
- periods before 2008 (standard) and before 2012 (rapid, blitz) are not replayed; their
  games are listed in `Replay.unplaced` with the reason;
- official entries in a month that is not a list month of its era are ignored unless they
  start the replay.
"""

from __future__ import annotations

from tracker.periods.facts import (
    ASSUMED_GAMES_WHEN_ESTABLISHED,
    PLAYER_FACTS_LISTS,
    GameFact,
    PlayerInfo,
    ReplayInputs,
    TournamentFact,
    Unit,
    assign_units,
    default_period,
    game_facts,
    game_list,
    is_list_month,
    list_in_force,
    next_list,
    previous_list,
    replay_from,
    too_early_reason,
)
from tracker.periods.pins import check_pin
from tracker.periods.replay import replay
from tracker.periods.rows import (
    Assumption,
    NotCounted,
    PeriodRow,
    Replay,
    Source,
    TournamentPlan,
)

__all__ = [
    "check_pin",
    "ASSUMED_GAMES_WHEN_ESTABLISHED",
    "GameFact",
    "Assumption",
    "NotCounted",
    "PeriodRow",
    "PLAYER_FACTS_LISTS",
    "PlayerInfo",
    "Replay",
    "Source",
    "ReplayInputs",
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
    "too_early_reason",
]
