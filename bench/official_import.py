#!/usr/bin/env python3
"""Official list import benchmark (issue 5): a generated 1.8-million-player combined list.

Generates FIDE's combined list in both published formats with `tests.listgen` (zipped as
FIDE ships them: players_list.zip / players_list_xml.zip; kept in --workdir, reused when
present), then times, --runs times each, in a fresh process per run:

  parse   reading every row with tracker.lists, no database (the floor)
  known   `tracker official import FILE --period 2025-11` into a database that holds
          --known players of the list (the usual case: only your players and opponents
          are kept)
  all     the same with `--all` into an empty database (every player created)

and prints a markdown table of medians (wall time) and peak RSS (ru_maxrss of the child,
from os.wait4, i.e. resource.getrusage of that process), also written to
<workdir>/official-bench.md.

--against DIR times another checkout (the commit before a change: `git worktree add` or
`git archive COMMIT | tar -x -C DIR`) on the same files and databases, alternating the two
trees run by run (old, new; new, old; ...) so that a busy machine slows both alike; each case
is then reported for both.

--archive N instead imports a generated archive folder of N monthly lists of every layout
since 2001 (`archive_schedule`: 2001-2002 and 2003-2008 quarterly, 2009-2012 every two
months, monthly from July 2012, with and without FOA; 40,000 players in 2001 growing to
360,000, zipped as FIDE ships them) with `tracker official import FOLDER`, --known players
of every list in the database.

Usage (from the repository root):
  python bench/official_import.py                          # 1,800,000 players, 3 runs
  python bench/official_import.py --players 200000 --runs 5
  python bench/official_import.py --formats TXT --modes known --against /tmp/before
  python bench/official_import.py --archive 150 --runs 1
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
FORMATS = {
    "TXT": ("combined-txt", "players_list.zip"),
    "XML": ("combined-xml", "players_list_xml.zip"),
}
PARSE_ONLY = (
    "import sys\n"
    "from tracker.lists import open_list\n"
    "from tracker.model import Period\n"
    "with open_list(sys.argv[1], period=Period.parse(sys.argv[2])) as lst:\n"
    "    n = sum(1 for _ in lst)\n"
    "print(n)\n"
)
SEED_KNOWN = (
    "import sys\n"
    "from sqlalchemy import insert\n"
    "from tests import listgen\n"
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
    tree: str = ""
    seconds: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    output: str = ""


def run_measured(args: list[str], cwd: Path, tree: Path = REPO) -> tuple[float, float, int, str]:
    """Run a child (`tree`'s tracker); (wall s, its CPU s, its own peak RSS in KiB, its
    stdout), from wait4."""
    out_path = cwd / ".child.out"
    err_path = cwd / ".child.err"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            args, cwd=cwd, stdout=out, stderr=err, env={**os.environ, "PYTHONPATH": str(tree)}
        )
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    stdout = out_path.read_text(encoding="utf-8", errors="replace")
    if proc.returncode != 0:
        stderr = err_path.read_text(encoding="utf-8", errors="replace")
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(args)}\n{stderr[-2000:]}")
    return seconds, usage.ru_utime + usage.ru_stime, int(usage.ru_maxrss), stdout


ERAS = (  # (first month, format, months between lists, last month)
    ((2001, 1), "txt-2001", 3, (2002, 10)),
    ((2003, 1), "txt-2003", 3, (2008, 10)),
    ((2009, 1), "txt-2009", 2, (2012, 5)),
    ((2012, 7), "txt-2012", 1, (2015, 12)),
    ((2016, 1), "txt", 1, (2099, 12)),
)
ARCHIVE_FIRST, ARCHIVE_LAST = 40_000, 360_000  # players in the first and the 150th list


def archive_schedule(
    count: int, first: int = ARCHIVE_FIRST, last: int = ARCHIVE_LAST
) -> list[tuple[str, str, tuple[int, int], int]]:
    """(file name, format, (year, month), players) of the first `count` lists of FIDE's
    standard archive as the eras published them (`first` players growing to `last` in the
    150th)."""
    months = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    out: list[tuple[str, str, tuple[int, int], int]] = []
    for (y, m), fmt, step, until in ERAS:
        while (y, m) <= until and len(out) < count:
            mon = f"{months[m - 1]}{y % 100:02d}"
            name = (
                f"{mon.upper()}FRL.zip"
                if fmt in ("txt-2001", "txt-2003")
                else (f"standard_{mon}frl.zip")
            )
            n = first + (last - first) * len(out) // 149
            out.append((name, fmt, (y, m), n))
            m += step
            if m > 12:
                y, m = y + 1, m - 12
    return out


def make_archive(
    folder: Path, count: int, first: int = ARCHIVE_FIRST, last: int = ARCHIVE_LAST
) -> int:
    """Write the archive (one body per era, cut to each list's size: the same players, by
    FIDE ID, in every list); returns the number of rows."""
    import io
    import zipfile

    sys.path.insert(0, str(REPO))
    from tests import listgen
    from tracker.model import Period

    folder.mkdir(parents=True, exist_ok=True)
    schedule = archive_schedule(count, first, last)
    most = max(n for *_, n in schedule)
    people = list(listgen.players(most, seed=1))
    rows = 0
    bodies: dict[str, list[str]] = {}
    for name, fmt, (y, m), n in schedule:
        rows += n
        path = folder / name
        if path.exists():
            continue
        if fmt not in bodies:
            text = io.StringIO()
            listgen.write_list(text, people, fmt, period=Period(y, m))
            bodies[fmt] = text.getvalue().split("\n")
        lines = bodies[fmt]
        head = 2 if fmt == "txt-2003" else 1  # the 2003-2008 files begin with a blank line
        header = io.StringIO()
        listgen.write_list(header, [], fmt, period=Period(y, m))
        encoding = "latin-1" if fmt in ("txt-2001", "txt-2003", "txt-2009") else "utf-8"
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
            body = header.getvalue() + "\n".join(lines[head : head + n]) + "\n"
            zf.writestr(path.stem + ".txt", body.encode(encoding, "replace"))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=1_800_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--known",
        type=int,
        default=1_000,
        help="players of the list already in the database for the 'known' case",
    )
    ap.add_argument("--formats", default="TXT,XML")
    ap.add_argument("--modes", default="parse,known,all")
    ap.add_argument(
        "--against",
        type=Path,
        default=None,
        help="another checkout to time alternately (the commit before a change)",
    )
    ap.add_argument(
        "--archive",
        type=int,
        default=0,
        help="import a generated archive folder of this many monthly lists",
    )
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "tracker-bench")
    ap.add_argument(
        "--archive-size",
        default=f"{ARCHIVE_FIRST}:{ARCHIVE_LAST}",
        help="players in the archive's first and 150th list (FIRST:LAST)",
    )
    ap.add_argument("--make-archive", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    work: Path = args.workdir
    work.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    args.first, args.last = (int(x) for x in args.archive_size.split(":"))
    if args.make_archive:
        print(
            make_archive(
                work / f"archive-{args.make_archive}-{args.archive_size}",
                args.make_archive,
                args.first,
                args.last,
            )
        )
        return 0
    trees = (
        [("", REPO)]
        if args.against is None
        else [("before", args.against.resolve()), ("after", REPO)]
    )
    if args.archive:
        return archive_main(args, work, trees)
    formats = [f.strip().upper() for f in args.formats.split(",") if f.strip()]
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]

    lists: dict[str, Path] = {}
    for fmt in formats:
        kind, name = FORMATS[fmt]
        path = work / f"{args.players}" / name
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            t0 = time.perf_counter()
            subprocess.run(
                [
                    py,
                    "-m",
                    "tests.listgen",
                    "--players",
                    str(args.players),
                    "--format",
                    kind,
                    "--zip",
                    "-o",
                    str(path),
                ],
                check=True,
                cwd=REPO,
                capture_output=True,
            )
            print(f"generated {path} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        lists[fmt] = path

    # Template databases, copied for every run (each run starts from the same state).
    empty_db = work / "empty.db"
    known_db = work / f"known-{args.players}-{args.known}.db"
    for db in (empty_db, known_db):
        if db.exists():
            db.unlink()
    subprocess.run(
        [
            py,
            "-c",
            "import sys\nfrom tracker.store import open_store\nopen_store(sys.argv[1]).close()",
            str(empty_db),
        ],
        check=True,
        cwd=REPO,
    )
    every = max(1, args.players // max(1, args.known))
    seeded = subprocess.run(
        [py, "-c", SEED_KNOWN, str(known_db), str(args.players), str(every)],
        check=True,
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    known_count = int(seeded.stdout.strip())

    cases: list[Case] = []
    for fmt in formats:
        for mode in modes:
            group = {label: Case(fmt, mode, label) for label, _ in trees}
            for run in range(args.runs):
                order = trees if run % 2 == 0 else trees[::-1]
                for label, tree in order:
                    case = group[label]
                    db = work / "run.db"
                    for suffix in ("", "-wal", "-shm"):
                        Path(f"{db}{suffix}").unlink(missing_ok=True)
                    if mode == "parse":
                        cmd = [py, "-c", PARSE_ONLY, str(lists[fmt]), PERIOD]
                    else:
                        shutil.copyfile(known_db if mode == "known" else empty_db, db)
                        cmd = [
                            py,
                            "-m",
                            "tracker",
                            "official",
                            "import",
                            str(lists[fmt]),
                            "--period",
                            PERIOD,
                            "--db",
                            str(db),
                        ]
                        if mode == "all":
                            cmd.append("--all")
                    seconds, cpu, rss, out = run_measured(cmd, work, tree)
                    case.seconds.append(seconds)
                    case.cpu.append(cpu)
                    case.rss_kib.append(rss)
                    case.output = out.strip()
                    print(
                        f"{fmt} {mode}{' ' + label if label else ''}: {seconds:.1f} s, CPU "
                        f"{cpu:.1f} s, {rss / 1024:.0f} MiB",
                        file=sys.stderr,
                        flush=True,
                    )
            cases.extend(group.values())

    size = {fmt: path.stat().st_size for fmt, path in lists.items()}
    lines = [
        f"Official list import, {args.players:,} players (combined list, {PERIOD}), "
        f"median of {args.runs} run{'s' if args.runs != 1 else ''}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} at the end (wall time suffers on a busy "
        "machine; CPU s is the child's user+system time)"
        + (
            ""
            if args.against is None
            else f"; before: {args.against}, after: {REPO}, run alternately"
        ),
        "",
        "| file | case | median s | min-max s | CPU s | players/s | peak RSS MiB | result |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for c in cases:
        med = statistics.median(c.seconds)
        what = {
            "parse": "parse only (no database)",
            "known": f"import, {known_count:,} players known",
            "all": "import --all (empty database)",
        }[c.mode]
        if c.tree:
            what += f" ({c.tree})"
        result = c.output.splitlines()[-1] if c.output else ""
        if c.mode == "parse":
            result = f"{int(result):,} rows" if result.isdigit() else result
        else:
            result = "; ".join(
                p.rsplit(": ", 1)[-1]
                for p in result.split("; ")
                if "read" in p or "kept" in p or "in the database" in p or "entries written" in p
            )
        lines.append(
            f"| {FORMATS[c.fmt][1]} ({size[c.fmt] / 2**20:.0f} MiB) | {what} | {med:.1f} | "
            f"{min(c.seconds):.1f}-{max(c.seconds):.1f} | {statistics.median(c.cpu):.1f} | "
            f"{args.players / med:,.0f} | "
            f"{max(c.rss_kib) / 1024:.0f} | {result.replace('|', '/')} |"
        )
    table = "\n".join(lines) + "\n"
    (work / "official-bench.md").write_text(table, encoding="utf-8")
    sys.stdout.write(table)
    return 0


def archive_main(args: argparse.Namespace, work: Path, trees: list[tuple[str, Path]]) -> int:
    """--archive N: `tracker official import FOLDER` of N generated monthly lists."""
    py = sys.executable
    folder = work / f"archive-{args.archive}-{args.archive_size}"
    t0 = time.perf_counter()
    # made in a child: this process stays small (a child's peak RSS counts its parent's pages
    # up to its exec)
    made = subprocess.run(
        [
            py,
            __file__,
            "--make-archive",
            str(args.archive),
            "--workdir",
            str(work),
            "--archive-size",
            args.archive_size,
        ],
        check=True,
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    rows = int(made.stdout.strip())
    files = sorted(folder.glob("*.zip"))[: args.archive]
    print(
        f"archive {folder}: {len(files)} files, {rows:,} rows ({time.perf_counter() - t0:.0f}"
        " s to make or check)",
        file=sys.stderr,
        flush=True,
    )
    first = args.first
    known_db = work / f"known-archive-{args.known}.db"
    known_db.unlink(missing_ok=True)
    seeded = subprocess.run(
        [py, "-c", SEED_KNOWN, str(known_db), str(first), str(max(1, first // max(1, args.known)))],
        check=True,
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    known_count = int(seeded.stdout.strip())
    size = sum(f.stat().st_size for f in folder.glob("*.zip"))
    lines = [
        f"Official import of an archive folder: {args.archive} monthly lists of every layout "
        f"since 2001 ({rows:,} rows, {size / 2**20:.0f} MiB zipped), {known_count:,} players "
        f"known, median of {args.runs} run{'s' if args.runs != 1 else ''}, {os.cpu_count()} "
        f"CPUs, load average {os.getloadavg()[0]:.1f} at the end",
        "",
        "| tree | median s | min-max s | CPU s | rows/s | peak RSS MiB | result |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for label, tree in trees:
        case = Case("archive", "known", label)
        for _ in range(args.runs):
            db = work / "run.db"
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)
            shutil.copyfile(known_db, db)
            seconds, cpu, rss, out = run_measured(
                [py, "-m", "tracker", "official", "import", str(folder), "--db", str(db)],
                work,
                tree,
            )
            case.seconds.append(seconds)
            case.cpu.append(cpu)
            case.rss_kib.append(rss)
            case.output = out.strip()
            print(
                f"archive{' ' + label if label else ''}: {seconds:.1f} s, CPU {cpu:.1f} s, "
                f"{rss / 1024:.0f} MiB",
                file=sys.stderr,
                flush=True,
            )
        med = statistics.median(case.seconds)
        entries = sum(
            int(p.split()[0].replace(",", ""))
            for line in case.output.splitlines()
            for p in line.split("; ")
            if p.endswith(("entries written", "entry written"))
        )
        lines.append(
            f"| {label or 'this'} | {med:.1f} | {min(case.seconds):.1f}-"
            f"{max(case.seconds):.1f} | {statistics.median(case.cpu):.1f} | "
            f"{rows / med:,.0f} | {max(case.rss_kib) / 1024:.0f} | "
            f"{case.output.splitlines()[-1] if case.output else ''}; {entries:,} "
            "entries written |"
        )
    table = "\n".join(lines) + "\n"
    (work / "official-archive-bench.md").write_text(table, encoding="utf-8")
    sys.stdout.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
