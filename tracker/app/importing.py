"""`tracker import`: PGN sources into the store, each source in one transaction.

For each source (a file, an archive member, standard input) its content hash tells a source
already imported; the games are read and prepared, in worker processes for a big source so
that both cores work, and stored in one transaction committed when the source is complete,
so a kill mid-way leaves nothing of it and a file that changed meanwhile fails whole. The
flow, step by step, and how a big file is split: docs/architecture.md, section
tracker/importer/. The sources come from tracker.files.sources, the games' preparation from
tracker.importer (`contract` the options and reports, `prepare` a game's tags to a checked
`PreparedGame`, `batches` the batches of a source, in process or in forked workers), the
writing from tracker.store.games.
"""

from __future__ import annotations

import contextlib
import hashlib
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from types import FrameType
from typing import Any, BinaryIO

from tracker.errors import BadInput, TrackerError
from tracker.files.sources import Limits, close_idle, iter_sources, parse_size
from tracker.importer import batches as tunables
from tracker.importer.batches import batches_of, shared_stream, source_size
from tracker.importer.contract import (
    ImportOptions,
    ImportReport,
    NoProgress,
    Progress,
    Reader,
    Source,
    SourceReport,
)
from tracker.model import EloTags, ImportRecord
from tracker.store import Store
from tracker.store.db import DamagedDatabase
from tracker.store.games import GameWriter
from tracker.store.imports import find_import, set_elo_tags

__all__ = [
    "ImportOptions",
    "Interrupted",
    "ImportReport",
    "Limits",
    "MAX_PROBLEMS_KEPT",
    "Progress",
    "Reader",
    "Source",
    "SourceReport",
    "content_hash",
    "import_paths",
    "import_source",
    "import_sources",
    "parse_size",
]


MAX_PROBLEMS_KEPT = 200  # per source, in the report (all are counted)


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


