"""What every page of tracker shares (the season report, a tournament's page, a club's
list): the style sheet, the escaping of a text from the database, the sentences of the
reports as HTML (a command as code), and how long a part stays open. Kept apart from the
chart (tracker.reports.plot, matplotlib), so that a page without one starts fast."""

from __future__ import annotations

import html

from tracker.reports.chart import visible
from tracker.reports.said import Command, Said

__all__ = ["CSS", "SHORT", "esc", "prose"]

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


def prose(value: object) -> str:
    """A sentence of the reports as HTML (esc): each command it carries (tracker.reports.said:
    a Command, or the commands of a Said) as code, without the backticks a terminal shows; a
    plain string is text (no command is looked for in it)."""
    if isinstance(value, Command):
        return f"<code>{html.escape(visible(value.line))}</code>"
    if isinstance(value, Said):
        return "".join(prose(p) for p in value.parts)
    return esc(value)


SHORT = 12  # a part of at most this many periods (a season of monthly lists) is shown open
