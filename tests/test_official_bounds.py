"""`tracker official import` of files that are not lists, in bounded memory; and what a list
holds stored alike on every back-end (issue 34 item 4, issue 35 items 2 and 5).

The memory is the peak RSS of a real `tracker official import` process (os.wait4), into a
database whose players have no FIDE ID, so that the name sieve reads every name.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from tests import listgen
from tests.builders import inserted_id
from tests.conftest import REPO, run_cli
from tracker.store import open_store
from tracker.store.schema import official_ratings, player_names, players

MAX_RSS_MIB = 300
HEADER = listgen.txt_header(listgen.DEFAULT_PERIOD, combined=False).encode() + b"\n"


def _blank_zip(path: Path, head: bytes, mib: int, tail: bytes = b"") -> Path:
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf,
        zf.open("standard_nov25frl.txt", "w", force_zip64=True) as out,
    ):
        out.write(head)
        chunk = b"\n" * (1 << 20)
        for _ in range(mib):
            out.write(chunk)
        out.write(tail)
    return path


def _named_players_db(path: Path) -> str:
    """A database of players known only by name, one of them on every generated list."""
    with open_store(str(path)) as store, store.engine.begin() as conn:
        for name in ("Andersson, C", "Kim, M", "Novák, J", "Nguyen, N"):
            pid = inserted_id(
                conn.execute(insert(players).values(name=name, norm_name=name.lower()))
            )
            conn.execute(insert(player_names).values(norm_name=name.lower(), player_id=pid))
    return str(path)


# A child's peak RSS counts the pages of its parent until it execs: the command is started
# by this small process, not by the test's (which may hold hundreds of MB by then).
MEASURED = (
    "import os, resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[1:])\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "os.write(2, b'peak %d\\n' % peak)\n"
    "sys.exit(code)\n"
)


def _import(folder: Path, *args: str) -> tuple[int, str, float]:
    """`tracker official import ARGS` in a child: exit code, stderr, peak RSS in MiB."""
    proc = subprocess.run(
        [sys.executable, "-c", MEASURED, sys.executable, "-m", "tracker", "official", "import"]
        + list(args),
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=False,
    )
    said = proc.stderr.decode()
    err, peak = said[: said.rindex("peak ")], said[said.rindex("peak ") :].split()
    return proc.returncode, err, int(peak[1]) / 1024


@pytest.mark.slow  # 256 MiB inflated: a few seconds
@pytest.mark.parametrize("header", [True, False], ids=["after-a-header", "no-header"])
def test_a_zip_of_blank_lines_is_read_in_bounded_memory(tmp_path: Path, header: bool) -> None:
    """Issue 35 item 2: a zip of some 260 KB holding 256 MiB of blank lines took 23 GB (the
    name pass split it whole, about 100 bytes a line) and was killed. Blank lines are no
    rows: passed over a block at a time, whatever their number."""
    db = _named_players_db(tmp_path / "t.db")
    path = _blank_zip(tmp_path / "standard_nov25frl.zip", HEADER if header else b"", 256)
    assert path.stat().st_size < 300_000
    code, err, rss = _import(tmp_path, path.name, "--db", db)
    said = (
        "error: standard_nov25frl.zip: no players in the list: is it the right file?\n"
        if header
        else "error: standard_nov25frl.zip: the file is empty: is it the right download?\n"
    )
    assert (code, err) == (2, said)
    assert rss < MAX_RSS_MIB, f"{rss:.0f} MiB"


def test_blank_lines_among_the_rows_cost_no_memory(tmp_path: Path) -> None:
    """The same, smaller and with rows around the blanks (fast): the rows are read, the
    blanks skipped, the peak is the program's own."""
    db = _named_players_db(tmp_path / "t.db")
    rows = listgen.generate(tmp_path / "x.txt", 200, "txt").read_bytes()
    head, _, body = rows.partition(b"\n")
    first, _, rest = body.partition(b"\n")
    path = _blank_zip(tmp_path / "standard_nov25frl.zip", head + b"\n" + first + b"\n", 32, rest)
    code, err, rss = _import(tmp_path, path.name, "--db", db)
    assert (code, err) == (0, "")
    assert rss < 120, f"{rss:.0f} MiB"


