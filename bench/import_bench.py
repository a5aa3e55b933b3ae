#!/usr/bin/env python3
"""Import benchmark (issue 6): tracker import end to end against parsing-only anchors.

Builds the deterministic big PGN from ../shared/corpus with ../shared/tools/make_big_pgn.py
(kept outside the repository, in --workdir), then runs every scenario --runs times and
prints medians, ratios and peak memory (RSS and PSS, each summed over the process tree, sampled
from /proc) as a markdown table, also written to <workdir>/import-bench.md.

Scenarios
  anchors   on the first --anchor-games games (a prefix of the big file; rates in games/s):
            cat > /dev/null, python-chess read_headers, python-chess skip_game, a plain
            line-by-line Python tag scanner, pgn-extract (when installed: apt-get install
            pgn-extract)
  import    `tracker import BIG --db NEW --quiet`                      (new database)
  reimport  the same file again into that database                  (recognized by hash)
  dupes     a byte-different copy of the file into that database     (every game a duplicate)
  pure      `import` again with the compiled reader disabled (TRACKER_PURE_PYTHON=1): the
            pure-Python path a machine without a compiler runs (skipped with --no-pure)
  extra     --extra new games into an empty database, then into the database that holds
            the big file (the slowdown must stay under 30%)

Each row gives the wall time and the CPU time (user + system of the process and its workers,
from the kernel's accounting of waited-for children): on a shared machine the CPU time per
game is the steadier figure.

Usage (from the repository root):
  python bench/import_bench.py                       # 1,000,000 games (+50,000), 3 runs
  python bench/import_bench.py --games 200000 --runs 5
  python bench/import_bench.py --games 2000 --extra 500 --runs 1 --anchor-games 2000  # smoke
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
MAKE_BIG = SHARED / "tools" / "make_big_pgn.py"


@dataclass
class Measure:
    name: str
    games: int
    seconds: list[float] = field(default_factory=list)
    memory: list[Peak] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # user + system s, the process tree
    note: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def cpu_us(self) -> float:
        """Median CPU microseconds a game."""
        return statistics.median(self.cpu) / self.games * 1e6 if self.cpu else float("nan")

    def add(self, run: Run) -> None:
        self.seconds.append(run.seconds)
        self.memory.append(run.peak)
        self.cpu.append(run.cpu)

    @property
    def rate(self) -> float:
        return self.games / self.median if self.median > 0 else float("inf")


PSS_EVERY = 10  # samples (of 50 ms) per PSS reading


class Peak(NamedTuple):
    """Memory of a process tree in kB: resident (RSS) and proportional (PSS) set sizes,
    each summed over the processes. Forked workers share the parent's pages, which the RSS
    sum counts once per process; PSS splits each shared page between its sharers."""

    rss: int
    pss: int


def _tree_mem_kb(pid: int, pss_too: bool = True) -> Peak:
    """Memory of a process and all its descendants (Linux /proc). Reading PSS walks the
    page tables (costly: the sampler reads it only every PSS_EVERY-th sample)."""
    total = pss = 0
    stack = [pid]
    seen: set[int] = set()
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/status", encoding="ascii", errors="replace") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            if pss_too:
                with open(f"/proc/{p}/smaps_rollup", encoding="ascii", errors="replace") as fh:
                    for line in fh:
                        if line.startswith("Pss:"):
                            pss += int(line.split()[1])
                            break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children", encoding="ascii") as fh:
                    stack.extend(int(c) for c in fh.read().split())
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return Peak(total, pss)


class Run(NamedTuple):
    seconds: float  # wall
    peak: Peak
    cpu: float  # user + system seconds of the command and every process it waited for


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_measured(
    cmd: Sequence[str],
    *,
    stdout: int | None = subprocess.DEVNULL,
    shell: bool = False,
    env: dict[str, str] | None = None,
) -> Run:
    """Run a command; return its wall seconds, peak summed RSS and PSS in kB, and CPU
    seconds. Fails loudly."""
    cpu_before = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd if not shell else " ".join(cmd),
        shell=shell,
        stdout=stdout,
        stderr=subprocess.PIPE,
        env=env,
    )
    peak = Peak(0, 0)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        n = 0
        while not done.is_set():
            now = _tree_mem_kb(proc.pid, pss_too=n % PSS_EVERY == 0)
            peak = Peak(max(peak.rss, now.rss), max(peak.pss, now.pss))
            n += 1
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    elapsed = time.perf_counter() - start
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(
            f"command failed ({proc.returncode}): {' '.join(cmd)}\n"
            f"{err.decode(errors='replace')[-2000:]}"
        )
    return Run(elapsed, peak, _children_cpu() - cpu_before)


SOURCES: list[str] = []  # corpus files or folders for make_big_pgn (default: all of it)


def make_big(games: int, path: Path) -> None:
    if path.exists():
        return
    if not MAKE_BIG.exists():
        raise SystemExit(f"{MAKE_BIG} not found: the benchmark needs ../shared beside the repo")
    print(f"building {path.name} ({games:,} games) ...", file=sys.stderr)
    tmp = path.with_suffix(".part")
    subprocess.run(
        [sys.executable, str(MAKE_BIG), *SOURCES, "--games", str(games), "-o", str(tmp)], check=True
    )
    tmp.rename(path)


def make_extra(workdir: Path, base: Path, games: int, extra: int) -> Path:
    """The `extra` new games: make_big_pgn is deterministic and its output for N+M games
    starts with its output for N games, so the tail after the base file's bytes is new."""
    out = workdir / f"extra-{games}-{extra}.pgn"
    if out.exists():
        return out
    both = workdir / f"big-{games + extra}.pgn"
    make_big(games + extra, both)
    size = base.stat().st_size
    with both.open("rb") as src, out.open("wb") as dst:
        src.seek(size)
        shutil.copyfileobj(src, dst, 1 << 20)
    both.unlink()
    return out


