"""Event names the name reading (tracker.fide.eventnames) used to get wrong, and names
near them it must keep reading as before.

Every event name here is an Event tag of a file in shared/corpus (`xzcat
shared/corpus/*.xz | grep '^\\[Event '`), unless marked as made up. The expected values
come from what the events were and from the spec's section 6 (shared/spec/fide-rules.md):
standard "at least 60 [minutes for 60 moves]; at least 90 if a player is rated 1800+, 120
if 2400+ (bands 1600/2200 before 2022)", rapid "more than 10 and less than 60", blitz "more
than 3 and at most 10", and "a game too slow for rapid but too fast for its standard band
is not rated". Basque chess, consultation games, games against the World, clock simuls and
Advanced Chess are never FIDE-rated games of chess between two players.
"""

from __future__ import annotations

import pytest

from tracker.fide.eventnames import (
    CONSULTATION,
    NAME_REASONS,
    SIMUL,
    VARIANT,
    name_kind,
    name_signals,
)
from tracker.importer.prepare import Preparer
from tracker.model import NotRated, PreparedGame, RatingList

RAPID, BLITZ = RatingList.RAPID, RatingList.BLITZ


def kind(event: str, round_: str | None = None) -> tuple[RatingList | None, str | None]:
    found = name_kind(name_signals(event), name_signals(round_))
    return found.rating_list, found.not_rated


@pytest.mark.parametrize(
    "event,expected",
    [
        # "rap": pgnmentor's short form of rapid
        ("Walldorf m rap", (RAPID, None)),  # Karpov-Lobron 1997
        ("Platja d'Aro Legends Rap", (RAPID, None)),  # 2019, beside "... Legends Rapid"
        ("POL Rap Ekstraliga Final", (RAPID, None)),  # twic1427: the Polish rapid league
        ("Varna rap m", (RAPID, None)),
        # "g" and the minutes without a slash, after another word: Leon 2013 played g45,
        # g20 and g5 on three days; the 2017 Champions Showdown G30, G20, G10 and G5
        ("26th Leon Masters g45", (RAPID, None)),  # 45: more than 10, less than 60
        ("26th Leon Masters g20", (RAPID, None)),
        ("26th Leon Masters g5", (BLITZ, None)),  # 5: more than 3, at most 10
        ("Champions Showdown G30", (RAPID, None)),
        ("Carlsen-Ding Showdown G10", (BLITZ, None)),  # 10: at most 10
        # hours: 60 minutes + 60 x 25 s = 85 minutes for 60 moves, never a 1-minute game
        ("Match g/1h+25s", (None, None)),
        # 60 minutes: not rapid (less than 60), standard only by the players' ratings
        ("Champions Showdown 60m", (None, None)),
        # Basque chess (two boards at once against the same opponent): a variant
        ("Showdown Basque 2015", (None, VARIANT)),
        ("IMSA Basque 2016", (None, VARIANT)),
        ("2nd IMSA Basque w 2017", (None, VARIANT)),
        ("SportAccord Basque Men 2013", (None, VARIANT)),
        # consultation games, the World voting, a player with a computer
        ("Staunton Mem Consultation game", (None, CONSULTATION)),  # Short+Vujatovic v ...
        ("England cg", (None, CONSULTATION)),  # "Steinitz/Potter" v "Blackburne/Potter"
        ("Nice consult", (None, CONSULTATION)),
        ("Kasparov vs The World", (None, CONSULTATION)),
        ("Anand vs The World", (None, CONSULTATION)),
        ("UNAM Carlsen-Mundo 2012", (None, CONSULTATION)),  # Black: "The World"
        ("Advanced Chess", (None, CONSULTATION)),
        ("Advanced Chess rapid", (RAPID, CONSULTATION)),  # Kramnik-Anand 2002: not rated
        ("Leon Man+Comp m", (None, CONSULTATION)),
        # series that were rapid whatever their name says: the PCA/Intel Grand Prix of
        # 1994-95 (25-minute knock-outs), the Corsica Masters (Bastia: a rapid knock-out,
        # several rounds a day: "1.1" to "4.2" on 2006-11-05)
        ("PCA/Intel-GP", (RAPID, None)),
        ("Corsica Masters KO", (RAPID, None)),
        ("10th Corsica Masters KO", (RAPID, None)),
        ("Corsica Masters KO 2011", (RAPID, None)),
        ("6th Corsica Masters", (RAPID, None)),
        # clock simuls of a national team against one player
        ("GER-Kasparov", (None, SIMUL)),  # Lobron, Hertneck, Wahls, Hort v Kasparov 1992
        ("SWZ-Kasparov", (None, SIMUL)),
        ("ISR-Kasparov handicap", (None, SIMUL)),
        ("HSK-Kasparov simul", (None, SIMUL)),  # as before
    ],
)
def test_names_read_wrong_before(
    event: str, expected: tuple[RatingList | None, str | None]
) -> None:
    assert kind(event) == expected


