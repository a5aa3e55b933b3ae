"""A source's games read and prepared, BATCH at a time: in this process (small sources), in
one forked worker (archives, standard input, files up to SPLIT_MIN_BYTES) or, for a big plain
file, in parts read by two forked workers in turn. The batches reach the main process in file
order, the same whichever way they were made (tested).

The tunables (BATCH, WORKER_MIN_BYTES, SPLIT_MIN_BYTES, SPLIT_PART) live here;
tests patch them on this module.
"""

from __future__ import annotations

import contextlib
import gc
import io
import marshal
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, BinaryIO, NamedTuple

from tracker.errors import TrackerError
from tracker.importer.contract import ImportOptions, Reader
from tracker.importer.prepare import Preparer
from tracker.model import PreparedGame, RawGame, Skipped
from tracker.pgn.stream import LineCount

BATCH = 2_000
WORKER_MIN_BYTES = 4 << 20  # smaller sources are parsed in-process (a fork costs more)
SPLIT_MIN_BYTES = 32 << 20  # a plain file this big is parsed by two workers, in parts
SPLIT_PART = 8 << 20  # bytes per part (a worker holds one part's batches, pickled)
MEMO_ENTRIES = 40_000  # a part worker's Preparer, kept from part to part, is made anew
# once its memo dicts hold more entries than this after a part (about 8 MB a worker)


class Batch(NamedTuple):
    games: Sequence[PreparedGame]
    read: int  # games read from the source in this batch (stored or not)
    skipped: int
    problems: list[str]  # "line: text"
    not_rated: dict[str, int]  # reason -> games
    assumed: int  # games whose list was assumed
    at: int | None  # bytes of the source on disk read so far (None: not known), for progress


def _position(stream: Any) -> Callable[[], int | None]:
    """How far into its file on disk a source's stream has read: a plain file's position, a
    compressed file's position in its compressed bytes (`position()` of
    tracker.files.compressed.Limited), a part's in the whole file; otherwise (a zip member,
    standard input) not known."""
    position = getattr(stream, "position", None)
    if callable(position):
        return position  # type: ignore[no-any-return]
    if isinstance(stream, io.BufferedReader) and isinstance(stream.raw, io.FileIO):
        return stream.tell
    return lambda: None


def _batches(
    source: Any, reader: Reader, options: ImportOptions, preparer: Preparer | None = None
) -> Iterator[Batch]:
    """Read and prepare a source's games, BATCH at a time. `preparer`: one kept from the
    parts before (its memo dicts warm: the values are the same, found sooner), else a new
    one."""
    if preparer is None:
        preparer = Preparer(options.default_list)
    row = preparer.row
    warnings = preparer.warnings
    games: list[PreparedGame] = []
    problems: list[str] = []
    not_rated: dict[str, int] = {}
    read = skipped = assumed = 0
    check = _Validator(source) if options.validate else None
    with source.open() as stream:
        at = _position(stream)
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
            prepared = row(raw.tags, raw.moves_digest, raw.has_moves, raw.line, raw.moves_end)
            if isinstance(prepared, Skipped):
                skipped += 1
                problems.append(f"{raw.line}: {prepared}")
                if options.strict:
                    break
            else:
                game = prepared
                games.append(game)
                if warnings:
                    problems.extend(warnings)
                    warnings.clear()
                    if options.strict:
                        break
                if game.rated is False:
                    reason = game.not_rated_reason or ""
                    not_rated[reason] = not_rated.get(reason, 0) + 1
                if game.list_assumed:
                    assumed += 1
            if read >= BATCH:
                yield Batch(games, read, skipped, problems, not_rated, assumed, at())
                games, problems, not_rated = [], [], {}
                read = skipped = assumed = 0
        if check is not None:
            problems.extend(check.close())
        end = at()
    if read or problems:
        yield Batch(games, read, skipped, problems, not_rated, assumed, end)


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
        from tracker.pgn import text_lines, validate_moves

        self._validate = validate_moves
        self._stream = source.open()
        self._lines = text_lines(self._stream, source.name)  # numbered as read_games does
        self._lineno = 0
        self._pending: RawGame | None = None
        self.failed = False

    def _text_until(self, stop: int | None) -> str:
        parts = []
        while stop is None or self._lineno < stop - 1:
            line = next(self._lines, None)
            if line is None:
                break
            self._lineno += 1
            parts.append(line)
        return "".join(parts)

    def _check(self, stop: int | None) -> list[str]:
        game, self._pending = self._pending, None
        if game is None:
            self._text_until(stop)
            return []
        text = self._text_until(stop)
        found = [
            f"{line}: illegal or unreadable moves: {p}"
            for line, p in self._validate(text, game.line)
        ]
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


