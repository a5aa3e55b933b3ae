"""One rating period of a rated player (spec section 1): per game, per tournament, per period.

Read next to FIDE's Handbook: for each game D = Ro - Ropp, capped per the edition of the
tournament's start; PD from table 8.1.2; change = score - PD. K from the player facts (or
given), cut by the 700 rule over all the period's games; the period change K x sum, rounded
once, .5 away from zero; below the floor the player is published as unrated. From the Jul
2009 list to the Jun 2017 list (`Edition.k_by_tournament_start`) a tournament is rated with
the K the player had at its start (`TournamentIn.k_start`), the change is the sum of each
tournament's K x sum, still rounded once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from tracker.errors import BadInput
from tracker.fide import policies
from tracker.fide.adjust import one_off_adjustment
from tracker.fide.editions import CapKind, Edition, edition_for
from tracker.fide.k import (
    Cut700,
    KAtStart,
    KSaid,
    KSource,
    KWhy,
    PlayerFacts,
    apply_700_rule,
    k_said,
    seeded_facts,
)
from tracker.fide.rounding import round_change
from tracker.fide.tables import expected_score
from tracker.model import NotRated, RatingList

SCORES = (Fraction(0), Fraction(1, 2), Fraction(1))
_SCORE_DECIMAL = {Fraction(0): Decimal(0), Fraction(1, 2): Decimal("0.5"), Fraction(1): Decimal(1)}


class EngineWhy(StrEnum):
    """Why the engine publishes no rating, or another than it computed (a value
    `tracker.reports` words with the numbers of `EngineReason`)."""

    BELOW_FLOOR = "below-floor"  # a rated player's result below the floor: unrated
    FIRST_TOO_FEW_GAMES = "first-too-few-games"  # fewer games against rated opponents
    FIRST_CAPPED = "first-capped"  # a first rating above the edition's cap: the cap
    FIRST_BELOW_FLOOR = "first-below-floor"  # a first rating below the floor: none


@dataclass(frozen=True)
class EngineReason:
    """`why` with its numbers: `value` is the games counted (FIRST_TOO_FEW_GAMES) or the
    rating computed (FIRST_CAPPED, FIRST_BELOW_FLOOR; 0 for BELOW_FLOOR), `limit` the games
    needed, the cap or the floor."""

    why: EngineWhy
    value: int
    limit: int


@dataclass(frozen=True)
class GameIn:
    opponent_rating: int | None  # None: opponent unrated (does not count for a rated player)
    score: Fraction  # 1, 1/2, 0
    label: str = ""  # opponent name, for display


@dataclass(frozen=True)
class TournamentIn:
    start: dt.date  # tournament start: decides the per-game edition (cap)
    own_rating: int | None  # Ro used in this tournament (None: the rating before the period)
    games: tuple[GameIn, ...]
    label: str = ""
    # The K the player had at the tournament's start (the K of the list in force on its start
    # date, before the 700 rule), with why (None: not known); None: the period's K. Used only
    # when the period's edition rates each tournament with it (`Edition.k_by_tournament_start`)
    # and no K is given to `rate_period`.
    k_start: int | None = None
    k_start_reason: KAtStart | None = None


@dataclass(frozen=True)
class GameOut:
    opponent_rating: int | None
    label: str
    difference: int | None  # true D = Ro - Ropp
    difference_used: int | None  # after the cap of the edition
    capped: bool
    expected: Decimal | None  # PD
    score: Fraction
    change: Decimal | None  # score - PD (None when not counted)
    k_change: Decimal | None  # K x change
    counted: bool
    reason: NotRated | None  # why not counted


@dataclass(frozen=True)
class TournamentOut:
    label: str
    start: dt.date
    own_rating: int | None
    games: tuple[GameOut, ...]
    games_counted: int
    points: Fraction
    expected: Decimal
    change: Decimal  # sum of (score - PD) over counted games
    k_change: Decimal  # K x change
    k: int  # the K of this tournament: the period's, or its start's (after the 700 rule)
    k_reason: KSaid | None  # why, when it is not the period's K (None otherwise)
    k_start: int | None = None  # the K given in TournamentIn.k_start (kept for what-ifs)
    k_start_reason: KAtStart | None = None


@dataclass(frozen=True)
class PeriodOut:
    rating_list: RatingList
    list_date: dt.date
    rating_before: int
    k: int  # K used (after the 700 rule)
    k_base: int  # K before the 700 rule
    k_reason: KSaid  # why `k_base`, and the 700 rule's cut to `k`
    games: int  # counted games in the period
    points: Fraction
    expected: Decimal
    change_exact: Decimal  # K x sum of changes, exact
    change: int  # round_change(change_exact)
    rating_after: int | None  # None when the result falls below the floor (unrated)
    reason: EngineReason | None  # BELOW_FLOOR: the result is published as unrated
    tournaments: tuple[TournamentOut, ...]
    edition: str = ""  # the edition of the list date (name)
    floor: int = 0

    @property
    def k_why(self) -> KWhy | None:
        """Why section 3 gave `k_base` (None: K given, or official K)."""
        return self.k_reason.why

    @property
    def k_by_tournament(self) -> bool:
        """Whether a tournament of the period was rated with another K than the period's
        (`Edition.k_by_tournament_start`: the K of the list in force at its start)."""
        return any(t.k != self.k for t in self.tournaments)


def check_score(score: Fraction) -> Decimal:
    """The score as an exact Decimal; anything but 1, 1/2 or 0 is BadInput."""
    try:
        return _SCORE_DECIMAL[score]
    except (KeyError, TypeError):
        raise BadInput(f"a game score must be 1, 1/2 or 0, not {score}") from None


def _cap_plan(ro: int, opponents: list[int | None], edition: Edition) -> set[int]:
    """Indexes of the games whose |D| is capped, under the edition of the tournament start."""
    if edition.cap_exempt_from is not None and ro >= edition.cap_exempt_from:
        return set()
    over = [
        (abs(ro - r), ro - r, -i, i)
        for i, r in enumerate(opponents)
        if r is not None and abs(ro - r) > edition.cap
    ]
    if not over:
        return set()
    if edition.cap_kind is CapKind.EVERY_GAME:
        return {i for *_, i in over}
    if not policies.CAP_ONCE_APPLIES_TO_LOWER_SIDE:
        over = [o for o in over if o[1] > 0]
    return {max(over)[3]} if over else set()


def _excluded_600(ro: int, opp: int, edition: Edition) -> bool:
    return edition.exclude_600 and abs(ro - opp) >= 600 and max(ro, opp) > 2600


def _rate_tournament(
    t: TournamentIn, ro: int, rating_list: RatingList
) -> tuple[list[tuple[GameIn, int | None, bool, Decimal | None]], Edition]:
    edition = edition_for(rating_list, t.start)
    counted: list[int | None] = []
    for g in t.games:
        check_score(g.score)
        r = g.opponent_rating
        counted.append(None if r is None or _excluded_600(ro, r, edition) else r)
    capped = _cap_plan(ro, counted, edition)
    rows: list[tuple[GameIn, int | None, bool, Decimal | None]] = []
    for i, g in enumerate(t.games):
        r = counted[i]
        if r is None:
            rows.append((g, None, False, None))
            continue
        d = ro - r
        used = max(-edition.cap, min(edition.cap, d)) if i in capped else d
        rows.append((g, used, i in capped, expected_score(used)))
    return rows, edition


def rate_period(
    rating_before: int,
    tournaments: Sequence[TournamentIn],
    *,
    rating_list: RatingList,
    list_date: dt.date,
    facts: PlayerFacts,
    k: int | None = None,
    period_games: int | None = None,
    standard_rating: int | None = None,
    seeded: bool = False,
) -> PeriodOut:
    """Rate one period of a rated player on one list.

    `k` given: the base K (a user override); else `facts.official_k`; else `k_said`. The
    700 rule then cuts it over the period's game count: the counted games, or
    `period_games` when larger. `rating_after` is rating_before + the rounded change, before
    any one-off adjustment of the list (the caller applies `one_off_adjustment`); the floor is
    checked after that adjustment (`standard_rating` is needed for the Oct 2022 raise only).
    `seeded`: `rating_before` is not a rating published on this list but the standard rating
    an unrated rapid/blitz player is rated at (`standard_seed`); K then comes from
    `seeded_facts` (policy SEED_COUNTS_AS_PUBLISHED_FOR_K decides whether the seed counts).

    Where the list's edition rates each tournament with the K the player had at its start
    (`Edition.k_by_tournament_start`, spec section 2, Jul 2009), a tournament with a
    `k_start` uses it (cut by the 700 rule like the period's, where the edition has it); the
    others, and all of them when `k` is given, use the period's K. The change is then the
    sum over tournaments of K_t x (its sum of changes), still rounded once.

    The steps are the spec's articles: 1.5 the K (section 3), 1.2-1.4 each tournament's
    games at its Ro, 1.5 the 700 rule over the period's games, 1.6 the change rounded once,
    1.7 the floor.
    """
    rating_list = RatingList(rating_list)
    period_edition = edition_for(rating_list, list_date)
    k_reason = _base_k(rating_before, rating_list, list_date, facts, k, seeded)
    k_base = k_reason.k
    planned = []
    for t in tournaments:
        ro = t.own_rating if t.own_rating is not None else rating_before
        rows, _ = _rate_tournament(t, ro, rating_list)
        planned.append((t, ro, rows))
    n_counted = sum(1 for _, _, rows in planned for _, used, _, _ in rows if used is not None)
    n = max(n_counted, period_games or 0)
    k_used = apply_700_rule(k_base, n, period_edition)
    if k_used != k_base:
        k_reason = replace(k_reason, cut=Cut700(n, k_base, k_used))
    by_start = k is None and period_edition.k_by_tournament_start
    outs = [
        _tournament_out(t, ro, rows, *_tournament_k(t, k_used, n, period_edition, by_start))
        for t, ro, rows in planned
    ]
    change_exact = _change_exact(outs, k_used)
    rounded = round_change(change_exact)
    after = _floor(
        rating_before + rounded, rating_list, list_date, standard_rating, period_edition.floor
    )
    return PeriodOut(
        rating_list=rating_list,
        list_date=list_date,
        rating_before=rating_before,
        k=k_used,
        k_base=k_base,
        k_reason=k_reason,
        games=n_counted,
        points=sum((t.points for t in outs), Fraction(0)),
        expected=sum((t.expected for t in outs), Decimal(0)),
        change_exact=change_exact,
        change=rounded,
        rating_after=after,
        reason=None
        if after is not None
        else EngineReason(EngineWhy.BELOW_FLOOR, 0, period_edition.floor),
        tournaments=tuple(outs),
        edition=period_edition.name,
        floor=period_edition.floor,
    )


def _base_k(
    rating_before: int,
    rating_list: RatingList,
    list_date: dt.date,
    facts: PlayerFacts,
    k: int | None,
    seeded: bool,
) -> KSaid:
    """Article 1.5: the K the player carries on the previous list, before the 700 rule, and
    why: the K given (a user override), else the official K of the previous list, else the
    K section 3 derives from the facts (for a seeded player, the seed's)."""
    if k is not None:
        if k < 1:
            raise BadInput(f"K must be a positive whole number, not {k}")
        return KSaid(KSource.GIVEN, k)
    if facts.official_k is not None:
        return KSaid(KSource.OFFICIAL, facts.official_k)
    if seeded:
        facts, rating = seeded_facts(facts, rating_before), None
    else:
        rating = rating_before
    return k_said(rating_list, list_date, facts, rating)


def _tournament_k(
    t: TournamentIn, k_used: int, n: int, edition: Edition, by_start: bool
) -> tuple[int, KSaid | None]:
    """The K of one tournament, and why when it is not the period's: the period's K (article
    1.5: the same for every tournament), except where the edition rates each tournament with
    the K the player had at its start (Jul 2009 - Jun 2017): that K, cut by the 700 rule
    over the period's `n` games like the period's."""
    if not by_start or t.k_start is None:
        return k_used, None
    if t.k_start < 1:
        raise BadInput(f"K must be a positive whole number, not {t.k_start}")
    t_k = apply_700_rule(t.k_start, n, edition)
    if t_k == k_used:
        return k_used, None
    cut = Cut700(n, t.k_start, t_k) if t_k != t.k_start else None
    return t_k, KSaid(KSource.AT_START, t.k_start, start=t.k_start_reason, cut=cut)


def _tournament_out(
    t: TournamentIn,
    ro: int,
    rows: list[tuple[GameIn, int | None, bool, Decimal | None]],
    t_k: int,
    t_reason: KSaid | None,
) -> TournamentOut:
    """Article 1.4 game by game (Delta = score - PD, times the tournament's K), and the
    tournament's sums over its counted games."""
    kd = Decimal(t_k)
    games: list[GameOut] = []
    for g, used, capped, pd in rows:
        if used is None or pd is None:
            why = NotRated.UNRATED_OPPONENT if g.opponent_rating is None else NotRated.RB_600_RULE
            d_true = None if g.opponent_rating is None else ro - g.opponent_rating
            games.append(
                GameOut(
                    g.opponent_rating,
                    g.label,
                    d_true,
                    None,
                    False,
                    None,
                    Fraction(g.score),
                    None,
                    None,
                    False,
                    why,
                )
            )
            continue
        ch = check_score(g.score) - pd
        games.append(
            GameOut(
                g.opponent_rating,
                g.label,
                ro - (g.opponent_rating or 0),
                used,
                capped,
                pd,
                Fraction(g.score),
                ch,
                kd * ch,
                True,
                None,
            )
        )
    counted = [x for x in games if x.counted]
    change = sum((x.change or Decimal(0) for x in counted), Decimal(0))
    return TournamentOut(
        label=t.label,
        start=t.start,
        own_rating=ro,
        games=tuple(games),
        games_counted=len(counted),
        points=sum((x.score for x in counted), Fraction(0)),
        expected=sum((x.expected or Decimal(0) for x in counted), Decimal(0)),
        change=change,
        k_change=kd * change,
        k=t_k,
        k_reason=t_reason,
        k_start=t.k_start,
        k_start_reason=t.k_start_reason,
    )


def _change_exact(outs: Sequence[TournamentOut], k_used: int) -> Decimal:
    """Article 1.6, before the rounding: K x the sum of Delta over all tournaments when
    every tournament has the period's K (the product then has the scale of K x sum), else
    the sum of each tournament's K x its sum."""
    if all(t.k == k_used for t in outs):
        return Decimal(k_used) * sum((t.change for t in outs), Decimal(0))
    return sum((t.k_change for t in outs), Decimal(0))


def _floor(
    after: int,
    rating_list: RatingList,
    list_date: dt.date,
    standard_rating: int | None,
    floor: int,
) -> int | None:
    """Article 1.7: a result below the floor (after the list's one-off adjustment) is
    published as unrated (None); else the result as it is."""
    adjusted = one_off_adjustment(rating_list, list_date, after, standard_rating=standard_rating)
    check = adjusted[0] if adjusted else after
    if check < floor:
        return None
    return after
