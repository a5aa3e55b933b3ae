"""Which list a game without a time control belongs to, from its event and round names.

Spec section 6 lets the user settle an unknown time control, and most files have no
TimeControl tag at all (TWIC, ChessBase, pgnmentor), while their event names say what the
games were: "World Blitz", "Amber Rapid", "Sinquefield Cup TB", "Norway Armageddon". This
module reads those words and says the list, or that the games are never rated and why (a
stable reason word). Everything it says is an assumption: the importer marks such games
`list_assumed`, and `tracker event set ID --list ...` / `--exclude` correct a tournament.
The reading, rule by rule: docs/architecture.md, section tracker/fide/. Pure and cheap: one
compiled pattern per kind, asked once per event or round name (tracker.importer.prepare
caches the answers).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from tracker.model import NotRated, RatingList

# Stable reason words (games.not_rated_reason) of games never rated because of their name.
# The words are tracker.model.NotRated's (one vocabulary), as plain strings: they
# reach the import's worker pipe (marshal takes no enum) and the database.
TIE_BREAK = NotRated.TIE_BREAK.value
ARMAGEDDON = NotRated.ARMAGEDDON.value
BULLET = NotRated.BULLET.value
SIMUL = NotRated.SIMUL.value
EXHIBITION = NotRated.EXHIBITION.value
BLINDFOLD = NotRated.BLINDFOLD.value
CONSULTATION = NotRated.CONSULTATION.value
VARIANT = NotRated.VARIANT.value  # the same word as a Variant tag gives (importer.prepare)

#: The reasons this module gives: a game not rated for one of them is not rated by
#: assumption (its name), and the user may say otherwise (`tracker event set`).
NAME_REASONS = frozenset(
    {TIE_BREAK, ARMAGEDDON, BULLET, SIMUL, EXHIBITION, BLINDFOLD, CONSULTATION, VARIANT}
)

# Each kind's words, as regular expressions in lower case. They are joined into one pattern
# (`_WORDS`), so that a name is scanned once.
_KIND_WORDS: tuple[tuple[str, str], ...] = (
    (ARMAGEDDON, r"armagg?ed+[oó]n"),
    (BULLET, r"bullet"),
    (SIMUL, r"\bsimul|simultan|\bsimu?\b"),
    (EXHIBITION, r"\bexhib|exhibici[oó]n|exibi[çc][ãa]o|esibizione|schaukampf"),
    (BLINDFOLD, r"blindfold|blindschach|blindsimul|aveugle|a ciegas|\bblind\b"),
    # consultation games ("Nice consult", "England cg": pgnmentor's short form), the public
    # voting against one player ("Kasparov vs The World", "UNAM Carlsen-Mundo 2012"; not a
    # team called "World": "AZE vs World Rapid"), a player with a computer (Advanced Chess,
    # "Leon Man+Comp m")
    (
        CONSULTATION,
        r"consult|\bcg\b|beratungspartie|vs\.? the world|versus the world|against the world|"
        r"-mundo\b|contra el mundo|gegen die welt|advanced chess|man\s?\+\s?comp|centaur",
    ),
    # Chess960 and Basque chess (two boards at once against one opponent: "IMSA Basque
    # 2016"; not the Basque Country: "Basque Country vs. World Rapid")
    (
        VARIANT,
        r"chess\s?960|\b960\b|fischer\s?random|fischerandom|\bfrc\b|freestyle|"
        r"basque(?!\s+country)|ajedrez vasco",
    ),
    (
        TIE_BREAK,
        r"\btb\d*\b|tie[\s-]?breaks?|play[\s-]?offs?|stichkampf|d[ée]partage|"
        r"desempate|spareggio|\bbarrage|\bomkamp|\bomspil|s[äa]rspel",
    ),
    (
        "blitz",
        r"blitz|lightning|\bspeed\b|blixt|\blyn\b|lynsjakk|lynskak|lyn-|bliksem|"
        r"\blampo\b|rel[aáâ]mpago|[ée]clair|\bvill[aá]m(?:\b|verseny|sakk)|salamashak|"
        r"b[łl]yskawiczn|bleskov|блиц",
    ),
    # "rap": pgnmentor's short form ("Walldorf m rap", "Platja d'Aro Legends Rap")
    (
        "rapid",
        r"r[aá]pid|rap\b|schnell|snabb|snelschaak|snelschaken|hurtigsjakk|hurtigskak|hurtig-|"
        r"pikashak|pika-|szybki|рапид|быстр",
    ),
    # the names of series that were rapid events whatever their name says: the PCA/Intel
    # Grand Prix (1994-95, 25 minutes), the Corsica Masters (Bastia, a rapid knock-out).
    # Read only when no speed word or time is in the name ("Corsica Coca Cola Blitz")
    ("rapid-series", r"pca/intel|intel[\s-]?(?:gp|grand\s?prix)\b|corsica\s+masters"),
    # a time written in a name: "g/15", "g/25+10", "g/1h+25s" (hours), "g45" after another
    # word and a multiple of 5 ("Champions Showdown G10"; not a group: "EUCup G4", nor a
    # round "G1"), "5'", "30 min", "60m", "1m+1spm" (not a bare "3+2": "Round 1+2")
    (
        "minutes",
        r"\bg/(?P<g>\d{1,3})(?P<gh>h)?(?:\s?\+\s?(?P<gi>\d{1,2})s?)?"
        r"|(?<=\s)g(?P<g0>[1-9]?[05]|1[0-2][05])\b(?!\s?\+)"
        r"|(?<![\d+./-])(?P<m>\d{1,3})(?:\s?'|\s?(?:min|mins|minutes)\b|m\b(?!\s?\+))"
        r"|(?<![\d+./-])(?P<b>\d{1,2})m\s?\+\s?(?P<i>\d{1,2})(?:\s?spm|s\b)?(?![\d.])",
    ),
)
_KINDS = tuple(kind.replace("-", "_") for kind, _ in _KIND_WORDS)
# Every word starts a word of the name ("\\b" first: the engine tries the alternatives only
# there), matched against the name in lower case (faster than re.IGNORECASE): a name costs
# a few microseconds, once per name.
_WORDS = re.compile(
    r"\b(?:"
    + "|".join(f"(?P<{k}>{words})" for k, (_, words) in zip(_KINDS, _KIND_WORDS, strict=True))
    + ")"
)
# Read in the name as written (case matters): a federation's team against one player, a clock
# simul ("GER-Kasparov", "ISR-Kasparov handicap"; not "RUS-Team", "URS-World", "PCA-Wch")
_CASED_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        SIMUL,
        re.compile(
            r"^[A-Z]{3}-(?!(?:Team|World|Open|Wch|Cup|Turnier|Liga|League|Masters)\b)"
            r"[A-Z][a-z]+(?:\s+(?:handicap|simul|\d{4}))*$"
        ),
    ),
)
_NEVER_ORDER = (ARMAGEDDON, BULLET, SIMUL, EXHIBITION, BLINDFOLD, CONSULTATION, VARIANT)


def _clock(m: re.Match[str]) -> tuple[int, int]:
    """(base minutes, increment seconds) of a "minutes" match."""
    if m.group("g"):
        base = int(m.group("g")) * (60 if m.group("gh") else 1)
        return base, int(m.group("gi") or 0)
    if m.group("g0"):
        return int(m.group("g0")), 0
    if m.group("m"):
        return int(m.group("m")), 0
    return int(m.group("b")), int(m.group("i"))


def _by_minutes(minutes: int) -> tuple[RatingList | None, str | None]:
    """(list, never-rated reason) of a time written in a name, by the bands of spec section
    6 from 2014 (rapid over 10 and under 60, blitz over 3 up to 10; 3 or less: bullet, too
    fast for blitz); 60 or more: nothing (the standard bands need the players' ratings)."""
    if minutes >= 60:
        return None, None
    if minutes > 10:
        return RatingList.RAPID, None
    if minutes > 3:
        return RatingList.BLITZ, None
    return RatingList.BLITZ, BULLET


class NameSignals(NamedTuple):
    """What one name (an event's or a round's) says."""

    speed: RatingList | None = None  # a rapid or blitz word
    tie_break: bool = False  # a tie-break or play-off
    never_rated: str | None = None  # a reason word of NAME_REASONS but TIE_BREAK
    # a time of 60 minutes or more written in the name, as a TimeControl tag ("3600+25"):
    # standard or not rated by the players' ratings (spec section 6), which a name lacks
    time_control: str | None = None

    @property
    def says_something(self) -> bool:
        return (
            self.speed is not None
            or self.tie_break
            or self.never_rated is not None
            or self.time_control is not None
        )


NOTHING = NameSignals()


class NameKind(NamedTuple):
    """Where the games of a tournament (and round) without a time control go."""

    rating_list: RatingList | None  # None: the name says no list (the caller's default)
    not_rated: str | None  # a reason word of NAME_REASONS: never rated


def name_signals(name: str | None) -> NameSignals:
    """What an event or round name says (NOTHING for a plain "Open" or "3.1")."""
    if not name or name.replace(".", "").isdigit():
        return NOTHING
    found: set[str] = set()
    speed: RatingList | None = None
    series: RatingList | None = None
    clock: tuple[int, int] | None = None
    for m in _WORDS.finditer(name.lower()):
        kind = m.lastgroup if m.lastgroup in _KINDS else "minutes"
        if kind == "minutes":
            clock = clock or _clock(m)  # the first time written
        elif kind in ("blitz", "rapid"):
            speed = speed or RatingList(kind)  # the first speed word
        elif kind == "rapid_series":
            series = RatingList.RAPID
        else:
            found.add(kind.replace("_", "-"))
    speed = speed or series  # a speed word says more than the series' name
    for reason, pattern in _CASED_WORDS:
        if pattern.search(name):
            found.add(reason)
    if not found and speed is None and clock is None:
        return NOTHING
    never = next((reason for reason in _NEVER_ORDER if reason in found), None)
    time_control = None
    if clock is not None:
        base, increment = clock
        by_time, too_fast = _by_minutes(base + increment)  # minutes for 60 moves
        speed = by_time or speed  # a time written in the name says more than a word
        never = never or too_fast
        if by_time is None:
            time_control = f"{base * 60}+{increment}" if increment else f"{base * 60}"
    tie = TIE_BREAK in found
    if never is None and speed is None and not tie and time_control is None:
        return NOTHING
    return NameSignals(speed, tie, never, time_control)


def name_kind(
    event: NameSignals, round_: NameSignals = NOTHING, default: RatingList | None = None
) -> NameKind:
    """The list and the not-rated reason of games without a time control, from what their
    event and round names say (see the module docstring). `default` is the list the user
    named at import (--list): it stands for the speed of the event (a tie-break of an
    event put on the standard list is a tie-break of a standard event)."""
    never = event.never_rated or round_.never_rated
    speed = default or round_.speed or event.speed
    if never is not None:
        fast = never in (ARMAGEDDON, BULLET)
        return NameKind(speed or (RatingList.BLITZ if fast else None), never)
    if event.tie_break or round_.tie_break:
        if speed is None or speed is RatingList.STANDARD:
            return NameKind(speed or RatingList.RAPID, TIE_BREAK)
        return NameKind(speed, None)
    return NameKind(speed, None)
