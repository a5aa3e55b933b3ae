"""`tracker import`: PGN sources into the store, each source in one transaction.

The flow for one source (a file, an archive member, standard input):

1. its content hash is computed (in a thread, while parsing already runs); when a finished
   import has the same hash the source is reported "already imported" and nothing is added;
2. `tracker.pgn.read_games` reads the games' tags (and a digest of the moves); `prepare`
   turns each RawGame into a `PreparedGame` (plain checked values: players, Elo tags, date,
   list, whether the game counts for rating and why not, its identity) or a problem;
3. `tracker.store.games.GameWriter` stores the batches in one transaction, de-duplicating by
   identity, and commits when the source is complete. A kill mid-way leaves nothing of it.

Speed (issue 6): for big sources step 2 runs in a worker process (fork) that sends batches
of prepared games through a pipe (marshal bytes of plain tuples), while this process writes;
both cores work. A plain file of SPLIT_MIN_BYTES or more is cut at game starts
(`tracker.pgn.scan.game_cuts`) into parts of about SPLIT_PART bytes, read by two workers in
turn (part i by worker i % 2, each with the number of its first line) and written in file
order; archives and standard input stay one stream, in one worker. The workers run exactly
the code of the in-process path, so the result is identical (tested).

This module never imports sqlalchemy (the store does that) nor chess (tracker.pgn does).
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import gc
import hashlib
import importlib
import io
import marshal
import multiprocessing
import os
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from hashlib import sha256
from typing import Any, BinaryIO, NamedTuple, Protocol

from tracker.errors import BadInput, TrackerError
from tracker.fide.editions import FIRST_DATE
from tracker.fide.timecontrol import classify_time_control
from tracker.model import RatingList, RawGame
from tracker.names import normalize_name
from tracker.store import Store
from tracker.store.games import GameWriter, ImportRecord, PreparedGame, find_import

BATCH = 2_000
MAX_PROBLEMS_KEPT = 200  # per source, in the report (all are counted)
WORKER_MIN_BYTES = 4 << 20  # smaller sources are parsed in-process (a fork costs more)
SPLIT_MIN_BYTES = 32 << 20  # a plain file this big is parsed by two workers, in parts
SPLIT_PART = 8 << 20  # bytes per part (a worker holds one part's batches, pickled)
AHEAD_BYTES = 8 << 20  # messages of a worker the main process may hold, read ahead
_CACHE_LIMIT = 50_000  # entries per memo dict before it is emptied (bounds memory)

# Stable reasons a game does not count for rating (see tracker/store/schema.py).
UNFINISHED = "unfinished"
FORFEIT = "forfeit"
NO_MOVES = "no-moves"
VARIANT = "variant"
SETUP = "setup"
TIME_CONTROL = "time-control"
ONLINE = "online"
UNRATED_OPPONENT = "unrated-opponent"

RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})
STANDARD_VARIANTS = frozenset({"", "standard", "chess", "normal", "classical", "regular"})
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Online platforms write their own ratings in the Elo tags: those games never enter a FIDE
# history. Recognized by Site/Event, or by tags only these platforms write.
_ONLINE_RE = re.compile(
    r"lichess|(?<![\w.-])chess\.com|freechess|\bfics\b|chessclub\.com|internet chess club|"
    r"\bicc\b|playchess|chess24|chesstempo|\bonline\b",
    re.IGNORECASE,
)
# Event names count only when the Site names no place: "FIDE Chess.com Grand Swiss" at
# "Douglas ENG" is played over the board.
_NO_PLACE = frozenset({"", "?", "int", "internet", "online", "-"})
_URL_RE = re.compile(r"^[a-z]+://(?:www\.)?([^/\s]+)", re.IGNORECASE)
_EVENT_LIST_RE = re.compile(r"\b(blitz|rapid|bullet)\b", re.IGNORECASE)


class Source(Protocol):
    """What tracker.sources hands out: a name for messages and a way to read the bytes."""

    @property
    def name(self) -> str: ...

    def open(self) -> BinaryIO: ...


Reader = Callable[[BinaryIO, str], Iterable[RawGame]]  # (stream, source name)


@dataclass(frozen=True)
class ImportOptions:
    default_list: RatingList | None = None  # --list: the list of games without a known TC
    strict: bool = False  # the first problem is fatal for the source
    validate: bool = False  # parse every move (tracker.pgn)
    workers: bool | None = None  # parse in a worker process; None: when it pays


@dataclass
class SourceReport:
    """What happened to one source."""

    name: str
    games_read: int = 0
    added: int = 0
    duplicates: int = 0
    skipped: int = 0  # games not stored (a problem says why)
    list_assumed: int = 0  # games put on a list without a time control saying so
    not_rated: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)  # "file:line: text" (first ones)
    problem_count: int = 0
    already: ImportRecord | None = None  # the same content was imported before
    error: str | None = None  # the source failed: nothing of it was stored


@dataclass
class ImportReport:
    sources: list[SourceReport] = field(default_factory=list)

    def total(self, attr: str) -> int:
        return sum(int(getattr(s, attr)) for s in self.sources)

    @property
    def not_rated(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for s in self.sources:
            total.update(s.not_rated)
        return total

    @property
    def failed(self) -> list[SourceReport]:
        return [s for s in self.sources if s.error is not None]


class Progress(Protocol):
    """How the CLI shows progress (the importer never draws anything itself)."""

    def start(self, name: str, total_bytes: int | None) -> None: ...

    def advance(self, games: int) -> None: ...

    def finish(self) -> None: ...


class _NoProgress:
    def start(self, name: str, total_bytes: int | None) -> None:
        pass

    def advance(self, games: int) -> None:
        pass

    def finish(self) -> None:
        pass


# -- from RawGame to PreparedGame ----------------------------------------------------------


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
    nominal = (RatingList.STANDARD if tc.minutes >= 60
               else RatingList.RAPID if tc.minutes > 10 else RatingList.BLITZ)
    if on < FIRST_DATE:  # the rules are not replayed before 2008: no band to be outside of
        return nominal, False
    return nominal, True


class Preparer:
    """Turns RawGames into PreparedGames (pure: no database), with memo dicts for speed."""

    def __init__(self, default_list: RatingList | None = None) -> None:
        self.default_list = default_list
        self._names: dict[str, str] = {}
        self._dates: dict[str, tuple[str | None, dt.date | None]] = {}
        self._online: dict[tuple[str, str], tuple[bool, str]] = {}
        self._tc: dict[tuple[str, dt.date | None, int | None], tuple[RatingList | None, bool]]
        self._tc = {}
        self._event_list: dict[str, RatingList | None] = {}
        self._players: dict[str | None, tuple[str, str]] = {}
        self._contexts: dict[tuple[str | None, ...], tuple[Any, ...]] = {}
        self._elos: dict[str | None, int | None] = {}
        self._no_tc: dict[str, tuple[str, bool, bool]] = {}

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
        online = force or bool(
            _ONLINE_RE.search(site)
            or (site.strip().lower() in _NO_PLACE and _ONLINE_RE.search(event))
        )
        m = _URL_RE.match(site) if online else None
        found = (online, m.group(1).lower() if m else site)
        if not force:
            if len(self._online) > _CACHE_LIMIT:
                self._online.clear()
            self._online[(event, site)] = found
        return found

    def _list(
        self, tc: str | None, day: dt.date | None, max_elo: int | None, event: str
    ) -> tuple[RatingList, bool, bool]:
        """(list, assumed, outside the bands)."""
        if tc:
            key = (tc, day, max_elo)
            found = self._tc.get(key)
            if found is None:
                if len(self._tc) > _CACHE_LIMIT:
                    self._tc.clear()
                found = self._tc[key] = classify_list(tc, day, max_elo)
            lst, outside = found
            if lst is not None:
                return lst, False, outside
        outside = False
        if self.default_list is not None:
            return self.default_list, True, outside
        guess = self._event_list.get(event, RatingList.STANDARD)
        if event not in self._event_list:
            m = _EVENT_LIST_RE.search(event)
            word = m.group(1).lower() if m else None
            guess = (RatingList.BLITZ if word in ("blitz", "bullet")
                     else RatingList.RAPID if word == "rapid" else None)
            self._event_list[event] = guess
        return (guess or RatingList.STANDARD), True, outside

    def prepare(self, raw: RawGame) -> PreparedGame | str:
        """The game's plain values, or the reason it cannot be stored (a problem)."""
        row = self.row(raw.tags, raw.moves_digest, raw.has_moves, raw.line)
        return row if isinstance(row, str) else PreparedGame._make(row)

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
        tournament): event, site, date tag, ISO date, day, event date, start, event_norm,
        online, site key."""
        event, site, date_tag, event_date = key
        event = (event.strip() or "?") if event else "?"
        site = (site.strip() or "?") if site else "?"
        if date_tag:
            date_tag = date_tag.strip()
            iso, day = self._dates.get(date_tag) or self._date(date_tag)
        else:
            iso = day = None
        if event_date:
            event_date, start = self._dates.get(event_date) or self._date(event_date)
        else:  # missing or empty ([EventDate ""]): no tournament start
            event_date = start = None
        # Per-game rules switch on the tournament start (spec section 2): the time-control
        # bands are those of its EventDate (a game dated before it: the game's date, as the
        # store then starts the tournament there), else those of the game's own date.
        if start is None or (day is not None and day < start):
            start = day
        online, site_key = self._online.get((event, site)) or self._site(event, site)
        found = (event, site, date_tag, iso, day, event_date, start,
                 self._norm(event), online, site_key)
        cache = self._contexts
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        cache[key] = found
        return found

    def _elo_of(self, tag: str | None) -> int | None:
        cache = self._elos
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        found = cache[tag] = _elo(tag)
        return found

    def row(
        self, tags: dict[str, str], moves_digest: str, has_moves: bool, line: int
    ) -> tuple[Any, ...] | str:
        """`prepare` as a plain tuple in PreparedGame's field order (what the writer takes),
        without building the NamedTuple: the import's hot loop."""
        get = tags.get
        wtag = get("White")
        found = self._players.get(wtag)
        white, wnorm = found or self._player(wtag)
        btag = get("Black")
        found = self._players.get(btag)
        black, bnorm = found or self._player(btag)
        if white in _NO_NAME or black in _NO_NAME:
            side = "White" if white in _NO_NAME else "Black"
            return f"no {side} player name: game skipped"
        result = get("Result")
        if result not in RESULTS:
            result = (result or "").strip()
            if result not in RESULTS:
                return (f"unknown result {result!r}: game skipped "
                        "(expected 1-0, 0-1, 1/2-1/2 or *)")
        if not wnorm or not bnorm:
            return "a player name made only of punctuation: game skipped"
        wfide = get("WhiteFideId")
        bfide = get("BlackFideId")
        wid = _fide(wfide) if wfide else None
        bid = _fide(bfide) if bfide else None
        if wnorm == bnorm or (wid is not None and wid == bid):
            return f"White and Black are the same player ({white}): game skipped"
        key = (get("Event"), get("Site"), get("Date"), get("EventDate"))
        context = self._contexts.get(key) or self._context(key)
        (event, site, date_tag, iso, day, event_date, start, event_norm, online,
         site_key) = context
        round_ = get("Round")
        if round_ is not None:
            round_ = round_.strip()
        welo_tag = get("WhiteElo")
        belo_tag = get("BlackElo")
        if not online and ("WhiteRatingDiff" in tags or "WhiteRD" in tags
                           or "BlackRatingDiff" in tags or "BlackRD" in tags):
            online, site_key = True, self._site(event, site, force=True)[1]
        if online:
            welo = belo = None
        else:
            elos = self._elos
            welo = elos[welo_tag] if welo_tag in elos else self._elo_of(welo_tag)
            belo = elos[belo_tag] if belo_tag in elos else self._elo_of(belo_tag)
        tc = get("TimeControl")
        if tc is not None:
            tc = tc.strip() or None
        if tc is None:  # the list depends on the event only
            lst, assumed, outside = self._no_tc.get(event) or self._no_tc_list(event)
        else:
            lst, assumed, outside = self._list(
                tc, start,
                (welo if (belo is None or (welo is not None and welo > belo)) else belo),
                event,
            )
            lst = lst.value
        variant = get("Variant")
        variant = variant.strip() if variant else ""
        fen = get("FEN")
        fen = fen.strip() if fen else ""
        setup = get("SetUp")
        termination = get("Termination")
        if online or variant or fen or setup or result == "*" or termination or not has_moves \
                or outside or welo is None:
            reason = _not_rated_reason(
                online, variant, fen, (setup or "").strip(), result, termination, has_moves,
                outside, welo_tag, belo_tag, welo, belo,
            )
        else:
            reason = None
        identity = sha256(
            f"{wnorm}\x1f{bnorm}\x1f{date_tag or ''}\x1f{round_ or ''}\x1f{event_norm}\x1f"
            f"{moves_digest}".encode("utf-8", "surrogatepass")
        ).hexdigest()
        wtitle = get("WhiteTitle")
        btitle = get("BlackTitle")
        return (
            line, white, wnorm, wid, black, bnorm, bid,
            event, site_key, event_date, online, identity,
            iso, date_tag, round_, result, welo, belo, welo_tag, belo_tag,
            _title(wtitle) if wtitle else None, _title(btitle) if btitle else None,
            tc, termination, variant or None, has_moves, lst, assumed,
            reason is None, reason,
        )

    def _no_tc_list(self, event: str) -> tuple[str, bool, bool]:
        lst, assumed, outside = self._list(None, None, None, event)
        cache = self._no_tc
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        found = cache[event] = (lst.value, assumed, outside)
        return found


