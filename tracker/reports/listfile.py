"""What `tracker official import` and `official fetch` say of a FIDE list file imported (an
`ImportSummary`): the file's line, the players matched by name below it, the warnings (a FIDE
ID a name fit that another person holds, the malformed rows), and a merge's number with the
command that undoes it."""

from __future__ import annotations

import shlex
from pathlib import Path

from tracker.app.official import whole_floor
from tracker.model import (
    ImportSummary,
    ListCandidate,
    ListKind,
    NotMerged,
    NotOnePerson,
    RatingList,
)
from tracker.reports.imports import names_apart_said
from tracker.reports.said import command_line


def reason(message: str, label: str) -> str:
    """A file's error without its name in front ('f.txt:3: x' -> 'line 3: x')."""
    if message.startswith(f"{label}: "):
        return message[len(label) + 2 :]
    head, sep, rest = message[len(label) + 1 :].partition(": ")
    if message.startswith(f"{label}:") and sep and head.isdigit():
        return f"line {head}: {rest}"
    return message


def _n(value: int) -> str:
    return f"{value:,}"


def _kind(s: ImportSummary, whole: bool | None) -> str:
    """Which kind of list the file was, and what that means, after its count of rows."""
    if s.kind is ListKind.WHOLE:
        return "FIDE's whole list" + (" (--whole)" if whole else "")
    lacks = "the players it lacks keep their earlier rating or Elo tag"
    if whole is False or not s.periods:
        return f"an excerpt (--excerpt): {lacks}"
    period = min(s.periods)
    return (
        f"an excerpt (FIDE's whole list of {period} has {_n(whole_floor(s.lists, period))} "
        f"rows or more): {lacks} (--whole if it is the whole list)"
    )


def report_line(
    s: ImportSummary, keep_all: bool, whole: bool | None = None, *, all_hint: bool = True
) -> str:
    periods = ", ".join(str(p) for p in sorted(s.periods)) or "-"
    lists = ", ".join(str(x) for x in RatingList if x in s.lists) or "-"
    parts = [f"{s.source}: {periods} ({lists}): {_n(s.rows)} players read"]
    by_name = f"{_n(s.matched)} matched by name" if s.matched else ""
    if keep_all:
        parts.append(f"{_n(s.kept)} kept ({_n(s.created)} new{by_name and ', ' + by_name})")
        if s.unnamed:
            parts.append(f"{_n(s.unnamed)} without a name not created")
    else:
        parts.append(f"{_n(s.kept)} in the database{by_name and f' ({by_name})'}")
        if s.skipped:
            hint = " (--all keeps them)" if all_hint else ""
            parts.append(f"{_n(s.skipped)} {'other' if s.skipped == 1 else 'others'} skipped{hint}")
    if s.merged:
        parts.append(f"{_n(len(s.merged))} merged into the player who had their FIDE ID")
    if s.ambiguous:
        parts.append(
            f"{_n(len(s.ambiguous))} {'name' if len(s.ambiguous) == 1 else 'names'} "
            "not matched (several players of the list fit: below)"
        )
    parts.append(f"{_n(s.entries)} {'entry' if s.entries == 1 else 'entries'} written")
    if s.unchanged:
        parts.append(f"{_n(s.unchanged)} already as imported before (unchanged)")
    if s.replaced:
        parts.append(f"{_n(s.replaced)} replaced an earlier import for the same month")
    if s.cleared:
        parts.append(f"{_n(s.cleared)} earlier entries removed (no rating in this list)")
    if s.duplicates:
        parts.append(f"{_n(s.duplicates)} repeated FIDE IDs (the last row won)")
    if s.birth_years:
        parts.append(
            f"{_n(s.birth_years)} birth {'year' if s.birth_years == 1 else 'years'} filled in"
        )
    parts.append(_kind(s, whole))
    return "; ".join(parts)


MATCHES_SHOWN = 10
"""The players matched by name (or not) a file's report names one by one."""
CANDIDATES_SHOWN = 5
"""The list's players shown for a name several of them fit."""


def _candidate(c: ListCandidate) -> str:
    """A list's player a name fits: "Smith, J (FIDE ID 1001, ENG, born 1990)"."""
    facts = [f"FIDE ID {c.fide_id}"]
    if c.federation:
        facts.append(c.federation)
    if c.birth_year:
        facts.append(f"born {c.birth_year}")
    return f"{c.name} ({', '.join(facts)})"


def match_lines(s: ImportSummary) -> list[str]:
    """Below a file's line: who was matched by name (merged or not), and the names several
    players of the list fit, with them and the command that settles each."""
    lines: list[str] = []
    matches = [*s.named, *s.merged]
    for m in matches[:MATCHES_SHOWN]:
        if m.into is None:
            lines.append(f"  {m.player}: {m.listed}, FIDE ID {m.fide_id} (matched by name)")
        else:
            lines.append(
                f"  {m.player}: {m.listed}, FIDE ID {m.fide_id}, which {m.into} had: merged "
                f"{m.player} into {m.into}, named {m.listed} now{undo_said(m.merge)}"
            )
    if len(matches) > MATCHES_SHOWN:
        lines.append(
            f"  and {_n(len(matches) - MATCHES_SHOWN)} more matched by name "
            f"({command_line('players').quoted()} lists them)"
        )
    for a in s.ambiguous[:MATCHES_SHOWN]:
        shown = [_candidate(c) for c in a.candidates[:CANDIDATES_SHOWN]]
        more = len(a.candidates) - CANDIDATES_SHOWN
        if more > 0:
            shown.append(f"and {_n(more)} more")
        lines.append(
            f"  {a.player}: not matched, {_n(len(a.candidates))} players of the "
            f"list fit the name: {'; '.join(shown)}; settle it with "
            f"{command_line('player', 'set', shlex.quote(a.player), '--fide-id', 'N').quoted()}"
        )
    if len(s.ambiguous) > MATCHES_SHOWN:
        lines.append(
            f"  and {_n(len(s.ambiguous) - MATCHES_SHOWN)} more names that several "
            "players of the list fit (not matched)"
        )
    return lines


