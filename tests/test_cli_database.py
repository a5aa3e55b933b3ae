"""What a command does with the database it is given: damaged (its own exit code), missing
(refused, not created, except by the commands that bring facts in), on a read-only mount.
Each pinned by the command line a user types (bugs 6, 8 and 9 of the QA report)."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.builders import sample_season_db
from tests.conftest import SAMPLES, dump_db, run_cli, subprocess_env, tracker_command
from tracker.store.db import DAMAGED_EXIT_CODE

PAGE = 4096
SAMPLE = SAMPLES / "2025-11-21_weinviertel-open.pgn"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of the sample season (imported once for the module; copy it to change it)."""
    return sample_season_db(tmp_path_factory.mktemp("season") / "tracker.db")


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


# --- bug 6: a damaged database ------------------------------------------------------------


def _damage(season: Path, to: Path) -> Path:
    """A copy of the season with its fourth page overwritten (a table's rows: the file opens,
    the first query that reads those rows finds it malformed)."""
    shutil.copy(season, to)
    with to.open("r+b") as fh:
        fh.seek(3 * PAGE)
        fh.write(b"\xff" * PAGE)
    return to


def _is_read_somewhere(db: Path) -> bool:
    con = sqlite3.connect(db)
    try:
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            con.execute(f'SELECT * FROM "{table}"').fetchall()
    except sqlite3.DatabaseError:
        return False
    finally:
        con.close()
    return True


DAMAGED = (
    "c.db is damaged (database disk image is malformed): `tracker db check --db c.db` "
    "tells more; restore a backup (`tracker db restore BACKUP`)"
)


@pytest.mark.parametrize(
    "args",
    [
        ("imports",),
        ("players",),
        ("history", "99012345"),
        ("event", "list", "99012345"),
        ("export", "99012345"),
        ("import", str(SAMPLE)),
    ],
)
def test_a_damaged_database_is_one_line_with_its_own_exit_code(
    season: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
) -> None:
    db = _damage(season, tmp_path / "c.db")
    assert not _is_read_somewhere(db)  # the damage is real
    code, out, err = run(capsys, monkeypatch, *args, "--db", "c.db")
    if code == 0:  # this command does not read the damaged page: nothing to say
        assert err == ""
        return
    assert "internal error" not in err and "SELECT" not in err
    if args[0] == "import":  # the importer reports each file, then fails the run
        assert DAMAGED in out + err
        return
    assert (code, err) == (DAMAGED_EXIT_CODE, f"error: {DAMAGED}\n")


def test_the_imports_of_a_damaged_database_name_it(
    season: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The QA's reproduction: the fourth page holds the imports (reported as an internal
    # error with the SQL, exit 3, before).
    db = _damage(season, tmp_path / "c.db")
    before = db.read_bytes()
    code, out, err = run(capsys, monkeypatch, "imports", "--db", "c.db")
    assert (code, out, err) == (DAMAGED_EXIT_CODE, "", f"error: {DAMAGED}\n")
    assert db.read_bytes() == before


def test_db_check_and_backup_of_a_damaged_database(
    season: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _damage(season, tmp_path / "c.db")
    code, out, err = run(capsys, monkeypatch, "db", "check", "--db", "c.db")
    assert (code, out, err) == (  # (exit 1 before issue 35: the README promises 4)
        DAMAGED_EXIT_CODE,
        "c.db: unreadable: the database cannot be read: database disk image is malformed; "
        "restore a backup (`tracker db restore BACKUP`)\n",
        "error: c.db: 1 problem found; the file is damaged: restore a backup "
        "(`tracker db restore BACKUP`)\n",
    )
    code, out, err = run(capsys, monkeypatch, "db", "backup", "b.db", "--db", "c.db")
    assert code == DAMAGED_EXIT_CODE
    assert err.startswith(
        "error: c.db is damaged (database disk image is malformed; no backup was written)"
    )
    assert not (tmp_path / "b.db").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".b.db")] == []


