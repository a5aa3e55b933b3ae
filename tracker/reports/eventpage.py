"""A tournament as one self-contained HTML page (`tracker report --event`), in the look of the
season report (its CSS, tracker.reports.season): the standings with each player's change
(the cells of `tracker event show`, tracker.reports.event), the crosstable, the unrated
players' way to a first rating, the games not counted, the notes. No network, script or
font: inline CSS only; every text from the database is escaped."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from tracker.app.event_show import EventPlayer, EventShow, EventStatus, GameNotCounted
from tracker.reports.event import (
    event_notes,
    event_table,
    event_title,
    first_text,
    ordered,
    ranks,
    table_headers,
    table_right,
)
from tracker.reports.pagestyle import CSS, SHORT, esc, prose
from tracker.reports.said import command_line
from tracker.reports.text import fmt_points, fmt_signed
from tracker.reports.words import reason_text

# --- the page ----------------------------------------------------------------------------

PAGE_CSS = (
    CSS
    + """
table.cross td, table.cross th { padding: 2px 5px; }
td.win { background: #e6f2e6; } td.loss { background: #f8e6e4; } td.draw { background: #f3f5f8; }
td.nc { color: var(--muted); text-decoration: line-through; }
.pos { color: #1f7a1f; } .neg { color: #b03a2e; }
"""
)


def _html_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    numeric: Sequence[int] = (),
    cls: str = "",
    cell_classes: Sequence[Sequence[str]] | None = None,
) -> str:
    num = set(numeric)
    head = "".join(
        f"<th{' class=n' if i in num else ''}>{esc(h)}</th>" for i, h in enumerate(headers)
    )
    body = []
    for k, r in enumerate(rows):
        cells = []
        for i, c in enumerate(r):
            classes = ["n"] if i in num else []
            if cell_classes is not None and cell_classes[k][i]:
                classes.append(cell_classes[k][i])
            attr = f' class="{" ".join(classes)}"' if classes else ""
            cells.append(f"<td{attr}>{prose(c)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<div class="wide"><table{klass}><thead><tr>{head}</tr></thead><tbody>'
        + "".join(body)
        + "</tbody></table></div>"
    )


def _round_of(text: str | None) -> int | None:
    """The round's number from the Round tag ("3", "3.12": round 3, board 12)."""
    if not text:
        return None
    head = text.strip().split(".")[0]
    return int(head) if head.isdigit() else None


def _crosstable(ev: EventShow, players: list[EventPlayer]) -> str:
    """One row per player, one column per round: the opponent's number (the row of the
    standings, 1 to n, ties in the order shown), the colour and the
    result (a game that did not count is struck through)."""
    place = {p.player.id: i for i, p in enumerate(players, start=1)}
    rounds = sorted(
        {r for p in players for g in p.results if (r := _round_of(g.round)) is not None}
    )
    if not rounds:
        return ""
    col = {r: i for i, r in enumerate(rounds)}
    headers = ["No.", "Player", "Ro", *(str(r) for r in rounds), "Pts"]
    rows, classes = [], []
    for p in players:
        cells: list[str] = [""] * len(rounds)
        kinds: list[str] = [""] * len(rounds)
        for g in p.results:
            r = _round_of(g.round)
            if r is None:
                continue
            opp = place.get(g.opponent_id)
            result = {Fraction(1): "1", Fraction(1, 2): "½", Fraction(0): "0"}.get(
                g.score if g.score is not None else Fraction(-1), "*"
            )
            text = f"{opp if opp is not None else '?'}{'w' if g.white else 'b'}{result}"
            i = col[r]
            cells[i] = text if not cells[i] else f"{cells[i]} {text}"
            kind = {"1": "win", "0": "loss", "½": "draw"}.get(result, "")
            kinds[i] = "nc" if not g.counted else kind
        rows.append(
            [
                str(place[p.player.id]),
                p.player.name,
                "" if p.ro is None else str(p.ro),
                *cells,
                fmt_points(p.score),
            ]
        )
        classes.append(["", "", "", *kinds, ""])
    return _html_table(
        headers, rows, numeric=(0, 2, len(headers) - 1), cls="cross", cell_classes=classes
    )


def _signed_class(x: Decimal | None) -> str:
    if x is None or x == 0:
        return ""
    return "pos" if x > 0 else "neg"


def event_page(ev: EventShow, *, version: str = "") -> str:
    """The tournament as one self-contained HTML page: the standings with each player's
    change, the crosstable, the unrated players' way to a first rating, the games not
    counted and the assumptions. No network, script or font: inline CSS only; every text
    from the database escaped."""
    players = ordered(ev)
    place = ranks(ev)
    firsts = [p for p in players if p.first is not None]
    parts = [_head(ev, players, firsts), *_standings(ev, players)]
    cross = _crosstable(ev, players)
    if cross:
        parts.append("<h2>Crosstable</h2>")
        parts.append(
            '<p class="muted">No.: the row of the standings. Each round: the opponent\'s '
            "No., w or b for the colour, and the result; a game that did not count is "
            "struck through.</p>"
        )
        parts.append(cross)
    if firsts:
        parts += _toward_first(firsts, place)
    skipped = [(p, n) for p in players for n in p.not_counted]
    if skipped:
        parts += _not_counted(skipped, place)
    made = f"tracker {version}" if version else "tracker"
    parts.append(
        f"<footer>Made by {esc(made)} from the games and official ratings in its database. "
        f"Each player is rated as {prose(command_line('explain'))} rates them: Ro from the "
        "list in "
        "force at the start (else the player's own Elo tag), K from the player's facts and "
        "history, the 400-point cap of the edition in force. What FIDE publishes is the "
        "rating that counts.</footer></body></html>\n"
    )
    return "".join(parts)


def _head(ev: EventShow, players: list[EventPlayer], firsts: list[EventPlayer]) -> str:
    """The page's head, its title and the key figures."""
    t = ev.tournament
    rated = [p for p in players if p.status is EventStatus.RATED]
    gains = sum((p.change_exact or Decimal(0) for p in rated), Decimal(0))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(t.name)}: FIDE rating report</title><style>{PAGE_CSS}</style></head>"
        f"<body><header><h1>{esc(t.name)}</h1>"
        f'<p class="muted">{esc(event_title(ev))} · each player rated by FIDE\'s rules, '
        "replayed from the games</p></header>"
        '<div class="key">'
        f"<div>Players<b>{len(players)}</b></div>"
        f"<div>Rated<b>{len(rated)}</b></div>"
        f"<div>Toward a first rating<b>{len(firsts)}</b></div>"
        f"<div>Games<b>{ev.lists.get(ev.rating_list, 0):,}</b>"
        f'<span class="muted">on the {esc(ev.rating_list)} list</span></div>'
        f"<div>Sum of K x (W - We)<b>{esc(fmt_signed(gains) or '0.00')}</b>"
        '<span class="muted">of the rated players</span></div>'
        "</div>"
    )