def undo_said(number: int | None) -> str:
    """How a merge message ends: its number and the command that undoes it."""
    if number is None:
        return ""
    undo = command_line("player", "unmerge", "--merge", number).quoted()
    return f" as merge {number}; {undo} undoes it"


def not_one_person_said(why: NotOnePerson, player: str, fide_id: int) -> str:
    """Why a player was not merged into the holder of a FIDE ID, as a clause on the holder,
    with the command that merges them when the names alone stood in the way."""
    if why.met:
        return (
            f"who played {player} ({why.met} {'game' if why.met == 1 else 'games'}): they "
            "cannot be one person"
        )
    assert why.names is not None
    return (
        f"{names_apart_said(why.names, why.other)}: if they are one person, say so with "
        f"{command_line('player', 'merge', fide_id, shlex.quote(player)).quoted()}"
    )


def not_merged_text(source: str, n: NotMerged) -> str:
    """A player a list row fit by name whose FIDE ID another player holds who is not that
    person (a warning: nothing was merged)."""
    why = (
        f"and they cannot be merged: {n.refused}"
        if n.why is None
        else not_one_person_said(n.why, n.player, n.fide_id)
    )
    return (
        f"{Path(source).name}: {n.player} fits {n.listed} (FIDE ID {n.fide_id}) "
        f"on the list, but FIDE ID {n.fide_id} belongs to {n.holder}, {why}"
    )


def malformed_text(s: ImportSummary, shown: int) -> str | None:
    """How many malformed rows the file had, `shown` of them said one by one (None: none)."""
    if not s.problems:
        return None
    more = s.problems - shown
    tail = f" ({more} more not shown)" if more > 0 else ""
    rows = "row" if s.problems == 1 else "rows"
    return f"{s.source}: {s.problems} malformed {rows} skipped{tail}"


# --- --format csv|json ------------------------------------------------------------------

LIST_FILE_COLUMNS = (
    "file",
    "outcome",
    "periods",
    "lists",
    "kind",
    "players_read",
    "in_database",
    "created",
    "matched_by_name",
    "merged",
    "not_matched",
    "skipped",
    "unnamed",
    "entries",
    "unchanged",
    "replaced",
    "cleared",
    "duplicates",
    "birth_years",
    "malformed",
    "error",
)
"""A FIDE list file imported, one row each (`tracker official import --format csv`; the
fields of its JSON objects, which `official fetch` rows hold too)."""


def list_file_json(label: str, s: ImportSummary | None, error: str | None) -> dict[str, object]:
    """A file imported (`s`), or not (`error`, its reason without the file's name), as the
    counts `report_line` words: "imported" or "not-imported", and None for every count of a
    file not imported."""
    row: dict[str, object] = {"file": label, "outcome": "imported" if s else "not-imported"}
    if s is None:
        row.update(dict.fromkeys(LIST_FILE_COLUMNS[2:-1]))
        row["error"] = error
        return row
    row.update(
        periods=[str(p) for p in sorted(s.periods)],
        lists=[str(x) for x in RatingList if x in s.lists],
        kind=str(s.kind),
        players_read=s.rows,
        in_database=s.kept,
        created=s.created,
        matched_by_name=s.matched,
        merged=len(s.merged),
        not_matched=len(s.ambiguous),
        skipped=s.skipped,
        unnamed=s.unnamed,
        entries=s.entries,
        unchanged=s.unchanged,
        replaced=s.replaced,
        cleared=s.cleared,
        duplicates=s.duplicates,
        birth_years=s.birth_years,
        malformed=s.problems,
        error=None,
    )
    return row


def no_entries_text(name: str) -> str:
    """What `official list` says of a player without an official entry."""
    return (
        f"no official entries for {name}: import a list with "
        f"{command_line('official', 'import', 'FILE').quoted()} or add one with "
        f"{command_line('official', 'add').quoted()}"
    )


def not_imported_text(label: str, why: str) -> str:
    """A list file that could not be imported, and why."""
    return f"{label}: not imported: {why}"


def files_read_text(files: int, failed: int) -> str:
    """The last line of `official import` of several files."""
    read = files - failed
    return f"{files:,} {'file' if files == 1 else 'files'}: {read:,} read, {failed:,} not imported"


def recorded_text(
    name: str, rating_list: object, period: object, rating: object, *, replaced: bool
) -> str:
    """What `official add` recorded."""
    note = " (replaced the earlier entry)" if replaced else ""
    return f"recorded {name}: {rating_list} {period} {rating}{note}"


def entry_removed_text(name: str, rating_list: object, period: object) -> str:
    """What `official remove` took out."""
    return f"removed {name}: {rating_list} {period}"


def entries_title(name: str, fide_id: int | None) -> str:
    """The title of `official list`'s table: the player, with the FIDE ID ("-": none)."""
    return f"{name} (FIDE ID {fide_id or '-'})"
