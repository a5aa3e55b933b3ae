"""What the replay knows between periods: the ratings it published and the K facts (games
completed, 2400 ever, 2300 reached), with what K reads from them: a period's facts, the K of
a tournament's start list, and the facts nobody recorded that K rested on. The loop that
updates it is tracker.periods.replay."""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from tracker.advice import AddOfficial, PlayerFact, SetPlayerFact
from tracker.fide import (
    KAtStart,
    KSaid,
    KSource,
    PeriodOut,
    PlayerFacts,
    TournamentIn,
    derive_k_why,
    edition_for,
    k_said,
    policies,
)
from tracker.fide.calendar import list_in_force, next_list, previous_list, replay_from
from tracker.model import MAX_K, OfficialEntry, Period, RatingList
from tracker.periods.grouping import Unit
from tracker.periods.inputs import GameFact, ReplayInputs
from tracker.periods.policies import (
    ASSUMED_GAMES_WHEN_ESTABLISHED,
    GAMES_COMPLETED_WHEN_UNKNOWN,
    PEAK_FOR_2400_QUESTION,
    PLAYER_FACTS_LISTS,
)
from tracker.periods.reasons import StandardTag
from tracker.periods.rows import Assumption
from tracker.periods.sources import RatingFrom, RatingSource


def _newcomer_k(rating_list: RatingList, period: Period) -> int:
    """K of a new player on that list date (only used to read an official K as the K of an
    established player when the games completed are unknown): under the flat K of rapid and
    blitz before Oct 2022 everyone's K, which says nothing about the games completed."""
    return edition_for(rating_list, period.list_date).newcomer_k


