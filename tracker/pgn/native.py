"""Which reader runs: the C extension or the pure Python code (standard library and
`tracker.model`).

`SPEEDUPS` is the extension `tracker.pgn._speedups` (built from `tracker/pgn/_speedups.c`
by `pip install` where a C compiler exists) when it imports, matches this source
(`VERSION`), is not older than the C source beside it (a tree whose `_speedups.c` was
changed and not rebuilt: an installed package has no source) and `tracker.model.RawGame`
is the dataclass it fills in; None otherwise, and when the environment variable
`TRACKER_PURE_PYTHON` is 1. Only the reader's modules
(`scan`, `stream`) use it; each of its functions does what a piece of their Python code
does, with the same result (tests/test_pgn_native.py runs both).
"""

from __future__ import annotations

import os
from dataclasses import fields
from typing import Any, Protocol, cast

from tracker.model import RawGame

VERSION = 3
"""The extension's interface this source expects (`VERSION` in `_speedups.c`): a module
built from another revision is not used."""


class Speedups(Protocol):
    """The extension's functions (see `tracker/pgn/_speedups.c`)."""

    VERSION: int

    def configure(
        self,
        raw_game: type,
        fast_tags: Any,
        max_tags: int,
        max_value: int,
        results: tuple[bytes, ...],
        drop: bytes,
        numbering: bytes,
        /,
    ) -> None: ...

    def groups(
        self, buf: bytes, base_line: int, final: bool, /
    ) -> tuple[list[RawGame], list[tuple[int, int, int, int]], tuple[int, int] | None] | None: ...

    def normalize(self, data: bytes, /) -> bytes: ...

    def to_lf(self, block: bytes, /) -> bytes: ...

    def line_ends(self, data: bytes, held: int, /) -> tuple[int, int]: ...

    def count_lf(self, data: bytes, /) -> int: ...

    def fast_tags(self, h: bytes, /) -> dict[str, str] | None: ...

    def fast_canonical(self, m: bytes, /) -> bytes | None: ...

    def canonical(self, text: bytes, /) -> bytes: ...

    def digest(self, canon: bytes, /) -> str: ...

    def blake2b_hex(self, data: bytes, /) -> str: ...


def pure_python() -> bool:
    """Whether `TRACKER_PURE_PYTHON` asks for the pure Python code."""
    return os.environ.get("TRACKER_PURE_PYTHON", "") == "1"


def load() -> Speedups | None:
    """The extension, or None (not built, another revision, built before its source last
    changed, or pure Python asked for)."""
    if pure_python():
        return None
    try:
        import tracker.pgn._speedups as module  # type: ignore[import-not-found]
    except ImportError:
        return None
    if getattr(module, "VERSION", None) != VERSION or stale(getattr(module, "__file__", None)):
        return None
    if not _plain(RawGame):
        return None
    return cast(Speedups, module)


SOURCE = os.path.join(os.path.dirname(__file__), "_speedups.c")
"""The reader's extension's C source, where it lies beside this module (a clone)."""


def stale(built: str | None, source: str = SOURCE) -> bool:
    """Whether the extension file `built` is older than its C source `source`: the source
    was edited (or checked out) after the build, which may do other things with the same
    `VERSION`. False where there is no source (an installed package)."""
    if built is None:
        return False
    try:
        made = os.stat(source)
    except OSError:
        return False
    try:
        return os.stat(built).st_mtime_ns < made.st_mtime_ns
    except OSError:
        return True


def _plain(cls: type) -> bool:
    """Whether `cls` is the dataclass the extension fills in as its __init__ would: these
    fields in this order, an instance dict, nothing done after __init__."""
    names = [f.name for f in fields(cls)]
    return (
        names == ["tags", "moves_digest", "has_moves", "line", "problems", "moves_end"]
        and "__slots__" not in vars(cls)
        and not hasattr(cls, "__post_init__")
    )


SPEEDUPS = load()
