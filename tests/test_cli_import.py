"""`tracker import|imports|players|player merge|player set|db upgrade` through the entry point.

In process (fast) for output and errors; in subprocesses for what needs real processes: a
kill in the middle of an import, and two imports into one database at the same time.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from tests.builders import sample_season_db
from tests.conftest import SAMPLES, dump_db, run_cli, subprocess_env, tracker_command
from tests.test_import import pgn, write
from tracker.store import Store, open_store
from tracker.store.players import list_players
from tracker.store.schema import games, imports, player_merges, players


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)


def test_import_report_and_reimport(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tmp_path / "a.pgn",
        pgn(Round="1"),
        pgn(Round="2", Result="*"),
        pgn(Round="3", Result="draw"),
    )
    code, out, err = run(capsys, monkeypatch, "import", "a.pgn")
    assert code == 0, err
    assert out.splitlines() == [
        "a.pgn: 3 games read, 2 added, 1 skipped, 1 problem",
        "1 file, 3 games read, 2 added, 0 duplicates skipped, 1 game not stored (problems), "
        "1 problem",
        "not counted for rating: unfinished 1",
        "no time control: 2 games put on a list by assumption (standard, or blitz/rapid when "
        "the event name says so); --list states it",
    ]
    assert err.startswith("warning: a.pgn:21: unknown result 'draw'")
    assert (tmp_path / "tracker.db").exists()
    code, out, err = run(capsys, monkeypatch, "import", "a.pgn", "--quiet")
    assert code == 0
    assert out.splitlines()[0] == (
        "1 file, 0 games read, 0 added, 0 duplicates skipped, 1 already imported, 0 problems"
    )
    code, out, _ = run(capsys, monkeypatch, "import", "a.pgn")
    assert "a.pgn: already imported on " in out and "nothing added" in out


def test_import_list_option_and_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "r.pgn", pgn(WhiteFideId="99012345"))
    code, out, err = run(
        capsys, monkeypatch, "import", "r.pgn", "--list", "rapid", "--player", "99012345"
    )
    assert code == 0, err
    assert "no time control: 1 game put on the rapid list (--list)" in out
    assert out.splitlines()[-1] == "tracked player: Novak, Jan (FIDE ID 99012345)"
    code, out, _ = run(capsys, monkeypatch, "players", "--format", "json")
    data = json.loads(out)
    novak = next(p for p in data if p["name"] == "Novak, Jan")
    assert novak["me"] is True and novak["games"] == {"standard": 0, "rapid": 1, "blitz": 0}


@pytest.mark.parametrize(
    "args,message,exit_code",
    [
        (["nope.pgn"], "error: no such file or folder: nope.pgn", 2),
        (["empty"], "error: folder empty holds no PGN files", 2),
        (["a.pgn", "--list", "bullet"], "error: unknown list 'bullet'", 2),
        (["bin.pgn"], "error: the file could not be imported", 1),
        (["bad.pgn", "--strict"], "error: bad.pgn:11: unknown result", 2),
    ],
)
def test_import_errors_are_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
    exit_code: int,
) -> None:
    (tmp_path / "empty").mkdir()
    write(tmp_path / "a.pgn", pgn())
    write(tmp_path / "bad.pgn", pgn(), pgn(Result="2-0"))
    (tmp_path / "bin.pgn").write_bytes(bytes(range(256)) * 8)
    code, _, err = run(capsys, monkeypatch, "import", *args)
    assert code == exit_code
    last = err.strip().splitlines()[-1]
    assert last.startswith(message), err
    assert "Traceback" not in err


def test_imports_and_players_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(capsys, monkeypatch, "imports")  # no database: not made empty
    assert code == 1 and "tracker.db does not exist" in err
    run(capsys, monkeypatch, "db", "upgrade")
    code, out, _ = run(capsys, monkeypatch, "imports")
    assert code == 0 and "no imports yet" in out
    write(tmp_path / "a.pgn", pgn(Round="1"), pgn(Round="1"))
    run(capsys, monkeypatch, "import", "a.pgn")
    code, out, _ = run(capsys, monkeypatch, "imports", "--format", "json")
    (row,) = json.loads(out)
    assert (row["source"], row["games_read"], row["games_added"], row["duplicates"]) == (
        "a.pgn",
        2,
        1,
        1,
    )
    code, out, _ = run(capsys, monkeypatch, "imports")
    assert "a.pgn" in out
    code, out, _ = run(capsys, monkeypatch, "players", "--search", "svob")
    assert "Svoboda, Petr" in out and "Novak" not in out
    code, out, _ = run(capsys, monkeypatch, "players", "--search", "zzz")
    assert code == 0 and "no player matches 'zzz'" in out


def test_player_merge_and_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tmp_path / "a.pgn", pgn(Round="1", WhiteFideId="99012345"), pgn(Round="2", White="Novak,J")
    )
    run(capsys, monkeypatch, "import", "a.pgn")
    code, out, err = run(capsys, monkeypatch, "player", "merge", "99012345", "Novak,J")
    assert code == 0, err
    assert out.strip() == (
        "merged Novak,J into Novak, Jan (FIDE ID 99012345) as merge 1; `tracker player "
        "unmerge --merge 1` undoes it"
    )
    code, out, err = run(
        capsys,
        monkeypatch,
        "player",
        "set",
        "Novak,J",
        "--me",
        "--birth-year",
        "2009",
        "--no-ever-2400",
    )
    assert code == 0, err
    assert out.strip() == (
        "Novak, Jan (FIDE ID 99012345): tracked player, born 2009, never rated 2400 or more"
    )
    code, _, err = run(capsys, monkeypatch, "player", "set", "Novak")
    assert code == 2 and err.startswith("error: nothing to set")
    code, _, err = run(capsys, monkeypatch, "player", "merge", "Novak", "Svoboda")
    assert code == 2 and "played each other" in err
    code, _, err = run(capsys, monkeypatch, "player", "set", "Nobody", "--me")
    assert code == 2 and err.startswith("error: no player matches 'Nobody'")


def test_db_upgrade(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, monkeypatch, "db", "upgrade", "--db", "x.db")
    assert code == 0 and out.startswith("x.db: schema upgraded from empty to ")
    code, out, _ = run(capsys, monkeypatch, "db", "upgrade", "--db", "x.db")
    assert code == 0 and "is current" in out


def test_sample_season_imports_and_again_adds_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if not SAMPLES.is_dir():
        pytest.skip("sample_pgns/ not there yet")
    code, out, err = run(capsys, monkeypatch, "import", str(SAMPLES), "--quiet")
    assert code == 0, err
    first = out.splitlines()[0]
    assert ", 0 duplicates skipped" in first or "duplicates skipped" in first
    code, out, err = run(capsys, monkeypatch, "import", str(SAMPLES), "--quiet")
    assert code == 0, err
    assert " 0 added, 0 duplicates skipped" in out.splitlines()[0]
    assert "0 games read" in out.splitlines()[0]


# --- real processes ---------------------------------------------------------------------


def _big(path: Path, games: int, tag: str) -> Path:
    """A PGN of `games` distinct games (quick to write, slow enough to import)."""
    with path.open("w", encoding="utf-8") as fh:
        for i in range(games):
            fh.write(
                pgn(
                    Event=f"{tag} {i // 500}",
                    Round=str(i),
                    White=f"{tag}W{i % 997}",
                    Black=f"{tag}B{i % 991}",
                    WhiteElo=str(1500 + i % 900),
                )
            )
    return path


def _count(db: Path, sql: str) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute(sql).fetchone()[0])
    finally:
        con.close()


@pytest.mark.slow
def test_killed_import_leaves_the_database_as_before_that_file(tmp_path: Path) -> None:
    small = write(tmp_path / "small.pgn", pgn(Round="1"), pgn(Round="2"))
    big = _big(tmp_path / "big.pgn", 60_000, "K")  # ~13 MB: seconds even on a fast machine
    db = tmp_path / "k.db"
    with subprocess.Popen(
        tracker_command("import", str(small), str(big), "--db", str(db), "--quiet"),
        env=subprocess_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    ) as proc:  # the exit closes its stderr
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if db.exists():
                try:
                    if _count(db, "SELECT count(*) FROM imports WHERE finished_at IS NOT NULL"):
                        break
                except sqlite3.OperationalError:  # not created yet, or locked a moment
                    pass
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.05)
        time.sleep(0.2)  # into the big file
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the import finished before the kill"
    # The database opens (the command line works on it) and holds exactly the small file.
    out = subprocess.run(
        tracker_command("imports", "--format", "json", "--db", str(db)),
        env=subprocess_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    assert [r["source"] for r in json.loads(out.stdout)] == [str(small)]
    assert _count(db, "SELECT count(*) FROM games") == 2
    assert _count(db, "SELECT count(*) FROM imports") == 1
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    # And the small file is still known as imported.
    again = subprocess.run(
        tracker_command("import", str(small), "--db", str(db)),
        env=subprocess_env(),
        capture_output=True,
        text=True,
    )
    assert again.returncode == 0 and "already imported" in again.stdout, again.stderr


@pytest.mark.slow
def test_two_imports_into_one_database_at_once(tmp_path: Path) -> None:
    a = _big(tmp_path / "a.pgn", 3_000, "A")
    b = _big(tmp_path / "b.pgn", 3_000, "B")
    both = write(tmp_path / "both.pgn", pgn(Round="x1"), pgn(Round="x2"))
    db = tmp_path / "c.db"
    subprocess.run(
        tracker_command("db", "upgrade", "--db", str(db)),
        env=subprocess_env(),
        check=True,
        capture_output=True,
    )
    procs = [
        subprocess.Popen(
            tracker_command("import", str(f), str(both), "--db", str(db), "--quiet"),
            env=subprocess_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for f in (a, b)
    ]
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
    assert _count(db, "SELECT count(*) FROM games") == 6_002
    # both.pgn landed once; the other process saw it as already imported.
    assert _count(db, "SELECT count(*) FROM imports") == 3
    assert _count(db, "SELECT count(DISTINCT norm_name) FROM players") == _count(
        db, "SELECT count(*) FROM players"
    )


# --- issue 19: closed pipe, limits, bad folder entries -----------------------------------


@pytest.mark.slow  # tracker in a subprocess
def test_an_import_whose_output_closes_goes_on_and_says_so(tmp_path: Path) -> None:
    """`tracker import season.tar.gz | head -1` stopped after 2 of 14 files, exit 1, without a
    word (rich's SystemExit on a broken pipe). Decided: the import goes on to the end and
    says so on stderr; the exit code is the import's. The pipe's reading end is closed
    before the first line is written (a real pipe, a real process)."""
    import tarfile

    season = tmp_path / "season.tar.gz"
    with tarfile.open(season, "w:gz") as tf:
        for i in range(14):
            f = write(tmp_path / f"r{i:02}.pgn", pgn(Round=str(i)), pgn(Round=f"{i}b"))
            tf.add(f, arcname=f.name)
    db = tmp_path / "p.db"
    read_end, write_end = os.pipe()
    os.close(read_end)  # like `head -1` gone: every write to stdout fails (EPIPE)
    try:
        proc = subprocess.run(
            tracker_command("import", str(season), "--db", str(db)),
            env=subprocess_env(),
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == (
        "note: standard output was closed before the end (a `| head`?); the import went on: "
        "14 files of 14 stored or already imported, 28 games added (`tracker imports` lists "
        "them)\n"
    )
    assert _count(db, "SELECT count(*) FROM games") == 28
    assert _count(db, "SELECT count(*) FROM imports WHERE finished_at IS NOT NULL") == 14


def test_a_decompression_bomb_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 5: 24 MiB of zeros in a 200-byte .bz2 (the real one: 100 GiB, 47 minutes)."""
    import bz2

    from tests.conftest import dump_db

    write(tmp_path / "a.pgn", pgn(Round="1"))
    (tmp_path / "zeros.pgn.bz2").write_bytes(bz2.compress(bytes(24 << 20)))
    code, _, err = run(capsys, monkeypatch, "import", "a.pgn")
    assert code == 0, err
    before = dump_db(tmp_path / "tracker.db")
    code, out, err = run(capsys, monkeypatch, "import", "zeros.pgn.bz2")
    assert (code, out, err) == (
        2,
        "",
        (
            "error: zeros.pgn.bz2: decompresses to over 1,000 times its size: refused as a "
            "decompression bomb; if the file is genuine, raise --max-ratio\n"
        ),
    )
    assert dump_db(tmp_path / "tracker.db") == before
    # Raised, the limit lets it through: zeros are no games (and that is said as for any file).
    code, out, err = run(
        capsys, monkeypatch, "import", "zeros.pgn.bz2", "--max-ratio", "1000000", "--quiet"
    )
    assert code == 1 and err.endswith(
        "error: the file could not be imported (nothing of it was stored): zeros.pgn.bz2\n"
    ), (out, err)


def test_max_size_stops_the_run_at_the_file_past_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gzip

    (tmp_path / "games").mkdir()
    write(tmp_path / "games" / "a.pgn", pgn(Round="a"))
    big = "".join(pgn(Round=str(i)) for i in range(12_000)).encode()  # 2.3 MB
    (tmp_path / "games" / "b.pgn.gz").write_bytes(gzip.compress(big))
    write(tmp_path / "games" / "c.pgn", pgn(Round="c"))
    code, out, err = run(capsys, monkeypatch, "import", "games", "--max-size", "1M")
    assert code == 2
    assert out == "games/a.pgn: 1 game read, 1 added\n"
    assert err == (
        "error: games/b.pgn.gz: more than 1M once decompressed: refused (a "
        "decompression bomb?); if the file is genuine, raise --max-size\n"
    )
    code, out, err = run(capsys, monkeypatch, "import", "games", "--max-size", "3M", "--quiet")
    assert code == 0 and out.startswith(
        "3 files, 12,001 games read, 12,001 added, 0 duplicates skipped, 1 already imported"
    ), (out, err)
    code, out, err = run(capsys, monkeypatch, "import", "games", "--max-size", "lots")
    assert (code, out) == (2, "") and err == (
        "error: --max-size 'lots' is not a size: give bytes, or a number with K, M, G or T "
        "(for example 20G)\n"
    )


def test_standard_input_past_max_size_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 5: `cat /dev/zero | tracker import -` spooled until the disk was full."""
    import io
    import sys

    import tracker.files.spool as spool

    class FakeStdin:
        buffer = io.BytesIO(bytes(3 << 20))

    monkeypatch.setattr(sys, "stdin", FakeStdin())
    monkeypatch.setattr(spool, "_STDIN", None)
    code, out, err = run(capsys, monkeypatch, "import", "-", "--max-size", "2M")
    assert (code, out, err) == (
        2,
        "",
        (
            "error: standard input holds more than 2M: refused (nothing of it was imported); if "
            "it is genuine, raise --max-size or name the file instead\n"
        ),
    )
    assert (
        not (tmp_path / "tracker.db").exists()
        or _count(tmp_path / "tracker.db", "SELECT count(*) FROM games") == 0
    )


def test_a_folder_with_bad_entries_imports_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 9: a damaged .zip or a dangling link stopped the whole folder (nothing imported),
    a link loop was an internal error (exit 3)."""
    from tests.test_sources import bad_folder

    bad_folder(tmp_path)
    code, out, err = run(capsys, monkeypatch, "import", "games")
    assert code == 1 and "internal error" not in err, err
    assert out.splitlines()[:6] == [
        "games/a.pgn: 1 game read, 1 added",
        "games/damaged.zip: not imported: games/damaged.zip is not a readable zip archive (File "
        "is not a zip file)",
        "games/dangling.pgn: not imported: games/dangling.pgn is a symbolic link to "
        f"{tmp_path}/games/gone.pgn, which does not exist; fix or remove the link",
        "games/loop.pgn: not imported: games/loop.pgn is a symbolic link that leads back to "
        "itself (a loop); fix or remove the link",
        "games/photos.zip: not imported: games/photos.zip holds no .pgn file; name a zip with "
        "PGN inside",
        "games/sub/b.pgn: 1 game read, 1 added",
    ]
    assert err.endswith(
        "error: 4 of 6 files could not be imported (nothing of them was "
        "stored): games/damaged.zip, games/dangling.pgn, games/loop.pgn, "
        "games/photos.zip\n"
    )
    assert _count(tmp_path / "tracker.db", "SELECT count(*) FROM games") == 2


# --- issue 19 item 7: names reach the terminal escaped --------------------------------------

HOSTILE_NAME = "Evil\x1b]0;pwned\x07\x1b[2J\u202eX\x85Y\x08"  # retitle, clear, RLO, C1, BS
SHOWN_NAME = r"Evil\x1b]0;pwned\x07\x1b[2J\u202eX\u0085Y\x08"
FORGED_MEMBER = "a\nfake.pgn: 999 games read\x1b[2J.pgn"  # a newline forges a line
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_control_characters_in_names_and_members_are_shown_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tmp_path / "evil.pgn",
        pgn(White=HOSTILE_NAME, Round="1"),
        '[Black "x\x1b[2J\n',
        pgn(White=HOSTILE_NAME, Round="2"),
    )
    with zipfile.ZipFile(tmp_path / "m.zip", "w") as zf:
        zf.writestr(FORGED_MEMBER, pgn(Round="3"))
    code, out, err = run(capsys, monkeypatch, "import", "evil.pgn", "m.zip")
    assert code == 0, err
    assert out.splitlines()[:2] == [
        "evil.pgn: 2 games read, 2 added, 1 problem",
        r"m.zip:a\nfake.pgn: 999 games read\x1b[2J.pgn: 1 game read, 1 added",
    ]
    assert err == 'warning: evil.pgn:11: not a tag pair, ignored: [Black "x\\x1b[2J\n'
    code, out, _ = run(capsys, monkeypatch, "players")
    assert f" 1  {SHOWN_NAME}  " in out and not RAW_CONTROL.search(out)
    head, _, *lines = out.splitlines()  # escaped before the columns are measured: aligned
    assert {line.index("2025-03-01") for line in lines} == {head.index("first")}, out
    code, out, _ = run(capsys, monkeypatch, "imports")
    assert r"m.zip:a\nfake.pgn: 999 games read\x1b[2J.pgn" in out
    assert not RAW_CONTROL.search(out) and "fake.pgn" not in out.split(r"m.zip:a\n")[0]
    # JSON: valid, the real text (json.dumps escapes C0; C1 and bidi as \uNNNN)
    code, out, _ = run(capsys, monkeypatch, "players", "--format", "json")
    assert not RAW_CONTROL.search(out) and "\\u202e" in out
    assert HOSTILE_NAME in {p["name"] for p in json.loads(out)}
    code, out, _ = run(capsys, monkeypatch, "imports", "--format", "json")
    assert json.loads(out)[1]["source"] == "m.zip:" + FORGED_MEMBER


