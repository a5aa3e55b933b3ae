"""The project's one exception family, and how to tell an error that a Ctrl-C caused.

Library code raises these with a sentence that says what happened and what to do next;
only `tracker.cli` turns them into a message on stderr and an exit code.
"""

from __future__ import annotations

import sys


class TrackerError(Exception):
    """Something the user can fix: the message says what happened and what to do."""

    exit_code: int = 1


class BadInput(TrackerError):
    """A value given on the command line (or in a file) is not acceptable."""

    exit_code = 2


class NotFound(TrackerError):
    """A player, tournament, merge, import, file or period the user named does not exist: a
    name or number that matches nothing is a bad value (exit 2, as an ambiguous one)."""

    exit_code = 2


class Unavailable(NotFound):
    """What the command needs is not there (yet), though nothing the user named was wrong:
    no database, no tournament or official rating yet, a file gone while read, a folder
    that cannot be made. The command failed (exit 1)."""

    exit_code = 1


class DatabaseError(TrackerError):
    """The database cannot be opened or used (folder, read-only, corrupt, newer schema)."""

    exit_code = 1


class CtrlC:
    """Whether SIGINT (Ctrl-C) reached this process since `watch()`, which the program
    (tracker.__main__) calls first of all.

    Python's handler raises KeyboardInterrupt wherever the main thread is, and there a C
    extension that is loading can swallow it and raise an error of its own that does not
    name it (CPython's "TypeError: expected a message argument" from an import it broke).
    The interpreter itself writes each signal's number to the pipe `watch` gives it
    (signal.set_wakeup_fd), whatever Python handler runs (the importer's own included):
    `pressed` reads it. And a KeyboardInterrupt raised where Python cannot raise it (in a
    callback of the garbage collector or of a weak reference, as imports use) would be
    printed with a traceback and dropped, the command going on: `watch` has it raised
    again, at the next place that can."""

    _pipe: int | None = None
    _seen = False
    _unraisable = sys.__unraisablehook__  # what says the other unraisable errors

    @classmethod
    def watch(cls) -> None:
        """Start noting SIGINT (the main thread only; elsewhere nothing is noted)."""
        import os
        import signal

        try:
            read, write = os.pipe()
        except OSError:
            return
        os.set_blocking(read, False)
        os.set_blocking(write, False)
        try:
            signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        except ValueError:  # not the main thread
            os.close(read)
            os.close(write)
            return
        cls._pipe = read
        cls._unraisable = sys.unraisablehook
        sys.unraisablehook = _raise_again

    @classmethod
    def pressed(cls) -> bool:
        """Whether SIGINT has reached the process since `watch` (False without `watch`)."""
        import os
        import signal

        while not cls._seen and cls._pipe is not None:
            try:
                noted = os.read(cls._pipe, 512)
            except OSError:  # (BlockingIOError: nothing more)
                break
            if not noted:
                break
            cls._seen = int(signal.SIGINT) in noted
        return cls._seen


def _raise_again(unraisable: sys.UnraisableHookArgs) -> None:
    """sys.unraisablehook while CtrlC watches: a KeyboardInterrupt is raised again at the
    next call out of here (`_raise_at_the_next_call`); any other error is said as before.
    (Raising it here, or tripping the signal, would only raise it in this hook, unraisable
    again.)"""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        sys.setprofile(_raise_at_the_next_call)
    else:
        CtrlC._unraisable(unraisable)


def _raise_at_the_next_call(frame: object, _event: str, _arg: object) -> None:
    """A profile function (sys.setprofile), set by `_raise_again`: at the first call or
    return outside that hook it unsets itself and raises KeyboardInterrupt there (in
    another callback, unraisable again: then at the next one)."""
    if getattr(frame, "f_code", None) is _raise_again.__code__:
        return
    sys.setprofile(None)
    raise KeyboardInterrupt


def by_ctrl_c(exc: BaseException) -> bool:
    """Whether `exc` ended the command because of a Ctrl-C: a KeyboardInterrupt, an error
    raised from one or while one was handled (a C extension whose loading it broke raises
    ImportError("initialization failed") from it: pybind11's modules of matplotlib), or any
    error once SIGINT reached the process (CtrlC)."""
    seen: set[int] = set()
    found: BaseException | None = exc
    while found is not None and id(found) not in seen:
        if isinstance(found, KeyboardInterrupt):
            return True
        seen.add(id(found))
        found = found.__cause__ or found.__context__
    return CtrlC.pressed()
