"""What every cause analysis shares: the player's replay inputs and the base replay, the replay
again with some facts changed (`Context.rerun`), the lists a late report could land on, and
whether a replay reproduces an official entry."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from tracker.model import OfficialEntry, Period, RatingList
from tracker.periods import (
    GameFact,
    NotCounted,
    Replay,
    ReplayInputs,
    TournamentFact,
    next_list,
    previous_list,
    replay,
)
from tracker.periods.reasons import NotCountedWhy, Unplaced

NEIGHBOUR_LISTS = 3  # a late report slips one to three lists (spec section 1)


def before_2008(base: Replay) -> list[NotCounted]:
    """The games of the standard list before 2008 (not replayed: FIDE rated by tournament
    averages then)."""
    return [
        n
        for n in base.unplaced
        if n.why is NotCountedWhy.TOO_EARLY
        and isinstance(n.detail, Unplaced)
        and n.detail.rating_list == RatingList.STANDARD
    ]


@dataclass
class Context:
    """One list of one player: its replay inputs, the replay of them, its official entries."""

    inputs: ReplayInputs
    base: Replay
    official: dict[Period, OfficialEntry] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.official = {
            e.period: e for e in self.inputs.official if e.list == self.inputs.rating_list
        }

    @property
    def rating_list(self) -> RatingList:
        return self.inputs.rating_list

    def rerun(
        self, tournaments: Iterable[TournamentFact] = (), games: Iterable[GameFact] = ()
    ) -> Replay:
        """The replay again, with some tournaments' facts (overrides) or games replaced."""
        t_new = {t.id: t for t in tournaments}
        g_new = {g.id: g for g in games}
        known = {t.id for t in self.inputs.tournaments}
        ts = [t_new.get(t.id, t) for t in self.inputs.tournaments]
        ts += [t for tid, t in t_new.items() if tid not in known]
        gs = [g_new.get(g.id, g) for g in self.inputs.games]
        return replay(replace(self.inputs, tournaments=ts, games=gs))

    def tournament(self, tid: int) -> TournamentFact:
        for t in self.inputs.tournaments:
            if t.id == tid:
                return t
        return TournamentFact(id=tid, name=f"tournament {tid}")

    def neighbours(self, period: Period) -> list[Period]:
        """The lists around `period` a late (or early) report could land on."""
        found: list[Period] = []
        p = period
        for _ in range(NEIGHBOUR_LISTS):
            p = next_list(p, self.rating_list)
            found.append(p)
        q: Period | None = period
        for _ in range(NEIGHBOUR_LISTS):
            q = previous_list(q, self.rating_list) if q is not None else None
            if q is None:
                break
            found.append(q)
        return found


def reproduced(rep: Replay, period: Period, entry: OfficialEntry) -> bool:
    """Whether `rep` reproduces the official entry (rating, and game count when known)."""
    row = rep.row(period)
    if row is None:
        return False
    games_ok = entry.games is None or row.games == entry.games
    return row.replayed == entry.rating and games_ok
