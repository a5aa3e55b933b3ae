"""A club's list (`tracker club`): the one place that words tracker.app.club's players.
Each player's replay is read with `next_report`, as `tracker next` reads it: the last
official rating (else the rating the replay starts from, and where from), the rating
expected on the next list, the change and the games counted since, and what it assumed.
`club_rows` gives those as values, `club_json` the JSON (and, by CLUB_COLUMNS, the CSV),
`club_table` the table and `club_notes` the lines under it; the page is
tracker.reports.clubpage."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tracker.advice import SetTournamentList
from tracker.app.club import Chosen, ClubList, ClubPlayer, LeftOut, LeftOutWhy
from tracker.model import Period, PlayerRef
from tracker.periods import Assumption
from tracker.periods.assumed import list_assumed_games
from tracker.reports.nextlist import NextReport, next_report
from tracker.reports.said import Said, command_line, joined
from tracker.reports.text import fmt_signed
from tracker.reports.words import assumed_text, assumption_command, command


class Order(StrEnum):
    """How the players are sorted: by name, or by the expected change (largest gain first;
    no change last, by name)."""

    name = "name"
    change = "change"


class Start(StrEnum):
    """What the change is measured from."""

    OFFICIAL = "official"  # the last official rating
    ELO_TAG = "elo-tag"  # no official rating: the player's own Elo tag the replay starts from
    STANDARD = "standard"  # rapid/blitz unrated: the standard rating it starts from (Mar 2024)
    UNRATED = "unrated"  # no rating: the games go toward a first rating
    WAITING = "waiting"  # rapid/blitz: no rating of the list to start from (the tags are
    # the standard rating): the history waits for an official rating
    NONE = "none"  # no official rating and no game to rate

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ClubRow:
    """One player of the list as `tracker next` reads their replay."""

    player: PlayerRef
    federation: str | None
    start: Start
    rating: int | None  # what the change is from: the last official rating, else the start
    official_rating: int | None
    official_period: Period | None
    expected: int | None  # the rating expected on `next_period`
    next_period: Period | None
    games: int  # counted since the last official list
    list_assumed: int  # of them, games without a time control put on the list by assumption
    assumptions: tuple[Assumption, ...]  # facts K rested on that nobody recorded
    open: tuple[tuple[str, str], ...]  # (tournament, why it may still move to a later list)
    published: bool | None  # the next list is out already (None: no next list)
    on_list: bool  # the player has a game or an official rating on the list

    @property
    def change(self) -> int | None:
        """The expected rating minus `rating` (None: no games since, or no rating)."""
        if self.expected is None or self.rating is None or self.next_period is None:
            return None
        return self.expected - self.rating

    @property
    def first_rating(self) -> bool:
        """The expected rating is a first rating."""
        return self.start is Start.UNRATED and self.expected is not None


def _start(rep: NextReport) -> tuple[Start, int | None]:
    if rep.last_official is not None:
        return Start.OFFICIAL, rep.last_rating
    if rep.waiting:
        return Start.WAITING, None
    if not rep.rows:
        return Start.NONE, None
    first = rep.rows[0]
    if first.rating_before is None:
        return Start.UNRATED, None
    return (Start.STANDARD if first.seeded else Start.ELO_TAG), first.rating_before


def club_row(p: ClubPlayer, today: dt.date) -> ClubRow:
    """One player's row: `next_report` of their replay (`today` tells whether the next list
    is out already)."""
    rep = next_report(p.replay, p.player)
    start, rating = _start(rep)
    seen: dict[tuple[str, str], Assumption] = {}
    for r in rep.rows:
        for a in r.assumptions:
            seen.setdefault((str(a.fact), assumed_text(a)), a)
    nxt = rep.next_period
    return ClubRow(
        player=p.player,
        federation=p.federation,
        start=start,
        rating=rating,
        official_rating=rep.last_rating if rep.last_official is not None else None,
        official_period=rep.last_official,
        expected=rep.expected,
        next_period=nxt,
        games=sum(r.games for r in rep.rows),
        list_assumed=sum(list_assumed_games(r) for r in rep.rows),
        assumptions=tuple(seen.values()),
        open=rep.open,
        published=None if nxt is None else nxt.list_date <= today,
        on_list=p.on_list,
    )


def ordered(rows: list[ClubRow], order: Order) -> list[ClubRow]:
    """`rows` (by name) in the order asked: by name, or by the expected change (largest gain
    first; no change last, by name)."""
    if order is Order.name:
        return list(rows)
    return sorted(rows, key=lambda r: (r.change is None, -(r.change or 0)))


def club_rows(club: ClubList, today: dt.date, order: Order = Order.name) -> list[ClubRow]:
    """The players' rows in the order asked (the list comes by name)."""
    return ordered([club_row(p, today) for p in club.players], order)


