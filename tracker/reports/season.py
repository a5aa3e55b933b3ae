"""The season report: one self-contained HTML page a parent or coach opens in any browser and
sends on (`tracker report`).

Per list (standard first), a section with the chart (tracker.reports.plot's SVG of the one chart
model, tracker.reports.chart, inlined: hovering a point shows its period, rating, change and
tournaments), the next list `tracker next` expects, the history table (the columns of
`tracker history`), every assumption the replay made with the command that records the fact,
and each period as FIDE's calculation page shows it (`tracker explain`: a table per
tournament). The headline, the chart and the next list stay in view; the detail (a long list
of games since the last official list, the history table, the assumptions, the calculation
pages) sits in `<details>` with a summary line, open only when it is short, so that a career
of years of periods is a page, not an endless scroll. No network, no script, no font to
fetch: inline CSS and inline SVG only. Every text from the database (names from PGN files
are hostile input) is escaped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import assert_never

from tracker.advice import AddOfficial, SetTournamentList
from tracker.app.histories import PlayerHistory
from tracker.model import Period, PlayerRef, RatingList
from tracker.periods import RatingSource, Replay
from tracker.reports import (
    ExplainGame,
    HistoryRow,
    assumption_command,
    fmt_points,
    fmt_signed,
    history_rows,
    history_table,
    list_assumed_games,
    next_report,
    open_groups,
    plural,
    season_line,
    season_summary,
)
from tracker.reports.chart import (
    Chart,
    chart_footnote,
    chart_list,
    replayed_title,
)
from tracker.reports.explain import (
    ExplainNotCounted,
    ExplainSaid,
    ExplainTournament,
    explain_sections,
)
from tracker.reports.explaingames import not_counted_game, plan_games
from tracker.reports.pagestyle import CSS, SHORT, esc, prose
from tracker.reports.plot import chart_svg
from tracker.reports.said import Said, command_line
from tracker.reports.words import assumed_text, command


def _table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    numeric: Sequence[int] = (),
    row_attrs: Sequence[str] | None = None,
    cls: str = "",
) -> str:
    num = set(numeric)
    head = "".join(
        f"<th{' class=n' if i in num else ''}>{esc(h)}</th>" for i, h in enumerate(headers)
    )
    body = []
    for k, r in enumerate(rows):
        attrs = row_attrs[k] if row_attrs is not None else ""
        cells = "".join(
            f"<td{' class=n' if i in num else ''}>{prose(c)}</td>" for i, c in enumerate(r)
        )
        body.append(f"<tr{attrs}>{cells}</tr>")
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<div class="wide"><table{klass}><thead><tr>{head}</tr></thead><tbody>'
        + "".join(body)
        + "</tbody></table></div>"
    )


_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|xlink:href="#|href="#)([^")]+)')


def inline_svg(svg: str, prefix: str, label: str) -> str:
    """matplotlib's SVG made fit to inline in a page: no XML prolog nor metadata, scaled to
    the width of
    the page, every id prefixed (several charts share one page: their ids and the references
    to them must not meet)."""
    start = svg.index("<svg")
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg[start:], count=1, flags=re.S)
    svg = _ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', svg)
    svg = _REF.sub(lambda m: f"{m.group(1)}{prefix}{m.group(2)}", svg)
    svg = re.sub(
        r'<svg([^>]*?) width="[^"]*" height="[^"]*"',
        lambda m: f'<svg{m.group(1)} role="img" aria-label="{esc(label)}"',
        svg,
        count=1,
    )
    return svg


@dataclass(frozen=True)
class AssumedFact:
    """One thing the replay took without a record: what, in which periods, how to record."""

    text: str
    periods: tuple[Period, ...]
    command: Said


def assumed_facts(replay_: Replay, player: PlayerRef) -> list[AssumedFact]:
    """Every assumption of a list's replay: the facts K rested on, the lists re-anchored on
    the player's own Elo tag, the games put on the list by assumption (no time control)."""
    found: dict[tuple[str, Said], list[Period]] = {}
    anchor = command(AddOfficial(replay_.rating_list), player.command_name)
    for r in replay_.rows:
        for a in r.assumptions:
            found.setdefault(
                (f"K assumes {assumed_text(a)}", Said(assumption_command(a, player))), []
            ).append(r.period)
        if r.source is RatingSource.ELO_TAG:
            found.setdefault(
                (
                    "the list's rating is the player's own Elo tag (no official rating recorded "
                    "for it)",
                    Said(anchor),
                ),
                [],
            ).append(r.period)
        if list_assumed_games(r):
            found.setdefault(
                (
                    "games without a time control put on this list by assumption",
                    Said(command_line("event", "list"), ", then ", command(SetTournamentList())),
                ),
                [],
            ).append(r.period)
    return [
        AssumedFact(text, tuple(periods), command) for (text, command), periods in found.items()
    ]


