"""What a command costs over the libraries it stands on (issue 18).

A reading command on the sample season (`tracker history --format json`, and the table) is
timed against merely importing its libraries (`python -c "import sqlalchemy, typer"`), and
`tracker --help` against `import typer`: CPU seconds (user + system) of each child process,
medians of --runs, the commands alternated so that a busy machine weighs on all alike.
Also lists which of the heavy libraries each command imported (`python -X importtime`):
alembic, matplotlib, rich and pydantic should appear only where they are needed.

    python bench/startup.py --runs 7
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HEAVY = ("sqlalchemy", "typer", "click", "rich", "alembic", "matplotlib", "pydantic")


def _cpu(args: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _imported(args: list[str], env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [args[0], "-X", "importtime", *args[1:]],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    tops = set(re.findall(r"\|\s+([a-z_]+)$", done.stderr, re.M))
    return [name for name in HEAVY if name in tops]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    py = sys.executable
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "", "TRACKER_DB": ""}
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [py, "-m", "tracker", "demo", "--output-dir", tmp],
            env=env,
            stdout=subprocess.DEVNULL,
            check=True,
        )
        db = str(Path(tmp) / "tracker-demo.db")
        commands = {
            "libraries: sqlalchemy, typer": [py, "-c", "import sqlalchemy, typer"],
            "tracker history --format json": [
                py,
                "-m",
                "tracker",
                "history",
                "--db",
                db,
                "--format",
                "json",
            ],
            "tracker history (table)": [py, "-m", "tracker", "history", "--db", db],
            "library: typer": [py, "-c", "import typer"],
            "tracker --help": [py, "-m", "tracker", "--help"],
        }
        if args.runs > 1:  # warm the bytecode caches (a smoke run of 1 skips it)
            for cmd in commands.values():
                _cpu(cmd, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, cmd in commands.items():
                times[name].append(_cpu(cmd, env))
        heavy = {
            name: _imported(cmd, env)
            for name, cmd in commands.items()
            if name.startswith("tracker")
        }
    median = {name: statistics.median(t) for name, t in times.items()}
    base = {
        "tracker history --format json": "libraries: sqlalchemy, typer",
        "tracker history (table)": "libraries: sqlalchemy, typer",
        "tracker --help": "library: typer",
    }
    print(f"CPU seconds (user + system), medians of {args.runs}, alternated\n")
    print("| command | CPU s | over its libraries | heavy libraries imported |")
    print("| --- | ---: | ---: | --- |")
    for name, t in median.items():
        ratio = f"{t / median[base[name]]:.2f}x" if name in base else ""
        print(f"| `{name}` | {t:.3f} | {ratio} | {', '.join(heavy.get(name, [])) or ''} |")


if __name__ == "__main__":
    main()
