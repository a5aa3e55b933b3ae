#!/usr/bin/env python3
"""Standard history against the player's own Elo tags (issue 13, "Done when").

For each pgnmentor player collection in ../shared/corpus whose player has games dated
--since (2012) or later in the file, as a new user would:

  1. `tracker import FILE --db DB` into a new database (one per file, in --workdir);
  2. `tracker player set NAME --me`, NAME the most frequent White/Black name of the file;
  3. `tracker history --format json` (standard list), with no official entry.

Then, for every standard list month L where the player has a standard Elo tag, compare the
replayed rating of L with that tag. The tag evidence is computed here from the database,
not read from the history rows (a quiet list, with no games and a tag equal to the carried
rating, has no row but counts): the player's own Elo tag in the rated standard games of each
tournament (most common per tournament), by the list in force at the tournament's start:
the tag carried by most of the player's games under L (each tournament's games at its own
tag; the lowest of equals). The list calendar is FIDE's, written
out below (quarterly to 2009, bi-monthly from Jul 2009, monthly from Jul 2012);
tests/test_tags_bench.py keeps it equal to the engine's.

The replayed rating of L is the `rating_after` of the history row of L; without a row (a
quiet list), the `published` of the latest row before L. Lists before the first replayed
row are not compared: the replay starts from the tag there, by construction (and FIDE lists
before 2008 are not replayed at all).

Per file: the tagged lists compared, how many the replay equals exactly, the median and
90th-percentile absolute difference (nearest rank), and the 3 worst lists (replayed minus
tag). Printed as a Markdown table with the date, commit and command; also written to
<workdir>/tags-bench.md, and with --json FILE every compared list.

Usage (from the repository root; offline, a few minutes):
  python bench/tags_bench.py
  python bench/tags_bench.py --files ../shared/corpus/pgnmentor-Carlsen.pgn.xz
The databases stay in --workdir (tags-<name>.db) for `tracker explain PERIOD --db ...`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import lzma
import math
import os
import re
import shlex
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"

Month = tuple[int, int]


# --- FIDE's standard list calendar (independent of the engine; the test compares) ---------


def is_standard_list_month(year: int, month: int) -> bool:
    """Whether FIDE published a standard list that month (2000 on)."""
    if (year, month) >= (2012, 7):
        return True
    if (year, month) >= (2009, 7):
        return month % 2 == 1
    return month in (1, 4, 7, 10)


def list_in_force(day: dt.date) -> Month:
    """The standard list in force on `day` (the latest list dated on or before it)."""
    y, m = day.year, day.month
    while not is_standard_list_month(y, m):
        y, m = (y, m - 1) if m > 1 else (y - 1, 12)
    return y, m


def fmt_month(p: Month) -> str:
    return f"{p[0]:04d}-{p[1]:02d}"


def parse_month(s: str) -> Month:
    y, m = s.split("-")
    return int(y), int(m)


# --- reading the file's headers ------------------------------------------------------------

_TAG = re.compile(r'^\[(White|Black|Date) "(.*)"\]\s*$')


def _open_text(path: Path) -> Iterator[str]:
    with lzma.open(path, "rb") if path.suffix == ".xz" else path.open("rb") as fh:
        for line in fh:
            yield line.decode("utf-8", errors="replace")


@dataclass
class FileScan:
    games: int = 0
    names: Counter[str] = field(default_factory=Counter)
    player: str = ""
    player_games: int = 0
    player_since: int = 0  # games of the player dated --since or later
    last_year: int | None = None
    others_since: Counter[str] = field(default_factory=Counter)  # other spellings, --since on


def scan(path: Path, since: int) -> FileScan:
    """Header blocks of the file: the most frequent name and its games by year."""
    headers: list[dict[str, str]] = []
    cur: dict[str, str] = {}
    in_headers = False
    for line in _open_text(path):
        if line.startswith("["):
            if not in_headers:
                cur = {}
                headers.append(cur)
                in_headers = True
            m = _TAG.match(line.strip("\ufeff"))
            if m:
                cur[m.group(1)] = m.group(2).strip()
        elif line.strip():
            in_headers = False
    out = FileScan(games=len(headers))
    for h in headers:
        for side in ("White", "Black"):
            if h.get(side):
                out.names[h[side]] += 1
    if not out.names:
        return out
    out.player = out.names.most_common(1)[0][0]
    surname = re.split(r"[,\s]", out.player, maxsplit=1)[0].lower()
    for h in headers:
        if out.player not in (h.get("White"), h.get("Black")):
            year = h.get("Date", "")[:4]
            if year.isdigit() and int(year) >= since:
                out.others_since.update(
                    n
                    for n in (h.get("White"), h.get("Black"))
                    if n and re.split(r"[,\s]", n, maxsplit=1)[0].lower() == surname
                )
            continue
        out.player_games += 1
        year = h.get("Date", "")[:4]
        if year.isdigit():
            y = int(year)
            out.last_year = max(out.last_year or y, y)
            if y >= since:
                out.player_since += 1
    return out


# --- the tracker, as a user runs it --------------------------------------------------------


def tracker_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("TRACKER_DB", None)
    return env


def tracker(*args: str, timeout: float = 900.0) -> tuple[str, float]:
    """`tracker ARGS` as a subprocess of this checkout: (stdout, seconds); exit 0 or raise."""
    cmd = [sys.executable, "-m", "tracker", *args]
    t0 = time.perf_counter()
    done = subprocess.run(
        cmd, capture_output=True, text=True, timeout=timeout, env=tracker_env(), cwd=REPO
    )
    took = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(
            f"`tracker {shlex.join(args)}` exited {done.returncode}:\n{done.stderr[-3000:]}"
        )
    return done.stdout, took


# --- the tag evidence, from the database ---------------------------------------------------


def _most_common(values: Iterable[int]) -> int | None:
    """The most common value; the lowest among equals (the engine's rule)."""
    counted = Counter(values)
    if not counted:
        return None
    best = max(counted.values())
    return min(v for v, n in counted.items() if n == best)


def _date(s: object) -> dt.date | None:
    if not s:
        return None
    try:
        return dt.date.fromisoformat(str(s)[:10])
    except ValueError:
        return None


@dataclass
class Evidence:
    tags: dict[Month, int]  # list -> the player's standard tag (most common)
    tournaments: dict[Month, list[tuple[int, str]]]  # list -> (tag, event) per tournament
    standard_games: int


def tag_evidence(db: Path) -> Evidence:
    """The player's (`is_me`) own Elo tags in standard games, per tournament, by the
    standard list in force at the tournament's start (first game date when the tournament
    has none), from 2008 (the first replayed year): rated games, and those of events whose
    name says they are never rated (Basque chess, a simul...), where the organiser printed
    the same FIDE rating (policy TAG_OF_A_NEVER_RATED_EVENT_IS_EVIDENCE)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        (me,) = con.execute("SELECT id FROM players WHERE is_me").fetchone()
        rows = con.execute(
            """SELECT g.tournament_id, t.event, t.start_date, t.end_date, g.date,
                      CASE WHEN g.white_id = :me THEN g.white_elo ELSE g.black_elo END
               FROM games g JOIN tournaments t ON t.id = g.tournament_id
               WHERE (g.white_id = :me OR g.black_id = :me)
                 AND (g.rated OR g.not_rated_reason IN ('variant', 'simul', 'exhibition',
                                                        'consultation', 'blindfold'))
                 AND NOT t.excluded AND COALESCE(t.pinned_list, g.list) = 'standard'""",
            {"me": me},
        ).fetchall()
    finally:
        con.close()
    by_t: dict[int, list[tuple[str, object, object, object, int | None]]] = defaultdict(list)
    for tid, event, start, end, date, elo in rows:
        by_t[tid].append((event, start, end, date, elo))
    tournaments: dict[Month, list[tuple[int, str]]] = defaultdict(list)
    weights: dict[Month, list[int]] = defaultdict(list)
    for gs in by_t.values():
        event = gs[0][0]
        dates = [d for d in (_date(g[3]) for g in gs) if d is not None]
        start = _date(gs[0][1]) or (min(dates) if dates else None)
        end = max([d for d in (_date(gs[0][2]), *dates) if d is not None], default=None)
        if start is not None and end is not None and start > end:
            start = end
        tag = _most_common(g[4] for g in gs if g[4] is not None)
        if start is None or tag is None or start < dt.date(2008, 1, 1):
            continue
        weight = sum(1 for g in gs if g[4] == tag)
        tournaments[list_in_force(start)].append((tag, event))
        weights[list_in_force(start)].extend([tag] * weight)
    # The list's tag: the one most of the player's rated games under it carry (the lowest
    # of equals), each tournament's games counted at that tournament's own tag.
    tags = {p: t for p, ws in weights.items() if (t := _most_common(ws)) is not None}
    return Evidence(tags, dict(tournaments), len(rows))


# --- the comparison ------------------------------------------------------------------------


@dataclass
class Compared:
    period: Month
    tag: int
    replayed: int
    row: bool  # False: a quiet list (no history row), the carried rating
    row_tag: int | None  # the row's elo_tag (a check of the evidence above)

    @property
    def diff(self) -> int:
        return self.replayed - self.tag


@dataclass
class FileResult:
    file: str
    player: str
    games: int
    standard_games: int
    rows: int
    compared: list[Compared]
    before_first: int  # tagged lists before the first replayed row (not compared)
    no_rating: int  # tagged lists whose replayed rating is unknown
    tag_disagreements: list[str]  # lists where the row's elo_tag is not the evidence here
    mixed: int  # lists whose tournaments' tags disagree with each other
    seconds: float


def nearest_rank(values: list[int], q: float) -> int:
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def compare(
    history: list[dict[str, object]], ev: Evidence
) -> tuple[list[Compared], int, int, list[str]]:
    rows = sorted((parse_month(str(r["period"])), r) for r in history)
    for p, _ in rows:
        if not is_standard_list_month(*p):
            raise SystemExit(
                f"history row {fmt_month(p)} is not a standard list month here: "
                "the calendar in bench/tags_bench.py is out of date"
            )
    by_period = dict(rows)
    periods = [p for p, _ in rows]
    out: list[Compared] = []
    before = no_rating = 0
    disagree: list[str] = []
    for p in sorted(ev.tags):
        tag = ev.tags[p]
        if not periods or p < periods[0]:
            before += 1
            continue
        row = by_period.get(p)
        if row is not None:
            replayed = row.get("rating_after")
            rt = row.get("elo_tag")
            row_tag = rt if isinstance(rt, int) else None
            if row_tag != tag:
                disagree.append(f"{fmt_month(p)} (row {row_tag}, games {tag})")
        else:
            latest = max(q for q in periods if q < p)
            replayed = by_period[latest].get("published")
            row_tag = None
        if not isinstance(replayed, int):
            no_rating += 1
            continue
        out.append(Compared(p, tag, replayed, row is not None, row_tag))
    return out, before, no_rating, disagree


def run_file(path: Path, sc: FileScan, workdir: Path) -> FileResult:
    stem = path.name.split(".")[0]
    db = workdir / f"tags-{stem.removeprefix('pgnmentor-')}.db"
    for extra in ("", "-wal", "-shm", "-journal"):
        Path(str(db) + extra).unlink(missing_ok=True)
    _, t_import = tracker("import", str(path), "--db", str(db))
    _, t_set = tracker("player", "set", sc.player, "--me", "--db", str(db))
    out, t_hist = tracker("history", "--list", "standard", "--format", "json", "--db", str(db))
    history = json.loads(out)
    ev = tag_evidence(db)
    compared, before, no_rating, disagree = compare(history, ev)
    mixed = sum(1 for ts in ev.tournaments.values() if len({t for t, _ in ts}) > 1)
    return FileResult(
        path.name,
        sc.player,
        sc.games,
        ev.standard_games,
        len(history),
        compared,
        before,
        no_rating,
        disagree,
        mixed,
        t_import + t_set + t_hist,
    )


# --- output --------------------------------------------------------------------------------


def _worst(cs: list[Compared], n: int = 3) -> str:
    bad = sorted((c for c in cs if c.diff), key=lambda c: (-abs(c.diff), c.period))[:n]
    return ", ".join(f"{fmt_month(c.period)} {c.diff:+d}" for c in bad) or "-"


def _stats(cs: list[Compared]) -> tuple[str, str, str, str]:
    if not cs:
        return "0", "-", "-", "-"
    equal = sum(1 for c in cs if c.diff == 0)
    diffs = [abs(c.diff) for c in cs]
    med = statistics.median(diffs)
    med_s = f"{med:g}"
    return (f"{equal}", f"{100 * equal / len(cs):.0f}%", med_s, f"{nearest_rank(diffs, 0.9)}")


def table(results: list[FileResult]) -> list[str]:
    lines = [
        "| file | player | tagged lists | equal | equal % | median abs. diff. "
        "| p90 abs. diff. | worst 3 (replayed - tag) |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    everything: list[Compared] = []
    for r in results:
        equal, pct, med, p90 = _stats(r.compared)
        lines.append(
            f"| {r.file} | {r.player} | {len(r.compared)} | {equal} | {pct} | {med} "
            f"| {p90} | {_worst(r.compared)} |"
        )
        everything += r.compared
    equal, pct, med, p90 = _stats(everything)
    files = f"{len(results)} file" + ("s" if len(results) != 1 else "")
    lines.append(
        f"| **total** ({files}) | | {len(everything)} | {equal} | {pct} | {med} | {p90} | |"
    )
    return lines


def details(results: list[FileResult]) -> list[str]:
    lines = [
        "| file | games | rated standard games of the player | history rows "
        "| compared: with a row / quiet | tagged before the first row | tournaments' tags "
        "disagree | row tag differs | seconds |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        with_row = sum(1 for c in r.compared if c.row)
        lines.append(
            f"| {r.file} | {r.games:,} | {r.standard_games:,} | {r.rows} "
            f"| {with_row} / {len(r.compared) - with_row} | {r.before_first} | {r.mixed} "
            f"| {len(r.tag_disagreements)} | {r.seconds:.1f} |"
        )
    return lines


def git_commit() -> str:
    """The commit, and whether the engine's files differ from it in the working tree."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=30,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "tracker", "migrations"],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=30,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not head:
        return "unknown"
    return head + (" with uncommitted changes in tracker/" if dirty.strip() else "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--corpus",
        type=Path,
        default=CORPUS,
        help="folder of pgnmentor-*.pgn[.xz] files (default ../shared/corpus)",
    )
    ap.add_argument(
        "--files",
        type=Path,
        nargs="+",
        default=None,
        help="these files instead of the corpus's pgnmentor files",
    )
    ap.add_argument(
        "--since",
        type=int,
        default=2012,
        help="keep files whose player has games dated this year or later",
    )
    ap.add_argument(
        "--workdir", type=Path, default=Path(tempfile.gettempdir()) / "tracker-bench" / "tags"
    )
    ap.add_argument("--json", type=Path, default=None, help="write every compared list here")
    args = ap.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    files = args.files or sorted(
        p for p in args.corpus.glob("pgnmentor-*.pgn*") if p.suffix in (".pgn", ".xz")
    )
    if not files:
        raise SystemExit(f"no pgnmentor-*.pgn[.xz] files in {args.corpus}")
    command = "python bench/tags_bench.py" + (
        " " + shlex.join(sys.argv[1:]) if argv is None and sys.argv[1:] else ""
    )
    started = dt.datetime.now(dt.UTC)
    results: list[FileResult] = []
    skipped: list[str] = []
    for path in files:
        sc = scan(path, args.since)
        if sc.player_since == 0:
            other = ", ".join(f"{n} {k}" for n, k in sc.others_since.most_common(2))
            skipped.append(
                f"{path.name} ({sc.player or 'no names'}: last game "
                f"{sc.last_year or '?'}"
                + (f"; dated {args.since} or later only as {other}" if other else "")
                + ")"
            )
            continue
        print(
            f"{path.name}: {sc.player}, {sc.player_games:,} of {sc.games:,} games, "
            f"{sc.player_since:,} dated {args.since} or later",
            file=sys.stderr,
            flush=True,
        )
        results.append(run_file(path, sc, args.workdir))
    took = (dt.datetime.now(dt.UTC) - started).total_seconds()
    lines = [
        "## Standard history against the player's own Elo tags",
        "",
        f"{started:%Y-%m-%d %H:%M} UTC, commit {git_commit()}, `{command}` "
        f"({took:.0f} s). Each file imported into a new database, its most frequent name "
        "marked `--me`, no official entry; the replayed rating of every standard list where "
        "the player has a standard Elo tag (rated standard games of the tournaments that "
        "started under it; quiet lists without a history row count, at the carried rating) "
        "against that tag. Lists before the first replayed period are not compared.",
        "",
        *table(results),
        "",
    ]
    if skipped:
        lines += [
            f"Not measured (no game of the player dated {args.since} or later): "
            + ", ".join(skipped)
            + ".",
            "",
        ]
    lines += [*details(results), ""]
    for r in results:
        if r.tag_disagreements:
            lines.append(
                f"- {r.file}: the history row's elo_tag differs from the tag "
                "evidence read here: "
                + ", ".join(r.tag_disagreements[:5])
                + (" ..." if len(r.tag_disagreements) > 5 else "")
            )
    text = "\n".join(lines).rstrip() + "\n"
    print(text, end="")
    (args.workdir / "tags-bench.md").write_text(text, encoding="utf-8")
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                [
                    {
                        "file": r.file,
                        "player": r.player,
                        "before_first": r.before_first,
                        "lists": [
                            {
                                "period": fmt_month(c.period),
                                "tag": c.tag,
                                "replayed": c.replayed,
                                "difference": c.diff,
                                "row": c.row,
                                "row_tag": c.row_tag,
                            }
                            for c in r.compared
                        ],
                    }
                    for r in results
                ],
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
