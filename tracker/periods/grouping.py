"""How the replay's facts group (pure): a player's tournaments on one list, each assigned to
a rating period by the era's list calendar (tracker.fide.calendar), and the games of a period
that look like one game stored twice."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from tracker.fide.calendar import default_period, replay_from
from tracker.model import LAST_DATE, LAST_PERIOD, Period, RatingList
from tracker.periods.inputs import GameFact, TagDate, TournamentFact
from tracker.periods.notes import StoredTwice, TwiceIn


def period_of_end(end: dt.date, rating_list: RatingList) -> Period | None:
    """The list that rates a tournament that ended on `end` (`default_period`); None before
    the replay's first date (`replay_from`) or when that list would come after LAST_PERIOD
    (a date past LAST_DATE is never computed with: its list could be of the year 10000)."""
    if end < replay_from(rating_list) or end > LAST_DATE:
        return None
    period = default_period(end, rating_list)
    return period if period <= LAST_PERIOD else None


def period_of_month(tag: TagDate | None, rating_list: RatingList) -> Period | None:
    """The list that rates a tournament dated only by its month (`2011.05.??`): that of the
    rating period the month is in, as for a tournament that ended on its first day (a
    tournament dated only by its year, or not at all: None, as before the replay's first
    date or after LAST_PERIOD)."""
    if tag is None or tag.month is None or not 1 <= tag.year <= LAST_DATE.year:
        return None
    return period_of_end(dt.date(tag.year, tag.month, 1), rating_list)


@dataclass(frozen=True)
class Unit:
    """A tournament's games on one list, assigned to a rating period."""

    tournament: TournamentFact
    rating_list: RatingList
    start: dt.date | None
    end: dt.date | None
    period: Period | None  # None: no date known and not pinned
    pinned: bool
    games: tuple[GameFact, ...]
    tag_date: TagDate | None = None  # no whole date: what its date tags say (a year...)

    @property
    def label(self) -> str:
        return self.tournament.name


def game_list(game: GameFact, tournament: TournamentFact | None) -> RatingList:
    """The list a game is rated on: the tournament's pinned list, else the game's own."""
    if tournament is not None and tournament.pinned_list is not None:
        return tournament.pinned_list
    return game.rating_list


def _game_key(g: GameFact) -> tuple[object, ...]:
    return (g.date is None, g.date or dt.date.min, g.round or "", g.id)


def assign_units(
    games: Iterable[GameFact], tournaments: Iterable[TournamentFact], rating_list: RatingList
) -> list[Unit]:
    """The player's tournaments on `rating_list`, each with its period, ordered by start."""
    by_id = {t.id: t for t in tournaments}
    grouped: dict[int, list[GameFact]] = defaultdict(list)
    for g in games:
        t = by_id.get(g.tournament_id)
        if game_list(g, t) == rating_list:
            grouped[g.tournament_id].append(g)
    units: list[Unit] = []
    for tid, gs in grouped.items():
        t = by_id.get(tid) or TournamentFact(id=tid, name=f"tournament {tid}")
        gs.sort(key=_game_key)
        dates = [g.date for g in gs if g.date is not None]
        start = t.start or (min(dates) if dates else None)
        end = max([d for d in (t.end, *dates) if d is not None], default=None)
        if start is not None and end is not None and start > end:
            start = end
        if t.pinned_period is not None:
            period: Period | None = t.pinned_period
            if start is None:
                start = end = t.pinned_period.prev().list_date
        elif end is not None:
            period = period_of_end(end, rating_list)
        else:
            period = period_of_month(t.tag_date, rating_list)
        units.append(
            Unit(
                t,
                rating_list,
                start,
                end,
                period,
                t.pinned_period is not None,
                tuple(gs),
                t.tag_date if start is None else None,
            )
        )
    units.sort(
        key=lambda u: (
            u.period is None,
            u.period or Period(1970, 1),
            u.start or dt.date.min,
            u.tournament.id,
        )
    )
    return units


def _same_round(a: str | None, b: str | None) -> bool:
    """Rounds that may name one game: equal, one missing, or one a board of the other
    ("1" and "1.1", chess-results' round.board)."""
    if not a or not b or a == b:
        return True
    return a.startswith(b + ".") or b.startswith(a + ".")


def stored_twice(units: Iterable[Unit]) -> list[StoredTwice]:
    """Pairs of a period's games that look like one game stored twice (from two sources that
    name the event or the round differently, so the import's duplicate check, which keys on
    them, kept both): same date, opponent, colour and result, in two tournaments, or in one
    with rounds that may be the same. A note each; the replay still counts both."""
    seen: dict[tuple[dt.date, int, bool, str], tuple[Unit, GameFact]] = {}
    found: list[StoredTwice] = []
    for u in units:
        if u.tournament.excluded:
            continue
        for g in u.games:
            if g.date is None or not g.rated or g.score is None:
                continue  # a game that does not count cannot count twice
            key = (g.date, g.opponent_id, g.white, g.result)
            other = seen.get(key)
            if other is None:
                seen[key] = (u, g)
                continue
            ou, og = other
            if ou.tournament.id == u.tournament.id and not _same_round(og.round, g.round):
                continue
            found.append(
                StoredTwice(
                    g.date,
                    g.opponent,
                    g.white,
                    g.result,
                    TwiceIn(ou.label, ou.tournament.id, og.round),
                    TwiceIn(u.label, u.tournament.id, g.round),
                )
            )
    return found