# -- Ctrl-C ---------------------------------------------------------------------------------


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped an import. `report` holds the sources finished before it (each stored
    whole, or failed, or already imported); `source` names the one that was being imported
    and of which nothing was stored (None: it came between two sources)."""

    def __init__(self, report: ImportReport, source: str | None) -> None:
        super().__init__(source or "")
        self.report = report
        self.source = source


class _CtrlC:
    """SIGINT while sources are imported: the first one is noted and acted on at the next
    safe point (before each batch is written, before each source). A KeyboardInterrupt
    raised by the signal itself lands wherever the main thread happens to be, even in a
    garbage-collector callback, where Python prints it and carries on (the import then
    went on to the end). A second Ctrl-C interrupts at once (a read that waits for input).
    Only in the main thread, and only over Python's default handler (a caller's own handler
    is left alone)."""

    def __init__(self) -> None:
        self.pressed = False
        self._installed = False

    def __enter__(self) -> _CtrlC:
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            signal.signal(signal.SIGINT, self._noted)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self._installed = False

    def _noted(self, signum: int, frame: FrameType | None) -> None:
        if self.pressed:
            raise KeyboardInterrupt
        self.pressed = True

    def check(self) -> None:
        """Raise KeyboardInterrupt if Ctrl-C was pressed (at a point where it is safe)."""
        if self.pressed:
            raise KeyboardInterrupt


def _go_on() -> None:
    pass


def _default_reader() -> Reader:
    from tracker.pgn import read_games

    return read_games


def _default_sources(paths: Sequence[str], limits: Limits | None = None) -> Iterable[Any]:
    found: list[Any] = list(iter_sources(paths, limits))  # (resolved eagerly)
    return found


def import_paths(
    store: Store,
    paths: Sequence[str],
    options: ImportOptions | None = None,
    progress: Progress | None = None,
    on_source: Callable[[SourceReport], None] | None = None,
    limits: Limits | None = None,
) -> ImportReport:
    """Import files, folders, archives or `-` (standard input) into the store.
    `limits` (None: the defaults of `Limits`) bounds what a source may cost: past one, the
    import stops with a BadInput naming the source."""
    options = options or ImportOptions()
    return import_sources(
        store,
        _default_sources(paths, limits),
        options,
        progress,
        _default_reader(),
        on_source,
    )


def import_sources(
    store: Store,
    sources: Iterable[Any],
    options: ImportOptions | None = None,
    progress: Progress | None = None,
    reader: Reader | None = None,
    on_source: Callable[[SourceReport], None] | None = None,
) -> ImportReport:
    """Import each source in its own transaction; see the module docstring.

    `on_source(report)` is called as each source is done (stored, already imported, or
    failed), so that a caller can say so at once. Ctrl-C raises `Interrupted` (a
    KeyboardInterrupt) with the report of the sources done before it; the source it stopped
    is rolled back whole. An error whose `stops_run` is true (a source past its limits: a
    decompression bomb) is raised as it is, after the sources done before it."""
    options = options or ImportOptions()
    progress = progress or NoProgress()
    read = reader or _default_reader()
    report = ImportReport()
    if isinstance(sources, Sequence):
        sizes = [source_size(s) for s in sources]
        progress.plan(len(sources), None if None in sizes else sum(s or 0 for s in sizes))
    current: str | None = None
    with _CtrlC() as ctrl_c:
        try:
            for source in sources:
                current = str(source.name)
                ctrl_c.check()
                rep = SourceReport(name=current)
                try:
                    import_source(store, source, options, progress, read, rep, ctrl_c.check)
                except DamagedDatabase:
                    raise  # not this file's fault: every other file would fail the same way
                except TrackerError as exc:
                    rep.error = str(exc)
                    if options.strict or getattr(exc, "stops_run", False):
                        raise
                report.sources.append(rep)
                current = None
                if on_source is not None:
                    on_source(rep)
        except KeyboardInterrupt:
            raise Interrupted(report, current) from None
        finally:
            close_idle()  # the archives kept open for their next member: none comes
    return report


def import_source(
    store: Store,
    source: Any,
    options: ImportOptions,
    progress: Progress,
    reader: Reader,
    rep: SourceReport,
    check: Callable[[], None] = _go_on,
) -> None:
    """One source, one transaction: it lands whole or not at all. `check()` is called before
    each batch is written: an exception from it (Ctrl-C) rolls the source back."""
    name = rep.name
    stamp: Callable[[], Any] | None = getattr(source, "stamp", None)
    before = stamp() if stamp is not None else None
    hasher = _Hasher(source)
    size = source_size(source)
    # --strict on a file imported before with problems (without --strict): read it again
    # and check it, as the earlier import never did; its games stay stored
    before_lenient: list[ImportRecord] = []
    if shared_stream(source) or size is None or size < tunables.WORKER_MIN_BYTES:
        hasher.run()  # small (or standard input): hash first, in this thread
        if _already(store, hasher.result(), rep, options, before_lenient):
            return
    else:
        hasher.start()
    batches = batches_of(source, reader, options)
    progress.start(name, size)
    try:
        with GameWriter(store, name, "", options.elo_tags or EloTags.AUTO) as writer:
            rep.import_id = writer.import_id
            digest: str | None = None
            for batch in batches:
                check()
                if digest is None and (hasher.digest is not None or hasher.error is not None):
                    digest = hasher.result()
                    if _already(store, digest, rep, options, before_lenient):
                        return
                rep.games_read += batch.read
                rep.skipped += batch.skipped
                _add_problems(rep, name, batch.problems)
                if options.strict and rep.problem_count:
                    raise _strict_failure(store, rep, hasher, before_lenient)
                writer.add(batch.games)
                if writer.clashes:  # duplicates whose result differs from the stored one
                    _add_problems(rep, name, writer.clashes)
                    if options.strict:
                        raise _strict_failure(store, rep, hasher, before_lenient)
                    writer.clashes.clear()
                rep.not_rated.update(batch.not_rated)
                rep.list_assumed += batch.assumed
                progress.advance(batch.read, batch.at)
            if digest is None:
                digest = hasher.result()
                if _already(store, digest, rep, options, before_lenient):
                    return
            if before_lenient:  # checked with --strict: no problem; nothing more to add
                rep.checked = True
                _already(store, digest, rep)
                return
            if stamp is not None and before is not None and stamp() != before:
                raise TrackerError(
                    f"{name}: the file changed while it was being imported (written to, cut "
                    "or replaced): nothing of it was stored; import it again once it is "
                    "complete"
                )
            if rep.games_read == 0:
                why = f" ({rep.problems[0]})" if rep.problems else ""
                raise BadInput(f"{name}: no game found{why}; is it a PGN file?")
            writer.content_hash = digest
            rep.foreign_ids = list(writer.foreign.values())
            rep.foreign_more = writer.foreign_more
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


def _add_problems(rep: SourceReport, name: str, problems: Iterable[str]) -> None:
    for p in problems:
        rep.problem_count += 1
        if len(rep.problems) < MAX_PROBLEMS_KEPT:
            rep.problems.append(f"{name}:{p}")


def _strict_failure(
    store: Store, rep: SourceReport, hasher: _Hasher, lenient: list[ImportRecord]
) -> BadInput:
    """The error of --strict at the first problem; for a file imported before without
    --strict, what stays stored of it and how to take it out."""
    name = rep.name
    if not lenient:  # (a big file's hash may still be running: its earlier import?)
        with contextlib.suppress(TrackerError):
            found = find_import(store, hasher.result())
            if found is not None:
                lenient.append(found)
    if not lenient:
        return BadInput(f"{rep.problems[0]} (--strict: nothing of {name} was imported)")
    r = lenient[0]
    when = r.started_at.strftime("%Y-%m-%d %H:%M")
    return BadInput(
        f"{rep.problems[0]} (--strict: {name} was imported before without --strict, on "
        f"{when} UTC as import {r.id} with {r.problems:,} "
        f"{'problem' if r.problems == 1 else 'problems'}; nothing more of it was imported; "
        f"the {r.games_added:,} {'game' if r.games_added == 1 else 'games'} it added stay "
        f"stored until `tracker imports remove {r.id}`)"
    )


def _nothing_stored(rep: SourceReport) -> None:
    """A failed source adds nothing to the totals: no game read, added, skipped, assumed or
    not counted for rating (its problems stay: they say what is wrong with the file)."""
    rep.games_read = rep.skipped = rep.added = rep.duplicates = rep.list_assumed = 0
    rep.foreign_more = 0
    rep.not_rated.clear()
    rep.foreign_ids.clear()


def _already(
    store: Store,
    digest: str,
    rep: SourceReport,
    options: ImportOptions | None = None,
    lenient: list[ImportRecord] | None = None,
) -> bool:
    """Whether this content was imported before (then the report says so, nothing added).
    With --strict, content imported before with problems is not skipped: it goes into
    `lenient`, to be read and checked again."""
    found = find_import(store, digest)
    if found is None:
        return False
    if options is not None and options.strict and found.problems and lenient is not None:
        if not lenient:
            lenient.append(found)
        return False
    rep.already = found
    said = None if options is None else options.elo_tags
    if said is not None and said is not found.elo_tags:
        set_elo_tags(store, found.id, said)
        rep.tags_were, rep.already = found.elo_tags, replace(found, elo_tags=said)
    _nothing_stored(rep)
    rep.problem_count = 0
    rep.problems.clear()
    return True