_NO_NAME = frozenset({"", "?", "-"})


def _parse_date(tag: str) -> tuple[str | None, dt.date | None]:
    """`2024.03.15` -> ("2024-03-15", date); partial or invalid dates -> (None, None)."""
    t = tag.strip()
    if len(t) == 10 and t[4] in ".-/" and t[7] == t[4]:
        y, m, d = t[:4], t[5:7], t[8:]
        if y.isdigit() and m.isdigit() and d.isdigit() and y.isascii():
            try:
                day = dt.date(int(y), int(m), int(d))
            except ValueError:
                return None, None
            return day.isoformat(), day
    return None, None


def _elo(tag: str | None) -> int | None:
    """An Elo tag as a rating: None for "", "-", "0", "?", "abc", "2690:2222"..."""
    if not tag:
        return None
    t = tag.strip()
    if t.isascii() and t.isdigit():
        value = int(t)
        if 0 < value < 4000:
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
    online: bool, variant: str, fen: str, setup: str, result: str, termination: str | None,
    has_moves: bool, outside: bool, welo_tag: str | None, belo_tag: str | None,
    welo: int | None, belo: int | None,
) -> str | None:
    if online:
        return ONLINE
    if variant.lower() not in STANDARD_VARIANTS:
        return VARIANT
    if (setup == "1" or fen) and fen != START_FEN:
        return SETUP
    if result == "*":
        return UNFINISHED
    if termination and "forfeit" in termination.lower():
        return FORFEIT
    if not has_moves:
        return NO_MOVES
    if outside:
        return TIME_CONTROL
    if (welo is None and belo is None and welo_tag is not None and belo_tag is not None
            and welo_tag.strip() in _UNRATED_TAGS and belo_tag.strip() in _UNRATED_TAGS):
        # Both Elo tags say "unrated": the game counts for neither side.
        return UNRATED_OPPONENT
    return None


