"""FIDE's downloadable rating lists of every era (TXT fixed width and XML, plain or zipped),
streamed.

Pure: standard library only. The layouts are those of `shared/spec/fide-list-formats.md` and
the older ones of FIDE's archive (`docs/lists.md` lists them all). `open_list(path)` returns a
`ListFile` that yields one `ListRow` per player, never holding the whole file in memory, and
keeps the malformed rows it skipped in `problems`. The modules, by job:

- `listfile`: `open_list` and `ListFile`, the reader callers use;
- `opened`: opening a list (plain or zipped), sniffing TXT or XML, settling list and month;
- `layout`: the TXT layouts read from a header, the month and list a file name names;
- `txtrows`: the rows of a TXT list, cut at their columns or their blanks;
- `xmlrows`: the rows of an XML list, through expat with every DTD and entity door shut;
- `fields`: each field's value read from its text (IDs, titles, flags, birth years).
"""

from __future__ import annotations

from tracker.lists.fields import MIN_AGE, birth_year_of
from tracker.lists.layout import (
    TxtLayout,
    list_from_name,
    period_from_header,
    period_from_name,
    read_header,
)
from tracker.lists.listfile import ListFile, open_list
from tracker.lists.txtrows import MAX_LINE
from tracker.lists.xmlrows import MAX_MARKUP, MAX_TEXT
from tracker.model import MAX_RATING, ListRating, ListRow  # defined in tracker.model

__all__ = [
    "MAX_LINE",
    "MAX_MARKUP",
    "MAX_RATING",
    "MAX_TEXT",
    "MIN_AGE",
    "ListFile",
    "ListRating",
    "ListRow",
    "TxtLayout",
    "birth_year_of",
    "list_from_name",
    "open_list",
    "period_from_header",
    "period_from_name",
    "read_header",
]
