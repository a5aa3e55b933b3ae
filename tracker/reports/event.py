"""A tournament as FIDE's tournament report shows it (`tracker event show`, `tracker report
--event`): the one place that words tracker.app.event_show's rows. `event_rows` is the
shape of the JSON and CSV (EVENT_SHOW_COLUMNS), `event_table` the table, `event_notes` the
lines under it; the HTML page (`tracker report --event`) is tracker.reports.eventpage."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from tracker.app.event_show import (
    EventPlayer,
    EventShow,
    EventStatus,
    FirstProgress,
    GameNotCounted,
)
from tracker.model import TournamentSummary
from tracker.periods import RatingSource
from tracker.reports.said import Said, command_line, joined
from tracker.reports.text import fmt_points, fmt_signed, json_points, plural
from tracker.reports.words import assumed_text, reason_text


class Order(StrEnum):
    """How the players are sorted: by standing (points, then Ro) or by change."""

    standing = "standing"
    change = "change"


def ordered(ev: EventShow, order: Order = Order.standing) -> list[EventPlayer]:
    """The players in the order asked: by points in the tournament (then Ro, then name), or
    by K x (W - We) (largest gain first; no change last, by standing)."""

    def standing(p: EventPlayer) -> tuple[object, ...]:
        return (-p.score, -(p.ro or 0), p.player.name.casefold(), p.player.id)

    players = sorted((p for p in ev.players if p.played), key=standing)
    if order is Order.change:
        players.sort(key=lambda p: (p.change_exact is None, -(p.change_exact or 0)))
    return players


def ranks(ev: EventShow) -> dict[int, int]:
    """Each player's place by standing (shared places get the same number)."""
    out: dict[int, int] = {}
    last: Fraction | None = None
    place = 0
    for i, p in enumerate(ordered(ev), start=1):
        if p.score != last:
            place, last = i, p.score
        out[p.player.id] = place
    return out


# --- words -------------------------------------------------------------------------------

RO_FROM = {
    RatingSource.OVERRIDE: "--ro",
    RatingSource.OFFICIAL: "list",
    RatingSource.ELO_TAG: "tag",
    RatingSource.REPLAYED: "replay",
    RatingSource.STANDARD: "std",
    RatingSource.RATING_BEFORE: "before",
    RatingSource.UNRATED: "unrated",
}
"""The table's short word for where Ro came from (the legend under it says each in full)."""

RO_FROM_TEXT = {
    RatingSource.OVERRIDE: Said(
        "the Ro recorded for the tournament (", command_line("event", "set", "ID", "--ro"), ")"
    ),
    RatingSource.OFFICIAL: "the official rating on the list in force at the start",
    RatingSource.ELO_TAG: "the player's own Elo tag (no official list imported for the start)",
    RatingSource.REPLAYED: "the replayed rating of the list in force at the start",
    RatingSource.STANDARD: "unrated on this list: the standard rating in force at the start",
    RatingSource.RATING_BEFORE: "the rating the period starts from",
    RatingSource.UNRATED: "no rating yet, the games go toward a first rating",
}

STATUS_TEXT = {
    EventStatus.RATED: "rated",
    EventStatus.FIRST_RATING: "toward a first rating",
    EventStatus.NOT_COUNTED: "no game counted",
    EventStatus.INSIDE_OFFICIAL: "inside the official rating the replay starts from",
    EventStatus.NO_PERIOD: "no rating period",
    EventStatus.OTHER_LIST: "no game on this list",
}


def ro_text(p: EventPlayer) -> str:
    """ "list 2025-09", "tag", "replay 2025-10", "" (no Ro)."""
    if p.ro_source is None:
        return ""
    word = RO_FROM[p.ro_source]
    return f"{word} {p.ro_list}" if p.ro_list is not None else word


def _decimal(x: Decimal | None) -> str | None:
    return None if x is None else str(x.quantize(Decimal("0.01")))


