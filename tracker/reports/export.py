"""The rows of the tournaments list (`tracker event list`) and of the games export, and the
CSV text every `--format csv` writes (columns in docs/export.md)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from tracker.model import Period, RatingList
from tracker.periods import NotCounted, Replay, TagDate
from tracker.periods.assumed import closing_date_of
from tracker.reports.figures import tournament_out, unit_figures
from tracker.reports.said import command_line
from tracker.reports.text import day_text, fmt_points, json_points, partial_date
from tracker.reports.words import label_counts, most_first, opponent_source_text, why_text


def to_csv(columns: Sequence[str], rows: Iterable[dict[str, Any]]) -> str:
    """CSV text with a header row, lines ending CRLF (None becomes an empty cell, a flag
    yes or no, as the games' `counted`: docs/export.md)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(columns)
    for r in rows:
        writer.writerow([_csv_cell(r.get(c)) for c in columns])
    return buf.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is read as a formula by spreadsheets (CSV
injection: a player named `=HYPERLINK(...)`); such a cell gets a leading `'`."""
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def _csv_text(text: str) -> str:
    if text.startswith(FORMULA_STARTS) and text != "-" and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def _csv_item(v: Any) -> str:
    if isinstance(v, dict) and "fact" in v:
        return str(v["fact"])
    if isinstance(v, dict) and "reason" in v:
        return f"{v['reason']} {v['games']}"
    if isinstance(v, dict) and "may_be" in v:
        return f"{v['tournament_id']} {v['may_be']}"
    return str(v)


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):  # the assumptions: their facts; not counted: reason N
        return ";".join(_csv_item(v) for v in value)
    if isinstance(value, str):
        return _csv_text(value)
    return value


EVENT_COLUMNS = (
    "id",
    "name",
    "site",
    "start",
    "end",
    "partial_date",
    "list",
    "period",
    "pinned",
    "excluded",
    "ro",
    "games",
    "points",
    "not_counted",
    "performance",
    "change_exact",
    "change",
    "list_assumed",
    "period_assumed",
    "not_counted_reasons",
)


@dataclass(frozen=True)
class TournamentRow:
    """A tournament on one list, as `event list` shows it: the values of EVENT_COLUMNS
    (`tournament_json` gives them as JSON and CSV write them, in that order), and what the
    date tags say of one without a start (`tag_date`, which its table's `dates` show)."""

    id: int
    name: str
    site: str | None
    start: dt.date | None
    end: dt.date | None
    rating_list: RatingList
    period: Period | None
    pinned: bool
    excluded: bool
    ro: int | None
    games: int  # the games that counted (rated), as explain and history count them
    points: Fraction
    not_counted: int  # the others beside them
    performance: int | None
    change_exact: Decimal | None
    change: int | None
    list_assumed: bool  # what the replay assumed of it (docs/export.md)
    period_assumed: Period | None
    not_counted_reasons: tuple[tuple[str, int], ...]  # (label, games), most first
    tag_date: TagDate | None = None  # no start: what its date tags say (the table shows it)

    @property
    def dates(self) -> tuple[str, str]:
        """Its start and end as the table shows them (`day_text`: 2011-03-05, 2011, ?)."""
        tag = self.tag_date
        year, month = (None, None) if tag is None else (tag.year, tag.month)
        return day_text(self.start, year, month), day_text(self.end, year, month)


def _partial(tag: TagDate | None) -> str | None:
    """A tournament without a whole date: the year (and month) its date tags give, as ISO
    8601 writes a reduced precision (2011, 2011-05); None when it has a date or no year."""
    return None if tag is None else partial_date(tag.year, tag.month)


def tournament_json(r: TournamentRow) -> dict[str, Any]:
    """A tournament's row as `event list --format json` writes it and CSV reads it (the
    keys of EVENT_COLUMNS, in that order; docs/export.md)."""
    return {
        "id": r.id,
        "name": r.name,
        "site": r.site,
        "start": r.start.isoformat() if r.start else None,
        "end": r.end.isoformat() if r.end else None,
        "partial_date": _partial(r.tag_date),
        "list": str(r.rating_list),
        "period": None if r.period is None else str(r.period),
        "pinned": r.pinned,
        "excluded": r.excluded,
        "ro": r.ro,
        "games": r.games,
        "points": json_points(r.points),
        "not_counted": r.not_counted,
        "performance": r.performance,
        "change_exact": None if r.change_exact is None else str(r.change_exact),
        "change": r.change,
        "list_assumed": r.list_assumed,
        "period_assumed": None if r.period_assumed is None else str(r.period_assumed),
        "not_counted_reasons": [
            {"reason": label, "games": n} for label, n in r.not_counted_reasons
        ],
    }


def event_rows(replays: Iterable[Replay]) -> list[TournamentRow]:
    """One row per tournament and list, in date order."""
    rows = []
    for rp in replays:
        figures = unit_figures([rp])
        skipped: dict[int, list[NotCounted]] = {}
        for row in rp.rows:
            for n in row.not_counted:
                skipped.setdefault(n.game.tournament_id, []).append(n)
        for u in rp.units:
            t = u.tournament
            fig = figures.get((t.id, str(u.rating_list)))
            closing = closing_date_of(u)
            rows.append(
                TournamentRow(
                    id=t.id,
                    name=t.name,
                    site=t.site,
                    start=u.start,
                    end=u.end,
                    rating_list=u.rating_list,
                    period=u.period,
                    pinned=u.pinned,
                    excluded=t.excluded,
                    ro=t.ro,
                    games=0 if fig is None else fig.games,
                    points=Fraction(0) if fig is None else fig.points,
                    not_counted=len(u.games) if fig is None else fig.not_counted,
                    performance=None if fig is None else fig.performance,
                    change_exact=None if fig is None else fig.change_exact,
                    change=None if fig is None else fig.change,
                    list_assumed=any(g.list_assumed for g in u.games),
                    period_assumed=None if closing is None else closing.earlier,
                    not_counted_reasons=tuple(most_first(label_counts(skipped.get(t.id, ())))),
                    tag_date=u.tag_date if u.start is None else None,
                )
            )
    rows.sort(key=lambda r: (_iso(r.start) or "9999", r.id, str(r.rating_list)))
    return rows


def _iso(day: dt.date | None) -> str | None:
    return day.isoformat() if day else None


# --- export --------------------------------------------------------------------------------

GAME_COLUMNS = (
    "date",
    "list",
    "period",
    "tournament_id",
    "tournament",
    "round",
    "color",
    "opponent",
    "opponent_fide_id",
    "own_elo",
    "opponent_elo",
    "opponent_rating_source",
    "opponent_elo_tag",
    "result",
    "score",
    "counted",
    "reason",
)


@dataclass(frozen=True)
class GameRow:
    """A game of the player, with the period that rates it and whether it counted: the
    values of GAME_COLUMNS (`game_json` gives them as CSV writes them, in that order)."""

    date: dt.date | None
    rating_list: RatingList
    period: Period | None
    tournament_id: int
    tournament: str
    round: str | None
    white: bool
    opponent: str
    opponent_fide_id: int | None
    own_elo: int | None
    opponent_elo: int | None
    opponent_rating_source: str
    opponent_elo_tag: str | None
    result: str
    score: Fraction | None
    counted: bool
    reason: str | None


def game_json(r: GameRow) -> dict[str, Any]:
    """A game's row as the export writes it (the keys of GAME_COLUMNS, in that order;
    docs/export.md)."""
    return {
        "date": _iso(r.date),
        "list": str(r.rating_list),
        "period": None if r.period is None else str(r.period),
        "tournament_id": r.tournament_id,
        "tournament": r.tournament,
        "round": r.round,
        "color": "white" if r.white else "black",
        "opponent": r.opponent,
        "opponent_fide_id": r.opponent_fide_id,
        "own_elo": r.own_elo,
        "opponent_elo": r.opponent_elo,
        "opponent_rating_source": r.opponent_rating_source,
        "opponent_elo_tag": r.opponent_elo_tag,
        "result": r.result,
        "score": None if r.score is None else fmt_points(r.score),
        "counted": "yes" if r.counted else "no",
        "reason": r.reason,
    }


def game_values(r: GameRow) -> dict[str, Any]:
    """A game's row as `export --format json` writes it: game_json's keys, the score a
    number, counted a boolean (docs/export.md)."""
    return {
        **game_json(r),
        "score": None if r.score is None else json_points(r.score),
        "counted": r.counted,
    }


def game_rows(replays: Iterable[Replay]) -> list[GameRow]:
    """Every game of the player with the period that rates it and whether it counted."""
    rows: list[GameRow] = []
    for rp in replays:
        why: dict[int, str] = {}
        counted: set[int] = set()
        for r in rp.rows:
            for n in r.not_counted:
                why[n.game.id] = why_text(n)
            for plan in r.tournaments:
                tout = tournament_out(plan, r)
                if tout is None:
                    counted.update(g.id for g in plan.counted)
                    continue
                for g, out in zip(plan.counted, tout.games, strict=False):
                    if out.counted:
                        counted.add(g.id)
                    else:
                        why[g.id] = out.reason or "not counted"
        for n in rp.unplaced:
            why[n.game.id] = why_text(n)
        for u in rp.before_start:
            for g in u.games:
                why.setdefault(g.id, f"inside the starting official rating ({rp.start})")
        for u in rp.units:
            for g in u.games:
                rows.append(
                    GameRow(
                        date=g.date,
                        rating_list=u.rating_list,
                        period=u.period,
                        tournament_id=u.tournament.id,
                        tournament=u.tournament.name,
                        round=g.round,
                        white=g.white,
                        opponent=g.opponent,
                        opponent_fide_id=g.opponent_fide_id,
                        own_elo=g.own_elo,
                        opponent_elo=g.opponent_elo,
                        opponent_rating_source=opponent_source_text(g, u.rating_list),
                        opponent_elo_tag=g.opponent_elo_tag,
                        result=g.result,
                        score=g.score,
                        counted=g.id in counted,
                        reason=None if g.id in counted else why.get(g.id),
                    )
                )
    rows.sort(key=lambda r: (_iso(r.date) or "9999", r.tournament_id, r.round or ""))
    return rows


def no_tournaments_text(name: str | None = None) -> str:
    """What `event list` says when it has no tournament (of the player `name`)."""
    whose = "" if name is None else f" for {name}"
    return f"No tournaments{whose}: import games with {command_line('import').quoted()}."


def event_list_notes(rows: Sequence[TournamentRow]) -> list[str]:
    """What the marks of `event list`'s table mean, and the command that settles each."""
    said = []
    if any(r.list_assumed for r in rows):
        said.append(
            "List*: assumed (no time control: the event's name, else standard); "
            f"{command_line('event', 'set', 'ID', '--list', 'LIST').quoted()} corrects it."
        )
    if any(r.period_assumed for r in rows):
        said.append(
            "Period*: by the closing date, assumed (it ended days before the list before: "
            "FIDE may have rated it there); "
            f"{command_line('event', 'set', 'ID', '--period', 'YYYY-MM').quoted()} pins it."
        )
    return said


def event_list_title(name: str) -> str:
    """The title of `event list`'s table of the player `name`'s tournaments."""
    return f"{name}: tournaments"
