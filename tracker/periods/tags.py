"""The player's own Elo tags as evidence (pure): the tag the replay starts from, the tags of
each list by the tournaments that started under it, and, on rapid and blitz, the player's
standard ratings that a tag may merely repeat (policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD).
Which tag a period publishes is the loop's (tracker.periods.replay)."""

from __future__ import annotations

import bisect
import datetime as dt
import functools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tracker.fide.calendar import list_in_force
from tracker.model import NotRated, Period, RatingList
from tracker.periods.grouping import Unit, assign_units
from tracker.periods.inputs import GameFact, ReplayInputs
from tracker.periods.plans import StandardOf, is_standard_tag, most_common, unit_start
from tracker.periods.policies import (
    EVIDENCE_OF_NEVER_RATED,
    FILE_TAGS_COMPARED_AT_LEAST,
    FILE_TAGS_STANDARD_SHARE,
    STANDARD_TAG_WINDOW_MONTHS,
    TAG_OF_A_FAST_LIST_IS_THE_STANDARD,
    TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE,
)
from tracker.periods.reasons import StandardTag


@dataclass(frozen=True)
class StartTag:
    """The player's own Elo tag the replay starts from (None: none) and the tournaments that
    carry it; `aside`: on rapid and blitz, when every tag was the player's standard rating,
    the first of them (the replay waits for a rating of the list)."""

    tag: int | None = None
    tournaments: tuple[str, ...] = ()
    aside: StandardTag | None = None


def start_tag(first_units: Sequence[Unit], standard_of: StandardOf | None = None) -> StartTag:
    """The player's own Elo tag in the first period's tournaments (rated games of
    tournaments not excluded first): the rating the replay starts from, and the tournaments
    that carry it. On rapid and blitz a tag that may be the player's standard rating of the
    months around is no rating of the list (policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD): when every
    tag is such, no tag and the first put aside; no tag either without one."""

    def tags(rated_only: bool) -> list[tuple[int, Unit]]:
        return [
            (g.own_elo, u)
            for u in first_units
            for g in u.games
            if g.own_elo is not None and (not rated_only or (g.rated and not u.tournament.excluded))
        ]

    pairs = tags(True) or tags(False)
    if standard_of is not None and TAG_OF_A_FAST_LIST_IS_THE_STANDARD:
        kept = [(t, u) for t, u in pairs if not is_standard_tag(t, u, standard_of)]
        if pairs and not kept:
            t, u = pairs[0]
            return StartTag(aside=StandardTag(u.rating_list, t, u.label))
        pairs = kept
    tag = most_common(t for t, _ in pairs)
    if tag is None:
        return StartTag()
    return StartTag(tag, tuple(dict.fromkeys(u.label for t, u in pairs if t == tag)))


def standard_ratings_of(games: Sequence[GameFact], inputs: ReplayInputs) -> StandardOf:
    """The player's standard ratings of the months around a tournament's start, up to
    STANDARD_TAG_WINDOW_MONTHS either side (policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD): the
    player's tags in standard tournaments that started in those months, and the standard
    ratings in force in them, official and published by the standard replay (replayed, or
    re-anchored on a tag)."""
    std = RatingList.STANDARD
    seen: dict[int, set[int]] = defaultdict(set)  # month number -> standard ratings seen
    online = NotRated.ONLINE.value  # (an online event's tags are another site's ratings)
    for u in assign_units(games, inputs.tournaments, std):
        if u.start is not None:
            seen[_month(u.start)].update(
                g.own_elo for g in u.games if g.own_elo is not None and g.not_rated_reason != online
            )
    in_force: dict[Period, int] = dict(inputs.standard_ratings)
    for e in inputs.official:
        if e.list == std and e.rating is not None:
            seen[_month(e.period.list_date)].add(e.rating)
            in_force.setdefault(e.period, e.rating)
    lists = sorted(in_force)
    months = [_month(p.list_date) for p in lists]
    window = STANDARD_TAG_WINDOW_MONTHS

    @functools.cache
    def around(month: int) -> frozenset[int]:
        out: set[int] = set()
        for m in range(month - window, month + window + 1):
            out.update(seen.get(m, ()))
        # the ratings in force from the window's first month to its last
        first = max(bisect.bisect_right(months, month - window) - 1, 0)
        last = bisect.bisect_right(months, month + window)
        out.update(in_force[p] for p in lists[first:last])
        return frozenset(out)

    def of(unit: Unit) -> frozenset[int]:
        return around(_month(unit_start(unit)))

    return of


def _month(day: dt.date) -> int:
    """A month's number, to count months between two days (January of year 0 is 0)."""
    return day.year * 12 + day.month - 1


