"""Shared fixtures: the repository, `../shared` beside it, a fresh database per test, and a
throwaway PostgreSQL server for the tests that run on both databases.

SQLite and PostgreSQL: a test marked `@pytest.mark.databases` that uses the `store` or
`db_target` fixture (or `backend`) runs twice, `[sqlite]` and `[postgresql]`. The PostgreSQL
runs share one server started for the session (`pg_cluster`: initdb and pg_ctl under a
temporary folder, on a unix socket in it, as `nobody` when the tests run as root, since initdb
refuses root; stopped at the end), with a new database per test. Where the server cannot be
had (no initdb or pg_ctl, no psycopg) those runs are skipped with one line that says why.
"""

from __future__ import annotations

import bz2
import gzip
import itertools
import lzma
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests import pgserver
from tracker.store import Store, open_store


@pytest.fixture(autouse=True)
def _no_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines whole unless a test says otherwise: tables and lines fit COLUMNS when it is
    set, else the terminal, else 100 columns (a pipe: tracker.reports.terminal_width), and
    pytest-xdist's workers have COLUMNS=80. A test of what is said reads each line whole
    (COLUMNS=1000); a test of the widths sets COLUMNS, or deletes it for a pipe's 100
    (tests/test_widths.py)."""
    monkeypatch.setenv("COLUMNS", "1000")


# Hypothesis explores new examples on every local run (it found the reader's cut blank
# lines and a quarterly list's name losing its last word that way); CI (`CI` set, as
# `.ci/run` does) draws the same examples each time, so that a landing is judged on the
# code, not on a random draw. TRACKER_HYPOTHESIS=explore
# keeps CI exploring.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI") and os.environ.get("TRACKER_HYPOTHESIS") != "explore":
    settings.load_profile("ci")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
SPEC = SHARED / "spec"
SAMPLES = REPO / "sample_pgns"
SHARED_MISSING = (
    "../shared is not beside the clone: the tests that read the FIDE spec and "
    "the PGN corpus skip (CI lays it there)"
)


def corpus_files() -> list[Path]:
    """The PGN files of ../shared/corpus (plain or compressed); none where it is missing."""
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.iterdir() if p.name.endswith((".pgn", ".xz", ".gz", ".bz2")))


def decompressed(path: Path) -> bytes:
    """A corpus file's bytes (.xz, .gz and .bz2 decompressed, as tracker.files.sources does)."""
    data = path.read_bytes()
    for suffix, unpack in (
        (".xz", lzma.decompress),
        (".gz", gzip.decompress),
        (".bz2", bz2.decompress),
    ):
        if path.name.endswith(suffix):
            return unpack(data)
    return data


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "t.db"


BACKENDS = ("sqlite", "postgresql")
# The PostgreSQL runs are slow (a server, a database each): `pytest -m "not slow"` runs SQLite.
BACKEND_PARAMS = [
    pytest.param(b, marks=[pytest.mark.slow] if b == "postgresql" else []) for b in BACKENDS
]


