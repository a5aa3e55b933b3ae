#!/usr/bin/env python3
"""`tracker event show` benchmark (issue 38 item 4): a 10-round open of 200 players on a
database of TWIC issues.

Builds the database in the work folder (reused when it is there): the PGN files given (by
default the three TWIC issues of shared/corpus, 11,661 games of 2012 and 2022), then a
generated open of PLAYERS players and ROUNDS rounds among the players of that database with
the most games that carry an Elo tag (their histories are in it: a player's replay reads
all of them, the online games too), each with
their FIDE ID and their latest Elo tag, paired round by round score group by score group
(a Swiss pairing's shape), results drawn from the ratings with a fixed seed; the open starts
the week after the database's last game. Then times, --runs times each:

  in process  tracker.app.event_show.show_event (read the facts, replay every player)
  + table     the same and the table's rows and notes (tracker.reports.event)
  cli json    `python -m tracker event show OPEN --format json` as a subprocess (start-up,
              imports, the database opened, the output written)

each as wall and CPU time (the machine is shared: the CPU time does not count the waits),
and prints a markdown table of medians (and the players per status, so that a change of
what the replay makes of them shows).

Usage (from the repository root):
  python bench/event_show.py                              # 3 TWIC issues, 200 x 10, 7 runs
  python bench/event_show.py --players 30 --rounds 5 --runs 1 --pgn FILE   # smoke
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sqlalchemy import func, select, union_all  # noqa: E402

from bench.timing import add_workdir, in_process, print_load, print_table, processes  # noqa: E402
from tracker.fide.tables import expected_score  # noqa: E402
from tracker.store import open_store  # noqa: E402
from tracker.store.schema import games, players  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
TWIC = [CORPUS / f"twic{n}.pgn.xz" for n in ("1427", "1428", "0920")]
EVENT = "Bench Open"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tracker", *args], capture_output=True, text=True, cwd=REPO
    )


def build(work: Path, pgns: list[Path], n_players: int, rounds: int, seed: int) -> Path:
    """The database: the PGN files imported, then the generated open."""
    db = work / f"event-bench-{n_players}x{rounds}.db"
    if db.exists():
        return db
    tmp = work / "tmp.db"
    tmp.unlink(missing_ok=True)
    proc = _run("import", *map(str, pgns), "--db", str(tmp))
    if proc.returncode:
        raise SystemExit(proc.stderr)
    store = open_store(str(tmp))
    with store.engine.connect() as conn:
        sides = union_all(
            select(games.c.white_id.label("p"), games.c.white_elo.label("elo"), games.c.date),
            select(games.c.black_id.label("p"), games.c.black_elo.label("elo"), games.c.date),
        ).subquery()
        most = conn.execute(
            select(sides.c.p, func.count())
            .where(sides.c.elo.is_not(None))  # rated players: their games have an Elo tag
            .group_by(sides.c.p)
            .order_by(func.count().desc(), sides.c.p)
            .limit(n_players)
        ).all()
        ids = [int(p) for p, _ in most]
        last_day = conn.execute(select(func.max(games.c.date))).scalar_one()
        rows = conn.execute(
            select(players.c.id, players.c.name, players.c.fide_id).where(players.c.id.in_(ids))
        ).all()
        elo: dict[int, int | None] = {}
        for pid in ids:
            found = conn.execute(
                select(sides.c.elo)
                .where(sides.c.p == pid, sides.c.elo.is_not(None))
                .order_by(sides.c.date.desc())
                .limit(1)
            ).scalar()
            elo[pid] = None if found is None else int(found)
    store.engine.dispose()
    who = {int(r.id): (str(r.name), r.fide_id) for r in rows}
    pgn = work / "open.pgn"
    pgn.write_text(_open(ids, who, elo, rounds, last_day, seed), encoding="utf-8")
    proc = _run("import", str(pgn), "--db", str(tmp))
    if proc.returncode:
        raise SystemExit(proc.stderr)
    tmp.rename(db)
    return db


def _open(
    ids: list[int],
    who: dict[int, tuple[str, int | None]],
    elo: dict[int, int | None],
    rounds: int,
    last_day: dt.date,
    seed: int,
) -> str:
    """The open's PGN: each round pairs the players by score, then rating (a Swiss
    pairing's shape, no colour rules), results drawn from FIDE's expected score."""
    rng = random.Random(seed)
    start = last_day + dt.timedelta(days=7)
    score = dict.fromkeys(ids, 0.0)
    met: set[tuple[int, int]] = set()
    out = []
    for rnd in range(1, rounds + 1):
        order = sorted(ids, key=lambda p: (-score[p], -(elo[p] or 0), p))
        paired: list[tuple[int, int]] = []
        left = list(order)
        while len(left) > 1:
            a = left.pop(0)
            b = next((x for x in left if (min(a, x), max(a, x)) not in met), left[0])
            left.remove(b)
            met.add((min(a, b), max(a, b)))
            paired.append((a, b) if rnd % 2 else (b, a))
        day = start + dt.timedelta(days=rnd - 1)
        for board, (w, b) in enumerate(paired, start=1):
            we = float(expected_score((elo[w] or 1800) - (elo[b] or 1800)))
            x = rng.random()
            result = "1-0" if x < we - 0.15 else "0-1" if x > we + 0.15 else "1/2-1/2"
            score[w] += {"1-0": 1, "0-1": 0}.get(result, 0.5)
            score[b] += {"1-0": 0, "0-1": 1}.get(result, 0.5)
            tags = {
                "Event": EVENT,
                "Site": "Bench CZE",
                "Date": day.strftime("%Y.%m.%d"),
                "EventDate": start.strftime("%Y.%m.%d"),
                "Round": f"{rnd}.{board}",
                "White": who[w][0],
                "Black": who[b][0],
                "Result": result,
                "TimeControl": "5400+30",
            }
            for side, p in (("White", w), ("Black", b)):
                if who[p][1] is not None:
                    tags[f"{side}FideId"] = str(who[p][1])
                if elo[p] is not None:
                    tags[f"{side}Elo"] = str(elo[p])
            head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
            out.append(f"{head}\n1. e4 e5 {result}\n")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pgn", nargs="*", type=Path, default=TWIC, help="the database's files")
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    add_workdir(ap)
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    db = build(args.workdir, args.pgn, args.players, args.rounds, args.seed)

    from tracker.app.event_show import show_event
    from tracker.reports.event import event_notes, event_table

    store = open_store(str(db))
    with store.engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(games)).scalar_one()
    ev = show_event(store, EVENT)  # warm: imports, the statements built

    def table() -> None:
        show = show_event(store, EVENT)
        event_table(show)
        event_notes(show)

    inproc = in_process(lambda: show_event(store, EVENT), args.runs)
    with_table = in_process(table, args.runs)
    store.engine.dispose()
    json_args = ["event", "show", EVENT, "--format", "json", "--db", str(db)]
    measured = processes({"json": json_args}, args.workdir, args.runs)
    games_open = sum(p.played for p in ev.players) // 2
    statuses = Counter(str(p.status) for p in ev.players)
    print(
        f"`python bench/event_show.py` ({dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC): "
        f"{total:,} games in the database, the open {len(ev.players)} players x "
        f"{args.rounds} rounds ({games_open:,} games); medians of {args.runs} runs\n"
    )
    print_load()
    print_table(
        [
            ("show_event in process", inproc),
            ("+ the table's rows and notes", with_table),
            ("`tracker event show --format json` (a process)", measured["json"]),
        ]
    )
    print()
    print("players: " + ", ".join(f"{k} {n}" for k, n in sorted(statuses.items())))


if __name__ == "__main__":
    main()