# --- issue 19: --strict after a lenient import ------------------------------------------------


def test_strict_checks_a_file_imported_before_with_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "bad.pgn", pgn(Round="1"), pgn(Round="2", Result="2-0"))
    write(tmp_path / "good.pgn", pgn(Round="3"))
    assert run(capsys, monkeypatch, "import", "bad.pgn", "good.pgn")[0] == 0
    before = dump_db(tmp_path / "tracker.db")
    code, out, err = run(capsys, monkeypatch, "import", "bad.pgn", "--strict")
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == (
        "error: bad.pgn:11: unknown result '2-0': game skipped (expected 1-0, 0-1, 1/2-1/2 or "
        "*) (--strict: bad.pgn was imported before without --strict, on "
        f"{_import_time(tmp_path, 1)} UTC as import 1 with 1 problem; nothing more of it was "
        "imported; the 1 game it added stay stored until `tracker imports remove 1`)"
    )
    assert dump_db(tmp_path / "tracker.db") == before
    code, out, _ = run(capsys, monkeypatch, "import", "good.pgn", "--strict")
    assert code == 0 and out.splitlines()[0] == (
        f"good.pgn: already imported on {_import_time(tmp_path, 2)} UTC, nothing added "
        "(imported then without a problem)"
    )
    # a problem the earlier import reported but a check now does not find (an older version)
    con = sqlite3.connect(tmp_path / "tracker.db")
    con.execute("UPDATE imports SET problems = 1 WHERE id = 2")
    con.commit()
    con.close()
    code, out, _ = run(capsys, monkeypatch, "import", "good.pgn", "--strict")
    assert code == 0 and out.splitlines()[0] == (
        f"good.pgn: already imported on {_import_time(tmp_path, 2)} UTC with problems; "
        "checked again with --strict: no problem now, nothing added"
    )
    assert _count(tmp_path / "tracker.db", "SELECT count(*) FROM games") == 2


