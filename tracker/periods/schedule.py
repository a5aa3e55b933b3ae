"""What a tournament's schedule says of games without a time control (pure): how many the
player played a day, against whom, in which round.

Most files carry no TimeControl tag, and the name of an event does not always say its speed.
Its schedule often does: no standard event plays four rounds a day, nor two games a day of
one match; a play-off played one game a day is classical. The readings here are policies
(tracker.periods.policies) and each game put off the standard list carries its reason.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from tracker.fide.eventnames import TIE_BREAK
from tracker.model import RatingList
from tracker.periods.grouping import Unit
from tracker.periods.inputs import GameFact, TournamentFact
from tracker.periods.policies import (
    FAST_EVENT_DAYS,
    GAMES_A_DAY_FAST_EVENT,
    GAMES_A_DAY_NOT_STANDARD,
    MATCH_GAMES_A_DAY_NOT_STANDARD,
    ONE_A_DAY_PLAYOFF_IS_CLASSICAL,
    PLAYOFF_DAYS_ONE_A_DAY,
    WRONG_DATE_ONE_GAME_DAYS,
)
from tracker.periods.reasons import NotCountedWhy, ScheduleSays

_ROUND = re.compile(r"\s*(\d+)(?:\.(\d+(?:\.\d+)*))?\s*$")


def main_round(text: str | None) -> int | None:
    """The round number of a round ("3" and "3.1" are round 3; TWIC and chess-results write
    round.board, or round.game in a knock-out); None when it is not a number."""
    m = _ROUND.match(text or "")
    return int(m.group(1)) if m else None


def _sub(text: str | None) -> tuple[int, ...]:
    m = _ROUND.match(text or "")
    if not m or not m.group(2):
        return ()
    return tuple(int(p) for p in m.group(2).split("."))


def _order(g: GameFact) -> tuple[object, ...]:
    return (g.date or dt.date.max, _sub(g.round), g.id)


def classical_playoffs(
    games: Sequence[GameFact], tournaments: Iterable[TournamentFact]
) -> tuple[list[GameFact], dict[int, int]]:
    """The games with the play-off games played one a day put on the standard list, rated
    (policy ONE_A_DAY_PLAYOFF_IS_CLASSICAL), and the number moved per tournament. A game is
    such when its name made it a tie-break (no speed word, list assumed), it is the player's
    only play-off game of its day, and the player played PLAYOFF_DAYS_ONE_A_DAY or more such
    days in that tournament; a tournament the user put on a list is left as they said."""
    if not ONE_A_DAY_PLAYOFF_IS_CLASSICAL:
        return list(games), {}
    pinned = {t.id for t in tournaments if t.pinned_list is not None}
    playoff: dict[int, list[GameFact]] = defaultdict(list)
    for g in games:
        if (
            g.not_rated_reason == TIE_BREAK
            and g.list_assumed
            and g.date is not None
            and g.tournament_id not in pinned
        ):
            playoff[g.tournament_id].append(g)
    moved: dict[int, GameFact] = {}
    count: dict[int, int] = {}
    for tid, gs in playoff.items():
        per_day = Counter(g.date for g in gs)
        alone = [g for g in gs if per_day[g.date] == 1]
        if len(alone) < PLAYOFF_DAYS_ONE_A_DAY:
            continue
        for g in alone:
            moved[g.id] = replace(
                g, rating_list=RatingList.STANDARD, rated=True, not_rated_reason=None
            )
        count[tid] = len(alone)
    if not moved:
        return list(games), {}
    return [moved.get(g.id, g) for g in games], count


Off = tuple[NotCountedWhy, ScheduleSays]
"""Why the schedule puts a game off the standard list."""


def not_standard(unit: Unit) -> Mapping[int, Off]:
    """The games of a standard-list tournament its schedule says are no standard games, by
    game id, with the reason: the player's games whose list was assumed (no TimeControl).
    In this order: a match played two or more games a day (MATCH_GAMES_A_DAY_NOT_STANDARD),
    an event of several fast days (GAMES_A_DAY_FAST_EVENT), a day of four or more
    (GAMES_A_DAY_NOT_STANDARD) unless the round numbers and the other days say its dates are
    wrong (WRONG_DATE_ONE_GAME_DAYS). A tournament the user put on a list is left alone."""
    if unit.rating_list != RatingList.STANDARD or unit.tournament.pinned_list is not None:
        return {}
    games = [g for g in unit.games if g.list_assumed and g.date is not None]
    if len(games) < 2:
        return {}
    per_day: Counter[dt.date] = Counter(g.date for g in games if g.date is not None)
    reasons: dict[int, Off] = {}
    tid = unit.tournament.id

    # a match in a round: the same opponent, the same round number
    matches: dict[tuple[int, int], list[GameFact]] = defaultdict(list)
    for g in games:
        r = main_round(g.round)
        if r is not None:
            matches[(r, g.opponent_id)].append(g)
    fast: dict[int, tuple[int, int]] = {}  # game id -> (round, games that day)
    leads: list[int] = []
    for (r, _), gs in matches.items():
        if len(gs) < 2:
            continue
        gs.sort(key=_order)
        # games of one round string twice are one game stored twice, not a match's two
        on_day = Counter(d for d, _ in {(g.date, g.round) for g in gs})
        lead = 0
        for g in gs:
            if on_day[g.date] >= MATCH_GAMES_A_DAY_NOT_STANDARD:
                break
            lead += 1
        if lead >= 2:
            leads.append(lead)
        for g in gs:
            if on_day[g.date] >= MATCH_GAMES_A_DAY_NOT_STANDARD:
                fast[g.id] = (r, on_day[g.date])
    # The event's classical games of a match (the games its matches play one a day before a
    # tie-break, two or more): a match whose every game the file dates on one day starts
    # with as many classical games (the file's dates are wrong: its other matches were one
    # a day).
    classical = Counter(leads).most_common(1)[0][0] if leads else 0
    kept: set[int] = set()
    if classical:
        for gs in matches.values():
            if len(gs) >= 2 and all(g.id in fast for g in gs):
                first = sorted(gs, key=lambda g: (_sub(g.round), g.id))[:classical]
                kept.update(g.id for g in first)
    for gid, (r, n) in fast.items():
        if gid not in kept:
            reasons[gid] = (NotCountedWhy.MATCH_GAMES_A_DAY, ScheduleSays(tid, games=n, round=r))

    # the days of the event's other games (its matches' games two a day aside: tie-breaks)
    rest = Counter(g.date for g in games if g.date is not None and g.id not in fast)
    fast_days = [d for d, n in rest.items() if n >= GAMES_A_DAY_FAST_EVENT]
    if len(fast_days) >= FAST_EVENT_DAYS:
        fast_event = (NotCountedWhy.FAST_EVENT, ScheduleSays(tid, days=len(fast_days)))
        for g in games:
            if g.id not in reasons and g.id not in kept:
                reasons[g.id] = fast_event
        return reasons

    for d, n in per_day.items():
        if n < GAMES_A_DAY_NOT_STANDARD:
            continue
        day = [g for g in games if g.date == d and g.id not in reasons]
        if _wrong_date(day, d, games, per_day, set(reasons)):
            continue
        for g in day:
            if g.id in kept:
                continue
            reasons[g.id] = (NotCountedWhy.GAMES_A_DAY, ScheduleSays(tid))
    return reasons


def _wrong_date(
    day: Sequence[GameFact],
    date: dt.date,
    games: Sequence[GameFact],
    per_day: Mapping[dt.date, int],
    dropped: set[int],
) -> bool:
    """Whether a busy day's games are rounds the file dated wrong (policy
    WRONG_DATE_ONE_GAME_DAYS): each a different numbered round against a different opponent,
    in an event whose other days (tie-break days aside) hold one game each."""
    rounds = [main_round(g.round) for g in day]
    if any(r is None for r in rounds) or len(set(rounds)) != len(rounds):
        return False
    if len({g.opponent_id for g in day}) != len(day):
        return False
    one = several = 0
    for d, n in per_day.items():
        if d == date:
            continue
        if n == 1:
            one += 1
        elif any(g.id not in dropped for g in games if g.date == d):
            several += 1
    return one >= WRONG_DATE_ONE_GAME_DAYS and several == 0
