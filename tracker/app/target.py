"""What score is needed: `tracker target`.

`target(store, player, TargetQuestion.of(...))` is the command's verb: the question with its
defaults (today, the next list), answered over the player's facts by the whole replay
(`needed_score_replayed`).

`needed_score(...)` answers "how many points do I need in a tournament of N games against
these opponents to reach RATING on the next list?". It is pure (no database): the caller
hands over what the open period already holds (the rating before it, the tournaments
already played in it, the player facts or the official K), and the new tournament is added
to that same period and rated through the engine (`tracker.fide.rate_period`), so the games
already played count with their changes and with their number for the 700 rule and K.

The change of a period is K x (points - sum of expected scores), linear in the points of
the new tournament however they are spread over its games; so the answer is the smallest
number of half points whose rounded change reaches the target, found by trying every half
point from 0 to N through the engine itself (no second formula to drift from the rules).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from tracker.errors import BadInput
from tracker.fide import GameIn, PeriodOut, PlayerFacts, TournamentIn, rate_period
from tracker.fide.editions import JuniorRule, KScheme, edition_for
from tracker.fide.k import KSaid, KWhy
from tracker.model import MAX_RATING, Period, PlayerRef, RatingList, Result
from tracker.periods import (
    Assumption,
    GameFact,
    PeriodRow,
    ReplayInputs,
    TournamentFact,
    default_period,
    replay,
)

if TYPE_CHECKING:
    from tracker.store import Store

MAX_GAMES = 200
MAX_TOURNAMENT_GAMES = 1000
"""The most games `target --games` takes (the longest events have a few hundred)."""
NEW_TOURNAMENT = "the new tournament"
GAP_MONTHS = 6
"""A target list this many months or more after the last games and official rating is
planned on a rating carried over that long: the answer says so."""


@dataclass(frozen=True)
class TargetStep:
    """The rating on the next list for one score in the new tournament."""

    points: Fraction
    change_exact: Decimal | None  # None: a first rating (no change)
    rating_after: int | None


@dataclass(frozen=True)
class TargetOut:
    """The answer of `needed_score`."""

    target: int
    rating_list: RatingList
    period: Period  # the list the new tournament is expected on
    rating_before: int | None  # None: unrated before the period (a first rating)
    games_already: int  # counted games already in the open period
    games: int  # games of the new tournament
    opponents: tuple[int, ...]
    expected: Decimal  # sum of the expected scores of the new games
    k: int | None  # K of the period with the new games (after the 700 rule); None unrated
    k_reason: KSaid | None  # None: a first rating
    points_needed: Fraction | None  # None: out of reach
    rating_needed: int | None  # the rating reached with points_needed
    min_rating: int | None  # with 0 points
    max_rating: int | None  # with N points
    steps: tuple[TargetStep, ...]  # every half point from 0 to N
    # the facts K rested on that nobody recorded (the period row's, as `history` says them)
    assumptions: tuple[Assumption, ...] = ()
    # the lists of the player's last games and last official rating on this list, before
    # or at `period` (None: none)
    last_games: Period | None = None
    last_official: Period | None = None
    list_assumed_games: int = 0  # games already in the period put on this list by assumption
    rating_at_last_data: int | None = None  # the rating published after `last_data`
    # why section 3 gave K (None: K given, an official K, or no K), the K before the 700
    # rule and the period's games the rule counted
    k_why: KWhy | None = None
    k_base: int | None = None
    k_games: int = 0
    k_given: bool = False  # K was given (`target --k`, a what-if)

    @property
    def last_data(self) -> Period | None:
        """The latest list the rating before rests on: the last games or official rating."""
        known = [p for p in (self.last_games, self.last_official) if p is not None]
        return max(known) if known else None

    @property
    def months_since_data(self) -> int | None:
        last = self.last_data
        if last is None:
            return None
        return (self.period.year - last.year) * 12 + self.period.month - last.month

    @property
    def data_gap(self) -> int | None:
        """The months from the last data to the target list when they are GAP_MONTHS or
        more (the answer rests on a rating carried over that long), else None."""
        months = self.months_since_data
        return None if months is None or months < GAP_MONTHS else months

    @property
    def reachable(self) -> bool:
        return self.points_needed is not None

    @property
    def already_reached(self) -> bool:
        """The target is reached whatever the score (0 points suffice)."""
        return self.points_needed == 0


def opponents_from(
    games: int | None, average: int | None, ratings: Sequence[int]
) -> tuple[int, ...]:
    """The opponents' ratings from the command line: N games against AVG, or the ratings."""
    if games is not None and games > MAX_TOURNAMENT_GAMES:  # (a list of that many opponents)
        raise BadInput(
            f"--games {games:,}: a tournament of more than "
            f"{MAX_TOURNAMENT_GAMES:,} games? give the games of one tournament"
        )
    if ratings and average is not None:
        raise BadInput("give either --opponents AVG or --opponent R (repeated), not both")
    if ratings:
        if games is not None and games != len(ratings):
            raise BadInput(
                f"--games {games} but {len(ratings)} --opponent ratings given: give one "
                "--opponent per game, or drop --games"
            )
        opps = tuple(ratings)
    else:
        if average is None:
            raise BadInput(
                "give the opponents: --opponents AVG --games N, or --opponent R once per game"
            )
        if games is None:
            raise BadInput("--opponents AVG needs --games N (the number of games)")
        opps = (average,) * games
    if not opps:
        raise BadInput("--games must be at least 1")
    if len(opps) > MAX_GAMES:
        raise BadInput(f"{len(opps)} games is more than the {MAX_GAMES} this command handles")
    for r in opps:
        if not 0 < r <= MAX_RATING:
            raise BadInput(f"opponent rating {r} is not a rating (give a number like 1850)")
    return opps


