"""The C extension `tracker.pgn._speedups` (the per-game work of the PGN reader).

Everything else is in pyproject.toml. The extension is optional: where it cannot be built
(no C compiler), the install goes on and the pure Python code runs, which reads the same
games (`tracker/pgn/native.py` decides which runs).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("tracker.pgn._speedups", ["tracker/pgn/_speedups.c"], optional=True),
    ],
)
