"""Benchmark `tracker check --all` over a database of many tracked players.

Builds a synthetic database straight through the schema (SQLAlchemy Core, bulk inserts):
PLAYERS tracked players (FIDE IDs 90000000+), each with TOURNAMENTS tournaments of GAMES
games in 2025 against a shared pool of rated opponents, and an official standard entry for
every month of 2025. The first entry (Jan 2025) is the anchor; the later ones are what the
tracker's own replay gives from it, so they match, except for one entry in every
DIFFER-th player, moved by one point (so the cause analysis runs for those players too).

Then times `tracker check --all --format json --jobs J` in a subprocess for each J (wall
time and the largest child's peak RSS), medians of RUNS runs, and prints a markdown table.

    python bench/check_all.py                     # 10,000 players (about 25 minutes)
    python bench/check_all.py --players 200 --runs 1
    python bench/check_all.py --workdir W --reuse --jobs 2   # time again, same database
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert

from tracker.app.histories import inputs_for
from tracker.identity.names import normalize_name
from tracker.model import Period, RatingList
from tracker.periods import replay
from tracker.store import open_store
from tracker.store.schema import games, official_ratings, player_names, players, tournaments

STD = RatingList.STANDARD
OPPONENTS = 400
BATCH = 5000


def _insert(conn: object, table: object, rows: list[dict[str, object]]) -> None:
    for i in range(0, len(rows), BATCH):
        conn.execute(insert(table), rows[i : i + BATCH])  # type: ignore[attr-defined]


def build(
    db: Path, n_players: int, n_tournaments: int, n_games: int, differ: int, seed: int = 1
) -> dict[str, float]:
    rng = random.Random(seed)
    t0 = time.perf_counter()
    store = open_store(str(db))
    now = dt.datetime(2026, 1, 1)
    with store.engine.begin() as conn:
        player_rows = []
        name_rows = []
        for i in range(OPPONENTS):
            name = f"Opponent, {i:04d}"
            player_rows.append(
                {
                    "id": i + 1,
                    "name": name,
                    "norm_name": normalize_name(name),
                    "fide_id": 80000000 + i,
                }
            )
        for i in range(n_players):
            name = f"Tracked, Player {i:05d}"
            player_rows.append(
                {
                    "id": OPPONENTS + i + 1,
                    "name": name,
                    "norm_name": normalize_name(name),
                    "fide_id": 90000000 + i,
                    "birth_year": 1970 + i % 30,
                    "rated_games": 100,
                }
            )
        for r in player_rows:
            name_rows.append({"norm_name": r["norm_name"], "player_id": r["id"]})
        _insert(conn, players, player_rows)
        _insert(conn, player_names, name_rows)
        opp_rating = {i + 1: rng.randint(1500, 2300) for i in range(OPPONENTS)}
        t_rows: list[dict[str, object]] = []
        g_rows: list[dict[str, object]] = []
        e_rows: list[dict[str, object]] = []
        tid = 0
        gid = 0
        for i in range(n_players):
            pid = OPPONENTS + i + 1
            rating = rng.randint(1500, 2200)
            e_rows.append(
                {
                    "player_id": pid,
                    "list": "standard",
                    "period": "2025-01",
                    "rating": rating,
                    "games": 0,
                    "k": 20,
                    "source": "bench",
                    "recorded_at": now,
                }
            )
            for j in range(n_tournaments):
                tid += 1
                month = 1 + (j * 11) // max(1, n_tournaments)
                start = dt.date(2025, month, 5)
                end = start + dt.timedelta(days=n_games // 2)
                t_rows.append(
                    {
                        "id": tid,
                        "event": f"Open {i}-{j}",
                        "site": "Bench",
                        "start_date": start,
                        "end_date": end,
                        "key": f"b|{i}|{j}",
                    }
                )
                for k in range(n_games):
                    gid += 1
                    opp = rng.randint(1, OPPONENTS)
                    result = rng.choice(("1-0", "0-1", "1/2-1/2"))
                    white = k % 2 == 0
                    g_rows.append(
                        {
                            "id": gid,
                            "identity": gid.to_bytes(16, "big"),
                            "tournament_id": tid,
                            "white_id": pid if white else opp,
                            "black_id": opp if white else pid,
                            "date": start + dt.timedelta(days=k // 2),
                            "round": str(k + 1),
                            "result": result,
                            "white_elo": rating if white else opp_rating[opp],
                            "black_elo": opp_rating[opp] if white else rating,
                            "has_moves": True,
                            "list": "standard",
                            "rated": True,
                        }
                    )
        _insert(conn, tournaments, t_rows)
        _insert(conn, games, g_rows)
        _insert(conn, official_ratings, e_rows)
    t1 = time.perf_counter()
    # The later official entries: what the replay gives from the anchor (one moved a point
    # in every `differ`-th player).
    later: list[dict[str, object]] = []
    for i in range(n_players):
        pid = OPPONENTS + i + 1
        rep = replay(inputs_for(store, pid, [STD])[STD])
        rows = [r for r in rep.rows if r.period > Period(2025, 1)]
        for n, r in enumerate(rows):
            if r.replayed is None:
                continue
            moved = 1 if differ and i % differ == 0 and n == len(rows) // 2 else 0
            later.append(
                {
                    "player_id": pid,
                    "list": "standard",
                    "period": str(r.period),
                    "rating": r.replayed + moved,
                    "games": r.games,
                    "source": "bench",
                    "recorded_at": now,
                }
            )
    with store.engine.begin() as conn:
        _insert(conn, official_ratings, later)
    store.close()
    return {
        "build_s": t1 - t0,
        "entries_s": time.perf_counter() - t1,
        "games": float(gid),
        "entries": float(len(later) + n_players),
    }


def run_check(db: Path, jobs: int) -> tuple[float, float, int, int]:
    """One `tracker check --all --format json --jobs N` in a subprocess: wall seconds, CPU
    seconds of the children (user + system), peak RSS (KiB) of the largest child so far,
    exit code. CPU time is the steadier figure on a shared machine."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = usage.ru_maxrss
    cpu0 = usage.ru_utime + usage.ru_stime
    t0 = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tracker",
            "check",
            "--all",
            "--format",
            "json",
            "--jobs",
            str(jobs),
            "--db",
            str(db),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"check failed ({proc.returncode}): {proc.stderr[-2000:]}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime - cpu0
    return seconds, cpu, max(usage.ru_maxrss, before), proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--tournaments", type=int, default=4, help="per player")
    ap.add_argument("--games", type=int, default=5, help="per tournament")
    ap.add_argument(
        "--differ",
        type=int,
        default=20,
        help="one entry off by a point in every N-th player (0: none)",
    )
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", default="1,2", help="--jobs values to time, comma-separated")
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument(
        "--reuse",
        action="store_true",
        help="reuse the database of an earlier run in --workdir (same options)",
    )
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="check-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    db = work / "check-bench.db"
    if args.reuse and db.exists():
        built = {
            "build_s": float("nan"),
            "entries_s": float("nan"),
            "games": float(args.players * args.tournaments * args.games),
            "entries": float("nan"),
        }
    else:
        if db.exists():
            db.unlink()
        built = build(db, args.players, args.tournaments, args.games, args.differ)
    jobs = [int(j) for j in args.jobs.split(",") if j.strip()]
    timed: dict[int, tuple[float, float, int, int]] = {}
    load = os.getloadavg()[0]
    for j in jobs:
        times: list[float] = []
        cpus: list[float] = []
        peaks: list[int] = []
        code = 0
        for _ in range(args.runs):
            seconds, cpu, peak, code = run_check(db, j)
            times.append(seconds)
            cpus.append(cpu)
            peaks.append(peak)
        timed[j] = (statistics.median(times), statistics.median(cpus), max(peaks), code)
    load = max(load, os.getloadavg()[0])
    differing = (
        args.players // args.differ + (1 if args.players % args.differ else 0) if args.differ else 0
    )
    size_mb = os.path.getsize(db) / 1e6
    entries = "?" if built["entries"] != built["entries"] else f"{int(built['entries']):,}"
    lines = [
        f"`tracker check --all` over {args.players:,} tracked players "
        f"({int(built['games']):,} games, {entries} official entries, "
        f"{differing:,} players with a one-point difference; database {size_mb:.0f} MB)",
        "",
        "| measure | value |",
        "| --- | --- |",
    ]
    if built["build_s"] == built["build_s"]:  # not NaN: built in this run
        lines += [
            f"| build the database (bulk inserts) | {built['build_s']:.1f} s |",
            f"| official entries from the replay | {built['entries_s']:.1f} s |",
        ]
    for j, (median, cpu, peak, code) in timed.items():
        lines += [
            f"| check --all --jobs {j}, wall, median of {args.runs} | {median:.1f} s "
            f"({1000 * median / max(1, args.players):.1f} ms per player) |",
            f"| check --all --jobs {j}, CPU (all processes), median | {cpu:.1f} s "
            f"({1000 * cpu / max(1, args.players):.1f} ms per player) |",
            f"| peak RSS, --jobs {j} (largest process) | {peak / 1024:.0f} MiB |",
            f"| exit code, --jobs {j} | {code} |",
        ]
    lines += [
        "",
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average up to "
        f"{load:.1f} during the run; "
        f"command: python bench/check_all.py --players {args.players} --runs {args.runs} "
        f"--jobs {args.jobs}",
    ]
    text = "\n".join(lines)
    (work / "check-bench.md").write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
