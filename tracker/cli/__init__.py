"""The command line (owns typer and rich). Each command group lives in its own module and
registers itself on `app`; library errors become one clean line and an exit code here only.
"""

from __future__ import annotations

import contextlib
import gc
import inspect
import os
import re
import sys
from collections.abc import Callable

import typer
from typer.core import TyperCommand
from typer.main import get_command_name

from tracker import __version__
from tracker.cli.help import help_text, with_examples
from tracker.cli.options import Command, Group
from tracker.cli.output import ClosedOutput, Interruption, WriteError, shown, shown_streams
from tracker.errors import BadInput, CtrlC, TrackerError, by_ctrl_c

DAMAGED_EXIT_CODE = 4
"""tracker.store.db.DAMAGED_EXIT_CODE, written out so that `tracker --help` starts without
importing the store (tests/test_cli_database.py keeps the two equal)."""

HELP = (
    "Rebuild your FIDE rating history from your PGN files.\n\n"
    "Start with `tracker demo`, or `tracker import FOLDER` then `tracker history`.\n\n"
    "Examples:\n\n"
    '  tracker import games/ --player "Novák, Tomáš"\n\n'
    "  tracker history --list rapid\n\n"
    "  tracker COMMAND --help\n\n"
    "Exit codes: 0 done; 1 an error (the line says what to do); 2 a bad value on the "
    "command line or in a file (a name, number or path that matches nothing too); "
    "3 an internal error (please report it); "
    f"{DAMAGED_EXIT_CODE} the database is damaged (`tracker db check` tells more); "
    "130 interrupted."
)


# Command modules, in the order their commands appear in --help. Each has register(app).
COMMAND_MODULES = (
    "calc",
    "importing",
    "players",
    "reports",
    "season",
    "club",
    "official",
    "check",
    "db",
    "demo",
)


def extension_lines() -> list[str]:
    """One line an extension: compiled and in use, or the pure Python code and why (both
    give the same results: the tests run each against the other)."""
    from tracker.app.version import Build, Extension, extensions

    subjects = {Extension.PGN_READER: "the PGN reader"}
    states = {
        Build.COMPILED: "compiled (C)",
        Build.PURE_ASKED: "pure Python (TRACKER_PURE_PYTHON=1)",
        Build.NOT_BUILT: (
            "pure Python (not built: no C compiler when tracker was installed; the "
            "same results, slower)"
        ),
        Build.STALE: (
            "pure Python (the build is older than its C source, or of another "
            "revision: run `pip install -e .` again)"
        ),
    }
    return [f"{subjects[what]}: {states[build]}" for what, build in extensions()]


def _version(value: bool) -> None:
    if value:
        import platform
        import sqlite3

        typer.echo(
            f"tracker {__version__} (Python {platform.python_version()}, SQLite "
            f"{sqlite3.sqlite_version})"
        )
        for line in extension_lines():
            typer.echo(line)
        raise typer.Exit()


def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
    db: str | None = typer.Option(
        None,
        "--db",
        help="Database file or SQLAlchemy URL for the command (env TRACKER_DB); "
        "the same as --db after the command.",
        show_default=False,
    ),
) -> None:
    """Rebuild your FIDE rating history from your PGN files."""


def _reflow_help(typer_app: typer.Typer) -> None:
    """Every command's and group's help as text rich reflows (see help.help_text): set
    here once, after the modules registered their commands, for the docstrings and the
    help= strings alike; and every command and group is of options.Command or Group."""
    for command in typer_app.registered_commands:
        doc = command.help if command.help is not None else inspect.getdoc(command.callback)
        command.help = help_text(doc)
        if command.cls in (None, TyperCommand):
            command.cls = Command
    for group in typer_app.registered_groups:
        sub = group.typer_instance
        # A group's help ends with the first example of each of its commands.
        docs = (
            []
            if sub is None
            else [
                c.help if c.help is not None else inspect.getdoc(c.callback)
                for c in sub.registered_commands
            ]
        )
        if isinstance(group.help, str):
            group.help = help_text(with_examples(group.help, docs))
        if sub is not None:
            sub.info.cls = Group
            if isinstance(sub.info.help, str):
                sub.info.help = help_text(with_examples(sub.info.help, docs))
            _reflow_help(sub)


