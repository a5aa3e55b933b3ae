"""What every command shares: the --db and --format options, consoles, opening the store.

Nothing heavy is imported here or at the top of a command module: SQLAlchemy (through
tracker.store), rich and the use cases are imported by the commands that run, so that
`tracker --help` and the commands that need little start fast.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import inspect
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from tracker.model import FIRST_PERIOD_YEAR, LAST_PERIOD_YEAR, RatingList

if TYPE_CHECKING:
    from rich.console import Console

    from tracker.app.database import Store
    from tracker.app.outputs import Output
    from tracker.model import Period

DEFAULT_DB = "tracker.db"
"""tracker.store.DEFAULT_DB, written out so that the command line starts without importing
the store (tests/test_bench_history.py keeps the two equal)."""


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
    `cut` at spaces to the terminal's width (tracker.reports.terminal_width) when one is
    known: a cut line goes on two spaces further in than it starts."""
    from tracker.reports import terminal_width, wrap_text

    width = terminal_width() if cut else None
    out: list[str] = []
    for line in lines:
        text = shown(line)
        if width is None or len(text) <= width:
            out.append(text)
            continue
        lead = " " * (len(text) - len(text.lstrip(" ")))
        first, *rest = wrap_text(text[len(lead) :], max(width - len(lead), 20))
        more = wrap_text(" ".join(rest), max(width - len(lead) - 2, 20)) if rest else []
        out += [lead + first, *(lead + "  " + x for x in more)]
    sys.stdout.write("".join(f"{x}\n" for x in out))
    sys.stdout.flush()  # before a line on stderr: in order on a terminal shared by both


def print_table(
    headers: list[str],
    cells: list[list[str]],
    right: Iterable[int] = (),
    *,
    title: str | None = None,
    indent: str = "",
    optional: Sequence[int] = (),
    wrap: int | None = None,
) -> None:
    """Every table of the command line, in one style (tracker.reports.render_table): the
    title (then a blank line), the header with a rule under each column, the rows; each
    cell shown (control characters escaped) before the columns are measured; fitted to
    the terminal's width, leaving out the `optional` columns first, then wrapping the
    `wrap` column (default: the last)."""
    from tracker.reports import render_table

    lines = render_table(headers, shown_cells(cells), right, indent, optional=optional, wrap=wrap)
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


def given(ctx: Any, name: str) -> bool:
    """Whether the option `name` of `ctx` was on the command line (not its default or the
    environment)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def db_given_before(ctx: Any) -> None:
    """The --db a command runs on: its own when given on the command line, else the nearest
    one given before the command (`tracker --db club.db history`, `tracker imports --db
    club.db remove 3`), else the environment's (TRACKER_DB) or the default. Settled when the
    command is invoked (Command.invoke, Group.invoke), once click knows where each value
    came from (newer click records it only after an option's callback)."""
    if "db" not in ctx.params or given(ctx, "db"):
        return
    parent = ctx.parent
    while parent is not None:
        if "db" in parent.params and given(parent, "db"):
            ctx.params["db"] = parent.params["db"]
            return
        parent = parent.parent


PlayerArg = Annotated[
    str | None,
    typer.Argument(
        help="FIDE ID or name (default: the player marked with --me).", show_default=False
    ),
]
"""The optional PLAYER of every command about one player."""


def period_option(text: str | None, option: str = "--period") -> Period | None:
    """A period (YYYY-MM) given with `option`, None when not given; a bad one is refused
    in one line naming the option."""
    from tracker.errors import BadInput
    from tracker.model import Period

    if text is None:
        return None
    try:
        return Period.parse(text)
    except BadInput as exc:
        raise BadInput(f"{option}: {exc}") from None


DB_HELP = "Database file or SQLAlchemy URL (env TRACKER_DB)."

DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="TRACKER_DB",
        help=DB_HELP,
        show_default=True,
    ),
]


class Format(StrEnum):
    """What every reading command prints: a table (for people), CSV (one row per line:
    the rows the table shows, for a spreadsheet) or JSON (for programs)."""

    table = "table"
    csv = "csv"
    json = "json"


FormatOption = Annotated[
    Format, typer.Option("--format", "-f", help="table, csv or json.", case_sensitive=False)
]

LIST_CHOICES = "|".join(RatingList)
"""The metavar of every --list option (a list name is parsed by RatingList.parse, whose
message is clearer than click's own)."""


def _plain_flags(params: list[Any]) -> list[Any]:
    """A flag (--strict, --help) shows no value in --help: typer's `<bool>` reads as if one
    were needed (and `--strict true` then takes `true` for a file)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Command(TyperCommand):
    """Every command of tracker: flags without a metavar in its help; the --db given before
    the command taken when it has none of its own (db_given_before)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_flags(super().get_params(ctx))

    def invoke(self, ctx: Any) -> Any:
        db_given_before(ctx)
        return super().invoke(ctx)


class Group(TyperGroup):
    """Every group of tracker (and the program itself): flags without a metavar; the --db
    given before it taken as for a command."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_flags(super().get_params(ctx))

    def invoke(self, ctx: Any) -> Any:
        db_given_before(ctx)
        return super().invoke(ctx)


def today() -> dt.date:
    """Today, or the day TRACKER_TODAY (YYYY-MM-DD) names: what `next` measures a list's
    age against, so that a saved output (docs/walkthrough.md) reads the same later."""
    given = os.environ.get("TRACKER_TODAY", "")
    try:
        return dt.date.fromisoformat(given) if given else dt.date.today()
    except ValueError:
        from tracker.errors import BadInput

        raise BadInput(f"TRACKER_TODAY={given!r}: give a date as YYYY-MM-DD") from None


FIRST_YEAR, LAST_YEAR = FIRST_PERIOD_YEAR, LAST_PERIOD_YEAR
"""The years of a date on the command line: those of a period (model.Period.parse)."""


def in_years(day: dt.date, what: str) -> dt.date:
    """`day` (a date), refused (exit 2) outside FIRST_YEAR..LAST_YEAR: its rating list would
    be of a year Python's dates cannot hold (9999-12-31: the list of 10000-01)."""
    from tracker.errors import BadInput

    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise BadInput(f"{what}: the year must be from {FIRST_YEAR} to {LAST_YEAR}")
    return day


