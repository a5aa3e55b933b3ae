#!/usr/bin/env python3
"""C extensions benchmark: what each of the three optional C extensions gains on
`tracker import BIG --db NEW --quiet` end to end (a new database).

The big PGN is built from ../shared/corpus with ../shared/tools/make_big_pgn.py (--shared) in
--workdir, as bench/import_bench.py builds it. For each variant a disposable copy of the checkout's
`tracker/` package (and of its `migrations/`, as `tracker.migrations`, where an install puts
it) is made in --workdir/trees/, with the built .so of one extension removed, so only that
extension is off (its loader, `tracker.pgn.native.extension`, then runs the pure Python code):

  all compiled        every .so present
  without _speedups   tracker.pgn._speedups (the PGN reader) removed
  without _prepare    tracker.importer._prepare (the import preparer) removed
  without _batch      tracker.store._batch (the SQLite games writer) removed
  all pure            every .so present, TRACKER_PURE_PYTHON=1

Each copy runs with PYTHONPATH set to it (and PYTHONSAFEPATH=1, from --workdir: no `tracker/`
of the current folder or of an editable install gets in). Before any timing, each variant's
`tracker --version` must report what the variant claims, and a small import (sample_pgns/,
which also fills the bytecode cache) must load every tracker module from the copy. Then the
variants run alternately, run by run (round robin: the machine's noise hits them all alike).
Printed: a markdown table of medians of wall and CPU seconds (user + system of the process
tree, as import_bench.py counts it) with all compiled and without each extension, and the
end-to-end gain (without - with) / without; the raw runs; whether the databases of the
variants' last runs hold the same rows (every table sorted, DATETIME columns left out).
Also written to <workdir>/c-extensions.md.

Usage (from the repository root, after `python setup.py build_ext --inplace`):
  python bench/c_extensions.py                          # 1,000,000 games, 3 runs
  python bench/c_extensions.py /tmp/other-checkout      # another (built) checkout
  python bench/c_extensions.py --games 2000 --runs 1    # smoke
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import import_bench  # noqa: E402  (bench/import_bench.py: the big file, the measuring)
from import_bench import Run, bytecode_env, fresh, make_big, run_measured  # noqa: E402

REPO = Path(__file__).resolve().parents[1]

EXTENSIONS = {  # module -> the subject of its `tracker --version` line
    "tracker.pgn._speedups": "the PGN reader",
    "tracker.importer._prepare": "the import preparer",
    "tracker.store._batch": "the games writer (SQLite)",
}
COMPILED, NOT_BUILT, PURE = "compiled (C)", "pure Python (not built", "pure Python (TRACKER_"

# Run in each variant: a small import in process, then where every tracker module came from.
PROBE = """
import json, runpy, sys
sys.argv = ["tracker", "import", sys.argv[1], "--db", sys.argv[2], "--quiet"]
try:
    runpy.run_module("tracker", run_name="__main__", alter_sys=True)
except SystemExit as exit:
    if exit.code:
        raise
import tracker.migrations
print(json.dumps({n: getattr(m, "__file__", None) for n, m in sys.modules.items()
                  if n == "tracker" or n.startswith("tracker.")}))
"""


@dataclass
class Variant:
    name: str
    off: str | None = None  # the extension whose .so the copy lacks
    pure: bool = False  # TRACKER_PURE_PYTHON=1
    root: Path = Path()  # the folder holding the copy's tracker/
    runs: list[Run] = field(default_factory=list)

    def env(self, base: dict[str, str]) -> dict[str, str]:
        env = dict(base, PYTHONPATH=str(self.root), PYTHONSAFEPATH="1")
        env.pop("TRACKER_PURE_PYTHON", None)
        if self.pure:
            env["TRACKER_PURE_PYTHON"] = "1"
        return env

    def expected(self, module: str) -> str:
        return PURE if self.pure else NOT_BUILT if module == self.off else COMPILED

    @property
    def wall(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(r.cpu for r in self.runs)


def module_path(checkout: Path, module: str) -> Path:
    """tracker.pgn._speedups -> CHECKOUT/tracker/pgn/_speedups (no suffix)."""
    return checkout.joinpath(*module.split("."))


def built(checkout: Path, module: str) -> list[Path]:
    base = module_path(checkout, module)
    return sorted(p for p in base.parent.glob(base.name + ".*") if p.suffix in (".so", ".pyd"))


def c_lines(checkout: Path, module: str) -> int:
    """`wc -l` of the extension's C source."""
    return module_path(checkout, module).with_suffix(".c").read_bytes().count(b"\n")


