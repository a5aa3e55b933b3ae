"""A club's list (`tracker club`): many players at once, each replayed on one list as
`tracker next` replays that player, for the last official rating, the rating expected on
the next list and the games since.

No second engine: each player's facts go through the replay of `tracker next`
(tracker.app.histories.list_inputs, tracker.periods.replay), read a few hundred players
at a time (tracker.store.reading.facts_of_players, one lookup of the opponents on the
imported lists per batch); tracker.reports.club reads each replay with `next_report`, as
`tracker next` does. Who is chosen: every player the database tracks
(tracker.store.club), those of one federation, or the FIDE IDs of a file (`read_ids`).
What is left out, and why, travels as `LeftOut` values.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import BinaryIO

from tracker.app.histories import list_inputs, opponent_lists
from tracker.errors import BadInput, NotFound, Unavailable
from tracker.model import OfficialEntry, PlayerRef, RatingList
from tracker.periods import Replay, replay
from tracker.store import Store
from tracker.store.club import Candidate, players_of_fide_ids, tracked_players
from tracker.store.players import MAX_FIDE_ID_DIGITS
from tracker.store.reading import facts_of_players, official_of_players

__all__ = [
    "BATCH",
    "Chosen",
    "ClubList",
    "ClubPlayer",
    "LeftOut",
    "LeftOutWhy",
    "club_list",
    "federation_code",
    "parse_ids",
    "read_ids",
]

BATCH = 250
"""Players whose facts are read and replayed at a time (the ids go into IN lists; progress
is reported after each batch)."""

MAX_LINE = 200
"""The longest line of a file of FIDE IDs read whole: a longer one is no FIDE ID (the file
is another kind, and it is not read on)."""


class Chosen(StrEnum):
    """Who the list is of."""

    TRACKED = "tracked"  # every player the database tracks (tracker.store.club)
    FEDERATION = "federation"  # the tracked players of one federation
    IDS = "ids"  # the players of the FIDE IDs of a file

    def __str__(self) -> str:
        return self.value


class LeftOutWhy(StrEnum):
    """Why players were not on the list."""

    UNTRACKED = "untracked"  # games, but no FIDE ID, official entry or recorded fact
    NOTHING_ON_LIST = "nothing-on-list"  # tracked: no game and no official rating on the list
    NO_FEDERATION = "no-federation"  # --fed: the database has no federation for them
    NOT_IN_DATABASE = "not-in-database"  # --ids: no player has the FIDE ID

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class LeftOut:
    """Players (their names; FIDE IDs for those not in the database) left out, and why."""

    why: LeftOutWhy
    who: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.who)


@dataclass(frozen=True)
class ClubPlayer:
    """One player of the list: who, their federation (None: unknown), and their replay of
    the list (tracker.reports.club reads it as `tracker next` does)."""

    player: PlayerRef
    federation: str | None
    replay: Replay

    @property
    def on_list(self) -> bool:
        """Whether the player has anything on the list: a game or an official rating."""
        rp = self.replay
        return bool(rp.rows or rp.units or rp.unplaced)


@dataclass(frozen=True)
class ClubList:
    """The players chosen, each replayed on `rating_list`, by name; and who was left out."""

    rating_list: RatingList
    chosen: Chosen
    players: tuple[ClubPlayer, ...]
    left_out: tuple[LeftOut, ...]
    federation: str | None = None  # Chosen.FEDERATION: its code
    source: str | None = None  # Chosen.IDS: the file, as the user named it


# --- who ---------------------------------------------------------------------------------

_FEDERATION = re.compile(r"[A-Za-z]{3}")


def federation_code(text: str) -> str:
    """A federation as FIDE's lists write it: three letters, upper case ("cze" -> "CZE")."""
    code = text.strip()
    if not _FEDERATION.fullmatch(code):
        raise BadInput(
            f"--fed {text!r}: give a federation's three-letter code as FIDE's lists have it, "
            "like CZE or GER"
        )
    return code.upper()


def _id_of(raw: bytes, source: str, n: int) -> int | None:
    """The FIDE ID of line `n` (None: blank, or a comment alone)."""
    text = raw.decode("utf-8", errors="replace").lstrip("\ufeff")
    value = text.split("#", 1)[0].strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > MAX_FIDE_ID_DIGITS:
        shown = value if len(value) <= 40 else value[:40] + "..."
        raise BadInput(
            f"{source}:{n}: {shown!r} is not a FIDE ID: give one FIDE ID a line (its digits, "
            "like 1503014); # starts a comment"
        )
    if int(value) == 0:
        raise BadInput(f"{source}:{n}: 0 is not a FIDE ID: FIDE IDs start at 1")
    return int(value)


def parse_ids(lines: Iterable[bytes], source: str) -> list[int]:
    """The FIDE IDs of a file's lines, each once, in the file's order: one a line, `#`
    starts a comment, blank lines are skipped. Anything else is a BadInput naming `source`
    and the line; so is a line of more than MAX_LINE bytes."""
    found: dict[int, None] = {}
    for n, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE:
            raise BadInput(
                f"{source}:{n}: a line of more than {MAX_LINE} bytes is no FIDE ID: give one "
                "FIDE ID a line"
            )
        number = _id_of(raw, source, n)
        if number is not None:
            found[number] = None
    return list(found)


def _lines(f: BinaryIO) -> Iterator[bytes]:
    """The file's lines, none read past MAX_LINE + 1 bytes (a file of another kind, with no
    line end for megabytes, is refused at its first line, not read whole)."""
    while line := f.readline(MAX_LINE + 1):
        yield line.rstrip(b"\r\n") if line.endswith(b"\n") else line


