"""Benchmark SQLite against PostgreSQL in the same run: `tracker import` and `check --all`.

The same inputs on both databases, the runs alternated (SQLite, PostgreSQL, SQLite, ...), the
medians of RUNS runs of each, as `tracker` subprocesses (what a user runs):

- import, new database: the big file (../shared/tools/make_big_pgn.py, GAMES games) into a
  database that holds nothing yet (SQLite: a new file; PostgreSQL: a new database);
- import, all duplicates: a byte-different copy of that file (more newlines at its end, a
  new copy each run) into the full database: every game found already stored, by the
  database's own check;
- three importers at once: the file cut into three parts (at game boundaries), one `tracker
  import` process each, started together into a new database: wall time until the last
  ends; the games stored must be those of one import of the whole file;
- check --all: `tracker check --all --jobs J` over the synthetic database of
  bench/check_all.py (PLAYERS tracked players with official entries), J = 1 and 2.

PostgreSQL: a throwaway server of the benchmark's own (tests/pgserver.py: initdb + pg_ctl in
a folder of its own under /tmp, a unix socket there, as `nobody` when run as root; its log
copied to the work folder at the end) with the server's default settings (fsync and
synchronous commit on), or the server of `--server URL` (a database there it may use
to create and drop databases named trackerbench_*). SQLite runs as tracker sets it up (WAL,
synchronous NORMAL).

    python bench/postgres.py                          # 100,000 games, 2,000 players
    python bench/postgres.py --games 20000 --players 300 --runs 1
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import check_all  # noqa: E402  (bench/check_all.py: the synthetic check database)
import import_bench  # noqa: E402  (bench/import_bench.py: the big file)

from tests import pgserver  # noqa: E402  (the throwaway server of the tests too)


@contextmanager
def throwaway_server(work: Path) -> Iterator[str]:
    """A PostgreSQL server of its own (tests/pgserver.py: in a folder of its own under /tmp,
    as nobody when run as root), the server's default settings: yields the URL of its
    `postgres` database. The server's log is copied to the work folder when it stops."""
    try:
        with pgserver.throwaway_server(
            "tracker-pgbench-", keep_log=work / "postgres-server.log"
        ) as folder:
            yield f"postgresql+psycopg://{pgserver.USER}@/postgres?host={folder}"
    except pgserver.ServerFailed as failed:  # (raised before the yield only)
        raise SystemExit(f"{failed} (or give --server URL)") from None


@contextmanager
def given_server(url: str) -> Iterator[str]:
    yield url


