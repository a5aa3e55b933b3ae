#!/usr/bin/env python3
"""Official list import benchmark (issue 5): a generated 1.8-million-player combined list.

Generates FIDE's combined list in both published formats with `tracker.listgen` (zipped as
FIDE ships them: players_list.zip / players_list_xml.zip; kept in --workdir, reused when
present), then times, --runs times each, in a fresh process per run:

  parse   reading every row with tracker.fidelists, no database (the floor)
  known   `tracker official import FILE --period 2025-11` into a database that holds
          --known players of the list (the usual case: only your players and opponents
          are kept)
  all     the same with `--all` into an empty database (every player created)

and prints a markdown table of medians (wall time) and peak RSS (ru_maxrss of the child,
from os.wait4, i.e. resource.getrusage of that process), also written to
<workdir>/official-bench.md.

Usage (from the repository root):
  python bench/official_import.py                          # 1,800,000 players, 3 runs
  python bench/official_import.py --players 200000 --runs 5
  python bench/official_import.py --players 1000 --runs 1  # smoke (tests/test_official_bench.py)
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PERIOD = "2025-11"
FORMATS = {"TXT": ("combined-txt", "players_list.zip"),
           "XML": ("combined-xml", "players_list_xml.zip")}
PARSE_ONLY = (
    "import sys\n"
    "from tracker.fidelists import open_list\n"
    "from tracker.model import Period\n"
    "with open_list(sys.argv[1], period=Period.parse(sys.argv[2])) as lst:\n"
    "    n = sum(1 for _ in lst)\n"
    "print(n)\n"
)
SEED_KNOWN = (
    "import sys\n"
    "from sqlalchemy import insert\n"
    "from tracker import listgen\n"
    "from tracker.store import open_store\n"
    "from tracker.store.schema import players\n"
    "count, every = int(sys.argv[2]), int(sys.argv[3])\n"
    "rows = [dict(name=p.name, norm_name=p.name.lower(), fide_id=p.fide_id)\n"
    "        for i, p in enumerate(listgen.players(count, seed=1)) if i % every == 0]\n"
    "with open_store(sys.argv[1]) as store, store.engine.begin() as conn:\n"
    "    conn.execute(insert(players), rows)\n"
    "print(len(rows))\n"
)


@dataclass
class Case:
    fmt: str
    mode: str
    seconds: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    output: str = ""


def run_measured(args: list[str], cwd: Path) -> tuple[float, float, int, str]:
    """Run a child; (wall s, its CPU s, its own peak RSS in KiB, its stdout), from wait4."""
    out_path = cwd / ".child.out"
    err_path = cwd / ".child.err"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(args, cwd=cwd, stdout=out, stderr=err,
                                env={**os.environ, "PYTHONPATH": str(REPO)})
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    stdout = out_path.read_text(encoding="utf-8", errors="replace")
    if proc.returncode != 0:
        stderr = err_path.read_text(encoding="utf-8", errors="replace")
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(args)}\n{stderr[-2000:]}")
    return seconds, usage.ru_utime + usage.ru_stime, int(usage.ru_maxrss), stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=1_800_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--known", type=int, default=1_000,
                    help="players of the list already in the database for the 'known' case")
    ap.add_argument("--formats", default="TXT,XML")
    ap.add_argument("--modes", default="parse,known,all")
    ap.add_argument("--workdir", type=Path,
                    default=Path(tempfile.gettempdir()) / "tracker-bench")
    args = ap.parse_args(argv)
    work: Path = args.workdir
    work.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    formats = [f.strip().upper() for f in args.formats.split(",") if f.strip()]
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]

    lists: dict[str, Path] = {}
    for fmt in formats:
        kind, name = FORMATS[fmt]
        path = work / f"{args.players}" / name
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            t0 = time.perf_counter()
            subprocess.run([py, "-m", "tracker.listgen", "--players", str(args.players),
                            "--format", kind, "--zip", "-o", str(path)], check=True,
                           cwd=REPO, capture_output=True)
            print(f"generated {path} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        lists[fmt] = path

    # Template databases, copied for every run (each run starts from the same state).
    empty_db = work / "empty.db"
    known_db = work / f"known-{args.players}-{args.known}.db"
    for db in (empty_db, known_db):
        if db.exists():
            db.unlink()
    subprocess.run([py, "-c", "import sys\nfrom tracker.store import open_store\n"
                    "open_store(sys.argv[1]).close()", str(empty_db)], check=True, cwd=REPO)
    every = max(1, args.players // max(1, args.known))
    seeded = subprocess.run([py, "-c", SEED_KNOWN, str(known_db), str(args.players),
                             str(every)], check=True, cwd=REPO, capture_output=True, text=True)
    known_count = int(seeded.stdout.strip())

    cases: list[Case] = []
    for fmt in formats:
        for mode in modes:
            case = Case(fmt, mode)
            for _ in range(args.runs):
                db = work / "run.db"
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{db}{suffix}").unlink(missing_ok=True)
                if mode == "parse":
                    cmd = [py, "-c", PARSE_ONLY, str(lists[fmt]), PERIOD]
                else:
                    shutil.copyfile(known_db if mode == "known" else empty_db, db)
                    cmd = [py, "-m", "tracker", "official", "import", str(lists[fmt]),
                           "--period", PERIOD, "--db", str(db)]
                    if mode == "all":
                        cmd.append("--all")
                seconds, cpu, rss, out = run_measured(cmd, work)
                case.seconds.append(seconds)
                case.cpu.append(cpu)
                case.rss_kib.append(rss)
                case.output = out.strip()
                print(f"{fmt} {mode}: {seconds:.1f} s, CPU {cpu:.1f} s, {rss / 1024:.0f} MiB",
                      file=sys.stderr, flush=True)
            cases.append(case)

    size = {fmt: path.stat().st_size for fmt, path in lists.items()}
    lines = [
        f"Official list import, {args.players:,} players (combined list, {PERIOD}), "
        f"median of {args.runs} run{'s' if args.runs != 1 else ''}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} at the end (wall time suffers on a busy "
        "machine; CPU s is the child's user+system time)",
        "",
        "| file | case | median s | min-max s | CPU s | players/s | peak RSS MiB | result |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for c in cases:
        med = statistics.median(c.seconds)
        what = {"parse": "parse only (no database)",
                "known": f"import, {known_count:,} players known",
                "all": "import --all (empty database)"}[c.mode]
        result = c.output.splitlines()[-1] if c.output else ""
        if c.mode == "parse":
            result = f"{int(result):,} rows" if result.isdigit() else result
        else:
            result = "; ".join(p.rsplit(": ", 1)[-1] for p in result.split("; ")
                               if "read" in p or "kept" in p or "in the database" in p
                               or "entries written" in p)
        lines.append(
            f"| {FORMATS[c.fmt][1]} ({size[c.fmt] / 2**20:.0f} MiB) | {what} | {med:.1f} | "
            f"{min(c.seconds):.1f}-{max(c.seconds):.1f} | {statistics.median(c.cpu):.1f} | "
            f"{args.players / med:,.0f} | "
            f"{max(c.rss_kib) / 1024:.0f} | {result.replace('|', '/')} |")
    table = "\n".join(lines) + "\n"
    (work / "official-bench.md").write_text(table, encoding="utf-8")
    sys.stdout.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
