"""The timing scaffold the benchmarks of one command share (bench/club.py,
bench/event_show.py): the work folder option, a call timed in process, the command timed as
a subprocess (the first run discarded: it writes the bytecode cache), the machine's load, and
the markdown table of medians, each as wall and CPU time (the machine is shared: the CPU time
does not count the waits)."""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

Times = tuple[list[float], list[float]]
"""Wall and CPU seconds, one of each per run."""


def add_workdir(ap: argparse.ArgumentParser) -> None:
    """--workdir: where the databases are built (and reused) and the bytecode cached."""
    ap.add_argument(
        "--workdir",
        type=Path,
        default=Path(os.environ.get("TMPDIR", tempfile.gettempdir())) / "tracker-bench",
    )


def in_process(call: Callable[[], object], runs: int) -> Times:
    """`call()` timed `runs` times in this process."""
    walls, cpus = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return walls, cpus


def _env(workdir: Path) -> dict[str, str]:
    """The environment of the timed processes: bytecode written, to a cache of the work
    folder (the first run writes it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache")
    return env


def _timed(args: Sequence[str], env: Mapping[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(list(args), capture_output=True, text=True, cwd=REPO, env=dict(env))
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(proc.stderr)
    return elapsed, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def processes(commands: Mapping[str, Sequence[str]], workdir: Path, runs: int) -> dict[str, Times]:
    """Each `python -m tracker ARGS` of `commands` (by name) timed `runs` times, in turn,
    after one run of each that is not counted."""
    env = _env(workdir)
    measured: dict[str, Times] = {name: ([], []) for name in commands}
    for i in range(runs + 1):
        for name, args in commands.items():
            wall, cpu = _timed([sys.executable, "-m", "tracker", *args], env)
            if i:  # the first run writes the bytecode cache
                measured[name][0].append(wall)
                measured[name][1].append(cpu)
    return measured


def print_load() -> None:
    """The line that says how busy the machine was."""
    load = os.getloadavg()[0]
    print(
        f"(load average {load:.2f} on {os.cpu_count()} cores at the end: wall times wait "
        "for the CPU on a busy machine, CPU times do not)\n"
    )


def print_table(rows: Sequence[tuple[str, Times]]) -> None:
    """The markdown table of medians: one row per (what, times)."""
    med = statistics.median
    print("| what | wall s | CPU s |")
    print("| --- | ---: | ---: |")
    for what, (walls, cpus) in rows:
        print(f"| {what} | {med(walls):.3f} | {med(cpus):.3f} |")
