"""A command of the command line as a value, and a sentence made of text and commands: the
words hand a page the commands they name, and the page shows each as code without looking
for them in the English (tracker.reports.pagestyle.prose). Both are strings whose text is
exactly what the terminal prints, so a sentence still prints, joins and goes into CSV and
JSON as before; only a page reads their parts.

`command_line` is the one maker of a command: no other module of tracker.reports spells
one (tests/test_architecture.py)."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["VERBS", "Command", "Said", "command_line", "joined"]

VERBS = {
    "calc": (),
    "check": (),
    "club": (),
    "db": ("backup", "check", "restore", "upgrade"),
    "demo": (),
    "event": ("list", "set", "show"),
    "explain": (),
    "export": (),
    "history": (),
    "import": (),
    "imports": ("remove",),
    "next": (),
    "official": ("add", "fetch", "import", "list", "remove"),
    "player": ("merge", "set", "unmerge"),
    "players": (),
    "plot": (),
    "report": (),
    "target": (),
}
"""The commands of the command line and their sub-commands (tests/test_report_ivanchuk.py
holds them equal to the CLI's): what a command may start with."""


class Command(str):
    """A command of today's command line ("tracker event set 12 --list rapid"): its text is
    what the terminal prints (in backticks where a sentence quotes it, `quoted`), `line`
    the command itself, what a page shows as code. Made by `command_line`."""

    line: str

    def __new__(cls, line: str, *, ticks: bool = False) -> Command:
        made = super().__new__(cls, f"`{line}`" if ticks else line)
        made.line = line
        return made

    def quoted(self) -> Command:
        """The command as a terminal sentence quotes it: in backticks."""
        return Command(self.line, ticks=True)

    def __add__(self, other: str) -> Said:
        return Said(self, other)

    def __radd__(self, other: str) -> Said:
        return Said(other, self)


def command_line(verb: str, *words: object) -> Command:
    """The command `tracker VERB WORDS...` ("event", "set", 12, "--list", "rapid"); a word
    that is empty is left out (an option not given)."""
    if verb not in VERBS:
        raise ValueError(f"no command {verb!r} on the command line")
    said = [str(w) for w in words if str(w)]
    return Command(" ".join(["tracker", verb, *said]))


class Said(str):
    """A sentence made of text and commands (`parts`, a Command among them as itself): its
    text is the parts joined, what the terminal prints; a page draws each command as code.
    `+` with a string keeps a Said (`"Note: " + said`, and so does `+` with a Command); an
    f-string makes a plain string."""

    parts: tuple[str, ...]

    def __new__(cls, *parts: str) -> Said:
        flat: list[str] = []
        for p in parts:
            flat += p.parts if isinstance(p, Said) else [p] if p else []
        made = super().__new__(cls, "".join(flat))
        made.parts = tuple(flat)
        return made

    def __add__(self, other: str) -> Said:
        return Said(self, other)

    def __radd__(self, other: str) -> Said:
        return Said(other, self)

    def strip(self, chars: str | None = None) -> Said:
        """The sentence without the white space at its ends (a command is never cut)."""
        parts = list(self.parts)
        while parts and not isinstance(parts[0], Command) and not parts[0].lstrip(chars):
            parts.pop(0)
        if parts and not isinstance(parts[0], Command):
            parts[0] = parts[0].lstrip(chars)
        while parts and not isinstance(parts[-1], Command) and not parts[-1].rstrip(chars):
            parts.pop()
        if parts and not isinstance(parts[-1], Command):
            parts[-1] = parts[-1].rstrip(chars)
        return Said(*parts)


def joined(separator: str, items: Iterable[str]) -> Said:
    """`separator.join(items)`, a Said whose commands stay commands."""
    parts: list[str] = []
    for i, item in enumerate(items):
        parts += [separator, item] if i else [item]
    return Said(*parts)