def _new_tournament(
    start: dt.date, own: int, opponents: Sequence[int], points: Fraction
) -> TournamentIn:
    """The new tournament with `points` spread as wins, then one draw, then losses.

    The change does not depend on how the points are spread (it is linear in the score);
    spreading them this way keeps every game a legal score.
    """
    games: list[GameIn] = []
    left = points
    for i, r in enumerate(opponents):
        score = Fraction(1) if left >= 1 else (Fraction(1, 2) if left > 0 else Fraction(0))
        left -= score
        games.append(GameIn(opponent_rating=r, score=score, label=f"opponent {i + 1}"))
    return TournamentIn(start=start, own_rating=own, games=tuple(games), label=NEW_TOURNAMENT)


def _first_reaching(steps: Sequence[TargetStep], target: int) -> tuple[Fraction | None, int | None]:
    """The fewest points (and the rating they give) that reach `target`, or (None, None)."""
    for step in steps:
        if step.rating_after is not None and step.rating_after >= target:
            return step.points, step.rating_after
    return None, None


def needed_score(
    target: int,
    *,
    rating_before: int,
    played: Sequence[TournamentIn],
    opponents: Sequence[int],
    rating_list: RatingList,
    period: Period,
    facts: PlayerFacts,
    start: dt.date,
    k: int | None = None,
    period_games: int | None = None,
) -> TargetOut:
    """The points needed in a new tournament to reach `target` on the list of `period`.

    `rating_before` is the rating published on the list before `period` (the Ro of the new
    tournament too: it starts under that list); `played` the tournaments already in the open
    period; `facts`/`k` what decides K (as the replay would pass them); `start` the new
    tournament's start date (decides the per-game rules); `period_games` the games already
    counted in the period when larger than those in `played` (for the 700 rule).
    """
    if not 0 < target <= MAX_RATING:
        raise BadInput(f"target {target} is not a rating (give a number like 1900)")
    if not opponents:
        raise BadInput("the new tournament needs at least one game")
    n = len(opponents)
    total_games = None if period_games is None else period_games + n
    steps: list[TargetStep] = []
    outs: list[PeriodOut] = []
    for halves in range(2 * n + 1):
        pts = Fraction(halves, 2)
        new = _new_tournament(start, rating_before, opponents, pts)
        out = rate_period(
            rating_before,
            [*played, new],
            rating_list=rating_list,
            list_date=period.list_date,
            facts=facts,
            k=k,
            period_games=total_games,
        )
        outs.append(out)
        steps.append(
            TargetStep(points=pts, change_exact=out.change_exact, rating_after=out.rating_after)
        )
    needed, rating_needed = _first_reaching(steps, target)
    last = outs[-1]
    new_out = next(t for t in last.tournaments if t.label == NEW_TOURNAMENT)
    return TargetOut(
        target=target,
        rating_list=rating_list,
        period=period,
        rating_before=rating_before,
        games_already=last.games - new_out.games_counted,
        games=n,
        opponents=tuple(opponents),
        expected=new_out.expected,
        k=last.k,
        k_reason=last.k_reason,
        points_needed=needed,
        rating_needed=rating_needed,
        min_rating=steps[0].rating_after,
        max_rating=steps[-1].rating_after,
        steps=tuple(steps),
        k_why=last.k_why,
        k_base=last.k_base,
        k_games=max(last.games, total_games or 0),
    )


