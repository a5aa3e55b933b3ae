"""A throwaway PostgreSQL server: initdb and pg_ctl in a new temporary folder, on a unix
socket in it (no TCP port: nothing to collide with), as `nobody` when run as root (initdb
and postgres refuse root). Its data and its log are in that folder, which `nobody` owns: a
folder of root's (pytest's tmp_path, mode 0700) is one `nobody` cannot write into.

Used by the tests' session server (tests/conftest.py, `pg_cluster`) and by
bench/postgres.py; no pytest here.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

USER = "tracker"  # the server's superuser (trust authentication on the socket)

# durability off: what a throwaway server of tests needs (not a benchmark's)
NO_DURABILITY = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")


class ServerFailed(Exception):
    """initdb or pg_ctl start failed: the one-line reason, with the log's tail."""


def program(name: str) -> str | None:
    """A PostgreSQL program (initdb, pg_ctl): on the PATH, else where Debian puts the
    server's (/usr/lib/postgresql/VERSION/bin, the newest version first)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = glob.glob(f"/usr/lib/postgresql/*/bin/{name}") + glob.glob(
        f"/usr/local/pgsql/bin/{name}"
    )

    def version(path: str) -> tuple[int, ...]:
        part = Path(path).parent.parent.name
        return tuple(int(x) for x in part.split(".") if x.isdigit()) or (0,)

    candidates.sort(key=version, reverse=True)
    return candidates[0] if candidates else None


def missing() -> str | None:
    """Why no server can be started here (None: it can)."""
    for name in ("initdb", "pg_ctl"):
        if program(name) is None:
            return (
                f"{name} not found on the PATH nor under /usr/lib/postgresql/*/bin "
                "(apt-get install postgresql)"
            )
    if os.geteuid() == 0 and (shutil.which("runuser") is None or _uid("nobody") is None):
        return "running as root, and no user nobody or no runuser to start the server as"
    return None


def _uid(user: str) -> int | None:
    import pwd

    try:
        return pwd.getpwnam(user).pw_uid
    except KeyError:
        return None


def as_server_user(command: list[str]) -> list[str]:
    """`command` run as nobody when this is root (initdb and postgres refuse root)."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "nobody", "--", *command]


@contextmanager
def throwaway_server(
    prefix: str,
    *,
    settings: Sequence[str] = (),
    no_sync: bool = False,
    stop_mode: str = "fast",
    keep_log: Path | None = None,
) -> Iterator[Path]:
    """A server of its own, started in a new folder /tmp/PREFIX...: yields that folder (the
    socket's; connect as USER), stops the server and removes the folder afterwards.

    `settings`: more `-c name=value` of the server (NO_DURABILITY for tests); `no_sync`:
    initdb --no-sync; `stop_mode`: pg_ctl's (fast, immediate); `keep_log`: where to copy
    the server's log when it stops. ServerFailed when initdb or the start fails."""
    reason = missing()
    if reason is not None:
        raise ServerFailed(reason)
    initdb, pg_ctl = program("initdb"), program("pg_ctl")
    assert initdb is not None and pg_ctl is not None
    folder = Path(tempfile.mkdtemp(prefix=prefix))  # short: a socket path is < 108 bytes
    if os.geteuid() == 0:
        os.chown(folder, _uid("nobody") or 0, -1)
    data, log = folder / "data", folder / "server.log"
    started = False
    try:
        made = subprocess.run(
            as_server_user(
                [
                    initdb,
                    "-D",
                    str(data),
                    "-U",
                    USER,
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                    *(["--no-sync"] if no_sync else []),
                ]
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if made.returncode != 0:
            raise ServerFailed(f"initdb failed: {made.stderr.strip() or made.stdout.strip()}")
        options = " ".join([f"-k {folder} -c listen_addresses=''", *(f"-c {s}" for s in settings)])
        start = subprocess.run(
            as_server_user(
                [pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o", options, "start"]
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        started = start.returncode == 0
        if not started:
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise ServerFailed(
                f"the PostgreSQL server did not start: {start.stderr.strip()} {tail}"
            )
        yield folder
    finally:
        if started:
            subprocess.run(
                as_server_user([pg_ctl, "-D", str(data), "-m", stop_mode, "stop"]),
                capture_output=True,
                timeout=60,
            )
        if keep_log is not None and log.exists():
            with contextlib.suppress(OSError):
                shutil.copyfile(log, keep_log)
        with contextlib.suppress(OSError):
            shutil.rmtree(folder)
