"""What `tracker players` and `tracker player merge|unmerge|set` say: who was merged into
whom (the merge's number and the command that undoes it), what an unmerge put back, the facts
`player set` recorded, and the warning for a tracked player beside a spelling with more games."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from tracker.model import MergeDone, PlayerRef
from tracker.reports.listfile import undo_said
from tracker.reports.said import command_line

if TYPE_CHECKING:
    from tracker.app.players import Beside
    from tracker.model import PlayerSummary

__all__ = [
    "Unmerge",
    "BIGGER_SHOWN",
    "bigger_spellings",
    "fact_text",
    "marked_lead",
    "merged_text",
    "no_players_text",
    "set_lead",
    "set_text",
    "tracked_text",
    "unmerged_text",
    "who",
]

BIGGER_SHOWN = 3
"""The bigger spellings beside a marked player that `bigger_spellings` names."""


def who(ref: PlayerRef) -> str:
    """A player as the commands name them: the name, with the FIDE ID when known."""
    return f"{ref.name} (FIDE ID {ref.fide_id})" if ref.fide_id else ref.name


def merged_text(done: MergeDone) -> str:
    """ "merged Novak,J into Novak, Jan (FIDE ID 99012345) as merge 3; `tracker player unmerge
    --merge 3` undoes it"."""
    return f"merged {who(done.gone)} into {who(done.player)}{undo_said(done.number)}"


class Unmerge(Protocol):
    """A merge undone as the app tells it (tracker.app.players.unmerge_players): its number,
    the player it had kept and the one back, and what went back to that one."""

    @property
    def number(self) -> int: ...
    @property
    def kept(self) -> PlayerRef: ...
    @property
    def restored(self) -> PlayerRef: ...
    @property
    def games(self) -> int: ...
    @property
    def spellings(self) -> int: ...
    @property
    def entries(self) -> int: ...
    @property
    def overrides(self) -> int: ...


def unmerged_text(done: Unmerge) -> str:
    """ "unmerged Carlsen,M from Carlsen, Magnus (FIDE ID 1503014), undoing merge 3: 12 games,
    1 spelling and 1 official entry back to Carlsen,M"."""
    parts = [
        f"{done.games:,} {'game' if done.games == 1 else 'games'}",
        f"{done.spellings:,} {'spelling' if done.spellings == 1 else 'spellings'}",
    ]
    if done.entries:
        parts.append(f"{done.entries:,} official {'entry' if done.entries == 1 else 'entries'}")
    if done.overrides:
        parts.append(f"{done.overrides:,} {'override' if done.overrides == 1 else 'overrides'}")
    listed = ", ".join(parts[:-1]) + " and " + parts[-1]
    return (
        f"unmerged {who(done.restored)} from {who(done.kept)}, undoing merge {done.number}: "
        f"{listed} back to {done.restored.name}"
    )


def fact_text(fact: str, value: object) -> str:
    """A fact just recorded, in words: "born 2009", "45 rated games completed", "has been
    rated 2400 or more" (never a Python value: "ever 2400 True")."""
    if fact == "birth_year":
        return f"born {value}"
    if fact == "rated_games" and isinstance(value, int):
        return f"{value:,} rated game{'s' if value != 1 else ''} completed"
    if fact == "ever_2400":
        return "has been rated 2400 or more" if value else "never rated 2400 or more"
    return f"FIDE ID {value}" if fact == "fide_id" else f"{fact.replace('_', ' ')} {value}"


def set_text(ref: PlayerRef, facts: Mapping[str, object], *, me: bool) -> str:
    """ "Novak, Jan (FIDE ID 99012345): tracked player, born 2009": what `player set`
    recorded of the player."""
    said = [fact_text(k, v) for k, v in facts.items()]
    if me:
        said.insert(0, "tracked player")
    return f"{who(ref)}: {', '.join(said)}"


def no_players_text(search: str | None) -> str:
    """What `tracker players` says when it lists no one."""
    hint = (
        f" matches {search!r}"
        if search
        else f" yet: run {command_line('import', 'FOLDER').quoted()}"
    )
    return f"no player{hint}"


def _games(p: PlayerSummary) -> str:
    total = sum(p.games.values())
    dates = (
        f" ({p.first.isoformat()} to {p.last.isoformat()})"
        if p.first and p.last and p.first != p.last
        else f" ({p.first.isoformat()})"
        if p.first
        else ""
    )
    return f"{total:,} {'game' if total == 1 else 'games'}{dates}"


def bigger_spellings(beside: Beside, ref: PlayerRef, lead: str) -> str | None:
    """The warning for a tracked player beside whom another spelling that may be theirs has
    more games ("Carlsen, Magnus", 9 games of 2001, beside "Carlsen,M", 3,421): both named,
    with the commands that make them one or mark the other. `lead` names the tracked player
    as the command marked them ("--player 'Carlsen, Magnus' marked Carlsen,Magnus"). None
    when no such spelling has more games."""
    me, bigger = beside.player, beside.bigger
    if not bigger:
        return None
    shown = [f"{p.name} has {_games(p)}" for p in bigger[:BIGGER_SHOWN]]
    if len(bigger) > BIGGER_SHOWN:
        search = command_line("players", "--search").quoted()
        shown.append(f"{len(bigger) - BIGGER_SHOWN:,} more ({search} lists them)")
    top = bigger[0]

    def arg(fide_id: int | None, name: str) -> str:
        return str(fide_id) if fide_id else shlex.quote(name)

    that = "a spelling" if len(bigger) == 1 else "spellings"
    merge = command_line("player", "merge", arg(ref.fide_id, ref.name), arg(top.fide_id, top.name))
    mark = command_line("player", "set", arg(top.fide_id, top.name), "--me")
    return (
        f"warning: {lead}: {_games(me)}; {', '.join(shown)}, {that} that may be the same "
        f"person: if {top.name} is, {merge.quoted()} makes them one, tracked; if it is yours "
        f"instead, {mark.quoted()} tracks it"
    )


def marked_lead(player: str, ref: PlayerRef) -> str:
    """How `import --player` names the player it marked, in the warning of a bigger spelling."""
    return f"--player {player!r} marked {ref.name}"


def tracked_text(ref: PlayerRef) -> str:
    """What `import --player` says of the player it marked."""
    return f"tracked player: {who(ref)}"


def set_lead(ref: PlayerRef) -> str:
    """How `player set --me` names the player it marked, in the warning of a bigger spelling."""
    return f"{ref.name}, now tracked"
