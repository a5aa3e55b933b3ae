"""The rows of an XML list: `<player>` elements parsed by a guarded expat, the players not
asked for dropped before they reach it. XML goes through expat with handlers that refuse any
DTD (so no entity can be declared, let alone expanded: a billion-laughs file is refused at
its `<!DOCTYPE`), and external entities are never fetched. An element holding more than
`MAX_TEXT` characters or markup (a tag, comment...) longer than `MAX_MARKUP` bytes refuses
the file with one line, after reading at most a block beyond the cap (a 1 GiB text in a
small zip costs a few MiB). An encoding declared that expat cannot be given (a multi-byte
one, a codec that fails) refuses the file in one line. With `only`, the `<player>` elements
neither asked for by ID nor of a name `names` may fit are dropped before expat sees them.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import Any
from xml.parsers import expat

from tracker.errors import BadInput
from tracker.lists.fields import (
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
from tracker.lists.opened import CHUNK, OpenedList
from tracker.lists.sieve import heads
from tracker.model import ListRow, RatingList

THIN_LIMIT = 1 << 22  # no </player> in this many bytes: hand them to expat as they are
MAX_TEXT = 4_096
"""Characters an XML element may hold (as a PGN tag value: FIDE's longest field, a name,
has under 100): more refuses the file."""
MAX_MARKUP = 1 << 20
"""Bytes expat may hold in one unfinished token (a tag, comment, processing instruction):
more refuses the file."""
_FIDEID = re.compile(rb"<fideid>\s*(\d{1,12})\s*</fideid>")
_NAME = re.compile(rb"<name>\s*([^<]*)</name>")
_DECLARED = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z][\w.-]*)")
NAME_CODECS = {"utf-8": "utf-8", "iso8859-1": "latin-1", "ascii": "ascii"}
"""The encodings (codecs' names) in which a name's bytes are read before expat reads them."""
_FIRST_PLAYER = re.compile(rb"\s*<player>")
_NEXT_PLAYER = re.compile(rb"</player>\s*<player>")

XML_SINGLE_FIELDS = ("rating", "games", "k")
XML_COMBINED_FIELDS: tuple[tuple[RatingList, tuple[str, str, str]], ...] = (
    (RatingList.STANDARD, ("rating", "games", "k")),
    (RatingList.RAPID, ("rapid_rating", "rapid_games", "rapid_k")),
    (RatingList.BLITZ, ("blitz_rating", "blitz_games", "blitz_k")),
)
XML_TEXT_FIELDS = frozenset(
    {
        "fideid",
        "name",
        "country",
        "sex",
        "title",
        "w_title",
        "o_title",
        "foa_title",
        "rating",
        "games",
        "k",
        "rapid_rating",
        "rapid_games",
        "rapid_k",
        "blitz_rating",
        "blitz_games",
        "blitz_k",
        "birthday",
        "flag",
    }
)


class XmlRows(OpenedList):
    """The XML reading of a `ListFile`."""

    def _xml_rows(self) -> Iterator[ListRow]:
        parser = _SafeXml(self)
        declared = _DECLARED.match(self._stream.peek(512)[:512])
        encoding = declared.group(1).decode("ascii") if declared else None
        self._name_codec = "utf-8" if encoding is None else _name_codec(encoding)
        pending = b""
        while True:
            raw = self._stream.read(CHUNK)
            data = raw
            if self.only is not None and self.period is not None:
                # Whole <player> elements of players not asked for never reach expat.
                pending += raw
                end = len(pending)
                if raw:
                    cut = pending.rfind(b"</player>")
                    if cut < 0 and end < THIN_LIMIT:
                        continue
                    if cut >= 0:
                        end = cut + len(b"</player>")
                data, pending = self._thin(pending[:end]), pending[end:]
            elif pending:
                data, pending = pending + raw, b""
            try:
                parser.feed(data, final=not raw)
            except expat.ExpatError as exc:
                reason = expat.errors.messages.get(exc.code, str(exc))
                raise BadInput(
                    f"{self.where}:{exc.lineno}: the XML is broken ({reason}): "
                    "is the file complete?"
                ) from None
            except (LookupError, ValueError):
                # expat asks Python for a declared encoding it lacks (LookupError), or one it
                # cannot be given: multi-byte, or a codec that fails (ValueError)
                if encoding is None:
                    raise
                raise BadInput(
                    f"{self.where}:1: the XML declares the encoding {encoding}, which the "
                    "reader cannot use: FIDE's lists are UTF-8 or ISO-8859-1; is the file "
                    "damaged?"
                ) from None
            ready, parser.ready = parser.ready, []
            only = self.only
            names = self.names
            for fields, line in ready:
                if self.period is None:
                    self._settle_xml(fields)
                if only is not None:
                    head = fields.get("fideid", "").strip()
                    if (
                        head.isdigit()
                        and int(head) not in only
                        and not (names is not None and names.fits_text(fields.get("name", "")))
                    ):
                        self.filtered += 1
                        continue
                row = self._xml_row(fields, line)
                if row is not None:
                    self.rows += 1
                    yield row
            if not raw:
                break
        if not parser.seen_root:
            raise BadInput(f"{self.where}: no <playerslist> element: is this a FIDE XML list?")

    def _thin(self, block: bytes) -> bytes:
        """Drop the plain `<player>` elements neither wanted by ID nor of a name `names` may
        fit, keeping their line breaks (so expat's line numbers stay true). Only a segment
        that is blank space and one element free of any markup declaration, comment, CDATA
        or processing instruction is dropped; anything else goes to expat untouched (the DTD
        guard sees every `<!`), and is judged there."""
        only = self.only
        assert only is not None
        wanted = self._wanted
        count = block.count(b"</player>")
        if (
            wanted is not None
            and count
            and (b"!" not in block or b"<!" not in block)  # "!" is rare: a fast scan
            and (b"?" not in block or b"<?" not in block)
        ):
            # The whole block at once when it is nothing but plain players, none wanted:
            # each segment starts with its one <player> (after blanks), no "<!" or "<?"
            # anywhere, the IDs plain numbers without leading zeros, none of them wanted,
            # no name of them one `names` may fit.
            ids = _FIDEID.findall(block)
            if (
                len(ids) == count
                and block.count(b"<player>") == count
                and _FIRST_PLAYER.match(block) is not None
                and (
                    block.count(b"</player>\n<player>") == count - 1
                    or len(_NEXT_PLAYER.findall(block)) == count - 1
                )
                and min(ids) >= b"1"
                and not wanted.intersection(ids)
                and not self._xml_named(block)
            ):
                self.filtered += count
                tail = block.rfind(b"</player>") + len(b"</player>")
                return b"\n" * block.count(b"\n", 0, tail) + block[tail:]
        out: list[bytes] = []
        *segments, rest = block.split(b"</player>")
        for segment in segments:
            m = _FIDEID.search(segment)
            if (
                m is not None
                and int(m.group(1)) not in only
                and segment.lstrip().startswith(b"<player>")
                and segment.count(b"<player>") == 1
                and segment.count(b"<fideid>") == 1
                and b"<!" not in segment
                and b"<?" not in segment
                and not self._xml_named(segment)
            ):
                self.filtered += 1
                out.append(b"\n" * segment.count(b"\n"))
            else:
                out.append(segment + b"</player>")
        out.append(rest)
        return b"".join(out)

    def _xml_named(self, block: bytes) -> bool:
        """Whether a name of these plain `<player>` elements may fit `names`, told from
        their bytes (the sieve's two steps). A `<name>` this cannot read as expat would (a
        character reference, an encoding it does not read) may fit: expat reads it."""
        sieve = self.names
        if sieve is None:
            return False
        found = _NAME.findall(block)
        if len(found) != block.count(b"<name") or b"&" in b"".join(found):
            return True  # a <name> of another shape, or with a reference: expat reads it
        if not found:
            return False
        codec = self._name_codec
        for k in sieve.pick(heads(found)):
            raw = found[k]
            if raw.isascii():
                name = raw.decode("ascii")
            elif codec is None:
                return True
            else:
                try:
                    name = raw.decode(codec)
                except UnicodeDecodeError:
                    return True  # (expat refuses the file there)
            if sieve.fits_text(name):
                return True
        return False

    def _settle_xml(self, fields: dict[str, str]) -> None:
        """Single or combined, which lists and which month: known at the first player."""
        self.combined = any(k in fields for k in ("rapid_rating", "blitz_rating"))
        if self.combined:
            self.lists = self._settle_combined()
            self._xml_figures = tuple(
                (list_labels(lst, True), names)
                for lst, names in XML_COMBINED_FIELDS
                if lst in self.lists
            )
        else:
            self.lists = (self._settle_single_list(),)
            self._xml_figures = ((list_labels(self.lists[0], False), XML_SINGLE_FIELDS),)
        self.period = self._settle_period(None)

    def _xml_row(self, fields: dict[str, str], line: int) -> ListRow | None:
        assert self.period is not None
        get = fields.get
        try:
            return ListRow(
                read_fide_id(get("fideid", "")),
                read_name(get("name", "")),
                self.period,
                tuple(
                    read_figures(lab, get(r, ""), get(g, ""), get(k, ""))
                    for lab, (r, g, k) in self._xml_figures
                ),
                read_federation(get("country", "")),
                get("sex", "").strip() or None,
                read_title(get("title", "")),
                read_title(get("w_title", ""), "women's title"),
                get("o_title", "").strip() or None,
                get("foa_title", "").strip() or None,
                birth_year_of(get("birthday", ""), self.period.year),
                read_flag(get("flag", "")),
                line,
            )
        except RowError as exc:
            self._problem(line, f"{exc}; <player> skipped")
            return None


def _name_codec(encoding: str) -> str | None:
    """The codec a name's bytes are read with before expat, for a declared encoding (None:
    names beyond ASCII are left to expat)."""
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return None
    return NAME_CODECS.get(name)


class _SafeXml:
    """expat with every DTD and entity door shut, collecting `<player>` fields as it goes.

    Any `<!DOCTYPE` is refused, so no entity can be declared, let alone expanded or fetched
    (an undeclared `&name;` is a plain syntax error). For speed only two handlers run per
    element: character data (buffered) and element end. The text gathered since the last
    end tag belongs to the element that ends; blanks between elements only add whitespace,
    which the fields strip anyway. A row's position is the line of its `<fideid>`.

    Caps: an element's text over MAX_TEXT characters is refused at its end tag, or after the
    block that took it over the cap when its end is still to come; markup that expat still
    holds unfinished after a block (a giant tag, comment or attribute) over MAX_MARKUP bytes
    is refused too. Only the known fields are kept, so a player of a million different
    elements holds no more than one of twenty.
    """

    def __init__(self, owner: OpenedList) -> None:
        self.owner = owner
        self.ready: list[tuple[dict[str, str], int]] = []
        self.seen_root = False
        self._fields: dict[str, str] = {}
        self._text: list[str] = []
        self._line = 0
        self._fed = 0
        p = expat.ParserCreate()
        p.buffer_text = True
        p.buffer_size = CHUNK
        p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        p.StartDoctypeDeclHandler = self._refuse_dtd
        p.EntityDeclHandler = self._refuse_entity
        p.UnparsedEntityDeclHandler = self._refuse_entity
        p.ExternalEntityRefHandler = self._refuse_external
        p.StartElementHandler = self._root
        p.EndElementHandler = self._end
        p.CharacterDataHandler = self._text.append
        self._parser = p

    def feed(self, data: bytes, *, final: bool) -> None:
        p = self._parser
        p.Parse(data, final)
        self._fed += len(data)
        text = self._text
        if sum(map(len, text)) > MAX_TEXT:
            # blanks only pad (the fields are stripped; a thinned block leaves many newlines)
            kept = "".join(text).strip()
            if len(kept) > MAX_TEXT:
                self._refuse_size(f"text of more than {MAX_TEXT:,} characters")
            text[:] = [kept]
        if self._fed - p.CurrentByteIndex > MAX_MARKUP:
            self._refuse_size(f"a tag or comment of more than {MAX_MARKUP:,} bytes")

    def _refuse_size(self, what: str) -> None:
        raise BadInput(
            f"{self.owner.where}:{self._parser.CurrentLineNumber}: the XML holds "
            f"{what} (a FIDE list's longest field, a name, has under 100): not a "
            "FIDE rating list, refused"
        )

    def _refuse(self, what: str) -> None:
        raise BadInput(
            f"{self.owner.where}:{self._parser.CurrentLineNumber}: the XML "
            f"declares {what}, which a FIDE list never does; refused for safety"
        )

    def _refuse_dtd(self, *_: Any) -> None:
        self._refuse("a DTD (<!DOCTYPE ...>)")

    def _refuse_entity(self, *_: Any) -> None:
        self._refuse("an entity")

    def _refuse_external(self, *_: Any) -> int:
        self._refuse("an external entity")
        return 0  # pragma: no cover

    def _root(self, name: str, _attrs: Any) -> None:
        if name.lower() != "playerslist":
            raise BadInput(
                f"{self.owner.where}:{self._parser.CurrentLineNumber}: the root "
                f"element is <{name[:40]}>, not <playerslist>: is this a FIDE XML "
                "list?"
            )
        self.seen_root = True
        self._parser.StartElementHandler = None  # the root is all it checks

    def _end(self, name: str) -> None:
        text = self._text
        if name == "player":
            self.ready.append((self._fields, self._line))
            self._fields = {}
        elif name in XML_TEXT_FIELDS:
            value = "".join(text)
            if len(value) > MAX_TEXT and len(value := value.strip()) > MAX_TEXT:
                self._refuse_size(f"a <{name}> of more than {MAX_TEXT:,} characters")
            self._fields[name] = value
            if name == "fideid":
                self._line = self._parser.CurrentLineNumber
        elif len(text) > 1 or (text and len(text[0]) > MAX_TEXT):
            value = "".join(text).strip()
            if len(value) > MAX_TEXT:
                self._refuse_size(f"a <{name[:40]}> of more than {MAX_TEXT:,} characters")
        text.clear()
