"""The replay's policies: what it assumes where FIDE's rules leave a question open or the
files say too little (each named in docs/rules.md and the README). The engine's own policies
are tracker.fide.policies."""

from __future__ import annotations

from tracker.fide.editions import NEW_PLAYER_GAMES
from tracker.model import NotRated, RatingList

ASSUMED_GAMES_WHEN_ESTABLISHED = NEW_PLAYER_GAMES
"""An official K below a new player's K shows 30 games completed, at least."""

GAMES_COMPLETED_WHEN_UNKNOWN = NEW_PLAYER_GAMES
"""Policy: a player the replay finds rated when it starts (an official entry, or their own
Elo tag in the first stored tournament), whose rated games completed nobody recorded
(`tracker player set --rated-games`) and no official K shows, has completed 30 or more: a
player with a published rating has nearly always played 30 rated games (a new player is
rated after 5, and most real users bring a season, not their first one). Where the count
decides K the history, next, check and explain say it was assumed, with the command that
records it. A player the replay rates for the first time is counted from its first rating,
and so is one whose starting official entry holds only games they played unrated (no Elo tag
of theirs): that entry is taken for their first rating, its games for the games completed
(said as an assumption where it decides K)."""

TAG_IS_EVIDENCE_OF_THE_LIST = True
"""Policy: the player's own Elo tag in a tournament is the rating of the list in force at its
start as the organiser printed it (spec 1.2). Where no official entry covers that list, the
replay re-anchors there when the tag differs from the replayed rating (several tournaments
started under it: the tag most of their games carry, or the replayed rating when it is one of
them; a tag the same event already carried under an earlier list, a team league's season
rating, is no new evidence; the disagreement is said), exactly as it re-anchors at
an official rating: a collection of a player's games follows their own published ratings
instead of drifting with every game the file lacks. Standard tags for the standard list,
rapid and blitz events' tags for those lists; rated games of tournaments not excluded only
(an online event's tags are that site's ratings). An official entry wins over tags. False:
tags are used only as each tournament's Ro."""

GAMES_A_DAY_NOT_STANDARD = 4
"""Policy: a player's games of one tournament on one day without a readable TimeControl,
this many or more, are no standard games (no standard event plays four rounds a day; a
weekend open may play three): they are not rated on the standard list, with a reason that
says how to put them on rapid or blitz (`tracker event set ID --list`), unless the round
numbers and the other days say the file's dates are wrong (WRONG_DATE_ONE_GAME_DAYS). A
game not rated anyway (an online event's) keeps its own reason; a tournament the user put
on a list is left as they said."""

MATCH_GAMES_A_DAY_NOT_STANDARD = 2
"""Policy: a player's games without a readable TimeControl against the same opponent in the
same numbered round ("2.1", "2.2": a knock-out's match), this many or more on one day, are
no standard games: a standard match plays one game a day, so they are a rapid or blitz
match or its tie-break. Where the event's other matches start with classical games one a
day and a match's games are all dated on one day, the file's dates are wrong: that match's
first games, as many as the others play one a day, stay standard."""

GAMES_A_DAY_FAST_EVENT = 3
"""Policy: with this many games or more on each of FAST_EVENT_DAYS days (no readable
TimeControl), a tournament is a rapid or blitz event, none of its games standard: a weekend
open plays three rounds on one day at most, a rapid round robin three or more every day."""

FAST_EVENT_DAYS = 2
"""The days of GAMES_A_DAY_FAST_EVENT games that make a tournament a rapid or blitz event."""

WRONG_DATE_ONE_GAME_DAYS = 3
"""Policy: a day of GAMES_A_DAY_NOT_STANDARD games or more stays standard when its games are
each a different numbered round against a different opponent and the event's other days
(its tie-break days aside), this many or more, hold one game each: the rounds were played
one a day and the file dates several of them on one day."""

ONE_A_DAY_PLAYOFF_IS_CLASSICAL = True
"""Policy: a play-off or tie-break by its name (no speed word, no TimeControl) whose games
the player played one a day, on PLAYOFF_DAYS_ONE_A_DAY days or more, is classical: those
games are standard and rated (a faster tie-break plays several games a day); its games of
a day with several stay a tie-break. False: every play-off by its name is a tie-break."""

