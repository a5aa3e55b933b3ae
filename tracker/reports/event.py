"""A tournament as FIDE's tournament report shows it (`tracker event show`, `tracker report
--event`): the one place that words tracker.app.event_show's rows. `event_rows` gives them
as `EventRow`s, whose JSON is `event_json` and CSV `event_csv` (EVENT_SHOW_COLUMNS);
`event_table` the table, `event_notes` the lines under it; the HTML page (`tracker report
--event`) is tracker.reports.eventpage."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
from tracker.fide import KSaid
from tracker.model import Period, TournamentSummary
from tracker.periods import Assumption, RatingSource
from tracker.reports.rulewords import engine_text, engine_words, ignored_text, k_text
from tracker.reports.said import Said, command_line, joined
from tracker.reports.text import (
    day_text,
    fmt_points,
    fmt_signed,
    json_points,
    partial_date,
    plural,
)
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
    left = (
        f"this event left out ({ignored_text(f.left_out_why)}); "
        if f.left_out and f.left_out_why
        else ""
    )
    if f.rating is not None:
        return f"{left}first rating {f.rating} ({plural(f.games, 'game')})"
    have = f"{left}{f.games} of {f.needed} games against rated opponents"
    if f.missing:
        return f"{have}, {f.missing} missing"
    return f"{have}: {engine_text(f.reason)}" if f.reason else have


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


@dataclass(frozen=True)
class EventRow:
    """A player of the tournament as `event show --format json|csv` gives them: the values
    of the JSON's keys, built in one place (`event_rows`); `event_json` gives their JSON,
    `event_csv` their CSV row (EVENT_SHOW_COLUMNS)."""

    rank: int  # the place by standing (shared places the same)
    player: str
    fide_id: int | None
    status: EventStatus
    period: Period | None
    ro: int | None
    ro_source: RatingSource | None
    ro_list: Period | None
    k: int | None
    k_reason: KSaid | None
    games: int  # counted
    points: Fraction  # in the counted games
    expected: Decimal | None
    change_exact: Decimal | None
    change: int | None
    performance: int | None
    played: int
    score: Fraction  # the standing's points
    not_counted: tuple[GameNotCounted, ...]
    first_rating: FirstProgress | None
    period_change: int | None
    rating_after: int | None
    other_events_in_period: int
    assumptions: tuple[Assumption, ...]
    list_assumed: bool


def event_rows(ev: EventShow, order: Order = Order.standing) -> list[EventRow]:
    """One row per player who played, in the order asked."""
    place = ranks(ev)
    return [
        EventRow(
            rank=place[p.player.id],
            player=p.player.name,
            fide_id=p.player.fide_id,
            status=p.status,
            period=p.period,
            ro=p.ro,
            ro_source=p.ro_source,
            ro_list=p.ro_list,
            k=p.k,
            k_reason=p.k_reason,
            games=p.games,
            points=p.points,
            expected=p.expected,
            change_exact=p.change_exact,
            change=p.change,
            performance=p.performance,
            played=p.played,
            score=p.score,
            not_counted=p.not_counted,
            first_rating=p.first,
            period_change=p.period_change,
            rating_after=p.rating_after,
            other_events_in_period=p.other_events,
            assumptions=p.assumptions,
            list_assumed=p.list_assumed,
        )
        for p in ordered(ev, order)
    ]


def first_json(f: FirstProgress) -> dict[str, Any]:
    """An unrated player's way to a first rating, as the JSON's `first_rating` gives it."""
    return {
        "rating": f.rating,
        "games": f.games,
        "points": json_points(f.points),
        "needed": f.needed,
        "missing": f.missing,
        "window_months": f.window_months,
        "edition": f.edition.isoformat(),
        "reason": engine_words(f.reason),
        "tournaments": list(f.used),
        "ignored": [
            {"tournament": t, "why": None if why is None else ignored_text(why)}
            for t, why in f.ignored
        ],
    }


def _why(n: GameNotCounted) -> str:
    return reason_text(n.why, n.detail)


def event_json(r: EventRow) -> dict[str, Any]:
    """A player's row as `event show --format json` writes it (docs/export.md)."""
    first = r.first_rating
    return {
        "rank": r.rank,
        "player": r.player,
        "fide_id": r.fide_id,
        "status": str(r.status),
        "period": None if r.period is None else str(r.period),
        "ro": r.ro,
        "ro_source": None if r.ro_source is None else str(r.ro_source),
        "ro_list": None if r.ro_list is None else str(r.ro_list),
        "k": r.k,
        "k_reason": None if r.k_reason is None else k_text(r.k_reason),
        "games": r.games,
        "points": json_points(r.points),
        "expected": _decimal(r.expected),
        "change_exact": _decimal(r.change_exact),
        "change": r.change,
        "performance": r.performance,
        "played": r.played,
        "score": json_points(r.score),
        "not_counted": [
            {
                "opponent": n.opponent,
                "round": n.round,
                "date": None if n.date is None else n.date.isoformat(),
                "reason": _why(n),
            }
            for n in r.not_counted
        ],
        "first_rating": None if first is None else first_json(first),
        "first_rating_games": None if first is None else first.games,
        "first_rating_needed": None if first is None else first.needed,
        "period_change": r.period_change,
        "rating_after": r.rating_after,
        "other_events_in_period": r.other_events_in_period,
        "assumptions": [{"fact": str(a.fact), "assumed": assumed_text(a)} for a in r.assumptions],
        "list_assumed": r.list_assumed,
    }


