"""`python -m tracker` and the `tracker` script run the command line: `console`.

Nothing heavy is imported before `console` guards it: a Ctrl-C while the command line loads
its libraries (typer, SQLAlchemy, matplotlib: up to a second) ends the command as any other
Ctrl-C does, "interrupted" and exit 130, never a traceback (docs/reliability.md).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

INTERRUPTED = 130


def console() -> None:
    """The program: tracker.cli.console (every error one line, its exit code), and around it
    what no code inside it can do for a Ctrl-C: while tracker itself is imported (from its
    first module on, tracker.errors), and once the command has ended."""
    try:
        from tracker.errors import CtrlC

        CtrlC.watch()
        from tracker.cli import console as command_line

        command_line()
        code: int | str | None = 0
    except SystemExit as done:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # first: see _ended
        code = done.code
    except BaseException as exc:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if not _by_ctrl_c(exc):
            raise
        with contextlib.suppress(Exception):
            print("interrupted", file=sys.stderr)
        code = INTERRUPTED
    _ended(code)
    raise SystemExit(code)


def _by_ctrl_c(exc: BaseException) -> bool:
    """tracker.errors.by_ctrl_c, or (that module not loaded yet) a KeyboardInterrupt."""
    errors = sys.modules.get("tracker.errors")
    by_ctrl_c = getattr(errors, "by_ctrl_c", None)
    return isinstance(exc, KeyboardInterrupt) or (callable(by_ctrl_c) and bool(by_ctrl_c(exc)))


def _ended(code: int | str | None) -> None:
    """The command has ended with `code`. A Ctrl-C from here on (the interpreter's exit) is
    ignored: the exit code stands, and no exit handler prints a traceback (SIG_IGN, unlike
    a Python handler, stays through the interpreter's finalization).

    When a Ctrl-C ended the command, the process leaves at once with 130 (stdout and stderr
    flushed, every `finally` and `with` of the command already run): a library interrupted
    while it loaded (matplotlib's C modules) can abort the interpreter's finalization
    ("Fatal Python error: PyThreadState_Get", SIGABRT), and CPython, having seen a
    KeyboardInterrupt it takes as unhandled, would end `python -m tracker` by killing itself
    with SIGINT instead of exit 130."""
    if code == INTERRUPTED:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(INTERRUPTED)


if __name__ == "__main__":
    console()