NEW_ID = -1  # the new tournament's id in the what-if replay (store ids are positive)


def _new_facts(
    inputs: ReplayInputs,
    period: Period,
    start: dt.date,
    opponents: Sequence[int],
    points: Fraction,
    k: int | None = None,
) -> ReplayInputs:
    t = TournamentFact(
        id=NEW_ID,
        name=NEW_TOURNAMENT,
        start=start,
        end=start,
        pinned_period=period,
        pinned_list=inputs.rating_list,
    )
    games: list[GameFact] = []
    left = points
    for i, r in enumerate(opponents):
        score = Fraction(1) if left >= 1 else (Fraction(1, 2) if left > 0 else Fraction(0))
        left -= score
        result = {Fraction(1): Result.WHITE_WINS, Fraction(0): Result.BLACK_WINS}.get(
            score, Result.DRAW
        )
        games.append(
            GameFact(
                id=-(i + 1),
                tournament_id=NEW_ID,
                date=start,
                round=str(i + 1),
                white=True,
                opponent_id=-(i + 1),
                opponent=f"opponent {i + 1}",
                own_elo=None,
                opponent_elo=r,
                result=str(result),
                score=score,
                rating_list=inputs.rating_list,
            )
        )
    # every other fact as the player's replay has it (the imported lists too: `history`'s)
    return replace(
        inputs,
        games=[*inputs.games, *games],
        tournaments=[*inputs.tournaments, t],
        k_given={period: k} if k is not None else {},
    )


def needed_score_replayed(
    target: int,
    inputs: ReplayInputs,
    *,
    opponents: Sequence[int],
    period: Period,
    start: dt.date,
    k: int | None = None,
) -> TargetOut:
    """`needed_score` through the whole replay: the new tournament is added to the player's
    facts, pinned to `period`, and the replay runs once per half point. So the rating before
    the period, the tournaments already in it, K (and its facts), the 700 rule, one-off
    adjustments and even a first rating come out exactly as `tracker history` shows them.
    """
    if not 0 < target <= MAX_RATING:
        raise BadInput(f"target {target} is not a rating (give a number like 1900)")
    if not opponents:
        raise BadInput("the new tournament needs at least one game")
    if start >= period.list_date:
        raise BadInput(
            f"a tournament starting on {start.isoformat()} cannot be rated on the "
            f"{period} list: give an earlier --start or a later --period"
        )
    n = len(opponents)
    rows: list[PeriodRow] = []
    for halves in range(2 * n + 1):
        rep = replay(_new_facts(inputs, period, start, opponents, Fraction(halves, 2), k))
        row = rep.row(period)
        if row is None or not any(p.unit.tournament.id == NEW_ID for p in row.tournaments):
            since = f" (it starts from the official {rep.start} list)" if rep.start else ""
            raise BadInput(
                f"the replay has no {period} list to add the tournament to{since}: give a "
                "later --period (a list month from 2008 on, after the starting rating)"
            )
        rows.append(row)
    steps = tuple(
        TargetStep(
            points=Fraction(h, 2),
            change_exact=r.change_exact if r.rating_before is not None else None,
            rating_after=r.replayed,
        )
        for h, r in enumerate(rows)
    )
    needed, rating_needed = _first_reaching(steps, target)
    last = rows[-1]
    earlier = [r for r in rep.rows if r.period < period]
    own = [p for p in last.tournaments if p.unit.tournament.id != NEW_ID]
    last_games = period if own or last.not_counted else None
    if last_games is None:
        last_games = next((r.period for r in reversed(earlier) if r.tournaments), None)
    last_official = next(
        (r.period for r in reversed([*earlier, last]) if r.official_rating is not None), None
    )
    known = [p for p in (last_games, last_official) if p is not None]
    data_row = rep.row(max(known)) if known else None
    new_out = None
    if last.out is not None:
        new_out = next((t for t in last.out.tournaments if t.label == NEW_TOURNAMENT), None)
    new_games = new_out.games_counted if new_out is not None else n
    return TargetOut(
        target=target,
        rating_list=inputs.rating_list,
        period=period,
        rating_before=last.rating_before,
        games_already=last.games - new_games,
        games=n,
        opponents=tuple(opponents),
        expected=new_out.expected if new_out is not None else Decimal(0),
        k=last.k,
        k_reason=last.out.k_reason if last.out is not None else None,
        points_needed=needed,
        rating_needed=rating_needed,
        min_rating=steps[0].rating_after,
        max_rating=steps[-1].rating_after,
        steps=steps,
        assumptions=last.assumptions,
        last_games=last_games,
        last_official=last_official,
        list_assumed_games=sum(1 for p in own for g in p.counted if g.list_assumed),
        rating_at_last_data=None if data_row is None else data_row.published,
        k_why=None if last.out is None else last.out.k_why,
        k_base=None if last.out is None else last.out.k_base,
        k_games=0 if last.out is None else last.out.games,
        k_given=k is not None and last.out is not None,
    )


