"""`tracker check` as the user reads it: the check of one player on one list (tracker.check's
`CheckReport`) as a table with the lines under it, as CSV rows and as JSON, and `check --all`
as one row per player-list. The causes are worded in tracker.reports.causes; the facts
assumed and the games left out here (tracker.reports.words)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tracker.advice import PinPeriod
from tracker.check.report import (
    DIFFERS,
    START,
    CheckNote,
    CheckReport,
    CheckRow,
    GamesCount,
    GamesStep,
    ReanchorMatches,
    StartsHere,
)
from tracker.reports.causes import cause_command, cause_text
from tracker.reports.explain import kind_text
from tracker.reports.said import command_line
from tracker.reports.text import plural
from tracker.reports.words import (
    LIST_ASSUMED_HOW,
    assumed_text,
    assumption_command,
    closing_command,
    closing_json,
    closing_text,
    command,
    left_out_counts,
    note_text,
    start_text,
)


def check_note_text(n: CheckNote) -> str:
    """A note of a period checked, in words."""
    if isinstance(n, StartsHere):
        return "the replay starts from this rating"
    if isinstance(n, ReanchorMatches):
        if n.next_period is not None:
            return (
                f"re-anchoring at the official {n.official} makes the next period "
                f"({n.next_period}) match"
            )
        rest = (
            f"the {n.later} later periods checked match"
            if n.later > 1
            else "the later period checked matches"
        )
        return f"re-anchoring at the official {n.official} makes the rest match: {rest}"
    return note_text(n)


def report_notes(report: CheckReport) -> list[str]:
    """What the check says of the whole list."""
    if not report.before_2008:
        return []
    return [
        f"{report.before_2008} games before 2008 are not replayed (FIDE rated by tournament "
        "averages then)"
    ]


def _not_counted(r: CheckRow) -> tuple[tuple[str, int], ...]:
    return left_out_counts(r.not_counted)


# --- JSON ------------------------------------------------------------------------------------


def games_count_json(g: GamesCount) -> dict[str, object]:
    return {
        "fide": g.fide,
        "replay": g.replay,
        "missing": g.missing,
        "source": g.source,
        "kind": None if g.kind is None else str(g.kind),
        "step": str(g.step),
        "left_out": g.left_out,
    }


def check_row_json(r: CheckRow, who: str = "ID") -> dict[str, object]:
    """One period checked, as `check --format json` writes it (docs/export.md)."""
    return {
        "period": str(r.period),
        "list": str(r.rating_list),
        "replayed": r.replayed,
        "official": r.official,
        "difference": r.difference,
        "games": r.games,
        "official_games": r.official_games,
        "k": r.k,
        "official_k": r.official_k,
        "status": r.status,
        "causes": [
            {
                "kind": c.kind,
                "text": cause_text(c),
                "reproduces": c.reproduces,
                "games_match": c.games_match,
                "command": cause_command(c),
            }
            for c in r.causes
        ],
        "notes": [check_note_text(n) for n in r.notes],
        "assumptions": [
            {"fact": str(a.fact), "assumed": assumed_text(a), "command": assumption_command(a, who)}
            for a in r.assumptions
        ],
        "official_source": r.official_source,
        "official_flag": r.official_flag,
        "list_assumed_games": r.list_assumed_games,
        "not_counted": [{"reason": label, "games": n} for label, n in _not_counted(r)],
        "period_assumed": [closing_json(c) for c in r.closing_dates],
        "games_count": None if r.games_count is None else games_count_json(r.games_count),
        "official_kind": None if r.official_kind is None else str(r.official_kind),
    }


def check_json(report: CheckReport) -> dict[str, object]:
    """The check of one player on one list, as `check --format json` writes it."""
    return {
        "player": report.player,
        "list": str(report.rating_list),
        "start": start_text(report.start),
        "all_match": report.all_match,
        "compared": len(report.compared),
        "differences": len(report.differences),
        "rows": [check_row_json(r, report.who) for r in report.rows],
        "notes": report_notes(report),
    }


# --- CSV -------------------------------------------------------------------------------------

CHECK_COLUMNS = (
    "player",
    "list",
    "period",
    "replayed",
    "official",
    "difference",
    "games",
    "official_games",
    "k",
    "official_k",
    "status",
    "official_source",
    "likely_cause",
    "assumptions",
    "list_assumed_games",
    "not_counted",
    "period_assumed",
)
"""`tracker check --format csv`: one row per period checked, of every player-list."""
ALL_COLUMNS = (
    "player",
    "list",
    "checked",
    "differ",
    "first_difference",
    "difference",
    "likely_cause",
)
"""`tracker check --all --format csv`: one row per player-list (the table's rows)."""


def all_csv_rows(reports: Sequence[CheckReport]) -> list[dict[str, Any]]:
    rows = []
    for r in reports:
        first = r.differences[0] if r.differences else None
        rows.append(
            {
                "player": r.player,
                "list": str(r.rating_list),
                "checked": len(r.compared),
                "differ": len(r.differences),
                "first_difference": str(first.period) if first else None,
                "difference": first.difference if first else None,
                "likely_cause": first.causes[0].kind if first and first.causes else None,
            }
        )
    return rows


def check_csv_rows(reports: Sequence[CheckReport]) -> list[dict[str, Any]]:
    return [
        {
            "player": r.player,
            "list": str(r.rating_list),
            "period": str(row.period),
            "replayed": row.replayed,
            "official": row.official,
            "difference": row.difference,
            "games": row.games,
            "official_games": row.official_games,
            "k": row.k,
            "official_k": row.official_k,
            "status": row.status,
            "official_source": row.official_source,
            "likely_cause": row.causes[0].kind if row.causes else None,
            # as the history's CSV writes them (docs/export.md)
            "assumptions": ";".join(str(a.fact) for a in row.assumptions) or None,
            "list_assumed_games": row.list_assumed_games,
            "not_counted": ";".join(f"{label} {n}" for label, n in _not_counted(row)) or None,
            "period_assumed": ";".join(f"{c.tournament_id} {c.earlier}" for c in row.closing_dates)
            or None,
        }
        for r in reports
        for row in r.rows
    ]


# --- text ------------------------------------------------------------------------------------


def _n(x: int | None) -> str:
    return "-" if x is None else str(x)


def signed(x: int | None) -> str:
    return "" if x is None else f"{x:+d}" if x else "0"


CHECK_HEADERS = [
    "period",
    "replayed",
    "official",
    "diff",
    "games",
    "FIDE games",
    "K",
    "FIDE K (prev)",
    "status",
    "from",
    "assumed",
]
CHECK_RIGHT = (1, 2, 3, 4, 5, 6, 7)
"""The table's columns of numbers."""
CHECK_OPTIONAL = (7, 6, 9, 5, 4)
"""Left out in this order when the table is too wide: the K columns (the lines under the
table name a K that differs), where the official rating came from, the game counts; the
numbers compared and the status stay."""


def assumed_marks(report: CheckReport) -> tuple[list[str], list[str]]:
    """What each compared row's replayed number rests on that nobody recorded, as short marks
    for the table's last column ("K", "list 4", "period", "not counted 1"), and the lines
    under the table that say each in full once, with the command that settles it."""
    compared = [r for r in report.rows if r.status != START]
    marks: list[str] = []
    for r in report.rows:
        if r.status == START:
            marks.append("")
            continue
        parts = []
        if r.assumptions:
            parts.append("K")
        if r.list_assumed_games:
            parts.append(f"list {r.list_assumed_games}")
        if r.closing_dates:
            parts.append("period")
        if r.not_counted:
            parts.append(f"not counted {sum(n for _, n in _not_counted(r))}")
        marks.append(", ".join(parts))
    every = len(compared)

    def where(periods: list[str]) -> str:
        return "" if len(periods) == every else f" ({', '.join(periods)})"

    lines: list[str] = []
    k: dict[tuple[str, str], list[str]] = {}
    for r in compared:
        for a in r.assumptions:
            said = (assumed_text(a), assumption_command(a, report.who))
            k.setdefault(said, []).append(str(r.period))
    lines += [
        f"  K: K assumes {assumed} ({command}){where(periods)}"
        for (assumed, command), periods in k.items()
    ]
    listed = [r for r in compared if r.list_assumed_games]
    if listed:
        n = sum(r.list_assumed_games for r in listed)
        total = sum(r.games for r in compared)
        lines.append(
            f"  list N: {n} of the {total} games compared {'has' if n == 1 else 'have'} no "
            f"time control: put on their list {LIST_ASSUMED_HOW}"
            f"{where([str(r.period) for r in listed])}"
        )
    lines += [
        f"  period: {closing_text(c)} ({closing_command(c)})"
        for r in compared
        for c in r.closing_dates
    ]
    for r in compared:
        if r.not_counted:
            counts = _not_counted(r)
            total = sum(n for _, n in counts)
            why = ", ".join(f"{label} {n}" for label, n in counts)
            lines.append(
                f"  not counted N: {r.period}: {total} game{'' if total == 1 else 's'} "
                f"left out ({why}); {command_line('explain', r.period).quoted()} names them"
            )
    if lines:
        lines.insert(0, "What the replayed numbers rest on (assumed, or left out):")
    return marks, lines


def check_table(report: CheckReport) -> tuple[str, list[str], list[list[str]]]:
    """The title, headers and cells of one player-list's table (the column of what was
    assumed only when something was)."""
    marks, _ = assumed_marks(report)
    cells = [
        [
            str(r.period),
            _n(r.replayed),
            _n(r.official),
            signed(r.difference),
            str(r.games),
            _n(r.official_games),
            _n(r.k),
            _n(r.official_k),
            r.status,
            from_text(r),
            mark,
        ]
        for r, mark in zip(report.rows, marks, strict=True)
    ]
    headers = CHECK_HEADERS if any(marks) else CHECK_HEADERS[:-1]
    if not any(marks):
        cells = [c[:-1] for c in cells]
    start = start_text(report.start)
    title = f"{report.player}, {report.rating_list} list (the replay starts from {start})"
    return title, headers, cells


def check_lines(report: CheckReport) -> list[str]:
    """The lines under the table: what was assumed, each difference with its likely causes,
    the notes, and how many periods were compared and matched."""
    _, assumed = assumed_marks(report)
    lines: list[str] = []
    if assumed:
        lines += ["", *assumed]
    for r in report.differences:
        lines += [
            "",
            f"{r.period}: replayed {_n(r.replayed)}, official {_n(r.official)} "
            f"({signed(r.difference)}). Likely causes, most likely first:",
        ]
        if r.games_count is not None:
            lines.append(f"  games: {games_text(r.games_count)}")
        for i, c in enumerate(r.causes, 1):
            mark = "reproduces the official rating" if c.reproduces else "possible"
            lines.append(f"  {i}. [{mark}] {cause_text(c)}")
            record = cause_command(c)
            if record:
                lines.append(f"     to record it: {record}")
        lines += [f"  note: {check_note_text(note)}" for note in r.notes]
    for r in report.rows:
        if r.status != DIFFERS and r.status != START:
            if r.games_count is not None:
                lines.append(f"  {r.period} games: {games_text(r.games_count)}")
            lines += [f"  {r.period} note: {check_note_text(note)}" for note in r.notes]
    lines += [f"Note: {note}" for note in report_notes(report)]
    n, d = len(report.compared), len(report.differences)
    if not n:
        return [
            *lines,
            "",
            "Nothing to compare yet: the replay starts from the only official rating. "
            f"Record later ones with {command_line('official', 'add').quoted()} or "
            f"{command_line('official', 'import').quoted()}.",
        ]
    return [*lines, "", checked_text(n, d)]


def from_text(r: CheckRow) -> str:
    """The `from` column: the official number's file (and that list's kind), or `manual`;
    the list's inactive flag."""
    said = [] if r.official_kind is None else [str(r.official_kind)]
    if r.official_flag and "i" in r.official_flag:
        said.append("inactive")
    return r.official_source + (f" ({', '.join(said)})" if said else "")


def games_text(g: GamesCount) -> str:
    """FIDE's count of rated games against the replay's, and the next step."""
    where = (
        "recorded by hand"
        if g.source == "manual"
        else g.source
        if g.kind is None
        else f"{g.source}, {kind_text(g.kind)}"
    )
    text = (
        f"FIDE rated {plural(g.fide, 'game')} of yours on the {g.period} list ({where}); "
        f"your files hold {g.replay} for it"
    )
    n = abs(g.missing)
    if g.step is GamesStep.CAUSE:
        return text + (
            ": a tournament of yours belongs on this list (cause 1 below, with its command)"
            if g.missing > 0
            else ": a tournament of them was rated on another list or not at all (cause 1 below, "
            "with its command)"
        )
    if g.step is GamesStep.LEFT_OUT:
        return text + (
            f" and left out {g.left_out} of this period: FIDE may have counted some of them "
            f"({command_line('explain', g.period).quoted()} says why each was left out); else "
            f"import the missing tournament ({command_line('import', 'FILE').quoted()})"
        )
    if g.step is GamesStep.IMPORT:
        return text + (
            f": import the missing tournament, {plural(n, 'game')} "
            f"({command_line('import', 'FILE').quoted()})"
        )
    return text + (
        f": {n} of them {'was' if n == 1 else 'were'} rated on another list or not at all "
        f"({command_line('explain', g.period).quoted()} lists the tournaments; "
        f"{command(PinPeriod()).quoted()} "
        "or `--exclude` says so)"
    )


def checked_text(n: int, d: int) -> str:
    """The last line of a check: how many periods were compared and how many differ."""
    if not d:
        return "The one period checked matches." if n == 1 else f"All {n} periods checked match."
    return (
        "The one period checked differs."
        if n == 1
        else f"{d} of the {n} periods checked differ."
        if d > 1
        else f"1 of the {n} periods checked differs."
    )


ALL_HEADERS = ["player", "list", "checked", "differ", "first difference", "diff", "likely cause"]
ALL_RIGHT = (2, 3, 5)


def all_table(reports: Sequence[CheckReport]) -> tuple[list[str], list[list[str]]]:
    """`check --all`: one row per player-list."""
    cells = []
    for r in reports:
        first = r.differences[0] if r.differences else None
        cause = first.causes[0].kind if first and first.causes else ""
        cells.append(
            [
                r.player,
                str(r.rating_list),
                str(len(r.compared)),
                str(len(r.differences)),
                str(first.period) if first else "",
                signed(first.difference) if first else "",
                cause,
            ]
        )
    return ALL_HEADERS, cells


_RECORD_LATER = (
    f"record later ones with {command_line('official', 'add').quoted()} or "
    f"{command_line('official', 'import').quoted()}"
)


def all_lines(reports: Sequence[CheckReport]) -> list[str]:
    """The last line of `check --all`: the player-lists compared, those that differ, and
    those that compared nothing (their only official rating is the one the replay starts
    from: there is nothing to compare it with)."""
    bad = sum(1 for r in reports if not r.all_match)
    idle = [r for r in reports if not r.compared]
    n = len(reports) - len(idle)
    if not n:
        if len(idle) == 1:
            r = idle[0]
            said = (
                f"{r.player} has no official {r.rating_list} rating besides the "
                f"{r.rows[0].period} one the replay starts from"
            )
        else:
            said = (
                f"none of the {len(idle)} player-lists has an official rating besides the "
                "one its replay starts from"
            )
        return ["", f"Nothing compared: {said}; {_RECORD_LATER}."]
    line = f"{plural(n, 'player-list')} checked, {bad} with differences"
    if idle:
        line += (
            f"; {len(idle)} more compared nothing (only the official rating "
            f"{'its' if len(idle) == 1 else 'their'} replay starts from)"
        )
    causes = f": see {command_line('check', 'PLAYER').quoted()} for the causes."
    return ["", line + (causes if bad else ".")]
