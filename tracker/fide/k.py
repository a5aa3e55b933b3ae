"""K: the development coefficient, from the player facts, and the 700 rule (spec section 3)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from enum import StrEnum

from tracker.errors import BadInput
from tracker.fide import policies
from tracker.fide.editions import Edition, JuniorRule, KScheme, edition_for
from tracker.model import Period, RatingList


@dataclass(frozen=True)
class PlayerFacts:
    """What the tracker knows about a player on one list, before the period."""

    birth_year: int | None = None
    rated_games: int = 0  # rated games completed before this period, on this list
    ever_2400: bool = False  # a published rating >= 2400 ever, on this list
    reached_2300: bool = False  # rating has ever reached 2300 (junior rule)
    official_k: int | None = None  # K published on the previous list: wins over derived
    games_assumed: bool = False
    """`rated_games` is an assumption, not a known count (`tracker calc` without a count of
    rated games: K's reason says so and how to give it); False: known."""


def junior_year(list_date: dt.date) -> int:
    """The year whose age decides the junior K of the period rated on the list of
    `list_date`: the year of the previous list, the list that publishes this K (spec section
    3 rule 2; Handbook B02: K 40 "until the end of the year of their 18th birthday"). Only a
    January list's previous list lies in the year before, in every calendar: a junior born
    in 2007 plays December 2025 with K 40, rated on the January 2026 list with K 40; the K
    printed on the January 2026 list (20) is used from February."""
    return Period.of(list_date).prev().year


def _is_junior(edition: Edition, list_date: dt.date, birth_year: int | None) -> bool:
    if birth_year is None or edition.junior is JuniorRule.NONE:
        return False
    age = junior_year(list_date) - birth_year
    if edition.junior is JuniorRule.BEFORE_18TH_BIRTHDAY:
        return age <= policies.JUNIOR_BIRTHDAY_RULE_MAX_AGE
    return age <= policies.JUNIOR_END_OF_YEAR_MAX_AGE


def seeded_facts(facts: PlayerFacts, seed: int) -> PlayerFacts:
    """The facts of a rapid/blitz player rated at the standard rating `seed` (spec section 4,
    `first.standard_seed`), for K in the seeded period and in every later one.

    Policy SEED_COUNTS_AS_PUBLISHED_FOR_K: the seed counts as a rating published on the list,
    with what a published rating records (spec section 3): 2400 or more sets "2400 ever"
    (rule 1, K 10 for good), 2300 or more sets "reached 2300" (rule 2). Without the policy
    the facts are unchanged (and `derive_k_why` is given no rating: the seed is not published).
    """
    if not policies.SEED_COUNTS_AS_PUBLISHED_FOR_K:
        return facts
    return replace(
        facts,
        ever_2400=facts.ever_2400 or seed >= 2400,
        reached_2300=facts.reached_2300 or seed >= 2300,
    )


class KBasis(StrEnum):
    """Which rule of spec section 3 gave K (a value `tracker.reports` words)."""

    FLAT = "flat"  # the list's one K for everyone (rapid and blitz before Oct 2022)
    TOP = "2400"  # rule 1: a published 2400 ever
    JUNIOR = "junior"  # rule 2: a junior under 2300
    NEW_PLAYER = "new-player"  # rule 3: fewer than the edition's games completed
    ESTABLISHED = "established"  # rule 4


@dataclass(frozen=True)
class KWhy:
    """Why section 3 gave the K it gave, as values: the rule (`basis`), the games completed
    it counted, the birth year and the edition's junior rule (JUNIOR: when K 40 ends)."""

    basis: KBasis
    rated_games: int = 0
    birth_year: int | None = None
    junior: JuniorRule = JuniorRule.NONE

    @property
    def junior_until(self) -> int | None:
        """JUNIOR: the last year whose games the junior K rates: the year of the 18th
        birthday (Handbook B02, "until the end of the year of their 18th birthday"), or,
        under the 2014-2017 rule "before the 18th birthday" with only the birth year
        known, the year before it (policy JUNIOR_BIRTHDAY_RULE_MAX_AGE); None otherwise."""
        if self.basis is not KBasis.JUNIOR or self.birth_year is None:
            return None
        if self.junior is JuniorRule.BEFORE_18TH_BIRTHDAY:
            return self.birth_year + policies.JUNIOR_BIRTHDAY_RULE_MAX_AGE
        return self.birth_year + policies.JUNIOR_END_OF_YEAR_MAX_AGE


def derive_k_why(
    rating_list: RatingList, list_date: dt.date, facts: PlayerFacts, rating: int | None
) -> tuple[int, KWhy]:
    """The K for the period of `list_date`, in the spec's order of precedence, and why as
    values (`KWhy`).

    `rating` is the player's published rating before the period (it counts as history for
    the 2400 and 2300 thresholds); None: no published rating on the list, the facts alone
    decide (a player rated at a seed, `seeded_facts`). A junior's age is taken in the year
    of the previous list, the list that publishes this K (`junior_year`).
    """
    edition = edition_for(rating_list, list_date)
    if edition.k_scheme is KScheme.FLAT:
        return edition.k_flat, KWhy(KBasis.FLAT)
    if facts.ever_2400 or (rating is not None and rating >= 2400):
        return edition.k_top, KWhy(KBasis.TOP)
    if (
        _is_junior(edition, list_date, facts.birth_year)
        and not facts.reached_2300
        and (rating is None or rating < 2300)
    ):
        return edition.k_junior, KWhy(
            KBasis.JUNIOR, facts.rated_games, facts.birth_year, edition.junior
        )
    if facts.rated_games < edition.new_player_games:
        return edition.k_new, KWhy(KBasis.NEW_PLAYER, facts.rated_games)
    return edition.k_mid, KWhy(KBasis.ESTABLISHED, facts.rated_games)


class KSource(StrEnum):
    """Where a K came from (a value `tracker.reports` words)."""

    GIVEN = "given"  # a user override (`--k`)
    OFFICIAL = "official"  # the K printed on the previous list
    DERIVED = "derived"  # spec section 3, from the player facts (`KSaid.why`)
    AT_START = "at-start"  # the K the player had at a tournament's start (`KSaid.start`)


@dataclass(frozen=True)
class Cut700:
    """The 700 rule cut K `k` to `cut` over the period's `games` games (spec article 1.5)."""

    games: int
    k: int
    cut: int


@dataclass(frozen=True)
class KSaid:
    """Why a period (or a tournament) has the K it has, as values: where K came from
    (`source`), the K before the 700 rule (`k`), section 3's rule and the facts that word it
    where it was derived (`why`, the list, the edition's games of a new player, whether the
    games completed are an assumption), the list in force at a tournament's start
    (AT_START; None: not known) and the 700 rule's cut (None: not cut)."""

    source: KSource
    k: int
    why: KWhy | None = None
    rating_list: RatingList = RatingList.STANDARD
    new_player_games: int = 0
    games_assumed: bool = False
    start: KAtStart | None = None
    cut: Cut700 | None = None


@dataclass(frozen=True)
class KAtStart:
    """The K of the list `start_list`, in force at a tournament's start: the player's
    published `rating` on it and why it gave that K (`said`: official or derived)."""

    start_list: Period
    rating: int
    said: KSaid


def k_said(
    rating_list: RatingList, list_date: dt.date, facts: PlayerFacts, rating: int | None
) -> KSaid:
    """`derive_k_why`'s K and why, with what words it (`KSaid`, source DERIVED)."""
    k, why = derive_k_why(rating_list, list_date, facts, rating)
    return KSaid(
        KSource.DERIVED,
        k,
        why,
        RatingList(rating_list),
        edition_for(rating_list, list_date).new_player_games,
        facts.games_assumed,
    )


def apply_700_rule(k: int, games: int, edition: Edition) -> int:
    """K cut to the largest whole number with K x games <= 700, where the edition has the rule."""
    if k < 1:
        raise BadInput(f"K must be a positive whole number, not {k}")
    if not edition.rule_700 or games <= 0 or k * games <= 700:
        return k
    return 700 // games