# -- batches (run in the worker process, or in-process for small sources) -----------------


_ASSUMED, _RATED, _REASON = 27, 28, 29  # positions in a PreparedGame (tested)


class _Batch(NamedTuple):
    games: list[tuple[Any, ...]]  # PreparedGames as plain tuples (cheap to send)
    read: int  # games read from the source in this batch (stored or not)
    skipped: int
    problems: list[str]  # "line: text"
    not_rated: dict[str, int]  # reason -> games
    assumed: int  # games whose list was assumed


def _batches(
    source: Any, reader: Reader, options: ImportOptions
) -> Iterator[_Batch]:
    """Read and prepare a source's games, BATCH at a time."""
    row = Preparer(options.default_list).row
    games: list[tuple[Any, ...]] = []
    problems: list[str] = []
    not_rated: dict[str, int] = {}
    read = skipped = assumed = 0
    check = _Validator(source) if options.validate else None
    with source.open() as stream:
        for raw in reader(stream, source.name):
            if check is not None:
                problems.extend(check.feed(raw))
            if not raw.tags:  # text outside any game: not a game, only its problems
                problems.extend(_located(raw))
                if options.strict and problems:
                    break
                continue
            read += 1
            if raw.problems:
                problems.extend(_located(raw))
                if options.strict:
                    break
            prepared = row(raw.tags, raw.moves_digest, raw.has_moves, raw.line)
            if prepared.__class__ is str:
                skipped += 1
                problems.append(f"{raw.line}: {prepared}")
                if options.strict:
                    break
            else:
                games.append(prepared)  # type: ignore[arg-type]
                if prepared[_RATED] is False:
                    reason = prepared[_REASON] or ""
                    not_rated[reason] = not_rated.get(reason, 0) + 1
                if prepared[_ASSUMED]:
                    assumed += 1
            if read >= BATCH:
                yield _Batch(games, read, skipped, problems, not_rated, assumed)
                games, problems, not_rated = [], [], {}
                read = skipped = assumed = 0
        if check is not None:
            problems.extend(check.close())
    if read or problems:
        yield _Batch(games, read, skipped, problems, not_rated, assumed)


