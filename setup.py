"""The C extensions: `tracker.pgn._speedups` (the per-game work of the PGN reader) and
`tracker.importer._prepare` (the per-game work of the importer's preparer).

Everything else is in pyproject.toml. The extensions are optional: where they cannot be
built (no C compiler), the install goes on and the pure Python code runs, which gives the
same games and rows (`tracker/pgn/native.py` and `tracker/importer/prepare.py` decide which
runs).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("tracker.pgn._speedups", ["tracker/pgn/_speedups.c"], optional=True),
        Extension("tracker.importer._prepare", ["tracker/importer/_prepare.c"], optional=True),
    ],
)