def _periods_text(periods: Sequence[Period]) -> str:
    if len(periods) <= 6:
        return ", ".join(str(p) for p in periods)
    return f"{periods[0]} to {periods[-1]} ({len(periods)} periods)"


SHORT_SINCE = 6  # the games since the last official list: listed open up to this many periods


def _fold(summary: str, body: str, *, open_: bool, cls: str = "part") -> str:
    """`body` in a <details> with the summary line `summary` (HTML), open when `open_`."""
    state = " open" if open_ else ""
    return f'<details class="{cls}"{state}><summary>{summary}</summary>{body}</details>'


NAMES_SHOWN = 8
"""A list of more tournament names than this is folded: its count in view, the names a
click away (Ivanchuk's 82 tournaments before 2008 are a line, not a paragraph)."""


def _names(what: str, names: Sequence[str]) -> str:
    """`what` (HTML) followed by the tournaments' names: after it when they are few, folded
    in a <details> whose summary is `what` when they are more than NAMES_SHOWN."""
    if len(names) <= NAMES_SHOWN:
        return f'{what}<span class="muted"> · {esc(", ".join(names))}</span>'
    return (
        f'<details class="names"><summary>{what} <span class="muted">(the '
        f"{len(names)} names)</span></summary>"
        f'<p class="muted">{esc(", ".join(names))}</p></details>'
    )


def _item(html_: str) -> str:
    """A list item; one that folds is marked by its disclosure triangle, not a bullet."""
    return (
        f'<li class="folds">{html_}</li>' if html_.startswith("<details") else f"<li>{html_}</li>"
    )


def _span(periods: Sequence[object]) -> str:
    """ "7 periods, 2025-09 to 2026-04" (the periods' names, as HTML)."""
    if not periods:
        return "no period"
    first, last = periods[0], periods[-1]
    where = esc(first) if first == last else f"{esc(first)} to {esc(last)}"
    return f"{esc(plural(len(periods), 'period'))}, {where}"


def _next_block(replay_: Replay, player: PlayerRef) -> str:
    rep = next_report(replay_, player)
    rl = rep.rating_list
    parts = ['<div class="key">']
    if rep.last_official is not None:
        parts.append(
            f"<div>Last official<b>{esc(rep.last_rating)}</b>"
            f'<span class="muted">{esc(rep.last_official)} list</span></div>'
        )
    else:
        parts.append('<div>Last official<b>none</b><span class="muted">recorded</span></div>')
    if rep.rows and rep.waiting:
        parts.append(
            '<div>Expected next list<b data-expected="unknown">unknown</b><span class="muted">'
            f"waits for an official {esc(rl)} rating (the events' Elo tags are the standard "
            "rating)</span></div>"
        )
    elif rep.rows:
        final = "unrated" if rep.expected is None else str(rep.expected)
        parts.append(
            f'<div>Expected next list<b data-expected="{esc(final)}">{esc(final)}'
            f'</b><span class="muted">{esc(rep.next_period)} list</span></div>'
        )
    parts.append("</div>")
    if not rep.rows:
        parts.append(
            "<p>No games since the last official list: the next list should show "
            "the same rating.</p>"
        )
    else:
        items = []
        for r in rep.rows:
            before = "unrated" if r.rating_before is None else str(r.rating_before)
            after = "unrated" if r.published is None else str(r.published)
            change = fmt_signed(r.change) if r.change is not None else ""
            line = (
                f"{esc(r.period)}: {esc(before)} → {esc(after)} "
                f"({esc(plural(r.games, 'game'))}, change {esc(change or '0')})"
            )
            items.append(_item(_names(line, [p.unit.label for p in r.tournaments])))
        head = f"Games since the last official {esc(rl)} list, by the list expected to rate them"
        if len(rep.rows) <= SHORT_SINCE:
            parts.append(f"<p>{head}:</p><ul>{''.join(items)}</ul>")
        else:
            games = sum(r.games for r in rep.rows)
            parts.append(
                _fold(
                    f'{head} <span class="muted">({_span([r.period for r in rep.rows])}, '
                    f"{esc(plural(games, 'game'))})</span>",
                    f"<ul>{''.join(items)}</ul>",
                    open_=False,
                    cls="part since",
                )
            )
    if rep.open:
        groups = open_groups(rep)
        still = (
            "<ul>"
            + "".join(
                f"<li>{esc(names[0])}: {prose(why)}</li>"
                if len(names) == 1
                else _item(_names(f"{len(names)} tournaments: {prose(why)}", names))
                for why, names in groups
            )
            + "</ul>"
        )
        if len(groups) <= SHORT_SINCE:
            parts.append(f"<p>Still open:</p>{still}")
        else:
            parts.append(
                _fold(
                    f'Still open <span class="muted">('
                    f"{esc(plural(len(rep.open), 'tournament'))})</span>",
                    still,
                    open_=False,
                    cls="part still",
                )
            )
    return "".join(parts)