def _located(raw: RawGame) -> list[str]:
    """A game's problems as "line: text" (the line each concerns)."""
    from tracker.pgn import problem_location

    found = []
    for p in raw.problems:
        line, text = problem_location(raw, p)
        found.append(f"{line}: {text}")
    return found


class _Validator:
    """`--validate`: replay the moves of each game with python-chess (tracker.pgn).

    Games arrive in order with their first line; a second stream over the same source
    supplies each game's text (from its first line to the line before the next game), so
    memory stays bounded by one game.
    """

    def __init__(self, source: Any) -> None:
        from tracker.pgn import decode_text, validate_game

        self._decode = decode_text
        self._validate = validate_game
        self._stream = source.open()
        self._lineno = 0
        self._pending: RawGame | None = None
        self.failed = False

    def _text_until(self, stop: int | None) -> str:
        parts = []
        while stop is None or self._lineno < stop - 1:
            line = self._stream.readline()
            if not line:
                break
            self._lineno += 1
            parts.append(self._decode(line))
        return "".join(parts)

    def _check(self, stop: int | None) -> list[str]:
        game, self._pending = self._pending, None
        if game is None:
            self._text_until(stop)
            return []
        text = self._text_until(stop)
        found = [f"{game.line}: illegal or unreadable moves: {p}" for p in self._validate(text)]
        if found:
            self.failed = True
        return found

    def feed(self, raw: RawGame) -> list[str]:
        # Skip to this game's first line, validating the game before it on the way.
        found = self._check(raw.line)
        if raw.tags and raw.has_moves:
            self._pending = raw
        return found

    def close(self) -> list[str]:
        try:
            return self._check(None)
        finally:
            self._stream.close()