COMMANDS = {
    "calc": "calc",
    "import": "importing",
    "imports": "importing",
    "players": "players",
    "player": "players",
    "history": "reports",
    "explain": "reports",
    "next": "reports",
    "export": "reports",
    "plot": "reports",
    "event": "reports",
    "report": "season",
    "club": "club",
    "official": "official",
    "check": "check",
    "target": "check",
    "db": "db",
    "demo": "demo",
}
"""Which module registers each command (tests/test_cli_main.py keeps it true)."""


def build_app(modules: tuple[str, ...] = COMMAND_MODULES, only: str | None = None) -> typer.Typer:
    """The program with the commands of `modules` (by default all of them); with `only`,
    just the command or group of that name among them (what a command line runs: typer
    builds the click objects of every command registered, reading each one's signature)."""
    built = typer.Typer(
        name="tracker",
        help=HELP,
        no_args_is_help=True,
        cls=Group,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    built.callback()(_root)
    for name in modules:
        _registrar(name)(built)
    if only is not None:
        built.registered_commands = [
            c
            for c in built.registered_commands
            if (c.name or get_command_name(getattr(c.callback, "__name__", ""))) == only
        ]
        built.registered_groups = [g for g in built.registered_groups if g.name == only]
    _reflow_help(built)
    return built


def _registrar(name: str) -> Callable[[typer.Typer], None]:
    """The `register` of the command module `name` (of COMMAND_MODULES), imported only when
    one of its commands runs; plain imports, so that tests/test_architecture.py sees them."""
    if name == "calc":
        from tracker.cli.calc import register
    elif name == "importing":
        from tracker.cli.importing import register
    elif name == "players":
        from tracker.cli.players import register
    elif name == "reports":
        from tracker.cli.reports import register
    elif name == "season":
        from tracker.cli.season import register
    elif name == "official":
        from tracker.cli.official import register
    elif name == "check":
        from tracker.cli.check import register
    elif name == "db":
        from tracker.cli.db import register
    elif name == "demo":
        from tracker.cli.demo import register
    elif name == "club":
        from tracker.cli.club import register
    else:
        raise KeyError(name)
    return register


def _command_word(argv: list[str]) -> str | None:
    """The command `argv` names (None: no command, `--help`, `--version`, or a word that is
    not a command: then the whole program answers, its help or its "did you mean")."""
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--db":
            i += 2
            continue
        if word.startswith("--db="):
            i += 1
            continue
        if word.startswith("-"):
            return None
        return word if word in COMMANDS else None
    return None


def __getattr__(name: str) -> typer.Typer:
    """`tracker.cli.app`: the whole program, made when first asked for (the command line
    itself makes only the command it runs: building every command's click objects at every
    start is what made it slow)."""
    if name == "app":
        built = build_app()
        globals()["app"] = built
        return built
    raise AttributeError(name)


def _one_line(message: str) -> str:
    """An error is one line: line breaks inside it (a name typed with one) are shown as \\n,
    and every other control character escaped (output.shown)."""
    return shown(message)


def console() -> None:
    """The program (the `tracker` script, `python -m tracker`): `main`, and then, whatever
    the way out, every object the command made frozen for the interpreter's exit
    (`gc.freeze`). At exit CPython would collect garbage over all of them, several passes
    over every object tracker and its libraries hold (docs/performance.md has the cost),
    while nothing is left to collect that matters: the command has closed what it wrote
    and committed or rolled back its transaction, standard output is flushed as ever, and
    atexit handlers run. (Not in `main`: a test or a library that calls it goes on living.)"""
    try:
        main()
    finally:
        gc.freeze()


def main() -> None:
    """Console entry point: run the app, turning every error into one line on stderr; every
    text written to stdout and stderr meanwhile shows control characters escaped (a name
    that would retitle the terminal or clear it: output.ShownStream)."""
    with shown_streams():
        _main()


def _main() -> None:
    ClosedOutput.exit_code = 0
    try:
        code = _run()
    except TrackerError as exc:  # the one way out other than done (_run made every error one)
        if exc.exit_code not in (0, 130) and not Interruption.told and CtrlC.pressed():
            # (an error after a Ctrl-C is its doing: a library it broke as it loaded)
            exc = Ending(130, "interrupted")
        _tell(exc)
        code = exc.exit_code
    sys.exit(code)


def _run() -> int:
    """Run the command line: its exit code, or a TrackerError (the outside world's errors
    made ones by `as_tracker_error`)."""
    try:
        # Only the module of the command given (the whole program for --help or a typo).
        # (tracker.cli.app, once made, is the program: a library or a test may extend it)
        word = _command_word(sys.argv[1:])
        program = globals().get("app") or (
            build_app((COMMANDS[word],), only=word) if word else build_app()
        )
        # Without standalone mode, click returns the code of a typer.Exit instead of exiting.
        code = program(standalone_mode=False)
        if code == 130 and not Interruption.told:  # typer made a Ctrl-C a silent Exit(130)
            raise Ending(130, "interrupted")
        sys.stdout.flush()  # a write error is said here, not ignored at exit
        return code if isinstance(code, int) else 0
    except TrackerError:
        raise
    except BaseException as exc:
        raise as_tracker_error(exc) from exc


class Ending(TrackerError):
    """How a command ends when it is not a library's error: its exit code and the line said
    as it is (not as "error: ..."), on stderr or on stdout; none, nothing said."""

    def __init__(self, exit_code: int, line: str = "", *, on_stdout: bool = False) -> None:
        super().__init__(line)
        self.exit_code = exit_code
        self.on_stdout = on_stdout


def _tell(exc: TrackerError) -> None:
    """The line that `exc` ends the command with."""
    if not isinstance(exc, Ending):
        from tracker.reports.words import error_text

        print(f"error: {_one_line(error_text(exc))}", file=sys.stderr)
    elif str(exc):
        print(str(exc), file=sys.stdout if exc.on_stdout else sys.stderr)


def as_tracker_error(exc: BaseException) -> TrackerError:
    """The TrackerError that the outside world's `exc` is to the user: typer's and click's
    exits, usage errors and aborts, Ctrl-C (or an error it caused: an ImportError of a C
    extension whose loading it broke), a write to standard output that failed, a number
    too large for the database; any other error is an internal one (exit 3; with
    TRACKER_DEBUG=1 it is raised as it is, traceback and all). A SystemExit other than
    click's answer to a closed pipe, and what is not an Exception (GeneratorExit), are
    raised as they are."""
    if isinstance(exc, TrackerError):
        return exc
    if isinstance(exc, typer.Exit):
        return Ending(exc.exit_code)
    if isinstance(exc, SystemExit):
        if exc.code == 1 and isinstance(WriteError.error, BrokenPipeError):
            # click's own answer to a closed pipe (`| head`): exit 1 without a word; the
            # reader has what it wanted, as in the OSError case below
            _drop_output()
            return Ending(ClosedOutput.exit_code)
        raise exc
    if isinstance(exc, typer.Abort):
        return Ending(130, "aborted")
    if by_ctrl_c(exc):  # a Ctrl-C, or an error it caused (a library it broke as it loaded)
        return Ending(130, "interrupted")
    if not isinstance(exc, Exception):
        raise exc
    if isinstance(exc, OSError):
        if exc is not WriteError.error:  # not a write to standard output
            return _internal(exc)
        _drop_output()
        if isinstance(exc, BrokenPipeError):  # a closed pipe (`| head`): the reader has what
            # it wanted; nothing is lost (an import goes on: ClosedOutput); a finding stays one
            return Ending(ClosedOutput.exit_code)
        return TrackerError(
            f"cannot write to standard output: {exc.strerror or exc} (is the disk full, or "
            "the output a file that cannot grow?)"
        )
    if isinstance(exc, OverflowError):
        if "too large to convert to SQLite INTEGER" not in str(exc):
            return _internal(exc)
        # (a number from the command line: the database never holds one this large)
        return BadInput(
            f"a number given is too large (the most is {(1 << 63) - 1:,}); give a plausible value"
        )
    message = getattr(exc, "format_message", None)
    code = getattr(exc, "exit_code", None)
    if type(exc).__name__ == "NoArgsIsHelpError":  # `tracker` or a group, bare: the help
        # is the answer (rich has printed it already; plain click puts it here)
        help_shown = str(message()) if callable(message) else ""
        return Ending(0, help_shown if help_shown.strip() else "", on_stdout=True)
    if callable(message) and isinstance(code, int):  # a click/typer usage error
        ctx = getattr(exc, "ctx", None)
        where = getattr(ctx, "command_path", None) or "tracker"
        usage = TrackerError(f"{plain_usage(str(message()))} (see '{where} --help')")
        usage.exit_code = code
        return usage
    return _internal(exc)


_FRAMEWORK_WORDING: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # typer validates values through pydantic, whose wording reaches the user as it is
    (re.compile(r"Value error, "), ""),
    (
        re.compile(r"Input should be a valid integer(, unable to parse string as an integer)?"),
        "give a whole number",
    ),
    (
        re.compile(r"Input should be a valid number(, unable to parse string as a number)?"),
        "give a number",
    ),
    (
        re.compile(r"Input should be a valid boolean(, unable to interpret input)?"),
        "give yes or no",
    ),
    (re.compile(r"Input should be a valid date[^.;]*"), "give a date, YYYY-MM-DD"),
    (re.compile(r"Input should be a valid string"), "give a text"),
    (re.compile(r"Invalid value for "), "invalid value for "),
    (re.compile(r"Missing argument "), "missing argument "),
    (re.compile(r"Missing option "), "missing option "),
    (re.compile(r"No such option:? '?([^' ]+)'?\.?"), r"no such option: \1"),
    (re.compile(r"No such command "), "no such command "),
    (
        re.compile(r"Got unexpected extra arguments?(?:\(s\))? \((.*)\)$"),
        r"unexpected extra argument: \1",
    ),
    # (typer's own suggestion for a command, then click's list of the same names: once)
    (
        re.compile(r"( Did you mean [^?]*\?) \((?:Possible options|Did you mean one of): [^)]*\)"),
        r"\1",
    ),
    (
        re.compile(r"\((?:Possible options|Did you mean one of): (.*?)\??\)"),
        lambda m: f"(did you mean {m.group(1).replace(chr(39), '')}?)",
    ),
    (re.compile(r"( Did you mean [^?]*\?)\1+"), r"\1"),  # (typer adds click's own again)
    (re.compile(r"\. Did you mean "), ": did you mean "),
    (re.compile(r"\.(?=\s*$)"), ""),  # the sentence goes on: " (see 'tracker X --help')"
)


def plain_usage(message: str) -> str:
    """A command-line usage error in tracker's words: what typer, click and pydantic say
    ("Invalid value for '--k': Input should be a valid integer, unable to parse string as an
    integer") made one plain clause ("invalid value for '--k': give a whole number")."""
    for pattern, words in _FRAMEWORK_WORDING:
        message = pattern.sub(words, message)
    return message


def _internal(exc: Exception) -> TrackerError:
    """An error no check foresaw: one line, exit 3 (raised as it is with TRACKER_DEBUG=1,
    for its traceback)."""
    if os.environ.get("TRACKER_DEBUG"):
        raise exc
    internal = TrackerError(
        f"internal error ({type(exc).__name__}: {_one_line(str(exc))}); "
        "rerun with TRACKER_DEBUG=1 for details and please report it"
    )
    internal.exit_code = 3
    return internal


def _drop_output() -> None:
    """Standard output cannot be written: what it still holds is dropped (it becomes
    /dev/null), so that the flush at exit does not fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
