"""What `export`, `report`, `plot` and `db backup` do with the output they are given (issue
30): a regular file is replaced (with --force) through a temporary file and a rename; a
character device or a FIFO, or a symlink to one (`/dev/stdout`), is written into, never
replaced, with or without --force; a symlink to a regular file replaces the file it points
to; anything else is refused in one line. A killed backup's temporary file is removed by the
next backup, which names it.

The devices are real: nodes made with mknod in the test's folder (root only: skipped
otherwise), a pseudo-terminal's /dev/pts/N (a character device whose bytes the test reads
back), FIFOs with a reader thread, and the standard output of a real `tracker` process.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import socket
import stat
import subprocess
import sys
import threading
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import dump_db, run_cli, subprocess_env, tracker_command
from tests.test_import import pgn, write
from tracker.app.importing import ImportOptions, import_paths
from tracker.app.players import resolve_player
from tracker.store import open_store
from tracker.store.players import set_me

COMMANDS = {  # the arguments before the output, and the output's option
    "export": ("export", "-o"),
    "report": ("report", "-o"),
    "plot": ("plot", "-o"),
    "backup": ("db", "backup"),
}
MAGIC = {
    "export": b"\xef\xbb\xbfperiod,",
    "report": b"<!DOCTYPE html>",
    "plot": b"\x89PNG\r\n",
    "backup": b"SQLite format 3\x00",
}
FORCE = [pytest.param([], id="plain"), pytest.param(["--force"], id="force")]

_TEMPLATE: dict[str, bytes] = {}


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the current folder, holding tracker.db (three games of Novak, Jan, the
    player marked as me)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)
    db = tmp_path / "tracker.db"
    if not _TEMPLATE:
        source = write(
            tmp_path / "season.pgn",
            *(
                pgn(
                    Round=str(i),
                    Date=f"2025.10.0{i}",
                    WhiteElo="1850",
                    BlackElo="1800",
                    TimeControl="5400+30",
                )
                for i in (1, 2, 3)
            ),
        )
        with open_store(str(db)) as store:
            import_paths(store, [str(source)], ImportOptions())
            set_me(store, resolve_player(store, "Novak, Jan").id)
        _TEMPLATE["db"] = db.read_bytes()
        source.unlink()
    db.write_bytes(_TEMPLATE["db"])
    return tmp_path


def args(command: str, output: str | Path, *more: str) -> list[str]:
    return [*COMMANDS[command], str(output), *more]


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    output: str | Path,
    *more: str,
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args(command, output, *more))


def _regular(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> bytes:
    """What `command` writes into a new regular file."""
    target = folder / f"regular-{command}"
    code, _, err = run(
        capsys, monkeypatch, command, target.with_suffix(".png") if command == "plot" else target
    )
    assert code == 0, err
    path = target.with_suffix(".png") if command == "plot" else target
    data = path.read_bytes()
    path.unlink()
    return data


def _mknod(path: Path, kind: int, major: int, minor: int) -> Path:
    try:
        os.mknod(path, 0o600 | kind, os.makedev(major, minor))
    except PermissionError:
        pytest.skip("mknod needs root (CAP_MKNOD)")
    return path


def _node(path: Path) -> tuple[bool, int]:
    st = os.lstat(path)
    return stat.S_ISCHR(st.st_mode), st.st_rdev


# --- character devices ---------------------------------------------------------------


@pytest.mark.slow  # every command written into a FIFO and a device node, with and without --force
@pytest.mark.parametrize("force", FORCE)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_device_node_is_written_into_never_replaced(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    force: list[str],
) -> None:
    """`mknod fakenull c 1 3`, then `tracker export -o fakenull --force` made the device a
    465-byte file (exit 0). Now it stays the device and is written into, with or without
    --force; /dev/full's node shows the bytes really go to the device."""
    null = _mknod(folder / "fakenull", stat.S_IFCHR, 1, 3)
    code, out, err = run(capsys, monkeypatch, command, null.name, *force)
    assert (code, err) == (0, ""), err
    assert out.startswith(("wrote fakenull", "backed up tracker.db to fakenull")), out
    assert out.count("\n") == 1
    assert _node(null) == (True, os.makedev(1, 3))
    full = _mknod(folder / "fakefull", stat.S_IFCHR, 1, 7)
    code, out, err = run(capsys, monkeypatch, command, full.name, *force)
    assert (code, out) == (1, "")
    assert err == "error: cannot write fakefull: No space left on device\n"
    assert _node(full) == (True, os.makedev(1, 7))
    assert sorted(p.name for p in folder.iterdir()) == ["fakefull", "fakenull", "tracker.db"]