def _import_time(folder: Path, import_id: int) -> str:
    con = sqlite3.connect(folder / "tracker.db")
    try:
        (started,) = con.execute(
            "SELECT started_at FROM imports WHERE id = ?", (import_id,)
        ).fetchone()
    finally:
        con.close()
    return str(started)[:16]


# --- issue 19: --player with a typo -----------------------------------------------------------


def test_player_is_checked_before_storing_and_a_typo_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "a.pgn", pgn(Round="1"))
    write(tmp_path / "b.pgn", pgn(Round="2", White="Novak, Petr"))
    code, out, err = run(capsys, monkeypatch, "import", "a.pgn", "--player", "Novk, Jan")
    assert code == 0 and out.startswith("a.pgn: 1 game read, 1 added\n")
    assert err == (
        "warning: --player 'Novk, Jan' not marked: no player matches 'Novk, Jan': `tracker "
        "players` lists all 2 players, `tracker players --search PART` those whose name "
        "contains PART; the games are stored: mark your player with `tracker player set "
        "PLAYER --me`\n"
    )
    assert _count(tmp_path / "tracker.db", "SELECT count(*) FROM games") == 1
    assert "(me)" not in run(capsys, monkeypatch, "players")[1]
    run(capsys, monkeypatch, "import", "b.pgn")
    before = dump_db(tmp_path / "tracker.db")
    write(tmp_path / "c.pgn", pgn(Round="3"))
    for bad in ("%", "Novak"):  # not a name; two players match: refused before storing
        code, out, err = run(capsys, monkeypatch, "import", "c.pgn", "--player", bad)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert dump_db(tmp_path / "tracker.db") == before
    code, out, _ = run(capsys, monkeypatch, "import", "c.pgn", "--player", "Novak, Jan")
    assert code == 0 and out.splitlines()[-1] == "tracked player: Novak, Jan"


