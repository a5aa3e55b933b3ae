"""The entry point: exit codes pass through, errors are one line, never a traceback."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
import typer

from tracker.cli import app, main
from tracker.errors import BadInput


@pytest.fixture
def extra_command() -> Iterator[None]:
    before = list(app.registered_commands)

    @app.command("zz-exit")
    def _exit(code: int) -> None:
        raise typer.Exit(code)

    @app.command("zz-bad")
    def _bad() -> None:
        raise BadInput("1500:2 is not a score: use 1, 0.5 or 0")

    @app.command("zz-bug")
    def _bug() -> None:
        raise ZeroDivisionError("boom")

    @app.command("zz-ctrl-c")
    def _ctrl_c() -> None:
        raise KeyboardInterrupt

    yield
    app.registered_commands[:] = before


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["tracker", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    return int(exc.value.code or 0)


@pytest.mark.usefixtures("extra_command")
def test_exit_code_of_a_command_passes_through(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(monkeypatch, "zz-exit", "4") == 4
    assert run(monkeypatch, "zz-exit", "0") == 0


@pytest.mark.usefixtures("extra_command")
def test_tracker_error_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(monkeypatch, "zz-bad") == 2
    err = capsys.readouterr().err
    assert err == "error: 1500:2 is not a score: use 1, 0.5 or 0\n"


@pytest.mark.usefixtures("extra_command")
def test_ctrl_c_says_interrupted_with_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(monkeypatch, "zz-ctrl-c") == 130
    assert capsys.readouterr().err == "interrupted\n"  # typer alone exits 130 silently


@pytest.mark.usefixtures("extra_command")
def test_a_bug_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TRACKER_DEBUG", raising=False)
    assert run(monkeypatch, "zz-bug") == 3
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith("error: internal error (ZeroDivisionError")


def test_unknown_command_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(monkeypatch, "no-such-command") == 2


def test_version(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, "--version") == 0
    assert capsys.readouterr().out.startswith("tracker ")
