"""The README is a front door that tells the truth, and every link of the docs leads somewhere.

- Its quick start is the two commands `.ci/run` and a newcomer run.
- It stays short (at most README_LINES lines) and links every document of docs/ (the
  details live there, each tested where it is), the season report's screenshot among them.
- An excerpt between `<!-- BEGIN docs/X.md: $ COMMAND -->` and `<!-- END docs/X.md: $ COMMAND -->`
  is the console block of that command in docs/X.md, whose real output its own test re-runs
  (docs/walkthrough.md: tests/test_cli_reports_walkthrough.py). After the document changes,
  regenerate with:
      TRACKER_WRITE_README=1 python -m pytest tests/test_readme.py
- Its command table has a row for every command of `tracker --help` (and every subcommand
  named in its group's row), and every `tracker ...` command it or a document of docs/
  shows (a code span, an sh or console block) names a real command and real options.
- Every policy (tracker/fide/policies.py, and the "Policy:" constants of
  tracker/periods/policies.py) is named in the README and in docs/rules.md, which it links.
- Every relative link (and image) of README.md and docs/*.md points to a file that exists,
  and an anchor `#x` to a heading of that file.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

README = REPO / "README.md"
DOCS = REPO / "docs"
README_LINES = 250
README_CHARS = 20_000  # a third of what the README held when it embedded the docs

EXCERPT = re.compile(
    r"(<!-- BEGIN (docs/[\w.-]+\.md): \$ ([^\n]+?) -->\n)(.*?)"
    r"(<!-- END \2: \$ \3 -->)",
    re.S,
)
FENCE = re.compile(r"^```.*?^```[ \t]*$", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)

# The documents the front door must lead to (issue 15), beyond "every file of docs/".
REQUIRED_LINKS = [
    "docs/walkthrough.md",
    "docs/import.md",
    "docs/rules.md",
    "docs/check.md",
    "docs/export.md",
    "docs/lists.md",
    "docs/reliability.md",
    "docs/performance.md",
    "docs/report.md",
    "docs/postgresql.md",
    "docs/season-report.png",
]


def _readme() -> str:
    return README.read_text(encoding="utf-8")


def _console_block(doc: str, command: str) -> str:
    """The first console block of docs/X.md that runs `$ command`, fences included."""
    text = (REPO / doc).read_text(encoding="utf-8")
    for block in re.findall(r"^```console\n.*?^```\n", text, re.S | re.M):
        if block.startswith(f"```console\n$ {command}\n"):
            return str(block)
    raise AssertionError(f"{doc} has no console block of `$ {command}`")


def test_excerpts_are_current() -> None:
    text = _readme()
    excerpts = EXCERPT.findall(text)
    assert excerpts, "README shows no excerpt of real output"
    if os.environ.get("TRACKER_WRITE_README"):
        text = EXCERPT.sub(
            lambda m: m.group(1) + _console_block(m.group(2), m.group(3)) + m.group(5), text
        )
        README.write_text(text, encoding="utf-8")
        return
    for _begin, doc, command, body, _end in excerpts:
        assert body == _console_block(doc, command), (
            f"README's excerpt of `{command}` from {doc} is stale: "
            "TRACKER_WRITE_README=1 python -m pytest tests/test_readme.py"
        )


def test_quick_start_is_what_ci_runs() -> None:
    text = _readme()
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    test_command = "pip install -e '.[dev]' && pytest"
    assert test_command in text and test_command in ci
    assert "pip install -e '.[dev]' && tracker demo" in text


def test_the_readme_is_a_front_door() -> None:
    text = _readme()
    lines = text.splitlines()
    assert len(lines) <= README_LINES, f"README.md has {len(lines)} lines: move details to docs/"
    assert len(text) <= README_CHARS, f"README.md has {len(text)} characters"
    assert "BEGIN docs/" not in EXCERPT.sub("", text), "a whole document embedded again?"


def _links(path: Path) -> list[str]:
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    return LINK.findall(text)


def test_the_readme_links_every_document() -> None:
    linked = {target.split("#")[0] for target in _links(README)}
    docs = sorted(f"docs/{p.name}" for p in DOCS.glob("*.md"))
    assert docs
    missing = [d for d in [*REQUIRED_LINKS, *docs] if d not in linked]
    assert not missing, f"README.md does not link {missing}"


def _slug(heading: str) -> str:
    # GitHub's anchors: lower case, punctuation dropped (letters, digits, _ and - kept),
    # each space a hyphen.
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"#{1,6} (.+)", line)
        if m:
            slug = _slug(m.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def test_every_relative_link_points_to_a_file() -> None:
    broken = []
    checked = 0
    for page in [README, *sorted(DOCS.glob("*.md"))]:
        for target in _links(page):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            name, _, anchor = target.partition("#")
            dest = (page.parent / name).resolve() if name else page
            checked += 1
            where = f"{page.relative_to(REPO)}: {target}"
            if not dest.exists():
                broken.append(f"{where} (no such file)")
            elif not dest.is_relative_to(REPO):
                broken.append(f"{where} (outside the repository)")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{where} (no such heading)")
    assert checked > 20
    assert not broken, "broken links:\n" + "\n".join(broken)


def _tree() -> Any:
    import typer.main

    from tracker.cli import app

    return typer.main.get_command(app)


def _table_rows(text: str) -> dict[str, str]:
    """The command table: the command (first code span of the row) -> the whole row."""
    section = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `tracker ([a-z-]+)[^`]*` \|", line)
        if m:
            rows[m.group(1)] = line
    return rows


def test_the_command_table_has_every_command() -> None:
    group = _tree()
    rows = _table_rows(_readme())
    missing = [name for name in group.commands if name not in rows]
    assert not missing, f"commands of `tracker --help` missing from README's table: {missing}"
    unknown = [name for name in rows if name not in group.commands]
    assert not unknown, f"README's command table names commands tracker has not: {unknown}"
    for name, command in group.commands.items():
        for sub in getattr(command, "commands", {}):
            assert re.search(rf"\b{sub}\b", rows[name]), f"`tracker {name} {sub}` not in its row"


def _commands_shown(text: str) -> list[str]:
    """Every `tracker ...` command a page shows: in a code span, on a line of an sh block
    (or a part of it after &&), after `$ ` in a console block, and the command table's first
    column."""
    found = [span[1:-1] for span in CODE_SPAN.findall(text) if span.startswith("`tracker ")]
    for block in SH_BLOCK.findall(text):
        for line in block.splitlines():
            found += [
                part.strip()
                for part in line.split("&&")
                if part.split() and part.split()[0] == "tracker"
            ]
    found += re.findall(r"^\$ (tracker [^\n]*)", text, re.M)
    return found


def _check_command(group: Any, command: str) -> str | None:
    """None if COMMAND names a real command and only options it has, else why not.
    `[--k K]` is an option; `--rated-games/--ever-2400` two."""
    words = [w.strip("[]") for w in shlex.split(command.split("&&")[0], comments=True)[1:]]
    node = group
    while words and words[0] in getattr(node, "commands", {}):
        node = node.commands[words.pop(0)]
    if node is group and words and not words[0].startswith("-"):
        return "no such command"
    options = {"--help"}
    for param in node.params:
        options.update(o for o in [*param.opts, *param.secondary_opts] if o.startswith("-"))
    given = [o.split("=")[0] for w in words if w.startswith("--") for o in w.split("/")]
    bad = [o for o in given if o not in options]
    return f"no option {', '.join(bad)}" if bad else None


PAGES = ["README.md", *sorted(f"docs/{p.name}" for p in DOCS.glob("*.md"))]


@pytest.mark.parametrize("page", PAGES)
def test_the_commands_shown_are_real(page: str) -> None:
    group = _tree()
    commands = _commands_shown((REPO / page).read_text(encoding="utf-8"))
    wrong = [f"{c}: {why}" for c in commands if (why := _check_command(group, c))]
    assert not wrong, f"{page} shows commands tracker does not have:\n" + "\n".join(wrong)
    if page in ("README.md", "docs/import.md", "docs/walkthrough.md"):
        assert len(commands) >= 5


def test_every_policy_is_listed_in_the_linked_rules() -> None:
    assert "(docs/rules.md)" in _readme()
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    tree = ast.parse((REPO / "tracker" / "fide" / "policies.py").read_text(encoding="utf-8"))
    names = [
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(t, ast.Name) and t.id.isupper()
    ]
    # the replay's own: each constant of tracker/periods/policies.py documented as "Policy: ..."
    policies = REPO / "tracker" / "periods" / "policies.py"
    body = ast.parse(policies.read_text(encoding="utf-8")).body
    for node, doc in zip(body, body[1:], strict=False):
        target = (
            node.targets[0]
            if isinstance(node, ast.Assign)
            else node.target
            if isinstance(node, ast.AnnAssign)
            else None
        )
        if (
            isinstance(target, ast.Name)
            and isinstance(doc, ast.Expr)
            and isinstance(doc.value, ast.Constant)
            and str(doc.value.value).startswith("Policy")
        ):
            names.append(target.id)
    assert "PLAYER_FACTS_LISTS" in names and "GAMES_A_DAY_NOT_STANDARD" in names
    assert len(names) >= 30
    missing = [n for n in names if f"`{n}`" not in text]
    assert not missing, f"policies not named in docs/rules.md: {missing}"
    in_readme = [n for n in names if f"`{n}`" not in _readme()]
    assert not in_readme, f"policies not named in the README: {in_readme}"