def pytest_configure(config: pytest.Config) -> None:
    # A run without ../shared tests much less; under CI that is a failure, not a green run.
    if not SHARED.is_dir() and os.environ.get("CI") == "true":
        raise pytest.UsageError(f"{SHARED_MISSING}; with CI=true that fails the run")
    config.addinivalue_line(
        "markers", "databases: run once on SQLite and once on PostgreSQL (tests/conftest.py)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked `databases` runs on each of BACKENDS (through the `backend` fixture),
    unless it parametrizes `backend` itself."""
    if (
        metafunc.definition.get_closest_marker("databases") is not None
        and "backend" in metafunc.fixturenames
        and not any("backend" in m.args[0] for m in metafunc.definition.iter_markers("parametrize"))
    ):
        metafunc.parametrize("backend", BACKEND_PARAMS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database of this run: "sqlite" unless the test is marked `databases`."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def db_target(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """What --db takes for this run: the SQLite file (not made yet), or the URL of a new
    PostgreSQL database holding the tracker's schema and nothing else."""
    if backend == "sqlite":
        return str(db_path)
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database(request, template=cluster.schema_template())


@pytest.fixture
def store(db_target: str) -> Iterator[Store]:
    s = open_store(db_target)
    try:
        yield s
    finally:
        s.close()


# --- the PostgreSQL server of the test session ---------------------------------------------

PG_USER = pgserver.USER


def _pg_missing() -> str | None:
    """Why no PostgreSQL server can be started for the tests (None: it can)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[dev]' brings it)"
    return pgserver.missing()


@dataclass
class PgCluster:
    """A running throwaway server: its folder (socket in it) and a count of databases."""

    folder: Path
    counter: Iterator[int]
    template: str | None = None

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{PG_USER}@/{database}?host={self.folder}"

    def admin(self) -> Any:
        import psycopg

        return psycopg.connect(
            host=str(self.folder), user=PG_USER, dbname="postgres", autocommit=True
        )

    def create(self, name: str, template: str | None = None) -> str:
        with self.admin() as conn:
            conn.execute(
                f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")
            )
        return self.url(name)

    def has(self, name: str) -> bool:
        with self.admin() as conn:
            return (
                conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
                is not None
            )

    def drop(self, name: str) -> None:
        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def new_database(self, request: pytest.FixtureRequest, template: str | None = None) -> str:
        """The URL of a new database (empty, or a copy of `template`), dropped after the
        test."""
        name = f"t{next(self.counter)}"
        url = self.create(name, template)
        request.addfinalizer(lambda: self.drop(name))
        return url

    def schema_template(self) -> str:
        """A database holding the tracker's schema at head and no rows, to copy (made once:
        cheaper than the migrations for every test)."""
        if self.template is None:
            url = self.create("tracker_schema")
            open_store(url).close()
            self.template = "tracker_schema"
        return self.template


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """A PostgreSQL server of this test session (tests/pgserver.py: on a unix socket in a
    temporary folder, as nobody when this is root), durability off (a throwaway). Skipped
    with the reason when it cannot be had; a server that fails to start is a failure, with
    its log."""
    missing = _pg_missing()
    if missing is not None:
        pytest.skip(f"PostgreSQL tests skipped: {missing}")
    try:
        with pgserver.throwaway_server(
            "tracker-pg-",
            settings=(*pgserver.NO_DURABILITY, "max_connections=60"),
            no_sync=True,
            stop_mode="immediate",
        ) as folder:
            yield PgCluster(folder, itertools.count(1))
    except pgserver.ServerFailed as failed:  # (raised before the yield only)
        pytest.fail(str(failed))


STAMPS = ("started_at", "finished_at", "recorded_at")  # when a row was written


def dump_target(target: str, without: tuple[str, ...] = ()) -> list[str]:
    """The rows of every table of the database at `target` (a SQLite file or a PostgreSQL
    URL) as text, table by table, in key order, leaving out the columns `without` (STAMPS:
    to compare two databases written at other times): equal dumps mean the same facts."""
    from sqlalchemy import create_engine, inspect, select

    from tracker.store.db import to_url
    from tracker.store.schema import metadata

    engine = create_engine(to_url(target))
    try:
        with engine.connect() as conn:
            tables = set(inspect(conn).get_table_names())
            return [
                f"{t.name}: {tuple(row)}"
                for t in metadata.sorted_tables
                if t.name in tables
                for row in conn.execute(
                    select(*(c for c in t.columns if c.name not in without)).order_by(
                        *t.primary_key.columns
                    )
                )
            ]
    finally:
        engine.dispose()


def need_shared() -> None:
    """Skip, in one line, a test that reads ../shared where it is missing (CI always has it
    beside the clone: there, `pytest_configure` has already stopped the run)."""
    if not SHARED.is_dir():
        pytest.skip(SHARED_MISSING)


def pytest_report_header(config: pytest.Config) -> str | None:
    return None if SHARED.is_dir() else SHARED_MISSING


@pytest.fixture(scope="session")
def two_opens_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two-opens season (tests/builders.py two_opens_season), built once a run."""
    from tests.builders import two_opens_season

    return two_opens_season(tmp_path_factory.mktemp("two-opens") / "season.db")


@pytest.fixture
def two_opens_db(two_opens_template: Path, tmp_path: Path) -> str:
    """A copy of the two-opens season's database for one test."""
    from tests.builders import copy_db

    return copy_db(two_opens_template, tmp_path)


def run_captured(*args: str) -> tuple[int, str, str]:
    """`tracker ARGS...` in process through its entry point, without pytest's capsys (for a
    module fixture, a Hypothesis example): (exit code, stdout, stderr)."""
    import io
    import sys
    from contextlib import redirect_stderr, redirect_stdout

    from tracker.cli import main

    out, err = io.StringIO(), io.StringIO()
    argv, sys.argv = sys.argv, ["tracker", *args]
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main()
    except SystemExit as exc:
        code = int(exc.code or 0) if not isinstance(exc.code, str) else 1
    finally:
        sys.argv = argv
    return code, out.getvalue(), err.getvalue()


def run_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    """Run `tracker ARGS...` in process through its entry point: (exit code, stdout, stderr)."""
    import sys

    from tracker.cli import main

    monkeypatch.setattr(sys, "argv", ["tracker", *args])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    got = capsys.readouterr()
    return code, got.out, got.err


def tracker_command(*args: str) -> list[str]:
    """`tracker ARGS...` as a subprocess command line (this interpreter, this checkout)."""
    import sys

    return [sys.executable, "-m", "tracker", *args]


def subprocess_env() -> dict[str, str]:
    """The environment for a `tracker` subprocess: this checkout first, no TRACKER_DB."""
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("TRACKER_DB", None)
    return env


def dump_db(db: Path) -> list[str]:
    """The database as SQL statements: equal dumps mean nothing was written."""
    import sqlite3

    con = sqlite3.connect(db)
    try:
        return list(con.iterdump())
    finally:
        con.close()
