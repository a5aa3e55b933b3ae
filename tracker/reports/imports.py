"""What `tracker import` says (moved from the command line, word for word): each source's
line and warnings as it is done, the summary of the run and what the names, the dates and
the lists imported left to do (`ImportOutcome`), and the lines of an import stopped by
Ctrl-C or by a closed standard output."""

from __future__ import annotations

import shlex
from typing import Protocol

from tracker.advice import SetTournamentList
from tracker.app.importing import ImportReport, Interrupted, SourceReport
from tracker.app.imports import AssumedKinds, StandardLooking, UndatedTournament, Unlisted
from tracker.errors import TrackerError
from tracker.identity.names import NamesApart
from tracker.model import EloTags, ImportRecord, RatingList
from tracker.periods.policies import STANDARD_TAG_WINDOW_MONTHS
from tracker.reports.said import command_line
from tracker.reports.words import (
    command,
    error_text,
    may_be_one_text,
    only_year,
    year_commands,
)
from tracker.unresolved import MayBeOne, PlayerUnclear

PROBLEMS_SHOWN = 20  # problems printed per run (all are counted)
UNDATED_SHOWN = 5  # undated tournaments named in the import summary (the rest are counted)


def _n(value: int, word: str) -> str:
    return f"{value:,} {word}" + ("" if value == 1 else "s")


def failed_files(failed: int, of: int) -> str:
    """ "the file could not be imported", "1 of 3 files could not be imported"."""
    if of == 1:
        return "the file could not be imported"
    return f"{failed:,} of {of:,} files could not be imported"


def names_apart_said(apart: NamesApart, other: str) -> str:
    """Why a FIDE ID's holder is not taken for a player of that name, as a clause on the
    holder: "whose surname is not X's", "whose given names are not X's"."""
    part = "surname is" if apart is NamesApart.SURNAME else "given names are"
    return f"whose {part} not {other}'s"


def source_line(s: SourceReport, *, strict: bool = False) -> str:
    """A source done: read, added, already imported, or why it was not imported."""
    if s.already is not None:
        when = s.already.started_at.strftime("%Y-%m-%d %H:%M")
        same = "" if s.already.source == s.name else f" as {s.already.source}"
        if s.checked:
            return (
                f"{s.name}: already imported on {when} UTC{same} with problems; checked "
                "again with --strict: no problem now, nothing added"
            )
        clean = " (imported then without a problem)" if strict else ""
        tags = "" if s.tags_were is None else f"; {tags_now(s.already.elo_tags)}"
        return f"{s.name}: already imported on {when} UTC{same}, nothing added{clean}{tags}"
    if s.error is not None:
        error = s.error.removeprefix(f"{s.name}: ")
        return f"{s.name}: not imported: {error}"
    parts = [f"{s.name}: {_n(s.games_read, 'game')} read", f"{s.added:,} added"]
    if s.duplicates:
        parts.append(f"{s.duplicates:,} already stored")
    if s.skipped:
        parts.append(f"{s.skipped:,} skipped")
    if s.problem_count:
        parts.append(_n(s.problem_count, "problem"))
    return ", ".join(parts)


TAGS_WORDS = {
    EloTags.STANDARD: "its rapid and blitz tags are now taken as the standard rating, none "
    "as a rating of its list",
    EloTags.OWN: "its rapid and blitz tags are now taken as each event's list's rating",
    EloTags.AUTO: "its rapid and blitz tags are now judged tag by tag (one that can be a "
    f"standard rating of the {STANDARD_TAG_WINDOW_MONTHS} months around is set aside)",
}


def player_not_marked_text(player: str, error: TrackerError) -> str:
    """Why `--player` marked nobody after the import (`error`), and how to mark them; the
    games are stored either way. Spellings that may be one person's are named with the
    command that makes them one, and the one that then marks them."""
    why = error.why if isinstance(error, PlayerUnclear) else None
    if isinstance(why, MayBeOne):
        name, fide_id, _ = why.players[0]
        first = str(fide_id) if fide_id else shlex.quote(name)
        return (
            f"--player {player!r} not marked: {may_be_one_text(why)}, then "
            f"{command_line('player', 'set', first, '--me').quoted()} marks them; if not, "
            f"{command_line('player', 'set', 'NAME', '--me').quoted()} marks the one you "
            "mean; the games are stored"
        )
    return (
        f"--player {player!r} not marked: {error_text(error)}; the games are stored: mark "
        f"your player with {command_line('player', 'set', 'PLAYER', '--me').quoted()}"
    )


def tags_now(elo_tags: EloTags) -> str:
    """What an imported file's rapid and blitz tags are taken as, after `--tags` said it
    for a file imported before."""
    return TAGS_WORDS[elo_tags]


def looks_standard_line(x: StandardLooking) -> str:
    """A file imported without --tags whose rapid and blitz events print the standard
    rating, with the command that says so for good."""
    return (
        f"{x.source}: its rapid and blitz events print the players' standard ratings "
        f"({x.tags.standard:,} of the {x.tags.compared:,} tags beside a standard one are "
        f"the same): such a tag is set aside where it repeats a standard rating of the "
        f"{STANDARD_TAG_WINDOW_MONTHS} months around; "
        f"{command_line('import', 'FILE', '--tags', 'standard').quoted()} with this file (or "
        "the archive it came from) sets all of them aside"
    )


