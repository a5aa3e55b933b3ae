"""What `tracker player merge` and `player set --merge` say of a merge made: who was merged
into whom, the merge's number and the command that undoes it."""

from __future__ import annotations

from tracker.model import MergeDone, PlayerRef
from tracker.reports.listfile import undo_said

__all__ = ["merged_text", "who"]


def who(ref: PlayerRef) -> str:
    """A player as the commands name them: the name, with the FIDE ID when known."""
    return f"{ref.name} (FIDE ID {ref.fide_id})" if ref.fide_id else ref.name


def merged_text(done: MergeDone) -> str:
    """ "merged Novak,J into Novak, Jan (FIDE ID 99012345) as merge 3; `tracker player unmerge
    --merge 3` undoes it"."""
    return f"merged {who(done.gone)} into {who(done.player)}{undo_said(done.number)}"
