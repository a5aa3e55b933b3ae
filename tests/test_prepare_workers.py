"""What the import's workers change in the preparer (tracker.importer.prepare and batches):
one Preparer for all the parts of a worker, and the shortcuts of the rules' first-seen work
(the online words, today's date). Each gives the values the definition gives."""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import REPO, corpus_files, decompressed
from tracker.importer import prepare
from tracker.importer.prepare import Preparer
from tracker.pgn import read_games

SAMPLES = REPO / "sample_pgns"


def _run(script: str, *args: str) -> str:
    """`script` in a new interpreter (what it changes stays there), with this process's
    TRACKER_PURE_PYTHON: its standard output."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _samples() -> list[str]:
    return sorted(str(p) for p in SAMPLES.glob("*.pgn"))


def _pgn_files() -> list[str]:
    """The sample season's plain files and three corpus files (where ../shared is)."""
    return _samples() + [str(p) for p in corpus_files()[:3]]


@pytest.mark.slow  # import workers (processes)
def test_a_part_worker_keeps_its_preparer_and_makes_the_same_batches(tmp_path: Path) -> None:
    # Both workers of a file cut in many parts, run here with a list for their pipe: one
    # Preparer each (a new one after a part that left more than MEMO_ENTRIES in its memo
    # dicts), and their batches (in file order) are those of the whole file read in one
    # pass.
    data = b"".join(Path(f).read_bytes() for f in _samples())
    pgn = tmp_path / "season.pgn"
    pgn.write_bytes(data * 4)
    script = """
        import marshal, os, sys, json
        from tracker.importer import batches
        from tracker.importer.contract import ImportOptions
        from tracker.pgn import read_games
        from tracker.pgn.scan import game_cuts

        name = sys.argv[1]
        class Source:
            def __init__(self): self.name = name
            def open(self): return open(name, "rb")
        class Pipe:
            def __init__(self): self.items = []
            def send_bytes(self, b): self.items.append(marshal.loads(b) if b else None)
            def close(self): pass
        def whole():
            return [(list(map(tuple, b.games)), *b[1:5])
                    for b in batches._batches(Source(), read_games, ImportOptions())]
        expected = whole()
        made = []
        real = batches.Preparer
        def counted(*args):
            made.append(1)
            return real(*args)
        batches.Preparer = counted
        batches.MEMO_ENTRIES = int(sys.argv[2])
        with open(name, "rb") as f:
            cuts = game_cuts(f, os.fstat(f.fileno()).st_size, 3000)
        pipes = [Pipe(), Pipe()]
        for which in (0, 1):
            batches._part_worker(Source(), ImportOptions(), cuts, which, pipes[which], [])
        parts = [[], []]
        for which, pipe in enumerate(pipes):
            part = []
            for item in pipe.items:
                if item is None:
                    parts[which].append(part)
                    part = []
                else:
                    part.append(item)
        got = []
        for i in range(len(cuts) - 1):
            got.extend(parts[i % 2][i // 2])
        games = [g for b in got for g in b[0]]
        assert games == [g for b in expected for g in b[0]]
        assert sum(b[1] for b in got) == sum(b[1] for b in expected)
        assert [p for b in got for p in b[3]] == [p for b in expected for p in b[3]]
        print(json.dumps([len(cuts) - 1, len(made), len(games)]))
    """
    parts, preparers, games = json.loads(_run(script, str(pgn), "40000"))
    assert parts > 10 and preparers == 2 and games > 150
    # MEMO_ENTRIES 0: a new Preparer after each part (as before issue 18's work), the same
    # batches
    parts, preparers, games = json.loads(_run(script, str(pgn), "0"))
    assert preparers == 2 + parts


def _with_random_case(rng: random.Random, text: str) -> str:
    return "".join(c.upper() if rng.random() < 0.5 else c for c in text)


def test_the_online_words_in_lower_case_are_the_ignorecase_pattern() -> None:
    # For ASCII texts `_found` searches the lower-case text with the pattern compiled
    # without IGNORECASE: the same answer as the IGNORECASE pattern, for the words in any
    # case, glued to letters, digits and punctuation, for every pair of ASCII characters
    # and for the events and sites of the sample season and the corpus.
    rng = random.Random(7)
    words = [
        "lichess",
        "chess.com",
        "freechess",
        "fics",
        "chessclub.com",
        "internet",
        "internet chess club",
        "icc",
        "playchess",
        "chess24",
        "chesstempo",
        "tornelo",
        "online",
        "chess",
        "club",
        "int",
        "line",
    ]
    around = ["", " ", ".", "-", "_", "x", "1", "/", "www.", "(", "'", "\t"]
    texts = [chr(a) + chr(b) for a in range(128) for b in range(128)]
    for _ in range(20_000):
        texts.append(
            rng.choice(around)
            + _with_random_case(rng, rng.choice(words))
            + rng.choice(around)
            + rng.choice(["", _with_random_case(rng, rng.choice(words))])
        )
    for f in _pgn_files():
        for g in read_games(io.BytesIO(decompressed(Path(f))), f):
            texts += [g.tags.get("Event", ""), g.tags.get("Site", "")]
    texts += ["Lİchess", "ONLİNE", "Chesſ.com", "internet\u212a"]  # not ASCII: IGNORECASE
    for pattern, lower in (
        (prepare._ONLINE_RE, prepare._ONLINE_LOWER),
        (prepare._ONLINE_EVENT_RE, prepare._ONLINE_EVENT_LOWER),
    ):
        found = 0
        for text in texts:
            expected = pattern.search(text) is not None
            assert prepare._found(pattern, lower, text) is expected, (pattern.pattern, text)
            found += expected
        assert 1000 < found < len(texts) - 1000


def test_after_today_is_a_date_after_today_whatever_the_order() -> None:
    today = dt.date.today()
    days = [today + dt.timedelta(days=d) for d in (-400, -1, 0, 1, 2, 365)]
    days += [dt.date.min, dt.date.max]
    rng = random.Random(3)
    for _ in range(50):
        p = Preparer()
        for day in rng.sample(days, len(days)) * 2:
            assert p._after_today(day) is (day > dt.date.today())
