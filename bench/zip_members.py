#!/usr/bin/env python3
"""A zip of many one-game members (issue 19, item 6): `tracker import ZIP` time per size.

Each member is a one-game PGN (distinct games, deflated). For each --members count a zip is
made in --workdir, then `tracker import ZIP --db NEW --quiet` runs --runs times as a
subprocess (a new database each time); the median wall time, the time per member and the
ratio to the smallest count (linear: the ratio of the counts) are printed as a markdown
table. `--tree DIR` runs another checkout (a `git worktree` of an older commit, say) so that
before and after are measured on the same machine in the same hour; `--timeout` stops a run
that takes too long (reported as "> T s").

Usage (from the repository root):
  python bench/zip_members.py                               # 2,000 and 10,000 members, 3 runs
  python bench/zip_members.py --members 200 --runs 1        # smoke
  git worktree add /tmp/before HEAD~5 && python bench/zip_members.py --tree /tmp/before
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

GAME = (
    '[Event "Bench Open {i}"]\n[Site "Brno"]\n[Date "2024.03.{d:02d}"]\n[Round "{i}"]\n'
    '[White "White {i}"]\n[Black "Black {i}"]\n[Result "1-0"]\n[WhiteElo "1800"]\n'
    '[BlackElo "1750"]\n[TimeControl "5400+30"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n'
)


def make_zip(path: Path, members: int) -> None:
    if path.exists():
        return
    part = path.with_suffix(".part")
    with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(members):
            zf.writestr(f"games/{i:05d}.pgn", GAME.format(i=i, d=i % 28 + 1))
    part.rename(path)


def run_once(zip_path: Path, workdir: Path, tree: Path | None, timeout: float) -> float | None:
    db = workdir / "bench.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tracker", "import", str(zip_path), "--db", str(db), "--quiet"],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
            cwd=tree or Path.cwd(),
        )
    except subprocess.TimeoutExpired:
        return None
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"tracker import failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--members", type=int, nargs="+", default=[2000, 10000])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--tree",
        type=Path,
        default=None,
        help="another checkout to run (PYTHONPATH); default: this one",
    )
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per run")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "tracker-bench")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    label = str(args.tree) if args.tree else "this checkout"
    print(f"`tracker import` of a zip of one-game members ({label}; {args.runs} runs, median)\n")
    print("| members | median | per member | runs (s) |")
    print("| ---: | ---: | ---: | --- |")
    for n in args.members:
        zip_path = args.workdir / f"members-{n}.zip"
        make_zip(zip_path, n)
        times: list[float | None] = []
        for _ in range(args.runs):
            times.append(run_once(zip_path, args.workdir, args.tree, args.timeout))
            if times[-1] is None:
                break  # a run that timed out: the next would too
        if any(t is None for t in times):
            print(f"| {n:,} | > {args.timeout:.0f} s | - | timed out |", flush=True)
            continue
        done = [t for t in times if t is not None]
        med = statistics.median(done)
        runs = ", ".join(f"{t:.1f}" for t in done)
        print(f"| {n:,} | {med:.1f} s | {med / n * 1000:.1f} ms | {runs} |", flush=True)


if __name__ == "__main__":
    main()
