"""A command run on a pseudo-terminal, for the tests of what a command draws on a terminal:
progress bars (tests/test_import_progress.py, tests/test_official_fetch.py) and the width a
table takes from the terminal's size (tests/test_widths.py, tests/test_read_at_a_glance.py)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path


def on_a_terminal(
    args: Sequence[str],
    env: Mapping[str, str],
    *,
    cwd: Path | None = None,
    columns: int = 160,
    timeout: float = 120,
) -> tuple[int, str]:
    """Run `args` with stdin, stdout and stderr on a pseudo-terminal of `columns` columns
    (TERM xterm): its exit code and everything it drew (read until it ends or `timeout`)."""
    leader, follower = pty.openpty()
    env = {**env, "COLUMNS": str(columns), "LINES": "40", "TERM": "xterm"}
    proc = subprocess.Popen(
        list(args), stdin=follower, stdout=follower, stderr=follower, cwd=cwd, env=env,
        close_fds=True,
    )  # fmt: skip
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # the other side closed
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    proc.wait(timeout=30)
    os.close(leader)
    return proc.returncode, seen.decode("utf-8", errors="replace")


def stdout_of_a_terminal(
    args: Sequence[str], env: Mapping[str, str], *, columns: int, timeout: float = 120
) -> str:
    """Run `args` with stdout on a pseudo-terminal whose window is `columns` wide (no
    COLUMNS: the width is the terminal's), stderr on a pipe; what it printed, `\n` line
    ends. The command must exit 0."""
    import fcntl
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in env.items() if k != "COLUMNS"}
    with subprocess.Popen(
        list(args), stdin=subprocess.DEVNULL, stdout=follower, stderr=subprocess.PIPE, env=env
    ) as proc:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(leader)
        assert proc.wait(timeout=timeout) == 0, proc.stderr.read() if proc.stderr else ""
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