def _standings(ev: EventShow, players: list[EventPlayer]) -> list[str]:
    """Each player's change: the standings, and the notes under them."""
    parts = ["<h2>Each player's change</h2>"]
    cells = event_table(ev)
    headers = ["K x (W - We)" if h == "Chg" else h for h in table_headers(ev)]
    chg = headers.index("K x (W - We)")
    classes = [["" for _ in headers] for _ in players]
    for row, p in zip(classes, players, strict=True):
        row[chg] = _signed_class(p.change_exact)
    if not any(c[-1] for c in cells):  # no note: no column for it
        headers, cells, classes = headers[:-1], [c[:-1] for c in cells], [c[:-1] for c in classes]
    parts.append(
        _html_table(headers, cells, numeric=table_right(ev), cls="standings", cell_classes=classes)
    )
    parts += [f'<p class="note">{prose(x)}</p>' for x in event_notes(ev)]
    return parts


def _toward_first(firsts: list[EventPlayer], place: dict[int, int]) -> list[str]:
    """The unrated players' way to a first rating."""
    parts = ["<h2>Toward a first rating</h2>"]
    rows = []
    for p in firsts:
        f = p.first
        assert f is not None
        rows.append(
            [
                str(place[p.player.id]),
                p.player.name,
                str(f.games),
                fmt_points(f.points),
                str(f.needed),
                "" if f.rating is None else str(f.rating),
                first_text(f),
            ]
        )
    parts.append(
        _html_table(
            ["#", "Player", "Games", "Pts", "Needed", "First rating", "So far"],
            rows,
            numeric=(0, 2, 3, 4, 5),
        )
    )
    edition = firsts[0].first
    assert edition is not None
    parts.append(
        f'<p class="note">Games against rated opponents in the {edition.window_months} '
        "months before the list, under the regulations in force on it (from "
        f"{esc(edition.edition.isoformat())}); a first rating is published from "
        f"{edition.needed} such games on.</p>"
    )
    return parts


def _not_counted(
    skipped: list[tuple[EventPlayer, GameNotCounted]], place: dict[int, int]
) -> list[str]:
    """The games not counted, folded when there are many."""
    counts: dict[str, int] = {}
    reasons = [reason_text(n.why, n.detail) for _, n in skipped]
    for reason in reasons:
        counts[reason] = counts.get(reason, 0) + 1
    table = _html_table(
        ["#", "Player", "Round", "Opponent", "Why"],
        [
            [str(place[p.player.id]), p.player.name, n.round or "", n.opponent, reason]
            for (p, n), reason in zip(skipped, reasons, strict=True)
        ],
        numeric=(0,),
    )
    said = ", ".join(f"{why} {n}" for why, n in sorted(counts.items(), key=lambda x: -x[1]))
    return [
        "<h2>Games not counted</h2>",
        f'<details class="part not-counted"{" open" if len(skipped) <= SHORT else ""}>'
        f"<summary>{len(skipped)} game{'' if len(skipped) == 1 else 's'} "
        f'<span class="muted">({esc(said)})</span></summary>{table}</details>',
    ]