_GAME_HEADERS = ("Opponent", "Rating", "D", "PD", "Score", "Chg", "K x chg", "")


def _game_cells(g: ExplainGame) -> list[object]:
    rating = "" if g.opponent_rating is None else str(g.opponent_rating)
    return [
        g.opponent,
        rating + ("*" if g.capped else ""),
        "" if g.difference_used is None else g.difference_used,
        "" if g.expected is None else str(g.expected),
        "" if g.score is None else fmt_points(g.score),
        "" if g.change is None else _signed_text(str(g.change)),
        "" if g.k_change is None else _signed_text(str(g.k_change)),
        "" if g.counted else (g.reason or "not counted"),
    ]


def _date(g: ExplainGame) -> str:
    return g.start.isoformat() if g.start else "?"


def _signed_text(text: str) -> str:
    return text if text.startswith("-") or text.strip("0.") == "" else f"+{text}"


def _explain_block(replay_: Replay, period: Period, player: PlayerRef) -> str:
    """A period as FIDE's calculation page shows it: the sections of `tracker explain`, a
    table per tournament (the rows of `tracker explain --format json`)."""
    row = replay_.row(period)
    out: list[str] = []
    for section in explain_sections(replay_, period, player):
        if isinstance(section, ExplainSaid):
            out += [f"<p>{prose(x.strip())}</p>" for x in section.lines]
        elif isinstance(section, ExplainTournament):
            assert row is not None
            out.append(f"<h4>{esc(section.head)}</h4>")
            out.append(
                _table(
                    _GAME_HEADERS,
                    [_game_cells(g) for g in plan_games(replay_, row, section.plan)],
                    numeric=(1, 2, 3, 4, 5, 6),
                    cls="games",
                )
            )
            out += [
                f'<p class="note">{prose(x.strip())}</p>' for x in (*section.above, *section.below)
            ]
        elif isinstance(section, ExplainNotCounted):
            assert row is not None
            games = [not_counted_game(replay_, row, n) for n in section.items]
            out.append(f"<h4>{esc(section.title)}</h4>")
            out.append(
                _table(
                    ("Tournament", "Date", "Opponent", "Why"),
                    [[g.tournament, _date(g), g.opponent, g.reason] for g in games],
                )
            )
        else:
            assert_never(section)
    return "".join(out)


def _period_summary(row_: HistoryRow) -> str:
    after = "" if row_.rating_after is None else str(row_.rating_after)
    change = "" if row_.change is None else f" ({fmt_signed(row_.change) or '0'})"
    games = f", {plural(row_.games, 'game')}" if row_.games else ""
    official = "" if row_.official_rating is None else f", official {row_.official_rating}"
    return f"{row_.period}: {after}{change}{games}{official}"


def list_section(history: PlayerHistory, rl: RatingList) -> str:
    """One list's section of the report."""
    rp = history.replays[rl]
    who = history.player
    name = str(rl)
    rows = history_rows(rp, player=who)
    parts = [
        f'<section id="{name}" class="list {name}" data-list="{name}">',
        f"<h2>{esc(name.capitalize())}</h2>",
    ]
    season = season_summary(rp)
    if season is not None:
        parts.append(f"<p>{prose(season_line(season))}</p>")
    if not rows:
        parts.append(f"<p>No {esc(name)} rating periods yet.</p></section>")
        return "".join(parts)
    chart = Chart(
        replayed_title(who, f"{name} rating"), (chart_list(rp, who),), chart_footnote([rp])
    )
    if chart.drawn:
        svg = inline_svg(chart_svg(chart), f"{name}-", f"{who.name}: {name} rating chart")
        parts.append(
            f'<figure class="chart">{svg}<figcaption>Hover a point for its '
            "period, rating, change and tournaments.</figcaption></figure>"
        )
    parts.append(_next_block(rp, who))
    names = [str(r.period) for r in rows]
    short = len(rows) <= SHORT
    headers, cells = history_table(rows)
    parts.append(
        _fold(
            f'History <span class="muted">({_span(names)})</span>',
            _table(
                headers,
                cells,
                numeric=range(1, 12),
                row_attrs=[f' data-period="{esc(str(r.period))}"' for r in rows],
                cls="history",
            ),
            open_=short,
            cls="part history",
        )
    )
    facts = assumed_facts(rp, who)
    if facts:
        parts.append(
            _fold(
                f'Assumptions <span class="muted">({esc(plural(len(facts), "fact"))} the replay '
                "took without a record)</span>",
                '<ul class="assumptions">'
                + "".join(
                    f"<li>{esc(f.text)} ({esc(_periods_text(f.periods))}); to record the fact: "
                    f"{prose(f.command)}</li>"
                    for f in facts
                )
                + "</ul>",
                open_=short and len(facts) <= 3,
                cls="part assumptions",
            )
        )
    else:
        parts.append(
            '<p class="assumptions"><b>Assumptions:</b> none, every fact the replay '
            "used is recorded.</p>"
        )
    pages = "".join(
        f'<details id="{name}-{row_.period}" class="period">'
        f"<summary>{esc(_period_summary(row_))}</summary>"
        f"{_explain_block(rp, row_.period, who)}</details>"
        for row_ in rows
    )
    parts.append(
        _fold(
            "Each period, as FIDE's calculation page shows it "
            f'<span class="muted">({_span(names)})</span>',
            pages,
            open_=short,
            cls="part periods",
        )
    )
    parts.append("</section>")
    return "".join(parts)