class ReplayState:
    """What the replay knows between periods."""

    def __init__(
        self,
        inputs: ReplayInputs,
        *,
        playoffs: Mapping[int, int] | None = None,
        standard_of: Callable[[Unit], frozenset[int]] | None = None,
        standard_tags: Mapping[Period, list[tuple[int, str]]] | None = None,
    ) -> None:
        self.inputs = inputs
        self.rating: int | None = None
        self.source = RatingFrom(RatingSource.UNRATED)  # where `rating` came from
        self.published: dict[Period, int | None] = {}  # list -> rating on it (None: unrated)
        # The recorded facts apply to the lists of PLAYER_FACTS_LISTS only (policy); the
        # other lists learn them from their own official entries and replayed ratings.
        self.recorded_games = (
            inputs.player.rated_games if inputs.rating_list in PLAYER_FACTS_LISTS else None
        )
        self.rated_games = self.recorded_games or 0
        # Whether `rated_games` is a count (recorded, shown by an official K, or counted by
        # the replay from a first rating) rather than the policy's assumption.
        self.games_known = self.recorded_games is not None
        # The starting official entry taken for the player's first rating (no Elo tag of
        # theirs in the games inside it): `rated_games` counts from it, an assumption too.
        self.first_rating: Period | None = None
        self.ever_2400 = (
            bool(inputs.player.ever_2400) if inputs.rating_list in PLAYER_FACTS_LISTS else False
        )
        self.ever_2400_known = (
            inputs.player.ever_2400 is not None and inputs.rating_list in PLAYER_FACTS_LISTS
        )
        self.started_rated = False  # the replay's first rating came from outside it
        self.list_games = 0  # the games columns of the official entries learnt, added up
        self.peak = 0  # the highest rating the replay knows on this list
        self.reached_2300 = False
        self.pool: list[tuple[Unit, TournamentIn, list[GameFact]]] = []
        self._order: list[Period] = []
        # The K facts (games completed, 2400 ever, 2300 reached) once each list was published:
        # the K a player had at a tournament's start is derived from those of its start list.
        self.facts_at: dict[Period, tuple[int, bool, bool]] = {}
        # The published standard ratings' lists, in order (rapid/blitz look them up by date).
        self.standard_lists = sorted(inputs.standard_ratings)
        # Play-off games the schedule put on the standard list, by tournament (tracker.periods
        # .schedule.classical_playoffs): said in the period's notes.
        self.playoffs: Mapping[int, int] = playoffs or {}
        # Rapid/blitz tags put aside as the standard rating, by list (said in the notes).
        self.standard_tags: Mapping[Period, list[tuple[int, str]]] = standard_tags or {}
        # Why the replay waits for a rating of this list (the first tags were the standard
        # rating): its games are not counted until an official entry or a tag of the list.
        self.waiting: StandardTag | None = None
        # rapid/blitz: the player's standard ratings of a tournament's month (its tags that are
        # one are no rating of this list: policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD)
        self.standard_of = standard_of

    def start_official(self, entry: OfficialEntry, source: RatingFrom, games_inside: int) -> None:
        """The replay starts at an official entry (its rating is published on its list);
        `games_inside`: the counted games of the tournaments inside that rating."""
        assert entry.rating is not None
        self.rating = entry.rating
        self.source = source
        self.start_rated(entry.rating)
        self.publish(entry.period, entry.rating)
        self.learn(entry)
        if self.recorded_games is not None:
            # The recorded count is "before the first game in the database": the games
            # inside the starting official rating are completed too.
            self.rated_games += games_inside
        self.remember(entry.period)

    def start_at_tag(self, tag: int, source: RatingFrom) -> None:
        """The replay starts from the player's own Elo tag in the first tournaments."""
        self.rating = tag
        self.source = source
        self.start_rated(tag)

    def wait_for(self, why: StandardTag) -> None:
        """The replay waits for a rating of this list (`why`: the first tag put aside as the
        standard rating): the games are not counted until an official entry or a tag."""
        self.waiting = why

    def first_rating_at_start(self, period: Period, games: int) -> None:
        """The starting official entry (of `period`) is taken for the player's first rating,
        made of `games` counted games: those are the games completed (spec section 3: the
        games behind a first rating count), not the 30 assumed of a player found rated;
        still an assumption (said where it decides K), unless a recorded count or the
        entry's K said otherwise."""
        if not self.games_known:
            self.rated_games = games
            self.first_rating = period

    def count_from_first_rating(self) -> None:
        """The replay starts unrated: it counts the games completed from its first rating."""
        self.games_known = True

    def completed_before(self, games: int) -> None:
        """The counted games stored from before the replay's start: 30 of them make the
        games completed a count, not the policy's assumption."""
        if games >= ASSUMED_GAMES_WHEN_ESTABLISHED:
            self.rated_games = max(self.rated_games, games)
            self.games_known = True

    def carry_over(self, period: Period) -> None:
        """A list without games, official entry or adjustment: the rating carries over."""
        self.publish(period, self.rating)
        self.remember(period)

    def seeded(self, facts: PlayerFacts) -> None:
        """The period's facts once the standard seed counts as a rating published on this
        list (policy SEED_COUNTS_AS_PUBLISHED_FOR_K): "2400 ever" and "reached 2300", for
        good, as `publish` sets them."""
        self.ever_2400, self.reached_2300 = facts.ever_2400, facts.reached_2300

    def count_rated(self, games: int) -> None:
        """Games the period rated (a change or a first rating): games completed."""
        self.rated_games += games

    def pool_games(self, games: Iterable[tuple[Unit, TournamentIn]], since: dt.date) -> None:
        """An unrated player's tournaments toward a first rating: these join the pool, and
        those that started before `since` (out of the window) leave it."""
        self.pool.extend((u, t, []) for u, t in games)
        self.pool = [p for p in self.pool if p[1].start >= since]

    def first_rated(self, games: int) -> None:
        """A first rating: its games are completed, and the pool is spent."""
        self.rated_games += games
        self.pool = []

    def close_period(
        self,
        period: Period,
        rating: int | None,
        source: RatingFrom | None,
        entry: OfficialEntry | None,
        dropped: bool,
    ) -> None:
        """The list of `period` is published at `rating` (None: unrated), the next period
        starts from it; `source` says where it came from (None: as before); `entry` is the
        list's official entry, learnt; `dropped`: rated before, unrated now (the floor)."""
        if source is not None:
            self.source = source
        if dropped:
            self.pool = []
            if not policies.RATED_GAMES_KEPT_AFTER_FLOOR_DROP:
                self.rated_games = 0
        self.rating = rating
        if rating is not None:
            self.waiting = None
        self.publish(period, rating)
        if entry is not None:
            self.learn(entry)
        self.remember(period)
        if rating is None:
            self.source = RatingFrom(RatingSource.UNRATED)

    def publish(self, period: Period, rating: int | None) -> None:
        """Record the rating on the list of `period` (None: unrated on that list)."""
        if period not in self.published:
            self._order.append(period)  # periods arrive in increasing order
        self.published[period] = rating
        if rating is None:
            return
        self.peak = max(self.peak, rating)
        if rating >= 2400:
            self.ever_2400 = True
        if rating >= 2300:
            self.reached_2300 = True

    def remember(self, period: Period) -> None:
        """Record the K facts known once the list of `period` is published (and learnt)."""
        self.facts_at[period] = (self.rated_games, self.ever_2400, self.reached_2300)

    def learn(self, entry: OfficialEntry) -> None:
        """What an official entry's K says beyond its own period: a K only a published 2400
        on this list gives (K 10 under a ladder) keeps K 10 for good (spec 3 rule 1)."""
        rl = self.inputs.rating_list
        on = entry.period.list_date
        if (
            entry.k is not None
            and on >= replay_from(rl)
            and edition_for(rl, on).k_shows_2400(entry.k)
        ):
            self.ever_2400 = True
        if entry.k is not None and not self.games_known and entry.k < _newcomer_k(rl, entry.period):
            # An official K below a new player's: 30 games completed, at least (a count now).
            self.rated_games = max(self.rated_games, ASSUMED_GAMES_WHEN_ESTABLISHED)
            self.games_known = True
        if entry.games:
            # The games column of the lists (FIDE's own count of the period's rated games):
            # once they add up to 30, the player has completed 30 at least.
            self.list_games += entry.games
            if not self.games_known and self.list_games >= ASSUMED_GAMES_WHEN_ESTABLISHED:
                self.rated_games = max(self.rated_games, self.list_games)
                self.games_known = True

    def start_rated(self, rating: int) -> None:
        """The replay starts at a rating from outside it (an official entry or the player's
        own Elo tag): the games completed before it are unknown unless recorded; policy
        GAMES_COMPLETED_WHEN_UNKNOWN."""
        self.started_rated = True
        self.peak = max(self.peak, rating)
        if not self.games_known:
            self.rated_games = GAMES_COMPLETED_WHEN_UNKNOWN

    def in_force(self, on: dt.date) -> tuple[Period, int] | None:
        """The replayed list in force on `on` and the rating on it (None: the replay has no
        list before `on`, or the player was unrated on it)."""
        i = bisect.bisect_right(self._order, Period.of(on))
        if i == 0:
            return None
        p = self._order[i - 1]
        rating = self.published[p]
        return None if rating is None else (p, rating)

    def standard_on_list(self, period: Period) -> int | None:
        """The standard rating published on the list of `period` (the Oct 2022 raise
        compares the rapid/blitz rating of a list with the standard rating of the same
        list)."""
        best = self._latest_standard(period)
        return None if best is None else best[1]

    def standard_in_force(self, on: dt.date) -> tuple[Period, int] | None:
        """The standard list in force on `on` and its rating: the rating a player unrated in
        rapid/blitz starts a tournament that started on `on` from (spec 1.2: the ratings of
        the list in force at the tournament's start, even when it is rated on a later
        list)."""
        return self._latest_standard(Period.of(on))

    def _latest_standard(self, period: Period) -> tuple[Period, int] | None:
        """The latest published standard list on or before `period`, and its rating."""
        lists = self.standard_lists
        i = bisect.bisect_right(lists, period)
        if i == 0:
            return None
        p = lists[i - 1]
        return p, self.inputs.standard_ratings[p]


