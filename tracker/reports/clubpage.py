"""A club's list as one self-contained HTML page (`tracker club --html`), for the
noticeboard, in the look of the season report (its CSS, tracker.reports.season): the key
figures, the players with their expected change (the cells of `tracker club`,
tracker.reports.club) sorted by name or by change at a click (two tables and a radio
button each: CSS, no script), what was assumed and who was left out. No network, script
or font: inline CSS only; every text from the database is escaped."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from tracker.app.club import ClubList
from tracker.reports.club import (
    EACH_PLAYER,
    TABLE_HEADERS,
    TABLE_RIGHT,
    ClubRow,
    Order,
    chosen_text,
    club_notes,
    club_rows,
    common_next,
    ordered,
    table_cells,
)
from tracker.reports.pagestyle import CSS, esc, prose
from tracker.reports.said import Said, command_line

PAGE_CSS = (
    CSS
    + """
.pos { color: #1f7a1f; } .neg { color: #b03a2e; }
td.assumed { color: #8a5a00; }
tr.me td { font-weight: 600; }
.sorts > input { position: absolute; opacity: 0; pointer-events: none; }
.sorts > label { display: inline-block; margin: 6px 6px 2px 0; padding: 3px 12px;
  border: 1px solid var(--rule); border-radius: 14px; cursor: pointer; font-size: 14px; }
.sorts > input:checked + label { background: var(--ink); color: #fff; border-color: var(--ink); }
.sorts > input:focus-visible + label { outline: 2px solid #1f5fa8; }
.sorts .by-change { display: none; }
#sort-change:checked ~ .by-change { display: block; }
#sort-change:checked ~ .by-name { display: none; }
@media print { .sorts > label { display: none; } body { max-width: none; } }
"""
)

PAGE_HEADERS = [
    {"Chg": "Change", "G": "Games", "Next": "Next list"}.get(h, h) for h in TABLE_HEADERS
]
"""The table's headers, spelt out (the page has the room)."""


def _table(rows: Sequence[ClubRow], keep: Sequence[int]) -> str:
    num = set(TABLE_RIGHT)
    chg, assumed = TABLE_HEADERS.index("Chg"), TABLE_HEADERS.index("Assumed")
    head = "".join(f"<th{' class=n' if i in num else ''}>{esc(PAGE_HEADERS[i])}</th>" for i in keep)
    body = []
    for r in rows:
        cells = table_cells(r)
        out = []
        for i in keep:
            classes = ["n"] if i in num else []
            if i == chg and r.change:
                classes.append("pos" if r.change > 0 else "neg")
            if i == assumed and cells[i]:
                classes.append("assumed")
            attr = f' class="{" ".join(classes)}"' if classes else ""
            out.append(f"<td{attr}>{esc(cells[i])}</td>")
        mine = ' class="me"' if r.player.is_me else ""
        body.append(f"<tr{mine}>{''.join(out)}</tr>")
    return (
        '<div class="wide"><table class="club"><thead><tr>'
        f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


LEGEND = (
    ("Rating", "Rating: the last official rating, else the rating the replay starts from (From)"),
    ("Expected", "Expected: the rating expected on the next list"),
    ("Chg", "Change: Expected - Rating"),
    ("G", "Games: the games counted since"),
)
"""What the page's legend says of each column it may show (by TABLE_HEADERS)."""


def page_legend(shown: Sequence[str]) -> Said:
    """The legend of the columns `shown` (TABLE_HEADERS): a column the page dropped (no
    player has anything in it) is not explained."""
    said = [text for header, text in LEGEND[1:] if header in shown]
    parts = [LEGEND[0][1]] if LEGEND[0][0] in shown else []
    parts += ["; ".join(said)] if said else []
    return "".join(f"{p}. " for p in parts) + EACH_PLAYER


def club_page(
    club: ClubList,
    today: dt.date,
    order: Order = Order.name,
    *,
    title: str | None = None,
    version: str = "",
) -> str:
    """The list as one self-contained HTML page: `order` shown first, the other a click
    away."""
    by_name = club_rows(club, today, Order.name)
    by_change = ordered(by_name, Order.change)
    rl = club.rating_list
    heading = title.strip() if title and title.strip() else f"Expected {rl} ratings"
    cells = [table_cells(r) for r in by_name]
    keep = [i for i, h in enumerate(TABLE_HEADERS) if h == "Player" or any(c[i] for c in cells)]
    nxt = common_next(by_name)
    up = sum(1 for r in by_name if r.change is not None and r.change > 0)
    down = sum(1 for r in by_name if r.change is not None and r.change < 0)
    games = sum(r.games for r in by_name)
    assumed = sum(1 for r in by_name if r.list_assumed or r.assumptions)
    first, second = ("name", "change") if order is Order.name else ("change", "name")
    tables = {"name": _table(by_name, keep), "change": _table(by_change, keep)}
    labels = {"name": "By name", "change": "By expected change"}
    sorts = "".join(
        f'<input type="radio" name="sort" id="sort-{k}"{" checked" if k == first else ""}>'
        f'<label for="sort-{k}">{labels[k]}</label>'
        for k in ("name", "change")
    )
    made = f"tracker {version}" if version else "tracker"
    who = chosen_text(club)
    parts = [
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(heading)}: FIDE ratings expected</title><style>{PAGE_CSS}</style>"
        f"</head><body><header><h1>{esc(heading)}</h1>"
        f'<p class="muted">{esc(who[:1].upper() + who[1:])} · the {esc(rl)} ratings expected '
        "on the next FIDE list, each player replayed from the games by FIDE's rules · "
        f"{esc(today.isoformat())}</p></header>",
        '<div class="key">'
        f"<div>Players<b>{len(by_name):,}</b></div>"
        + (
            f'<div>Next list<b>{esc(nxt)}</b><span class="muted">of most players</span></div>'
            if nxt is not None
            else ""
        )
        + f'<div>Expected up<b>{up:,}</b><span class="muted">down {down:,}</span></div>'
        f'<div>Games since<b>{games:,}</b><span class="muted">counted</span></div>'
        f'<div>Assumed<b>{assumed:,}</b><span class="muted">players: list or K</span></div>'
        "</div>",
        f'<div class="sorts">{sorts}'
        + "".join(f'<div class="by-{k}">{tables[k]}</div>' for k in (first, second))
        + "</div>",
    ]
    legend = page_legend([TABLE_HEADERS[i] for i in keep])
    parts += [f'<p class="note">{prose(x)}</p>' for x in [legend, *club_notes(club, by_name)[1:]]]
    parts.append(
        f"<footer>Made by {esc(made)} from the games and official ratings in its database, "
        f"each player replayed as {prose(command_line('next'))} replays them. What FIDE "
        "publishes "
        "is the rating that counts.</footer></body></html>\n"
    )
    return "".join(parts)
