"""From a game's tags to the PreparedGame the store takes (or the Skipped reason it cannot be
stored): names, dates, event and site, the list (by time control), whether the game counts
for rating and why not, its identity.

Pure (no database); run in the main process or in a worker (tracker.importer.batches).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from hashlib import sha256
from typing import Any

from tracker.fide.editions import FIRST_DATE
from tracker.fide.eventnames import NOTHING, NameSignals, name_kind, name_signals
from tracker.fide.timecontrol import classify_time_control
from tracker.identity.names import normalize_name
from tracker.model import (
    LAST_DATE,
    MAX_RATING,
    RESULTS,
    NotRated,
    PreparedGame,
    RatingList,
    RawGame,
    Skipped,
)

_CACHE_LIMIT = 50_000  # entries per memo dict before it is emptied (bounds memory)

# The reasons the tags give that a game does not count for rating (tracker.model.NotRated),
# as the plain strings a PreparedGame carries (a worker sends them with marshal).
_ONLINE, _VARIANT, _SETUP, _UNFINISHED, _FORFEIT, _NO_MOVES, _TIME_CONTROL, _UNRATED = (
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

# Online platforms write their own ratings in the Elo tags: those games never enter a FIDE
# history. Recognized by Site/Event, or by tags only these platforms write.
_ONLINE_WORDS = (
    r"lichess|(?<![\w.-])chess\.com|freechess|\bfics\b|chessclub\.com|internet chess club|"
    r"\bicc\b|playchess|chess24|chesstempo|tornelo|\bonline\b|\binternet\b"
)
_ONLINE_RE = re.compile(_ONLINE_WORDS, re.IGNORECASE)
# The platform names in an Event count only when the Site names no place: "FIDE Chess.com
# Grand Swiss" at "Douglas ENG" is played over the board; "online" or "internet" in an Event
# count always ("Online Olympiad", "EE Internet sim").
_NO_PLACE = frozenset({"", "?", "int", "internet", "online", "-"})
_ONLINE_EVENT_WORDS = r"\bonline\b|\binternet\b"
_ONLINE_EVENT_RE = re.compile(_ONLINE_EVENT_WORDS, re.IGNORECASE)
_URL_RE = re.compile(r"^[a-z]+://(?:www\.)?([^/\s]+)", re.IGNORECASE)
# The same patterns without IGNORECASE, for an ASCII text in lower case (`_found`): the
# same answer (the words are ASCII in lower case; lowering an ASCII text changes no \w or
# \b), and sooner, once per event and site.
_ONLINE_LOWER = re.compile(_ONLINE_WORDS)
_ONLINE_EVENT_LOWER = re.compile(_ONLINE_EVENT_WORDS)


def _found(pattern: re.Pattern[str], lower: re.Pattern[str], text: str) -> bool:
    """Whether `pattern` (IGNORECASE) finds something in `text`; `lower` is the same
    pattern without IGNORECASE, used on an ASCII text in lower case."""
    if text.isascii():
        return lower.search(text.lower()) is not None
    return pattern.search(text) is not None


def classify_list(
    time_control: str | None, day: dt.date | None, max_elo: int | None
) -> tuple[RatingList | None, bool]:
    """The list a game with this TimeControl tag belongs to, and whether the time control
    lies outside the bands of every list (then the list is the nearest one by minutes).
    `day` is the tournament start (the bands in force then), else the game's date.

    (None, False) when the time control is missing or unreadable. The one place that asks
    tracker.fide (the rules decide; this only adapts the answer).
    """
    if not time_control:
        return None, False
    on = day or dt.date.today()
    tc = classify_time_control(time_control, on=on, max_rating=max_elo)
    if tc.rating_list is not None:
        return tc.rating_list, False
    if not tc.known or tc.minutes is None:
        return None, False
    nominal = (
        RatingList.STANDARD
        if tc.minutes >= 60
        else RatingList.RAPID
        if tc.minutes > 10
        else RatingList.BLITZ
    )
    if on < FIRST_DATE:  # the rules are not replayed before 2008: no band to be outside of
        return nominal, False
    return nominal, True


class Preparer:
    """Turns RawGames into PreparedGames, or the reason one cannot be stored (Skipped); pure
    (no database), with memo dicts for speed."""

    def __init__(self, default_list: RatingList | None = None) -> None:
        self.default_list = default_list
        self._names: dict[str, str] = {}
        self._dates: dict[str, tuple[str | None, dt.date | None]] = {}
        self._online: dict[tuple[str, str], tuple[bool, str]] = {}
        self._tc: dict[tuple[str, dt.date | None, int | None], tuple[RatingList | None, bool]]
        self._tc = {}
        # What event and round names say (tracker.fide.eventnames), each name read once.
        self._event_signals: dict[str, NameSignals] = {}
        self._round_signals: dict[str, NameSignals] = {}
        self._named_rounds: dict[tuple[str, str], tuple[str, bool, str | None]] = {}
        self._online_events: dict[str, bool] = {}
        self._players: dict[str | None, tuple[str, str]] = {}
        self._contexts: dict[tuple[str | None, ...], tuple[Any, ...]] = {}
        self._elos: dict[str | None, tuple[int | None, str | None, bool]] = {}
        self._places: dict[tuple[str | None, str | None], tuple[Any, ...]] = {}
        self._days: dict[tuple[str | None, str | None], tuple[Any, ...]] = {}
        self._no_tc: dict[str, tuple[str, bool, str | None]] = {}
        # "line: text" of what a stored game lost (an Elo or a date that is no value): the
        # caller takes them after each game (tracker.importer.batches)
        self.warnings: list[str] = []
        self._today = dt.date.min  # the last dt.date.today() asked (`_after_today`)

    def memo_entries(self) -> int:
        """The entries of the memo dicts (the memory they hold grows with them)."""
        return sum(len(memo) for memo in vars(self).values() if isinstance(memo, dict))

    def _norm(self, name: str) -> str:
        cache = self._names
        norm = cache.get(name)
        if norm is None:
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            norm = cache[name] = normalize_name(name)
        return norm

    def _date(self, tag: str) -> tuple[str | None, dt.date | None]:
        found = self._dates.get(tag)
        if found is None:
            found = _parse_date(tag)
            if len(self._dates) > _CACHE_LIMIT:
                self._dates.clear()
            self._dates[tag] = found
        return found

    def _site(self, event: str, site: str, force: bool = False) -> tuple[bool, str]:
        """(online, the site as it keys the tournament): an online URL keys by its host."""
        online = force or (
            _found(_ONLINE_RE, _ONLINE_LOWER, site)
            or _internet_site(site)
            or self._online_event(event)
            or (site.strip().lower() in _NO_PLACE and _found(_ONLINE_RE, _ONLINE_LOWER, event))
        )
        m = _URL_RE.match(site) if online else None
        found = (online, m.group(1).lower() if m else site)
        if not force:
            if len(self._online) > _CACHE_LIMIT:
                self._online.clear()
            self._online[(event, site)] = found
        return found

    def _online_event(self, event: str) -> bool:
        """Whether the Event says online or internet (each event read once)."""
        cache = self._online_events
        found = cache.get(event)
        if found is None:
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            found = cache[event] = _found(_ONLINE_EVENT_RE, _ONLINE_EVENT_LOWER, event)
        return found

    def _list(
        self,
        tc: str | None,
        day: dt.date | None,
        max_elo: int | None,
        event: str,
        round_: str | None = None,
    ) -> tuple[RatingList, bool, str | None]:
        """(list, assumed, why the game is not rated by its time control or name: None when
        it may be). A time control outside the bands of every list: TIME_CONTROL. Without
        a readable time control the list is an assumption: `_named`."""
        if tc:
            key = (tc, day, max_elo)
            found = self._tc.get(key)
            if found is None:
                if len(self._tc) > _CACHE_LIMIT:
                    self._tc.clear()
                found = self._tc[key] = classify_list(tc, day, max_elo)
            lst, outside = found
            if lst is not None:
                return lst, False, _TIME_CONTROL if outside else None
        value, assumed, reason = self._named(event, round_)
        return RatingList(value), assumed, reason

    def _signals(self, cache: dict[str, NameSignals], name: str) -> NameSignals:
        found = cache.get(name)
        if found is None:
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            found = cache[name] = name_signals(name)
        return found

    def _named(self, event: str, round_: str | None) -> tuple[str, bool, str | None]:
        """(list, True, reason) of a game without a readable time control: the list its
        event and round names say (tracker.fide.eventnames), the --list given, else
        standard; the reason when the names say it is never rated (tie-break, armageddon,
        bullet, simul, exhibition, blindfold, variant)."""
        signals = self._signals(self._event_signals, event)
        by_round = NOTHING if not round_ else self._signals(self._round_signals, round_)
        kind = name_kind(signals, by_round, self.default_list)
        lst = kind.rating_list or self.default_list or RatingList.STANDARD
        return lst.value, True, kind.not_rated

    def prepare(self, raw: RawGame) -> PreparedGame | Skipped:
        """The game's plain values, or the reason it cannot be stored (a problem)."""
        return self.row(raw.tags, raw.moves_digest, raw.has_moves, raw.line, raw.moves_end)

    def _player(self, tag: str | None) -> tuple[str, str]:
        """(the name as written, stripped; its normalized form) of a White/Black tag."""
        cache = self._players
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        name = tag.strip() if tag else ""
        found = cache[tag] = (name, "" if name in _NO_NAME else self._norm(name))
        return found

    def _context(
        self, key: tuple[str | None, str | None, str | None, str | None]
    ) -> tuple[Any, ...]:
        """What the Event, Site, Date and EventDate tags give (the same for every game of a
        tournament): event, site, event_norm, online, site key (`_place`), then date tag,
        ISO date, day, event date, start and what is wrong with the dates (None: nothing)
        (`_dates_of`); each part cached on its own (the rounds of a tournament have other
        dates, its games one event and site)."""
        event_tag, site_tag, date_tag, event_date = key
        found = (self._places.get((event_tag, site_tag)) or self._place(event_tag, site_tag)) + (
            self._days.get((date_tag, event_date)) or self._dates_of(date_tag, event_date)
        )
        cache = self._contexts
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        cache[key] = found
        return found

    def _place(self, event_tag: str | None, site_tag: str | None) -> tuple[Any, ...]:
        """(event, site, event_norm, online, site key) of an Event and a Site tag."""
        event = (event_tag.strip() or "?") if event_tag else "?"
        site = (site_tag.strip() or "?") if site_tag else "?"
        online, site_key = self._online.get((event, site)) or self._site(event, site)
        found = (event, site, self._norm(event), online, site_key)
        cache = self._places
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        cache[(event_tag, site_tag)] = found
        return found

    def _dates_of(self, date_tag: str | None, event_date: str | None) -> tuple[Any, ...]:
        """(date tag, ISO date, day, event date, start, what is wrong with the dates) of a
        Date and an EventDate tag."""
        key = (date_tag, event_date)
        if date_tag:
            date_tag = date_tag.strip()
            iso, day = self._dates.get(date_tag) or self._date(date_tag)
        else:
            iso = day = None
        warning = _date_warning("Date", date_tag, day, self._after_today)
        if event_date:
            event_tag = event_date
            event_date, start = self._dates.get(event_date) or self._date(event_date)
            warning = warning or _date_warning("EventDate", event_tag, start, self._after_today)
        else:  # missing or empty ([EventDate ""]): no tournament start
            event_date = start = None
        # Per-game rules switch on the tournament start (spec section 2): the time-control
        # bands are those of its EventDate (a game dated before it: the game's date, as the
        # store then starts the tournament there), else those of the game's own date.
        if start is None or (day is not None and day < start):
            start = day
        found = (date_tag, iso, day, event_date, start, warning)
        cache = self._days
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        cache[key] = found
        return found

    def _after_today(self, day: dt.date) -> bool:
        """Whether `day` is after today: dt.date.today() is asked again only for a day after
        the last answer (which a later answer can only pass), not for each new date."""
        if day <= self._today:
            return False
        self._today = dt.date.today()
        return day > self._today

    def _elo_of(self, tag: str | None) -> tuple[int | None, str | None, bool]:
        """(the rating, the tag as the row stores it, whether it deserves a warning) of an
        Elo tag: the row stores None for a tag that is exactly the rating (`str(rating)`)."""
        cache = self._elos
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        elo = _elo(tag)
        found: tuple[int | None, str | None, bool]
        if elo is not None:
            found = (elo, None if tag == str(elo) else tag, False)
        else:
            found = (None, tag, bool(tag) and not _no_rating(tag or ""))
        cache[tag] = found
        return found

    def _check(
        self, white: str, wnorm: str, black: str, bnorm: str, result: str | None
    ) -> tuple[Skipped | None, str]:
        """The checks of a game's names and result, in order (`row` takes a game past them
        at once when its names and its result are good): (why it is skipped or None, the
        result)."""
        if white in _NO_NAME or black in _NO_NAME:
            side = "White" if white in _NO_NAME else "Black"
            return Skipped(f"no {side} player name: game skipped"), ""
        if result not in RESULTS:
            result = (result or "").strip()
            if result not in RESULTS:
                return Skipped(
                    f"unknown result {result!r}: game skipped (expected 1-0, 0-1, 1/2-1/2 or *)"
                ), ""
        if not wnorm or not bnorm:
            return Skipped("a player name made only of punctuation: game skipped"), ""
        return None, result

    def row(
        self,
        tags: dict[str, str],
        moves_digest: str,
        has_moves: bool,
        line: int,
        moves_end: str | None = None,
    ) -> PreparedGame | Skipped:
        """`prepare` from a RawGame's parts, as the import's hot loop
        (tracker.importer.batches) calls it."""
        get = tags.get
        players = self._players
        wtag = get("White")
        white, wnorm = players.get(wtag) or self._player(wtag)
        btag = get("Black")
        black, bnorm = players.get(btag) or self._player(btag)
        result = get("Result")
        if not (wnorm and bnorm and result in RESULTS):
            skipped, result = self._check(white, wnorm, black, bnorm, result)
            if skipped is not None:
                return skipped
        if moves_end is not None and moves_end != result:
            return _moves_end_skipped(moves_end, result, has_moves)
        wfide = get("WhiteFideId")
        bfide = get("BlackFideId")
        wid = _fide(wfide) if wfide else None
        bid = _fide(bfide) if bfide else None
        if wnorm == bnorm or (wid is not None and wid == bid):
            return _same_player(white)
        key = (get("Event"), get("Site"), get("Date"), get("EventDate"))
        (
            event,
            site,
            event_norm,
            online,
            site_key,
            date_tag,
            iso,
            day,
            event_date,
            start,
            date_warning,
        ) = self._contexts.get(key) or self._context(key)
        if date_warning is not None:
            self.warnings.append(f"{line}: {date_warning}")
        round_ = get("Round")
        if round_ is not None:
            round_ = round_.strip()
        welo_tag = get("WhiteElo")
        belo_tag = get("BlackElo")
        if _RARE.isdisjoint(tags):  # most games: none of these tags
            variant = fen = ""
            setup = termination = wtitle = btitle = None
        else:
            if not online and (
                "WhiteRatingDiff" in tags
                or "WhiteRD" in tags
                or "BlackRatingDiff" in tags
                or "BlackRD" in tags
            ):
                online, site_key = True, self._site(event, site, force=True)[1]
            variant = (get("Variant") or "").strip()
            fen = (get("FEN") or "").strip()
            setup = get("SetUp")
            termination = get("Termination")
            wtitle = get("WhiteTitle")
            btitle = get("BlackTitle")
        if online:  # the platform's ratings: the tags kept as written
            welo = belo = None
            wstored, bstored = welo_tag, belo_tag
        else:
            elos = self._elos
            welo, wstored, warn = elos.get(welo_tag) or self._elo_of(welo_tag)
            if warn:
                self.warnings.append(f"{line}: {_elo_warning('White', welo_tag or '')}")
            belo, bstored, warn = elos.get(belo_tag) or self._elo_of(belo_tag)
            if warn:
                self.warnings.append(f"{line}: {_elo_warning('Black', belo_tag or '')}")
        tc = get("TimeControl")
        if tc is not None:
            tc = tc.strip() or None
        if tc is None:  # the list depends on the event and round names only
            lst, assumed, tc_reason = self._no_tc.get(event) or self._no_tc_list(event)
            if (
                round_
                and (self._round_signals.get(round_) or self._signals(self._round_signals, round_))
                is not NOTHING
            ):
                lst, assumed, tc_reason = self._with_round(event, round_)
            sig = self._event_signals.get(event) or self._signals(self._event_signals, event)
            if sig.time_control and tc_reason is None and lst == "standard":
                # a time of 60 minutes or more in the name ("Champions Showdown 60m"): the
                # players' ratings say standard or not rated, as for a TimeControl tag
                higher = welo if (belo is None or (welo is not None and welo > belo)) else belo
                by_tc, _, tc_reason = self._list(sig.time_control, start, higher, event)
                lst = by_tc.value
        else:
            by_tc, assumed, tc_reason = self._list(
                tc,
                start,
                (welo if (belo is None or (welo is not None and welo > belo)) else belo),
                event,
                round_,
            )
            lst = by_tc.value
        if (
            online
            or variant
            or fen
            or setup
            or result == "*"
            or termination
            or not has_moves
            or tc_reason
            or welo is None
        ):
            reason = _not_rated_reason(
                online,
                variant,
                fen,
                (setup or "").strip(),
                result,
                termination,
                has_moves,
                tc_reason,
                welo_tag,
                belo_tag,
                welo,
                belo,
            )
        else:
            reason = None
        identity = sha256(
            f"{wnorm}\x1f{bnorm}\x1f{date_tag or ''}\x1f{round_ or ''}\x1f{event_norm}\x1f"
            f"{moves_digest}".encode("utf-8", "surrogatepass")
        ).digest()[:IDENTITY_BYTES]
        return PreparedGame(
            line=line,
            white=white,
            white_norm=wnorm,
            white_fide=wid,
            black=black,
            black_norm=bnorm,
            black_fide=bid,
            event=event,
            site=site_key,
            event_date=event_date,
            online=online,
            identity=identity,
            date=iso,
            date_tag=date_tag,
            round=round_,
            result=result,
            white_elo=welo,
            black_elo=belo,
            white_elo_tag=wstored,
            black_elo_tag=bstored,
            white_title=_title(wtitle) if wtitle else None,
            black_title=_title(btitle) if btitle else None,
            time_control=tc,
            termination=termination,
            variant=variant or None,
            has_moves=has_moves,
            list=lst,
            list_assumed=assumed,
            rated=reason is None,
            not_rated_reason=reason,
        )

    def _no_tc_list(self, event: str) -> tuple[str, bool, str | None]:
        cache = self._no_tc
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        found = cache[event] = self._named(event, None)
        return found

    def _with_round(self, event: str, round_: str) -> tuple[str, bool, str | None]:
        """`_named` for a round whose name says something ("TB", "Armageddon", "Blitz 1")."""
        cache = self._named_rounds
        key = (event, round_)
        found = cache.get(key)
        if found is None:
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            found = cache[key] = self._named(event, round_)
        return found


