#!/usr/bin/env python3
"""`tracker club` benchmark (issue 38 item 3): every player a database of a TWIC issue tracks
(by default TWIC 1427 of shared/corpus: 4,742 games of March 2022, some 1,700 players, 1,657
with a FIDE ID), each replayed as `tracker next` replays them.

Builds the database in the work folder (reused when it is there) from the PGN files given,
then times, --runs times each:

  in process  tracker.app.club.club_list (read the facts, replay every tracked player)
  + rows      the same and the table's rows and notes (tracker.reports.club)
  cli json    `python -m tracker club --format json` as a subprocess (start-up, imports, the
              database opened, the output written)
  cli html    `python -m tracker club --html FILE --force` as a subprocess

each as wall and CPU time (the machine is shared: the CPU time does not count the waits), and
prints a markdown table of medians.

Usage (from the repository root):
  python bench/club.py                          # TWIC 1427, standard, 7 runs
  python bench/club.py --list rapid --runs 3
  python bench/club.py --pgn ../shared/corpus/twic1427.pgn.xz ../shared/corpus/twic1428.pgn.xz
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sqlalchemy import func, select  # noqa: E402

from bench.timing import add_workdir, in_process, print_load, print_table, processes  # noqa: E402
from tracker.model import RatingList  # noqa: E402
from tracker.store import open_store  # noqa: E402
from tracker.store.schema import games  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"


def build(work: Path, pgns: list[Path]) -> Path:
    """The database of the PGN files (named after them: reused when there)."""
    key = hashlib.sha256("\n".join(str(p) for p in pgns).encode()).hexdigest()[:10]
    db = work / f"club-bench-{key}.db"
    if db.exists():
        return db
    tmp = work / "tmp.db"
    tmp.unlink(missing_ok=True)
    proc = subprocess.run(
        [sys.executable, "-m", "tracker", "import", *map(str, pgns), "--db", str(tmp)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    if proc.returncode:
        raise SystemExit(proc.stderr)
    tmp.rename(db)
    return db


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--pgn", nargs="*", type=Path, default=[CORPUS / "twic1427.pgn.xz"])
    ap.add_argument("--list", default="standard", choices=[str(rl) for rl in RatingList])
    ap.add_argument("--runs", type=int, default=7)
    add_workdir(ap)
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    db = build(args.workdir, args.pgn)
    rl = RatingList(args.list)

    from tracker.app.club import club_list
    from tracker.reports.club import club_notes, club_rows, club_table

    today = dt.date.today()
    store = open_store(str(db))
    with store.engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(games)).scalar_one()
    club = club_list(store, rl)  # warm: imports, the statements built

    def rows() -> None:
        found = club_list(store, rl)
        shown = club_rows(found, today)
        club_table(shown)
        club_notes(found, shown)

    inproc = in_process(lambda: club_list(store, rl), args.runs)
    with_rows = in_process(rows, args.runs)
    store.engine.dispose()
    base = ["club", "--list", str(rl), "--db", str(db)]
    page = args.workdir / "club.html"
    measured = processes(
        {"json": [*base, "--format", "json"], "html": [*base, "--html", str(page), "--force"]},
        args.workdir,
        args.runs,
    )
    left = ", ".join(f"{x.why} {x.count:,}" for x in club.left_out) or "none"
    print(
        f"`python bench/club.py --list {rl}` ({dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC): "
        f"{total:,} games in the database, {len(club.players):,} players on the {rl} list "
        f"(left out: {left}); medians of {args.runs} runs\n"
    )
    print_load()
    print_table(
        [
            ("`club_list` in process", inproc),
            ("+ the rows, table and notes", with_rows),
            ("`tracker club --format json` (a process)", measured["json"]),
            ("`tracker club --html FILE` (a process)", measured["html"]),
        ]
    )


if __name__ == "__main__":
    main()