def event_csv(r: EventRow) -> dict[str, Any]:
    """A player's row as `event show --format csv` writes it (EVENT_SHOW_COLUMNS): the JSON's
    values, the games not counted as "reason N;..." and the first rating reached as a
    number."""
    counts: dict[str, int] = {}
    for n in r.not_counted:
        counts[_why(n)] = counts.get(_why(n), 0) + 1
    data = event_json(r)
    data["not_counted"] = ";".join(f"{why} {n}" for why, n in counts.items())
    data["first_rating"] = None if r.first_rating is None else r.first_rating.rating
    return {c: data[c] for c in EVENT_SHOW_COLUMNS}


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
    tag = t.tag_date  # no whole date: what its date tags give (2011, 2011-05), else "?"
    year, month = (None, None) if tag is None else (tag.year, tag.month)
    start, end = day_text(t.start, year, month), day_text(t.end, year, month)
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
    lines: list[str] = [
        Said(
            "G: games counted; Pts: points in them; We: expected score; Chg: K x (W - We) of "
            "this tournament; Rp: performance. The whole period (other tournaments, rounding) "
            "is in ",
            command_line("explain", "PLAYER", "PERIOD").quoted(),
            ".",
        )
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
            + Said(" (", command_line("player", "set").quoted(), " records the fact).")
        )
    if any(p.list_assumed for p in players):
        lines.append(
            Said(
                "List assumed: no time control in the games (the event's name, else standard); ",
                command_line("event", "set", ev.tournament.id, "--list", "LIST").quoted(),
                " corrects it.",
            )
        )
    return lines


# --- every tournament (`event list` with no player tracked) ------------------------------------

ALL_EVENT_COLUMNS = ["id", "name", "site", "start", "end", "partial_date", "games"]
"""The CSV columns of `event list` with no player tracked (docs/export.md)."""
ALL_EVENT_HEADERS = ["Id", "Tournament", "Site", "Start", "End", "Games"]
ALL_EVENT_TITLE = (
    f"Every tournament (no player tracked: {command_line('event', 'show', 'ID').quoted()} "
    "shows one)"
)


def summary_json(t: TournamentSummary) -> dict[str, Any]:
    """A tournament of `event list` with no player tracked, as JSON and CSV give it."""
    return {
        "id": t.id,
        "name": t.name,
        "site": t.site,
        "start": None if t.start is None else t.start.isoformat(),
        "end": None if t.end is None else t.end.isoformat(),
        "partial_date": (
            None
            if t.start is not None or t.tag_year is None
            else partial_date(t.tag_year, t.tag_month)
        ),
        "games": t.games,
    }


def summary_cells(t: TournamentSummary) -> list[str]:
    """Its row of the table (ALL_EVENT_HEADERS)."""
    return [
        str(t.id),
        t.name,
        t.site,
        day_text(t.start, t.tag_year, t.tag_month),
        day_text(t.end, t.tag_year, t.tag_month),
        str(t.games),
    ]


def overridden_text(tournament_id: int, name: str, changes: Sequence[str]) -> str:
    """What `event set` recorded for the tournament."""
    return f"tournament {tournament_id} ({name}): {', '.join(changes)}"


def year_overridden_lines(
    year: int, tournaments: Sequence[tuple[int, str]], changes: Sequence[str]
) -> list[str]:
    """What `event set --year` recorded, and for which tournaments (id and name)."""
    return [
        f"{plural(len(tournaments), 'tournament')} dated only by {year}: {', '.join(changes)}",
        *(f"  {tid} {name}" for tid, name in tournaments),
    ]


def no_games_text(ev: EventShow) -> str:
    """What `event show` says of a tournament without games on the list shown."""
    return f"No games of {ev.tournament.name} on the {ev.rating_list} list."