def _internet_site(site: str) -> bool:
    """A Site that ends in "INT": TWIC's and ChessBase's code for the internet, where a place
    ends in its federation's ("chess.com INT", "Tornelo INT", "Europe-Chess INT")."""
    text = site.rstrip()
    return text.endswith(" INT") or text == "INT"


IDENTITY_BYTES = 16
"""A game's identity: the first 16 bytes (128 bits) of the sha256 of its players, date,
round, event and moves (migration 0005 cut the stored ones to the same 128 bits, as 32
hexadecimal characters; migration 0007 stores the bytes)."""

# Tags most games lack, looked up one by one only when a game has one of them.
_RARE = frozenset(
    {
        "WhiteRatingDiff",
        "WhiteRD",
        "BlackRatingDiff",
        "BlackRD",
        "Variant",
        "FEN",
        "SetUp",
        "Termination",
        "WhiteTitle",
        "BlackTitle",
    }
)

_NO_NAME = frozenset({"", "?", "-"})


def _moves_end_skipped(moves_end: str, result: str, has_moves: bool) -> Skipped:
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


def _same_player(white: str) -> Skipped:
    return Skipped(f"White and Black are the same player ({white}): game skipped")


def _calendar_date(tag: str) -> dt.date | None:
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


def _parse_date(tag: str) -> tuple[str | None, dt.date | None]:
    """`2024.03.15` -> ("2024-03-15", date); partial or invalid dates, and dates after
    LAST_DATE (the game keeps its date tag, not the date) -> (None, None)."""
    day = _calendar_date(tag)
    if day is None or day > LAST_DATE:
        return None, None
    return day.isoformat(), day