# --- words -------------------------------------------------------------------------------

FROM = {
    Start.OFFICIAL: "list",
    Start.ELO_TAG: "tag",
    Start.STANDARD: "std",
    Start.UNRATED: "unrated",
    Start.WAITING: "waiting",
    Start.NONE: "",
}
"""The table's word for what the change is from (the legend says each in full)."""

FROM_TEXT = {
    Start.OFFICIAL: "the last official rating, on the list named",
    Start.ELO_TAG: "no official rating: the player's own Elo tag the replay starts from",
    Start.STANDARD: "unrated on this list: the standard rating the replay starts from",
    Start.UNRATED: "no rating yet: the games go toward a first rating",
    Start.WAITING: "no rating of this list to start from (the Elo tags of the player's "
    "events on it are the standard rating): the replay waits for an official rating",
    Start.NONE: "",
}


def from_text(r: ClubRow) -> str:
    """ "list 2025-09", "tag", "std", "unrated", "waiting", ""."""
    word = FROM[r.start]
    if r.start is Start.OFFICIAL and r.official_period is not None:
        return f"{word} {r.official_period}"
    return word


def assumed_words(r: ClubRow) -> list[str]:
    """What the row's numbers rest on that nobody recorded: "list" (games without a time
    control on this list by assumption), "K" (a fact K needs)."""
    words = []
    if r.list_assumed:
        words.append("list")
    if r.assumptions:
        words.append("K")
    return words


def note_words(r: ClubRow) -> list[str]:
    """The table's last column: what is not a number."""
    parts: list[str] = []
    if not r.on_list:
        parts.append("nothing on this list")
    elif r.next_period is None and r.start is not Start.NONE:
        parts.append("no games since")
    if r.first_rating:
        parts.append("first rating")
    if r.open:
        parts.append(f"{len(r.open)} open")
    if r.player.fide_id is None:
        parts.append("no FIDE ID")
    if r.player.is_me:
        parts.append("you")
    return parts


# --- JSON, CSV ---------------------------------------------------------------------------

CLUB_COLUMNS = (
    "player",
    "fide_id",
    "federation",
    "rating",
    "start",
    "official_period",
    "expected",
    "next_period",
    "change",
    "games",
    "assumed",
    "list_assumed_games",
    "open",
    "next_published",
    "note",
)
"""The columns of `tracker club --format csv` (docs/export.md)."""


def _period(p: Period | None) -> str | None:
    return None if p is None else str(p)


def row_json(r: ClubRow) -> dict[str, Any]:
    """One player as the JSON gives it."""
    who = r.player.command_name
    return {
        "player": r.player.name,
        "fide_id": r.player.fide_id,
        "federation": r.federation,
        "me": r.player.is_me,
        "rating": r.rating,
        "start": str(r.start),
        "official_rating": r.official_rating,
        "official_period": _period(r.official_period),
        "expected": r.expected,
        "next_period": _period(r.next_period),
        "change": r.change,
        "games": r.games,
        "first_rating": r.first_rating,
        "assumed": assumed_words(r),
        "list_assumed_games": r.list_assumed,
        "assumptions": [
            {"fact": str(a.fact), "assumed": assumed_text(a), "command": assumption_command(a, who)}
            for a in r.assumptions
        ],
        "open": [{"tournament": t, "why": why} for t, why in r.open],
        "next_published": r.published,
        "on_list": r.on_list,
        "note": "; ".join(note_words(r)),
    }


def left_json(x: LeftOut) -> dict[str, Any]:
    return {"why": str(x.why), "count": x.count, "players": list(x.who)}