class Databases:
    """New databases of each kind, by name: a SQLite file in the work folder, or a database
    of the PostgreSQL server (dropped and made again)."""

    def __init__(self, work: Path, server: str) -> None:
        from sqlalchemy.engine import make_url

        self.work = work
        self.server = make_url(server.replace("postgresql://", "postgresql+psycopg://", 1))

    def _admin(self) -> object:
        import psycopg

        url = self.server.set(drivername="postgresql")
        return psycopg.connect(url.render_as_string(hide_password=False), autocommit=True)

    def new(self, backend: str, name: str) -> str:
        if backend == "sqlite":
            db = self.work / f"{name}.db"
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)
            return str(db)
        database = f"trackerbench_{name}"
        with self._admin() as conn:  # type: ignore[attr-defined]
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{database}"')
        return self.server.set(database=database).render_as_string(hide_password=False)

    def drop_all(self) -> None:
        with self._admin() as conn:  # type: ignore[attr-defined]
            names = [
                r[0]
                for r in conn.execute(
                    "SELECT datname FROM pg_database WHERE datname LIKE 'trackerbench_%'"
                )
            ]
            for name in names:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def timed(commands: Sequence[Sequence[str]]) -> tuple[float, float]:
    """Run `commands` at once (subprocesses), wait for all: wall seconds and their CPU
    seconds (user + system). A failure stops the benchmark with its stderr."""
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    procs = [
        subprocess.Popen(list(c), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for c in commands
    ]
    errors = [(p.wait(), p.stderr.read() if p.stderr else "") for p in procs]
    wall = time.perf_counter() - t0
    for code, err in errors:
        if code not in (0, 1) or "error:" in err:
            raise SystemExit(f"a command failed ({code}): {err[-2000:]}")
    return wall, _children_cpu() - cpu0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def tracker(*args: str) -> list[str]:
    return [sys.executable, "-m", "tracker", *args]


def parts(path: Path, n: int) -> list[Path]:
    """`path` cut into `n` consecutive parts at game boundaries (a line `[Event ` after a
    blank line)."""
    starts: list[int] = []
    offset = 0
    blank = True
    with path.open("rb") as fh:
        for line in fh:
            if blank and line.startswith(b"[Event "):
                starts.append(offset)
            blank = not line.strip()
            offset += len(line)
    data = path.read_bytes()
    cuts = [starts[len(starts) * i // n] for i in range(n)] + [len(data)]
    out = []
    for i in range(n):
        part = path.with_name(f"{path.stem}.part{i}.pgn")
        part.write_bytes(data[cuts[i] : cuts[i + 1]])
        out.append(part)
    return out


def count_games(target: str) -> int:
    from sqlalchemy import text

    from tracker.store import open_store

    with open_store(target, upgrade=False) as store, store.engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM games")).scalar_one())


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100_000, help="games in the big file")
    ap.add_argument("--players", type=int, default=2_000, help="tracked players for check")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "tracker-bench")
    ap.add_argument("--server", help="a PostgreSQL URL to use instead of a server of its own")
    ap.add_argument(
        "--source",
        action="append",
        default=[],
        help="corpus file for the big file (import_bench.py's --source)",
    )
    args = ap.parse_args(argv)
    # a kill (SIGTERM) unwinds like Ctrl-C: the server of its own is stopped, not left running
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = args.workdir
    work.mkdir(parents=True, exist_ok=True)
    if args.source:
        import_bench.SOURCES[:] = args.source
    big = work / f"big-{args.games}.pgn"
    import_bench.make_big(args.games, big)
    thirds = parts(big, 3)
    server = given_server(args.server) if args.server else throwaway_server(work)
    results: dict[str, dict[str, list[float]]] = {}
    with server as url:
        dbs = Databases(work, url)
        try:
            # the check database of each kind, built once (not timed here)
            check_db = {}
            for backend in ("sqlite", "postgresql"):
                check_db[backend] = dbs.new(backend, "check")
                check_all.build(check_db[backend], args.players, 4, 5, 20)  # type: ignore[arg-type]
            stored: dict[str, set[int]] = {"sqlite": set(), "postgresql": set()}
            scenarios: list[tuple[str, Callable[[str], tuple[float, float]]]] = []

            def import_new(backend: str) -> tuple[float, float]:
                db = dbs.new(backend, "import")
                got = timed([tracker("import", str(big), "--db", db, "--quiet")])
                stored[backend].add(count_games(db))
                return got

            copies = itertools.count(1)

            def import_again(backend: str) -> tuple[float, float]:
                # each run its own copy (n more newlines): never "already imported"
                n = next(copies)
                copy = work / f"big-{args.games}-copy.pgn"
                copy.write_bytes(big.read_bytes() + b"\n" * n)
                db = (
                    str(work / "import.db")
                    if backend == "sqlite"
                    else dbs.server.set(database="trackerbench_import").render_as_string(
                        hide_password=False
                    )
                )
                return timed([tracker("import", str(copy), "--db", db, "--quiet")])

            def three_at_once(backend: str) -> tuple[float, float]:
                db = dbs.new(backend, "three")
                got = timed([tracker("import", str(p), "--db", db, "--quiet") for p in thirds])
                stored[backend].add(count_games(db))
                return got

            def check(jobs: int) -> Callable[[str], tuple[float, float]]:
                return lambda backend: timed(
                    [
                        tracker(
                            "check",
                            "--all",
                            "--format",
                            "json",
                            "--jobs",
                            str(jobs),
                            "--db",
                            check_db[backend],
                        )
                    ]
                )

            scenarios = [
                (f"import, new database ({args.games:,} games)", import_new),
                ("import, all duplicates (a copy into the full database)", import_again),
                ("3 importers at once, a third of the file each, new database", three_at_once),
                (f"check --all, {args.players:,} players, --jobs 1", check(1)),
                (f"check --all, {args.players:,} players, --jobs 2", check(2)),
            ]
            load = os.getloadavg()[0]
            for name, run in scenarios:
                results[name] = {"sqlite": [], "postgresql": []}
                for _ in range(args.runs):
                    for backend in ("sqlite", "postgresql"):
                        wall, _cpu = run(backend)
                        results[name][backend].append(wall)
                        print(f"{name} [{backend}]: {wall:.2f} s", file=sys.stderr)
            load = max(load, os.getloadavg()[0])
        finally:
            dbs.drop_all()
    if len(stored["sqlite"] | stored["postgresql"]) != 1:
        raise SystemExit(f"the databases hold different games: {stored}")
    lines = [
        f"SQLite and PostgreSQL, same run: medians of {args.runs} runs (wall seconds, "
        f"alternated), {args.games:,}-game file ({big.stat().st_size / 1e6:.0f} MB), "
        f"{stored['sqlite'].pop():,} games stored; load average up to {load:.1f} on "
        f"{os.cpu_count()} cores",
        "",
        "| scenario | SQLite | PostgreSQL | PostgreSQL / SQLite |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, by in results.items():
        s, p = statistics.median(by["sqlite"]), statistics.median(by["postgresql"])
        lines.append(f"| {name} | {s:.2f} s | {p:.2f} s | {p / s:.2f} |")
    report = "\n".join(lines) + "\n"
    print(report)
    (work / "postgres-bench.md").write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