def _message(batch: Batch) -> bytes:
    """A batch as the bytes a worker sends: its games as plain tuples (marshal takes no
    NamedTuple), which `_batch_of` makes PreparedGames again."""
    return marshal.dumps(([tuple(g) for g in batch.games], *batch[1:]))


def _batch_of(item: tuple[Any, ...]) -> Batch:
    """The batch `_message` sent (unmarshalled), its games PreparedGames again."""
    games, *rest = item
    make = PreparedGame._make
    return Batch([make(g) for g in games], *rest)


def _work(source: Any, out: Any, others: Sequence[Any], send_all: Callable[[], None]) -> None:
    """Run `send_all` in a worker process; a failure is sent as one clean line.

    `others` are the pipe ends the worker inherited and must close: only the main process
    may hold a read end (so a send fails when it is gone), and only this worker its write
    end (so the main process sees the end of the pipe when the worker dies)."""
    for conn in others:
        conn.close()
    gc.freeze()  # the heap inherited from the main process: never scanned here
    # What a worker keeps (games, batches, memo dicts) holds no reference cycle (none was
    # found in the 200,000-game file nor the corpus): the collector runs 140 times less
    # often than by default, whose passes were a measurable part of a worker's CPU.
    gc.set_threshold(100_000, 20, 100)
    try:
        send_all()
    except TrackerError as exc:
        out.send_bytes(
            marshal.dumps((str(exc), exc.exit_code, bool(getattr(exc, "stops_run", False))))
        )
    except (BrokenPipeError, KeyboardInterrupt):  # the main process is gone
        pass
    except Exception as exc:  # noqa: BLE001 - reported as a clean line by the main process
        with contextlib.suppress(BrokenPipeError):
            out.send_bytes(
                marshal.dumps((f"cannot read {source.name}: {type(exc).__name__}: {exc}", 1))
            )
    finally:
        out.close()


def _received(inbox: Any, source: Any) -> Iterator[Batch]:
    """The batches a worker sends, up to the end of a part (or of the source)."""
    while True:
        try:
            blob = inbox.recv_bytes()
        except EOFError:
            raise TrackerError(
                f"reading {source.name} stopped unexpectedly (a worker process died)"
            ) from None
        if blob == _END:
            return
        item = marshal.loads(blob)
        if len(item) in (2, 3):  # (message, exit code[, stops the run])
            exc = TrackerError(item[0])
            exc.exit_code = item[1]
            if len(item) == 3 and item[2]:
                exc.stops_run = True  # type: ignore[attr-defined]
            raise exc
        yield _batch_of(item)


def _worker(source: Any, reader: Reader, options: ImportOptions, out: Any, inbox: Any) -> None:
    """The worker process: send batches, then the end."""

    def send_all() -> None:
        for batch in _batches(source, reader, options):
            out.send_bytes(_message(batch))
        out.send_bytes(_END)

    _work(source, out, [inbox], send_all)


