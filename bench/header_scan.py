#!/usr/bin/env python3
"""Count the header blocks ("games") of PGN files, the way the corpus README counts them.

A header block is a run of tag lines (`[Name "value"]`). A new block starts at a tag line
that follows movetext, or at a tag name already given in the block after a blank line (a
game without moves followed by the next game). Blank lines never count as movetext, so a
header block separated from its moves by extra blank lines is still one game. This is an
independent count (plain line loop, no tracker code) to check `tracker.pgn` against.

Usage: python bench/header_scan.py FILE_OR_FOLDER... (plain, .gz, .bz2, .xz)
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
import sys
from pathlib import Path

TAG = re.compile(rb'^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"(?:[^"\\\r\n]|\\.)*"\s*\]')
BOM = b"\xef\xbb\xbf"


def read(path: Path) -> bytes:
    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}.get(path.suffix, open)
    with opener(path, "rb") as f:  # type: ignore[operator]
        data: bytes = f.read()
    return data


def count(data: bytes) -> int:
    blocks = 0
    names: set[bytes] = set()
    in_block = seen_moves = blank = False
    for line in data.replace(BOM, b"").splitlines():
        m = TAG.match(line) if line[:1] == b"[" else None
        if m:
            if not in_block or seen_moves or (blank and m.group(1) in names):
                blocks += 1
                names = set()
                in_block, seen_moves = True, False
            names.add(m.group(1))
            blank = False
        elif line.strip():
            seen_moves = in_block
            blank = False
        else:
            blank = True
    return blocks


def main(argv: list[str]) -> int:
    paths: list[Path] = []
    for arg in argv or ["."]:
        p = Path(arg)
        paths.extend(sorted(q for q in p.iterdir() if ".pgn" in q.name) if p.is_dir() else [p])
    total = 0
    for p in paths:
        n = count(read(p))
        total += n
        print(f"{n:>9,}  {p.name}")
    print(f"{total:>9,}  total ({len(paths)} files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