def test_a_database_damaged_at_its_start_is_said_at_open(
    season: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Page 1 (the schema) damaged: the open itself fails; db check has no db-check hint.
    db = tmp_path / "c.db"
    shutil.copy(season, db)
    with db.open("r+b") as fh:
        fh.seek(100)
        fh.write(b"\xff" * (PAGE - 100))
    code, _, err = run(capsys, monkeypatch, "history", "--db", "c.db")
    assert (code, err) == (DAMAGED_EXIT_CODE, f"error: {DAMAGED}\n")
    code, _, err = run(capsys, monkeypatch, "db", "check", "--db", "c.db")
    assert (code, err) == (
        DAMAGED_EXIT_CODE,
        "error: c.db is damaged (database disk image is "
        "malformed): restore a backup (`tracker db restore BACKUP`)\n",
    )


def _scribble(db: Path, at: int, data: bytes) -> None:
    with db.open("r+b") as fh:
        fh.seek(at)
        fh.write(data)


def _index_page(db: Path) -> int:
    """The first byte of the page of an index of the games (not of a table: the rows read
    fine; the games' index has entries, where an empty table's index page has none to
    damage)."""
    con = sqlite3.connect(db)
    try:
        (root,) = con.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
            "AND tbl_name = 'games' ORDER BY rootpage DESC LIMIT 1"
        ).fetchone()
    finally:
        con.close()
    return (int(root) - 1) * PAGE


