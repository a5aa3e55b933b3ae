"""Every UNSETTLED point of the FIDE record, with the policy the tracker follows, in one place.

`shared/spec/fide-rules.md` marks these points UNSETTLED: the public record does not say what
FIDE did. Each constant below is the policy, named, documented and listed in docs/rules.md,
so a user can see what is assumed (and what to do when FIDE's list disagrees: pin the
tournament to a list, record the official K, or record the official rating).

Most constants are read by the engine; a few only name a choice the code makes in one place
(PER_GAME_RULES_BY / PERIOD_RULES_BY: `rate_period`; P_ROUNDING: `tables.dp_for`;
INCREMENT_FROM_MOVE_ONE: `timecontrol.minutes_for_60_moves`;
FIRST_RATING_GAMES_COUNT_TOWARD_30: the period replay, which adds them to the games count;
ZERO_FIRST_EVENT_JUDGED_ON: the period replay, which trims the pool before `first_rating`;
PERFORMANCE_CAP: `performance_rating`). SEED_COUNTS_AS_PUBLISHED_FOR_K is read by
`k.seeded_facts` and `rate_period(..., seeded=True)`. K_BY_TOURNAMENT_START_UNTIL is read by
`editions` (the edition of that date clears `Edition.k_by_tournament_start`).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

#: Which date picks the edition. Per-game rules (cap, 600 exclusion, table) follow the
#: tournament's start date; K, the 700 rule, rounding, floors, first ratings and the one-off
#: adjustments follow the list date.
PER_GAME_RULES_BY = "tournament start"
PERIOD_RULES_BY = "list date"

#: The K 25 -> 30 change for new players: 2011 is certain, the month is not.
K30_FROM = dt.date(2011, 7, 1)

#: Rapid & blitz before 2022: their chapter capped D at 735 but FIDE reportedly applied 400.
RAPID_BLITZ_CAP_BEFORE_2022 = 400

#: The junior K 40 "to the end of the year of the 18th birthday" and the 700 rule came in
#: 2014 or 2017; policy: 2017.
JUNIOR_END_OF_YEAR_AND_700_RULE_FROM = dt.date(2017, 7, 1)

#: "K fixed by the rating at the tournament start" (spec section 2, from the Jul 2009 list):
#: each tournament of a period is rated with the K the player had on the list in force on its
#: start date. The rulebook does not say when this ended; section 1 (current rules) gives one
#: K to every tournament of the period, the K that the 700 rule cuts over *all* the period's
#: games. Policy: it ended with the 700 rule (the Jul 2017 edition), the first edition whose
#: text needs one K per period (a per-tournament K cannot be cut over the period's n). The
#: other reading, that it ended with the K 40/20/10 scheme of Jul 2014, is this constant set
#: to 2014-07-01. An edition field (`Edition.k_by_tournament_start`), set from this date.
K_BY_TOURNAMENT_START_UNTIL = JUNIOR_END_OF_YEAR_AND_700_RULE_FROM

#: 2014-2017 junior rule "until the 18th birthday" with only a birth year known: a junior is a
#: player whose list year minus birth year is at most this (so surely under 18). "The list"
#: is the one that publishes the K, the previous list of the period (spec section 3 rule 2,
#: `k.junior_year`).
JUNIOR_BIRTHDAY_RULE_MAX_AGE = 17
#: From 2017: list year minus birth year at most 18 (to the end of the 18th birthday year),
#: the year of the previous list: born 2007, the January 2026 list (December 2025 games) is
#: still rated with K 40, February 2026 on with K 20.
JUNIOR_END_OF_YEAR_MAX_AGE = 18

#: 2022 - Feb 2024 "cap once per tournament": the lower-rated side gets the same single-game
#: cap (the game with the largest |D| above the cap). Ties in |D| prefer the positive D
#: (the game where the cap benefits the player), then the first game given.
CAP_ONCE_APPLIES_TO_LOWER_SIDE = True

#: Whether the games behind a first rating count toward the 30 games of a new player: yes.
FIRST_RATING_GAMES_COUNT_TOWARD_30 = True

#: p in table 8.1.1 is rounded to two decimals, half up.
P_ROUNDING = "two decimals, half up"

#: Before Jul 2014 a first rating above 50% got +12.5 per half point; 15 in the K 30 era.
FIRST_BONUS_K25 = Decimal("12.5")
FIRST_BONUS_K30 = Decimal("15")

#: Before Jul 2014 the pooling window for a first rating is not in the spec: policy 26 months
#: as from 2014. The window counts back from the list month: a tournament is pooled when it
#: started on or after the 1st of the month `months` before the list month (26 months before
#: a Nov 2025 list is 1 Sep 2023) and not after the list date.
FIRST_WINDOW_MONTHS_BEFORE_2014 = 26

#: The floor before Jul 2009 is not in the spec: policy 1400 (FIDE lowered it to 1200 in 2009).
FLOOR_BEFORE_JUL_2009 = 1400

#: Rapid & blitz before Jul 2014 (first ratings there): as standard, 9 games, +12.5.
#: Rapid & blitz before the first lists (Jan-Jun 2012): floor 1000 as from Jul 2012.
RAPID_BLITZ_FLOOR_2012 = 1000

#: Mar 2024 compression: applied to the February rating plus the March period's change,
#: rounded half up, on all three lists.
COMPRESSION_BASE = "February rating + March change"
COMPRESSION_LISTS = ("standard", "rapid", "blitz")

#: Oct 2022 rapid & blitz raise to standard - 100: applied, like the compression, to the
#: rating after the October period's change, against the standard rating of the same list.
RAISE_BASE = "rating after the October 2022 change"

#: The rapid/blitz time-control bands of 2012-2013 (rapid from 15, blitz from 5 to under 15
#: minutes for 60 moves) hold for games before this date; after it rapid is over 10 and under
#: 60, blitz over 3 and at most 10.
TIME_BANDS_CHANGE = dt.date(2014, 1, 1)

#: A PGN TimeControl with several periods: an increment written on any period is taken to run
#: from move 1 (FIDE's classic 90+30 controls), also when that period is not reached within
#: 60 moves (`40/7200:20/3600:900+30` -> 120 + 60 + 60 x 30 s = 210 minutes); with several
#: increments the largest counts; a final "moves/seconds" period repeats.
INCREMENT_FROM_MOVE_ONE = True

#: The list-closing rule: a tournament belongs to the first list whose date is at least this
#: many days after its last round (quarterly era: it must end before the list date).
CLOSING_DAYS = {"quarterly": 1, "two-monthly": 7, "monthly": 3}

#: Performance rating: average opponent rating (no cap) + dp(p), rounded to a whole number.
PERFORMANCE_CAP = None

#: A first rating computed under the Mar 2024 formula (two fictitious 1800 draws) and
#: published on the Mar 2024 list is on the post-compression scale already: it is NOT
#: compressed (the compression applies to ratings carried from the February list).
COMPRESS_FIRST_RATING_OF_2024_FORMULA = False

#: A player who drops below the floor (published as unrated) and later gets a new first
#: rating keeps the rated games completed before the drop (games completed stay completed):
#: the count is not reset, so the 30-game newcomer K does not return.
RATED_GAMES_KEPT_AFTER_FLOOR_DROP = True

#: "Zero in the first event" (first ratings, from Jul 2014; rapid and blitz before 2022: less
#: than 1 point) is judged on the pool the first rating is computed from, i.e. after the
#: 26-month trim: an older event that fell out of the window is not the first event any
#: more (names the choice `tracker.periods` makes).
ZERO_FIRST_EVENT_JUDGED_ON = "the pool after the 26-month trim"

#: A first event disregarded (a zero score; rapid and blitz before 2022, under 1 point)
#: leaves no trace: the next event is then the player's first event and is judged the same
#: way, so a run of zero events never gives a rating (spec section 4: "No list ever
#: published a rating computed from a player's zero score"). False: only the earliest event
#: of the pool is judged (`first.first_rating`).
FIRST_EVENT_RULE_REPEATS = True

#: Before Jul 2014 an event counts toward a first rating only when the player met at least
#: this many rated opponents and scored at least 1 point against them (FIDE news of 13 Jul
#: 2009, said of a Swiss; a score of 0 or 1/2 in an event is disregarded, 2003 Handbook).
#: The tracker cannot tell a Swiss from a round robin: policy, every event (an edition
#: field, `Edition.event_min_rated_opponents`, 2008 - Jun 2014, standard list).
FIRST_EVENT_MIN_RATED_OPPONENTS_BEFORE_2014 = 3

#: A player unrated in rapid/blitz but rated in standard is rated at the standard rating from
#: Mar 2024 (spec section 4, `first.standard_seed`); sections 3 and 4 do not say whether that
#: seed is "a published rating" for K. Policy (True): it counts as the rating published on
#: that list before the seeded period, for good, exactly as a published rating does: a seed
#: of 2400 or more is "a published rating of 2400 or more, ever, on that list" (rule 1: K 10
#: in the seeded period and permanently), a seed of 2300 or more means the rating has reached
#: 2300 (rule 2: no junior K 40 from then on). False: the seed is only where the rating
#: starts; K comes from the player's facts on that list alone (K 40 with no game there).
SEED_COUNTS_AS_PUBLISHED_FOR_K = True