_LIST_ITEM = re.compile(r"(?:[-*•]|\d{1,2}[.)])\s")
_MARKUP_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")  # what rich.markup.escape escapes


def help_text(doc: str | None) -> str:
    """A docstring as --help text that rich reflows to the terminal's width.

    Rich keeps every line break of a help text and wraps the lines again at the terminal's
    width, so a docstring's own breaks land mid-sentence ("games already / stored"). Here the
    lines of a paragraph are joined into one; what is meant to stand on its own line stays:
    paragraphs (a blank line between), indented lines (examples) and list items ("- ", "1. ").
    An indented line is wrapped in an invisible rich style so that typer's dedent of the text
    after the first paragraph keeps its indentation even when only examples follow.

    Why not typer's own rendering (typer 0.25, measured on every --help at 80 and 120
    columns): in rich markup mode typer joins the lines of the first paragraph only (`\\b`
    is honoured there alone), so 18 of the 31 helps break mid-sentence at both widths, and
    its dedent of the rest leaves the examples of 8 helps at the margin; markdown mode
    reflows paragraphs but draws an indented example as a code block (a padded box with its
    own background) or, indented less than four spaces, at the margin, and takes backquotes,
    * and _ as markup (those of "Start with `tracker demo`" vanish); no markup mode is
    click's plain help, without the panels. Each changes how the help looks.
    """
    lines: list[str] = []
    kind = ""  # of the line before: "" (blank), "text", "item" or "example"
    for line in inspect.cleandoc(doc or "").split("\n"):
        text = line.strip()
        if not text:
            lines.append("")
            kind = ""
        elif line[0].isspace() and kind != "item":  # an example: kept as it is
            escaped = _MARKUP_TAG.sub(r"\1\1\\\2", line.rstrip())
            lines.append(f"[default]{escaped}[/default]")
            kind = "example"
        elif _LIST_ITEM.match(text) and not line[0].isspace():
            lines.append(text)
            kind = "item"
        elif kind in ("text", "item"):  # the paragraph (or the list item) goes on
            lines[-1] = f"{lines[-1]} {text}"
        else:
            lines.append(text)
            kind = "text"
    return "\n".join(lines)


_EXAMPLE = re.compile(r"^(?:Examples?:\s*)?(tracker\s.*)$")


def first_example(doc: str | None) -> str | None:
    """The first example of a command's help: the first line after "Example(s):" (or on it)
    that starts with `tracker `."""
    seen = False
    for line in inspect.cleandoc(doc or "").split("\n"):
        text = line.strip()
        if text.startswith(("Example:", "Examples:")):
            seen = True
        found = _EXAMPLE.match(text) if seen else None
        if found:
            return found.group(1)
    return None


def with_examples(help_: str, docs: list[str | None]) -> str:
    """A group's help with the first example of each of its commands (unless it has its
    own examples): every --help shows how it is used, and the group's stay in step with its
    commands' own."""
    if re.search(r"^\s*Examples?:", help_, re.M):
        return help_
    examples = [e for e in map(first_example, docs) if e]
    if not examples:
        return help_
    shown = "\n\n".join(f"  {e}" for e in examples)
    return f"{help_.rstrip()}\n\nExamples:\n\n{shown}"


def output_file(output: str, db: str, *, force: bool) -> Output:
    """The file an --output names, refused when it is the database (or its -wal, -shm),
    a folder, in a missing folder, an existing file without --force, or neither a file, a
    character device nor a FIFO. What killed writes of it left is removed (said on
    stderr)."""
    from tracker.app.outputs import output_file as checked

    found = checked(output, db, force=force)
    for part in found.removed:
        err.print(
            f"note: removed {part}, left by a write that did not finish",
            markup=False,
            soft_wrap=True,
        )
    return found.output


def wrote(output: Output, line: str) -> None:
    """A command's summary line after writing `output`: on stdout, or on stderr when the
    output is the standard output itself (`-o /dev/stdout`: the line is not data)."""
    (err if output.stdout else out).print(line, markup=False, soft_wrap=True)


ForceOption = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Replace the output file if it "
        "exists (a device or a FIFO is written into, "
        "never replaced).",
    ),
]


def store_for(db: str = DEFAULT_DB, *, create: bool = False) -> Store:
    """Open the database named by --db (upgrading it as needed; an upgrade is announced on
    stderr first: on a big database it takes a while). A missing file is created only with
    `create`, which the commands that bring facts in from outside pass (`import`, `official
    import`); any other refuses it with a sentence saying how to make one (a mistyped --db
    is not an empty database). `tracker db upgrade` and `tracker demo` create theirs
    through open_store."""
    from tracker.app.database import open_database

    return open_database(db, on_upgrade=lambda old, new: _upgrading(db, old, new), create=create)


def _upgrading(db: str, old: str, new: str) -> None:
    import sys

    print(
        f"{db}: upgrading the database schema from {old} to {new} (once; a database of a "
        "million games takes about half a minute)",
        file=sys.stderr,
        flush=True,
    )
