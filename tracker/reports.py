"""What users see of the replay: history rows, a period explained the way FIDE's individual
calculation page shows it, the next list, CSV exports and the tournaments list.

Plain data and plain-text rendering only (no typer/rich): the CLI draws tables from the rows
given here, and tests read them directly. Columns are stable: see docs/export.md.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from tracker.errors import NotFound
from tracker.fide import FirstRatingOut, PeriodOut, TournamentOut
from tracker.fide.performance import performance_rating
from tracker.fide.rounding import round_change
from tracker.model import Period, PlayerRef, RatingList
from tracker.periods import (
    Assumption,
    NotCounted,
    PeriodRow,
    Replay,
    TournamentPlan,
    Unit,
)
from tracker.periods.facts import TOO_LATE, is_list_month

# --- small formatting ----------------------------------------------------------------------


def fmt_points(p: Fraction | None) -> str:
    if p is None:
        return ""
    if p.denominator == 1:
        return str(p.numerator)
    if p.denominator == 2:
        return f"{p.numerator // 2}.5" if p >= 0 else f"-{(-p.numerator) // 2}.5"
    return str(Decimal(p.numerator) / Decimal(p.denominator))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def plural_points(p: Fraction) -> str:
    return f"{fmt_points(p)} point" + ("" if p == 1 else "s")


def fmt_signed(x: Decimal | int | None) -> str:
    if x is None:
        return ""
    return f"+{x}" if x > 0 else str(x)


def fmt_int(x: int | None) -> str:
    return "" if x is None else str(x)


def _json_points(p: Fraction) -> int | float:
    # Points are whole or half numbers: exact in binary, so a JSON number is safe.
    return p.numerator if p.denominator == 1 else float(p)


# --- history -------------------------------------------------------------------------------

HISTORY_COLUMNS = (
    "period", "list", "rating_before", "games", "points", "expected", "k", "change_exact",
    "change", "rating_after", "official_rating", "difference", "note", "elo_tag",
    "tag_difference", "published", "source", "before_official", "assumptions",
    "list_assumed_games",
)


def assumption_command(a: Assumption, player: PlayerRef | None) -> str:
    return a.command_for("ID" if player is None else player.command_name)


def assumption_text(a: Assumption, player: PlayerRef | None = None) -> str:
    """"K assumes X (COMMAND)": the fact assumed and the command that records it."""
    return a.text_for("ID" if player is None else player.command_name)


def k_by_tournament(out: PeriodOut) -> str:
    """The tournaments rated with another K than the period's (the K of the list in force at
    their start, Jul 2009 - Jun 2017), as "NAME K" items; "" when every one had the period's."""
    return ", ".join(f"{t.label} {t.k}" for t in out.tournaments if t.k != out.k)


def row_note(row: PeriodRow, player: PlayerRef | None = None) -> str:
    parts: list[str] = []
    if row.before_official:
        parts.append("before the first official rating")
    if row.official is not None and row.official.flag and "i" in row.official.flag:
        parts.append("inactive on this list (flag i)")
    if row.out is not None and row.out.k_by_tournament:
        parts.append(f"K by tournament start: {k_by_tournament(row.out)}")
    if row.first is not None and row.first.rating is not None:
        parts.append(f"first rating {row.first.rating}")
    elif row.first is not None and row.first.reason:
        parts.append(f"unrated: {row.first.reason}")
    if row.first is not None and row.first.rating is None:
        reasons: tuple[str | None, ...] = row.first.ignored_reasons
        parts += [f"ignored: {label} ({why})" for label, why
                  in zip(row.first.ignored, reasons, strict=False) if why]
    if row.out is not None and row.out.reason:
        parts.append(row.out.reason)
    if row.adjustment:
        parts.append(row.adjustment)
    if row.twice:
        parts.append(f"{plural(len(row.twice), 'game')} maybe stored twice (explain says which)")
    if row.rating_before_source == "standard rating":
        parts.append("starts from the standard rating")
    if row.rating_before is None and row.official is not None and row.out is None \
            and row.first is None:
        parts.append("start: official rating")
    elif row.anchored and row.difference not in (None, 0):
        parts.append("re-anchored on the official rating")
    elif row.source == "Elo tag" and row.tag_difference not in (None, 0):
        parts.append(f"re-anchored on the Elo tag {row.elo_tag}")
    parts += [n for n in row.notes if n.startswith(("the Elo tags of", "includes "))]
    assumed = list_assumed_games(row)
    if assumed:
        parts.append(f"{plural(assumed, 'game')} on this list by assumption (no time control: "
                     "tracker event set ID --list)")
    parts += [assumption_text(a, player) for a in row.assumptions]
    return "; ".join(parts)


