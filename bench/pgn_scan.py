#!/usr/bin/env python3
"""PGN scanning speed (issue 6): tracker.pgn.read_games against python-chess, same file.

Each method reads the whole FILE (plain, .gz, .bz2, .xz) in a fresh subprocess, --runs
times, interleaved; the script prints games/s medians, ratios to python-chess
`read_headers` and peak RSS of the subprocess, as a markdown table.

Methods
  read_games       tracker.pgn.read_games (tags dict + moves digest per game), with the C
                   extension tracker.pgn._speedups where it is built
  read_games_pure  the same in pure Python (tracker.pgn.read_games_pure)
  line_machine     tracker.pgn.read_games_slow (the rules, one line at a time)
  read_headers   python-chess chess.pgn.read_headers (tags kept, moves skipped)
  skip_game      python-chess chess.pgn.skip_game (nothing kept)
  cat            reading the bytes only (the floor)

Usage (from the repository root; build the file outside the repository):
  python3 ../shared/tools/make_big_pgn.py --games 200000 -o "$TMPDIR/big.pgn"
  python bench/pgn_scan.py "$TMPDIR/big.pgn" --runs 3
  python bench/pgn_scan.py FILE --methods read_games,read_headers --runs 5
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
METHODS = ("read_games", "read_games_pure", "line_machine", "read_headers", "skip_game", "cat")


def _open(path: str) -> io.BufferedIOBase:
    import bz2
    import gzip
    import lzma

    lower = path.lower()
    if lower.endswith(".gz"):
        return gzip.open(path, "rb")  # type: ignore[return-value]
    if lower.endswith(".bz2"):
        return bz2.open(path, "rb")  # type: ignore[return-value]
    if lower.endswith(".xz"):
        return lzma.open(path, "rb")  # type: ignore[return-value]
    return open(path, "rb")  # noqa: SIM115


def _one(method: str, path: str) -> None:
    """Run one method once in this process; print JSON (games, seconds, CPU seconds, max RSS
    in kB)."""
    sys.path.insert(0, str(REPO))
    start = time.perf_counter()
    cpu = time.process_time()
    games = 0
    with _open(path) as raw:
        if method == "cat":
            while raw.read(1 << 20):
                pass
        elif method in ("read_games", "read_games_pure", "line_machine"):
            from tracker.pgn import read_games, read_games_pure, read_games_slow

            reader = {
                "read_games": read_games,
                "read_games_pure": read_games_pure,
                "line_machine": read_games_slow,
            }[method]
            games = sum(1 for g in reader(raw, path) if g.tags)  # type: ignore[arg-type]
        else:
            import chess.pgn

            text = io.TextIOWrapper(raw, encoding="utf-8", errors="replace")
            if method == "read_headers":
                while chess.pgn.read_headers(text) is not None:
                    games += 1
            else:
                while chess.pgn.skip_game(text):
                    games += 1
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"games": games, "seconds": seconds, "cpu": cpu, "rss_kb": rss}))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--methods", default="read_games,read_games_pure,read_headers,skip_game,cat")
    ap.add_argument("--one", choices=METHODS, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.one:
        _one(a.one, a.file)
        return 0
    methods = [m for m in a.methods.split(",") if m]
    unknown = set(methods) - set(METHODS)
    if unknown:
        ap.error(f"unknown methods: {', '.join(sorted(unknown))}")
    seconds: dict[str, list[float]] = {m: [] for m in methods}
    cpus: dict[str, list[float]] = {m: [] for m in methods}
    games: dict[str, int] = {}
    rss: dict[str, int] = {m: 0 for m in methods}
    for _ in range(a.runs):
        for m in methods:
            proc = subprocess.run(
                [sys.executable, __file__, a.file, "--one", m],
                capture_output=True,
                text=True,
                check=True,
            )
            got = json.loads(proc.stdout)
            games[m] = got["games"]
            seconds[m].append(got["seconds"])
            cpus[m].append(got["cpu"])
            rss[m] = max(rss[m], got["rss_kb"])
    n = max(games.values())
    # cat counts no games: its rate is the file's games over its time
    rates = {m: [(games[m] or n) / s for s in seconds[m]] for m in methods}
    base = statistics.median(rates["read_headers"]) if "read_headers" in rates else None
    print(
        f"{Path(a.file).name}: {n:,} games, {a.runs} runs each, medians "
        f"({time.strftime('%Y-%m-%d %H:%M')}, python {sys.version.split()[0]})\n"
    )
    print(
        "| method | games | games/s (median) | runs | vs read_headers | CPU us/game (median)"
        " | peak RSS |"
    )
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
    for m in methods:
        med = statistics.median(rates[m])
        runs = ", ".join(f"{r:,.0f}" for r in rates[m])
        ratio = f"{med / base:.2f}x" if base and m != "cat" else ""
        shown = f"{games[m]:,}" if m != "cat" else "(bytes only)"
        per_game = statistics.median(cpus[m]) / n * 1e6
        print(
            f"| {m} | {shown} | {med:,.0f} | {runs} | {ratio} | {per_game:.1f} |"
            f" {rss[m] / 1024:.0f} MB |"
        )
    if "read_games" in methods:
        from tracker.pgn.native import SPEEDUPS

        print(
            f"\nread_games: {'the C extension' if SPEEDUPS is not None else 'pure Python'}"
            " (tracker/pgn/native.py; TRACKER_PURE_PYTHON=1 turns the extension off)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
