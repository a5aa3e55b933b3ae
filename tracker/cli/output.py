"""What the commands write: the out and err consoles, every text shown with its control
characters escaped, lines, tables, CSV and JSON on stdout, a closed or full standard output,
the --output file and the line saying it was written.

Nothing heavy is imported here: rich is imported when a console is first used, so that
`tracker --help` and the commands that print plain text start fast.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from tracker.app.outputs import Output


class _LazyConsole:
    """A rich Console made on first use, with these options (importing rich costs start-up
    time to every command, most of which print plain text)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    @property
    def console(self) -> Console:
        """The Console itself (to hand to rich, e.g. a Progress)."""
        if self._console is None:
            from rich.console import Console

            self._console = shown_console(Console)(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console, name)


# --- what reaches the terminal ---------------------------------------------------------------
#
# A name from a PGN tag, an official list or an archive member may hold control characters:
# ESC opens a sequence that retitles the window (OSC) or clears it (CSI), BEL rings, BS and
# CR overwrite what was printed, a newline forges a line, C1 codes (U+0080-U+009F) are
# controls too, and bidi overrides/isolates (U+202A-U+202E, U+2066-U+2069) reorder the text
# shown after them. Every text the tracker prints shows them escaped (`\x1b`, `\n`,
# `\u202e`); the data keeps them (the database, JSON's strings, a CSV file written with
# --output). The guards, one per way out:
#
# - `main` puts every command's sys.stdout and sys.stderr behind `ShownStream`: whatever is
#   written there (plain lines, CSV, errors, another module's writes) has its control
#   characters escaped, line ends kept. Its escapes are valid inside a JSON string, so JSON
#   stays JSON and decodes to the real text.
# - rich (the out/err consoles, progress bars, tables, typer's help) writes past that
#   guard, to the real stream (`rich_proxied_file`), so that its own colour and cursor
#   codes work; the consoles made by `shown_console` escape the text they render instead,
#   and a str they print is one line (a newline in it shown as \n).
# - `shown` makes a one-line text of a value (a name with a newline in it) where lines are
#   built: `echo_lines`, the import lines, the errors of `main`.