PLAYOFF_DAYS_ONE_A_DAY = 2
"""The days of one play-off game each that make a play-off classical."""

TAG_OF_A_FAST_LIST_IS_THE_STANDARD = True
"""Policy: the player's own Elo tag in a rapid or blitz event is evidence of that list only
when it cannot be the player's standard rating of the surrounding months: it equals none of
the player's standard ratings within STANDARD_TAG_WINDOW_MONTHS of the event's start (the
standard tags of tournaments that started then, the official standard ratings and those the
standard replay published, in force then). TWIC, pgnmentor and most organisers print the
standard rating in every event, often the previous list's. Such a tag neither starts nor
re-anchors the rapid or blitz history, nor is it a tournament's Ro; the history says so and
waits for an official entry (or a tag that differs). An import can say what a file's tags
are instead (`tracker import --tags standard|own`, tracker.model.EloTags). False: every
rapid or blitz tag is evidence of its list (unless its import said standard)."""

STANDARD_TAG_WINDOW_MONTHS = 3
"""The months either side of a rapid or blitz event's start whose standard ratings its tag
may repeat (TAG_OF_A_FAST_LIST_IS_THE_STANDARD). Measured on 14 pgnmentor careers of the
test corpus (docs/ratings.md, "Your own tags in rapid and blitz events"): of 582 rapid and
blitz tags from 2008 on, 573 equal a standard rating of the player; the nearest such is in
the same month for 479, one month away for 79, two or three months away for 4, and none
four to seven months away (the other 11 are 8 to 30 months away: chance)."""

FILE_TAGS_STANDARD_SHARE = 0.75
"""Policy: an import names a file whose rapid and blitz events print the standard rating
(and advises `tracker import FILE --tags standard`) when this share of its players' tags in
rapid and blitz tournaments, or more, equal a standard tag of the same player stored within
STANDARD_TAG_WINDOW_MONTHS, or their tag in an event of the other fast list within a month
(tracker.periods.tags.file_tags), of FILE_TAGS_COMPARED_AT_LEAST such tags or more. On the
pgnmentor careers of the test corpus the share is 0.81 (Kosteniuk) to 0.97 (Caruana): the
rest repeat standard ratings of months the file has no standard tag of; a file printing
each list's own rating repeats one only by chance."""

FILE_TAGS_COMPARED_AT_LEAST = 10
"""The rapid and blitz tags a file must have, each beside a standard tag of the same player,
for FILE_TAGS_STANDARD_SHARE to be judged."""

TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE = True
"""Policy: on the standard list, the player's own Elo tag in an event its name says is never
rated (Basque chess, a simul, an exhibition, a consultation or blindfold game) is evidence
of the list as much as a rated game's: the organiser printed the same FIDE rating. Online
events stay out (another site's ratings), and so do the faster names (a tie-break, an
armageddon), whose games are on rapid or blitz. False: rated games' tags only."""

EVIDENCE_OF_NEVER_RATED = frozenset(
    {
        NotRated.VARIANT.value,
        NotRated.SIMUL.value,
        NotRated.EXHIBITION.value,
        NotRated.CONSULTATION.value,
        NotRated.BLINDFOLD.value,
    }
)
"""The not-rated reasons whose games' tags TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE takes."""

PEAK_FOR_2400_QUESTION = 2300
"""Policy: whether a player who starts the replay rated ever reached 2400 is unknown; it is
said to be assumed ("never rated 2400 or more") only when the replay has seen the player at
2300 or more on that list: below that, having once been 2400 is rare enough not to ask."""

PLAYER_FACTS_LISTS: tuple[RatingList, ...] = (RatingList.STANDARD,)
"""Policy: the lists the user-recorded `rated_games` and `ever_2400` facts
(`tracker player set`) apply to. The store keeps one set per player and spec section 3 says
"2400 ... ever, on that list", so they describe the standard list only; rapid and blitz
derive the games completed, 2400 ever and 2300 reached from their own official entries
(and official K) and replayed ratings."""