def _in_worker(source: Any, reader: Reader, options: ImportOptions) -> Iterator[Batch]:
    """Run `_batches` in a forked worker; yield what it sends."""
    ctx = multiprocessing.get_context("fork")
    inbox, out = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_worker, args=(source, reader, options, out, inbox), daemon=True)
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
        self._count = LineCount()  # as read_games counts them (CR alone, CR CR LF)

    def open(self) -> _Part:
        return self

    def __enter__(self) -> _Part:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def position(self) -> int:
        """Where in the whole file this part has read to."""
        return int(self._stream.tell())

    def read(self, size: int = -1) -> bytes:
        if size < 0 or size > self._left:
            size = self._left
        data = self._stream.read(size) if size else b""
        self._left -= len(data)
        if data:
            self._count.feed(data)
        return data

    @property
    def lines(self) -> int:
        return self._count.lines


def _part_worker(
    source: Any,
    options: ImportOptions,
    cuts: list[int],
    which: int,
    out: Any,
    others: list[Any],
) -> None:
    """Worker `which` (0 or 1) of two: parts which, which + 2, ... of the file; per part,
    its batches (as bytes, all made before the first is sent, so that the worker parses
    while the main process reads the other's part; a part's are small), then the end. It
    counts the lines of the other worker's parts to number its own. One Preparer serves
    its parts until its memo dicts hold MEMO_ENTRIES: a part's games mostly have the
    names, events and dates of the parts before, which a new one works out again."""
    from tracker.pgn import read_games

    def send_all() -> None:
        preparer = Preparer(options.default_list)
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

                made = (_message(batch) for batch in _batches(part, reader, options, preparer))
                # The main process reads part 0 first: its batches go as soon as made.
                for blob in made if i == 0 else list(made):
                    out.send_bytes(blob)
                out.send_bytes(_END)
                line += part.lines
                if preparer.memo_entries() > MEMO_ENTRIES:
                    preparer = Preparer(options.default_list)

    _work(source, out, others, send_all)


def _in_two_workers(source: Any, options: ImportOptions, cuts: list[int]) -> Iterator[Batch]:
    """The batches of the parts of a plain file, in file order, from two forked workers
    (part i from worker i % 2): each parses its next part while the other's is written.

    The main process reads a worker's messages only when their turn comes: a worker with a
    part made waits on its pipe. Reading ahead (both workers parsing at once) was measured
    slower on two cores: the workers then take CPU from the writer, which sets the pace."""
    ctx = multiprocessing.get_context("fork")
    pipes = [ctx.Pipe(duplex=False) for _ in range(2)]
    procs = [
        ctx.Process(
            target=_part_worker,
            args=(
                source,
                options,
                cuts,
                w,
                out,
                [end for pipe in pipes for end in pipe if end is not out],
            ),
            daemon=True,
        )
        for w, (_, out) in enumerate(pipes)
    ]
    for proc in procs:
        proc.start()
    for _, out in pipes:
        out.close()
    try:
        for i in range(len(cuts) - 1):
            yield from _received(pipes[i % 2][0], source)
    finally:
        for inbox, _ in pipes:
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

    if (
        options.workers is False
        or options.validate
        or reader is not read_games
        or shared_stream(source)
        or (source_size(source) or 0) < SPLIT_MIN_BYTES
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
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
    if "fork" not in multiprocessing.get_all_start_methods() or shared_stream(source):
        return False
    size = source_size(source)
    return size is None or size >= WORKER_MIN_BYTES


def source_size(source: Any) -> int | None:
    size = getattr(source, "size", None)
    return size if isinstance(size, int) else None


def shared_stream(source: Any) -> bool:
    """Standard input is one spooled stream: never read it from two places at once."""
    return str(source.name) == "-"


def batches_of(source: Any, reader: Reader, options: ImportOptions) -> Iterator[Batch]:
    """A source's batches, in file order: from two workers (a big plain file, in parts),
    one worker, or this process (see the module docstring). Where to cut a big file is
    found now; the reading starts with the first batch asked for."""
    cuts = _part_cuts(source, reader, options)
    if cuts is not None:
        return _in_two_workers(source, options, cuts)
    if _use_worker(source, options):
        return _in_worker(source, reader, options)
    return _batches(source, reader, options)
