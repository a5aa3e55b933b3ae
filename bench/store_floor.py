#!/usr/bin/env python3
"""Storage floor benchmark (issue 6): what storing the games alone costs, with no parsing.

The import target of issue 6 is 100,000 games/s end to end: SQLite has one writer, so
the process that stores has 10 us a game for everything it does. This script measures what
the storage alone takes of that: the real games rows of the big file (as `tracker import`
stored them) inserted again into an empty games table of the same schema, in one
transaction, 2,000 rows per executemany (the importer's batch), with nothing else to do: no
reading, no parsing, no player or tournament lookups.

1. Source: `tracker import` of the first --games games of the big PGN
   (`../shared/tools/make_big_pgn.py`, as bench/import_bench.py makes it, or --pgn FILE)
   into <workdir>/store-floor-<name>.db, reused by later runs.
2. Template: a copy without the games (players, tournaments and the import row stay, so
   every foreign key of the rows holds).
3. Timed, --runs times each, alternating: the variants below, on a fresh copy of the
   template each time; wall and CPU time (this process: SQLite runs in it), rows per second.

Variants (the rows as the importer stores them since migration 0007 unless they say):
- `executemany, every index`: Python's sqlite3 binding the 24 values of each row, with the
  identity index, the three secondary indexes and the four foreign keys checked per row;
- `executemany, secondary indexes deferred`: the importer's path for a big source into a
  small database (the three secondary indexes dropped, built again at the end: included);
- `... the row and schema of 0006`: the same with the rows as revision 0006 stored them (the
  identity as 32 hexadecimal characters, each Elo tag's text even where it is the rating)
  into the games table of 0006 (the template taken down by the migrations' downgrades); then
  into the table of 0007, with one of the two changes of migration 0007 each, and with a
  date tag that is exactly the date NULL as well (measured, not kept);
- `... foreign keys off`: the same without the foreign key checks;
- `... through the writer's adapters`: executemany with sqlite3's adapters for None, bool
  and bytes registered, as tracker.store.games registers them (`_BINDINGS`) for its
  statement;
- `INSERT ... SELECT, secondary indexes deferred`: SQLite copying the rows from the source
  database attached: no Python per row (the floor of SQLite itself on this schema).

Usage (from the repository root):
  python bench/store_floor.py                      # 200,000 games of the big file
  python bench/store_floor.py --pgn FILE --runs 5  # another file
  python bench/store_floor.py --runs 9 --only "secondary indexes deferred" "schema of 0006"
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from import_bench import make_big  # noqa: E402

BATCH = 2_000  # rows per executemany, as tracker.importer.batches.BATCH
TARGET = 100_000  # games/s, end to end (issue 6)
SECONDARY = ("ix_games_white_id", "ix_games_black_id", "ix_games_tournament_date")


def build(pgn: Path, db: Path) -> None:
    """`tracker import PGN` into a new database at `db` (once; reused after)."""
    if db.exists():
        return
    part = db.with_name(db.name + ".part")
    for suffix in ("", "-wal", "-shm"):
        Path(str(part) + suffix).unlink(missing_ok=True)
    print(f"importing {pgn.name} ...", file=sys.stderr)
    subprocess.run(
        [sys.executable, "-m", "tracker", "import", str(pgn), "--db", str(part), "--quiet"],
        check=True,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
    )
    with sqlite3.connect(part) as conn:  # fold the WAL in, so the file moves alone
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    part.rename(db)


def template(source: Path, out: Path) -> None:
    """A copy of `source` with an empty games table."""
    if out.exists():
        return
    part = out.with_name(out.name + ".part")
    shutil.copyfile(source, part)
    conn = sqlite3.connect(part, isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("DELETE FROM games")
    conn.execute("VACUUM")
    conn.close()
    part.rename(out)


def template_0006(tpl: Path, out: Path) -> None:
    """A copy of the template taken down to revision 0006 by the migrations' downgrades (the
    games table of 0006: the identity a VARCHAR(64) column)."""
    if out.exists():
        return
    sys.path.insert(0, str(REPO))
    from alembic import command
    from sqlalchemy import create_engine

    from tracker.store.db import _alembic_config

    part = out.with_name(out.name + ".part")
    shutil.copyfile(tpl, part)
    engine = create_engine(f"sqlite:///{part}")
    with engine.begin() as conn:
        cfg = _alembic_config()
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0006")
    engine.dispose()
    part.rename(out)


def columns(conn: sqlite3.Connection) -> list[str]:
    return [str(r[1]) for r in conn.execute("PRAGMA table_info(games)") if r[1] != "id"]


def open_copy(tpl: Path, work: Path, *, foreign_keys: bool) -> sqlite3.Connection:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(work) + suffix).unlink(missing_ok=True)
    shutil.copyfile(tpl, work)
    conn = sqlite3.connect(work, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")  # as tracker.store opens a database
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
    return conn


def timed(
    conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], None]
) -> tuple[float, float]:
    """(wall, CPU) seconds of `work` inside one transaction, commit included."""
    wall, cpu = time.perf_counter(), time.process_time()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("PRAGMA cache_size = -32768")  # as tracker.store.games.GameWriter
    work(conn)
    conn.execute("COMMIT")
    return time.perf_counter() - wall, time.process_time() - cpu


def defer(conn: sqlite3.Connection) -> list[str]:
    marks = ", ".join("?" for _ in SECONDARY)
    found = conn.execute(
        f"SELECT name, sql FROM sqlite_master WHERE name IN ({marks})", SECONDARY
    ).fetchall()
    for name, _ in found:
        conn.execute(f'DROP INDEX "{name}"')
    return [str(sql) for _, sql in found]


def as_0006(rows: list[tuple[object, ...]], cols: list[str]) -> list[tuple[object, ...]]:
    """The rows as revision 0006 stored them (from a database of any revision): the identity
    as 32 hexadecimal characters, each Elo tag as written (0007 stores NULL for a tag that
    is exactly the parsed rating)."""
    at = {c: i for i, c in enumerate(cols)}
    ident, tags = at["identity"], [(at[f"{s}_elo_tag"], at[f"{s}_elo"]) for s in ("white", "black")]
    out = []
    for r in rows:
        row = list(r)
        if isinstance(row[ident], bytes):
            row[ident] = row[ident].hex()
        for tag, elo in tags:
            if row[tag] is None and row[elo] is not None:
                row[tag] = str(row[elo])
        out.append(tuple(row))
    return out


def narrow(
    rows: list[tuple[object, ...]],
    cols: list[str],
    *,
    identity: bool = False,
    elo_tags: bool = False,
    date_tags: bool = False,
) -> list[tuple[object, ...]]:
    """Rows of 0006 (`as_0006`) made narrower: the identity as its 16 bytes, an Elo tag
    that is exactly the parsed rating as NULL, a date tag that is exactly the date with dots
    as NULL (the last only measured, not kept)."""
    at = {c: i for i, c in enumerate(cols)}
    ident = at["identity"]
    tags = [(at[f"{s}_elo_tag"], at[f"{s}_elo"]) for s in ("white", "black")]
    date, date_tag = at["date"], at["date_tag"]
    out = []
    for r in rows:
        row = list(r)
        if identity:
            row[ident] = bytes.fromhex(str(row[ident]))
        if elo_tags:
            for tag, elo in tags:
                if row[elo] is not None and row[tag] == str(row[elo]):
                    row[tag] = None
        if (
            date_tags
            and row[date] is not None
            and row[date_tag] == str(row[date]).replace("-", ".")
        ):
            row[date_tag] = None
        out.append(tuple(row))
    return out


def variants(
    source: Path, rows: list[tuple[object, ...]], cols: list[str]
) -> dict[
    str,
    tuple[list[tuple[object, ...]], Callable[[sqlite3.Connection, list[tuple[object, ...]]], None]],
]:
    """name -> (the rows, how they are stored)."""
    names = ", ".join(f'"{c}"' for c in cols)
    insert = f"INSERT OR IGNORE INTO games ({names}) VALUES ({', '.join('?' for _ in cols)})"

    def many(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
        for i in range(0, len(rows), BATCH):
            conn.executemany(insert, rows[i : i + BATCH])

    def many_deferred(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
        rebuild = defer(conn)
        many(conn, rows)
        for sql in rebuild:
            conn.execute(sql)

    def select_deferred(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
        rebuild = defer(conn)
        conn.execute(
            f"INSERT OR IGNORE INTO games ({names}) SELECT {names} FROM src.games ORDER BY id"
        )
        for sql in rebuild:
            conn.execute(sql)

    sys.path.insert(0, str(REPO))
    from tracker.store.games import _BINDINGS

    def adapted_deferred(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
        for kind, adapt in _BINDINGS.items():
            sqlite3.register_adapter(kind, adapt)
        try:
            many_deferred(conn, rows)
        finally:
            for kind in _BINDINGS:
                del sqlite3.adapters[(kind, sqlite3.PrepareProtocol)]

    old = as_0006(rows, cols)
    head = narrow(old, cols, identity=True, elo_tags=True)
    return {
        "executemany, every index": (head, many),
        "executemany, secondary indexes deferred": (head, many_deferred),
        "... the row and schema of 0006 (identity as 32 hex characters, every Elo tag's text)": (
            old,
            many_deferred,
        ),
        "... the row of 0006 in the table of 0007": (old, many_deferred),
        "... the row of 0006 but the identity as 16 bytes": (
            narrow(old, cols, identity=True),
            many_deferred,
        ),
        "... the row of 0006 but an Elo tag that is the rating NULL": (
            narrow(old, cols, elo_tags=True),
            many_deferred,
        ),
        "... the row of 0007 and a date tag that is the date NULL (not kept)": (
            narrow(old, cols, identity=True, elo_tags=True, date_tags=True),
            many_deferred,
        ),
        "executemany, indexes deferred, foreign keys off": (head, many_deferred),
        "executemany, secondary indexes deferred, through the writer's adapters": (
            head,
            adapted_deferred,
        ),
        "INSERT ... SELECT, secondary indexes deferred": (rows, select_deferred),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--games",
        type=int,
        default=200_000,
        help="games of the big file to store (default 200,000)",
    )
    ap.add_argument("--pgn", type=Path, help="an existing PGN file instead of the big file")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--only",
        nargs="+",
        metavar="TEXT",
        help="only the variants whose name holds one of these texts",
    )
    ap.add_argument(
        "--workdir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "tracker-bench",
        help="where the files and databases go (never the repository)",
    )
    a = ap.parse_args(argv)
    a.workdir.mkdir(parents=True, exist_ok=True)
    pgn = a.pgn.resolve() if a.pgn else a.workdir / f"big-{a.games}.pgn"
    if a.pgn is None:
        make_big(a.games, pgn)
    source = a.workdir / f"store-floor-{pgn.stem}.db"
    build(pgn, source)
    tpl = a.workdir / f"store-floor-{pgn.stem}-empty.db"
    template(source, tpl)
    tpl_0006 = a.workdir / f"store-floor-{pgn.stem}-empty-0006.db"
    template_0006(tpl, tpl_0006)

    with sqlite3.connect(source) as conn:
        cols = columns(conn)
        names = ", ".join(f'"{c}"' for c in cols)
        rows = conn.execute(f"SELECT {names} FROM games ORDER BY id").fetchall()
    if not rows:
        raise SystemExit(f"{pgn} gave no games to store")
    work = a.workdir / "store-floor-work.db"
    found = variants(source, rows, cols)
    if a.only:
        found = {k: v for k, v in found.items() if any(t in k for t in a.only)}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in found}
    for run in range(a.runs):
        for name, variant in found.items():
            conn = open_copy(
                tpl_0006 if "schema of 0006" in name else tpl,
                work,
                foreign_keys="foreign keys off" not in name,
            )
            conn.execute("ATTACH DATABASE ? AS src", (f"file:{source}?mode=ro",))
            times[name].append(timed(conn, partial(variant[1], rows=variant[0])))
            (stored,) = conn.execute("SELECT count(*) FROM games").fetchone()
            conn.close()
            if stored != len(rows):  # a variant that stored less measured nothing
                raise SystemExit(f"{name}: {stored:,} rows stored of {len(rows):,}")
            print(f"run {run + 1}/{a.runs}: {name}: {times[name][-1][0]:.2f} s", file=sys.stderr)
    for suffix in ("", "-wal", "-shm"):
        Path(str(work) + suffix).unlink(missing_ok=True)

    n = len(rows)
    lines = [
        f"Storage floor: {n:,} games rows of {pgn.name} ({len(cols)} columns) into an empty "
        f"games table, one transaction, {BATCH:,} rows per executemany; median of {a.runs}",
        "",
        "| variant | median wall s | median CPU s | rows/s (wall) | us/row (CPU) | "
        "of the writer's budget |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, ts in times.items():
        wall = statistics.median(t[0] for t in ts)
        cpu = statistics.median(t[1] for t in ts)
        per = cpu / n * 1e6
        lines.append(
            f"| {name} | {wall:.2f} | {cpu:.2f} | {n / wall:,.0f} | {per:.1f} | "
            f"{per / (1e6 / TARGET):.0%} |"
        )
    lines += [
        "",
        f"The writer's budget: SQLite has one writer, so at {TARGET:,} games/s the "
        f"process that stores has {1e6 / TARGET:.0f} us a game for everything it does "
        "(here: storing alone, with no lookups).",
    ]
    text = "\n".join(lines)
    print(text)
    (a.workdir / "store-floor.md").write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
