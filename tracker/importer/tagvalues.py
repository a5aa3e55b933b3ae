"""What single tags of a game say: its dates, the Elo tags, a FIDE ID, a title, and the
reasons a game is skipped or does not count for rating (tracker.importer.prepare puts them
together). Pure; no memo: the preparer keeps one.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from tracker.model import LAST_DATE, MAX_RATING, NotRated, Skipped

# The reasons the tags give that a game does not count for rating (tracker.model.NotRated),
# as the plain strings a PreparedGame carries (a worker sends them with marshal).
_ONLINE, _VARIANT, _SETUP, _UNFINISHED, _FORFEIT, _NO_MOVES, TIME_CONTROL, _UNRATED = (
    r.value
    for r in (
        NotRated.ONLINE,
        NotRated.VARIANT,
        NotRated.SETUP,
        NotRated.UNFINISHED,
        NotRated.FORFEIT,
        NotRated.NO_MOVES,
        NotRated.TIME_CONTROL,
        NotRated.UNRATED_OPPONENT,
    )
)
STANDARD_VARIANTS = frozenset({"", "standard", "chess", "normal", "classical", "regular"})
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def skipped_by_moves_end(moves_end: str, result: str, has_moves: bool) -> Skipped:
    """A game whose movetext does not end with its result (`RawGame.moves_end`) is not
    stored: cut short (a file cut in the middle of a game), its result is the tag's word
    alone, and the complete game, imported later, is then stored once (its moves, and so
    its identity, differ from the cut copy's); two results are two answers."""
    if moves_end:
        return Skipped(
            f"the moves end in {moves_end}, the Result tag says {result}: game skipped "
            "(correct the one that is wrong)"
        )
    if has_moves:
        return Skipped(
            f"the moves stop before the result (no {result} after them: the file cut short, "
            "or a { comment never closed?): game skipped"
        )
    return Skipped(
        f"no moves and no result after the tags (no {result}: is the file cut short?): game skipped"
    )


def skipped_same_player(white: str) -> Skipped:
    return Skipped(f"White and Black are the same player ({white}): game skipped")


def calendar_date(tag: str) -> dt.date | None:
    """`2024.03.15` (or 2024-03-15, 2024/03/15) as a date; None for a partial or invalid
    one."""
    t = tag.strip()
    if len(t) == 10 and t[4] in ".-/" and t[7] == t[4]:
        y, m, d = t[:4], t[5:7], t[8:]
        if y.isdigit() and m.isdigit() and d.isdigit() and y.isascii():
            try:
                return dt.date(int(y), int(m), int(d))
            except ValueError:
                return None
    return None


def parse_date(tag: str) -> tuple[str | None, dt.date | None]:
    """`2024.03.15` -> ("2024-03-15", date); partial or invalid dates, and dates after
    LAST_DATE (the game keeps its date tag, not the date) -> (None, None)."""
    day = calendar_date(tag)
    if day is None or day > LAST_DATE:
        return None, None
    return day.isoformat(), day


_FULL_DATE_RE = re.compile(r"\d{4}([.\-/])\d{2}\1\d{2}")


def date_warning(
    name: str, tag: str | None, day: dt.date | None, after_today: Callable[[dt.date], bool]
) -> str | None:
    """What is wrong with a Date/EventDate tag that gives `day`: a whole date that is not in
    the calendar or is after LAST_DATE, or one after today (`after_today`); None for a good
    date or a partial one (`2024.??.??`)."""
    if not tag:
        return None
    if day is None:
        if _FULL_DATE_RE.fullmatch(tag.strip()):
            if calendar_date(tag) is not None:  # past LAST_DATE
                return (
                    f"{name} {tag.strip()!r} is after {LAST_DATE.isoformat()}, the last "
                    "date the tracker rates: the game is stored without it (in no "
                    "period); check the file"
                )
            return f"{name} {tag.strip()!r} is not a calendar date: the game is stored without it"
        return None
    if after_today(day):
        return f"{name} {tag.strip()!r} is after today: check the file"
    return None


def no_rating(tag: str) -> bool:
    """An Elo tag that says "no rating" ("", "-", "?", "0", "0000"), not a bad value."""
    t = tag.strip()
    return t in _UNRATED_TAGS or (t.isascii() and t.isdigit() and int(t) == 0)


def elo_warning(side: str, tag: str) -> str:
    return (
        f"{side}Elo {tag.strip()!r} is not a rating (a whole number from 1 to {MAX_RATING}): "
        f"the game is stored without {side}'s rating"
    )


def parse_elo(tag: str | None) -> int | None:
    """An Elo tag as a rating: None for "", "-", "0", "?", "abc", "2690:2222"..."""
    if not tag:
        return None
    t = tag.strip()
    if t.isascii() and t.isdigit():
        value = int(t)
        if 0 < value <= MAX_RATING:
            return value
    return None


def parse_fide_id(tag: str | None) -> int | None:
    if not tag:
        return None
    t = tag.strip()
    if t.isascii() and t.isdigit():
        value = int(t)
        if 0 < value < 2**62:
            return value
    return None


def parse_title(tag: str | None) -> str | None:
    if tag is None:
        return None
    t = tag.strip()
    return t[:8] if t and t not in ("-", "?") else None


_UNRATED_TAGS = frozenset({"", "-", "0", "?"})


def not_rated_reason(
    online: bool,
    variant: str,
    fen: str,
    setup: str,
    result: str,
    termination: str | None,
    has_moves: bool,
    tc_reason: str | None,
    welo_tag: str | None,
    belo_tag: str | None,
    welo: int | None,
    belo: int | None,
) -> str | None:
    if online:
        return _ONLINE
    if variant.lower() not in STANDARD_VARIANTS:
        return _VARIANT
    if (setup == "1" or fen) and fen != START_FEN:
        return _SETUP
    if result == "*":
        return _UNFINISHED
    if termination and "forfeit" in termination.lower():
        return _FORFEIT
    if not has_moves:
        return _NO_MOVES
    if tc_reason:  # time-control, or what the event or round name says (not rated by name)
        return tc_reason
    if (
        welo is None
        and belo is None
        and welo_tag is not None
        and belo_tag is not None
        and welo_tag.strip() in _UNRATED_TAGS
        and belo_tag.strip() in _UNRATED_TAGS
    ):
        # Both Elo tags say "unrated": the game counts for neither side.
        return _UNRATED
    return None
