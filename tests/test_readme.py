"""The README tells the truth.

- Its quick start is the two commands `.ci/run` and a newcomer run.
- Sections between `<!-- BEGIN docs/X.md -->` and `<!-- END docs/X.md -->` are the documents
  of docs/ (whose real output their own tests re-run), headings one level down and links
  made relative to the repository root. After changing a document, regenerate with:
      TRACKER_WRITE_README=1 python -m pytest tests/test_readme.py
- Every UNSETTLED policy constant of tracker/fide/policies.py is named in the README.
"""

from __future__ import annotations

import ast
import os
import re

from tests.conftest import REPO

README = REPO / "README.md"
BLOCK = re.compile(r"(<!-- BEGIN (docs/[\w.-]+\.md) -->\n)(.*?)(<!-- END \2 -->)", re.S)


def rendered(doc: str) -> str:
    text = (REPO / doc).read_text(encoding="utf-8")
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    out = []
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("#"):
            line = "#" + line
        out.append(line)
    body = "\n".join(out).strip("\n") + "\n"
    return re.sub(r"\]\((?!https?:|#|docs/|\.\./)([\w.-]+\.md)\)", r"](docs/\1)", body)


def test_included_documents_are_current() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = BLOCK.findall(text)
    assert blocks, "README includes no document"
    if os.environ.get("TRACKER_WRITE_README"):
        text = BLOCK.sub(lambda m: m.group(1) + rendered(m.group(2)) + m.group(4), text)
        README.write_text(text, encoding="utf-8")
        return
    for _begin, doc, body, _end in blocks:
        assert body == rendered(doc), (
            f"README's copy of {doc} is stale: TRACKER_WRITE_README=1 pytest tests/test_readme.py"
        )


def test_quick_start_is_what_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    test_command = "pip install -e '.[dev]' && pytest"
    assert test_command in text and test_command in ci
    assert "pip install -e '.[dev]' && tracker demo" in text


def test_every_policy_is_listed() -> None:
    text = README.read_text(encoding="utf-8")
    tree = ast.parse((REPO / "tracker" / "fide" / "policies.py").read_text(encoding="utf-8"))
    names = [
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(t, ast.Name) and t.id.isupper()
    ]
    assert names
    missing = [n for n in names if n not in text]
    assert not missing, f"policies not named in the README: {missing}"
