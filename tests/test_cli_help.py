"""Every `--help` reads well at 80 and 120 columns: paragraphs reflow to the terminal's width,
examples and paragraph breaks stay, and no line breaks mid-sentence."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, run_cli, subprocess_env
from tracker.cli.help import help_text

# Renders the help of every command and group in one process, at the width of COLUMNS.
_RENDER_ALL = """
import contextlib, io, json
import typer.main
from tracker.cli import app

def paths(command, prefix):
    yield prefix
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from paths(sub, [*prefix, name])

group = typer.main.get_command(app)  # what tracker.cli.main runs, built once
shown = {}
for path in paths(group, []):
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = group.main([*path, "--help"], prog_name="tracker", standalone_mode=False)
    assert not code, (path, code)
    shown[" ".join(path)] = buffer.getvalue()
print(json.dumps(shown))
"""

_LIST_ITEM = re.compile(r"(?:[-*•]|\d{1,2}[.)])\s")


def _render_all(width: int) -> dict[str, str]:
    env = subprocess_env()
    env.pop("TERMINAL_WIDTH", None)  # typer would prefer it to COLUMNS
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        env.pop(name, None)
    env["COLUMNS"] = str(width)
    done = subprocess.run(
        [sys.executable, "-c", _RENDER_ALL],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    shown: dict[str, str] = json.loads(done.stdout)
    return shown


def _first_word(line: str) -> str:
    return line.split()[0]


def _description_breaks(lines: list[str], width: int) -> list[str]:
    """The text between `Usage:` and the first panel: a line that ends although the next
    word would have fitted, inside a paragraph of prose (examples and list items excepted)."""
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("Usage:"))
    end = next((i for i, line in enumerate(lines) if line.startswith("╭")), len(lines))
    text = [line.rstrip() for line in lines[start + 1 : end]]
    bad = []
    for line, after in zip(text, text[1:], strict=False):
        if not line or not after:
            continue  # a paragraph ends here
        indent, indent_after = (len(x) - len(x.lstrip()) for x in (line, after))
        if indent > 1 or indent_after > 1 or _LIST_ITEM.match(after.lstrip()):
            continue  # an example, or a line of one; a list item
        # The help text is drawn one column in from each side: `width - 2` columns for it.
        if len(line) - 1 + 1 + len(_first_word(after)) <= width - 2:
            bad.append(f"{line.strip()!r} / {after.strip()!r}")
    return bad


def _panel_breaks(lines: list[str]) -> list[str]:
    """The help column of every panel (commands, arguments, options): a row whose text goes
    on to the next line although its next word would have fitted on this one."""
    bad = []
    panel: list[str] = []
    for line in lines:
        if line.startswith("│") and line.rstrip().endswith("│"):
            panel.append(line.rstrip()[1:-1])
            continue
        rows = panel
        panel = []
        if not rows:
            continue
        # The help column starts where the first row's last field does (fields are two
        # spaces apart: name, short name, metavar, help).
        starts = [m.start() for m in re.finditer(r"(?<=  )\S", rows[0].rstrip())]
        if not starts:
            continue
        column = starts[-1]
        room = len(rows[0]) - column - 1  # the help column's width (one column of padding)
        for row, after in zip(rows, rows[1:], strict=False):
            if (
                len(after) - len(after.lstrip()) != column
                or len(row) <= column
                or row[column] == " "
                or row[column - 1] != " "
            ):
                continue  # `after` does not carry on the help text of `row`
            text, more = row[column:].rstrip(), after.strip()
            if text.startswith("[") or more.startswith("["):
                continue  # typer's own lines: [default: ...], [env var: ...], [required]
            if len(text) + 1 + len(_first_word(more)) <= room:
                bad.append(f"{text!r} / {more!r}")
    return bad


@pytest.fixture(scope="module", params=[80, 120])
def rendered(request: pytest.FixtureRequest) -> tuple[int, dict[str, str]]:
    width: int = request.param
    return width, _render_all(width)


def test_every_help_is_drawn_at_the_width_asked(rendered: tuple[int, dict[str, str]]) -> None:
    width, shown = rendered
    assert {"", "import", "official", "official import", "db", "db check"} <= set(shown)
    for name, text in shown.items():
        assert max(len(line) for line in text.splitlines()) == width, name


def test_no_line_breaks_mid_paragraph(rendered: tuple[int, dict[str, str]]) -> None:
    width, shown = rendered
    bad = {}
    for name, text in shown.items():
        lines = text.splitlines()
        found = _description_breaks(lines, width) + _panel_breaks(lines)
        if found:
            bad[f"tracker {name} --help".replace("  ", " ")] = found
    assert not bad


def test_examples_fit_on_one_line(rendered: tuple[int, dict[str, str]]) -> None:
    """An example (an indented line) is never wrapped: the next line is not its tail."""
    _, shown = rendered
    wrapped = []
    for name, text in shown.items():
        lines = [line.rstrip() for line in text.splitlines()]
        for line, after in zip(lines, lines[1:], strict=False):
            if line.startswith("   ") and after.startswith(" ") and not after.startswith("  "):
                wrapped.append(f"tracker {name}: {line.strip()!r} / {after.strip()!r}")
    assert not wrapped


def test_examples_keep_their_lines_and_indentation(rendered: tuple[int, dict[str, str]]) -> None:
    _, rendered_help = rendered
    shown = {
        name: [line.rstrip() for line in text.splitlines()] for name, text in rendered_help.items()
    }
    assert "   tracker imports --format json" in shown["imports"]
    assert "   tracker import twic1427g.zip tournament.pgn.gz" in shown["import"]
    assert "   tracker explain 2025-11" in shown["explain"]


def test_the_checks_catch_the_breaks_they_are_for() -> None:
    """A docstring's own line breaks, as rich drew them before help_text: caught."""
    description = [
        " Usage: tracker import [OPTIONS] {paths}...",
        "",
        " A file imported before (same content) is recognized and skipped; games already",
        " stored",
        " (from an overlapping file) are skipped as duplicates.",
        "",
        "   tracker import games/ --player x",
        "   tracker import twic1427g.zip",
        "╭─ Arguments ─╮",
    ]
    assert _description_breaks(description, 80) == [
        "'stored' / '(from an overlapping file) are skipped as duplicates.'"
    ]
    panel = [
        "╭─ Commands ─────────────────────────────────────────────────────────────────╮",
        "│ plot      Draw the rating history: the replayed line and the official      │",
        "│           points, one line per                                             │",
        "│           list, periods on the x axis.                                     │",
        "│ db        The database itself.                                             │",
        "╰────────────────────────────────────────────────────────────────────────────╯",
    ]
    assert _panel_breaks(panel) == ["'points, one line per' / 'list, periods on the x axis.'"]


