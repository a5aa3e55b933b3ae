#!/usr/bin/env python3
"""The preparer against another revision of it: the same output, and its cost.

`Preparer.row` (tracker/importer/prepare.py) turns a game's tags into the PreparedGame the
store takes. This script runs it over every game of some PGN files with two trees of the
code (this one and, say, a `git worktree` of an older revision), on the same games, and
checks that both give the same values for every game (each PreparedGame or Skipped reason,
and the warnings each game gave), then prints the CPU time a game of each, alternated.

1. `read`: the games of the files, read once with this tree's reader (tracker.pgn), kept in
   a pickle (the tags, moves digest, has_moves and line of each), so both preparers get the
   very same input whatever the readers of the two trees do.
2. `prepare` (run in a child process with PYTHONPATH on each tree): one Preparer over every
   game of the pickle, timed (`time.process_time`, the loop alone); the values written as
   a pickle, in the form of the revision before migration 0007 (the identity as 32
   hexadecimal characters, the Elo tags as written) so that both trees compare.
3. Compared game by game; the medians of --runs alternated runs of each printed.

`--pure base` (or `--pure this`) runs that side with TRACKER_PURE_PYTHON=1: an older
revision's C preparer (tracker/importer/_prepare.c, removed since) turned off.

Usage (from the repository root):
  git worktree add /tmp/base <rev>
  python bench/prepare_bench.py --base /tmp/base /tmp/perf/200k.pgn ../shared/corpus/*.xz
"""

from __future__ import annotations

import argparse
import lzma
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def read(files: Sequence[Path], out: Path) -> int:
    """Every game of `files` as (tags, moves digest, has_moves, line), pickled to `out`."""
    sys.path.insert(0, str(REPO))
    from tracker.pgn import read_games

    games: list[tuple[Any, ...]] = []
    for path in files:
        opener: Any = lzma.open if path.suffix == ".xz" else open
        with opener(path, "rb") as stream:
            for raw in read_games(stream, path.name):
                if raw.tags:
                    games.append((raw.tags, raw.moves_digest, raw.has_moves, raw.line))
    out.write_bytes(pickle.dumps(games, protocol=pickle.HIGHEST_PROTOCOL))
    return len(games)


def _as_before(value: Any, fields: tuple[str, ...]) -> Any:
    """A PreparedGame of either tree as a plain tuple of the revision before 0007."""
    if isinstance(value, str):  # Skipped
        return ("skipped", str(value))
    got = dict(zip(fields, value, strict=True))
    identity = got["identity"]
    if isinstance(identity, bytes):
        got["identity"] = identity.hex()
    for side in ("white", "black"):
        tag = got[f"{side}_elo_tag"]
        elo = got[f"{side}_elo"]
        if tag is None and elo is not None:  # 0007: the tag is exactly str(elo)
            got[f"{side}_elo_tag"] = str(elo)
    return tuple(sorted(got.items()))


def prepare(raw: Path, out: Path) -> None:
    """Run this interpreter's tracker (PYTHONPATH) over the pickled games: the loop's CPU
    seconds on stdout, the values to `out`."""
    from tracker.importer.prepare import Preparer
    from tracker.model import PreparedGame

    games = pickle.loads(raw.read_bytes())
    preparer = Preparer(None)
    row = preparer.row
    warnings = preparer.warnings
    values: list[Any] = []
    append = values.append
    cpu = time.process_time()
    for tags, digest, has_moves, line in games:
        append(row(tags, digest, has_moves, line))
        if warnings:
            append(tuple(warnings))
            warnings.clear()
    cpu = time.process_time() - cpu
    fields = PreparedGame._fields
    plain = [
        v if isinstance(v, tuple) and not hasattr(v, "_fields") else _as_before(v, fields)
        for v in values
    ]
    out.write_bytes(pickle.dumps(plain, protocol=pickle.HIGHEST_PROTOCOL))
    print(f"{cpu:.6f} {len(games)}")


def _run(tree: Path, raw: Path, out: Path, pure: bool) -> tuple[float, int]:
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}
    if pure:
        env["TRACKER_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--prepare", str(raw), str(out)],
        env=env,
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    )
    cpu, n = done.stdout.split()
    return float(cpu), int(n)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--base", type=Path, help="the other tree (a git worktree)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--pure",
        choices=["base", "this"],
        help="run this side with TRACKER_PURE_PYTHON=1 (no C extensions)",
    )
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "tracker-bench")
    ap.add_argument("--prepare", nargs=2, type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.prepare:
        prepare(*a.prepare)
        return 0
    if a.base is None or not a.files:
        ap.error("give --base TREE and the PGN files")
    a.workdir.mkdir(parents=True, exist_ok=True)
    raw = a.workdir / "prepare-raw.pickle"
    n = read([f.resolve() for f in a.files], raw)
    print(f"{n:,} games read from {len(a.files)} files", file=sys.stderr)
    trees = {"base": a.base.resolve(), "this tree": REPO}
    pure = {"base": a.pure == "base", "this tree": a.pure == "this"}
    times: dict[str, list[float]] = {name: [] for name in trees}
    outs = {name: a.workdir / f"prepare-{i}.pickle" for i, name in enumerate(trees)}
    for run in range(a.runs):
        for name, tree in trees.items():
            cpu, count = _run(tree, raw, outs[name], pure[name])
            assert count == n
            times[name].append(cpu)
            print(f"run {run + 1}/{a.runs}: {name}: {cpu / n * 1e6:.2f} us/game", file=sys.stderr)
        if run == 0:
            base, this = (pickle.loads(outs[name].read_bytes()) for name in trees)
            if len(base) != len(this):
                raise SystemExit(f"different numbers of values: {len(base)} and {len(this)}")
            for i, (x, y) in enumerate(zip(base, this, strict=True)):
                if x != y:
                    raise SystemExit(f"value {i} differs:\n  base: {x}\n  this: {y}")
            print(
                f"the same {len(base):,} values (games, skipped and warnings) from both",
                file=sys.stderr,
            )
            del base, this
    medians = {name: statistics.median(ts) / n * 1e6 for name, ts in times.items()}
    for name, us in medians.items():
        how = " (TRACKER_PURE_PYTHON=1)" if pure[name] else ""
        print(f"{name}{how}: {us:.2f} us/game (CPU, median of {a.runs})")
    print(f"ratio base/this tree: {medians['base'] / medians['this tree']:.2f}x")
    for path in (raw, *outs.values()):
        path.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