_FULL_DATE_RE = re.compile(r"\d{4}([.\-/])\d{2}\1\d{2}")


def _date_warning(
    name: str, tag: str | None, day: dt.date | None, after_today: Callable[[dt.date], bool]
) -> str | None:
    """What is wrong with a Date/EventDate tag that gives `day`: a whole date that is not in
    the calendar or is after LAST_DATE, or one after today (`after_today`); None for a good
    date or a partial one (`2024.??.??`)."""
    if not tag:
        return None
    if day is None:
        if _FULL_DATE_RE.fullmatch(tag.strip()):
            if _calendar_date(tag) is not None:  # past LAST_DATE
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


def _no_rating(tag: str) -> bool:
    """An Elo tag that says "no rating" ("", "-", "?", "0", "0000"), not a bad value."""
    t = tag.strip()
    return t in _UNRATED_TAGS or (t.isascii() and t.isdigit() and int(t) == 0)


def _elo_warning(side: str, tag: str) -> str:
    return (
        f"{side}Elo {tag.strip()!r} is not a rating (a whole number from 1 to {MAX_RATING}): "
        f"the game is stored without {side}'s rating"
    )


def _elo(tag: str | None) -> int | None:
    """An Elo tag as a rating: None for "", "-", "0", "?", "abc", "2690:2222"..."""
    if not tag:
        return None
    t = tag.strip()
    if t.isascii() and t.isdigit():
        value = int(t)
        if 0 < value <= MAX_RATING:
            return value
    return None


def _fide(tag: str | None) -> int | None:
    if not tag:
        return None
    t = tag.strip()
    if t.isascii() and t.isdigit():
        value = int(t)
        if 0 < value < 2**62:
            return value
    return None


def _title(tag: str | None) -> str | None:
    if tag is None:
        return None
    t = tag.strip()
    return t[:8] if t and t not in ("-", "?") else None


_UNRATED_TAGS = frozenset({"", "-", "0", "?"})


def _not_rated_reason(
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