def rules_k(rating_list: RatingList, period: Period) -> tuple[int, ...]:
    """The K values the rules of `period`'s list know (spec section 3: 10, 20 and 40 from
    Jul 2014; 10, 15, 25 or 30 before; one K for everyone on rapid and blitz before Oct
    2022), in increasing order."""
    e = edition_for(rating_list, period.list_date)
    if e.k_scheme is KScheme.FLAT:
        return (e.k_flat,)
    ks = {e.k_top, e.k_mid, e.k_new}
    if e.junior is not JuniorRule.NONE:
        ks.add(e.k_junior)
    return tuple(sorted(ks))


@dataclass(frozen=True)
class TargetQuestion:
    """What `tracker target` asks: RATING on the list of `period`, from a new tournament
    against `opponents` starting on `start`."""

    rating: int
    rating_list: RatingList
    opponents: tuple[int, ...]
    start: dt.date
    period: Period
    k: int | None = None  # a K given (a what-if), one of the rules' for that list

    @classmethod
    def of(
        cls,
        rating: int,
        rating_list: RatingList,
        opponents: Sequence[int],
        start: dt.date | None = None,
        period: Period | None = None,
        k: int | None = None,
    ) -> TargetQuestion:
        """The question with its defaults: the tournament starts today, and is rated on the
        first list after its start (the era's closing rule). A K given must be one the
        rules of that list know (`rules_k`)."""
        day = start if start is not None else dt.date.today()
        when = period if period is not None else default_period(day, rating_list)
        if k is not None:
            known = rules_k(rating_list, when)
            if k not in known:
                raise BadInput(
                    f"--k {k} is not a K of the {rating_list} rules for the {when} list: "
                    f"give {' or '.join(', '.join(map(str, known)).rsplit(', ', 1))}"
                )
        return cls(rating, rating_list, tuple(opponents), day, when, k)


def target(store: Store, player: PlayerRef, question: TargetQuestion) -> TargetOut:
    """`needed_score_replayed` over the player's facts in the store (the replay of
    `tracker history`, standard first for rapid and blitz: tracker.app.histories)."""
    from tracker.app.histories import inputs_for

    rl = question.rating_list
    inputs = inputs_for(store, player.id, [rl])[rl]
    return needed_score_replayed(
        question.rating,
        inputs,
        opponents=question.opponents,
        period=question.period,
        start=question.start,
        k=question.k,
    )