# --- issue 19: numbers past 64 bits ----------------------------------------------------------


def test_huge_numbers_are_one_line_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "a.pgn", pgn())
    run(capsys, monkeypatch, "import", "a.pgn")
    huge = "99999999999999999999999"
    for args, code, message in (
        (
            ["imports", "remove", huge],
            2,
            f"error: there is no import {huge}: `tracker imports` lists them with their ids\n",
        ),
        (
            ["imports", "remove", "0"],
            2,
            "error: there is no import 0: `tracker imports` lists them with their ids\n",
        ),
        (
            ["player", "set", "Novak, Jan", "--rated-games", huge],
            2,
            "error: --rated-games 99,999,999,999,999,999,999,999 is not plausible: give the rated "
            "games completed before the first game in the database, like 45\n",
        ),
        (
            [
                "official",
                "add",
                "Novak, Jan",
                "--period",
                "2025-01",
                "--rating",
                "1800",
                "--games",
                huge,
            ],
            2,
            "error: a number given is too large (the most is 9,223,372,036,854,775,807); give a "
            "plausible value\n",
        ),
    ):
        assert run(capsys, monkeypatch, *args)[0::2] == (code, message), args


def test_quiet_still_says_why_a_file_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 17: "1 of 1 files could not be imported" with no reason given under --quiet
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bin.pgn").write_bytes(b"\x00\x01\x02 not a pgn \xff" * 50)
    code, out, err = run(capsys, monkeypatch, "import", "bin.pgn", "--quiet")
    assert code == 1 and "not imported" not in out  # (out: the summary alone)
    said = [line for line in err.splitlines() if line.startswith("bin.pgn: not imported: ")]
    assert len(said) == 1 and len(said[0]) > 30, err
    assert err.splitlines()[-1].startswith("error: the file could not be imported")