def test_help_text_joins_paragraph_lines_and_keeps_the_rest() -> None:
    doc = """First line
    goes on.

    A paragraph
    on two lines.

    - an item
      that goes on
    - another item

    Examples:

      tracker x --a [b]
      tracker y
    """
    assert help_text(doc).split("\n") == [
        "First line goes on.",
        "",
        "A paragraph on two lines.",
        "",
        "- an item that goes on",
        "- another item",
        "",
        "Examples:",
        "",
        r"[default]  tracker x --a \[b][/default]",
        "[default]  tracker y[/default]",
    ]
    assert help_text(None) == ""


# --- what the QA run found in the help: a bare group, examples, flags without a value -------


@pytest.fixture
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


# --- bug 19: a bare group prints its help, no empty error ---------------------------------


@pytest.mark.usefixtures("_in_tmp")
@pytest.mark.parametrize(
    "group",
    [(), ("official",), ("player",), ("event",), ("db",)],
    ids=lambda g: " ".join(("tracker", *g)),
)
def test_a_bare_group_prints_its_help_alone(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, group: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, monkeypatch, *group)
    assert (code, err) == (0, "")
    assert "Usage:" in out and "Commands" in out


@pytest.mark.usefixtures("_in_tmp")
def test_a_mistyped_command_is_still_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, monkeypatch, "official", "nope")
    assert (code, out) == (2, "")
    assert err.startswith("error: no such command 'nope' (see '")
    assert err.endswith(" official --help')\n") and err.count("\n") == 1


@pytest.mark.usefixtures("_in_tmp")
@pytest.mark.parametrize(
    "args,said",
    [
        (("event", "lst"), "no such command 'lst': did you mean 'list', 'set'? (see '"),
        (("histori",), "no such command 'histori': did you mean 'history'? (see '"),
        (
            ("history", "--fro", "2025-09"),
            "no such option: --fro (did you mean --format, --from, --to?) (see '",
        ),
    ],
)
def test_a_near_miss_is_suggested_once(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    said: str,
) -> None:
    # typer suggests a command itself and click then lists the same names again: said once
    code, out, err = run(capsys, monkeypatch, *args)
    assert (code, out) == (2, "")
    assert err.startswith("error: " + said) and err.count("did you mean") == 1, err


# --- bug 22: examples in every help, flags without a metavar ------------------------------


def _command_paths() -> list[tuple[str, ...]]:
    import typer.main

    from tracker.cli import app

    def paths(command: object, prefix: tuple[str, ...]) -> list[tuple[str, ...]]:
        found = [prefix]
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            found.extend(paths(sub, (*prefix, name)))
        return found

    return paths(typer.main.get_command(app), ())


@pytest.mark.usefixtures("_in_tmp")
@pytest.mark.parametrize("path", _command_paths(), ids=lambda p: " ".join(("tracker", *p)))
def test_every_help_has_an_example_and_flags_show_no_value(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, path: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, monkeypatch, *path, "--help")
    assert (code, err) == (0, "")
    assert "Example" in out
    assert "<bool>" not in out
    help_line = next(line for line in out.splitlines() if line.lstrip("│ ").startswith("--help"))
    assert help_line.split("--help")[1].split()[:2] == ["-h", "Show"]


def test_a_group_shows_the_first_example_of_each_command() -> None:
    from tracker.cli.help import first_example, with_examples

    assert first_example("Do it.\n\nExample: tracker a --x 1\n") == "tracker a --x 1"
    assert first_example("Do it.\n\nExamples:\n\n  tracker b\n\n  tracker c\n") == "tracker b"
    assert first_example("Do it, as tracker does.") is None
    assert with_examples("The group.", ["Example: tracker g a", None, "No example."]) == (
        "The group.\n\nExamples:\n\n  tracker g a"
    )
    assert with_examples("Own.\n\nExample:\n\n  tracker g", ["Example: tracker g a"]) == (
        "Own.\n\nExample:\n\n  tracker g"
    )


@pytest.mark.usefixtures("_in_tmp")
def test_a_flag_given_a_value_is_not_taken_for_its_value(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `--strict` takes no value: `true` after it is the file to import (and none exists).
    code, _, err = run(capsys, monkeypatch, "import", "--strict", "true", "--db", "n.db")
    assert (code, err) == (2, "error: no such file or folder: true\n")