# --- anchors (parsing only, nothing stored) -------------------------------------------

ANCHOR_CODE = {
    "python-chess read_headers": (
        "import chess.pgn,sys\n"
        "f=open(sys.argv[1],encoding='utf-8',errors='replace')\n"
        "n=0\n"
        "while chess.pgn.read_headers(f) is not None: n+=1\n"
    ),
    "python-chess skip_game": (
        "import chess.pgn,sys\n"
        "f=open(sys.argv[1],encoding='utf-8',errors='replace')\n"
        "n=0\n"
        "while chess.pgn.skip_game(f): n+=1\n"
    ),
    "plain line-by-line Python tag scanner": (
        "import sys,re\n"
        "tag=re.compile(rb'^\\[(\\w+)\\s+\"(.*)\"\\]')\n"
        "n=0; inh=False; tags={}\n"
        "for line in open(sys.argv[1],'rb'):\n"
        "    if line[:1]==b'[':\n"
        "        m=tag.match(line)\n"
        "        if m:\n"
        "            if not inh: n+=1; tags={}; inh=True\n"
        "            tags[m.group(1)]=m.group(2)\n"
        "            continue\n"
        "    if line.strip(): inh=False\n"
    ),
}


def anchors(path: Path, games: int, runs: int) -> list[Measure]:
    out: list[Measure] = []
    m = Measure("`cat file > /dev/null` (the physical limit)", games)
    for _ in range(runs):
        m.add(run_measured(["cat", str(path), ">", "/dev/null"], shell=True))
    out.append(m)
    for name, code in ANCHOR_CODE.items():
        m = Measure(name, games)
        for _ in range(runs):
            m.add(run_measured([sys.executable, "-c", code, str(path)]))
        out.append(m)
    if shutil.which("pgn-extract"):
        m = Measure("pgn-extract (C, parses every move)", games)
        for _ in range(runs):
            m.add(run_measured(["pgn-extract", "-s", "-o", "/dev/null", str(path)]))
        out.append(m)
    return out


# --- tracker scenarios ------------------------------------------------------------------

BYTECODE: dict[str, str] = {}  # the environment of the tracker runs (see bytecode_env)