def read_ids(path: Path, source: str | None = None) -> list[int]:
    """The FIDE IDs of the file `path` (`parse_ids`; `source`: its name in messages). A
    file that cannot be read, or holds no FIDE ID, is a BadInput naming it."""
    name = source or str(path)
    try:
        with path.open("rb") as f:
            ids = parse_ids(_lines(f), name)
    except FileNotFoundError:
        raise BadInput(f"--ids {name}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"--ids {name}: a folder, not a file of FIDE IDs") from None
    except OSError as exc:
        raise BadInput(f"--ids {name}: cannot be read ({exc.strerror or exc})") from None
    if not ids:
        raise BadInput(f"--ids {name}: no FIDE ID in it (one a line; # starts a comment)")
    return ids


def _replays(
    store: Store,
    chosen: Sequence[Candidate],
    rating_list: RatingList,
    progress: Callable[[int, int], None] | None,
) -> list[ClubPlayer]:
    """Each of `chosen` replayed on `rating_list` as `tracker next` replays them, BATCH
    players at a time; `progress(done, total)` after each batch."""
    out: list[ClubPlayer] = []
    total = len(chosen)
    for start in range(0, total, BATCH):
        batch = chosen[start : start + BATCH]
        ids = [c.id for c in batch]
        official: dict[int, list[OfficialEntry]] = {pid: [] for pid in ids}
        official.update(official_of_players(store, ids))
        facts = facts_of_players(store, official)
        games = (g for f in facts.values() for g in f.games)
        lists = opponent_lists(store, games, (rating_list,))
        for c in batch:
            f = facts[c.id]
            inputs, std = list_inputs(
                f.player, f.games, f.tournaments, f.official, (rating_list,), lists
            )
            if rating_list == RatingList.STANDARD and std is not None:
                rp = std
            else:
                rp = replay(inputs[rating_list])
            out.append(ClubPlayer(f.player, c.federation, rp))
        if progress is not None:
            progress(min(start + BATCH, total), total)
    return out


def _known_federations(candidates: Sequence[Candidate]) -> str:
    counts: dict[str, int] = {}
    for c in candidates:
        if c.federation:
            counts[c.federation] = counts.get(c.federation, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{code} {n:,}" for code, n in top[:8])
    return shown + (f" and {len(top) - 8:,} more" if len(top) > 8 else "")


NO_FEDERATION_HOW = (
    "the database records a player's federation from a FIDE list that lists them "
    "(`tracker official import FILE`)"
)
"""Where a federation comes from (the error of an empty --fed selection says it)."""


def club_list(
    store: Store,
    rating_list: RatingList,
    *,
    federation: str | None = None,
    ids: Sequence[int] | None = None,
    source: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ClubList:
    """The players chosen (every tracked player; with `federation`, those of it; with `ids`,
    the players of these FIDE IDs, `source` the file they came from), each replayed on
    `rating_list`, by name. NotFound when nobody is left to show, saying why."""
    if federation is not None and ids is not None:
        raise BadInput("give --fed or --ids, not both")
    if federation is not None:
        federation = federation_code(federation)
    left: list[LeftOut] = []
    if ids is not None:
        candidates = players_of_fide_ids(store, ids)
        have = {c.fide_id for c in candidates}
        missing = tuple(str(i) for i in ids if i not in have)
        if not candidates:
            raise NotFound(
                f"none of the {len(ids):,} FIDE IDs of {source or 'the file'} is a player of "
                f"the database (first: {', '.join(missing[:5])}): import their games first "
                "(`tracker import`), or their list entries (`tracker official import FILE "
                "--all`)"
            )
        if missing:
            left.append(LeftOut(LeftOutWhy.NOT_IN_DATABASE, missing))
        players = _replays(store, candidates, rating_list, progress)
        return ClubList(rating_list, Chosen.IDS, tuple(players), tuple(left), source=source or None)
    candidates, untracked = tracked_players(store)
    if not candidates:
        raise Unavailable(
            "no player is tracked yet: the list shows the players with games and a FIDE ID, "
            "an official rating or a recorded fact, and yours (`tracker player set NAME "
            "--me`)"
            + (
                f"; {len(untracked):,} player{' has' if len(untracked) == 1 else 's have'} "
                "games but none of these"
                if untracked
                else ": import games first (`tracker import FOLDER`)"
            )
        )
    chosen = Chosen.TRACKED
    if untracked:
        left.append(LeftOut(LeftOutWhy.UNTRACKED, tuple(untracked)))
    if federation is not None:
        chosen = Chosen.FEDERATION
        mine = [c for c in candidates if c.federation == federation]
        unknown = tuple(c.name for c in candidates if not c.federation)
        if not mine:
            known = _known_federations(candidates)
            said = (
                f"their federations: {known}"
                if known
                else f"none with a federation recorded: {NO_FEDERATION_HOW}"
            )
            raise NotFound(
                f"no tracked player of federation {federation} ({len(candidates):,} tracked, "
                f"{said})"
            )
        left = [LeftOut(LeftOutWhy.NO_FEDERATION, unknown)] if unknown else []
        candidates = mine
    replayed = _replays(store, candidates, rating_list, progress)
    players = [p for p in replayed if p.on_list]
    nothing = tuple(p.player.name for p in replayed if not p.on_list)
    if not players:
        raise Unavailable(
            f"none of the {len(replayed):,} players chosen has a game or an official rating "
            f"on the {rating_list} list (--list gives another)"
        )
    if nothing:
        left.append(LeftOut(LeftOutWhy.NOTHING_ON_LIST, nothing))
    return ClubList(rating_list, chosen, tuple(players), tuple(left), federation=federation)
