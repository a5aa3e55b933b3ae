"""The rows of a TXT list: its lines read in blocks, its header found and read, and each
line cut into a row at its columns (or at its blanks, for the older lists). A line longer
than `MAX_LINE` bytes refuses the file, after reading at most a block beyond the cap; a
block of blank lines only is passed over whole. With `only`, a block whose IDs are all plain
numbers is filtered in one set intersection before any line of it is cut, and the rows a
name may fit (`names`, tracker.lists.sieve) are found in the same block.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator

from tracker.errors import BadInput
from tracker.lists.fields import (
    TITLE_CODES,
    TITLE_OF,
    Labels,
    RowError,
    birth_year_of,
    list_labels,
    read_federation,
    read_fide_id,
    read_figures,
    read_flag,
    read_name,
    read_title,
)
from tracker.lists.layout import (
    COMBINED_FIGURES,
    EXPECTED,
    SINGLE_FIGURES,
    TOKEN,
    TxtLayout,
    period_from_header,
    read_header,
)
from tracker.lists.opened import BLOCK, OpenedList
from tracker.lists.sieve import FOLD, NAME_BYTES, NO, PREFIX, YES, heads, indexes
from tracker.model import ListRow, Period

MAX_LINE = 1_024
"""Bytes a TXT line may hold (FIDE's longest, the combined list's, has 160): longer refuses
the file."""
MAX_BLANK_LINES = 100  # blank lines allowed before a TXT header


class TxtRows(OpenedList):
    """The TXT reading of a `ListFile`."""

    def _too_long(self, line: int) -> BadInput:
        return BadInput(
            f"{self.where}:{line}: a line longer than {MAX_LINE:,} bytes (a FIDE "
            "list's lines have under 200): not a FIDE rating list, refused"
        )

    def _no_header(self, line: int) -> BadInput:
        return BadInput(
            f"{self.where}:{line}: more than {MAX_BLANK_LINES} blank lines and no header: "
            "is this a FIDE rating list?"
        )

    def _txt_lines(self) -> Iterator[tuple[int, list[bytes], bytes | None]]:
        """(number of the first line, the whole lines of a block, the same bytes joined),
        each line at most MAX_LINE bytes: a longer line refuses the file before more of it
        is read. A block of blank lines only comes unsplit: no lines, and its bytes (it
        holds their count plus one line ends)."""
        pending = b""
        number = 1
        read = self._stream.read
        while True:
            block = read(BLOCK)
            if not block:
                break
            data = pending + block if pending else block
            cut = data.rfind(b"\n")
            if cut < 0:
                pending = data
            else:
                whole, pending = data[:cut], data[cut + 1 :]
                if not whole.isspace():
                    lines = whole.split(b"\n")
                    yield number, lines, whole
                    number += len(lines)
                else:
                    yield number, [], whole
                    number += whole.count(b"\n") + 1
            if len(pending) > MAX_LINE:
                raise self._too_long(number)
        if pending:
            yield number, [pending], None

    def _txt_rows(self) -> Iterator[ListRow]:
        blocks = self._txt_lines()
        layout: TxtLayout | None = None
        rest: list[bytes] = []
        number = 0
        blank = 0
        for first, lines, whole in blocks:
            if not lines and whole is not None:  # blank lines only
                count = whole.count(b"\n") + 1
                if blank + count > MAX_BLANK_LINES:
                    raise self._no_header(first + MAX_BLANK_LINES - blank)
                blank += count
                continue
            for i, raw in enumerate(lines):
                if len(raw) > MAX_LINE:
                    raise self._too_long(first + i)
                if not raw.strip():
                    blank += 1
                    if blank > MAX_BLANK_LINES:
                        raise self._no_header(first + i)
                    continue
                layout = self._settle_txt(_decode(raw).rstrip("\r\n"), first + i)
                rest, number = lines[i + 1 :], first + i + 1
                break
            if layout is not None:
                break
        if layout is None:
            raise BadInput(f"{self.where}: the file is empty: is it the right download?")
        self.lines = number - 1
        wanted = self._wanted
        yield from self._txt_block(layout, number, rest, None, wanted)
        for first, lines, whole in blocks:
            yield from self._txt_block(layout, first, lines, whole, wanted)

    def _settle_txt(self, header: str, line: int) -> TxtLayout:
        layout = read_header(header)
        if isinstance(layout, str):
            shown = " ".join(header.split())[:50]
            raise BadInput(
                f"{self.where}:{line}: the header is not one of FIDE's TXT layouts "
                f"({layout} in {shown!r}): expected {EXPECTED}"
            )
        self.layout = layout
        self.combined = layout.combined
        if layout.combined:
            self.lists = self._settle_combined()
            self.period = self._settle_period(None)
        else:
            self.lists = (self._settle_single_list(),)
            month = layout.month
            self.period = self._settle_period(None if month is None else period_from_header(month))
        if layout.combined:
            self._txt_figures = tuple(
                (list_labels(lst, True), names)
                for lst, names in COMBINED_FIGURES
                if lst in self.lists
            )
        else:
            self._txt_figures = ((list_labels(self.lists[0], True), SINGLE_FIGURES),)
        return layout

    def _txt_block(
        self,
        layout: TxtLayout,
        first: int,
        lines: list[bytes],
        whole: bytes | None,
        wanted: set[bytes] | None,
    ) -> Iterator[ListRow]:
        """The rows of some whole lines (the first numbered `first`; `whole`: the same bytes
        joined). With `only`, a block whose every ID is a number without leading zeros is
        filtered in one set intersection of its IDs (as text) and the wanted ones (`wanted`)
        and one pass of `names` over its names, and only the lines that match are cut; any
        other block is filtered line by line."""
        if not lines and whole is not None:  # blank lines only: no row, nothing to say
            self.lines += whole.count(b"\n") + 1
            return
        self.lines += len(lines)
        if lines and max(map(len, lines)) > MAX_LINE:
            raise self._too_long(
                first + next(i for i, raw in enumerate(lines) if len(raw) > MAX_LINE)
            )
        numbered: Iterable[tuple[int, bytes]] = enumerate(lines, start=first)
        check = self.only is not None
        if wanted is not None and whole is not None:
            i0, i1 = layout.span("fide_id")
            ids = [raw[i0:i1].strip() for raw in lines]
            if b"".join(ids).isdigit() and b" 0" not in b" " + b" ".join(ids):
                empty = list(indexes(ids, b""))
                unnumbered = [k for k in empty if lines[k].strip()]  # no ID: a problem
                keep = {k for v in wanted.intersection(ids) for k in indexes(ids, v)}
                keep.update(unnumbered)
                if self.names is not None:
                    keep.update(self._txt_named(layout, lines))
                self.filtered += len(ids) - len(empty) - (len(keep) - len(unnumbered))
                numbered = [(first + k, lines[k]) for k in sorted(keep)]
                check = False
        yield from self._txt_cut(layout, numbered, check)

    def _txt_named(self, layout: TxtLayout, lines: list[bytes]) -> list[int]:
        """The indexes of the lines whose name may fit `names` (the sieve's two steps)."""
        sieve = self.names
        assert sieve is not None
        at = layout.span("name")[0]
        folded = heads(lines, at)
        picked = sieve.pick(folded)
        if not picked:
            return []
        if not layout.aligned:
            return [
                k
                for k in picked
                if sieve.says(folded[k]) == YES or sieve.close_look(lines[k][at : at + NAME_BYTES])
            ]
        n0, n1 = layout.index["name"]
        known = sieve.columns  # (fits_text's answers: looked up here first, for speed)
        found = []
        for k in picked:
            raw = lines[k]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                line = raw.decode("latin-1")
            column = line[n0:n1]
            fits = known.get(column) if column[-1:].isspace() else None
            if fits is None:
                fits = self._txt_name_fits(layout, line)
            if fits:
                found.append(k)
        return found

    def _txt_named_line(self, layout: TxtLayout, raw: bytes) -> bool:
        """Whether one line's name may fit `names` (`_txt_named` of a single line)."""
        sieve = self.names
        if sieve is None:
            return False
        at = layout.span("name")[0]
        said = sieve.says(raw[at : at + PREFIX].translate(FOLD))
        if said == NO:
            return False
        if layout.aligned:
            return self._txt_name_fits(layout, _decode_line(raw))
        return said == YES or sieve.close_look(raw[at : at + NAME_BYTES])

    def _txt_name_fits(self, layout: TxtLayout, line: str) -> bool:
        """Whether the name an aligned line's cut gives (`read_name` of its column) fits
        `names`; a name that runs past its column is kept (its row is cut at its blanks)."""
        assert self.names is not None
        n0, n1 = layout.index["name"]
        if len(line) > n1 and not line[n1 - 1].isspace() and not line[n1].isspace():
            return True
        return self.names.fits_text(line[n0:n1])

    def _txt_cut(
        self, layout: TxtLayout, numbered: Iterable[tuple[int, bytes]], check: bool
    ) -> Iterator[ListRow]:
        """The rows of these numbered lines (`check`: skip those not in `only` first)."""
        period = self.period
        assert period is not None
        spans = self._txt_figures
        only = self.only if check else None
        i0, i1 = layout.span("fide_id")
        if not layout.aligned:
            for number, raw in numbered:
                if only is not None:
                    head = raw[i0:i1].strip()
                    if (
                        head.isdigit()
                        and int(head) not in only
                        and not self._txt_named_line(layout, raw)
                    ):
                        self.filtered += 1
                        continue
                line = _decode_line(raw)
                if not line.strip():
                    continue
                row = self._loose_row(layout, spans, line, period, number)
                if row is not None:
                    self.rows += 1
                    yield row
            return
        n0, n1 = layout.span("name")
        f0, f1 = layout.span("federation")
        s0, s1 = layout.span("sex")
        t0, t1 = layout.span("title")
        w0, w1 = layout.span("women_title")
        o0, o1 = layout.span("other_titles")
        a0, a1 = layout.span("foa_title")
        b0, b1 = layout.span("birth")
        g0, g1 = layout.span("flag")
        figures = tuple(
            (lab, *layout.span(r), *layout.span(g), *layout.span(k)) for lab, (r, g, k) in spans
        )
        year = period.year
        titles = TITLE_OF
        for number, raw in numbered:
            if only is not None:
                head = raw[i0:i1].strip()
                if (
                    head.isdigit()
                    and int(head) not in only
                    and not self._txt_named_line(layout, raw)
                ):
                    self.filtered += 1
                    continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                line = raw.decode("latin-1")
            if not line.strip():
                continue
            try:
                title = line[t0:t1].strip()
                women = line[w0:w1].strip()
                yield ListRow(
                    read_fide_id(line[i0:i1]),
                    read_name(line[n0:n1]),
                    period,
                    tuple(
                        read_figures(lab, line[r0:r1], line[gg0:gg1], line[k0:k1])
                        for lab, r0, r1, gg0, gg1, k0, k1 in figures
                    ),
                    read_federation(line[f0:f1]),
                    line[s0:s1].strip() or None,
                    (titles.get(title) or read_title(title)) if title else None,
                    (titles.get(women) or read_title(women, "women's title")) if women else None,
                    line[o0:o1].strip() or None,
                    line[a0:a1].strip() or None,
                    birth_year_of(line[b0:b1], year),
                    read_flag(line[g0:g1]),
                    number,
                )
            except RowError as exc:
                # a value off its column: try cutting the line at its blanks instead
                row = self._loose_row(layout, spans, line, period, number, str(exc))
                if row is None:
                    continue
                yield row
            self.rows += 1

    def _loose_row(
        self,
        layout: TxtLayout,
        spans: tuple[tuple[Labels, tuple[str, ...]], ...],
        line: str,
        period: Period,
        number: int,
        first_error: str | None = None,
    ) -> ListRow | None:
        """A row cut at its blanks: each word goes to the column it overlaps most (ties: the
        earlier), a column's words keep their spacing (names)."""
        columns = layout.columns
        starts = [start for _, start, _ in columns]
        name0, name1 = layout.span("name")
        got: dict[str, tuple[int, int]] = {}
        for m in TOKEN.finditer(line):
            a, b = m.span()
            if name0 <= a < name1:  # a name's words run on, whatever they overlap
                old = got.get("name")
                got["name"] = (a, b) if old is None else (old[0], b)
                continue
            at = max(0, bisect.bisect_right(starts, a) - 1)
            best, best_overlap = at, min(b, columns[at][2]) - max(a, columns[at][1])
            j = at + 1
            while j < len(columns) and columns[j][1] < b:
                overlap = min(b, columns[j][2]) - max(a, columns[j][1])
                if overlap > best_overlap:
                    best, best_overlap = j, overlap
                j += 1
            field = columns[best][0]
            old = got.get(field)
            got[field] = (a, b) if old is None else (old[0], b)

        title = got.get("title")
        if (
            not layout.aligned
            and title is not None
            and line[title[0] : title[1]].strip() not in TITLE_CODES
        ):
            # the last word of a name longer than its column, where title codes stand (43
            # and 44 in the quarterly lists: `layout._codes_right_aligned`; 44 on in those
            # of 2009-2012); a title code there is the title
            del got["title"]
            old = got.get("name")
            got["name"] = title if old is None else (old[0], title[1])

        def get(field: str) -> str:
            cut = got.get(field)
            return "" if cut is None else line[cut[0] : cut[1]]

        try:
            return ListRow(
                read_fide_id(get("fide_id")),
                read_name(get("name")),
                period,
                tuple(read_figures(lab, get(r), get(g), get(k)) for lab, (r, g, k) in spans),
                read_federation(get("federation")),
                get("sex").strip() or None,
                read_title(get("title")),
                read_title(get("women_title"), "women's title"),
                get("other_titles").strip() or None,
                get("foa_title").strip() or None,
                birth_year_of(get("birth"), period.year),
                read_flag(get("flag")),
                number,
            )
        except RowError as exc:
            self._problem(number, f"{first_error or exc}; line skipped")
            return None


def _decode(raw: bytes) -> str:
    """UTF-8 when it is, else Latin-1 (FIDE's files have been published in both)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _decode_line(raw: bytes) -> str:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        line = raw.decode("latin-1")
    return line[:-1] if line.endswith("\r") else line