def list_assumed_games(row: PeriodRow) -> int:
    """The period's counted games whose list was assumed (no readable TimeControl)."""
    return sum(1 for p in row.tournaments for g in p.counted if g.list_assumed)


def history_row(row: PeriodRow, player: PlayerRef | None = None) -> dict[str, Any]:
    """One period as plain JSON-able values (the columns of HISTORY_COLUMNS)."""
    start_row = row.rating_before is None and row.out is None and row.first is None
    after = row.published if start_row else row.replayed
    return {
        "period": str(row.period),
        "list": str(row.rating_list),
        "rating_before": row.rating_before,
        "games": row.games,
        "points": _json_points(row.points),
        "expected": None if row.expected is None else str(row.expected),
        "k": row.k,
        "change_exact": None if row.change_exact is None else str(row.change_exact),
        "change": row.change,
        "rating_after": after,
        "official_rating": row.official_rating,
        # rating_after - official_rating when both are known (docs/export.md): on the start
        # row too, where the rating after is the official one (0)
        "difference": (None if after is None or row.official_rating is None
                       else after - row.official_rating),
        "note": row_note(row, player),
        "elo_tag": row.elo_tag,
        "tag_difference": row.tag_difference,
        "published": row.published,
        "source": row.source,
        "before_official": row.before_official,
        "assumptions": [{"fact": a.fact, "assumed": a.assumed,
                         "command": assumption_command(a, player)} for a in row.assumptions],
        "list_assumed_games": list_assumed_games(row),
    }


def history_rows(replay_: Replay, since: Period | None = None, until: Period | None = None,
                 player: PlayerRef | None = None) -> list[dict[str, Any]]:
    return [history_row(r, player) for r in replay_.rows
            if (since is None or r.period >= since) and (until is None or r.period <= until)]


