"""Which tournament a game belongs to: the grouping rule of the import (pure: no database).

A tournament is keyed `event|site|start`; same-name events of other years are told apart by
dates (a game joins one of the same event and site only within `JOIN_DAYS` of its span), so
a yearly "Club Championship" without EventDate becomes one tournament a year and an event
across New Year stays one; a game of unknown date joins the dated tournament it fits, if
any (`Grouping.place`, `merges`). The store (tracker.store.games) feeds a `Grouping` what it
loads and writes what it decided. The rule in full: docs/architecture.md, section
tracker/identity/.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterable

__all__ = ["JOIN_DAYS", "TAG_YEAR_MONTH", "Grouping", "Tournament", "fits", "merges"]

JOIN_DAYS = 30

TAG_YEAR_MONTH = re.compile(r"^\s*(\d{4})(?:[.\-/](\d{2}))?")
"""The year and month a date tag gives, partial ones too (`2024.??.??`, `2024.03.??`)."""

Pair = tuple[str, str]  # (event, site)
Span = Callable[[str | None, str | None], bool]


def _days(iso: str) -> int:
    return dt.date.fromisoformat(iso).toordinal()


@functools.lru_cache(maxsize=1024)
def fits(tag: str | None) -> Span:
    """A test of a tournament's span (ISO start, end) against what a partial date tag says:
    its year (`2024.??.??`), its year and month (`2024.03.??`); a tag that says nothing
    (`????.??.??`, missing) fits every dated span. One test per tag, kept."""
    m = TAG_YEAR_MONTH.match(tag or "")
    if m is None:
        return _dated
    year, month = m.group(1), m.group(2)
    wanted = f"{year}-{month}" if month and "01" <= month <= "12" else year
    n = len(wanted)

    def fit(start: str | None, end: str | None) -> bool:
        if start is None:
            return False
        return start[:n] <= wanted <= (end or start)[:n]

    return fit


def _dated(start: str | None, end: str | None) -> bool:
    return start is not None


class Tournament:
    """A tournament as the grouping sees it: its id, span (ISO dates, None when undated),
    key; `dirty` once its span was widened and not yet written."""

    __slots__ = ("id", "start", "end", "key", "dirty", "lo", "hi")

    def __init__(self, tid: int, start: str | None, end: str | None, key: str) -> None:
        self.id = tid
        self.start = start
        self.end = end
        self.key = key
        self.dirty = False
        self._span()

    def _span(self) -> None:
        # Day numbers a game may have and still join: [start - JOIN_DAYS, end + JOIN_DAYS].
        if self.start is None:
            self.lo, self.hi = 1, 0
        else:
            self.lo = _days(self.start) - JOIN_DAYS
            self.hi = _days(self.end or self.start) + JOIN_DAYS

    def widen(self, iso: str) -> None:
        if self.start is None or iso < self.start:
            self.start = iso
            self.dirty = True
        if self.end is None or iso > self.end:
            self.end = iso
            self.dirty = True
        if self.dirty:
            self._span()


class Grouping:
    """The tournaments of the event and site pairs a source touches, and the rule that puts
    each game in one. The caller gives it every tournament of a pair (`hold`) before the
    first game of that pair is placed; new tournaments take the ids after `last_id`."""

    def __init__(self, last_id: int) -> None:
        self.last_id = last_id
        self.pairs: dict[Pair, list[Tournament]] = {}
        self.by_key: dict[str, Tournament] = {}
        # What place() made since the caller last took it: (id, event, site, start, end,
        # key, online), the rows of new tournaments.
        self.made: list[tuple[int, str, str, str | None, str | None, str, bool]] = []
        self.undated_pairs: set[Pair] = set()  # pairs of the undated tournaments it made
        self._last: dict[Pair, Tournament] = {}  # the last one a dated game joined
        # pair and tournament of the last dated game: an undated game right after it, of
        # the same event and site, is one of its games
        self._last_dated: tuple[Pair, Tournament] | None = None
        self._day: dict[str, int] = {}  # ISO date -> day number
        self._prev: tuple[object, ...] = ()  # (event, site, dates) of the last game placed
        self._prev_id = 0

    def unheld(self, pairs: Iterable[Pair]) -> set[Pair]:
        """The pairs among `pairs` it holds no tournaments of yet."""
        held = self.pairs
        return {p for p in pairs if p not in held}  # (not `- held.keys()`: a copy of it)

    def hold(self, pair: Pair, found: Iterable[tuple[int, str | None, str | None, str]]) -> None:
        """The tournaments (id, start, end, key) of `pair` there are (none: a new pair)."""
        ts = self.pairs.setdefault(pair, [])
        for tid, start, end, key in found:
            t = Tournament(tid, start, end, key)
            self.by_key[key] = t
            ts.append(t)

    def forget(self) -> None:
        """Let go of every tournament held (memory on huge sources: the caller holds them
        again from the database when a pair comes back)."""
        self.pairs.clear()
        self.by_key.clear()
        self._last.clear()
        self._last_dated = None
        self._day.clear()
        self._prev = ()

    def widened(self) -> list[tuple[str | None, str | None, int]]:
        """(start, end, id) of the tournaments whose span changed since last asked."""
        rows = []
        for ts in self.pairs.values():
            for t in ts:
                if t.dirty:
                    t.dirty = False
                    rows.append((t.start, t.end, t.id))
        return rows

    def place(
        self,
        event: str,
        site: str,
        event_date: str | None,
        date: str | None,
        date_tag: str | None,
        online: bool,
    ) -> int:
        """The id of the tournament a game goes into (see the module docstring); a new one
        is added to `made`."""
        # The games of a round come one after the other: a game with the same event, site,
        # dates as the one before joins the same tournament (whose span holds its dates).
        same = (event, site, event_date, date, date_tag)
        if same == self._prev:
            return self._prev_id
        self._prev = same
        self._prev_id = tid = self._find(event, site, event_date or None, date, date_tag, online)
        return tid

    def _find(
        self,
        event: str,
        site: str,
        event_date: str | None,
        date: str | None,
        date_tag: str | None,
        online: bool,
    ) -> int:
        # (event_date is never '': an empty tag is no start)
        anchor = event_date or date
        pair = (event, site)
        t: Tournament | None
        if anchor is None:
            key = f"{event}|{site}|{date_tag or '?'}"
            t = self._undated_home(pair, date_tag) or self.by_key.get(key)
        else:
            t = self._last.get(pair)
            day = self._day.get(anchor)
            if day is None:
                day = self._day[anchor] = _days(anchor)
            if t is None or not t.lo <= day <= t.hi:
                key = f"{event}|{site}|{anchor}"
                t = self.by_key.get(key)
                if t is None:
                    near = [c for c in self.pairs[pair] if c.lo <= day <= c.hi]
                    # The nearest by start (ties: the older tournament).
                    t = min(near, key=lambda c: (abs(c.lo + JOIN_DAYS - day), c.id), default=None)
        if t is None:
            self.last_id += 1
            t = Tournament(self.last_id, anchor, date or anchor, key)
            self.made.append((t.id, event, site, t.start, t.end, key, online))
            self.by_key[key] = t
            self.pairs[pair].append(t)
            if anchor is None:
                self.undated_pairs.add(pair)
        if anchor is not None:
            self._last[pair] = t
            self._last_dated = (pair, t)
        start = t.start
        if event_date is not None and (start is None or event_date < start):
            t.widen(event_date)
        if date is not None and (t.start is None or not t.start <= date <= (t.end or "")):
            t.widen(date)
        return t.id

    def _undated_home(self, pair: Pair, tag: str | None) -> Tournament | None:
        """The dated tournament of `pair` a game without a usable date joins: the one the
        dated game before it joined (same event and site), else the only one that fits what
        its date tag says; None: none, or several to choose from."""
        fit = fits(tag)
        last = self._last_dated
        if last is not None and last[0] == pair and fit(last[1].start, last[1].end):
            return last[1]
        home = None
        for c in self.pairs[pair]:
            if c.start is not None and fit(c.start, c.end):
                if home is not None:
                    return None
                home = c
        return home

    def pairs_undated(self) -> set[Pair]:
        """The pairs held with an undated tournament, and those it made one for."""
        found = {p for p, ts in self.pairs.items() if any(t.start is None for t in ts)}
        return found | self.undated_pairs


def merges(found: Iterable[tuple[int, str | None, str | None, str, bool]]) -> list[tuple[int, int]]:
    """(undated id, dated id): each undated tournament among `found` (id, start, end, key,
    kept: the tournaments of one event and site, all of them) that merges into the one
    dated tournament fitting the date tag of its key; none when `kept` (the user recorded
    an override for it) or when none or several fit."""
    rows = list(found)
    dated = [(tid, start, end) for tid, start, end, _, _ in rows if start is not None]
    if not dated:
        return []
    moves = []
    for tid, start, _, key, kept in rows:
        if start is not None or kept:
            continue
        fit = fits(key.rpartition("|")[2])
        home = [i for i, a, b in dated if fit(a, b)]
        if len(home) == 1:
            moves.append((tid, home[0]))
    return moves