def foreign_ids_said(s: SourceReport) -> list[str]:
    """Each name of the source given another player's FIDE ID (the game filed under the
    name, nothing merged), with the command that merges them if they are one (the command
    line shows each as a warning)."""
    said = []
    for f in s.foreign_ids:
        more = f.games - 1
        also = ""
        if more:
            games = f"{more:,} more {'game' if more == 1 else 'games'} of the file"
            also = f" (so {'is' if more == 1 else 'are'} {games})"
        said.append(
            f"{s.name}:{f.line}: {f.side} {f.name} has {f.side}FideId {f.fide_id}, the FIDE ID "
            f"of {f.holder}, {names_apart_said(f.apart, f.name)}: the game is filed under "
            f"{f.name}, without the FIDE ID{also}; if they are one person, "
            f"{command_line('player', 'merge', f.fide_id, shlex.quote(f.name)).quoted()} "
            "makes them one"
        )
    return said


def foreign_more_line(s: SourceReport) -> str | None:
    """The games of the source naming a player with another player's FIDE ID beyond the
    names `foreign_ids_said` gives, counted (None: none)."""
    if not s.foreign_more:
        return None
    return (
        f"warning: {s.name}: {s.foreign_more:,} more "
        f"{'game names' if s.foreign_more == 1 else 'games name'} a player with the FIDE "
        "ID of a player of another name (not shown): filed under the names"
    )


def closed_line(report: ImportReport, *, full: bool) -> str:
    """What an import whose standard output closed (`| head`) did all the same (`full`:
    it could not be written, a full disk)."""
    stored = sum(1 for s in report.sources if s.error is None)
    what = (
        "could not be written before the end (a full disk?)"
        if full
        else "was closed before the end (a `| head`?)"
    )
    return (
        f"note: standard output {what}; the import went "
        f"on: {_n(stored, 'file')} of {len(report.sources)} stored or already imported, "
        f"{_n(report.total('added'), 'game')} added ({command_line('imports').quoted()} "
        "lists them)"
    )


def interrupted_line(stop: Interrupted) -> str:
    """What Ctrl-C left: the source it stopped (rolled back) and the ones done before it."""
    done = [s for s in stop.report.sources if s.error is None]
    if stop.source is None:
        return (
            f"interrupted: {_n(len(done), 'file')} stored (or already imported); "
            "the rest was not imported"
        )
    before = (
        ""
        if not done
        else f"; {_n(len(done), 'file')} before it {'is' if len(done) == 1 else 'are'} stored"
    )
    return f"interrupted: {stop.source} was not imported (nothing of it stored){before}"


def hidden_problems_line(report: ImportReport, shown: int) -> str | None:
    """The problems of the run beyond the `shown` ones printed, counted (None: none)."""
    hidden = report.total("problem_count") - shown
    if hidden <= 0:
        return None
    return (
        f"warning: {hidden:,} more {'problem' if hidden == 1 else 'problems'} not "
        f"shown (only the first {PROBLEMS_SHOWN} of a run are printed)"
    )


def summary_lines(report: ImportReport, default_list: RatingList | None) -> list[str]:
    """The run in numbers, the games not counted for rating and the games put on a list by
    assumption (or by --list)."""
    files = len(report.sources)
    already = sum(1 for s in report.sources if s.already is not None)
    summary = [
        f"{_n(files, 'file')}",
        f"{_n(report.total('games_read'), 'game')} read",
        f"{report.total('added'):,} added",
        f"{report.total('duplicates'):,} duplicates skipped",
    ]
    if already:
        summary.append(f"{already:,} already imported")
    if report.total("skipped"):
        summary.append(f"{_n(report.total('skipped'), 'game')} not stored (problems)")
    summary.append(_n(report.total("problem_count"), "problem"))
    lines = [", ".join(summary)]
    not_rated = report.not_rated
    if not_rated:
        reasons = ", ".join(f"{reason} {n:,}" for reason, n in sorted(not_rated.items()))
        lines.append(f"not counted for rating: {reasons}")
    assumed = report.total("list_assumed")
    if assumed:
        if default_list is not None:
            lines.append(
                f"no time control: {_n(assumed, 'game')} put on the {default_list} list (--list)"
            )
        else:
            lines.append(
                f"no time control: {_n(assumed, 'game')} put on a list by assumption "
                "(standard, or blitz/rapid when the event name says so); --list "
                "states it"
            )
    return lines