@pytest.mark.parametrize(
    "event,expected",
    [
        # groups and games, not minutes: "G4" is not a multiple of 5; a round "G1" is a game
        ("EUCup G4", (None, None)),
        ("EUCup G6", (None, None)),
        # a rapid word in front of a time of 60 is still the word ("rapid60")
        ("Candidats qf3 rapid60", (RAPID, None)),
        # the Basque Country is a team, not Basque chess
        ("Basque Country vs. World Rapid", (RAPID, None)),
        ("Basque Country vs. World Blindfold", (None, NotRated.BLINDFOLD.value)),
        # a team called "World" plays a team match, rated
        ("AZE vs World Rapid", (RAPID, None)),
        ("China vs World Team 2018", (None, None)),
        ("URS-World", (None, None)),
        ("Belgrade URS-World", (None, None)),
        ("World Cup", (None, None)),
        ("Copa del Mundo", (None, None)),  # made up: Spanish "World Cup"
        # a federation and an event word, not a team against a player
        ("RUS-Team", (None, None)),
        ("PCA-Wch", (None, None)),
        ("GMA-Open", (None, None)),
        ("FIDE-Wch k.o.", (None, None)),
        ("RUS-CHN Summit Men Rapid", (RAPID, None)),
        # a consultation simul stays a simul (the first kind in the reading's order)
        ("London Consultation sim", (None, SIMUL)),
        # "rap" only as a word
        ("Rapperswil Open", (None, None)),  # made up: a Swiss town
        ("Trapani Open", (None, None)),  # made up
        # a speed word says more than a rapid series' name; other events of the places
        ("Corsica Coca Cola Blitz", (BLITZ, None)),  # Kosteniuk 2017: blitz
        ("Corsica Masters Blitz", (BLITZ, None)),  # made up
        ("Corsican Circuit Final", (None, None)),
        ("Munich Intel Express m", (None, None)),
        # minutes in a name as before
        ("Hoogovens 5'", (BLITZ, None)),
        ("chess.com Speed 5m+2spm 2017", (BLITZ, None)),
        ("KasparovChess GP g/60", (None, None)),
    ],
)
def test_names_read_as_before(event: str, expected: tuple[RatingList | None, str | None]) -> None:
    assert kind(event) == expected


def test_round_names_that_number_games_say_nothing() -> None:
    # a round "G5" or "G10" is a game of a match: only a "g" after another word is a time
    assert kind("World Championship 2023", "G5") == (None, None)
    assert kind("World Championship 2023", "G10") == (None, None)


@pytest.mark.parametrize(
    "event,time_control",
    [
        ("Champions Showdown 60m", "3600"),
        ("KasparovChess GP g/60", "3600"),
        ("WDR Match g/60", "3600"),
        ("Match g/1h+25s", "3600+25"),
        # under 60 minutes the name says the list itself
        ("26th Leon Masters g45", None),
        ("Open", None),  # made up
    ],
)
def test_a_time_of_60_minutes_or_more_is_given_as_a_time_control(
    event: str, time_control: str | None
) -> None:
    assert name_signals(event).time_control == time_control


def _prepared(event: str, date: str, white_elo: str, black_elo: str) -> PreparedGame:
    tags = {
        "Event": event,
        "Site": "Saint Louis USA",
        "Date": date,
        "Round": "1.1",
        "White": "Topalov,V",
        "Black": "Caruana,F",
        "Result": "1/2-1/2",
        "WhiteElo": white_elo,
        "BlackElo": black_elo,
    }
    got = Preparer().row(tags, "digest", True, 1)
    assert isinstance(got, PreparedGame)
    return got


def test_sixty_minutes_between_top_players_is_not_rated() -> None:
    # The real game: Topalov (2760) - Caruana (2823), round 1.1, 2016-11-10. 60 minutes is
    # too fast for standard at 2200+ before 2022 (120 needed) and too slow for rapid.
    got = _prepared("Champions Showdown 60m", "2016.11.10", "2760", "2823")
    assert (got.list, got.list_assumed, got.rated) == ("standard", True, False)
    assert got.not_rated_reason == NotRated.TIME_CONTROL.value


def test_sixty_minutes_below_the_band_is_standard() -> None:
    # Made up: the same name between two players rated under 1800 in 2023 (from 2022,
    # "at least 60" for players under 1800): standard, rated; under 1600 before 2022 too.
    got = _prepared("Champions Showdown 60m", "2023.05.06", "1750", "1620")
    assert (got.list, got.list_assumed, got.rated, got.not_rated_reason) == (
        "standard",
        True,
        True,
        None,
    )
    got = _prepared("Champions Showdown 60m", "2016.11.10", "1750", "1620")
    assert (got.rated, got.not_rated_reason) == (False, NotRated.TIME_CONTROL.value)
    got = _prepared("Champions Showdown 60m", "2016.11.10", "1550", "1520")
    assert (got.list, got.rated) == ("standard", True)


def test_ninety_minutes_is_standard_below_2400() -> None:
    # Made up: g/90 (90 minutes) between players rated 2300 and 2100 in 2023: standard
    got = _prepared("Club Open g/90", "2023.05.06", "2300", "2100")
    assert (got.list, got.rated) == ("standard", True)
    got = _prepared("Club Open g/90", "2023.05.06", "2450", "2100")
    assert (got.rated, got.not_rated_reason) == (False, NotRated.TIME_CONTROL.value)


def test_the_new_reason_is_a_name_reason() -> None:
    assert NotRated.CONSULTATION.value == CONSULTATION
    assert CONSULTATION in NAME_REASONS and VARIANT in NAME_REASONS