# Issue 35, item 8: the ways a file is damaged, each made from a copy of the season.
DAMAGES = {
    # random bytes over pages in the middle of the file (before: db check exit 1)
    "random-bytes-in-the-middle": lambda db: _scribble(
        db, db.stat().st_size // 2 // PAGE * PAGE, random.Random(35).randbytes(2 * PAGE)
    ),
    # the second half of the file gone (a copy cut short)
    "truncated": lambda db: os.truncate(db, db.stat().st_size // 2 // PAGE * PAGE),
    # the first bytes zeros (before: "not a tracker database (not SQLite)", exit 1)
    "zeroed-header": lambda db: _scribble(db, 0, bytes(100)),
    # the whole first page zeros
    "zeroed-first-page": lambda db: _scribble(db, 0, bytes(PAGE)),
    # the header's page size garbled
    "garbled-header": lambda db: _scribble(db, 16, b"\xff" * 84),
    # an index page scribbled over: every row reads, SQLite's integrity check fails
    "index-page": lambda db: _scribble(db, _index_page(db) + 8, b"\xff" * 64),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_db_check_exits_4_on_any_damaged_file(
    season: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    damage: str,
) -> None:
    db = tmp_path / "c.db"
    shutil.copy(season, db)
    DAMAGES[damage](db)
    before = db.read_bytes()
    for fmt in ("table", "json", "csv"):
        code, out, err = run(capsys, monkeypatch, "db", "check", "--db", "c.db", "-f", fmt)
        assert code == DAMAGED_EXIT_CODE, (fmt, code, out, err)
        assert err.startswith("error: c.db") and err.count("\n") == 1, err
        assert err.endswith("restore a backup (`tracker db restore BACKUP`)\n"), err
        assert "tracker db backup" not in out + err
    assert db.read_bytes() == before


@pytest.mark.parametrize("damage", sorted(DAMAGES))
@pytest.mark.parametrize(
    "args",
    [
        ("history", "99012345"),
        ("players",),
        ("db", "backup", "b.db"),
        ("import", str(SAMPLE)),
        ("official", "add", "99012345", "--period", "2025-10", "--rating", "1800"),
        ("player", "set", "99012345", "--birth-year", "1988"),
    ],
)
def test_every_damage_message_names_db_restore(
    season: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    damage: str,
    args: tuple[str, ...],
) -> None:
    # Before: "restore a backup (`tracker db backup`)", the command that makes a backup
    # (on a damaged file, a copy of the damage).
    db = tmp_path / "c.db"
    shutil.copy(season, db)
    DAMAGES[damage](db)
    before = db.read_bytes()
    code, out, err = run(capsys, monkeypatch, *args, "--db", "c.db")
    assert "tracker db backup" not in out + err and "internal error" not in err
    if code == 0:  # the damage is past the pages this command reads: nothing to say
        assert damage in ("index-page", "random-bytes-in-the-middle"), damage
        assert err == "" and "db" not in args
        return
    assert code == DAMAGED_EXIT_CODE, (code, out, err)
    assert err.startswith("error: c.db is damaged (") and err.count("\n") == 1, err
    assert err.endswith("restore a backup (`tracker db restore BACKUP`)\n"), err
    assert db.read_bytes() == before
    assert not (tmp_path / "b.db").exists()


def test_the_exit_codes_are_documented(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, monkeypatch, "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "Exit codes" in text and f"{DAMAGED_EXIT_CODE} the database is damaged" in text
    import tracker.cli

    assert tracker.cli.DAMAGED_EXIT_CODE == DAMAGED_EXIT_CODE


# --- bug 8: a mistyped --db --------------------------------------------------------------

READING = [
    ("history",),
    ("explain", "2025-11"),
    ("next",),
    ("export",),
    ("plot",),
    ("check",),
    ("target", "2000", "--opponents", "1900", "--games", "5"),
    ("players",),
    ("imports",),
    ("event", "list"),
    ("official", "list"),
    ("player", "set", "Novák", "--me"),
    ("player", "merge", "a", "b"),
    ("event", "set", "1", "--ro", "1900"),
    ("official", "add", "Novák", "--period", "2025-11", "--rating", "1900"),
    ("official", "remove", "Novák", "--period", "2025-11"),
]


@pytest.mark.parametrize("args", READING, ids=lambda a: " ".join(a[:2]))
def test_a_missing_database_is_refused_not_created(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
) -> None:
    code, out, err = run(capsys, monkeypatch, *args, "--db", "trakcer.db")
    assert (code, out, err) == (
        1,
        "",
        "error: trakcer.db does not exist (import games first: "
        "tracker import FILE --db trakcer.db)\n",
    )
    assert list(tmp_path.iterdir()) == []


def test_the_default_database_missing_in_a_fresh_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, monkeypatch, "history")
    assert (code, out, err) == (
        1,
        "",
        "error: tracker.db does not exist (import games first: tracker import FILE)\n",
    )
    code, _, err = run(capsys, monkeypatch, "history", "--db", "my club.db")
    assert err == (
        "error: my club.db does not exist (import games first: tracker import FILE "
        "--db 'my club.db')\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_commands_that_bring_facts_in_create_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(capsys, monkeypatch, "import", str(SAMPLE), "--db", "new.db")
    assert code == 0, err
    assert (tmp_path / "new.db").is_file()
    code, _, err = run(capsys, monkeypatch, "db", "upgrade", "--db", "other.db")
    assert code == 0, err
    assert (tmp_path / "other.db").is_file()
    code, out, _ = run(capsys, monkeypatch, "imports", "--db", "other.db")
    assert (code, out) == (0, "no imports yet: run `tracker import FOLDER`\n")
    dump = dump_db(tmp_path / "new.db")
    code, _, _ = run(capsys, monkeypatch, "players", "--db", "new.db")
    assert code == 0 and dump_db(tmp_path / "new.db") == dump


# --- bug 9: a database on a read-only mount ----------------------------------------------

RO_MOUNT = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'


def _on_read_only_mount(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`tracker ARGS` with `folder` mounted read-only (a private mount namespace: nothing
    outside this one command sees it). As root a chmod stops nothing; a mount does."""
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", RO_MOUNT, str(folder), *tracker_command(*args)],
        capture_output=True,
        text=True,
        timeout=120,
        env=subprocess_env(),
    )


@pytest.fixture(scope="module")
def mounts() -> None:
    if shutil.which("unshare") is None:
        pytest.skip("no unshare here: a read-only mount cannot be made")
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", RO_MOUNT, "/tmp", "true"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if probe.returncode != 0:
        pytest.skip(f"no read-only mount here (unshare: {probe.stderr.strip()})")


def _ro_folder(tmp_path: Path, season: Path) -> Path:
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(season, folder / "ro.db")
    return folder


@pytest.mark.slow  # tracker in a subprocess, for each reading command
@pytest.mark.parametrize(
    "args",
    [
        ("history", "99012345"),
        ("players",),
        ("export", "99012345"),
        ("db", "check"),
        ("event", "list", "99012345"),
        ("explain", "99012345", "2025-11"),
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_reading_commands_work_on_a_read_only_mount(
    mounts: None, season: Path, tmp_path: Path, args: tuple[str, ...]
) -> None:
    folder = _ro_folder(tmp_path, season)
    db = folder / "ro.db"
    before = db.read_bytes()
    done = _on_read_only_mount(folder, *args, "--db", str(db))
    assert (done.returncode, done.stderr) == (0, "")
    writable = subprocess.run(
        tracker_command(*args, "--db", str(season)),
        capture_output=True,
        text=True,
        timeout=120,
        env=subprocess_env(),
    )
    assert done.stdout.replace(str(db), "DB") == writable.stdout.replace(str(season), "DB")
    assert sorted(p.name for p in folder.iterdir()) == ["ro.db"] and db.read_bytes() == before


def test_writing_on_a_read_only_mount_is_one_line(
    mounts: None, season: Path, tmp_path: Path
) -> None:
    folder = _ro_folder(tmp_path, season)
    db = folder / "ro.db"
    done = _on_read_only_mount(folder, "player", "set", "99012345", "--me", "--db", str(db))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error: {db} is read-only (attempt to write a readonly database): "
        "this command changes it; run it where the file and its folder "
        "can be written, or on a copy\n"
    )
    done = _on_read_only_mount(folder, "import", str(SAMPLE), "--db", str(folder / "new.db"))
    assert (done.returncode, done.stderr) == (
        1,
        f"error: cannot create {folder}/new.db: the "
        f"folder {folder} is read-only; pick --db in "
        "a folder you can write\n",
    )
    assert sorted(p.name for p in folder.iterdir()) == ["ro.db"]


def test_an_old_schema_on_a_read_only_mount(mounts: None, tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(Path(__file__).parent / "data" / "schema-0001.db", folder / "old.db")
    done = _on_read_only_mount(folder, "players", "--db", str(folder / "old.db"))
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"error: {folder}/old.db is read-only and its schema (0001) is older than this tracker's ("
    )
    assert done.stderr.endswith(
        f"upgrade it where it can be written (tracker db upgrade --db "
        f"{folder}/old.db), or work on a copy\n"
    )


def _with_pending_wal(season: Path, folder: Path) -> Path:
    """A copy of the season taken while a writer had changes only in its -wal file."""
    work = folder.parent / "work"
    work.mkdir()
    shutil.copy(season, work / "w.db")
    con = sqlite3.connect(work / "w.db")
    try:
        con.execute("PRAGMA wal_autocheckpoint = 0")
        con.execute("UPDATE players SET rated_games = 77 WHERE fide_id = 99012345")
        con.commit()
        for name in ("w.db", "w.db-wal", "w.db-shm"):
            shutil.copy(work / name, folder / name)
    finally:
        con.close()
    return folder / "w.db"


def test_a_read_only_mount_with_changes_in_the_wal(
    mounts: None, season: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = _with_pending_wal(season, folder)
    # With its -shm beside it, SQLite reads it (the changes in the -wal included).
    done = _on_read_only_mount(folder, "players", "--format", "json", "--db", str(db))
    assert (done.returncode, done.stderr) == (0, "")
    # Without: the changes cannot be read, and the line says why and what to do.
    (folder / "w.db-shm").unlink()
    done = _on_read_only_mount(folder, "players", "--db", str(db))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error: cannot open database {db}: unable to open database file; "
        f"it is read-only and its changes in {db}-wal were never moved into "
        "it (SQLite needs to write beside it to read them): open it once "
        "where it can be written, or copy it with its -wal and -shm files "
        "to a writable folder\n"
    )


def test_read_only_mode_by_what_can_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without a mount: what read_only_mode decides when the file or folder is not writable.
    from tracker.store.db import read_only_mode

    db = tmp_path / "x.db"
    url = f"sqlite:///{db}"
    assert read_only_mode(url) is None  # no file yet
    db.write_bytes(b"")
    assert read_only_mode(url) is None  # writable
    writable: set[Path] = set()
    monkeypatch.setattr("tracker.store.db.os.access", lambda p, mode: Path(p) in writable)
    assert read_only_mode(url) == "mode=ro&immutable=1"  # a read-only mount
    writable.add(tmp_path)
    assert read_only_mode(url) == "mode=ro"  # only the file is read-only: -shm beside it
    writable.discard(tmp_path)
    (tmp_path / "x.db-wal").write_bytes(b"changes")
    assert read_only_mode(url) == "mode=ro"  # immutable would skip what the -wal holds
    assert read_only_mode("sqlite://") is None
    assert read_only_mode("postgresql://u@h/x") is None


def test_only_the_commands_that_bring_facts_in_create_a_database() -> None:
    # (store_for(create=True): passed by these commands, not guessed from click's context:
    # import, and official import and fetch, which cli/fetch.py holds)
    import re

    from tests.conftest import REPO

    creating = set()
    for path in sorted((REPO / "tracker" / "cli").glob("*.py")):
        if re.search(r"store_for\([^)]*create=True", path.read_text(encoding="utf-8")):
            creating.add(path.stem)
    assert creating == {"importing", "official", "fetch"}