def club_json(club: ClubList, rows: list[ClubRow]) -> dict[str, Any]:
    """The JSON of `tracker club`: who was chosen, the players, who was left out."""
    return {
        "list": str(club.rating_list),
        "chosen": str(club.chosen),
        "federation": club.federation,
        "ids_file": club.source,
        "players": [row_json(r) for r in rows],
        "left_out": [left_json(x) for x in club.left_out],
    }


def csv_rows(rows: list[ClubRow]) -> list[dict[str, Any]]:
    """The rows as the CSV gives them: `assumed` as "list;K", `open` counted."""
    out = []
    for r in rows:
        data = row_json(r)
        data["assumed"] = ";".join(data["assumed"])
        data["open"] = len(r.open)
        out.append(data)
    return out


# --- the table ---------------------------------------------------------------------------

TABLE_HEADERS = [
    "Player",
    "FIDE ID",
    "Fed",
    "Rating",
    "From",
    "Expected",
    "Next",
    "Chg",
    "G",
    "Assumed",
    "Note",
]
TABLE_RIGHT = (1, 3, 5, 7, 8)
TABLE_OPTIONAL = (2, 6, 4, 9, 1, 8)
"""Left out in this order when the table is too wide: the federation, the next list (the
title names the most common), where the rating came from (From), what was assumed, the
FIDE ID, the games; the rating, the expected one and the change stay."""


def change_text(r: ClubRow) -> str:
    c = r.change
    return "" if c is None else (fmt_signed(c) or "0")


def table_cells(r: ClubRow) -> list[str]:
    """A row's cells (TABLE_HEADERS)."""
    return [
        r.player.name,
        "" if r.player.fide_id is None else str(r.player.fide_id),
        r.federation or "",
        "" if r.rating is None else str(r.rating),
        from_text(r),
        "" if r.expected is None or r.next_period is None else str(r.expected),
        "" if r.next_period is None else str(r.next_period),
        change_text(r),
        str(r.games) if r.on_list else "",
        ", ".join(assumed_words(r)),
        "; ".join(note_words(r)),
    ]


DROPPED_WHEN_EMPTY = ("Fed", "Assumed", "Note")
"""The columns the table leaves out when no row has anything in them (a federation is
known only from a FIDE list's import)."""


def club_table(rows: list[ClubRow]) -> tuple[list[str], list[list[str]], list[int], list[int]]:
    """The table: its headers, cells, right-aligned columns and optional ones
    (TABLE_HEADERS, without the DROPPED_WHEN_EMPTY columns no row fills)."""
    cells = [table_cells(r) for r in rows]
    keep = [
        i
        for i, h in enumerate(TABLE_HEADERS)
        if h not in DROPPED_WHEN_EMPTY or any(c[i] for c in cells)
    ]
    at = {i: n for n, i in enumerate(keep)}
    return (
        [TABLE_HEADERS[i] for i in keep],
        [[c[i] for i in keep] for c in cells],
        [at[i] for i in TABLE_RIGHT if i in at],
        [at[i] for i in TABLE_OPTIONAL if i in at],
    )


def chosen_text(club: ClubList) -> str:
    """ "every player the database tracks", "the tracked players of federation CZE", "the
    FIDE IDs of members.txt"."""
    if club.chosen is Chosen.FEDERATION:
        return f"the tracked players of federation {club.federation}"
    if club.chosen is Chosen.IDS:
        return f"the FIDE IDs of {club.source}" if club.source else "the FIDE IDs given"
    return "every player the database tracks"


def common_next(rows: list[ClubRow]) -> Period | None:
    """The next list of most players (the latest of those tied)."""
    found: dict[Period, int] = {}
    for r in rows:
        if r.next_period is not None:
            found[r.next_period] = found.get(r.next_period, 0) + 1
    return max(found, key=lambda k: (found[k], k)) if found else None


def club_title(club: ClubList, rows: list[ClubRow]) -> str:
    rl = club.rating_list
    nxt = common_next(rows)
    on = "" if nxt is None else f", most on the {nxt} list"
    return f"Expected {rl} ratings: {counted(len(rows), 'player')} ({chosen_text(club)}){on}"