def history_table(rows: Sequence[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Headers and text cells of the history table."""
    headers = ["Period", "Before", "Games", "Points", "Expected", "K", "Change (exact)",
               "Change", "After", "Official", "Diff", "Tag", "Note"]
    cells = []
    for r in rows:
        # The start row's official rating is compared with itself (CSV and JSON say 0): the
        # table leaves it blank, its note says "start: official rating".
        start = r["rating_before"] is None and r["change"] is None and not r["games"]
        cells.append([
            r["period"], fmt_int(r["rating_before"]), str(r["games"] or ""),
            fmt_points(Fraction(r["points"])) if r["games"] else "",
            r["expected"] or "", fmt_int(r["k"]),
            fmt_signed(Decimal(r["change_exact"])) if r["change_exact"] is not None else "",
            fmt_signed(r["change"]), fmt_int(r["rating_after"]), fmt_int(r["official_rating"]),
            "" if start else fmt_signed(r["difference"]), fmt_int(r["elo_tag"]), r["note"],
        ])
    return headers, cells


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


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):  # the assumptions: their facts
        return ";".join(str(v["fact"]) if isinstance(v, dict) else str(v) for v in value)
    if isinstance(value, str):
        return _csv_text(value)
    return value


# --- explain -------------------------------------------------------------------------------


def _rc(plan: TournamentPlan, row: PeriodRow) -> int | None:
    tout = _tournament_out(plan, row)
    if tout is None:
        return None
    rs = [g.opponent_rating for g in tout.games if g.counted and g.opponent_rating is not None]
    if not rs:
        return None
    return int((Decimal(sum(rs)) / len(rs)).to_integral_value(rounding=ROUND_HALF_UP))


def _tournament_out(plan: TournamentPlan, row: PeriodRow) -> TournamentOut | None:
    """The engine's result for this tournament (rate_period keeps the order it was given)."""
    if row.out is None:
        return None
    index = row.tournaments.index(plan)
    return row.out.tournaments[index] if index < len(row.out.tournaments) else None


@dataclass(frozen=True)
class TournamentFigures:
    """One tournament on one list as chess-results prints it: the rated games and their
    points, the games not counted, the performance rating and the change."""

    games: int  # games that counted (rated)
    points: Fraction  # points in them
    not_counted: int  # the tournament's other games (unrated opponent, online, unfinished...)
    performance: int | None  # Rp (spec section 7), None without a counted game
    change_exact: Decimal | None  # K x chg, exact (None: pooled toward a first rating)
    change: int | None  # K x chg rounded on its own (.5 away from zero)


def _counted(plan: TournamentPlan, row: PeriodRow) -> tuple[list[int], Fraction]:
    """The ratings of the opponents of a tournament's games that counted, and their points
    (pooled toward a first rating: every game given to the engine counts)."""
    tout = _tournament_out(plan, row)
    if tout is None:
        return ([g.opponent_elo for g in plan.counted if g.opponent_elo is not None],
                sum((g.score for g in plan.counted if g.score is not None), Fraction(0)))
    return ([g.opponent_rating for g in tout.games
             if g.counted and g.opponent_rating is not None], Fraction(tout.points))


def tournament_figures(plan: TournamentPlan, row: PeriodRow) -> TournamentFigures:
    tout = _tournament_out(plan, row)
    opponents, points = _counted(plan, row)
    change_exact = None if tout is None else tout.k_change
    games = len(opponents)
    rp = performance_rating(opponents, points) if games else None
    change = None if change_exact is None else round_change(change_exact)
    return TournamentFigures(games, points, len(plan.unit.games) - games, rp, change_exact,
                             change)


def unit_figures(replays: Iterable[Replay]) -> dict[tuple[int, str], TournamentFigures]:
    """The figures of every tournament a replay rated, by (tournament id, list)."""
    found: dict[tuple[int, str], TournamentFigures] = {}
    for rp in replays:
        for r in rp.rows:
            for plan in r.tournaments:
                found[(plan.unit.tournament.id, str(plan.unit.rating_list))] = (
                    tournament_figures(plan, r))
    return found


@dataclass(frozen=True)
class Season:
    """A list's replay summed up: the rated games, points, Rp over all of them, the net
    change (the sum of the periods' rounded changes) and the first and last periods."""

    rating_list: RatingList
    first: Period
    last: Period
    games: int
    points: Fraction
    performance: int | None
    change: int


def season_summary(replay_: Replay, since: Period | None = None,
                   until: Period | None = None) -> Season | None:
    rows = [r for r in replay_.rows if (since is None or r.period >= since)
            and (until is None or r.period <= until) and r.games]
    if not rows:
        return None
    opponents: list[int] = []
    points = Fraction(0)
    for r in rows:
        for plan in r.tournaments:
            ratings, scored = _counted(plan, r)
            opponents += ratings
            points += scored
    rp = performance_rating(opponents, points) if opponents else None
    change = sum(r.change or 0 for r in rows)
    return Season(replay_.rating_list, rows[0].period, rows[-1].period, len(opponents), points,
                  rp, change)


def unplaced_lines(replay_: Replay) -> list[str]:
    """The tournaments whose games are in no period (no usable date, or one after the last
    list replayed), each with the command that places it; the games before the replayed era
    summed up in one line."""
    undated: dict[int, tuple[str, int]] = {}
    late: dict[int, tuple[str, int, str]] = {}
    early = 0
    for n in replay_.unplaced:
        tid = n.game.tournament_id
        if n.reason.startswith("no date"):
            label, count = undated.get(tid, (n.tournament, 0))
            undated[tid] = (label, count + 1)
        elif n.reason.startswith(TOO_LATE):
            label, count, why = late.get(tid, (n.tournament, 0, n.reason))
            late[tid] = (label, count + 1, why)
        else:
            early += 1
    lines = [f"In no period: {label} ({plural(count, 'game')}, no date): "
             f"tracker event set {tid} --period YYYY-MM" for tid, (label, count)
             in sorted(undated.items())]
    lines += [f"In no period: {label} ({plural(count, 'game')}): {why}"
              for _, (label, count, why) in sorted(late.items())]
    if early:
        lines.append(f"Not replayed: {plural(early, 'game')} before the first "
                     f"{replay_.rating_list} list the tracker replays")
    return lines


def season_line(season: Season) -> str:
    span = (str(season.first) if season.first == season.last
            else f"{season.first} to {season.last}")
    rp = "" if season.performance is None else f", performance {season.performance}"
    return (f"Season {span} ({season.rating_list}): {plural(season.games, 'rated game')}, "
            f"{plural_points(season.points)}{rp}, net change {fmt_signed(season.change) or '0'}")


def _dates(unit: Unit) -> str:
    s = unit.start.isoformat() if unit.start else "?"
    e = unit.end.isoformat() if unit.end else "?"
    return s if s == e else f"{s} to {e}"


RULE = "\u2500"  # ─ under the header of every table


def cell_width(text: str) -> int:
    """The columns `text` takes on a terminal: a wide (East Asian) character two, a
    combining mark none."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def render_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
                 right_columns: Iterable[int] = (), indent: str = "") -> list[str]:
    """Every table tracker prints, in one style: the header, a rule under each column, the
    rows; columns two spaces apart, `right_columns` (numbers) right-aligned, trailing
    spaces dropped. Linear in the rows (35,000 players print at once: rich's Table takes
    half a minute for them) and plain text, so that it reads the same in a terminal, a
    pipe and a file."""
    right = set(right_columns)
    widths = [cell_width(h) for h in headers]
    for r in rows:
        widths = [max(w, cell_width(c)) for w, c in zip(widths, r, strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = []
        for i, (c, w) in enumerate(zip(cells, widths, strict=True)):
            pad = " " * (w - cell_width(c))
            parts.append(pad + c if i in right else c + pad)
        return (indent + "  ".join(parts)).rstrip()

    ruler = (indent + "  ".join(RULE * w for w in widths)).rstrip()
    return [line(headers), ruler, *(line(r) for r in rows)]


def explain_lines(replay_: Replay, period: Period, player: PlayerRef) -> list[str]:
    """The period the way FIDE's calculation page shows it, as lines of text."""
    row = replay_.row(period)
    rl = replay_.rating_list
    before = [r for r in replay_.rows if r.period < period]
    if (row is None and before and period <= replay_.rows[-1].period
            and is_list_month(period, rl)):
        last = before[-1]
        carried = "unrated" if last.published is None else str(last.published)
        return [f"{player.name}: {rl} list {period} (list of {period.list_date:%d %b %Y})",
                f"No game, official entry or adjustment on this list: the rating carries over "
                f"from the {last.period} list: {carried}."]
    if row is None:
        periods = ", ".join(str(r.period) for r in replay_.rows[-12:]) or "none"
        raise NotFound(
            f"no {rl} rating period {period} for {player.name}: periods with games or "
            f"official entries are {periods}"
        )
    lines = [f"{player.name}: {rl} list {row.period} (list of {row.period.list_date:%d %b %Y})"]
    if row.rating_before is None and row.out is None and row.first is None and row.anchored:
        lines.append(f"Start of the replay: official rating {row.official_rating} on this list.")
        lines += [f"  (included in it: {u.label}, {_dates(u)}: no Elo tag of the player's "
                  "to replay it from)" for u in replay_.before_start]
        return lines
    if row.before_official:
        first = next((r.period for r in replay_.rows if r.official_rating is not None), None)
        lines.append(f"Before the first official rating ({first}): from the games and the "
                     "player's own Elo tags.")
    was = "unrated" if row.rating_before is None else str(row.rating_before)
    lines.append(f"Rating before: {was} ({row.rating_before_source})")
    if row.out is not None:
        lines.append(f"K {row.out.k}: {row.out.k_reason}" + _k_from_list(replay_, row, player))
        if row.out.k_by_tournament:
            lines.append("  each tournament is rated with the K of the list in force at its "
                         f"start: {k_by_tournament(row.out)} (below)")
    for plan in row.tournaments:
        if not plan.counted:
            continue  # nothing of it counted (online, excluded...): under "Games not counted"
        lines.append("")
        lines += _explain_tournament(plan, row)
    if row.not_counted:
        lines.append("")
        lines.append("Games not counted:")
        lines += _not_counted_lines(row.not_counted)
    lines.append("")
    if row.out is not None:
        o = row.out
        product = "sum of each tournament's K x chg" if o.k_by_tournament else "K x sum"
        lines.append(
            f"Period: {plural(o.games, 'game')}, {plural_points(Fraction(o.points))}, expected "
            f"{o.expected}; {product} = {fmt_signed(o.change_exact)}, rounded once "
            f"(.5 away from zero) to {fmt_signed(o.change)}"
        )
        after = "unrated" if o.rating_after is None else str(o.rating_after)
        lines.append(f"Rating after: {row.rating_before} {o.change:+d} = "
                     f"{after}" + (f" ({o.reason})" if o.reason else ""))
    if row.first is not None:
        f = row.first
        if f.rating is not None:
            lines.append(f"First rating: {f.rating} from {plural(f.games, 'game')}, "
                         f"{plural_points(Fraction(f.points))}, average {f.average}")
        else:
            lines.append(f"No rating yet: {f.reason}")
        lines += ignored_lines(f, "  ")
    if row.adjustment:
        lines.append(f"One-off adjustment: {row.adjustment}")
    if row.replayed is not None and row.out is not None and row.replayed != row.out.rating_after:
        lines.append(f"Replayed rating on the list: {row.replayed}")
    if row.official is not None:
        if row.official_rating is None:
            lines.append(f"Official {row.period}: listed without a rating")
        else:
            diff = row.difference
            lines.append(f"Official {row.period}: {row.official_rating}"
                         + ("" if diff is None else f" (difference {fmt_signed(diff) or '0'})")
                         + ("; the next period starts from it" if row.anchored else ""))
    if row.elo_tag is not None:
        diff = row.tag_difference
        if diff == 0:
            lines.append(f"Elo tag for the {row.period} list: {row.elo_tag}, as replayed")
        else:
            lines.append(f"Elo tag for the {row.period} list: {row.elo_tag}"
                         + ("" if diff is None else f" (replayed minus tag {fmt_signed(diff)})")
                         + "; no official entry for this list: the next period starts from it")
    for note in row.notes:
        if "differs from the official" in note or note.startswith("the Elo tags of"):
            lines.append(f"Note: {note}")
    lines += [f"Note: {note}" for note in row.twice]
    lines += [f"Assumed: {assumption_text(a, player)}" for a in row.assumptions]
    return lines


def _k_from_list(replay_: Replay, row: PeriodRow, player: PlayerRef) -> str:
    """Where a list fact behind K came from: the official K's list (and its file), the birth
    year read from a list when none was recorded."""
    earlier = [r.official for r in replay_.rows if r.period < row.period and r.official]
    said = ""
    if row.facts.official_k is not None:
        entry = next((e for e in reversed(earlier) if e.k == row.facts.official_k), None)
        if entry is not None:
            said += f" (printed on the {entry.period} list, {entry.source})"
    if player.birth_year is None and row.facts.birth_year is not None:
        entry = next((e for e in earlier if e.birth_year == row.facts.birth_year), None)
        if entry is not None:
            said += f" (birth year {entry.birth_year} from the {entry.period} list, {entry.source})"
    return said


def ignored_lines(first: FirstRatingOut, indent: str, what: str = "ignored") -> list[str]:
    """One line per tournament left out of a first rating, with its own reason (outside the
    26-month window, after the list date, a zero score in the first event)."""
    reasons: tuple[str | None, ...] = first.ignored_reasons
    if len(reasons) != len(first.ignored):
        reasons = (None,) * len(first.ignored)
    return [f"{indent}{what}: {label}" + (f" ({why})" if why else "")
            for label, why in zip(first.ignored, reasons, strict=True)]


def _explain_tournament(plan: TournamentPlan, row: PeriodRow) -> list[str]:
    u = plan.unit
    tout = _tournament_out(plan, row)
    ro = "unrated" if plan.ro is None else str(plan.ro)
    pinned = f", pinned to {u.period}" if u.pinned else ""
    head = f"{u.label} ({_dates(u)}{pinned}): Ro {ro} ({plan.ro_source})"
    rc = _rc(plan, row)
    if rc is not None:
        head += f", Rc {rc}"
    lines = [head]
    if plan.note:
        lines.append(f"  note: {plan.note}")
    if tout is None:
        if plan.counted:
            lines.append(f"  {len(plan.counted)} games pooled toward a first rating")
            rows = [[g.opponent, fmt_int(g.opponent_elo), fmt_points(g.score)]
                    for g in plan.counted]
            lines += render_table(["Opponent", "Rating", "Score"], rows, (1, 2),
                                  indent="    ")
        return lines
    rows = []
    for g, fact in zip(tout.games, plan.counted, strict=False):
        used = "" if g.difference_used is None else str(g.difference_used)
        rating = fmt_int(g.opponent_rating) + ("*" if g.capped else "")
        rows.append([
            g.label or fact.opponent, rating, used,
            "" if g.expected is None else str(g.expected), fmt_points(Fraction(g.score)),
            "" if g.change is None else fmt_signed(g.change),
            "" if g.k_change is None else fmt_signed(g.k_change),
            "" if g.counted else (g.reason or "not counted"),
        ])
    lines += render_table(["Opponent", "Rating", "D", "PD", "Score", "Chg", "K x chg", ""],
                          rows, range(1, 7), indent="    ")
    if any(g.capped for g in tout.games):
        lines.append("    * the difference is capped (the rating difference used is shown in D)")
    fig = tournament_figures(plan, row)
    rp = "" if fig.performance is None else f", performance {fig.performance}"
    lines.append(
        f"  {plural(tout.games_counted, 'game')}, {plural_points(Fraction(tout.points))}, expected "
        f"{tout.expected}, chg {fmt_signed(tout.change) or '0'}, "
        f"K x chg {fmt_signed(tout.k_change) or '0'} (rounded {fmt_signed(fig.change) or '0'})"
        f"{rp}"
    )
    assert row.out is not None
    if tout.k != row.out.k:
        lines.append(f"  K {tout.k} for this tournament: {tout.k_reason}")
    return lines


EXPLAIN_COLUMNS = ("period", "list", "tournament", "start", "end", "ro", "ro_source",
                   "opponent", "opponent_rating", "capped", "difference_used", "expected",
                   "score", "change", "k", "k_change", "counted", "reason")
"""The columns of `tracker explain --format csv` (one row per game of the period, the
games that did not count included, with the reason), in docs/export.md."""


def explain_games(replay_: Replay, period: Period) -> list[dict[str, Any]]:
    """The games of one period as FIDE's calculation page lists them: per game the
    tournament (with the Ro used and where it came from), the opponent, the rating used,
    the difference used, PD, score, change and K x change (exact values as text); then the
    games that did not count, with the reason. [] for a period without a row."""
    row = replay_.row(period)
    if row is None:
        return []
    rl = str(replay_.rating_list)
    out: list[dict[str, Any]] = []
    for plan in row.tournaments:
        if not plan.counted:
            continue
        u = plan.unit
        tout = _tournament_out(plan, row)
        base = {"period": str(period), "list": rl, "tournament": u.label,
                "start": u.start.isoformat() if u.start else None,
                "end": u.end.isoformat() if u.end else None,
                "ro": plan.ro, "ro_source": plan.ro_source}
        if tout is None:  # pooled toward a first rating
            out += [{**base, "opponent": g.opponent, "opponent_rating": g.opponent_elo,
                     "capped": False, "difference_used": None, "expected": None,
                     "score": None if g.score is None else _json_points(g.score),
                     "change": None, "k": None,
                     "k_change": None, "counted": True, "reason": "toward a first rating"}
                    for g in plan.counted]
            continue
        for g, fact in zip(tout.games, plan.counted, strict=False):
            out.append({**base, "opponent": g.label or fact.opponent,
                        "opponent_rating": g.opponent_rating, "capped": g.capped,
                        "difference_used": g.difference_used,
                        "expected": None if g.expected is None else str(g.expected),
                        "score": _json_points(g.score),
                        "change": None if g.change is None else str(g.change),
                        "k": tout.k if g.counted else None,
                        "k_change": None if g.k_change is None else str(g.k_change),
                        "counted": g.counted, "reason": None if g.counted else g.reason})
    for n in row.not_counted:
        out.append({"period": str(period), "list": rl, "tournament": n.tournament,
                    "start": n.game.date.isoformat() if n.game.date else None, "end": None,
                    "ro": None, "ro_source": None, "opponent": n.game.opponent,
                    "opponent_rating": n.game.opponent_elo, "capped": False,
                    "difference_used": None, "expected": None,
                    "score": None, "change": None, "k": None, "k_change": None,
                    "counted": False, "reason": n.reason})
    return out


def _not_counted_lines(items: Sequence[NotCounted]) -> list[str]:
    rows = [[n.tournament, n.game.date.isoformat() if n.game.date else "?", n.game.opponent,
             n.game.result, n.reason] for n in items]
    return render_table(["Tournament", "Date", "Opponent", "Result", "Why"], rows,
                        indent="  ")


# --- next ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class NextReport:
    player: PlayerRef
    rating_list: RatingList
    last_official: Period | None
    last_rating: int | None
    rows: tuple[PeriodRow, ...]  # replayed periods after the last official list
    expected: int | None
    next_period: Period | None
    open: tuple[tuple[str, str], ...]  # (tournament, why it is still open)


OPEN_MARGIN_DAYS = 7
"""A tournament whose last round is this close to its list date may be reported late."""


def next_report(replay_: Replay, player: PlayerRef) -> NextReport:
    """The expected rating on the next list(s) from the games since the last official one."""
    anchors = [r for r in replay_.rows if r.anchored]
    last = anchors[-1] if anchors else None
    pending = tuple(r for r in replay_.rows
                    if (last is None or r.period > last.period) and r.tournaments)
    expected = pending[-1].published if pending else (last.published if last else None)
    next_period = pending[-1].period if pending else None
    open_: list[tuple[str, str]] = []
    for r in pending:
        for plan in r.tournaments:
            u = plan.unit
            if u.pinned or u.end is None or u.period is None:
                continue
            margin = (u.period.list_date - u.end).days
            if margin <= OPEN_MARGIN_DAYS:
                open_.append((u.label, f"last round {u.end.isoformat()}, {margin} days before "
                              f"the {u.period} list: a late report lands it on a later list"))
    for n in replay_.unplaced:
        entry = (n.tournament, n.reason)
        if entry not in open_:
            open_.append(entry)
    return NextReport(player, replay_.rating_list, last.period if last else None,
                      last.published if last else None, pending, expected, next_period,
                      tuple(open_))


def next_lines(rep: NextReport) -> list[str]:
    rl = rep.rating_list
    lines: list[str] = []
    if rep.last_official is not None:
        lines.append(f"Last official {rl} rating: {rep.last_rating} ({rep.last_official} list)")
    else:
        lines.append(f"No official {rl} rating recorded: the replay starts from the games "
                     "(record one with `tracker official add`).")
    if not rep.rows:
        lines.append("No games since then: the next list should show the same rating.")
        return lines
    lines.append("")
    lines.append("Games since then, by the list expected to rate them:")
    for r in rep.rows:
        before = "unrated" if r.rating_before is None else str(r.rating_before)
        after = "unrated" if r.published is None else str(r.published)
        change = fmt_signed(r.change) if r.change is not None else ""
        k = f" K {r.k}," if r.k is not None else ""
        if r.out is not None and r.out.k_by_tournament:
            k = f" K {r.k} ({k_by_tournament(r.out)}),"
        lines.append(f"  {r.period}: {before} -> {after} ({plural(r.games, 'game')}, "
                     f"{plural_points(r.points)},{k} change {change or '0'})")
        for plan in r.tournaments:
            lines.append(f"    {plan.unit.label} ({_dates(plan.unit)})")
        if r.first is not None:
            lines += ignored_lines(r.first, "    ", "ignored for the first rating")
        if r.source == "Elo tag" and r.tag_difference not in (None, 0):
            lines.append(f"    the list's rating is the player's own Elo tag {r.elo_tag} "
                         "(a tournament that started under it)")
        lines += [f"    {assumption_text(a, rep.player)}" for a in r.assumptions]
    lines.append("")
    final = "unrated" if rep.expected is None else str(rep.expected)
    lines.append(f"Expected {rl} rating on the {rep.next_period} list: {final}")
    if rep.open:
        lines.append("Still open:")
        lines += [f"  {name}: {why}" for name, why in rep.open]
    return lines


# --- events --------------------------------------------------------------------------------

EVENT_COLUMNS = ("id", "name", "site", "start", "end", "list", "period", "pinned",
                 "excluded", "ro", "games", "points", "not_counted", "performance",
                 "change_exact", "change")


def event_rows(replays: Iterable[Replay]) -> list[dict[str, Any]]:
    """One row per tournament and list, in date order."""
    rows = []
    for rp in replays:
        figures = unit_figures([rp])
        for u in rp.units:
            t = u.tournament
            fig = figures.get((t.id, str(u.rating_list)))
            rows.append({
                "id": t.id,
                "name": t.name,
                "site": t.site,
                "start": u.start.isoformat() if u.start else None,
                "end": u.end.isoformat() if u.end else None,
                "list": str(u.rating_list),
                "period": None if u.period is None else str(u.period),
                "pinned": u.pinned,
                "excluded": t.excluded,
                "ro": t.ro,
                # the games that counted (rated), as explain and history count them; the
                # others beside them
                "games": 0 if fig is None else fig.games,
                "points": _json_points(Fraction(0) if fig is None else fig.points),
                "not_counted": len(u.games) if fig is None else fig.not_counted,
                "performance": None if fig is None else fig.performance,
                "change_exact": None if fig is None or fig.change_exact is None
                else str(fig.change_exact),
                "change": None if fig is None else fig.change,
            })
    rows.sort(key=lambda r: (r["start"] or "9999", r["id"], r["list"]))
    return rows


# --- export --------------------------------------------------------------------------------

GAME_COLUMNS = ("date", "list", "period", "tournament_id", "tournament", "round", "color",
                "opponent", "opponent_fide_id", "own_elo", "opponent_elo", "result", "score",
                "counted", "reason")


def game_rows(replays: Iterable[Replay]) -> list[dict[str, Any]]:
    """Every game of the player with the period that rates it and whether it counted."""
    rows: list[dict[str, Any]] = []
    for rp in replays:
        why: dict[int, str] = {}
        counted: set[int] = set()
        for r in rp.rows:
            for n in r.not_counted:
                why[n.game.id] = n.reason
            for plan in r.tournaments:
                tout = _tournament_out(plan, r)
                if tout is None:
                    counted.update(g.id for g in plan.counted)
                    continue
                for g, out in zip(plan.counted, tout.games, strict=False):
                    if out.counted:
                        counted.add(g.id)
                    else:
                        why[g.id] = out.reason or "not counted"
        for n in rp.unplaced:
            why[n.game.id] = n.reason
        for u in rp.before_start:
            for g in u.games:
                why.setdefault(g.id, f"inside the starting official rating ({rp.start})")
        for u in rp.units:
            for g in u.games:
                rows.append({
                    "date": g.date.isoformat() if g.date else None,
                    "list": str(u.rating_list),
                    "period": None if u.period is None else str(u.period),
                    "tournament_id": u.tournament.id,
                    "tournament": u.tournament.name,
                    "round": g.round,
                    "color": "white" if g.white else "black",
                    "opponent": g.opponent,
                    "opponent_fide_id": g.opponent_fide_id,
                    "own_elo": g.own_elo,
                    "opponent_elo": g.opponent_elo,
                    "result": g.result,
                    "score": None if g.score is None else fmt_points(g.score),
                    "counted": "yes" if g.id in counted else "no",
                    "reason": None if g.id in counted else why.get(g.id),
                })
    rows.sort(key=lambda r: (r["date"] or "9999", r["tournament_id"], r["round"] or ""))
    return rows