# Worker messages, through a pipe: a batch is the marshal bytes of its plain tuple (marshal
# is cheaper than pickle both ways, and both ends are the same interpreter: a fork); a
# failure is the marshal bytes of (message, exit code); b"" ends a part (or the source).
_END = b""


def _message(batch: _Batch) -> bytes:
    return marshal.dumps(tuple(batch))


def _work(source: Any, out: Any, others: Sequence[Any], send_all: Callable[[], None]) -> None:
    """Run `send_all` in a worker process; a failure is sent as one clean line.

    `others` are the pipe ends the worker inherited and must close: only the main process
    may hold a read end (so a send fails when it is gone), and only this worker its write
    end (so the main process sees the end of the pipe when the worker dies)."""
    for conn in others:
        conn.close()
    gc.freeze()  # the heap inherited from the main process: never scanned here
    try:
        send_all()
    except TrackerError as exc:
        out.send_bytes(marshal.dumps((str(exc), exc.exit_code)))
    except (BrokenPipeError, KeyboardInterrupt):  # the main process is gone
        pass
    except Exception as exc:  # noqa: BLE001 - reported as a clean line by the main process
        with contextlib.suppress(BrokenPipeError):
            out.send_bytes(marshal.dumps(
                (f"cannot read {source.name}: {type(exc).__name__}: {exc}", 1)))
    finally:
        out.close()