def _official_k(
    rl: RatingList, before: Period | None, period: Period, official: Mapping[Period, OfficialEntry]
) -> int | None:
    """The official K printed on the list `before` as the K of the period of `period` (the
    list after it); None when none is recorded or it was published under other K rules."""
    prev = official.get(before) if before is not None else None
    official_k = prev.k if prev is not None else None
    if official_k is not None and not 1 <= official_k <= MAX_K:
        official_k = None  # stored before such a K was refused: no K FIDE prints
    if (
        official_k is not None
        and before is not None
        and (edition_for(rl, before.list_date).k_rules != edition_for(rl, period.list_date).k_rules)
    ):
        # Published under the K rules of the previous list (e.g. the flat K 20 of rapid and
        # blitz before Oct 2022): the K of this period is derived under its own rules.
        official_k = None
    return official_k


def period_facts(
    state: ReplayState,
    period: Period,
    birth_year: int | None,
    official: Mapping[Period, OfficialEntry],
) -> PlayerFacts:
    rl = state.inputs.rating_list
    return PlayerFacts(
        birth_year=birth_year,
        rated_games=state.rated_games,
        ever_2400=state.ever_2400,
        reached_2300=state.reached_2300,
        official_k=_official_k(rl, previous_list(period, rl), period, official),
    )


