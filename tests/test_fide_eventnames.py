"""`tracker.fide.eventnames`: the list (or "never rated") that event and round names say for
games without a time control (issue 13 item 4).

The names are real: each one below is an Event tag of a file in shared/corpus (pgnmentor,
TWIC, chessdata) unless it is marked as made up for a language or an edge. What the name says
follows the spec's section 6 (bands: rapid over 10 and under 60 minutes, blitz over 3 and at
most 10; "games with unequal times for the two players are not rated", which is every
armageddon) and the reading documented in the module.
"""

from __future__ import annotations

import pytest

from tracker.fide.eventnames import (
    ARMAGEDDON,
    BLINDFOLD,
    BULLET,
    EXHIBITION,
    NAME_REASONS,
    NOTHING,
    SIMUL,
    TIE_BREAK,
    VARIANT,
    NameKind,
    name_kind,
    name_signals,
)
from tracker.model import RatingList

STD, RAPID, BLITZ = RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ


def kind(event: str, round_: str | None = None, default: RatingList | None = None) -> NameKind:
    return name_kind(name_signals(event), name_signals(round_), default)


@pytest.mark.parametrize(
    "event,expected",
    [
        # tie-breaks and play-offs of standard events: never rated (the list shown: rapid)
        ("7th Sinquefield Cup TB", (RAPID, TIE_BREAK)),
        ("3rd GRENKE Classic TB", (RAPID, TIE_BREAK)),
        ("FIDE Grand Prix 2 Playoff", (RAPID, TIE_BREAK)),
        ("ch-NOR Playoff", (RAPID, TIE_BREAK)),
        ("GpB Tiebreak", (RAPID, TIE_BREAK)),
        ("Play off Budapest", (RAPID, TIE_BREAK)),
        ("St Louis Spring A TB", (RAPID, TIE_BREAK)),
        # a tie-break whose name gives its speed: on that list
        ("WCh Rapid TB 2016", (RAPID, None)),
        ("World Blitz TB 2019", (BLITZ, None)),
        ("5th Final Masters Blitz Tie-Break", (BLITZ, None)),
        ("ch-NOR Rapid Playoff", (RAPID, None)),
        # armageddon (unequal times), bullet (3 minutes or less): never rated, blitz speed
        ("7th Norway Armageddon", (BLITZ, ARMAGEDDON)),
        ("Katara Bullet Final 2020", (BLITZ, BULLET)),
        # simuls, exhibitions, blindfold and Chess960 events: never rated
        ("Magnus Inv Simul 2017", (None, SIMUL)),
        ("14-board simul", (None, SIMUL)),
        ("Cez Trophy Simultaneous", (None, SIMUL)),
        ("USA tour sim", (None, SIMUL)),
        ("Biel Exhibition Blitz", (BLITZ, EXHIBITION)),
        ("Saraybahce Blitz Exhib", (BLITZ, EXHIBITION)),
        ("Amber Blindfold", (None, BLINDFOLD)),
        ("Amber-blind 7th", (None, BLINDFOLD)),
        ("CCM9 - Chess960 Rapid WCh", (RAPID, VARIANT)),
        # rapid and blitz by a word
        ("World Blitz", (BLITZ, None)),
        ("Tal Memorial Blitz", (BLITZ, None)),
        ("Amber Rapid", (RAPID, None)),
        ("Amber Rapidplay", (RAPID, None)),
        ("ch-ROU Rapid 2022", (RAPID, None)),
        ("Roquebrune rapid", (RAPID, None)),
        ("Speed Chess Super Swiss", (BLITZ, None)),
        # rapid and blitz by a time written in the name (minutes for 60 moves)
        ("Hoogovens 5'", (BLITZ, None)),
        ("Budapest m 30'", (RAPID, None)),
        ("Chess Cruise g/15", (RAPID, None)),
        ("FIDE-Wch k.o. g/25+10", (RAPID, None)),  # 25 + 10 = 35
        ("chess.com Speed 5m+2spm 2017", (BLITZ, None)),  # 5 + 2 = 7
        ("chess.com Speed 1m+1spm 2017", (BLITZ, BULLET)),  # 1 + 1 = 2: 3 or less
        ("KasparovChess GP g/60", (None, None)),  # 60: the standard bands need ratings
        # names that say nothing (and look as if they might)
        ("TBMM Cup Final 2022", (None, None)),  # Turkish Grand National Assembly, not "TB"
        ("Tbilisi Open", (None, None)),  # made up
        ("Lyngby Open", (None, None)),  # made up
        ("King's Lynn Congress", (None, None)),  # made up
        ("Open Villamartin", (None, None)),  # made up: a Spanish town, not Hungarian villám
        ("Round 1+2 Open", (None, None)),  # made up: a bare "1+2" is no time
        ("Euro Online +2300 Day 1", (None, None)),  # online by its site, a rating band here
        ("Sinquefield Cup", (None, None)),
        ("FIDE Chess.com Grand Swiss", (None, None)),
    ],
)
def test_real_event_names(event: str, expected: tuple[RatingList | None, str | None]) -> None:
    assert tuple(kind(event)) == expected