def _glance_line(replay_: Replay, player: PlayerRef) -> str:
    """One list at the top of the page, in plain words: the rating expected on the next list
    and what it comes from (HTML)."""
    rep = next_report(replay_, player)
    rl = rep.rating_list
    name = f'<a href="#{esc(rl)}">{esc(str(rl).capitalize())}</a>'
    official = (
        None
        if rep.last_official is None
        else f"the official {esc(rep.last_rating)} of the {esc(rep.last_official)} list"
    )
    if rep.waiting:
        return (
            f"{name}: not known yet. There is no official {esc(rl)} rating to start from, and "
            f"the Elo tags of the {esc(rl)} events are the standard rating."
        )
    if not rep.rows:
        if official is None:
            return f"{name}: no rated games yet."
        return (
            f"{name}: <b>{esc(rep.last_rating)}</b> on the {esc(rep.last_official)} list, the "
            "last official one. No games since: the next list should show the same."
        )
    games = sum(r.games for r in rep.rows)
    if rep.expected is None:
        return (
            f"{name}: not rated yet on the {esc(rep.next_period)} list; the "
            f"{esc(plural(games, 'game'))} count toward a first rating."
        )
    if official is None:
        since = (
            f"replayed from {esc(plural(games, 'game'))}; no official {esc(rl)} rating is "
            "recorded to start from or compare with"
        )
    else:
        change = rep.expected - (rep.last_rating or 0)
        moved = f"{fmt_signed(change)}" if change else "no change"
        since = f"{esc(moved)} from {official}, by {esc(plural(games, 'game'))} since"
    return (
        f"{name}: <b>{esc(rep.expected)}</b> expected on the {esc(rep.next_period)} list ({since})."
    )


def _glance(history: PlayerHistory, chosen: Sequence[RatingList]) -> str:
    """The top of the page, for a parent as much as a coach: who, and per list the rating
    expected on the next list, in plain words."""
    lines = [
        _glance_line(history.replays[rl], history.player)
        for rl in chosen
        if history.replays[rl].rows
    ]
    if not lines:
        return ""
    return (
        '<div class="glance"><p>What to expect on the next FIDE lists, worked out from the '
        "games by FIDE's rules (what FIDE publishes is the rating that counts):"
        "</p><ul>" + "".join(f"<li>{x}</li>" for x in lines) + "</ul></div>"
    )


def season_report(
    history: PlayerHistory, lists: Sequence[RatingList] | None = None, *, version: str = ""
) -> str:
    """The report's HTML: a section per list of `lists` (default: every list with a
    period), standard first."""
    who = history.player
    chosen = [
        rl
        for rl in RatingList
        if rl in history.replays
        and (rl in lists if lists is not None else bool(history.replays[rl].rows))
    ]
    ident = "" if who.fide_id is None else f" · FIDE ID {who.fide_id}"
    nav = "".join(f'<a href="#{rl}">{esc(str(rl).capitalize())}</a>' for rl in chosen)
    body = "".join(list_section(history, rl) for rl in chosen) or (
        "<p>No rating period on any list yet: import games first.</p>"
    )
    made = f"tracker {version}" if version else "tracker"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(who.name)}: FIDE rating report</title><style>{CSS}</style></head>"
        f"<body><header><h1>{esc(who.name)}</h1>"
        f'<p class="muted">FIDE rating report{esc(ident)} · replayed from the games by '
        f"FIDE's rules</p><nav>{nav}</nav>{_glance(history, chosen)}</header>{body}"
        f"<footer>Made by {esc(made)} from the games and official ratings in its database. "
        "The ratings are replayed by FIDE's rating regulations: what FIDE publishes is the "
        "rating that counts; every assumption the replay made is listed with the command "
        "that records the fact.</footer></body></html>\n"
    )