def _recv(inbox: Any, source: Any) -> bytes:
    """A worker's next message; its death (the end of its pipe) is one clean line."""
    try:
        blob: bytes = inbox.recv_bytes()
    except EOFError:
        raise TrackerError(
            f"reading {source.name} stopped unexpectedly (a worker process died)"
        ) from None
    return blob


def _decode(blob: bytes) -> _Batch:
    """A batch message as a _Batch; a failure message raised as the worker's error."""
    item = marshal.loads(blob)
    if len(item) == 2:
        exc = TrackerError(item[0])
        exc.exit_code = item[1]
        raise exc
    return _Batch._make(item)


def _received(inbox: Any, source: Any) -> Iterator[_Batch]:
    """The batches a worker sends, up to the end of a part (or of the source)."""
    while True:
        blob = _recv(inbox, source)
        if blob == _END:
            return
        yield _decode(blob)


def _worker(source: Any, reader: Reader, options: ImportOptions, out: Any, inbox: Any) -> None:
    """The worker process: send batches, then the end."""

    def send_all() -> None:
        for batch in _batches(source, reader, options):
            out.send_bytes(_message(batch))
        out.send_bytes(_END)

    _work(source, out, [inbox], send_all)


def _in_worker(source: Any, reader: Reader, options: ImportOptions) -> Iterator[_Batch]:
    """Run `_batches` in a forked worker; yield what it sends."""
    ctx = multiprocessing.get_context("fork")
    inbox, out = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_worker, args=(source, reader, options, out, inbox), daemon=True
    )
    proc.start()
    out.close()
    try:
        yield from _received(inbox, source)
    finally:
        inbox.close()
        if proc.is_alive():
            proc.terminate()
        proc.join()


# -- two workers: a big plain file in parts, read alternately ------------------------------


class _Part:
    """A byte range of an open file as a source for `_batches`; counts the lines it read."""

    def __init__(self, stream: BinaryIO, name: str, start: int, end: int) -> None:
        self.name = name
        self._stream = stream
        stream.seek(start)
        self._left = end - start
        self.lines = 0

    def open(self) -> _Part:
        return self

    def __enter__(self) -> _Part:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def read(self, size: int = -1) -> bytes:
        if size < 0 or size > self._left:
            size = self._left
        data = self._stream.read(size) if size else b""
        self._left -= len(data)
        self.lines += data.count(b"\n")
        return data


def _part_worker(
    source: Any, options: ImportOptions, cuts: list[int], which: int, out: Any,
    others: list[Any],
) -> None:
    """Worker `which` (0 or 1) of two: parts which, which + 2, ... of the file; per part,
    its batches (as bytes, all made before the first is sent, so that the worker parses
    while the main process reads the other's part; a part's are small), then the end. It
    counts the lines of the other worker's parts to number its own."""
    from tracker.pgn import read_games

    def send_all() -> None:
        with source.open() as stream:
            line = 1
            for i in range(len(cuts) - 1):
                part = _Part(stream, source.name, cuts[i], cuts[i + 1])
                if i % 2 != which:
                    while part.read(1 << 20):
                        pass
                    line += part.lines
                    continue

                def reader(s: BinaryIO, name: str, first: int = line) -> Iterator[RawGame]:
                    return read_games(s, name, first)

                made = (_message(batch) for batch in _batches(part, reader, options))
                # The main process reads part 0 first: its batches go as soon as made.
                for blob in made if i == 0 else list(made):
                    out.send_bytes(blob)
                out.send_bytes(_END)
                line += part.lines

    _work(source, out, others, send_all)


