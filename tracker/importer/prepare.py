"""From a game's tags to the PreparedGame the store takes (or the Skipped reason it cannot be
stored): names, dates, event and site, the list (by time control), whether the game counts
for rating and why not, its identity.

Pure (no database); run in the main process or in a worker (tracker.importer.batches).
"""

from __future__ import annotations

import datetime as dt
import re
from hashlib import sha256
from typing import Any

from tracker.fide.editions import FIRST_DATE
from tracker.fide.eventnames import NOTHING, NameSignals, name_kind, name_signals
from tracker.fide.timecontrol import classify_time_control
from tracker.identity.names import normalize_name
from tracker.importer.tagvalues import (
    TIME_CONTROL,
    date_warning,
    elo_warning,
    no_rating,
    not_rated_reason,
    parse_date,
    parse_elo,
    parse_fide_id,
    parse_title,
    skipped_by_moves_end,
    skipped_same_player,
)
from tracker.model import (
    RESULTS,
    PreparedGame,
    RatingList,
    RawGame,
    Skipped,
)

_CACHE_LIMIT = 50_000  # entries per memo dict before it is emptied (bounds memory)

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
        self._contexts: dict[tuple[str | None, ...], tuple[tuple[Any, ...], tuple[Any, ...]]] = {}
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
            found = parse_date(tag)
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
                return lst, False, TIME_CONTROL if outside else None
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
    ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """What the Event, Site, Date and EventDate tags give (the same for every game of a
        tournament): (event, site, event_norm, online, site key) (`_place`), and (date tag,
        ISO date, day, event date, start, what is wrong with the dates: None for nothing)
        (`_dates_of`); each part cached on its own (the rounds of a tournament have other
        dates, its games one event and site)."""
        event_tag, site_tag, date_tag, event_date = key
        found = (
            self._places.get((event_tag, site_tag)) or self._place(event_tag, site_tag),
            self._days.get((date_tag, event_date)) or self._dates_of(date_tag, event_date),
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
        warning = date_warning("Date", date_tag, day, self._after_today)
        if event_date:
            event_tag = event_date
            event_date, start = self._dates.get(event_date) or self._date(event_date)
            warning = warning or date_warning("EventDate", event_tag, start, self._after_today)
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
        elo = parse_elo(tag)
        found: tuple[int | None, str | None, bool]
        if elo is not None:
            found = (elo, None if tag == str(elo) else tag, False)
        else:
            found = (None, tag, bool(tag) and not no_rating(tag or ""))
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
        """`prepare` from a RawGame's parts, as the import's hot loop (tracker.importer.batches)
        calls it: the players and the result (checked here: a step of their own cost 3% of
        the preparer, bench/prepare_bench.py), the tournament (`_context`), the rare tags
        (`_rare`), the ratings (`_ratings`), the list (`_list`, `_list_by_names`), whether
        the game counts for rating (tagvalues.not_rated_reason)."""
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
            return skipped_by_moves_end(moves_end, result, has_moves)
        wfide = get("WhiteFideId")
        bfide = get("BlackFideId")
        wid = parse_fide_id(wfide) if wfide else None
        bid = parse_fide_id(bfide) if bfide else None
        if wnorm == bnorm or (wid is not None and wid == bid):
            return skipped_same_player(white)
        key = (get("Event"), get("Site"), get("Date"), get("EventDate"))
        place, dates = self._contexts.get(key) or self._context(key)
        event, site, event_norm, online, site_key = place
        date_tag, iso, day, event_date, start, dates_warning = dates
        if dates_warning is not None:
            self.warnings.append(f"{line}: {dates_warning}")
        round_ = get("Round")
        if round_ is not None:
            round_ = round_.strip()
        welo_tag = get("WhiteElo")
        belo_tag = get("BlackElo")
        if _RARE.isdisjoint(tags):  # most games: none of these tags
            variant = fen = ""
            setup = termination = wtitle = btitle = None
        else:
            online, site_key, variant, fen, setup, termination, wtitle, btitle = self._rare(
                tags, online, event, site, site_key
            )
        if online:  # the platform's ratings: the tags kept as written
            welo = belo = None
            wstored, bstored = welo_tag, belo_tag
        else:
            welo, wstored, belo, bstored = self._ratings(welo_tag, belo_tag, line)
        tc = (get("TimeControl") or "").strip() or None
        higher = welo if (belo is None or (welo is not None and welo > belo)) else belo
        if tc is None:  # the list depends on the event and round names only
            lst, assumed, tc_reason = self._list_by_names(event, round_, start, higher)
        else:
            by_tc, assumed, tc_reason = self._list(tc, start, higher, event, round_)
            lst = by_tc.value
        maybe_unrated = online or variant or fen or setup or termination or not has_moves
        if maybe_unrated or result == "*" or tc_reason or welo is None:
            reason = not_rated_reason(
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
            white_title=parse_title(wtitle) if wtitle else None,
            black_title=parse_title(btitle) if btitle else None,
            time_control=tc,
            termination=termination,
            variant=variant or None,
            has_moves=has_moves,
            list=lst,
            list_assumed=assumed,
            rated=reason is None,
            not_rated_reason=reason,
        )

    def _rare(
        self, tags: dict[str, str], online: bool, event: str, site: str, site_key: str
    ) -> tuple[bool, str, str, str, str | None, str | None, str | None, str | None]:
        """What the tags most games lack (_RARE) say, of a game that has one: (online, the
        site key, Variant, FEN, SetUp, Termination, WhiteTitle, BlackTitle); a platform's
        rating tags (WhiteRatingDiff, WhiteRD...) make the game online."""
        get = tags.get
        if not online and (
            "WhiteRatingDiff" in tags
            or "WhiteRD" in tags
            or "BlackRatingDiff" in tags
            or "BlackRD" in tags
        ):
            online, site_key = True, self._site(event, site, force=True)[1]
        return (
            online,
            site_key,
            (get("Variant") or "").strip(),
            (get("FEN") or "").strip(),
            get("SetUp"),
            get("Termination"),
            get("WhiteTitle"),
            get("BlackTitle"),
        )

    def _ratings(
        self, welo_tag: str | None, belo_tag: str | None, line: int
    ) -> tuple[int | None, str | None, int | None, str | None]:
        """(White's rating, its Elo tag as the row stores it, Black's, theirs) of a game
        over the board; a tag that is no rating is a warning."""
        elos = self._elos
        welo, wstored, warn = elos.get(welo_tag) or self._elo_of(welo_tag)
        if warn:
            self.warnings.append(f"{line}: {elo_warning('White', welo_tag or '')}")
        belo, bstored, warn = elos.get(belo_tag) or self._elo_of(belo_tag)
        if warn:
            self.warnings.append(f"{line}: {elo_warning('Black', belo_tag or '')}")
        return welo, wstored, belo, bstored

    def _list_by_names(
        self, event: str, round_: str | None, start: dt.date | None, higher: int | None
    ) -> tuple[str, bool, str | None]:
        """(list, assumed, why not rated) of a game without a TimeControl tag: what its
        event and round names say; a time of 60 minutes or more in the event's name
        ("Champions Showdown 60m") is read as a TimeControl tag would be, with the `higher`
        of the players' ratings (standard, or not rated)."""
        lst, assumed, tc_reason = self._no_tc.get(event) or self._no_tc_list(event)
        if (
            round_
            and (self._round_signals.get(round_) or self._signals(self._round_signals, round_))
            is not NOTHING
        ):
            lst, assumed, tc_reason = self._with_round(event, round_)
        sig = self._event_signals.get(event) or self._signals(self._event_signals, event)
        if sig.time_control and tc_reason is None and lst == "standard":
            by_tc, _, tc_reason = self._list(sig.time_control, start, higher, event)
            lst = by_tc.value
        return lst, assumed, tc_reason

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