_CONTROLS = "\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_ANY_CONTROL = re.compile(f"[{_CONTROLS}]")
_CONTROL_BUT_LINE_ENDS = re.compile(
    "\r(?!\n)|[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    code = ord(char)
    # \xNN for C0 (never raw in JSON: json.dumps writes \u00NN), \uNNNN for the rest
    # (valid inside a JSON string as well)
    return _SHORT.get(char) or (f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}")


def shown(text: str) -> str:
    r"""`text` as one line safe to show: every control character (newline included), C1 code
    and bidi override or isolate written as an escape (`\x1b`, `\n`, `\u202e`). A
    backslash is left as it is: ordinary text is unchanged, and showing twice changes
    nothing more."""
    return _ANY_CONTROL.sub(_escape, text) if _ANY_CONTROL.search(text) else text


def shown_lines(text: str) -> str:
    r"""`shown`, keeping the line ends (\n and \r\n): for a block of lines."""
    found = _CONTROL_BUT_LINE_ENDS.search(text)
    return text if found is None else _CONTROL_BUT_LINE_ENDS.sub(_escape, text)


class WriteError:
    """The error of the last write to standard output that failed (a full disk, `>
    /dev/full`): `main` says it in one line (exit 1) instead of an internal error."""

    error: OSError | None = None


class _NotingErrors:
    """A stream that notes its write errors (WriteError) and raises them as they are."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except OSError as exc:
            WriteError.error = exc
            raise

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            WriteError.error = exc
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class ShownStream:
    """A text stream (sys.stdout, sys.stderr) that writes `shown_lines` of every text.

    rich unwraps it (`rich_proxied_file`, as for its own proxies) and writes to the stream
    beneath: its codes stay codes, and its consoles escape what they render themselves.
    With `noting`, the stream beneath notes its write errors (WriteError)."""

    def __init__(self, stream: Any, *, noting: bool = False) -> None:
        self.rich_proxied_file = _NotingErrors(stream) if noting else stream

    def write(self, text: str) -> int:
        self.rich_proxied_file.write(shown_lines(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rich_proxied_file, name)


@contextlib.contextmanager
def shown_streams() -> Iterator[None]:
    """sys.stdout and sys.stderr behind ShownStream while inside (restored after)."""
    saved = sys.stdout, sys.stderr
    WriteError.error = None
    if sys.stdout is not None and not isinstance(sys.stdout, ShownStream):
        sys.stdout = ShownStream(sys.stdout, noting=True)
    if sys.stderr is not None and not isinstance(sys.stderr, ShownStream):
        sys.stderr = ShownStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def real_stream(stream: Any) -> Any:
    """The stream beneath a ShownStream (and a rich proxy over one: a progress bar redirects
    sys.stderr): to write terminal codes of our own."""
    while hasattr(stream, "rich_proxied_file"):
        stream = stream.rich_proxied_file
    return stream


def shown_console(base: type[Console]) -> type[Console]:
    """A rich Console class that escapes the text it renders (its own codes are kept): a str
    printed is one line, control characters in any renderable (a table cell, a progress
    description) are escaped; a closed stdout is handled as ClosedOutput says."""
    from rich.segment import Segment

    class _Console(base):  # type: ignore[misc, valid-type]
        @property
        def file(self) -> Any:
            # rich unwraps one proxy; under a progress bar sys.stderr is rich's proxy over
            # a ShownStream, which would escape rich's own codes
            return real_stream(base.file.fget(self))  # type: ignore[attr-defined]

        @file.setter
        def file(self, new_file: Any) -> None:
            self._file = new_file

        def print(self, *objects: Any, **options: Any) -> None:
            super().print(*(shown(o) if isinstance(o, str) else o for o in objects), **options)

        def render(self, renderable: Any, options: Any = None) -> Iterator[Segment]:
            for segment in super().render(renderable, options):
                if segment.control or not _CONTROL_BUT_LINE_ENDS.search(segment.text):
                    yield segment
                else:
                    yield Segment(shown_lines(segment.text), segment.style, segment.control)

        def on_broken_pipe(self) -> None:
            # rich's own is stdout to /dev/null, then SystemExit(1): a reading command whose
            # reader stopped (`| head`) exits 0 here, as main does; an import goes on
            _closed()
            if not ClosedOutput.go_on:
                raise SystemExit(0)

    return _Console


def shown_cells(cells: list[list[str]]) -> list[list[str]]:
    """The cells of a table, each shown (before the columns are measured: they stay
    aligned)."""
    return [[shown(c) for c in row] for row in cells]


def echo_lines(lines: Any, *, cut: bool = True) -> None:
    r"""Lines of text on stdout, each shown as one line (a newline inside one is \n),
    `cut` at spaces to the terminal's width (tracker.reports.terminal_width: 100 columns in
    a pipe or a file, unless COLUMNS says): a cut line goes on two spaces further in than
    it starts."""
    from tracker.reports import terminal_width

    out = fitted_lines(lines, terminal_width() if cut else None)
    sys.stdout.write("".join(f"{x}\n" for x in out))
    sys.stdout.flush()  # before a line on stderr: in order on a terminal shared by both


def fitted_lines(lines: Iterable[str], width: int | None) -> list[str]:
    """`lines`, each shown as one line and cut at spaces to `width` (None: as they are): a
    cut line goes on two spaces further in than it starts."""
    from tracker.reports import cell_width, wrap_text

    out: list[str] = []
    for line in lines:
        text = shown(line)
        if width is None or cell_width(text) <= width:
            out.append(text)
            continue
        lead = " " * (len(text) - len(text.lstrip(" ")))
        first, *rest = wrap_text(text[len(lead) :], max(width - len(lead), 20))
        more = wrap_text(" ".join(rest), max(width - len(lead) - 2, 20)) if rest else []
        out += [lead + first, *(lead + "  " + x for x in more)]
    return out


def print_table(
    headers: list[str],
    cells: list[list[str]],
    right: Iterable[int] = (),
    *,
    title: str | None = None,
    indent: str = "",
    optional: Sequence[int] = (),
    wrap: int | None = None,
    wrap_least: int | None = None,
) -> None:
    """Every table of the command line, in one style (tracker.reports.render_table): the
    title (then a blank line), the header with a rule under each column, the rows; each
    cell shown (control characters escaped) before the columns are measured; fitted to
    the terminal's width (100 columns in a pipe or a file, unless COLUMNS says), leaving
    out the `optional` columns first, then wrapping the `wrap` column (default: the last;
    NO_WRAP: none), then leaving out others from the right."""
    from tracker.reports import render_table

    lines = render_table(
        headers,
        shown_cells(cells),
        right,
        indent,
        optional=optional,
        wrap=wrap,
        wrap_least=wrap_least,
    )
    if title:
        echo_lines([title, ""])
    echo_lines(lines, cut=False)  # (fitted already, or as narrow as its columns allow)


def emit_csv(columns: Sequence[str], rows: Iterable[dict[str, Any]]) -> None:
    """Rows as CSV on stdout (tracker.reports.to_csv: a header, one line per row), text
    shown like every other: a cell's control characters (newline included) escaped, so one
    row is one line (docs/export.md). A file (--output) keeps the raw text."""
    from tracker.reports import to_csv

    sys.stdout.write(
        to_csv(
            columns,
            [{k: shown(v) if isinstance(v, str) else v for k, v in r.items()} for r in rows],
        )
    )


out = _LazyConsole(highlight=False, soft_wrap=True)  # results: stdout
err = _LazyConsole(stderr=True, highlight=False)  # diagnostics and progress: stderr


class Interruption:
    """Whether a command has said what a Ctrl-C left (then `main` adds nothing to it)."""

    told = False


class ClosedOutput:
    """Whether standard output was closed under a command (`tracker import X | head -1`).

    A command that stores (import) goes on to the end when its output is gone: what it was
    asked to store is stored, and it says so on stderr at the end. From the first
    write that fails, standard output is /dev/null: later lines (and the flush at exit) are
    dropped without an error."""

    closed = False
    full = False  # the output could not be written (a full disk, `> /dev/full`), not closed
    go_on = False
    """Set by a command that goes on when its output closes; any other stops (exit 1), as
    rich makes it."""
    exit_code = 0
    """The exit code a command has earned before it writes (`check` found differences: 1):
    a closed pipe (`tracker check | head`) ends it with this, not with success."""


@contextlib.contextmanager
def unless_closed() -> Iterator[None]:
    """Write to standard output inside this; a closed pipe is noted (ClosedOutput), not an
    error."""
    try:
        yield
    except BrokenPipeError:
        _closed()
    except OSError as exc:
        # A full disk under `> file` (or /dev/full): a command that goes on treats it as a
        # closed output (its stores are what matter); any other says it in one line (main).
        if not ClosedOutput.go_on or exc.errno not in _FULL_ERRNOS:
            raise
        WriteError.error = None
        ClosedOutput.full = True
        _closed()


_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO})


def _closed() -> None:
    ClosedOutput.closed = True
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def emit_json(data: object) -> None:
    """`data` as indented JSON on stdout, plainly (rich's print_json colours and re-parses it:
    a minute for 35,000 players). A C1 code or a bidi character in a string is written
    \\uNNNN (json.dumps escapes C0 itself): valid JSON, the same text once decoded."""
    sys.stdout.write(shown_lines(json.dumps(data, ensure_ascii=False, indent=2)) + "\n")


def output_file(output: str, db: str, *, force: bool) -> Output:
    """The file an --output names, refused when it is the database (or its -wal, -shm),
    a folder, in a missing folder, an existing file without --force, or neither a file, a
    character device nor a FIFO. What killed writes of it left is removed (said on
    stderr)."""
    from tracker.app.outputs import output_file as checked
    from tracker.reports.text import left_behind_text

    found = checked(output, db, force=force)
    for part in found.removed:
        err.print(left_behind_text(part), markup=False, soft_wrap=True)
    return found.output


def wrote(output: Output, line: str) -> None:
    """A command's summary line after writing `output`: on stdout, or on stderr when the
    output is the standard output itself (`-o /dev/stdout`: the line is not data)."""
    (err if output.stdout else out).print(line, markup=False, soft_wrap=True)
