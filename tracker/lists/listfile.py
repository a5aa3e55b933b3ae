"""The list file as callers use it: `open_list` and the `ListFile` it returns, a TXT or XML
reader by what the file holds.

    with open_list("standard_nov25frl.zip") as lst:
        for row in lst:          # ListRow, one per player, never the whole file in memory
            ...
        lst.problems             # malformed lines/elements skipped, with their position

Single or combined is told by the TXT header (`SRtng` column) or the XML elements
(`rapid_rating`). A structural fault (damaged zip, broken XML, a header of no FIDE layout)
raises BadInput with the file and position; a malformed line or element is skipped and
recorded in `problems` (too many of them and the file is refused).
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Container, Iterator
from pathlib import Path
from types import TracebackType

from tracker.lists.sieve import NameSieve
from tracker.lists.txtrows import TxtRows
from tracker.lists.xmlrows import XmlRows
from tracker.model import ListRow, Period, RatingList


class ListFile(TxtRows, XmlRows):
    """One list file (plain or zipped, TXT or XML), iterated as ListRow values.

    Open with `open_list` (a context manager). Before iterating, `format` ('txt'/'xml'),
    `size` (bytes to read, for a progress bar) and `name` are known; `combined`, `lists`,
    `period` (and `layout` for TXT) are known once the first row is read. During and after
    iteration, `position` is the number of bytes read, `lines` the TXT lines read,
    `problem_count` the number of malformed rows skipped and `problems` the first
    PROBLEMS_KEPT of them ("file:line: ...").

    `only`: when given, rows whose FIDE ID is not in it are skipped before they are parsed
    (counted in `filtered`; they are not checked beyond their ID): importing a 1.8-million
    player list for the few players of a database costs little more than reading it.
    `names` (with `only`): the rows whose name it may fit (tracker.lists.sieve) are kept too.
    `on_read`, when set, is called after every block read (a progress bar reads `position`).
    `label` names the file in messages instead of its path (a folder import's relative name).
    """

    def __iter__(self) -> Iterator[ListRow]:
        try:
            if self.format == "xml":
                yield from self._xml_rows()
            else:
                yield from self._txt_rows()
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            raise self.damaged(exc) from None

    def __enter__(self) -> ListFile:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def open_list(
    path: str | Path,
    *,
    period: Period | None = None,
    rating_list: RatingList | None = None,
    only: Container[int] | None = None,
    names: NameSieve | None = None,
    label: str | None = None,
) -> ListFile:
    """Open a FIDE list file for streaming (see the module docstring)."""
    return ListFile(
        path, period=period, rating_list=rating_list, only=only, names=names, label=label
    )
