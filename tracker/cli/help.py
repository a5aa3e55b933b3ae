"""The --help texts: docstrings reflowed for rich, and a group's help ending with the first
example of each of its commands."""

from __future__ import annotations

import inspect
import re

_LIST_ITEM = re.compile(r"(?:[-*•]|\d{1,2}[.)])\s")
_MARKUP_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")  # what rich.markup.escape escapes


def help_text(doc: str | None) -> str:
    """A docstring as --help text that rich reflows to the terminal's width.

    Rich keeps every line break of a help text and wraps the lines again at the terminal's
    width, so a docstring's own breaks land mid-sentence ("games already / stored"). Here the
    lines of a paragraph are joined into one; what is meant to stand on its own line stays:
    paragraphs (a blank line between), indented lines (examples) and list items ("- ", "1. ").
    An indented line is wrapped in an invisible rich style so that typer's dedent of the text
    after the first paragraph keeps its indentation even when only examples follow.

    Why not typer's own rendering (typer 0.25, measured on every --help at 80 and 120
    columns): in rich markup mode typer joins the lines of the first paragraph only (`\\b`
    is honoured there alone), so 18 of the 31 helps break mid-sentence at both widths, and
    its dedent of the rest leaves the examples of 8 helps at the margin; markdown mode
    reflows paragraphs but draws an indented example as a code block (a padded box with its
    own background) or, indented less than four spaces, at the margin, and takes backquotes,
    * and _ as markup (those of "Start with `tracker demo`" vanish); no markup mode is
    click's plain help, without the panels. Each changes how the help looks.
    """
    lines: list[str] = []
    kind = ""  # of the line before: "" (blank), "text", "item" or "example"
    for line in inspect.cleandoc(doc or "").split("\n"):
        text = line.strip()
        if not text:
            lines.append("")
            kind = ""
        elif line[0].isspace() and kind != "item":  # an example: kept as it is
            escaped = _MARKUP_TAG.sub(r"\1\1\\\2", line.rstrip())
            lines.append(f"[default]{escaped}[/default]")
            kind = "example"
        elif _LIST_ITEM.match(text) and not line[0].isspace():
            lines.append(text)
            kind = "item"
        elif kind in ("text", "item"):  # the paragraph (or the list item) goes on
            lines[-1] = f"{lines[-1]} {text}"
        else:
            lines.append(text)
            kind = "text"
    return "\n".join(lines)


_EXAMPLE = re.compile(r"^(?:Examples?:\s*)?(tracker\s.*)$")


def first_example(doc: str | None) -> str | None:
    """The first example of a command's help: the first line after "Example(s):" (or on it)
    that starts with `tracker `."""
    seen = False
    for line in inspect.cleandoc(doc or "").split("\n"):
        text = line.strip()
        if text.startswith(("Example:", "Examples:")):
            seen = True
        found = _EXAMPLE.match(text) if seen else None
        if found:
            return found.group(1)
    return None


def with_examples(help_: str, docs: list[str | None]) -> str:
    """A group's help with the first example of each of its commands (unless it has its
    own examples): every --help shows how it is used, and the group's stay in step with its
    commands' own."""
    if re.search(r"^\s*Examples?:", help_, re.M):
        return help_
    examples = [e for e in map(first_example, docs) if e]
    if not examples:
        return help_
    shown = "\n\n".join(f"  {e}" for e in examples)
    return f"{help_.rstrip()}\n\nExamples:\n\n{shown}"