# --- bug 15: `tracker players` on a big database ------------------------------------------


def test_players_table_is_plain_aligned_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tmp_path / "a.pgn",
        pgn(Round="1", WhiteFideId="99012345"),
        pgn(Round="2", Date="2025.03.02", TimeControl="600+5"),
        pgn(Round="3", White="Dvorak, Jiri", Black="Novak, Jan", Date="2025.04.01"),
    )
    code, _, err = run(capsys, monkeypatch, "import", "a.pgn", "--player", "Svoboda, Petr")
    assert code == 0, err
    code, out, err = run(capsys, monkeypatch, "players")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == [
        "id",
        "name",
        "FIDE",
        "ID",
        "standard",
        "rapid",
        "blitz",
        "first",
        "last",
    ]
    assert set(lines[1].replace(" ", "")) == {"─"}  # one rule under the header, as every table
    assert [line.split()[0] for line in lines[2:]] == ["3", "1", "2"]  # by name
    assert lines[3].split() == [
        "1",
        "Novak,",
        "Jan",
        "99012345",
        "2",
        "1",
        "0",
        "2025-03-01",
        "2025-04-01",
    ]
    assert "Svoboda, Petr (me)" in lines[4]
    assert lines[2].index("Dvorak") == lines[0].index("name")
    code, out, _ = run(capsys, monkeypatch, "players", "--search", "dvor")
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["3"]


def test_every_player_and_a_search_agree(store: Store, tmp_path: Path) -> None:
    """The list of every player (one grouped pass over the games) and a search (by ids)
    give the same rows: counts per list, dates, aliases."""
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.app.players import resolve_player
    from tracker.store.players import merge

    write(
        tmp_path / "a.pgn",
        pgn(Round="1"),
        pgn(Round="2", White="Novak,J", Black="Kral, Ota"),
        pgn(Round="3", Date="2025.05.01", TimeControl="180+2"),
        pgn(Round="4", Date="2025.??.??", Black="Kral, Ota"),
    )
    import_paths(store, [str(tmp_path / "a.pgn")], ImportOptions())
    merge(store, resolve_player(store, "Novak, Jan").id, resolve_player(store, "Novak,J").id)
    every = list_players(store)
    assert [p.name for p in every] == ["Kral, Ota", "Novak, Jan", "Svoboda, Petr"]
    for p in every:
        (found,) = [q for q in list_players(store, p.name) if q.id == p.id]
        assert found == p
    novak = every[1]
    assert novak.games == {"standard": 3, "blitz": 1}
    assert (str(novak.first), str(novak.last)) == ("2025-03-01", "2025-05-01")
    assert novak.aliases == ("novak j", "novak jan")


