"""The C extensions: `tracker.pgn._speedups` (the per-game work of the PGN reader),
`tracker.importer._prepare` (the per-game work of the importer's preparer) and
`tracker.store._batch` (the writer's games rows bound through SQLite's C API; it needs
sqlite3.h and libsqlite3, the library Python's sqlite3 module uses).

Everything else is in pyproject.toml. The extensions are optional: where they cannot be
built (no C compiler), the install goes on and the pure Python code runs, which gives the
same games and rows (`tracker/pgn/native.py`, `tracker/importer/prepare.py` and
`tracker/store/native.py` decide which runs).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("tracker.pgn._speedups", ["tracker/pgn/_speedups.c"], optional=True),
        Extension("tracker.importer._prepare", ["tracker/importer/_prepare.c"], optional=True),
    ],
)