def tag_evidence(
    units: Iterable[Unit], rl: RatingList, standard_of: StandardOf | None = None
) -> tuple[dict[Period, list[tuple[int, str, int]]], dict[Period, list[tuple[int, str]]]]:
    """The player's own Elo tag in each tournament on this list, by the list in force at its
    start (the rating of that list as the organiser printed it), with the number of games
    that carry it: rated games of tournaments not excluded only (an online event's tags are
    another site's ratings). A tag that a tournament of the same name already carried under
    an earlier list (a team league's weekends, printed with the season's first rating all
    season) is no new evidence; nor, on rapid and blitz, a tag that is the player's standard
    rating of the month (policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD): those come second, by
    list, with their tournament."""
    found: dict[Period, list[tuple[int, str, int]]] = defaultdict(list)
    aside: dict[Period, list[tuple[int, str]]] = defaultdict(list)
    first_of: dict[str, tuple[Period, int]] = {}  # event name -> (earliest start list, tag)
    ordered = sorted(
        (u for u in units if u.period is not None and not u.tournament.excluded),
        key=lambda u: (unit_start(u), u.tournament.id),
    )
    for u in ordered:
        own = [g.own_elo for g in u.games if _tag_counts(g, rl) and g.own_elo is not None]
        if not own:
            continue
        # one tag in the whole tournament, nearly always: no counting needed
        tag = own[0] if own.count(own[0]) == len(own) else most_common(own)
        on = list_in_force(unit_start(u), rl)
        if tag is None or on is None:
            continue
        if is_standard_tag(tag, u, standard_of):
            aside[on].append((tag, u.label))
            continue
        earlier = first_of.setdefault(u.tournament.name, (on, tag))
        if earlier[0] < on and earlier[1] == tag:
            continue  # the same event's tag again, from an earlier list
        found[on].append((tag, u.label, sum(1 for t in own if t == tag)))
    return found, aside


def _tag_counts(g: GameFact, rl: RatingList) -> bool:
    """Whether a game's own Elo tag is evidence of the list (a rated game's; on the
    standard list also a never-rated event's: TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE)."""
    if g.rated:
        return True
    return (
        TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE
        and rl == RatingList.STANDARD
        and g.not_rated_reason in EVIDENCE_OF_NEVER_RATED
    )


class PlayerTag(NamedTuple):
    """A player's own Elo tag in a tournament of a file (its rated games): what
    `file_tags` judges."""

    player_id: int
    tournament_id: int
    start: dt.date | None
    rating_list: RatingList
    tag: int


@dataclass(frozen=True)
class FileTags:
    """What a file's rapid and blitz tags look like: of the players' tags in its rapid and
    blitz tournaments that can be compared with a standard tag or a tag of the other fast
    list of the same player (`file_tags`), how many equal one (`standard`)."""

    compared: int
    standard: int

    @property
    def look_standard(self) -> bool:
        """Whether the file prints the standard rating in its rapid and blitz events
        (FILE_TAGS_STANDARD_SHARE of FILE_TAGS_COMPARED_AT_LEAST tags or more)."""
        return (
            self.compared >= FILE_TAGS_COMPARED_AT_LEAST
            and self.standard >= FILE_TAGS_STANDARD_SHARE * self.compared
        )


def file_tags(tags: Iterable[PlayerTag]) -> FileTags:
    """How many of a file's rapid and blitz tags repeat, for the same player, a standard tag
    within STANDARD_TAG_WINDOW_MONTHS of the tournament's start, or a tag in an event of
    the other fast list within a month of it (a rapid and a blitz rating are rarely the
    same: one number in both is the standard rating), of those that have such a tag to be
    compared with."""
    seen: dict[tuple[int, RatingList], dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    dated = [t for t in tags if t.start is not None]
    for t in dated:
        assert t.start is not None
        seen[t.player_id, t.rating_list][_month(t.start)].add(t.tag)
    compared = equal = 0
    window = STANDARD_TAG_WINDOW_MONTHS
    for t in dated:
        if t.rating_list is RatingList.STANDARD:
            continue
        assert t.start is not None
        m = _month(t.start)
        other = RatingList.BLITZ if t.rating_list is RatingList.RAPID else RatingList.RAPID
        standard, fast = (
            seen.get((t.player_id, RatingList.STANDARD), {}),
            seen.get((t.player_id, other), {}),
        )
        near = set().union(
            *(standard.get(i, set()) for i in range(m - window, m + window + 1)),
            *(fast.get(i, set()) for i in range(m - 1, m + 2)),
        )
        if near:
            compared += 1
            equal += t.tag in near
    return FileTags(compared, equal)
