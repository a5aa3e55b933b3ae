#!/usr/bin/env python3
"""Replay benchmark (issue 6): the ratings of a whole 1,000,000-game database, every player
with an official anchor, replayed through the library code `tracker check --all` uses.

1. Database: `tracker import` of the big PGN (`../shared/tools/make_big_pgn.py`, as
   bench/import_bench.py makes it, or --pgn FILE) into <workdir>/replay-all-<name>.db,
   reused by later runs (delete it to rebuild).
2. Anchors: every player with a FIDE ID (--who fide, the default: FIDE lists only hold
   players with an ID) or every player with games (--who all) gets one official entry on
   each list they have games on: the list in force before their first game on that list
   (the first list the engine rates when the games start earlier), rated with their own Elo
   tag of that game (the first tag found on that list, else 1500). The replay of each such
   player and list starts there and runs to their last game.
3. Timed, --runs times per --jobs value, in a child process: `tracker.app.check.check_all` (what
   `tracker check --all --jobs J` runs; rapid and blitz replay standard first, as `history`
   does). Printed: medians of wall and CPU time (the child and its worker processes), the
   time inside check_all (without interpreter start and imports), peak RSS of the process
   tree, players and games replayed; written to <workdir>/replay-all.md too.

Target (issue 6): under a minute for the 1,000,000-game database.

Usage (from the repository root):
  python bench/replay_all.py --pgn BIG.pgn      # an existing big file
  python bench/replay_all.py                     # builds it first (about a minute)
  python bench/replay_all.py --pgn sample_pgns/2025-09-12_brno-autumn-open.pgn --runs 1  # smoke
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from import_bench import make_big, run_measured  # noqa: E402

ANCHOR_SOURCE = "bench replay_all ({who})"
DEFAULT_RATING = 1500


def build(pgn: Path, db: Path) -> float:
    """`tracker import PGN --db DB` (a new database); wall seconds."""
    part = db.with_name(db.name + ".part")
    for suffix in ("", "-wal", "-shm"):
        Path(str(part) + suffix).unlink(missing_ok=True)
    seconds, *_ = run_measured(
        [sys.executable, "-m", "tracker", "import", str(pgn), "--db", str(part), "--quiet"]
    )
    import sqlite3

    with sqlite3.connect(part) as conn:  # fold the WAL in, so the file moves alone
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    part.rename(db)
    return seconds


def add_anchors(db: Path, who: str) -> int:
    """One official entry per player in scope and list they have games on (see the module
    docstring); returns the number written. Replaces the anchors of an earlier run."""
    from sqlalchemy import delete, insert, select

    from tracker.model import Period, RatingList
    from tracker.periods import list_in_force, replay_from
    from tracker.store import open_store
    from tracker.store.schema import games, official_ratings, players

    store = open_store(str(db))
    first: dict[tuple[int, str], tuple[dt.date, int | None]] = {}
    with store.engine.connect() as conn:
        scope = None
        if who == "fide":
            scope = {
                int(pid)
                for (pid,) in conn.execute(
                    select(players.c.id).where(players.c.fide_id.is_not(None))
                )
            }
        g = games.c
        rows = conn.execute(
            select(g.white_id, g.black_id, g.list, g.date, g.white_elo, g.black_elo).where(
                g.date.is_not(None)
            )
        )
        for white, black, lst, date, white_elo, black_elo in rows:
            for pid, elo in ((white, white_elo), (black, black_elo)):
                if scope is not None and pid not in scope:
                    continue
                key = (int(pid), str(lst))
                seen = first.get(key)
                if seen is None or date < seen[0] or (date == seen[0] and seen[1] is None):
                    first[key] = (date, elo)
    entries = []
    now = dt.datetime(2026, 1, 1)
    for (pid, lst), (date, elo) in first.items():
        rl = RatingList(lst)
        era = replay_from(rl)
        period = list_in_force(max(date, era) - dt.timedelta(days=1), rl) or Period.of(era)
        entries.append(
            {
                "player_id": pid,
                "list": lst,
                "period": str(period),
                "rating": elo or DEFAULT_RATING,
                "source": ANCHOR_SOURCE.format(who=who),
                "recorded_at": now,
            }
        )
    with store.engine.begin() as conn:
        conn.execute(delete(official_ratings))
        for i in range(0, len(entries), 5000):
            conn.execute(insert(official_ratings), entries[i : i + 5000])
    store.close()
    return len(entries)


def counts(db: Path) -> dict[str, int]:
    """Players and games the replay covers: anchored players, anchored (player, list) pairs,
    player-games on anchored lists (a game between two anchored players counts twice: both
    replays rate it) and the distinct games among them."""
    import sqlite3

    with sqlite3.connect(db) as conn:
        q = conn.execute
        players = q("SELECT COUNT(DISTINCT player_id) FROM official_ratings").fetchone()[0]
        pairs = q("SELECT COUNT(*) FROM official_ratings").fetchone()[0]
        side = (
            "SELECT COUNT(*) FROM games g JOIN official_ratings o "
            "ON o.player_id = g.{0}_id AND o.list = g.list"
        )
        player_games = q(side.format("white")).fetchone()[0] + q(side.format("black")).fetchone()[0]
        games = q(
            "SELECT COUNT(*) FROM games g WHERE EXISTS (SELECT 1 FROM official_ratings o "
            "WHERE o.list = g.list AND o.player_id IN (g.white_id, g.black_id))"
        ).fetchone()[0]
        total = q("SELECT COUNT(*) FROM games").fetchone()[0]
    return {
        "players": players,
        "pairs": pairs,
        "player_games": player_games,
        "games": games,
        "total_games": total,
    }


def child(db: Path, jobs: int) -> None:
    """The timed part, run in a child process: check_all over the database; prints JSON."""
    from tracker.app.check import check_all
    from tracker.store import open_store

    store = open_store(str(db), upgrade=False)
    t0, c0 = time.perf_counter(), time.process_time()
    reports = check_all(store, jobs=jobs)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    store.close()
    print(
        json.dumps(
            {
                "wall": wall,
                "cpu_main": cpu,
                "reports": len(reports),
                "players": len({r.player for r in reports}),
            }
        )
    )


def timed(db: Path, jobs: int) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = Path(tempfile.mkstemp(prefix="replay-all-", suffix=".json")[1])
    try:
        with out.open("w") as fh:
            seconds, peak, _ = run_measured(
                [
                    sys.executable,
                    str(Path(__file__).resolve()),
                    "--child",
                    str(db),
                    "--jobs",
                    str(jobs),
                ],
                stdout=fh.fileno(),
            )
        got = json.loads(out.read_text())
    finally:
        out.unlink(missing_ok=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {
        "wall": seconds,
        "cpu": cpu,
        "inner": got["wall"],
        "peak_mb": peak.rss / 1024,
        "reports": got["reports"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument(
        "--games",
        type=int,
        default=1_000_000,
        help="games in the big file built when --pgn is not given",
    )
    ap.add_argument("--pgn", type=Path, default=None, help="the PGN to import (default: build)")
    ap.add_argument(
        "--who",
        choices=("fide", "all"),
        default="fide",
        help="players given an anchor: with a FIDE ID (default), or all with games",
    )
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", default="1,2", help="worker processes to time, comma-separated")
    ap.add_argument(
        "--workdir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "tracker-bench",
        help="where the big file and the database go (never the repository)",
    )
    ap.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child is not None:
        child(a.child, int(a.jobs))
        return 0

    a.workdir.mkdir(parents=True, exist_ok=True)
    pgn = a.pgn
    if pgn is None:
        pgn = a.workdir / f"big-{a.games}.pgn"
        make_big(a.games, pgn)
    pgn = pgn.resolve()
    db = a.workdir / f"replay-all-{pgn.name.split('.')[0]}.db"
    built = "reused"
    if not db.exists():
        print(f"importing {pgn} ...", file=sys.stderr)
        built = f"{build(pgn, db):.0f} s"
    t0 = time.perf_counter()
    anchors = add_anchors(db, a.who)
    anchored = time.perf_counter() - t0
    c = counts(db)
    jobs = [int(j) for j in a.jobs.split(",") if j.strip()]
    load = os.getloadavg()[0]
    results: dict[int, list[dict[str, float]]] = {j: [] for j in jobs}
    for run in range(a.runs):
        for j in jobs:  # alternate the variants: the machine's load drifts
            r = timed(db, j)
            results[j].append(r)
            print(
                f"  run {run + 1}, jobs {j}: {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU",
                file=sys.stderr,
            )
        load = max(load, os.getloadavg()[0])

    def med(j: int, key: str) -> float:
        return statistics.median(r[key] for r in results[j])

    lines = [
        f"Replay of a whole database: {c['total_games']:,} games (from {pgn.name}; import "
        f"{built}); {c['players']:,} players with an anchor ({a.who}: "
        + ("every player with a FIDE ID" if a.who == "fide" else "every player with games")
        + f"), {c['pairs']:,} player-lists replayed, {c['player_games']:,} player-games "
        f"({c['games']:,} distinct games); {anchors:,} anchors written in {anchored:.1f} s.",
        "",
        "| jobs | median wall (s) | median CPU, all processes (s) | in check_all, wall (s) "
        "| player-games/s (wall) | peak RSS (tree) | reports |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for j in jobs:
        wall = med(j, "wall")
        lines.append(
            f"| {j} | {wall:.1f} | {med(j, 'cpu'):.1f} | {med(j, 'inner'):.1f} | "
            f"{c['player_games'] / wall if wall else 0:,.0f} | "
            f"{max(r['peak_mb'] for r in results[j]):.0f} MB | "
            f"{int(results[j][0]['reports']):,} |"
        )
    lines += [
        "",
        f"Medians of {a.runs} runs, variants alternated; Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs, load average up to {load:.1f} during the run; "
        f"{time.strftime('%Y-%m-%d')}. Target: under 60 s.",
        f"Command: python bench/replay_all.py --pgn {pgn.name} --who {a.who} --runs {a.runs} "
        f"--jobs {a.jobs}",
    ]
    text = "\n".join(lines)
    (a.workdir / "replay-all.md").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