def _in_two_workers(source: Any, options: ImportOptions, cuts: list[int]) -> Iterator[_Batch]:
    """The batches of the parts of a plain file, in file order, from two forked workers
    (part i from worker i % 2): each parses its next part while the other's is written.

    Between two batches, the main process reads ahead whatever either worker has sent (up
    to AHEAD_BYTES a worker): a worker that has made a part can start its next one instead of
    waiting, blocked on its pipe, until the main process has written every game before it.
    Both workers then parse at once; the main process uses the buffered messages in order."""
    ctx = multiprocessing.get_context("fork")
    pipes = [ctx.Pipe(duplex=False) for _ in range(2)]
    procs = [
        ctx.Process(
            target=_part_worker,
            args=(source, options, cuts, w, out,
                  [end for pipe in pipes for end in pipe if end is not out]),
            daemon=True,
        )
        for w, (_, out) in enumerate(pipes)
    ]
    for proc in procs:
        proc.start()
    for _, out in pipes:
        out.close()
    inboxes = [inbox for inbox, _ in pipes]
    parts = len(cuts) - 1
    ends_due = [len(range(w, parts, 2)) for w in range(2)]  # parts not yet read ahead
    ahead: list[collections.deque[bytes]] = [collections.deque(), collections.deque()]
    held = [0, 0]

    def read_ahead() -> None:
        for w in (0, 1):
            inbox, queue = inboxes[w], ahead[w]
            while ends_due[w] and held[w] < AHEAD_BYTES and inbox.poll():
                try:
                    blob = inbox.recv_bytes()
                except EOFError:  # reported when its turn comes (after what it sent)
                    ends_due[w] = 0
                    break
                queue.append(blob)
                held[w] += len(blob)
                if blob == _END:
                    ends_due[w] -= 1

    try:
        for i in range(parts):
            w = i % 2
            inbox, queue = inboxes[w], ahead[w]
            while True:
                if queue:
                    blob = queue.popleft()
                    held[w] -= len(blob)
                else:
                    blob = _recv(inbox, source)
                    if blob == _END:
                        ends_due[w] -= 1
                if blob == _END:
                    break
                batch = _decode(blob)
                read_ahead()
                yield batch
    finally:
        for inbox in inboxes:
            inbox.close()
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
            proc.join()


def _part_cuts(source: Any, reader: Reader, options: ImportOptions) -> list[int] | None:
    """Where to cut a source for two workers, or None: only a plain file (seekable, not an
    archive nor standard input) of at least SPLIT_MIN_BYTES, read by `read_games`, without
    --validate (it reads the source as one stream), when workers are allowed."""
    from tracker.pgn.scan import game_cuts, read_games

    if (options.workers is False or options.validate or reader is not read_games
            or _shared_stream(source) or (_size(source) or 0) < SPLIT_MIN_BYTES
            or "fork" not in multiprocessing.get_all_start_methods()):
        return None
    with source.open() as stream:
        if type(stream) is not io.BufferedReader or not isinstance(stream.raw, io.FileIO):
            return None
        size = os.fstat(stream.fileno()).st_size
        if size < SPLIT_MIN_BYTES:
            return None
        cuts = game_cuts(stream, size, SPLIT_PART)
    return cuts if len(cuts) > 2 else None


def _use_worker(source: Any, options: ImportOptions) -> bool:
    if options.workers is not None:
        return options.workers and "fork" in multiprocessing.get_all_start_methods()
    if "fork" not in multiprocessing.get_all_start_methods() or _shared_stream(source):
        return False
    size = _size(source)
    return size is None or size >= WORKER_MIN_BYTES


def _size(source: Any) -> int | None:
    size = getattr(source, "size", None)
    return size if isinstance(size, int) else None


def _shared_stream(source: Any) -> bool:
    """Standard input is one spooled stream: never read it from two places at once."""
    return str(source.name) == "-"


# -- content hash ---------------------------------------------------------------------------


def content_hash(stream: BinaryIO) -> str:
    h = hashlib.sha256()
    while chunk := stream.read(1 << 20):
        h.update(chunk)
    return h.hexdigest()


class _Hasher(threading.Thread):
    """Hashes a source in a thread (hashlib releases the GIL), while parsing runs."""

    def __init__(self, source: Any) -> None:
        super().__init__(daemon=True)
        self.source = source
        self.digest: str | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with self.source.open() as stream:
                self.digest = content_hash(stream)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the main thread
            self.error = exc

    def result(self) -> str:
        if self.is_alive() or self.ident is not None:
            self.join()
        if self.error is not None:
            if isinstance(self.error, TrackerError):
                raise self.error
            raise TrackerError(f"cannot read {self.source.name}: {self.error}")
        assert self.digest is not None
        return self.digest