def assumed_kinds_line(kinds: AssumedKinds, default_list: RatingList | None) -> str | None:
    """What the event and round names of the games added without a time control said: a
    list, or never rated and why. None when they said nothing (the line above says
    standard, or --list)."""
    by_list, never = kinds.by_list, kinds.never
    named = (
        {}
        if default_list is not None
        else {lst: n for lst, n in by_list.items() if lst != RatingList.STANDARD.value}
    )
    if not named and not never:
        return None
    parts = [", ".join(f"{lst} {n:,}" for lst, n in sorted(named.items()))] if named else []
    if never:
        parts.append("not rated: " + ", ".join(f"{r} {n:,}" for r, n in sorted(never.items())))
    rest = by_list.get(RatingList.STANDARD.value, 0) if default_list is None else 0
    if rest:
        parts.append(f"standard {rest:,} (the name says nothing)")
    return (
        f"by the event or round name, of the games added: {'; '.join(parts)} "
        f"({command(SetTournamentList()).quoted()} or `--exclude` corrects a tournament)"
    )


def undated_lines(undated: list[UndatedTournament]) -> list[str]:
    """The tournaments the games added left in no period (no usable date, no dated
    tournament of the same event and site to join): those dated only by a year a line a
    year, with the commands that settle them together; the others each with the command
    that dates it."""
    by_year: dict[int, list[UndatedTournament]] = {}
    for u in undated:
        if u.year is not None:
            by_year.setdefault(u.year, []).append(u)
    lines = [
        f"{only_year(year)}: {_n(sum(u.games for u in ts), 'game')} in "
        f"{_n(len(ts), 'tournament')} in no period: {year_commands(year)}"
        for year, ts in sorted(by_year.items())
    ]
    undated = [u for u in undated if u.year is None]
    if not undated:
        return lines
    games = sum(u.games for u in undated)
    lines.append(
        f"no date: {_n(games, 'game')} in {_n(len(undated), 'tournament')} in no "
        "period (no dated tournament of the same event and site); say which list "
        "rated each:"
    )
    lines += [
        f"  {command(u.advice)}  ({u.event}, {u.site}: {_n(u.games, 'game')})"
        for u in undated[:UNDATED_SHOWN]
    ]
    if len(undated) > UNDATED_SHOWN:
        more = len(undated) - UNDATED_SHOWN
        lines.append(f"  and {more:,} more ({command_line('event', 'list').quoted()})")
    return lines


def unlisted_line(u: Unlisted) -> str:
    """The players of the games added that no list imported so far looked up (they came
    after the lists): their games keep the Elo tags until the lists are imported again."""
    files = u.files
    shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
    return (
        f"{u.rating_list} lists: {_n(u.players, 'player')} of these games came after the "
        f"lists imported ({shown}): their opponents' ratings are the Elo tags until "
        f"{command_line('official', 'import').quoted()} reads those lists again"
    )


NO_IMPORTS = f"no imports yet: run {command_line('import', 'FOLDER').quoted()}"
"""What `imports` says when nothing was imported."""


def import_again_text(source: str) -> str:
    """The last line of `imports remove`: how to bring the corrected file back."""
    return f"import the corrected file again with {command_line('import', source).quoted()}"


class Removal(Protocol):
    """An import taken back out as the app tells it (tracker.app.imports.remove_import):
    the import, the games, tournaments and players that went with it, what was kept, and
    the later imports whose skipped duplicates are forgotten."""

    @property
    def record(self) -> ImportRecord: ...
    @property
    def games(self) -> int: ...
    @property
    def tournaments(self) -> tuple[str, ...]: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def kept_tournaments(self) -> int: ...
    @property
    def kept_players(self) -> int: ...
    @property
    def forgotten(self) -> tuple[str, ...]: ...


def _some(names: tuple[str, ...], sep: str, shown: int = 5) -> str:
    """': a, b, c and 4 more' (nothing for none)."""
    if not names:
        return ""
    more = f" and {len(names) - shown:,} more" if len(names) > shown else ""
    return ": " + sep.join(names[:shown]) + more


def removed_lines(gone: Removal, *, dry_run: bool) -> list[str]:
    """What `imports remove` took out (or, with --dry-run, would take out), what it kept,
    and how to bring the corrected file back."""
    r = gone.record
    when = r.started_at.strftime("%Y-%m-%d %H:%M")
    verb = "would remove" if dry_run else "removed"
    lines = [
        f"{verb} import {r.id}: {r.source} (imported {when} UTC)",
        f"  {_n(gone.games, 'game')}",
        f"  {_n(len(gone.tournaments), 'tournament')}{_some(gone.tournaments, ', ')}",
        f"  {_n(len(gone.players), 'player')}{_some(gone.players, '; ')}",
    ]
    kept = []
    if gone.kept_tournaments:
        kept.append(
            f"{_n(gone.kept_tournaments, 'tournament')} with games of other imports "
            "or your overrides"
        )
    if gone.kept_players:
        kept.append(
            f"{_n(gone.kept_players, 'player')} with other games, official entries or facts"
        )
    if kept:
        lines.append(f"  kept: {'; '.join(kept)}")
    if gone.forgotten:
        lines.append(
            f"  {_n(len(gone.forgotten), 'later import')} skipped duplicates, perhaps "
            f"of these games{_some(gone.forgotten, ', ')}: importing "
            f"{'it' if len(gone.forgotten) == 1 else 'one'} again stores them"
        )
    lines.append("--dry-run: nothing was changed" if dry_run else import_again_text(r.source))
    return lines