# --- bug 12: Ctrl-C during an import ------------------------------------------------------


class _File:
    def __init__(self, path: Path) -> None:
        self.name = path.name
        self.path = path

    def open(self) -> Any:
        return self.path.open("rb")


def test_ctrl_c_stops_at_a_safe_point_and_says_what_is_stored(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGINT while the second source is read: the first is stored and was handed to
    on_source as it finished; the second is rolled back whole; Interrupted names it; the
    default SIGINT handler is back afterwards."""
    from tracker.app.importing import ImportOptions, Interrupted, import_sources
    from tracker.importer import batches as importer
    from tracker.pgn import read_games

    monkeypatch.setattr(importer, "BATCH", 2)
    a = write(tmp_path / "a.pgn", *(pgn(Round=str(r)) for r in range(3)))
    b = write(tmp_path / "b.pgn", *(pgn(Round=f"b{r}") for r in range(6)))
    c = write(tmp_path / "c.pgn", pgn(Round="c"))
    done: list[str] = []

    def reader(stream: Any, name: str) -> Iterator[Any]:
        for i, game in enumerate(read_games(stream, name)):
            if name == "b.pgn" and i == 3:  # after b's first batch was written
                os.kill(os.getpid(), signal.SIGINT)
            yield game

    with pytest.raises(Interrupted) as caught:
        import_sources(
            store,
            [_File(a), _File(b), _File(c)],
            ImportOptions(workers=False),
            None,
            reader,
            lambda rep: done.append(rep.name),
        )
    assert caught.value.source == "b.pgn"
    assert [s.name for s in caught.value.report.sources] == done == ["a.pgn"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with store.engine.connect() as conn:
        assert conn.execute(select(games.c.round).order_by(games.c.id)).scalars().all() == [
            "0",
            "1",
            "2",
        ]
        assert conn.execute(select(imports.c.source)).scalars().all() == ["a.pgn"]


@pytest.mark.slow  # tracker in a subprocess
def test_ctrl_c_in_a_three_file_import_says_one_line(tmp_path: Path) -> None:
    """The reported case, with a real signal to the process group (as a terminal sends it,
    to the forked readers too): the finished files' lines were printed as each finished,
    then one line says what Ctrl-C left; exit code 130; the third file is not stored."""

    def make(path: Path, games_: int) -> Path:
        tag = path.stem.upper()
        with path.open("w", encoding="utf-8") as fh:
            for i in range(games_):
                fh.write(
                    pgn(
                        Event=f"{tag} {i // 400}",
                        Round=str(i),
                        White=f"{tag}W{i % 397}",
                        Black=f"{tag}B{i % 391}",
                    )
                )
        return path

    make(tmp_path / "a.pgn", 300)
    make(tmp_path / "b.pgn", 300)
    make(tmp_path / "c.pgn", 60_000)  # seconds to import: the signal comes well before
    db = tmp_path / "t.db"
    proc = subprocess.Popen(
        tracker_command("import", "a.pgn", "b.pgn", "c.pgn", "--db", str(db)),
        cwd=tmp_path,
        env=subprocess_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while _finished_imports(db) < 2:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert (proc.returncode, err.decode()) == (
        130,
        "interrupted: c.pgn was not imported (nothing of it stored); 2 files before it "
        "are stored\n",
    )
    assert [line.split(":")[0] for line in out.decode().splitlines()] == ["a.pgn", "b.pgn"]
    con = sqlite3.connect(db)
    try:
        assert con.execute("SELECT source FROM imports ORDER BY id").fetchall() == [
            ("a.pgn",),
            ("b.pgn",),
        ]
        assert con.execute("SELECT count(*) FROM games").fetchone() == (600,)
    finally:
        con.close()


def _finished_imports(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return int(
                con.execute(
                    "SELECT count(*) FROM imports WHERE finished_at IS NOT NULL"
                ).fetchone()[0]
            )
        finally:
            con.close()
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0


# --- bug 5: a corrected result can land ---------------------------------------------------


def test_a_changed_result_is_reported_then_replaced_after_imports_remove(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "old.pgn", pgn(Round="1"), pgn(Round="2", White="Kral, Ota"))
    write(tmp_path / "other.pgn", pgn(Round="1", Event="Other Open", Black="Dvorak, Jiri"))
    write(tmp_path / "new.pgn", pgn(Round="1", Result="0-1"), pgn(Round="2", White="Kral, Ota"))
    for name in ("old.pgn", "other.pgn"):
        assert run(capsys, monkeypatch, "import", name)[0] == 0
    code, out, err = run(capsys, monkeypatch, "import", "new.pgn")
    assert code == 0
    assert out.splitlines()[0] == "new.pgn: 2 games read, 0 added, 2 already stored, 1 problem"
    assert err.splitlines() == [
        "warning: new.pgn:1: this game is already stored with result 1-0 (import 1: old.pgn, "
        "line 1); the file says 0-1: the stored one is kept (`tracker imports remove 1`, then "
        "import again, to replace it)"
    ]
    code, out, _ = run(capsys, monkeypatch, "imports", "remove", "1", "--dry-run")
    assert code == 0
    assert out.splitlines() == [
        out.splitlines()[0],
        "  2 games",
        "  1 tournament: Club Open",
        "  2 players: Svoboda, Petr; Kral, Ota",
        "  kept: 1 player with other games, official entries or facts",
        "  1 later import skipped duplicates, perhaps of these games: new.pgn: importing it "
        "again stores them",
        "--dry-run: nothing was changed",
    ]
    assert out.startswith("would remove import 1: old.pgn (imported ")
    code, out, _ = run(capsys, monkeypatch, "imports", "remove", "1")
    assert code == 0 and out.startswith("removed import 1: old.pgn")
    code, out, err = run(capsys, monkeypatch, "import", "new.pgn")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "new.pgn: 2 games read, 2 added"
    code, out, _ = run(capsys, monkeypatch, "players", "--format", "json")
    assert sorted(p["name"] for p in json.loads(out)) == [
        "Dvorak, Jiri",
        "Kral, Ota",
        "Novak, Jan",
        "Svoboda, Petr",
    ]
    code, out, _ = run(capsys, monkeypatch, "imports", "--format", "json")
    assert [(r["id"], r["source"], r["games_added"]) for r in json.loads(out)] == [
        (2, "other.pgn", 1),
        (3, "new.pgn", 0),
        (4, "new.pgn", 2),
    ]
    code, _, err = run(capsys, monkeypatch, "imports", "remove", "1")
    assert (code, err) == (
        2,
        "error: there is no import 1: `tracker imports` lists them with their ids\n",
    )


def test_remove_keeps_what_the_user_said_and_what_others_need(store: Store, tmp_path: Path) -> None:
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.app.players import resolve_player
    from tracker.store.imports import remove_import
    from tracker.store.players import set_facts, set_me
    from tracker.store.schema import players, tournaments

    write(
        tmp_path / "a.pgn",
        pgn(Round="1"),
        pgn(Round="2", Event="Pinned", White="A, A"),
        pgn(Round="3", Event="Gone", White="B, B", Black="C, C"),
        pgn(Round="4", Event="Gone", White="D, D", Black="E, E"),
    )
    write(tmp_path / "b.pgn", pgn(Round="9", Black="F, F"))  # Club Open, Novak: shared
    import_paths(store, [str(tmp_path / "a.pgn"), str(tmp_path / "b.pgn")], ImportOptions())
    set_me(store, resolve_player(store, "B, B").id)
    set_facts(store, resolve_player(store, "C, C").id, birth_year=2001)
    with store.engine.begin() as conn:
        conn.execute(
            tournaments.update().where(tournaments.c.event == "Pinned").values(excluded=True)
        )
    before = dump_db(tmp_path / "t.db")
    dry = remove_import(store, 1, dry_run=True)
    assert dump_db(tmp_path / "t.db") == before
    done = remove_import(store, 1)
    assert done == dry
    assert (done.games, done.tournaments, done.players) == (
        4,
        ("Gone",),
        ("Svoboda, Petr", "A, A", "D, D", "E, E"),
    )
    assert (done.kept_tournaments, done.kept_players) == (2, 3)  # Club Open, Pinned; B C Novak
    with store.engine.connect() as conn:
        assert sorted(conn.execute(select(players.c.name)).scalars()) == [
            "B, B",
            "C, C",
            "F, F",
            "Novak, Jan",
        ]
        assert sorted(conn.execute(select(tournaments.c.event)).scalars()) == [
            "Club Open",
            "Pinned",
        ]
        assert [Path(x).name for x in conn.execute(select(imports.c.source)).scalars()] == ["b.pgn"]
    from tracker.store.maintenance import check_database

    assert check_database(store) == []


def test_imports_remove_takes_the_groups_db(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tracker imports --db X remove ID` works on X (not silently on tracker.db)."""
    write(tmp_path / "a.pgn", pgn())
    assert run(capsys, monkeypatch, "import", "a.pgn", "--db", "x.db")[0] == 0
    code, out, err = run(capsys, monkeypatch, "imports", "--db", "x.db", "remove", "1")
    assert (code, err) == (0, "") and out.startswith("removed import 1: a.pgn")
    assert not (tmp_path / "tracker.db").exists()
    code, out, _ = run(capsys, monkeypatch, "imports", "--db", "x.db", "--format", "json")
    assert json.loads(out) == []


# --- bug 21: finding a player ------------------------------------------------------------


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of the sample season (imported once for the module; copy it to change it)."""
    return sample_season_db(tmp_path_factory.mktemp("season") / "tracker.db")


@pytest.mark.parametrize(
    "typed, name, rank",
    [
        ("novak tomas", "novak tomas", 0),
        ("tomas novak", "novak tomas", 1),
        ("nov", "novak tomas", 2),
        ("novak t", "novak tomas", 2),
        ("tom nov", "novak tomas", 3),
        ("t novak", "novak tomas", 3),
        ("ak", "novak tomas", 4),
        ("ak", "tomasnovak88", 4),
        ("novak jan", "novak tomas", None),
        ("nov nov", "novak tomas", None),  # each typed word its own word of the name
        ("", "novak tomas", None),
    ],
)
def test_match_rank(typed: str, name: str, rank: int | None) -> None:
    from tracker.identity.names import match_rank

    assert match_rank(typed, name) == rank


@pytest.mark.parametrize(
    "typed", ["Tomáš Novák", "novak tomas", "Tom Nov", "Novák", "Nov", "99012345"]
)
def test_a_name_in_either_order_finds_the_player(
    season: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    code, out, err = run(capsys, monkeypatch, "history", typed, "--db", str(season))
    assert code == 0, err
    assert out.startswith("Novák, Tomáš: standard rating history")


def test_several_matches_are_listed_as_the_search_lists_them(
    season: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, monkeypatch, "players", "--search", "ák", "--db", str(season))
    searched = [line.split()[1] for line in out.splitlines()[2:] if line.strip()]
    assert len(searched) == 4
    code, out, err = run(capsys, monkeypatch, "history", "ák", "--db", str(season))
    assert (code, out) == (2, "")
    assert err == (
        "error: 4 players match 'ák': Dvořák, Petr (FIDE ID 99021450); Horák, Jakub "
        "(FIDE ID -); Novák, Tomáš (FIDE ID 99012345); TomasNovak88 (FIDE ID -); "
        "give more of the name or the FIDE ID\n"
    )


def test_a_unique_part_of_a_name_finds_the_player_as_the_search_does(
    season: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, monkeypatch, "players", "--search", "vořá", "--db", str(season))
    assert "Dvořák, Petr" in out
    code, out, err = run(capsys, monkeypatch, "history", "vořá", "--db", str(season))
    assert code == 0, err
    assert out.startswith("Dvořák, Petr: standard rating history")


def test_no_match_names_the_near_ones_or_says_where_to_look(
    season: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(capsys, monkeypatch, "history", "Novak, Jan", "--db", str(season))
    assert (code, err) == (
        2,
        "error: no player matches 'Novak, Jan'; with 'novak' in the "
        "name: Novák, Tomáš (FIDE ID 99012345); TomasNovak88 (FIDE ID "
        "-)\n",
    )
    code, _, err = run(capsys, monkeypatch, "history", "Kasparov, Garry", "--db", str(season))
    assert (code, err) == (
        2,
        "error: no player matches 'Kasparov, Garry': `tracker players` "
        "lists all 44 players, `tracker players --search PART` those whose "
        "name contains PART\n",
    )
    # what the lookup refused, the search finds neither
    code, out, _ = run(
        capsys, monkeypatch, "players", "--search", "Kasparov, Garry", "--db", str(season)
    )
    assert (code, out) == (0, "no player matches 'Kasparov, Garry'\n")


# --- --player that fits spellings that may be one person ------------------------------------


def _game(white: str, black: str, rnd: int, **tags: str) -> str:
    return pgn(White=white, Black=black, Round=str(rnd), **tags)


@pytest.mark.parametrize(
    "texts,one",
    [
        # two spellings, an initial for a given name, no FIDE ID, never met: may be one
        (
            [
                _game("Ivanchuk, V", "Svoboda, Petr", 1),
                _game("Ivanchuk, Vassily", "Dvorak, Jan", 2),
            ],
            True,
        ),
        # the same two, who played each other: two people
        ([_game("Ivanchuk, V", "Ivanchuk, Vassily", 1)], False),
        # the same two, each with a FIDE ID of their own: two people
        (
            [
                _game("Ivanchuk, V", "Svoboda, Petr", 1, WhiteFideId="14100010"),
                _game("Ivanchuk, Vassily", "Dvorak, Jan", 2, WhiteFideId="14109603"),
            ],
            False,
        ),
        # a shared surname, other given names (the initial fits both, they do not each other)
        (
            [
                _game("Ivanchuk, V", "Svoboda, Petr", 1),
                _game("Ivanchuk, Vassily", "Dvorak, Jan", 2),
                _game("Ivanchuk, Valery", "Horak, Jakub", 3),
            ],
            False,
        ),
        # an initial that is not the other's
        (
            [
                _game("Ivanchuk, A", "Svoboda, Petr", 1),
                _game("Ivanchuk, Vassily", "Dvorak, Jan", 2),
            ],
            False,
        ),
        # a typo in the surname: another player that --player matches too
        (
            [_game("Ivanchuk, V", "Svoboda, Petr", 1), _game("Ivanchukk, V", "Dvorak, Jan", 2)],
            False,
        ),
    ],
)
def test_player_fitting_spellings_of_one_person_names_the_merge_only_then(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    texts: list[str],
    one: bool,
) -> None:
    """--player that several players fit marks nobody and merges nothing (exit 2, the games
    stored); only when their names may be one person's (the same surname, given names that
    fit, no two FIDE IDs, no game between them) does the line name the merge command."""
    write(tmp_path / "a.pgn", *texts)
    code, out, err = run(capsys, monkeypatch, "import", "a.pgn", "--player", "Ivanchuk")
    assert code == 2 and "tracked player" not in out and err.count("\n") == 1, err
    assert err.startswith("error: --player 'Ivanchuk' not marked: ")
    assert ("`tracker player merge " in err) is one
    assert ("give more of the name or the FIDE ID" in err) is not one
    with open_store("tracker.db") as store, store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(games)).scalar_one() == len(texts)
        assert conn.execute(select(func.count()).select_from(player_merges)).scalar_one() == 0
        assert not conn.execute(select(players.c.id).where(players.c.is_me)).all()
    if one:
        assert err.endswith(
            "Ivanchuk, V (1 game); Ivanchuk, Vassily (1 game); they are not taken for one "
            "person on their names alone: if they are one, `tracker player merge 'Ivanchuk, "
            "V' 'Ivanchuk, Vassily'` makes them one, then `tracker player set 'Ivanchuk, V' "
            "--me` marks them; if not, `tracker player set NAME --me` marks the one you mean; "
            "the games are stored\n"
        )