def make_tree(checkout: Path, variant: Variant, trees: Path) -> None:
    variant.root = trees / variant.name.replace(" ", "-")
    shutil.rmtree(variant.root, ignore_errors=True)
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(checkout / "tracker", variant.root / "tracker", ignore=skip)
    migrations = variant.root / "tracker" / "migrations"
    if (checkout / "migrations" / "__init__.py").exists() and not migrations.exists():
        shutil.copytree(checkout / "migrations", migrations, ignore=skip)
    if variant.off:
        for so in built(variant.root, variant.off):
            so.unlink()


def check(variant: Variant, env: dict[str, str], sample: Path, workdir: Path) -> None:
    """Fail unless the copy runs what the variant claims, every tracker module from itself."""
    out = subprocess.run(
        [sys.executable, "-m", "tracker", "--version"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    states = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    for module, subject in EXTENSIONS.items():
        state = states.get(subject, "(missing)")
        if not state.startswith(variant.expected(module)):
            raise SystemExit(
                f"{variant.name}: {subject}: {state!r}, expected "
                f"{variant.expected(module)!r}...\n{out}"
            )
    warm = workdir / f"warm-{variant.root.name}.db"
    fresh(warm)
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(sample), str(warm)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    fresh(warm)
    files: dict[str, str | None] = json.loads(proc.stdout.strip().splitlines()[-1])
    strays = {n: f for n, f in files.items() if f and not Path(f).is_relative_to(variant.root)}
    if strays or "tracker.migrations" not in files:
        raise SystemExit(f"{variant.name}: modules from outside {variant.root}: {strays}")
    for module in EXTENSIONS:
        if (module in files) != (variant.expected(module) == COMPILED):
            raise SystemExit(f"{variant.name}: {module} loaded: {module in files}")
    print(
        f"  {variant.name}: {'; '.join(states[s] for s in EXTENSIONS.values())}; "
        f"{len(files)} tracker modules, all from {variant.root}",
        file=sys.stderr,
    )


def fingerprint(db: Path) -> dict[str, str]:
    """Each table: its row count and a digest of its rows sorted, DATETIME columns left out
    (the import's start and end times); the schema too."""
    out: dict[str, str] = {}
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        schema = sorted(r[0] for r in conn.execute("SELECT sql FROM sqlite_master") if r[0])
        out["(schema)"] = hashlib.sha256("\n".join(schema).encode()).hexdigest()[:16]
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        for table in tables:
            cols = [
                f'"{r[1]}"'
                for r in conn.execute(f'PRAGMA table_info("{table}")')
                if r[2].upper() != "DATETIME"
            ]
            digest, n = hashlib.sha256(), 0
            query = f'SELECT {", ".join(cols)} FROM "{table}" ORDER BY {", ".join(cols)}'
            for row in conn.execute(query):
                digest.update(repr(row).encode())
                n += 1
            out[table] = f"{n:,} rows, {digest.hexdigest()[:16]}"
    return out


def git_revision(checkout: Path) -> str:
    proc = subprocess.run(
        ["git", "-C", str(checkout), "describe", "--always", "--dirty"],
        capture_output=True,
        text=True,
    )
    return proc.stdout.strip() or "(not a git checkout)"


def gain(without: float, with_: float) -> str:
    return f"{(without - with_) / without:+.1%}" if without > 0 else "-"


def report(
    checkout: Path,
    variants: list[Variant],
    games: int,
    runs: int,
    prints: dict[str, dict[str, str]],
    started: str,
) -> str:
    base, *singles, pure = variants
    lines = [
        f"Checkout {checkout} at {git_revision(checkout)}; `tracker import` of {games:,} games "
        f"into a new database; machine: {os.cpu_count()} cores; Python "
        f"{sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}; medians of {runs} runs, "
        f"variants alternated; started {started}.",
        "",
        "| extension | lines of C | all compiled: wall s | all compiled: CPU s "
        "| without it: wall s | without it: CPU s | gain, wall | gain, CPU |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for v in [*singles, pure]:
        name = (
            f"`{v.off}`: {EXTENSIONS[v.off]}"
            if v.off
            else "all three (all pure: TRACKER_PURE_PYTHON=1)"
        )
        loc = c_lines(checkout, v.off) if v.off else sum(c_lines(checkout, m) for m in EXTENSIONS)
        lines.append(
            f"| {name} | {loc:,} | {base.wall:.2f} | {base.cpu:.2f} | {v.wall:.2f} | "
            f"{v.cpu:.2f} | {gain(v.wall, base.wall)} | {gain(v.cpu, base.cpu)} |"
        )
    lines += [
        "",
        "Raw runs (wall s / CPU s / peak RSS MB of the process tree), in the order run:",
        "",
        "| variant | " + " | ".join(f"run {i + 1}" for i in range(runs)) + " |",
        "| --- |" + " ---: |" * runs,
    ]
    for v in variants:
        cells = [f"{r.seconds:.2f} / {r.cpu:.2f} / {r.peak.rss / 1024:.0f}" for r in v.runs]
        lines.append(f"| {v.name} | " + " | ".join(cells) + " |")
    reference = prints[base.name]
    differ = sorted(
        {
            t
            for p in prints.values()
            for t in set(p) | set(reference)
            if p.get(t) != reference.get(t)
        }
    )
    lines += [
        "",
        "Databases of the last run (each table's rows sorted, DATETIME columns left "
        "out): "
        + (
            "identical in every variant: " + "; ".join(f"{t} {d}" for t, d in reference.items())
            if not differ
            else "DIFFERENT in " + ", ".join(differ)
        ),
    ]
    for table in differ:
        lines += [f"  {table}: " + "; ".join(f"{n}: {p.get(table)}" for n, p in prints.items())]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "checkout",
        type=Path,
        nargs="?",
        default=REPO,
        help="the checkout to measure, its extensions built in place (default: this repository)",
    )
    ap.add_argument("--games", type=int, default=1_000_000, help="games in the big file")
    ap.add_argument("--runs", type=int, default=3, help="runs of each variant")
    ap.add_argument(
        "--workdir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "tracker-bench",
        help="where the big file, the copies and the databases go",
    )
    ap.add_argument(
        "--shared",
        type=Path,
        default=None,
        help="the shared folder (tools/make_big_pgn.py, corpus/; default: ../shared "
        "beside this repository, else beside the checkout)",
    )
    ap.add_argument("--keep", action="store_true", help="keep the last run's databases")
    a = ap.parse_args(argv)
    checkout, workdir = a.checkout.resolve(), a.workdir.resolve()
    shared = a.shared or next(
        (d for d in (REPO.parent / "shared", checkout.parent / "shared") if d.is_dir()),
        REPO.parent / "shared",
    )
    import_bench.MAKE_BIG = shared.resolve() / "tools" / "make_big_pgn.py"
    for module in EXTENSIONS:
        if not built(checkout, module):
            raise SystemExit(
                f"{module} is not built in {checkout}: run "
                "`python setup.py build_ext --inplace` there first"
            )
    workdir.mkdir(parents=True, exist_ok=True)
    os.chdir(workdir)  # never a folder with a tracker/ of its own
    started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    big = workdir / f"big-{a.games}.pgn"
    make_big(a.games, big)
    variants = [
        Variant("all compiled"),
        *(Variant(f"without {m.rsplit('.', 1)[1]}", off=m) for m in EXTENSIONS),
        Variant("all pure", pure=True),
    ]
    base_env = bytecode_env(workdir)
    print("checking the variants ...", file=sys.stderr)
    for v in variants:
        make_tree(checkout, v, workdir / "trees")
        check(v, v.env(base_env), checkout / "sample_pgns", workdir)
    prints: dict[str, dict[str, str]] = {}
    for i in range(a.runs):
        for v in variants:
            db = workdir / f"c-ext-{v.root.name}.db"
            fresh(db)
            cmd = [sys.executable, "-m", "tracker", "import", str(big), "--db", str(db), "--quiet"]
            run = run_measured(cmd, env=v.env(base_env))
            v.runs.append(run)
            print(
                f"  run {i + 1} {v.name}: {run.seconds:.2f} s, CPU {run.cpu:.2f} s, "
                f"RSS {run.peak.rss / 1024:.0f} MB",
                file=sys.stderr,
            )
            if i == a.runs - 1:
                prints[v.name] = fingerprint(db)
                if not a.keep:
                    fresh(db)
            else:
                fresh(db)
    text = report(checkout, variants, a.games, a.runs, prints, started)
    print(text)
    (workdir / "c-extensions.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