# --- issue 35 item 5: one file, one outcome on every back-end ------------------------------


@pytest.mark.databases
def test_a_title_or_federation_no_list_holds_is_a_malformed_row_on_every_database(
    tmp_path: Path,
    db_target: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A <title> or <country> of any length was stored on SQLite and refused by PostgreSQL
    (its columns hold 8 characters): one file, two outcomes. Now the row is malformed on
    both, said with its line; the other rows are stored."""
    monkeypatch.chdir(tmp_path)
    people = list(listgen.players(4, seed=1))
    text = listgen.generate(tmp_path / "x.xml", 4, "xml").read_text(encoding="utf-8")
    title = f"<title>{'GM' * 10}</title>"
    chunks = text.split("</player>")
    chunks[1] = re.sub("<title>[^<]*</title>", title, chunks[1], count=1)
    chunks[2] = chunks[2].replace(
        f"<country>{people[2].federation}</country>", "<country>Federation of Nowhere</country>"
    )
    path = tmp_path / "standard_nov25frl.xml"
    path.write_text("</player>".join(chunks), encoding="utf-8")
    code, out, err = run_cli(
        capsys, monkeypatch, "official", "import", path.name, "--all", "--db", db_target
    )
    assert code == 0, err
    assert out == (
        "standard_nov25frl.xml: 2025-11 (standard): 2 players read; 2 kept (2 new); "
        "1 entry written; an excerpt (FIDE's whole list of 2025-11 has 150,000 rows or more): "
        "the players it lacks keep their earlier rating or Elo tag (--whole if it is the "
        "whole list)\n"
    )
    lines = err.splitlines()
    assert lines[0].startswith("warning: standard_nov25frl.xml:") and lines[0].endswith(
        f": title '{'GM' * 10}' is not a FIDE title; <player> skipped"
    )
    assert lines[1].endswith(
        ": federation 'Federation of Nowher' is not three letters; <player> skipped"
    )
    assert lines[2:] == ["warning: standard_nov25frl.xml: 2 malformed rows skipped"]
    with open_store(db_target) as store, store.engine.connect() as conn:
        stored = sorted(conn.execute(select(players.c.fide_id, players.c.federation)).all())
        titles = {t for (t,) in conn.execute(select(official_ratings.c.title))}
    assert stored == sorted((p.fide_id, p.federation) for p in (people[0], people[3]))
    assert all(t is None or len(t) <= 3 for t in titles)


@pytest.mark.databases
def test_a_name_with_a_nul_byte_is_a_malformed_row_on_every_database(
    tmp_path: Path,
    db_target: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A NUL byte in a TXT list's name was stored on SQLite and refused by PostgreSQL (its
    text holds no NUL), the whole file with it. A control character is in no name FIDE
    prints: the row is malformed on both."""
    monkeypatch.chdir(tmp_path)
    people = list(listgen.players(3, seed=1))
    lines = listgen.generate(tmp_path / "x.txt", 3, "txt").read_bytes().split(b"\n")
    lines[2] = lines[2][:17] + b"\x00" + lines[2][18:]
    (tmp_path / "standard_nov25frl.txt").write_bytes(b"\n".join(lines))
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        "official",
        "import",
        "standard_nov25frl.txt",
        "--all",
        "--db",
        db_target,
    )
    assert code == 0, err
    assert out.startswith("standard_nov25frl.txt: 2025-11 (standard): 2 players read; 2 kept")
    name = people[1].name[:2] + "\x00" + people[1].name[3:]
    assert err == (
        f"warning: standard_nov25frl.txt:3: name {name[:20]!r} holds a control character; "
        "line skipped\n"
        "warning: standard_nov25frl.txt: 1 malformed row skipped\n"
    )
    with open_store(db_target) as store, store.engine.connect() as conn:
        stored = sorted(conn.execute(select(players.c.fide_id)).scalars())
    assert stored == [people[0].fide_id, people[2].fide_id]
