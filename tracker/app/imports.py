"""The import commands' verbs: `import_files` (`tracker import`: the sources imported, the
`--player` policy, and what the summary reports after it, as an `ImportOutcome`),
`list_imports` (`tracker imports`) and `remove_import` (`tracker imports remove`). The
import of the sources itself is tracker.app.importing's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tracker.advice import PinPeriod
from tracker.app.importing import (
    ImportOptions,
    ImportReport,
    Limits,
    Progress,
    SourceReport,
    import_paths,
)
from tracker.app.players import Beside, resolve_player, track
from tracker.errors import BadInput, NotFound, TrackerError
from tracker.fide.editions import FIRST_DATE
from tracker.fide.eventnames import NAME_REASONS
from tracker.identity.tournaments import TAG_YEAR_MONTH
from tracker.model import ImportRecord, PlayerRef, RatingList
from tracker.periods.tags import FileTags, file_tags
from tracker.store import Store
from tracker.store import imports as stored
from tracker.store.imports import RemovedImport
from tracker.store.lists import lists_imported, unchecked

__all__ = [
    "AssumedKinds",
    "ImportOutcome",
    "PlayerMarked",
    "PlayerNotMarked",
    "StandardLooking",
    "UndatedTournament",
    "Unlisted",
    "import_files",
    "list_imports",
    "remove_import",
]


@dataclass(frozen=True)
class AssumedKinds:
    """What the event and round names of the games added without a time control said
    (tracker.fide.eventnames): games a list, and games never rated a reason (a name
    reason: tie-break, simul...)."""

    by_list: dict[str, int]
    never: dict[str, int]


@dataclass(frozen=True)
class UndatedTournament:
    """A tournament in no rating period: no game of it has a usable date, and no period is
    pinned (`tracker event set ID --period YYYY-MM` gives it one)."""

    id: int
    event: str
    site: str
    date_tag: str  # the date tag its games share ("?" for none; `2024.??.??`)
    games: int  # its games (of the player, or added after the game id, when asked)
    rated: int  # of which count for rating

    @property
    def advice(self) -> PinPeriod:
        """What puts it in a period: a pin (tracker.reports.words says the command)."""
        return PinPeriod(self.id)

    @property
    def year(self) -> int | None:
        """The year its date tag gives (`2024.??.??`), None when it gives none."""
        m = TAG_YEAR_MONTH.match(self.date_tag)
        return None if m is None else int(m.group(1))

    @property
    def month(self) -> int | None:
        """The month its date tag gives (`2024.03.??`), None when it gives none."""
        m = TAG_YEAR_MONTH.match(self.date_tag)
        month = None if m is None else m.group(2)
        return int(month) if month and "01" <= month <= "12" else None


@dataclass(frozen=True)
class Unlisted:
    """Players of the games added that no list of `rating_list` imported so far looked up
    (they came after the lists: their opponents' ratings are the Elo tags until the lists
    are read again), and the names of those list files."""

    rating_list: RatingList
    players: int
    files: list[str]


@dataclass(frozen=True)
class PlayerMarked:
    """`--player` marked this player as tracked; the spellings beside them."""

    player: PlayerRef
    beside: Beside


@dataclass(frozen=True)
class PlayerNotMarked:
    """`--player` marked nobody after the import (the games stay stored): `error` says why;
    `several` when several players of the database now match (a usage error, exit 2),
    else nobody does (a warning)."""

    error: TrackerError

    @property
    def several(self) -> bool:
        return isinstance(self.error, BadInput)


@dataclass(frozen=True)
class StandardLooking:
    """A file imported without `--tags` whose rapid and blitz events print the players'
    standard ratings, by its tags (tracker.periods.tags.file_tags): `tracker import FILE
    --tags standard` says so for good."""

    source: str
    tags: FileTags


@dataclass(frozen=True)
class ImportOutcome:
    """What `tracker import` did: each source's report, what the names said of the games
    added without a time control, the tournaments they left in no period (from 2008 on:
    the era before is not replayed), the players no list imported so far looked up, and
    what became of `--player` (None: not given); the files whose rapid and blitz tags look
    like standard ratings (`looks_standard`)."""

    report: ImportReport
    assumed: AssumedKinds
    undated: list[UndatedTournament]
    unlisted: list[Unlisted]
    player: PlayerMarked | PlayerNotMarked | None
    looks_standard: list[StandardLooking] = field(default_factory=list)


def import_files(
    store: Store,
    paths: Sequence[str],
    options: ImportOptions,
    *,
    limits: Limits | None = None,
    player: str | None = None,
    progress: Progress | None = None,
    on_source: Callable[[SourceReport], None] | None = None,
) -> ImportOutcome:
    """`tracker import`: the files imported (tracker.app.importing.import_paths; Ctrl-C
    raises its `Interrupted`), then what the summary says of the games added, then
    `player` marked as tracked.

    `player` is checked before anything is stored: a bad value, or several players of the
    database matching it, is raised then; a name nobody has yet may come with these files,
    so it is looked for again after the import (`ImportOutcome.player`)."""
    known = None if player is None else _known_player(store, player)
    before = stored.last_game_id(store)  # the games this run adds have higher ids
    report = import_paths(store, paths, options, progress, on_source, limits)
    added = bool(report.total("added"))
    return ImportOutcome(
        report,
        _assumed_kinds(store, before) if added else AssumedKinds({}, {}),
        _undated(store, before) if added else [],
        _unlisted(store, before) if added else [],
        None if player is None else _mark(store, player, known),
        _looks_standard(store, report) if added and options.elo_tags is None else [],
    )


def _looks_standard(store: Store, report: ImportReport) -> list[StandardLooking]:
    """The sources added whose rapid and blitz tags look like the standard rating."""
    found: list[StandardLooking] = []
    for s in report.sources:
        if s.import_id is None or not s.added or s.error is not None:
            continue
        tags = file_tags(stored.players_tags(store, s.import_id))
        if tags.look_standard:
            found.append(StandardLooking(s.name, tags))
    return found


def _known_player(store: Store, player: str) -> PlayerRef | None:
    """The player --player names, if the database has them already (None: not yet, perhaps
    in the files being imported). A bad value, or several players matching, is an error
    before anything is stored (said with the command that merges them when their names
    may be one person's: tracker.app.players.find_player)."""
    try:
        return resolve_player(store, player)
    except NotFound:
        return None


def _mark(store: Store, player: str, known: PlayerRef | None) -> PlayerMarked | PlayerNotMarked:
    """--player after the import: the player marked, or why not. Several players matching
    is never settled here, not even spellings that may be one person's ("Ivanchuk,V" and
    "Ivanchuk, Vassily" for `Ivanchuk`): marking one of them would guess who the user is,
    and merging them would take two players for one on their names alone."""
    try:
        ref = known or resolve_player(store, player)
    except TrackerError as exc:  # several now (may they be one person or not), or nobody
        return PlayerNotMarked(exc)
    return PlayerMarked(ref, track(store, ref))


def _assumed_kinds(store: Store, before: int) -> AssumedKinds:
    by_list: dict[str, int] = {}
    never: dict[str, int] = {}
    for a in stored.assumed_since(store, before):
        if a.reason is None:
            by_list[a.rating_list] = by_list.get(a.rating_list, 0) + a.games
        elif a.reason in NAME_REASONS:
            never[a.reason] = never.get(a.reason, 0) + a.games
    return AssumedKinds(by_list, never)


def _undated(store: Store, before: int) -> list[UndatedTournament]:
    # (a date tag of a year before 2008 needs no period: that era is not replayed; one
    # that gives a month, `2024.03.??`, has the period of its month)
    found = [UndatedTournament(*u) for u in stored.undated_tournaments(store, after_game_id=before)]
    return [u for u in found if u.year is None or (u.year >= FIRST_DATE.year and u.month is None)]


def _unlisted(store: Store, before: int) -> list[Unlisted]:
    found: list[Unlisted] = []
    ids: set[int] | None = None
    for rl in RatingList:
        imported = lists_imported(store, rl)
        if not imported:
            continue
        if ids is None:
            ids = stored.players_after(store, before)
        missing = unchecked(store, ids, rl)
        if missing:
            files = sorted({Path(path).name for _, path in imported})
            found.append(Unlisted(rl, len(missing), files))
    return found


def list_imports(store: Store) -> list[ImportRecord]:
    """Every finished import, oldest first (`tracker imports`)."""
    return stored.list_imports(store)


def remove_import(store: Store, import_id: int, *, dry_run: bool = False) -> RemovedImport:
    """Take the import `import_id` back out, with what only its games needed (`tracker
    imports remove`; a dry run says the same and changes nothing)."""
    return stored.remove_import(store, import_id, dry_run=dry_run)
