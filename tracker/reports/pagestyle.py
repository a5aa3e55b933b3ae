"""What every page of tracker shares (the season report, a tournament's page, a club's
list): the style sheet, the escaping of a text from the database, the sentences of the
reports as HTML (a command as code), and how long a part stays open. Kept apart from the
chart (tracker.reports.plot, matplotlib), so that a page without one starts fast."""

from __future__ import annotations

import html
import re

from tracker.reports.chart import visible

__all__ = ["CSS", "FLAGS", "SHORT", "VERBS", "esc", "prose"]

CSS = """
:root { color-scheme: light; --ink: #1d2733; --muted: #5b6776; --rule: #d8dee6;
  --standard: #1f5fa8; --rapid: #d0741c; --blitz: #3a8f3a; --gap: #c0392b; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 24px 20px 48px; color: var(--ink);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; background: #fff; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 36px 0 8px; padding-top: 12px; border-top: 3px solid
  var(--accent, var(--ink)); }
h3 { font-size: 16px; margin: 22px 0 6px; }
h4 { font-size: 14px; margin: 14px 0 4px; }
p { margin: 4px 0; }
.muted, figcaption, .note { color: var(--muted); }
nav a { margin-right: 14px; }
a { color: #1f5fa8; }
.standard { --accent: var(--standard); } .rapid { --accent: var(--rapid); }
.blitz { --accent: var(--blitz); }
.key { display: flex; flex-wrap: wrap; gap: 10px 28px; margin: 10px 0; }
.key div { min-width: 150px; }
.key b { display: block; font-size: 22px; }
figure { margin: 10px 0; }
figure svg { width: 100%; height: auto; display: block; }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 13px;
  font-variant-numeric: tabular-nums; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--rule); text-align: left;
  vertical-align: top; }
th { background: #f3f5f8; font-weight: 600; }
td.n, th.n { text-align: right; white-space: nowrap; }
th, td:first-child { white-space: nowrap; }  /* a period, a date: one line */
.wide { overflow-x: auto; }
details { border: 1px solid var(--rule); border-radius: 6px; margin: 8px 0;
  padding: 4px 12px; }
summary { cursor: pointer; font-weight: 600; padding: 4px 0; }
details.part { border: 0; padding: 0; margin: 18px 0 6px; }
details.part > summary { font-size: 16px; }
details.part > summary .muted { font-size: 14px; font-weight: 400; }
details.part[open] > summary { margin-bottom: 4px; }
li.folds { list-style: none; }
details.names { border: 0; padding: 0; margin: 0; }
details.names > summary { font-weight: 400; padding: 0; }
details.names > p { margin: 2px 0 6px; font-size: 13.5px; }
.glance { margin: 14px 0 4px; padding: 10px 14px; background: #f3f5f8; border-radius: 6px; }
.glance ul { list-style: none; padding-left: 0; margin: 6px 0 0; }
.glance li { margin: 3px 0; }
code { font-size: 12.5px; background: #f3f5f8; padding: 1px 4px; border-radius: 3px; }
ul { margin: 4px 0; padding-left: 22px; }
footer { margin-top: 40px; font-size: 12.5px; color: var(--muted); }
@media print { details { break-inside: avoid; } details > * { display: block; } }
"""


def esc(value: object) -> str:
    """A value as HTML text: control characters written as escapes, then html.escape."""
    return html.escape(visible("" if value is None else str(value)))


_COMMAND = re.compile(r"`(tracker [^`]*)`")

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
"""The commands of the command line and their sub-commands (tests/test_season_report.py
holds them equal to the CLI's): what a sentence may name without backticks."""

FLAGS = frozenset(
    [
        "--all",
        "--dry-run",
        "--ever-2400",
        "--excerpt",
        "--exclude",
        "--force",
        "--help",
        "--include",
        "--me",
        "--merge",
        "--no-ever-2400",
        "--offline",
        "--quiet",
        "--reached-2300",
        "--strict",
        "--unrated",
        "--validate",
        "--version",
        "--whole",
        "--xml",
    ]
)
"""The options that take no value (held equal to the CLI's by the same test)."""

_TOKEN = re.compile(r'\s+("[^"]*"|\S+)')
_START = re.compile(r"\btracker(?= )")
_END = ").,;:"  # punctuation that ends a command written in a sentence


def _bare_command(text: str, at: int) -> int:
    """The end of the command that starts at `at` ("tracker VERB ..."), a sentence's words
    after it left out: its sub-command, options and their values, placeholders (ID, LIST,
    YYYY-MM), numbers, quoted names, the first argument that is not a lowercase word; a
    token ending in ), . , ; or : ends the command before that mark. `at` itself when no
    command of the CLI starts there."""
    end = at + len("tracker")
    found = _TOKEN.match(text, end)
    if found is None or found.group(1).rstrip(_END) not in VERBS:
        return at
    verb = found.group(1).rstrip(_END)
    if verb != found.group(1):
        return found.start(1) + len(verb)
    end = found.end()
    expects_value = False
    subs = VERBS[verb]
    if subs:
        found = _TOKEN.match(text, end)
        if found is None or found.group(1).rstrip(_END) not in subs:
            return end
        if found.group(1)[-1] in _END:
            return found.end() - 1
        end = found.end()
    while (found := _TOKEN.match(text, end)) is not None:
        token = found.group(1)
        bare = token.rstrip(_END) if not token.startswith('"') else token
        if not bare:
            break
        if expects_value:
            ok, expects_value = True, False
        elif bare.startswith("-"):
            ok, expects_value = True, bare not in FLAGS and "=" not in bare
        else:  # a name, an id, a placeholder, a file: not a word of the sentence
            ok = bare.startswith('"') or not re.fullmatch(r"[a-z]+", bare)
        if not ok:
            break
        end = found.start(1) + len(bare)
        if bare != token:
            break
    return end


def prose(value: object) -> str:
    """A sentence of the reports as HTML (esc), each command it names as code, whether
    written `tracker ...` for a terminal or bare ("(tracker event set 12 --list rapid)"):
    a page shows no backticks, and a command reads as one."""
    text = visible("" if value is None else str(value))
    out: list[str] = []
    at = 0
    while at < len(text):
        quoted = _COMMAND.search(text, at)
        bare = _START.search(text, at)
        while bare is not None and (quoted is None or bare.start() < quoted.start()):
            end = _bare_command(text, bare.start())
            if end > bare.start() + len("tracker"):
                break
            bare = _START.search(text, bare.end())
        if bare is not None and (quoted is None or bare.start() < quoted.start()):
            end = _bare_command(text, bare.start())
            out.append(html.escape(text[at : bare.start()]))
            out.append(f"<code>{html.escape(text[bare.start() : end])}</code>")
            at = end
        elif quoted is not None:
            out.append(html.escape(text[at : quoted.start()]))
            out.append(f"<code>{html.escape(quoted.group(1))}</code>")
            at = quoted.end()
        else:
            out.append(html.escape(text[at:]))
            break
    return "".join(out)


SHORT = 12  # a part of at most this many periods (a season of monthly lists) is shown open