def k_at_start(
    start: dt.date,
    period: Period,
    state: ReplayState,
    birth_year: int | None,
    official: Mapping[Period, OfficialEntry],
) -> tuple[int, KAtStart] | None:
    """The K the player had on `start`, the first day of a tournament rated in `period`, when
    its start list is older than the list before `period` (else it is the period's K: None);
    also None when the replay does not know the player as rated on that list (the period's
    K then).

    The K of the list L in force on the start date is the K the player carried while L was
    in force, i.e. the K of the period after L, from what was known once L was published:
    the official K recorded on L (as `period_facts` reads it), else `k_said` from the rating
    on L, the games completed, 2400 ever and 2300 reached by then, and the birth year."""
    rl = state.inputs.rating_list
    start_list = list_in_force(start, rl)
    before = previous_list(period, rl)
    if start_list is None or before is None or start_list >= before:
        return None
    rating = state.published.get(start_list)
    known = state.facts_at.get(start_list)
    if rating is None or known is None:
        return None
    after = next_list(start_list, rl)
    official_k = _official_k(rl, start_list, after, official)
    if official_k is not None:
        return official_k, KAtStart(start_list, rating, KSaid(KSource.OFFICIAL, official_k))
    games, ever_2400, reached_2300 = known
    facts = PlayerFacts(
        birth_year=birth_year, rated_games=games, ever_2400=ever_2400, reached_2300=reached_2300
    )
    said = k_said(rl, after.list_date, facts, rating)
    return said.k, KAtStart(start_list, rating, said)


def k_assumptions(
    state: ReplayState,
    period: Period,
    facts: PlayerFacts,
    rating_before: int | None,
    birth_year: int | None,
    out: PeriodOut | None,
) -> tuple[Assumption, ...]:
    """The facts nobody recorded that the period's K rested on: each one whose other value
    would have given another K (none when an official K decided, or no K was used)."""
    if out is None or not out.games or out.k_why is None or rating_before is None:
        return ()  # no K, or not section 3's (an official K, a K given)
    ask_2400 = (
        not state.ever_2400_known
        and not facts.ever_2400
        and state.started_rated
        and state.peak >= PEAK_FOR_2400_QUESTION
    )
    if state.games_known and birth_year is not None and not ask_2400:
        return ()  # nothing unknown (most periods of a player whose facts are recorded)
    rl = state.inputs.rating_list
    on = period.list_date
    k = derive_k_why(rl, on, facts, rating_before)[0]
    if k == edition_for(rl, on).k_top:
        return ()  # K 10 for a 2400: no unknown fact could change it
    found: list[Assumption] = []
    # The recorded facts describe PLAYER_FACTS_LISTS; elsewhere the official K of a list
    # is what records them.
    on_the_list = AddOfficial(rl, with_k=True)
    facts_here = rl in PLAYER_FACTS_LISTS
    # the other count: none (the 30+ of a player found rated), or 30 (a first rating's)
    first = state.first_rating
    other = 0 if first is None else max(facts.rated_games, GAMES_COMPLETED_WHEN_UNKNOWN)
    if (
        not state.games_known
        and derive_k_why(rl, on, replace(facts, rated_games=other), rating_before)[0] != k
    ):
        fact = PlayerFact.RATED_GAMES
        advice = SetPlayerFact(fact) if facts_here else on_the_list
        found.append(Assumption(fact, advice, first_rating=first))
    if (
        birth_year is None
        and derive_k_why(rl, on, replace(facts, birth_year=on.year - 12), rating_before)[0] != k
    ):
        fact = PlayerFact.BIRTH_YEAR
        found.append(Assumption(fact, SetPlayerFact(fact)))
    if ask_2400 and derive_k_why(rl, on, replace(facts, ever_2400=True), rating_before)[0] != k:
        fact = PlayerFact.EVER_2400
        found.append(Assumption(fact, SetPlayerFact(fact) if facts_here else on_the_list))
    return tuple(found)