@pytest.mark.parametrize(
    "event,expected",
    [
        # made up, one per language: German, French, Spanish, Italian, Portuguese, Dutch,
        # Swedish, Norwegian, Danish, Finnish, Polish, Czech, Hungarian, Russian
        ("Schnellschach-Open Dresden", RAPID),
        ("Blitzschach Meisterschaft", BLITZ),
        ("Blitzturnier Wien", BLITZ),
        ("Open de parties rapides", RAPID),
        ("Tournoi rapide de Nancy", RAPID),
        ("Torneo de partidas rápidas", RAPID),
        ("Torneo relámpago", BLITZ),
        ("Torneo rapido di Roma", RAPID),
        ("Torneo lampo", BLITZ),
        ("Torneio de xadrez relâmpago", BLITZ),
        ("Torneio rápido", RAPID),
        ("Snelschaak kampioenschap", RAPID),
        ("Bliksemtoernooi", BLITZ),
        ("SM i snabbschack", RAPID),
        ("Blixt-SM", BLITZ),
        ("NM i hurtigsjakk", RAPID),
        ("Lyn-NM", BLITZ),
        ("NM i lynsjakk", BLITZ),
        ("DM i hurtigskak", RAPID),
        ("DM i lynskak", BLITZ),
        ("Pikashakin SM", RAPID),
        ("Pikashakki SM", RAPID),
        ("Salamashakki SM", BLITZ),
        ("Mistrzostwa w szachach szybkich", RAPID),
        ("Turniej błyskawiczny", BLITZ),
        ("Bleskový turnaj", BLITZ),
        ("Villámverseny", BLITZ),
        ("Чемпионат по блицу", BLITZ),
        ("Рапид турнир", RAPID),
    ],
)
def test_other_languages(event: str, expected: RatingList | None) -> None:
    assert kind(event).rating_list is expected and kind(event).not_rated is None


@pytest.mark.parametrize(
    "event,round_,expected",
    [
        # the round name says it: a standard event's tie-break or armageddon rounds
        ("Sinquefield Cup", "TB1", (RAPID, TIE_BREAK)),
        ("Norway Chess", "Armageddon", (BLITZ, ARMAGEDDON)),
        ("Norway Chess", "5.2 tiebreak", (RAPID, TIE_BREAK)),
        ("World Cup", "3.4 (blitz tie-break)", (BLITZ, None)),
        ("Rapid Open", "TB", (RAPID, None)),  # a rapid event's tie-break: rapid
        ("World Blitz", "3.1", (BLITZ, None)),  # a plain round says nothing
        ("Club Open", "5", (None, None)),
    ],
)
def test_round_names(
    event: str, round_: str, expected: tuple[RatingList | None, str | None]
) -> None:
    assert tuple(kind(event, round_)) == expected


def test_the_list_given_at_import_is_the_events_speed() -> None:
    # --list rapid: every game without a time control is rapid; a tie-break is then a rapid
    # event's (rated there); --list standard: a standard event's tie-break (never rated).
    assert tuple(kind("World Blitz", default=RAPID)) == (RAPID, None)
    assert tuple(kind("7th Sinquefield Cup TB", default=RAPID)) == (RAPID, None)
    assert tuple(kind("7th Sinquefield Cup TB", default=STD)) == (STD, TIE_BREAK)
    # never-rated kinds stay never rated whatever the list
    assert tuple(kind("7th Norway Armageddon", default=STD)) == (STD, ARMAGEDDON)
    assert tuple(kind("Magnus Inv Simul 2017", default=RAPID)) == (RAPID, SIMUL)


def test_plain_names_say_nothing_and_share_one_value() -> None:
    # the importer tells a plain round by identity (`is NOTHING`): no allocation per name
    for name in ("1", "3.1", "?", "", None, "Open", "Round 5"):
        assert name_signals(name) is NOTHING
    assert not NOTHING.says_something
    assert TIE_BREAK in NAME_REASONS and "online" not in NAME_REASONS