def bytecode_env(workdir: Path) -> dict[str, str]:
    """The environment for `tracker` runs: with a bytecode cache in the work folder, as an
    installed package has (PYTHONDONTWRITEBYTECODE, set on some machines, would make every
    run compile SQLAlchemy and tracker again: about a second that users do not pay)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache")
    return env


def tracker_import(db: Path, *files: Path, pure: bool = False) -> Run:
    cmd = [sys.executable, "-m", "tracker", "import", *map(str, files), "--db", str(db), "--quiet"]
    env = dict(BYTECODE or os.environ)
    if pure:
        env["TRACKER_PURE_PYTHON"] = "1"
    return run_measured(cmd, env=env)


def fresh(db: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(db) + suffix).unlink(missing_ok=True)


def scenario(
    name: str,
    games: int,
    runs: int,
    setup: Callable[[], None],
    action: Callable[[], Run],
    note: str = "",
) -> Measure:
    m = Measure(name, games, note=note)
    for i in range(runs):
        setup()
        run = action()
        m.add(run)
        print(
            f"  {name} run {i + 1}: {run.seconds:.2f} s, CPU {run.cpu:.2f} s, "
            f"RSS {run.peak.rss / 1024:.0f} MB, PSS {run.peak.pss / 1024:.0f} MB",
            file=sys.stderr,
        )
    return m


def table(rows: list[Measure], reference: Measure | None) -> str:
    lines = [
        "| scenario | games | median s | games/s | vs read_headers | CPU us/game | peak RSS "
        "| peak PSS |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for m in rows:
        ratio = f"{m.rate / reference.rate:.2f}x" if reference else "-"
        lines.append(
            f"| {m.name} | {m.games:,} | {m.median:.2f} | {m.rate:,.0f} | {ratio} | "
            f"{m.cpu_us:.1f} | "
            f"{max(p.rss for p in m.memory) / 1024:.0f} MB | "
            f"{max(p.pss for p in m.memory) / 1024:.0f} MB |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000, help="games in the big file")
    ap.add_argument("--extra", type=int, default=50_000, help="new games for `extra`")
    ap.add_argument(
        "--anchor-games",
        type=int,
        default=200_000,
        help="games the parsing anchors read (a prefix of the big file)",
    )
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--workdir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "tracker-bench",
        help="where the big files and databases go (never the repository)",
    )
    ap.add_argument("--skip-anchors", action="store_true")
    ap.add_argument(
        "--no-pure", action="store_true", help="skip the import with the compiled reader disabled"
    )
    ap.add_argument(
        "--source",
        action="append",
        default=[],
        help="corpus file or folder to build from (default: all of ../shared/corpus)",
    )
    a = ap.parse_args(argv)
    SOURCES[:] = [str(Path(s).resolve()) for s in a.source]

    a.workdir.mkdir(parents=True, exist_ok=True)
    big = a.workdir / f"big-{a.games}.pgn"
    make_big(a.games, big)
    extra = make_extra(a.workdir, big, a.games, a.extra)
    anchor_file = big
    anchor_games = a.games
    if a.anchor_games < a.games:
        anchor_file = a.workdir / f"big-{a.anchor_games}.pgn"
        make_big(a.anchor_games, anchor_file)
        anchor_games = a.anchor_games

    rows: list[Measure] = []
    if not a.skip_anchors:
        print("anchors ...", file=sys.stderr)
        rows.extend(anchors(anchor_file, anchor_games, a.runs))
    reference = next((m for m in rows if "read_headers" in m.name), None)

    db = a.workdir / "bench.db"
    dupes = a.workdir / f"big-{a.games}-copy.pgn"
    if not dupes.exists():
        shutil.copyfile(big, dupes)
        with dupes.open("ab") as fh:
            fh.write(b"\n")
    print("tracker ...", file=sys.stderr)
    BYTECODE.update(bytecode_env(a.workdir))
    warm = a.workdir / "warm.db"  # a small import fills the bytecode cache
    fresh(warm)
    tracker_import(warm, REPO / "sample_pgns")
    fresh(warm)
    rows.append(
        scenario(
            "tracker import, new database",
            a.games,
            a.runs,
            lambda: fresh(db),
            lambda: tracker_import(db, big),
        )
    )
    rows.append(
        scenario(
            "tracker import, same file again",
            a.games,
            a.runs,
            lambda: None,
            lambda: tracker_import(db, big),
        )
    )
    if not a.no_pure:
        rows.append(
            scenario(
                "tracker import, new database, pure Python (TRACKER_PURE_PYTHON=1)",
                a.games,
                a.runs,
                lambda: fresh(db),
                lambda: tracker_import(db, big, pure=True),
            )
        )

    def restore_base() -> None:
        fresh(db)
        tracker_import(db, big)

    base_copy = a.workdir / "bench-base.db"
    restore_base()
    shutil.copyfile(db, base_copy)

    def from_base() -> None:
        fresh(db)
        shutil.copyfile(base_copy, db)

    rows.append(
        scenario(
            "tracker import, byte-different copy (all duplicates)",
            a.games,
            a.runs,
            from_base,
            lambda: tracker_import(db, dupes),
        )
    )
    empty_extra = scenario(
        f"tracker import of {a.extra:,} new games, empty database",
        a.extra,
        a.runs,
        lambda: fresh(db),
        lambda: tracker_import(db, extra),
    )
    full_extra = scenario(
        f"tracker import of {a.extra:,} new games, database of {a.games:,}",
        a.extra,
        a.runs,
        from_base,
        lambda: tracker_import(db, extra),
    )
    rows.extend([empty_extra, full_extra])

    report = table(rows, reference)
    slowdown = full_extra.median / empty_extra.median - 1
    report += (
        f"\n\nSlowdown of the extra import into the full database: {slowdown:+.0%} "
        f"(target: at most +30%).\n"
    )
    text = (
        f"Machine: {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
        f"medians of {a.runs} runs; {time.strftime('%Y-%m-%d')}.\n\n{report}"
    )
    print(text)
    (a.workdir / "import-bench.md").write_text(text, encoding="utf-8")
    for path in (db, base_copy):
        fresh(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
