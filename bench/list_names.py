#!/usr/bin/env python3
"""A whole standard list into a real career's database, against zipfile reading its lines
(issue 34 item 4, issue 35 item 2).

Generates a standard list of --players rows with `tests.listgen` (zipped as FIDE ships it:
standard_nov25frl.zip; kept in --workdir, reused) and a database of a real career whose
players have no FIDE ID (`tracker import` of --pgn, by default the pgnmentor Caruana
collection: every one of its players is matched by name, so the name sieve runs), then
times, --runs times each, in a fresh process per run, the cases alternated run by run:

  zipfile   `python -c` reading the list's lines with zipfile (`for line in member`): the
            anchor, measured in the same run
  import    `tracker official import standard_nov25frl.zip --db COPY` (a copy of the
            career's database for every run)
  start-up  the same import of the list's first 100 rows (what the command costs whatever
            the list: the interpreter, its libraries, the database)
  blanks    the same import of a zip of the list's header and --blank-mib MiB of blank lines
            (a few hundred KB zipped): refused as a list of no players, in bounded time and
            memory (exit 2)

and prints a markdown table of medians (wall time), CPU (user+system of the child) and peak
RSS (ru_maxrss of the child, from os.wait4), with the ratios of the import to the zipfile
anchor, also written to <workdir>/list-names-bench.md. The children run with a bytecode
cache in the work folder, as an installed package has its bytecode.

--against DIR times another checkout (the commit before a change: `git archive COMMIT | tar
-x -C DIR`) on the same files and databases, alternated with this one; the blank lines only
on this one (the code before the bound of issue 35 took 23 GB there).

Usage (from the repository root):
  python bench/list_names.py                        # 450,000 rows, 5 runs
  python bench/list_names.py --against /tmp/before --runs 5
  python bench/list_names.py --players 2000 --runs 1 --blank-mib 4   # smoke
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
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LIST_NAME = "standard_nov25frl.zip"
ZIP_LINES = (
    "import sys, zipfile\n"
    "with zipfile.ZipFile(sys.argv[1]) as zf, zf.open(zf.namelist()[0]) as member:\n"
    "    n = sum(1 for _ in member)\n"
    "print(n)\n"
)


@dataclass
class Case:
    name: str
    tree: str = ""
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    output: str = ""
    code: int = 0


def run_measured(
    args: list[str], cwd: Path, tree: Path, codes: tuple[int, ...] = (0,)
) -> tuple[float, float, int, str, int]:
    """Run a child (`tree`'s tracker); (wall s, its CPU s, its peak RSS in KiB, its stdout
    and stderr, its exit code), from wait4."""
    out_path, err_path = cwd / ".child.out", cwd / ".child.err"
    # with a bytecode cache, as an installed package has (PYTHONDONTWRITEBYTECODE, set on
    # some machines, would make every start compile the tracker's modules)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(cwd / "pycache"))
    with out_path.open("wb") as out, err_path.open("wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(args, cwd=cwd, stdout=out, stderr=err, env=env)
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    said = out_path.read_text(encoding="utf-8", errors="replace") + err_path.read_text(
        encoding="utf-8", errors="replace"
    )
    if code not in codes:
        raise SystemExit(f"failed ({code}): {' '.join(args)}\n{said[-2000:]}")
    return seconds, usage.ru_utime + usage.ru_stime, int(usage.ru_maxrss), said, code


def make_inputs(work: Path, players: int, blank_mib: int) -> tuple[Path, Path, Path]:
    """The list, its first 100 rows and the blank-line zip (each made once)."""
    folder = work / f"{players}"
    folder.mkdir(parents=True, exist_ok=True)
    whole = folder / LIST_NAME
    if not whole.exists():
        t0 = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "tests.listgen",
                "--players",
                str(players),
                "--format",
                "txt",
                "--zip",
                "-o",
                str(whole),
            ],
            check=True,
            cwd=REPO,
            capture_output=True,
        )
        print(f"generated {whole} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    with zipfile.ZipFile(whole) as zf, zf.open(zf.namelist()[0]) as member:
        head = [member.readline() for _ in range(101)]
    excerpt = folder / "standard_nov25frl_first100.zip"
    if not excerpt.exists():
        with zipfile.ZipFile(excerpt, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("standard_nov25frl.txt", b"".join(head))
    blanks = work / f"standard_nov25frl_blank{blank_mib}.zip"
    if not blanks.exists():
        with (
            zipfile.ZipFile(blanks, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf,
            zf.open("standard_nov25frl.txt", "w", force_zip64=True) as out,
        ):
            out.write(head[0])
            chunk = b"\n" * (1 << 20)
            for _ in range(blank_mib):
                out.write(chunk)
    return whole, excerpt, blanks


def career_db(work: Path, pgn: Path) -> tuple[Path, str]:
    """The database of the career (made once): and what it holds, said."""
    db = work / f"career-{pgn.name}.db"
    if not db.exists():
        subprocess.run(
            [sys.executable, "-m", "tracker", "import", str(pgn), "--db", str(db), "--quiet"],
            check=True,
            cwd=REPO,
            capture_output=True,
        )
    held = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1])\n"
            "print(*c.execute('SELECT count(*), count(fide_id) FROM players').fetchone())\n",
            str(db),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return db, f"{int(held[0]):,} players, {int(held[1]):,} with a FIDE ID"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=450_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument(
        "--pgn", type=Path, default=REPO.parent / "shared/corpus/pgnmentor-Caruana.pgn.xz"
    )
    ap.add_argument("--blank-mib", type=int, default=256)
    ap.add_argument("--against", type=Path, default=None, help="another checkout, alternated")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "tracker-bench")
    args = ap.parse_args(argv)
    work: Path = args.workdir
    work.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    whole, excerpt, blanks = make_inputs(work, args.players, args.blank_mib)
    db, held = career_db(work, args.pgn.resolve())
    trees = [("", REPO)] if args.against is None else [("", REPO), ("before", args.against)]

    def tracker_import(path: Path) -> list[str]:
        copy = work / "run.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{copy}{suffix}").unlink(missing_ok=True)
        shutil.copyfile(db, copy)
        return [py, "-m", "tracker", "official", "import", str(path), "--db", str(copy)]

    plan: list[tuple[str, str, Path, Path, tuple[int, ...]]] = [("zipfile", "", REPO, whole, (0,))]
    for label, tree in trees:
        plan += [
            ("import", label, tree, whole, (0,)),
            ("start-up", label, tree, excerpt, (0,)),
        ]
    plan.append(("blanks", "", REPO, blanks, (2,)))  # (this tree only: see the docstring)
    cases = {(name, label): Case(name, label) for name, label, *_ in plan}
    for run in range(args.runs):
        for name, label, tree, path, codes in plan if run % 2 == 0 else plan[::-1]:
            cmd = [py, "-c", ZIP_LINES, str(path)] if name == "zipfile" else tracker_import(path)
            seconds, cpu, rss, said, code = run_measured(cmd, work, tree, codes)
            case = cases[(name, label)]
            case.seconds.append(seconds)
            case.cpu.append(cpu)
            case.rss_kib.append(rss)
            case.output, case.code = said.strip(), code
            print(
                f"{name}{' ' + label if label else ''}: {seconds:.2f} s, CPU {cpu:.2f} s, "
                f"{rss / 1024:.0f} MiB",
                file=sys.stderr,
                flush=True,
            )

    def median(case: Case, what: str) -> float:
        return statistics.median(case.seconds if what == "wall" else case.cpu)

    anchor = cases[("zipfile", "")]
    lines = [
        f"A {args.players:,}-row standard list ({whole.stat().st_size / 2**20:.1f} MiB zipped) "
        f"into the database of {args.pgn.name} ({held}), median of {args.runs} "
        f"run{'s' if args.runs != 1 else ''}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f} at the end"
        + ("" if args.against is None else f"; before: {args.against}, run alternately"),
        "",
        "| case | median s | min-max s | CPU s | x zipfile (wall) | x zipfile (CPU) | "
        "peak RSS MiB | result |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for case in cases.values():
        what = {
            "zipfile": "zipfile reads the list's lines (the anchor)",
            "import": "tracker official import, the whole list",
            "start-up": "the same, the list's first 100 rows",
            "blanks": f"the header and {args.blank_mib} MiB of blank lines "
            f"({blanks.stat().st_size / 1024:.0f} KB zipped)",
        }[case.name] + (f" ({case.tree})" if case.tree else "")
        result = case.output.splitlines()[0].replace(f"{work}/", "") if case.output else ""
        if case.name == "zipfile":
            result = f"{int(result):,} lines" if result.isdigit() else result
        elif case.name != "blanks":
            result = "; ".join(p for p in result.split("; ") if "read" in p or "written" in p)
        else:
            result = f"exit {case.code}: {result[:90]}"
        lines.append(
            f"| {what} | {median(case, 'wall'):.2f} | {min(case.seconds):.2f}-"
            f"{max(case.seconds):.2f} | {median(case, 'cpu'):.2f} | "
            f"{median(case, 'wall') / median(anchor, 'wall'):.2f} | "
            f"{median(case, 'cpu') / median(anchor, 'cpu'):.2f} | "
            f"{max(case.rss_kib) / 1024:.0f} | {result.replace('|', '/')} |"
        )
    table = "\n".join(lines) + "\n"
    (work / "list-names-bench.md").write_text(table, encoding="utf-8")
    sys.stdout.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
