"""The import's plain values: what goes in (options, sources, a reader), what comes out
(a report per source) and how progress is shown (the CLI draws it; the importer never does).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import BinaryIO, Protocol

from tracker.model import EloTags, ForeignFideId, ImportRecord, RatingList, RawGame


class Source(Protocol):
    """What tracker.files.sources hands out: a name for messages and a way to read the bytes."""

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
    # --tags: what the files' Elo tags in rapid and blitz events are, stored per file; None:
    # not said (AUTO for a new file; a file imported before keeps what it had)
    elo_tags: EloTags | None = None


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
    # names given another player's FIDE ID (filed under the name: a warning, no merge), and
    # the games of such names beyond the first MAX_FOREIGN names (counted only)
    foreign_ids: list[ForeignFideId] = field(default_factory=list)
    foreign_more: int = 0
    already: ImportRecord | None = None  # the same content was imported before
    checked: bool = False  # ... with problems, and read again with --strict: none now
    error: str | None = None  # the source failed: nothing of it was stored
    import_id: int | None = None  # the import row of the games added
    # --tags given for content imported before: what its tags were said to be until now
    # (the import row now says `elo_tags`); None: unchanged
    tags_were: EloTags | None = None


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
    """How the CLI shows progress (the importer never draws anything itself): `plan` once
    with the sources and their bytes on disk (None: not known, standard input), then per
    source `start`, `advance` per batch (its games, and how far into the source's bytes on
    disk it has read when known) and `finish`."""

    def plan(self, files: int, total_bytes: int | None) -> None: ...

    def start(self, name: str, total_bytes: int | None) -> None: ...

    def advance(self, games: int, at: int | None = None) -> None: ...

    def finish(self) -> None: ...


class NoProgress:
    """No progress shown (the library's default)."""

    def plan(self, files: int, total_bytes: int | None) -> None:
        pass

    def start(self, name: str, total_bytes: int | None) -> None:
        pass

    def advance(self, games: int, at: int | None = None) -> None:
        pass

    def finish(self) -> None:
        pass