@pytest.fixture
def terminal() -> Iterator[tuple[Path, bytearray]]:
    """A pseudo-terminal in raw mode: the path of its character device (/dev/pts/N) and the
    bytes read from its other end while the test runs."""
    master, slave = os.openpty()
    tty.setraw(slave)
    got = bytearray()
    stop = threading.Event()

    def drain() -> None:
        while True:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    got.extend(os.read(master, 1 << 16))
                except OSError:
                    return
            elif stop.is_set():
                return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        yield Path(os.ttyname(slave)), got
    finally:
        stop.set()
        reader.join(10)
        os.close(slave)
        os.close(master)


def _drained(got: bytearray, size: int) -> bytes:
    for _ in range(200):
        if len(got) >= size:
            break
        threading.Event().wait(0.05)
    return bytes(got)


@pytest.mark.slow  # tracker in a subprocess, a pty, a killed writer: each command's output
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_terminal_gets_the_bytes_a_file_gets(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    terminal: tuple[Path, bytearray],
) -> None:
    device, got = terminal
    expected = _regular(folder, capsys, monkeypatch, command)
    code, out, err = run(capsys, monkeypatch, command, device)
    assert (code, err) == (0, ""), err
    data = _drained(got, len(expected))
    assert os.path.exists(device) and stat.S_ISCHR(os.stat(device).st_mode)
    if command == "backup":  # a snapshot: the same database, page for page
        copy = folder / "copy.db"
        copy.write_bytes(data)
        assert dump_db(copy) == dump_db(folder / "tracker.db")
    elif command == "report":  # names the run's moment: the same page otherwise
        assert data.startswith(MAGIC[command]) and len(data) == len(expected)
    else:
        assert data == expected


# --- FIFOs ---------------------------------------------------------------------------------


