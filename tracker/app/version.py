"""What `tracker --version` says beside the version numbers: for each C extension, whether its
compiled code runs or the pure Python code, and why (both give the same results: the tests
run each against the other)."""

from __future__ import annotations

import enum
from importlib.util import find_spec

from tracker.pgn import native

__all__ = ["Build", "Extension", "extensions"]


class Extension(enum.Enum):
    """A C extension, by the module it builds."""

    PGN_READER = "tracker.pgn._speedups"  # the reader's per-game work (tracker.pgn.native)


class Build(enum.Enum):
    """Which code of an extension runs."""

    COMPILED = "compiled"  # the C code, built and in use
    PURE_ASKED = "pure asked"  # the pure Python code: TRACKER_PURE_PYTHON=1
    NOT_BUILT = "not built"  # the pure Python code: no C compiler when tracker was installed
    STALE = "stale"  # the pure Python code: a build older than its C source, or of another revision


def extensions() -> list[tuple[Extension, Build]]:
    """Each C extension and which of its codes runs."""
    return [(Extension.PGN_READER, _build(Extension.PGN_READER, native.SPEEDUPS is not None))]


def _build(extension: Extension, in_use: bool) -> Build:
    if in_use:
        return Build.COMPILED
    if native.pure_python():
        return Build.PURE_ASKED
    if find_spec(extension.value) is None:
        return Build.NOT_BUILT
    return Build.STALE