def _reasons(items: Sequence[GameNotCounted]) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for n in items:
        reason = reason_text(n.why, n.detail)
        counts[reason] = counts.get(reason, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def first_text(f: FirstProgress) -> str:
    """An unrated player's progress: "first rating 1846" or "3 of 5 games, 2 missing"."""
    left = f"this event left out ({f.left_out_why}); " if f.left_out and f.left_out_why else ""
    if f.rating is not None:
        return f"{left}first rating {f.rating} ({plural(f.games, 'game')})"
    have = f"{left}{f.games} of {f.needed} games against rated opponents"
    if f.missing:
        return f"{have}, {f.missing} missing"
    return f"{have}: {f.reason}" if f.reason else have


def note_text(p: EventPlayer) -> str:
    """The table's last column: what is not a number (first rating, games not counted, a
    status without a change)."""
    parts: list[str] = []
    if p.first is not None:
        parts.append(first_text(p.first))
    elif p.status not in (EventStatus.RATED, EventStatus.FIRST_RATING) and not (
        p.status is EventStatus.NOT_COUNTED and p.not_counted
    ):
        parts.append(STATUS_TEXT[p.status])
    if p.not_counted:
        said = joined(", ", [why + f" {n}" for why, n in _reasons(p.not_counted)])
        parts.append("not counted: " + said)
    if p.player.fide_id is None:
        parts.append("no FIDE ID")
    return joined("; ", parts)


# --- the rows (JSON, CSV) ----------------------------------------------------------------

EVENT_SHOW_COLUMNS = (
    "rank",
    "player",
    "fide_id",
    "status",
    "period",
    "ro",
    "ro_source",
    "ro_list",
    "k",
    "games",
    "points",
    "expected",
    "change_exact",
    "change",
    "performance",
    "played",
    "score",
    "not_counted",
    "first_rating_games",
    "first_rating_needed",
    "first_rating",
    "period_change",
    "rating_after",
)
"""The columns of `tracker event show --format csv` (docs/export.md)."""


def _first_row(f: FirstProgress | None) -> dict[str, Any] | None:
    if f is None:
        return None
    return {
        "rating": f.rating,
        "games": f.games,
        "points": json_points(f.points),
        "needed": f.needed,
        "missing": f.missing,
        "window_months": f.window_months,
        "edition": f.edition.isoformat(),
        "reason": f.reason,
        "tournaments": list(f.used),
        "ignored": [{"tournament": t, "why": why} for t, why in f.ignored],
    }


def event_rows(ev: EventShow, order: Order = Order.standing) -> list[dict[str, Any]]:
    """One object per player (the JSON; the CSV takes EVENT_SHOW_COLUMNS of it)."""
    place = ranks(ev)
    rows = []
    for p in ordered(ev, order):
        first = _first_row(p.first)
        rows.append(
            {
                "rank": place[p.player.id],
                "player": p.player.name,
                "fide_id": p.player.fide_id,
                "status": str(p.status),
                "period": None if p.period is None else str(p.period),
                "ro": p.ro,
                "ro_source": None if p.ro_source is None else str(p.ro_source),
                "ro_list": None if p.ro_list is None else str(p.ro_list),
                "k": p.k,
                "k_reason": p.k_reason,
                "games": p.games,
                "points": json_points(p.points),
                "expected": _decimal(p.expected),
                "change_exact": _decimal(p.change_exact),
                "change": p.change,
                "performance": p.performance,
                "played": p.played,
                "score": json_points(p.score),
                "not_counted": [
                    {
                        "opponent": n.opponent,
                        "round": n.round,
                        "date": None if n.date is None else n.date.isoformat(),
                        "reason": reason_text(n.why, n.detail),
                    }
                    for n in p.not_counted
                ],
                "first_rating": first,
                "first_rating_games": None if first is None else first["games"],
                "first_rating_needed": None if first is None else first["needed"],
                "period_change": p.period_change,
                "rating_after": p.rating_after,
                "other_events_in_period": p.other_events,
                "assumptions": [
                    {"fact": str(a.fact), "assumed": assumed_text(a)} for a in p.assumptions
                ],
                "list_assumed": p.list_assumed,
            }
        )
    return rows


def csv_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The JSON rows as the CSV gives them: not counted as "reason N;...", the first rating
    reached as a number."""
    out = []
    for r in rows:
        counts: dict[str, int] = {}
        for n in r["not_counted"]:
            counts[n["reason"]] = counts.get(n["reason"], 0) + 1
        out.append(
            {
                **r,
                "not_counted": ";".join(f"{k} {n}" for k, n in counts.items()),
                "first_rating": None if r["first_rating"] is None else r["first_rating"]["rating"],
            }
        )
    return out


# --- the table ---------------------------------------------------------------------------

TABLE_HEADERS = ["#", "Player", "FIDE ID", "Ro", "From", "K", "G", "Pts", "We", "Chg", "Rp", "Note"]
TABLE_RIGHT = (0, 2, 3, 5, 6, 7, 8, 9, 10)
TABLE_OPTIONAL: tuple[int, ...] = (4, 2, 10, 5, 8)
"""Left out in this order when the table is too wide (From, FIDE ID, Rp, K, We): the change
stays; a long note goes under its row."""
SCORE = "Score"
"""The column of the tournament's score (`EventPlayer.score`, what the place # follows),
after Player, where a player's score differs from the points of the games rated (Pts)."""


def shows_score(ev: EventShow) -> bool:
    """Whether the table has the Score column: a player scored points in games not rated
    (a forfeit or a game without moves, which the standings count and the rating does not;
    an opponent without a rating...), so the place # does not follow Pts."""
    return any(p.score != p.points for p in ev.players if p.played)


def table_headers(ev: EventShow) -> list[str]:
    """TABLE_HEADERS, with the Score column where `shows_score`."""
    return [*TABLE_HEADERS[:2], SCORE, *TABLE_HEADERS[2:]] if shows_score(ev) else TABLE_HEADERS


def table_right(ev: EventShow) -> tuple[int, ...]:
    """TABLE_RIGHT for `table_headers(ev)`."""
    if not shows_score(ev):
        return TABLE_RIGHT
    return (*(i for i in TABLE_RIGHT if i < 2), 2, *(i + 1 for i in TABLE_RIGHT if i >= 2))


def table_optional(ev: EventShow) -> tuple[int, ...]:
    """TABLE_OPTIONAL for `table_headers(ev)`."""
    if not shows_score(ev):
        return TABLE_OPTIONAL
    return tuple(i if i < 2 else i + 1 for i in TABLE_OPTIONAL)


def event_table(ev: EventShow, order: Order = Order.standing) -> list[list[str]]:
    """The table's cells: one row per player (`table_headers(ev)`)."""
    place = ranks(ev)
    score = shows_score(ev)
    return [
        [
            str(place[p.player.id]),
            p.player.name,
            *([fmt_points(p.score)] if score else []),
            "" if p.player.fide_id is None else str(p.player.fide_id),
            "" if p.ro is None else str(p.ro),
            ro_text(p),
            "" if p.k is None else str(p.k),
            str(p.games),
            fmt_points(p.points) if p.games else "",
            "" if p.expected is None else str(p.expected),
            "" if p.change_exact is None else (fmt_signed(p.change_exact) or "0.00"),
            "" if p.performance is None else str(p.performance),
            note_text(p),
        ]
        for p in ordered(ev, order)
    ]


def event_title(ev: EventShow) -> str:
    t = ev.tournament
    start = t.start.isoformat() if t.start else "?"
    end = t.end.isoformat() if t.end else "?"
    dates = start if start == end else f"{start} to {end}"
    period = "" if ev.period is None else f", rated on the {ev.period} list"
    shown = sum(1 for p in ev.players if p.played)
    return f"{t.name} ({t.site}, {dates}): {ev.rating_list}{period}, {plural(shown, 'player')}"


def other_lists_line(ev: EventShow) -> str:
    """Which list is shown when the tournament has games on others, and how to see them."""
    others = ev.other_lists
    return (
        f"Shown: the {ev.rating_list} list; the tournament also has "
        + ", ".join(f"{plural(n, 'game')} on the {rl} list" for rl, n in others.items())
        + " (--list "
        + "|".join(str(rl) for rl in others)
        + ")."
    )


def event_notes(ev: EventShow) -> list[str]:
    """The lines under the table: the legend of the columns used, the other lists, the
    players whose period differs, the assumptions."""
    players = [p for p in ev.players if p.played]
    lines = [
        "G: games counted; Pts: points in them; We: expected score; Chg: K x (W - We) of "
        "this tournament; Rp: performance. The whole period (other tournaments, rounding) is "
        "in `tracker explain PLAYER PERIOD`."
    ]
    if shows_score(ev):
        lines.insert(
            0,
            "#: the place by Score, the points of every finished game, as the tournament's "
            "standings count them; Pts counts the games rated only (FIDE rates no unplayed "
            "game, a forfeit or no moves, nor a rated player's game against an unrated "
            "opponent).",
        )
    used = [s for s in RatingSource if any(p.ro_source is s for p in players)]
    if used:
        lines.append(
            "From (where Ro came from): "
            + joined("; ", [f"{RO_FROM[s]}: " + RO_FROM_TEXT[s] for s in used])
            + "."
        )
    if ev.other_lists:
        lines.append(other_lists_line(ev))
    elsewhere = [p for p in players if p.period is not None and p.period != ev.period]
    if elsewhere:
        lines.append(
            "In another period: "
            + ", ".join(f"{p.player.name} ({p.period})" for p in elsewhere)
            + "."
        )
    others_in = [p for p in players if p.other_events]
    if others_in:
        lines.append(
            f"{plural(len(others_in), 'player')} had other tournaments in the same period: "
            "K and the rounding are the period's."
        )
    facts = sorted({assumed_text(a) for p in players for a in p.assumptions})
    if facts:
        n = sum(1 for p in players if p.assumptions)
        lines.append(
            f"Assumed (nobody recorded it) for {plural(n, 'player')}: K assumes "
            + "; ".join(facts)
            + " (`tracker player set` records the fact)."
        )
    if any(p.list_assumed for p in players):
        lines.append(
            "List assumed: no time control in the games (the event's name, else standard); "
            f"`tracker event set {ev.tournament.id} --list LIST` corrects it."
        )
    return lines


# --- every tournament (`event list` with no player tracked) ------------------------------------

ALL_EVENT_COLUMNS = ["id", "name", "site", "start", "end", "games"]
"""The CSV columns of `event list` with no player tracked (docs/export.md)."""
ALL_EVENT_HEADERS = ["Id", "Tournament", "Site", "Start", "End", "Games"]
ALL_EVENT_TITLE = "Every tournament (no player tracked: `tracker event show ID` shows one)"


def summary_json(t: TournamentSummary) -> dict[str, Any]:
    """A tournament of `event list` with no player tracked, as JSON and CSV give it."""
    return {
        "id": t.id,
        "name": t.name,
        "site": t.site,
        "start": None if t.start is None else t.start.isoformat(),
        "end": None if t.end is None else t.end.isoformat(),
        "games": t.games,
    }


def summary_cells(t: TournamentSummary) -> list[str]:
    """Its row of the table (ALL_EVENT_HEADERS)."""
    return [
        str(t.id),
        t.name,
        t.site,
        "?" if t.start is None else t.start.isoformat(),
        "?" if t.end is None else t.end.isoformat(),
        str(t.games),
    ]