class FifoReader:
    """A thread that opens a FIFO for reading and reads it to its end (a writer that opens
    it then does not block); `close` ends it when nothing opened the FIFO."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = b""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with open(self.path, "rb") as fh:
            self.data = fh.read()

    def close(self) -> bytes:
        # no writer came: open it once so that the reader's open returns (ENXIO: the
        # reader is gone already)
        with contextlib.suppress(OSError):
            os.close(os.open(self.path, os.O_WRONLY | os.O_NONBLOCK))
        self.thread.join(10)
        assert not self.thread.is_alive()
        return self.data


@pytest.mark.slow  # every command written into a FIFO and a device node, with and without --force
@pytest.mark.parametrize("force", FORCE)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_fifo_is_written_into_never_replaced(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    force: list[str],
) -> None:
    expected = _regular(folder, capsys, monkeypatch, command)
    fifo = folder / "pipe"
    os.mkfifo(fifo)
    link = folder / "link-to-pipe"
    link.symlink_to("pipe")
    for target in (fifo, link):
        reader = FifoReader(fifo)
        code, out, err = run(capsys, monkeypatch, command, target.name, *force)
        data = reader.close()
        assert (code, err) == (0, ""), err
        assert target.name in out and out.count("\n") == 1
        assert stat.S_ISFIFO(os.stat(fifo).st_mode) and link.is_symlink()
        if command == "backup":
            copy = folder / "copy.db"
            copy.write_bytes(data)
            assert dump_db(copy) == dump_db(folder / "tracker.db")
            copy.unlink()
        elif command == "report":
            assert data.startswith(MAGIC[command]) and len(data) == len(expected)
        else:
            assert data == expected
    assert sorted(p.name for p in folder.iterdir()) == ["link-to-pipe", "pipe", "tracker.db"]


# --- /dev/stdout ------------------------------------------------------------------------


@pytest.mark.slow  # tracker in a subprocess, a pty, a killed writer: each command's output
@pytest.mark.parametrize("stdout", ["/dev/stdout", "stdout-link"])
@pytest.mark.parametrize("force", FORCE)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_dev_stdout_gets_the_bytes_and_the_line_goes_to_stderr(
    folder: Path, command: str, force: list[str], stdout: str
) -> None:
    """/dev/stdout (a symlink to /proc/self/fd/1, here a pipe) was "already exists" without
    --force and was replaced with it (as root: the system's /dev/stdout became a file). Now
    a real `tracker` process writes its output into its standard output, and its summary
    line goes to stderr (it is not data). `stdout-link` is such a symlink of the test's own,
    for a run against code that would replace it."""
    if stdout == "stdout-link":
        (folder / stdout).symlink_to("/proc/self/fd/1")
    elif os.readlink("/dev/stdout") != "/proc/self/fd/1":
        pytest.skip("/dev/stdout is not the usual symlink to /proc/self/fd/1")
    done = subprocess.run(
        tracker_command(*args(command, stdout, *force)),
        env=subprocess_env(),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert os.readlink(stdout) == "/proc/self/fd/1"  # still the link
    assert done.stdout.startswith(MAGIC[command])
    assert done.stderr.decode().startswith((f"wrote {stdout}", f"backed up tracker.db to {stdout}"))
    assert done.stderr.count(b"\n") == 1
    if command == "backup":
        copy = folder / "copy.db"
        copy.write_bytes(done.stdout)
        assert dump_db(copy) == dump_db(folder / "tracker.db")
        assert done.stderr.decode() == (
            f"backed up tracker.db to {stdout} ({len(done.stdout):,} bytes)\n"
        )


# --- links and what is refused ------------------------------------------------------


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_symlink_to_a_file_replaces_the_file_never_the_link(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    (folder / "sub").mkdir()
    real = folder / "sub" / ("real.png" if command == "plot" else "real")
    real.write_bytes(b"before")
    link = folder / ("link.png" if command == "plot" else "link")
    link.symlink_to(real)
    code, out, err = run(capsys, monkeypatch, command, link.name)
    assert (code, out) == (2, "")
    assert err == (
        f"error: {link.name} already exists (a symlink to {real}): give another "
        f"name, or --force to replace {real}\n"
    )
    assert real.read_bytes() == b"before"
    code, out, err = run(capsys, monkeypatch, command, link.name, "--force")
    assert (code, err) == (0, ""), err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes().startswith(MAGIC[command])
    assert sorted(p.name for p in (folder / "sub").iterdir()) == [real.name]  # no .part


def _symlink(path: Path, to: str) -> Path:
    path.symlink_to(to)
    return path


def _socket(path: Path) -> Path:
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))
    s.close()
    return path


REFUSED: dict[str, tuple[Callable[[Path], Path], str]] = {  # what is made there; the message
    "block-device": (
        lambda p: _mknod(p, stat.S_IFBLK, 7, 0),
        "{0} is a block device: give a regular file, a character device or a FIFO",
    ),
    "socket": (_socket, "{0} is a socket: give a regular file, a character device or a FIFO"),
    "dangling-link": (
        lambda p: _symlink(p, "gone"),
        "{0} is a symlink to gone, which does not exist: give the file itself",
    ),
    "link-loop": (lambda p: _symlink(p, p.name), "{0} is a symlink loop: give a file name"),
}


@pytest.mark.slow  # every command for each kind of output refused
@pytest.mark.parametrize("force", FORCE)
@pytest.mark.parametrize("kind", list(REFUSED))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_anything_else_is_refused_in_one_line(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    kind: str,
    force: list[str],
) -> None:
    make, message = REFUSED[kind]
    name = "out.png" if command == "plot" else "out"
    made = make(folder / name)
    before = os.lstat(made)
    code, out, err = run(capsys, monkeypatch, command, name, *force)
    assert (code, out, err) == (2, "", f"error: {message.format(name)}\n")
    after = os.lstat(made)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert sorted(p.name for p in folder.iterdir()) == [name, "tracker.db"]


# --- a killed write's temporary file -------------------------------------------------


_KILLED_AT = 64 * 1024
_KILL_ME = (
    "import resource, signal, sys\n"
    "from tracker.cli import main\n"
    # the kernel kills the process (SIGXFSZ, which Python ignores) once a file it writes
    # passes 64 KiB: the backup's temporary file, mid-copy
    "signal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n"
    "resource.setrlimit(resource.RLIMIT_CORE, (0, 0))\n"
    f"resource.setrlimit(resource.RLIMIT_FSIZE, ({_KILLED_AT}, {_KILLED_AT}))\n"
    "sys.argv = ['tracker', *sys.argv[1:]]\n"
    "main()\n"
)


def _big_database(folder: Path) -> Path:
    """tracker.db with 600 more games (about 400 KB)."""
    games = write(
        folder / "big.pgn",
        *(
            pgn(Round=str(i), White=f"W{i}, A", Black=f"B{i}, A", Event=f"Open {i // 50}")
            for i in range(600)
        ),
    )
    with open_store("tracker.db") as store:
        import_paths(store, [str(games)], ImportOptions())
    games.unlink()
    db = folder / "tracker.db"
    assert db.stat().st_size > 4 * _KILLED_AT
    return db


@pytest.mark.slow  # tracker in a subprocess, a pty, a killed writer: each command's output
def test_a_killed_backups_part_file_is_removed_by_the_next_backup(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A killed `db backup` left `.NAME.XXXXXXXX.part`, up to the database's size, for ever.
    Here a real backup is killed mid-copy; the next backup removes what it left and names
    it; a part file a live write holds (locked) is left alone."""
    db = _big_database(folder)
    backups = folder / "backups"
    backups.mkdir()
    env = subprocess_env() | {"PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _KILL_ME, "db", "backup", "backups/b.db"],
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == -signal.SIGXFSZ, done.stderr
    left = sorted(p.name for p in backups.iterdir())
    parts = [n for n in left if n.endswith(".part")]
    assert len(parts) == 1 and parts[0].startswith(".b.db.") and len(parts[0]) == 19, left
    assert (backups / parts[0]).stat().st_size == _KILLED_AT
    live = backups / ".b.db.live_123.part"  # another backup of b.db, still running
    live.write_bytes(b"x" * 100)
    holder = os.open(live, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        code, out, err = run(capsys, monkeypatch, "backup", "backups/b.db")
    finally:
        os.close(holder)
    assert (code, err) == (0, ""), err
    assert out == (
        f"backed up tracker.db to backups/b.db ({db.stat().st_size:,} bytes); "
        f"removed backups/{parts[0]}, left by a backup that did not finish\n"
    )
    assert sorted(p.name for p in backups.iterdir()) == [".b.db.live_123.part", "b.db"]
    assert dump_db(backups / "b.db") == dump_db(db)
    code, out, err = run(capsys, monkeypatch, "backup", "backups/b.db", "--force")
    assert code == 0 and out.endswith(
        "removed backups/.b.db.live_123.part, left by a backup that did not finish\n"
    ), out
    assert sorted(p.name for p in backups.iterdir()) == ["b.db"]


@pytest.mark.slow  # tracker in a subprocess, a pty, a killed writer: each command's output
@pytest.mark.parametrize("command", ["export", "report", "plot"])
def test_the_next_write_removes_a_killed_writes_part_file(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    name = "h.png" if command == "plot" else "h.out"
    part = folder / f".{name}.ab_3cd9z.part"  # what a write killed before its rename leaves
    part.write_bytes(b"half")
    other = folder / f".{name}.toolong99.part"  # not a name the writes make: kept
    other.write_bytes(b"mine")
    code, out, err = run(capsys, monkeypatch, command, name)
    assert code == 0 and out == f"wrote {name}" + (" (1 row)\n" if command == "export" else "\n"), (
        err
    )
    assert err == f"note: removed {part.name}, left by a write that did not finish\n"
    assert sorted(p.name for p in folder.iterdir()) == sorted([name, other.name, "tracker.db"])
