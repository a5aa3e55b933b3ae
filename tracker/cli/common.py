"""What every command shares: the --db and --format options, consoles, opening the store.

Nothing heavy is imported here or at the top of a command module: SQLAlchemy (through
tracker.store), rich and the use cases are imported by the commands that run, so that
`tracker --help` and the commands that need little start fast.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import re
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

if TYPE_CHECKING:
    from rich.console import Console

    from tracker.store import Store

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

            class _Console(Console):
                def on_broken_pipe(self) -> None:
                    # rich's own: stdout to /dev/null, then SystemExit(1) without a word
                    if not ClosedOutput.go_on:
                        super().on_broken_pipe()
                    _closed()

            self._console = _Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console, name)


out = _LazyConsole(highlight=False, soft_wrap=True)  # results: stdout
err = _LazyConsole(stderr=True, highlight=False)  # diagnostics and progress: stderr

class Interruption:
    """Whether a command has said what a Ctrl-C left (then `main` adds nothing to it)."""

    told = False


class ClosedOutput:
    """Whether standard output was closed under a command (`tracker import X | head -1`).

    A command that stores (import) goes on to the end when its output is gone: what it was
    asked to store is stored, and it says so on stderr at the end (issue 19). From the first
    write that fails, standard output is /dev/null: later lines (and the flush at exit) are
    dropped without an error."""

    closed = False
    go_on = False
    """Set by a command that goes on when its output closes; any other stops (exit 1), as
    rich makes it."""


@contextlib.contextmanager
def unless_closed() -> Iterator[None]:
    """Write to standard output inside this; a closed pipe is noted (ClosedOutput), not an
    error."""
    try:
        yield
    except BrokenPipeError:
        _closed()


def _closed() -> None:
    ClosedOutput.closed = True
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def emit_json(data: object) -> None:
    """`data` as indented JSON on stdout, plainly (rich's print_json colours and re-parses it:
    a minute for 35,000 players)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="TRACKER_DB",
        help="Database file or SQLAlchemy URL (env TRACKER_DB).",
        show_default=True,
    ),
]


class Format(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


class TableOrJson(StrEnum):
    table = "table"
    json = "json"


def _plain_flags(params: list[Any]) -> list[Any]:
    """A flag (--strict, --help) shows no value in --help: typer's `<bool>` reads as if one
    were needed (and `--strict true` then takes `true` for a file)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Command(TyperCommand):
    """Every command of tracker: flags without a metavar in its help."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_flags(super().get_params(ctx))


class Group(TyperGroup):
    """Every group of tracker (and the program itself): flags without a metavar."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_flags(super().get_params(ctx))


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


CREATING_COMMANDS = frozenset({"import", "official import"})
"""The commands that may create a missing database file: those that bring facts in from
outside. Every other command works on what is stored (reports, checks, listings) or on
players and tournaments that an import made (player set/merge, event set, official add and
remove), so on a missing file (a mistyped --db) it says so instead of creating an empty
database. `tracker db upgrade` and `tracker demo` create theirs through open_store."""


def _creates() -> bool:
    """Whether the running command may create its database (see CREATING_COMMANDS)."""
    try:  # a recent typer runs its own copy of click
        from typer._click.globals import get_current_context
    except ImportError:  # pragma: no cover - an older typer, on click itself
        from click import get_current_context  # type: ignore[no-redef, import-not-found, unused-ignore]

    ctx = get_current_context(silent=True)
    if ctx is None:
        return True
    words: list[str] = []
    while ctx.parent is not None:  # up to the program itself, whose name is left out
        words.insert(0, str(ctx.info_name))
        ctx = ctx.parent
    return " ".join(words) in CREATING_COMMANDS


def output_file(output: str, db: str, *, force: bool) -> Path:
    """The file an --output names, refused when it is the database (or its -wal, -shm),
    a folder, in a missing folder, or an existing file without --force."""
    from tracker.outputs import check_output
    from tracker.store.db import database_file

    path = Path(output)
    check_output(path, database_file(db), force=force)
    return path


ForceOption = Annotated[bool, typer.Option("--force", help="Replace the output file if it "
                                           "exists.")]


def store_for(db: str = DEFAULT_DB, *, create: bool | None = None) -> Store:
    """Open the database named by --db (upgrading it as needed; an upgrade is announced on
    stderr first: on a big database it takes a while). A missing file is created only when
    `create` (by default: when the running command is one of CREATING_COMMANDS); otherwise
    it is refused with a sentence saying how to make one."""
    from tracker.store import open_store

    return open_store(db, on_upgrade=lambda old, new: _upgrading(db, old, new),
                      create=_creates() if create is None else create)


def _upgrading(db: str, old: str, new: str) -> None:
    import sys

    print(f"{db}: upgrading the database schema from {old} to {new} (once; a database of a "
          "million games takes about half a minute)", file=sys.stderr, flush=True)
