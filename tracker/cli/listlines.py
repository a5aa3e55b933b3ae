"""The lines said of a FIDE list imported (`tracker official import` and `fetch`): its
warnings on stderr (tracker.reports.listfile words them and the file's line)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.cli.output import err

if TYPE_CHECKING:
    from tracker.model import ImportSummary


def warn_summary(s: ImportSummary, shown_problems: list[str]) -> None:
    """A file's malformed rows on stderr: the first ones, then how many in all; and each
    FIDE ID a name matched that another player holds who is not that person."""
    from tracker.cli.output import shown
    from tracker.reports.listfile import malformed_text, not_merged_text

    for warning in s.warnings:  # names from files: a newline in one cannot forge a line
        err.print(f"warning: {shown(warning)}", markup=False, soft_wrap=True)
    for n in s.not_merged:
        said = not_merged_text(s.source, n)
        err.print(f"warning: {shown(said)}", markup=False, soft_wrap=True)
    for problem in shown_problems:
        err.print(f"warning: {problem}", markup=False, soft_wrap=True)
    malformed = malformed_text(s, len(shown_problems))
    if malformed is not None:
        err.print(f"warning: {malformed}", markup=False, soft_wrap=True)