# -- the use case ----------------------------------------------------------------------------


def _default_reader() -> Reader:
    from tracker.pgn import read_games

    return read_games


def _default_sources(paths: Sequence[str]) -> Iterable[Any]:
    sources = importlib.import_module("tracker.sources")
    found: Iterable[Any] = sources.iter_sources(paths)
    return found


def import_paths(
    store: Store,
    paths: Sequence[str],
    options: ImportOptions | None = None,
    progress: Progress | None = None,
) -> ImportReport:
    """Import files, folders, archives or `-` (standard input) into the store."""
    options = options or ImportOptions()
    return import_sources(
        store, _default_sources(paths), options, progress, _default_reader()
    )


def import_sources(
    store: Store,
    sources: Iterable[Any],
    options: ImportOptions | None = None,
    progress: Progress | None = None,
    reader: Reader | None = None,
) -> ImportReport:
    """Import each source in its own transaction; see the module docstring."""
    options = options or ImportOptions()
    progress = progress or _NoProgress()
    read = reader or _default_reader()
    report = ImportReport()
    for source in sources:
        rep = SourceReport(name=str(source.name))
        report.sources.append(rep)
        try:
            import_source(store, source, options, progress, read, rep)
        except TrackerError as exc:
            rep.error = str(exc)
            if options.strict:
                raise
    return report


def import_source(
    store: Store,
    source: Any,
    options: ImportOptions,
    progress: Progress,
    reader: Reader,
    rep: SourceReport,
) -> None:
    """One source, one transaction: it lands whole or not at all."""
    name = rep.name
    hasher = _Hasher(source)
    size = _size(source)
    if _shared_stream(source) or size is None or size < WORKER_MIN_BYTES:
        hasher.run()  # small (or standard input): hash first, in this thread
        if _already(store, hasher.result(), rep):
            return
    else:
        hasher.start()
    cuts = _part_cuts(source, reader, options)
    batches = (
        _in_two_workers(source, options, cuts) if cuts is not None
        else _in_worker(source, reader, options) if _use_worker(source, options)
        else _batches(source, reader, options)
    )
    progress.start(name, size)
    try:
        with GameWriter(store, name, "") as writer:
            digest: str | None = None
            for batch in batches:
                if digest is None and (hasher.digest is not None or hasher.error is not None):
                    digest = hasher.result()
                    if _already(store, digest, rep):
                        return
                rep.games_read += batch.read
                rep.skipped += batch.skipped
                for p in batch.problems:
                    rep.problem_count += 1
                    if len(rep.problems) < MAX_PROBLEMS_KEPT:
                        rep.problems.append(f"{name}:{p}")
                if options.strict and rep.problem_count:
                    raise BadInput(
                        f"{rep.problems[0]} (--strict: nothing of {name} was imported)"
                    )
                writer.add(batch.games)
                rep.not_rated.update(batch.not_rated)
                rep.list_assumed += batch.assumed
                progress.advance(batch.read)
            if digest is None:
                digest = hasher.result()
                if _already(store, digest, rep):
                    return
            if rep.games_read == 0:
                why = f" ({rep.problems[0]})" if rep.problems else ""
                raise BadInput(f"{name}: no game found{why}; is it a PGN file?")
            writer.content_hash = digest
            rep.added = writer.added
            rep.duplicates = writer.given - writer.added
            writer.finish(games_read=rep.games_read, problems=rep.problem_count)
    except BaseException:
        _nothing_stored(rep)
        raise
    finally:
        if isinstance(batches, Iterator) and hasattr(batches, "close"):
            batches.close()
        progress.finish()


def _nothing_stored(rep: SourceReport) -> None:
    """A failed source adds nothing to the totals: no game read, added, skipped, assumed or
    not counted for rating (its problems stay: they say what is wrong with the file)."""
    rep.games_read = rep.skipped = rep.added = rep.duplicates = rep.list_assumed = 0
    rep.not_rated.clear()


def _already(store: Store, digest: str, rep: SourceReport) -> bool:
    found = find_import(store, digest)
    if found is None:
        return False
    rep.already = found
    _nothing_stored(rep)
    rep.problem_count = 0
    rep.problems.clear()
    return True
