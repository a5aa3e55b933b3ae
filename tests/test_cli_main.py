"""The entry point: exit codes pass through, errors are one line, never a traceback."""

from __future__ import annotations

import errno
import io
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
import typer

from tracker.cli import app, main
from tracker.cli.output import ShownStream, shown, shown_console
from tracker.errors import BadInput, CtrlC


@pytest.fixture
def extra_command() -> Iterator[None]:
    before = list(app.registered_commands)

    @app.command("zz-exit")
    def _exit(code: int) -> None:
        raise typer.Exit(code)

    @app.command("zz-bad")
    def _bad() -> None:
        raise BadInput("1500:2 is not a score: use 1, 0.5 or 0")

    @app.command("zz-bug")
    def _bug() -> None:
        raise ZeroDivisionError("boom")

    @app.command("zz-evil")
    def _evil() -> None:  # what a hostile name printed by any module would write
        sys.stdout.write("a \x1b]0;title\x07 b \x9b2J \u202e c\r\n")
        raise BadInput("no player matches \x1b[2J\u2066x\nforged line")

    @app.command("zz-print")
    def _print() -> None:
        sys.stdout.write("a line\n")

    @app.command("zz-bind")
    def _bind() -> None:  # a number past 64 bits reaching SQLite (official add --k 10**20)
        import sqlite3

        sqlite3.connect(":memory:").execute("SELECT ?", (10**20,))

    @app.command("zz-ctrl-c")
    def _ctrl_c() -> None:
        raise KeyboardInterrupt

    @app.command("zz-ctrl-c-loading")
    def _ctrl_c_loading() -> None:  # what a pybind11 module (matplotlib's) raises when a
        # Ctrl-C comes while it loads: before issue 35, an internal error (exit 3)
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise ImportError("initialization failed") from exc

    @app.command("zz-message-lost")
    def _message_lost() -> None:  # what CPython raises when a Ctrl-C breaks the message of
        # an import's error (PyErr_SetImportError): the KeyboardInterrupt is not in it
        raise TypeError("expected a message argument")

    yield
    app.registered_commands[:] = before


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["tracker", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    return int(exc.value.code or 0)


@pytest.mark.usefixtures("extra_command")
def test_exit_code_of_a_command_passes_through(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(monkeypatch, "zz-exit", "4") == 4
    assert run(monkeypatch, "zz-exit", "0") == 0


@pytest.mark.usefixtures("extra_command")
def test_tracker_error_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(monkeypatch, "zz-bad") == 2
    err = capsys.readouterr().err
    assert err == "error: 1500:2 is not a score: use 1, 0.5 or 0\n"


@pytest.mark.usefixtures("extra_command")
def test_ctrl_c_says_interrupted_with_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(monkeypatch, "zz-ctrl-c") == 130
    assert capsys.readouterr().err == "interrupted\n"  # typer alone exits 130 silently


@pytest.mark.usefixtures("extra_command")
def test_ctrl_c_while_a_library_loads_is_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TRACKER_DEBUG", raising=False)
    assert run(monkeypatch, "zz-ctrl-c-loading") == 130
    assert capsys.readouterr().err == "interrupted\n"


@pytest.mark.usefixtures("extra_command")
def test_an_error_after_a_ctrl_c_is_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A real SIGINT to this process, noted by CtrlC (the interpreter writes it to the pipe
    # of set_wakeup_fd), then an error that does not name it: exit 130. Without the signal,
    # the same error is a bug (exit 3).
    monkeypatch.delenv("TRACKER_DEBUG", raising=False)
    assert run(monkeypatch, "zz-message-lost") == 3
    capsys.readouterr()
    monkeypatch.setattr(CtrlC, "_pipe", None)
    monkeypatch.setattr(CtrlC, "_seen", False)
    handler = signal.signal(signal.SIGINT, lambda *_: None)  # (pytest's own stays away)
    old_fd = signal.set_wakeup_fd(-1)
    try:
        CtrlC.watch()
        assert not CtrlC.pressed()
        os.kill(os.getpid(), signal.SIGINT)
        assert CtrlC.pressed()
        assert run(monkeypatch, "zz-message-lost") == 130
        assert capsys.readouterr().err == "interrupted\n"
    finally:
        if CtrlC._pipe is not None:
            os.close(CtrlC._pipe)
        wakeup = signal.set_wakeup_fd(old_fd)
        if wakeup not in (-1, old_fd):
            os.close(wakeup)
        signal.signal(signal.SIGINT, handler)


def test_a_ctrl_c_python_could_not_raise_is_raised_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A KeyboardInterrupt in a weak reference's callback (importlib's module locks have one)
    # is "unraisable": Python printed it with a traceback and the command went on to the end
    # (exit 0 after a Ctrl-C, found by a SIGINT sweep under load). CtrlC.watch has it raised
    # again at the next call.
    import weakref

    monkeypatch.setattr(CtrlC, "_pipe", None)
    monkeypatch.setattr(CtrlC, "_seen", False)
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    old_fd = signal.set_wakeup_fd(-1)

    class Held:
        pass

    def callback(_ref: object) -> None:
        raise KeyboardInterrupt

    try:
        CtrlC.watch()
        held = Held()
        ref = weakref.ref(held, callback)
        went_on = []
        with pytest.raises(KeyboardInterrupt):
            del held  # the callback runs here; its KeyboardInterrupt cannot be raised
            went_on.append(len("raised again at this call"))
        assert ref() is None and went_on == []
        assert sys.getprofile() is None
    finally:
        if CtrlC._pipe is not None:
            os.close(CtrlC._pipe)
        wakeup = signal.set_wakeup_fd(old_fd)
        if wakeup not in (-1, old_fd):
            os.close(wakeup)
        signal.signal(signal.SIGINT, handler)


@pytest.mark.usefixtures("extra_command")
def test_a_bug_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TRACKER_DEBUG", raising=False)
    assert run(monkeypatch, "zz-bug") == 3
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith("error: internal error (ZeroDivisionError")


def test_unknown_command_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(monkeypatch, "no-such-command") == 2


def test_version(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    import tracker.pgn.native

    assert run(monkeypatch, "--version") == 0
    first, *lines = capsys.readouterr().out.splitlines()
    assert first.startswith("tracker ") and f"SQLite {sqlite3.sqlite_version}" in first
    # which code runs, the compiled or the pure Python, is said for each extension
    assert [line.split(": ")[0] for line in lines] == ["the PGN reader"]
    for line, chosen in zip(lines, (tracker.pgn.native.SPEEDUPS,), strict=True):
        assert line.endswith(": compiled (C)") == (chosen is not None), line


@pytest.mark.slow  # tracker in a subprocess
def test_version_says_why_the_pure_python_code_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {**os.environ, "TRACKER_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-m", "tracker", "--version"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines()[1:] == ["the PGN reader: pure Python (TRACKER_PURE_PYTHON=1)"]
    # not built (no compiler), or built and not used (a build older than its source)
    import importlib.util

    import tracker.cli
    import tracker.pgn.native

    monkeypatch.delenv("TRACKER_PURE_PYTHON", raising=False)
    monkeypatch.setattr(tracker.pgn.native, "SPEEDUPS", None)
    found = importlib.util.find_spec("tracker.pgn._speedups")
    line = tracker.cli.extension_lines()[0]
    if found is None:
        assert line.startswith("the PGN reader: pure Python (not built: no C compiler")
    else:
        assert line.startswith("the PGN reader: pure Python (the build is older than its C")


@pytest.mark.usefixtures("extra_command")
def test_control_characters_written_by_any_command_are_shown_escaped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(monkeypatch, "zz-evil") == 2
    got = capsys.readouterr()
    assert got.out == "a \\x1b]0;title\\x07 b \\u009b2J \\u202e c\r\n"  # CRLF kept (CSV)
    assert got.err == "error: no player matches \\x1b[2J\\u2066x\\nforged line\n"
    assert not isinstance(sys.stdout, ShownStream)  # restored after the command


def test_shown_streams_keep_json_valid_and_rich_codes_working() -> None:
    import io
    import json

    from rich.console import Console
    from rich.text import Text

    name = "X\x1b[2J\u202eY\x85"
    buf = io.StringIO()
    ShownStream(buf).write(json.dumps({"name": name}, ensure_ascii=False))
    assert json.loads(buf.getvalue()) == {"name": name}  # \\u202e, \\u0085: still JSON
    assert shown("a\nb\tc\x7f") == "a\\nb\\tc\\u007f" and shown("O\\Neill") == "O\\Neill"
    term = io.StringIO()
    console = shown_console(Console)(
        # a text stream by duck typing (the CLI puts it as sys.stdout), not an IO[str]
        file=ShownStream(term),  # type: ignore[arg-type]
        force_terminal=True,
        color_system="standard",
        width=80,
    )
    console.print(Text(name, style="bold"))
    assert term.getvalue() == "\x1b[1mX\\x1b[2J\\u202eY\\u0085\x1b[0m\n"  # rich's own codes


class _Full(io.StringIO):
    """A standard output that cannot be written (`> /dev/full`)."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.usefixtures("extra_command")
def test_a_stdout_that_cannot_be_written_is_one_line_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", _Full())
    monkeypatch.delenv("TRACKER_DEBUG", raising=False)
    assert run(monkeypatch, "zz-print") == 1
    assert capsys.readouterr().err == (
        "error: cannot write to standard output: No space left on device (is the disk full, "
        "or the output a file that cannot grow?)\n"
    )
    assert run(monkeypatch, "zz-bug") == 3  # any other error is still what it is


@pytest.mark.slow  # tracker in a subprocess
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_players_to_dev_full(tmp_path: Path) -> None:
    from tests.conftest import subprocess_env, tracker_command

    db = tmp_path / "t.db"
    subprocess.run(
        tracker_command("db", "upgrade", "--db", str(db)),
        env=subprocess_env(),
        check=True,
        capture_output=True,
        timeout=120,
    )
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            tracker_command("players", "--db", str(db)),
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=subprocess_env(),
            timeout=120,
        )
    assert (proc.returncode, proc.stderr) == (
        1,
        (
            "error: cannot write to standard output: No space left on device (is the disk full, "
            "or the output a file that cannot grow?)\n"
        ),
    )


@pytest.mark.slow  # tracker in a subprocess
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_an_import_to_a_full_stdout_goes_on_and_says_so(tmp_path: Path) -> None:
    """Issue 19: an import whose standard output cannot be written (a full disk) stored only
    the file in progress; it goes on to the end, as with a closed pipe, and says so."""
    import sqlite3

    from tests.conftest import SAMPLES, subprocess_env, tracker_command

    db = tmp_path / "t.db"
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            tracker_command("import", str(SAMPLES), "--db", str(db)),
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=subprocess_env(),
            timeout=300,
        )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.endswith(
        "note: standard output could not be written before the end (a full disk?); the "
        "import went on: 14 files of 14 stored or already imported, 70 games added "
        "(`tracker imports` lists them)\n"
    )
    con = sqlite3.connect(db)
    try:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (70,)
    finally:
        con.close()


@pytest.mark.usefixtures("extra_command")
def test_a_number_too_large_for_the_database_is_a_bad_value(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TRACKER_DEBUG", raising=False)
    assert run(monkeypatch, "zz-bind") == 2
    assert capsys.readouterr().err == (
        "error: a number given is too large (the most is 9,223,372,036,854,775,807); give a "
        "plausible value\n"
    )


def _subcommands(command: click.Command) -> set[str]:
    """The names of a group's commands (typer makes a click.Group of an app)."""
    assert isinstance(command, click.Group), command
    return set(command.commands)


def test_each_command_is_made_from_the_module_that_registers_it() -> None:
    # main() makes only the module of the command it runs (start-up, issue 18): COMMANDS
    # must name, for every command of the whole program, the module that registers it
    import typer.main

    from tracker.cli import COMMAND_MODULES, COMMANDS, build_app

    whole = _subcommands(typer.main.get_command(build_app()))
    assert set(COMMANDS) == whole
    for module in COMMAND_MODULES:
        made = _subcommands(typer.main.get_command(build_app((module,))))
        assert made == {c for c, m in COMMANDS.items() if m == module}, module


@pytest.mark.parametrize(
    "argv,word",
    [
        (["history"], "history"),
        (["--db", "x.db", "check", "--all"], "check"),
        (["--db=x.db", "imports", "remove", "3"], "imports"),
        (["--help"], None),
        ([], None),
        (["histori"], None),
        (["--version"], None),
        (["report", "-o", "s.html"], "report"),
    ],
)
def test_the_command_line_names_its_command(argv: list[str], word: str | None) -> None:
    from tracker.cli import _command_word

    assert _command_word(argv) == word


def test_a_command_line_makes_only_its_command() -> None:
    # what main() builds for `tracker WORD ...`: that command (a group with all of its
    # subcommands), nothing else of its module
    import typer.main

    from tracker.cli import COMMANDS, build_app

    for word, module in COMMANDS.items():
        made = typer.main.get_command(build_app((module,), only=word))
        assert _subcommands(made) == {word}, word
    event = typer.main.get_command(build_app(("reports",), only="event"))
    assert isinstance(event, click.Group)
    assert _subcommands(event.commands["event"]) == {"list", "set", "show"}


@pytest.mark.slow  # tracker in a subprocess
def test_the_program_freezes_its_objects_for_the_exit_and_main_does_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # console() (the tracker script, python -m tracker) skips the interpreter's garbage
    # collection over every object at exit (issue 18: about 0.13 s of a reading command);
    # main() leaves the collector alone for whoever called it (a test, a library)
    import gc

    frozen = gc.get_freeze_count()
    assert run(monkeypatch, "--version") == 0
    assert gc.get_freeze_count() == frozen
    probe = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
        "sys.argv = ['tracker', 'history', '--db', sys.argv[1], '--format', 'json']\n"
        "from tracker.cli import console\n"
        "console()\n"
    )
    db = tmp_path / "t.db"
    done = subprocess.run(
        [sys.executable, "-c", probe, str(db)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 1 and done.stderr.startswith("error: "), done.stderr
    assert done.stdout.splitlines()[-1] == "frozen True"