def counted(n: int, word: str) -> str:
    """ "1 player", "1,456 players"."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _few(names: tuple[str, ...], n: int = 3) -> str:
    """The first `n` names ("; " between: a name has a comma) and how many more."""
    shown = "; ".join(names[:n])
    return shown + (f" and {len(names) - n:,} more" if len(names) > n else "")


EACH_PLAYER = Said("Each player as ", command_line("next", "PLAYER").quoted(), " gives it.")
"""The end of the legend: where one player's numbers come from."""

_IMPORT_ALL = command_line("official", "import", "FILE", "--all").quoted()


def left_out_line(club: ClubList, x: LeftOut) -> str:
    """What was left out, and why, in a sentence."""
    n = x.count
    rl = club.rating_list
    if x.why is LeftOutWhy.UNTRACKED:
        return Said(
            f"Not tracked: {counted(n, 'player')} with games but no FIDE ID, "
            f"official rating or recorded fact ({_few(x.who)}): opponents known by name only "
            "(",
            command_line("player", "set", "NAME", "--fide-id", "N").quoted(),
            " tracks one).",
        )
    if x.why is LeftOutWhy.NOTHING_ON_LIST:
        return (
            f"Not shown: {counted(n, 'tracked player')} with no game and no "
            f"official rating on the {rl} list ({_few(x.who)}; --list gives another)."
        )
    if x.why is LeftOutWhy.NO_FEDERATION:
        return Said(
            f"Left out: {counted(n, 'tracked player')} whose federation the "
            f"database does not have ({_few(x.who)}): it has one for the players a FIDE list "
            "import created (",
            _IMPORT_ALL,
            ").",
        )
    return Said(
        f"Not in the database: {counted(n, 'FIDE ID')} of "
        f"{club.source or 'the file'} ({_few(x.who, 8)}): import their games (",
        command_line("import").quoted(),
        ") or their list entries (",
        _IMPORT_ALL,
        ").",
    )


def club_notes(club: ClubList, rows: list[ClubRow]) -> list[str]:
    """The lines under the table: the legend, the assumptions counted, the lists that are
    out already, who was left out."""
    rl = club.rating_list
    used = [s for s in Start if s is not Start.NONE and any(r.start is s for r in rows)]
    lines: list[str] = [
        "Rating: the last official rating, else the rating the replay starts from (From); "
        "Expected: the rating expected on the Next list; Chg: Expected - Rating; G: the games "
        "counted since. " + EACH_PLAYER
    ]
    if used:
        lines.append("From: " + "; ".join(f"{FROM[s]}: {FROM_TEXT[s]}" for s in used) + ".")
    listed = sum(1 for r in rows if r.list_assumed)
    k = sum(1 for r in rows if r.assumptions)
    if listed or k:
        said: list[str] = []
        if listed:
            said.append(
                Said(
                    f"list: {counted(listed, 'player')} with games without a time control "
                    "counted on this list by assumption (",
                    command(SetTournamentList()).quoted(),
                    " corrects a tournament)",
                )
            )
        if k:
            said.append(
                Said(
                    f"K: {counted(k, 'player')} whose K rests on a fact nobody recorded (",
                    command_line("player", "set").quoted(),
                    " records it)",
                )
            )
        lines.append("Assumed: " + joined("; ", said) + ".")
    opened = sum(1 for r in rows if r.open)
    if opened:
        lines.append(
            Said(
                f"Open: {counted(opened, 'player')} with a tournament that may land on a later "
                "list (a late report) or games with no rating period (",
                command_line("next", "PLAYER").quoted(),
                " names them).",
            )
        )
    out = sorted({r.next_period for r in rows if r.published and r.next_period is not None})
    if out:
        n = sum(1 for r in rows if r.published)
        which = str(out[0]) if len(out) == 1 else f"{out[0]} to {out[-1]}"
        lines.append(
            Said(
                f"Published already: the next {rl} list of {counted(n, 'player')} ({which}): "
                "FIDE's ratings are there to read; import the list (",
                command_line("official", "import", "FILE").quoted(),
                ") and the list moves on.",
            )
        )
    lines += [left_out_line(club, x) for x in club.left_out]
    return lines
