"""The FIDE rating rules engine: pure, standard library only, exact arithmetic.

Read next to `shared/spec/fide-rules.md` (the spec of the rules, with its UNSETTLED points) and
docs/rules.md. Editions are values chosen by date (`edition_for`); every UNSETTLED policy
lives in `tracker.fide.policies`; one rounding function (`round_half_away`/`round_change`).
"""

from __future__ import annotations

from tracker.fide.adjust import one_off_adjustment
from tracker.fide.calendar import ListCalendar, list_calendar
from tracker.fide.editions import EDITIONS, Edition, edition_for
from tracker.fide.first import FirstRatingOut, first_rating, seeds_from_standard, standard_seed
from tracker.fide.k import (
    Cut700,
    KAtStart,
    KSaid,
    KSource,
    PlayerFacts,
    apply_700_rule,
    derive_k_why,
    k_said,
    seeded_facts,
)
from tracker.fide.performance import performance_rating
from tracker.fide.period import (
    EngineReason,
    EngineWhy,
    GameIn,
    GameOut,
    PeriodOut,
    TournamentIn,
    TournamentOut,
    rate_period,
)
from tracker.fide.rounding import round_change, round_half_away
from tracker.fide.tables import dp_for, expected_score
from tracker.fide.timecontrol import TimeControlClass, classify_time_control

__all__ = [
    "EDITIONS",
    "Cut700",
    "Edition",
    "EngineReason",
    "EngineWhy",
    "FirstRatingOut",
    "GameIn",
    "GameOut",
    "KAtStart",
    "KSaid",
    "KSource",
    "ListCalendar",
    "PeriodOut",
    "PlayerFacts",
    "TimeControlClass",
    "TournamentIn",
    "TournamentOut",
    "apply_700_rule",
    "classify_time_control",
    "derive_k_why",
    "dp_for",
    "edition_for",
    "expected_score",
    "first_rating",
    "k_said",
    "list_calendar",
    "one_off_adjustment",
    "performance_rating",
    "rate_period",
    "round_change",
    "round_half_away",
    "seeded_facts",
    "seeds_from_standard",
    "standard_seed",
]
