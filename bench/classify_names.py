#!/usr/bin/env python3
"""Every distinct event and round name of PGN files, read by tracker.fide.eventnames: the list
and the never-rated reason of each, and the diff against another checkout's reading.

A change to the name reading must not turn an event that is read right into one read wrong;
this prints every event whose reading changed, with its games, rounds and dates, to be judged
by hand. The other checkout is a `git worktree` of an older commit, run with its own code
(PYTHONPATH) in a child process. Plain line loop over the tag lines (no tracker.pgn).

Usage: python bench/classify_names.py [--base /tmp/cls-base] [--json OUT] FILE_OR_FOLDER...
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

TAG = re.compile(rb'^\[(Event|Round|Date|TimeControl)\s+"((?:[^"\\\r\n]|\\.)*)"\s*\]')


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def games(paths: list[Path]) -> list[dict[str, str]]:
    """The Event, Round, Date and TimeControl tags of every game (a game starts at Event)."""
    found: list[dict[str, str]] = []
    for path in paths:
        opener: Any = lzma.open if path.suffix == ".xz" else open
        with opener(path, "rb") as f:
            data: bytes = f.read()
        game: dict[str, str] = {}
        for line in data.replace(b"\xef\xbb\xbf", b"").splitlines():
            m = TAG.match(line) if line[:1] == b"[" else None
            if not m:
                continue
            name = m.group(1).decode()
            if name == "Event":
                game = {"file": path.name}
                found.append(game)
            game[name] = _text(m.group(2)).strip()
    return found


def readings(pairs: list[tuple[str, str]]) -> list[tuple[str | None, ...]]:
    """(list, reason, time control) of each (event, round) pair, by the tracker importable
    here; the time control is one written in the name that the players' ratings judge."""
    from tracker.fide.eventnames import name_kind, name_signals

    out: list[tuple[str | None, ...]] = []
    for event, round_ in pairs:
        ev, rd = name_signals(event), name_signals(round_ or None)
        kind = name_kind(ev, rd)
        tc = getattr(rd, "time_control", None) or getattr(ev, "time_control", None)
        lst = kind.rating_list.value if kind.rating_list else None
        out.append((lst, kind.not_rated, None if kind.rating_list or kind.not_rated else tc))
    return out


def _base_readings(base: Path, pairs: list[tuple[str, str]]) -> list[list[str | None]]:
    env = dict(os.environ, PYTHONPATH=str(base))
    proc = subprocess.run(
        [sys.executable, __file__, "--child"],
        input=json.dumps(pairs),
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=base,
    )
    result: list[list[str | None]] = json.loads(proc.stdout)
    return result


def _show(kind: tuple[str | None, ...] | list[str | None]) -> str:
    lst, reason, tc = kind
    return f"{lst or '-'}{'/' + reason if reason else ''}{' TC ' + tc if tc else ''}"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--base", type=Path, help="another checkout (a git worktree)")
    ap.add_argument("--json", type=Path, help="write every reading here")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(readings([tuple(p) for p in json.load(sys.stdin)])))
        return 0
    paths: list[Path] = []
    for p in args.paths or [Path("../shared/corpus")]:
        paths.extend(sorted(q for q in p.iterdir() if ".pgn" in q.name) if p.is_dir() else [p])
    rows = games(paths)
    by_pair: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
    for g in rows:
        by_pair[(g.get("Event", ""), g.get("Round", ""))].append(g)
    pairs = sorted(by_pair)
    now = readings(pairs)
    events = {e for e, _ in pairs}
    print(f"{len(rows)} games, {len(events)} events, {len(pairs)} event/round pairs")
    if args.json:
        args.json.write_text(
            json.dumps([[e, r, *k] for (e, r), k in zip(pairs, now, strict=True)], indent=0)
        )
    if not args.base:
        return 0
    before = _base_readings(args.base, pairs)
    changed: dict[str, list[tuple[str, Any, Any]]] = defaultdict(list)
    for (event, round_), old, new in zip(pairs, before, now, strict=True):
        if tuple(old) != tuple(new):
            changed[event].append((round_, old, new))
    print(f"{len(changed)} events changed\n")
    for event in sorted(changed):
        per = changed[event]
        n = sum(len(by_pair[(event, r)]) for r, _, _ in per)
        all_games = [g for (e, _), gs in by_pair.items() if e == event for g in gs]
        dates = sorted({g.get("Date", "?") for g in all_games})
        tcs = sorted({g["TimeControl"] for g in all_games if g.get("TimeControl")})
        files = sorted({g["file"] for g in all_games})
        moves = ", ".join(
            f"{a} -> {b}" for a, b in sorted({(_show(o), _show(k)) for _, o, k in per})
        )
        rounds = sorted({r for r, _, _ in per})
        more = " ..." if len(rounds) > 8 else ""
        print(f"{event!r}: {n} of {len(all_games)} games  {moves}")
        print(f"    rounds {rounds[:8]}{more}; dates {dates[0]}..{dates[-1]} ({len(dates)} days)")
        print(f"    {', '.join(files)}{'; TimeControl ' + ','.join(tcs) if tcs else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
