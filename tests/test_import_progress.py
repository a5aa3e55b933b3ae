"""The import's progress (issue 15): files N of M, the bytes on disk with a percentage, the
games and games per second, the time left; only where someone watches (a terminal), gone
at the end and never in a pipe or a log."""

from __future__ import annotations

import io
import os
import pty
import subprocess
from pathlib import Path

import pytest
from rich.progress import Progress

from tests.conftest import REPO, subprocess_env, tracker_command
from tests.terminal import on_a_terminal

CORPUS = REPO.parent / "shared" / "corpus"


def test_the_bar_says_file_bytes_games_and_rate() -> None:
    from rich.console import Console

    from tracker.cli.importing import _Bar, _progress_bar

    progress = _progress_bar()
    screen = io.StringIO()
    progress.live.console = Console(file=screen, force_terminal=True, width=160, color_system=None)
    bar = _Bar(progress)
    bar.plan(2, 4_000_000)
    bar.start("games/a.pgn", 3_000_000)
    bar.advance(2_000, 1_000_000)
    line = _rendered(progress)
    assert "file 1 of 2" in line and "games/a.pgn" in line
    assert "25%" in line and "1.0/4.0 MB" in line and "2,000 games" in line
    assert "/s" in line
    bar.finish()
    bar.start("games/b.pgn.gz", 1_000_000)
    bar.advance(500, None)  # (a zip member: how far is not known until it ends)
    line = _rendered(progress)
    assert "file 2 of 2" in line and "75%" in line and "2,500 games" in line
    bar.finish()
    assert "100%" in _rendered(progress)


def test_a_long_name_keeps_its_end() -> None:
    from tracker.cli.importing import _Bar, _progress_bar

    bar = _Bar(_progress_bar())
    name = "season/" + "x" * 60 + "/last-round.pgn"
    shown = bar._name(name)
    assert len(shown) == _Bar.NAME_WIDTH and shown.endswith("last-round.pgn")


def _rendered(progress: Progress) -> str:
    from rich.console import Console

    console = Console(file=io.StringIO(), width=160, color_system=None)
    with console.capture() as got:
        console.print(progress.make_tasks_table(progress.tasks))
    return " ".join(got.get().split())


def _on_a_terminal(args: list[str], cwd: Path) -> str:
    """Run `args` with stdin, stdout and stderr on a pseudo-terminal: everything it drew."""
    code, drawn = on_a_terminal(args, subprocess_env(), cwd=cwd)
    assert code == 0, drawn
    return drawn


@pytest.mark.slow  # tracker in a subprocess, on a pty or a pipe
@pytest.mark.skipif(
    not (CORPUS / "pgnmentor-Carlsen.pgn.xz").exists(),
    reason="../shared/corpus is not beside the clone",
)
def test_on_a_terminal_the_bar_is_drawn_and_then_gone(tmp_path: Path) -> None:
    files = [str(CORPUS / n) for n in ("pgnmentor-Carlsen.pgn.xz", "pgnmentor-Giri.pgn.xz")]
    drawn = _on_a_terminal(tracker_command("import", *files, "--db", "t.db"), tmp_path)
    assert "file 1 of 2" in drawn and "file 2 of 2" in drawn
    assert "%" in drawn and "games" in drawn and "/s" in drawn
    # transient: the last thing on the screen is the summary, the bar erased before it
    assert drawn.rstrip().splitlines()[-1].count("━") == 0


@pytest.mark.slow  # tracker in a subprocess, on a pty or a pipe
@pytest.mark.skipif(
    not (CORPUS / "pgnmentor-Giri.pgn.xz").exists(),
    reason="../shared/corpus is not beside the clone",
)
def test_in_a_pipe_or_a_log_there_is_no_bar(tmp_path: Path) -> None:
    # stderr on a terminal but stdout in a file (a log): no bar either
    leader, follower = pty.openpty()
    with open(tmp_path / "log.txt", "wb") as log:
        proc = subprocess.run(
            tracker_command("import", str(CORPUS / "pgnmentor-Giri.pgn.xz"), "--db", "t.db"),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=follower,
            cwd=tmp_path,
            env=subprocess_env(),
            timeout=120,
            check=False,
        )
    os.close(follower)
    os.set_blocking(leader, False)
    try:
        drawn = os.read(leader, 1 << 16).decode(errors="replace")
    except OSError:  # nothing was written (EAGAIN), or the other side is closed (EIO)
        drawn = ""
    os.close(leader)
    assert proc.returncode == 0
    assert "file 1 of 1" not in drawn and "━" not in drawn
    log_text = (tmp_path / "log.txt").read_text(encoding="utf-8")
    assert "games read" in log_text and "━" not in log_text
