#!/usr/bin/env python3
"""History benchmark (issue 4): `tracker history` for a player with 5,000 games over 20 years.

Builds a synthetic database through the store's schema (no PGN import: the importer is
measured by bench/import_bench.py): one tracked player, 5,000 games in 2006-2025 (about 70%
standard, 20% rapid, 10% blitz; 9-round tournaments, an official standard entry every
January to exercise re-anchoring), 2,000 opponents. Then times, --runs times each:

  replay    load the facts and replay the standard list in process (tracker.reports)
  history   the same through the CLI code path in process (open the database, resolve the
            player, replay, render the table), output discarded
  all lists the three lists replayed (what `export` and `plot` do)
  cli       `python -m tracker history --db DB` as a subprocess (includes interpreter start
            and imports), and `python -m tracker --help` (start-up alone); with a bytecode
            cache in the work folder (PYTHONPYCACHEPREFIX; PYTHONDONTWRITEBYTECODE is dropped
            for the child: an installed package has its bytecode, and compiling every module
            at each start is not what users see). CPU is the child's (user + system).

and prints a markdown table of medians. Target (issue 4): `history` well under a second;
our goal 0.3 s for the in-process path.

Usage (from the repository root):
  python bench/history.py                # 5,000 games, 7 runs
  python bench/history.py --games 500 --runs 1   # smoke (tests/test_bench_history.py)
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import io
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import insert

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tracker.identity.names import normalize_name  # noqa: E402
from tracker.model import RatingList  # noqa: E402
from tracker.store import open_store  # noqa: E402
from tracker.store.schema import (  # noqa: E402
    games,
    official_ratings,
    player_names,
    players,
    tournaments,
)


def build(db: Path, n_games: int, seed: int = 2026) -> None:
    """A deterministic synthetic career in `db`."""
    rnd = random.Random(seed)
    store = open_store(str(db))
    first, last = dt.date(2006, 1, 1), dt.date(2025, 12, 31)
    span = (last - first).days
    n_tournaments = max(1, n_games // 9)
    with store.engine.begin() as conn:
        conn.execute(
            insert(players).values(
                id=1,
                name="Benchmark, Bára",
                norm_name=normalize_name("Benchmark, Bára"),
                fide_id=99000001,
                birth_year=1985,
                rated_games=60,
                is_me=True,
            )
        )
        conn.execute(
            insert(players),
            [
                {
                    "id": i,
                    "name": f"Opponent {i:05d}",
                    "norm_name": f"opponent {i:05d}",
                    "fide_id": 99100000 + i,
                }
                for i in range(2, 2002)
            ],
        )
        conn.execute(
            insert(player_names),
            [{"norm_name": normalize_name("Benchmark, Bára"), "player_id": 1}]
            + [{"norm_name": f"opponent {i:05d}", "player_id": i} for i in range(2, 2002)],
        )
        t_rows, g_rows = [], []
        game_no = 0
        for t in range(1, n_tournaments + 1):
            start = first + dt.timedelta(days=span * (t - 1) // n_tournaments)
            kind = rnd.random()
            rl = (
                RatingList.STANDARD
                if kind < 0.7
                else RatingList.RAPID
                if kind < 0.9
                else RatingList.BLITZ
            )
            rounds = min(9, n_games - game_no)
            length = 4 if rl == RatingList.STANDARD else 0
            t_rows.append(
                {
                    "id": t,
                    "event": f"Open {t}",
                    "site": "Bench",
                    "key": f"b{t}",
                    "start_date": start,
                    "end_date": start + dt.timedelta(days=length),
                }
            )
            year = start.year - 2006
            own = 1700 + 20 * year + rnd.randint(-30, 30)
            for r in range(rounds):
                game_no += 1
                opp = rnd.randint(2, 2001)
                opp_elo = own + rnd.randint(-300, 300)
                white = r % 2 == 0
                result = rnd.choice(["1-0", "0-1", "1/2-1/2"])
                g_rows.append(
                    {
                        "id": game_no,
                        "identity": hashlib.sha256(f"{game_no}".encode()).digest()[:16],
                        "tournament_id": t,
                        "white_id": 1 if white else opp,
                        "black_id": opp if white else 1,
                        "date": start + dt.timedelta(days=min(r // 2, length)),
                        "round": str(r + 1),
                        "result": result,
                        "white_elo": own if white else opp_elo,
                        "black_elo": opp_elo if white else own,
                        "has_moves": True,
                        "list": str(rl),
                        "rated": True,
                    }
                )
            if game_no >= n_games:
                break
        conn.execute(insert(tournaments), t_rows)
        conn.execute(insert(games), g_rows)
        conn.execute(
            insert(official_ratings),
            [
                {
                    "player_id": 1,
                    "list": "standard",
                    "period": f"{y}-01",
                    "rating": 1700 + 20 * (y - 2006),
                    "k": 20,
                    "source": "bench",
                    "recorded_at": dt.datetime(2026, 1, 1),
                }
                for y in range(2008, 2026)
            ],
        )
    store.close()


def _median(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time of this process (the CPU time is what a busy
    machine does not inflate)."""
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu)


def _child_median(cmd: list[str], runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system) of a child process."""
    subprocess.run(cmd, check=True, capture_output=True, cwd=REPO, env=env)  # warm the cache
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=REPO, env=env)
        wall.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(wall), statistics.median(cpu)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument(
        "--workdir",
        type=Path,
        default=None,
        help="where to build the database (default: a temporary folder)",
    )
    args = ap.parse_args(argv)

    from tracker.app.histories import load_history, load_replay
    from tracker.app.players import resolve_player
    from tracker.cli.reports import history as history_command
    from tracker.reports import history_rows

    with tempfile.TemporaryDirectory() as tmp:
        work = args.workdir or Path(tmp)
        db = work / "history-bench.db"
        db.unlink(missing_ok=True)
        t0 = time.perf_counter()
        build(db, args.games)
        built = time.perf_counter() - t0
        store = open_store(str(db))
        me = resolve_player(store, None)

        def replay_std() -> object:
            return history_rows(load_replay(store, me, RatingList.STANDARD))

        def all_lists() -> object:
            return load_history(store, me)

        def history_cli_path() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                history_command(player=None, db=str(db))

        rows = replay_std()
        assert isinstance(rows, list)
        results = [
            ("replay (standard, in process)", _median(replay_std, args.runs)),
            ("history command (in process)", _median(history_cli_path, args.runs)),
            ("all three lists (in process)", _median(all_lists, args.runs)),
        ]
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
        child_runs = max(1, min(args.runs, 5))
        cmd = [sys.executable, "-m", "tracker", "history", "--db", str(db)]
        results.append(
            ("`python -m tracker history` (subprocess)", _child_median(cmd, child_runs, env))
        )
        results.append(
            (
                "`python -m tracker --help` (subprocess, start-up)",
                _child_median([sys.executable, "-m", "tracker", "--help"], child_runs, env),
            )
        )
        store.close()

    print(
        f"History benchmark: {args.games} games over 2006-2025, {len(rows)} standard "
        f"periods, {args.runs} runs (database built in {built:.1f} s)\n"
    )
    print("| scenario | median wall (s) | median CPU (s) |")
    print("| --- | ---: | ---: |")
    for name, (wall, cpu) in results:
        print(f"| {name} | {wall:.3f} | {cpu:.3f} |")
    print(
        f"\nPython {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f}; {time.strftime('%Y-%m-%d')}; "
        f"command: python bench/history.py --games {args.games} --runs {args.runs}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
