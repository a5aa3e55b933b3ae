"""The history: one row per rating period as plain values (the columns of HISTORY_COLUMNS)
and as table cells, the note that explains a row, and a list's season summed up in a line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from tracker.advice import PinPeriod, PlayerFact
from tracker.fide import PeriodOut
from tracker.fide.calendar import list_in_force
from tracker.fide.performance import performance_rating
from tracker.model import Period, PlayerRef, RatingList
from tracker.periods import Assumption, PeriodRow, RatingSource, Replay
from tracker.periods.assumed import ClosingDate, closing_dates, counted_games, list_assumed_games
from tracker.periods.notes import IncludesEarlier, TagsDisagree
from tracker.periods.plans import unit_start
from tracker.periods.reasons import NotCountedWhy, Unplaced
from tracker.reports import words
from tracker.reports.figures import counted_results
from tracker.reports.rulewords import adjustment_text, engine_text, ignored_text
from tracker.reports.said import Said, command_line, joined
from tracker.reports.text import (
    fmt_int,
    fmt_points,
    fmt_signed,
    json_points,
    plural,
    plural_points,
)
from tracker.reports.words import (
    LIST_ASSUMED_HOW,
    assumed_text,
    before_text,
    closing_json,
    closing_texts,
    not_counted_counts,
    note_text,
    published_word,
    tag_anchor_text,
    why_text,
)

HISTORY_COLUMNS = (
    "period",
    "list",
    "rating_before",
    "games",
    "points",
    "expected",
    "k",
    "change_exact",
    "change",
    "rating_after",
    "official_rating",
    "difference",
    "note",
    "elo_tag",
    "tag_difference",
    "published",
    "source",
    "before_official",
    "assumptions",
    "list_assumed_games",
    "opponents_from_lists",
    "not_counted",
    "period_assumed",
)


def assumption_command(a: Assumption, player: PlayerRef | None) -> str:
    return words.assumption_command(a, "ID" if player is None else player.command_name)


def assumption_text(a: Assumption, player: PlayerRef | None = None) -> str:
    """ "K assumes X (COMMAND)": the fact assumed and the command that records it."""
    return words.assumption_text(a, "ID" if player is None else player.command_name)


def k_by_tournament(out: PeriodOut) -> str:
    """The tournaments rated with another K than the period's (the K of the list in force at
    their start, Jul 2009 - Jun 2017), as "NAME K" items; "" when every one had the period's."""
    return ", ".join(f"{t.label} {t.k}" for t in out.tournaments if t.k != out.k)


def row_note(row: PeriodRow, player: PlayerRef | None = None, *, first: bool = False) -> str:
    """What explains a row, parts joined by "; " (the `first` row of a list's replay starts
    with where the rating it starts from came from)."""
    parts: list[str] = []
    if first and row.rating_before is not None:
        parts.append(f"starts from {row.rating_before} ({before_text(row.rating_before_source)})")
    if row.before_official:
        parts.append("before the first official rating")
    if row.official is not None and row.official.flag and "i" in row.official.flag:
        parts.append("inactive on this list (flag i)")
    if row.out is not None and row.out.k_by_tournament:
        parts.append(f"K by tournament start: {k_by_tournament(row.out)}")
    if row.first is not None and row.first.rating is not None:
        parts.append(f"first rating {row.first.rating}")
    elif row.first is not None and row.first.reason:
        parts.append(f"unrated: {engine_text(row.first.reason)}")
    if row.first is not None and row.first.rating is None:
        parts += [
            f"ignored: {label} ({ignored_text(why)})"
            for label, why in zip(row.first.ignored, row.first.ignored_reasons, strict=False)
        ]
    if row.out is not None and row.out.reason:
        parts.append(engine_text(row.out.reason))
    if row.adjustment:
        parts.append(adjustment_text(row.adjustment))
    if row.twice:
        parts.append(f"{plural(len(row.twice), 'game')} maybe stored twice (explain says which)")
    if row.rating_before_source.source is RatingSource.STANDARD:
        parts.append("starts from the standard rating")
    if (
        row.rating_before is None
        and row.official is not None
        and row.out is None
        and row.first is None
    ):
        parts.append("start: official rating")
    elif row.anchored and row.difference not in (None, 0):
        parts.append("re-anchored on the official rating")
    elif (fast_tag := tag_anchor_text(row)) is not None:
        parts.append(fast_tag)
    elif row.source is RatingSource.ELO_TAG and row.tag_difference not in (None, 0):
        parts.append(f"re-anchored on the Elo tag {row.elo_tag}")
    parts += [note_text(n) for n in row.notes if isinstance(n, TagsDisagree | IncludesEarlier)]
    assumed = list_assumed_games(row)
    if assumed:
        parts.append(plural(assumed, "game") + LIST_ASSUMED)
    parts += [assumption_text(a, player) for a in row.assumptions]
    if row.not_counted:
        parts.append(not_counted_text(row))
    parts += closing_texts(row)
    return joined("; ", parts)


LIST_ASSUMED = Said(
    " on this list by assumption (no time control: ",
    command_line("event", "set", "ID", "--list"),
    ")",
)
"""The end of a row's note on its games without a time control ("29 games" before it)."""

SAID_ONCE_ROWS = 3
"""A note part repeated on this many rows of a table or more is said once under it."""


def notes_said_once(
    rows: Sequence[HistoryRow], cells: list[list[str]]
) -> tuple[list[list[str]], list[str]]:
    """The table's cells with the notes (the last column) that repeat said once: "N games
    on this list by assumption ..." becomes "list assumed" (with the count when not all the
    row's games), any other part on SAID_ONCE_ROWS rows or more a mark "[1]"; the lines
    that say them in full, for under the table. The rows' own notes (CSV, JSON) stay
    whole."""
    parts_of = [c[-1].split("; ") if c[-1] else [] for c in cells]
    seen: dict[str, int] = {}
    for parts in parts_of:
        for part in dict.fromkeys(parts):  # (in order: the marks number as they come)
            seen[part] = seen.get(part, 0) + 1
    marks: dict[str, str] = {}
    for part, n in seen.items():
        if n >= SAID_ONCE_ROWS and not part.endswith(LIST_ASSUMED) and len(part) > 40:
            marks[part] = f"[{len(marks) + 1}]"
    assumed, total = 0, sum(row.games for row in rows)
    out: list[list[str]] = []
    for row, cell, parts in zip(rows, cells, parts_of, strict=True):
        short = []
        for part in parts:
            if part.endswith(LIST_ASSUMED):
                n, games = row.list_assumed_games, row.games
                assumed += n
                short.append("list assumed" if n == games else f"list assumed: {n} of {games}")
            else:
                short.append(marks.get(part, part))
        out.append([*cell[:-1], "; ".join(short)])
    legend = [f"{mark} {part}" for part, mark in marks.items()]
    if assumed:
        legend.append(
            Said(
                f"list assumed: {_of_the(assumed, total)} shown "
                f"{'has' if assumed == 1 else 'have'} no time control: put on this list ",
                LIST_ASSUMED_HOW,
                ".",
            )
        )
    return out, legend


def not_counted_text(row: PeriodRow) -> str:
    """ "not counted: 3 (tie-break (by the name) 2, online 1)", "not counted: 2 (online)",
    or ""."""
    counts = not_counted_counts(row)
    if not counts:
        return ""
    total = sum(n for _, n in counts)
    if len(counts) == 1:
        return f"not counted: {total} ({counts[0][0]})"
    return f"not counted: {total} ({', '.join(f'{label} {n}' for label, n in counts)})"


def _of_the(part: int, whole: int) -> str:
    """ "3 of the 27 games", "the game", "all 27 games"."""
    if part == whole:
        return "the game" if whole == 1 else f"all {whole} games"
    return f"{part} of the {plural(whole, 'game')}"


@dataclass(frozen=True)
class AssumedItem:
    """A fact K rested on that nobody recorded: what the replay took, and the command that
    records it (the player named)."""

    fact: PlayerFact
    assumed: str
    command: str


@dataclass(frozen=True)
class NotCountedItem:
    """How many of a period's games did not count for one reason (its label)."""

    reason: str
    games: int


@dataclass(frozen=True)
class HistoryRow:
    """One period of the history: the values of HISTORY_COLUMNS (`history_json` gives
    them as JSON and CSV write them, in that order)."""

    period: Period
    rating_list: RatingList
    rating_before: int | None
    games: int
    points: Fraction
    expected: Decimal | None
    k: int | None
    change_exact: Decimal | None
    change: int | None
    rating_after: int | None
    official_rating: int | None
    difference: int | None
    note: str
    elo_tag: int | None
    tag_difference: int | None
    published: int | None
    source: RatingSource
    before_official: bool
    assumptions: tuple[AssumedItem, ...]
    list_assumed_games: int
    not_counted: tuple[NotCountedItem, ...]
    period_assumed: tuple[ClosingDate, ...]
    opponents_from_lists: int

    @property
    def start(self) -> bool:
        """The start row (an official rating, no games): its difference is 0."""
        return self.rating_before is None and self.change is None and not self.games


def history_json(r: HistoryRow) -> dict[str, Any]:
    """A history row as `--format json` writes it and CSV reads it (the keys of
    HISTORY_COLUMNS, in that order; docs/export.md)."""
    return {
        "period": str(r.period),
        "list": str(r.rating_list),
        "rating_before": r.rating_before,
        "games": r.games,
        "points": json_points(r.points),
        "expected": None if r.expected is None else str(r.expected),
        "k": r.k,
        "change_exact": None if r.change_exact is None else str(r.change_exact),
        "change": r.change,
        "rating_after": r.rating_after,
        "official_rating": r.official_rating,
        "difference": r.difference,
        "note": r.note,
        "elo_tag": r.elo_tag,
        "tag_difference": r.tag_difference,
        "published": r.published,
        "source": published_word(r.source),
        "before_official": r.before_official,
        "assumptions": [
            {"fact": str(a.fact), "assumed": a.assumed, "command": a.command} for a in r.assumptions
        ],
        "list_assumed_games": r.list_assumed_games,
        "not_counted": [{"reason": n.reason, "games": n.games} for n in r.not_counted],
        "period_assumed": [closing_json(c) for c in r.period_assumed],
        "opponents_from_lists": r.opponents_from_lists,
    }


def history_row(
    row: PeriodRow, player: PlayerRef | None = None, *, first: bool = False
) -> HistoryRow:
    """One period's row of the history; the `first` row of a list's replay says in its
    note where the rating it starts from came from."""
    start_row = row.rating_before is None and row.out is None and row.first is None
    after = row.published if start_row else row.replayed
    return HistoryRow(
        period=row.period,
        rating_list=row.rating_list,
        rating_before=row.rating_before,
        games=row.games,
        points=row.points,
        expected=row.expected,
        k=row.k,
        change_exact=row.change_exact,
        change=row.change,
        rating_after=after,
        official_rating=row.official_rating,
        # rating_after - official_rating when both are known (docs/export.md): on the start
        # row too, where the rating after is the official one (0)
        difference=(
            None if after is None or row.official_rating is None else after - row.official_rating
        ),
        note=row_note(row, player, first=first),
        elo_tag=row.elo_tag,
        tag_difference=row.tag_difference,
        published=row.published,
        source=row.source,
        before_official=row.before_official,
        assumptions=tuple(
            AssumedItem(a.fact, assumed_text(a), assumption_command(a, player))
            for a in row.assumptions
        ),
        list_assumed_games=list_assumed_games(row),
        not_counted=tuple(NotCountedItem(label, n) for label, n in not_counted_counts(row)),
        period_assumed=tuple(closing_dates(row)),
        opponents_from_lists=sum(
            1
            for p in row.tournaments
            for g in counted_games(p, row)
            if g.opponent_rating_source is not RatingSource.ELO_TAG
        ),
    )


def history_rows(
    replay_: Replay,
    since: Period | None = None,
    until: Period | None = None,
    player: PlayerRef | None = None,
) -> list[HistoryRow]:
    return [
        history_row(r, player, first=i == 0)
        for i, r in enumerate(replay_.rows)
        if (since is None or r.period >= since) and (until is None or r.period <= until)
    ]


HISTORY_OPTIONAL = (6, 4)
"""The history table's columns left out first where the terminal is too narrow: the exact
change (the rounded one stays) and the expected score."""


def history_table(rows: Sequence[HistoryRow]) -> tuple[list[str], list[list[str]]]:
    """Headers and text cells of the history table."""
    headers = [
        "Period",
        "Before",
        "Games",
        "Points",
        "Expected",
        "K",
        "Change (exact)",
        "Change",
        "After",
        "Official",
        "Diff",
        "Tag",
        "Note",
    ]
    cells = []
    for r in rows:
        # The start row's official rating is compared with itself (CSV and JSON say 0): the
        # table leaves it blank, its note says "start: official rating".
        cells.append(
            [
                str(r.period),
                fmt_int(r.rating_before),
                str(r.games or ""),
                fmt_points(r.points) if r.games else "",
                "" if r.expected is None else str(r.expected),
                fmt_int(r.k),
                fmt_signed(r.change_exact) if r.change_exact is not None else "",
                fmt_signed(r.change),
                fmt_int(r.rating_after),
                fmt_int(r.official_rating),
                "" if r.start else fmt_signed(r.difference),
                fmt_int(r.elo_tag),
                r.note,
            ]
        )
    return headers, cells


@dataclass(frozen=True)
class Season:
    """A list's replay summed up: the rated games, points, Rp over all of them, the rating
    at the start and at the end, the change the periods' games made (the sum of their
    rounded changes) and what the re-anchors on official ratings and Elo tags added in
    between (start + games + re-anchors = end), and where the opponents' ratings came
    from (FIDE's lists or the organisers' Elo tags)."""

    rating_list: RatingList
    first: Period
    last: Period
    games: int
    points: Fraction
    performance: int | None
    change: int
    start: int | None = None  # the rating before the first period (None: unrated)
    end: int | None = None  # the rating after the last period
    from_lists: int = 0  # counted games whose opponent's rating is the list's
    from_tags: int = 0  # ... the Elo tag's
    # the lists in force at the start of the counted tournaments (spec section 1, rule 2:
    # the opponents' ratings are theirs), and the lists of this list imported
    in_force: tuple[Period, ...] = ()
    imported: tuple[Period, ...] = ()

    @property
    def reanchored(self) -> int:
        """What the re-anchors between the first and the last period added."""
        if self.start is None or self.end is None:
            return 0
        return self.end - self.start - self.change


def season_summary(
    replay_: Replay, since: Period | None = None, until: Period | None = None
) -> Season | None:
    rows = [
        r
        for r in replay_.rows
        if (since is None or r.period >= since) and (until is None or r.period <= until) and r.games
    ]
    if not rows:
        return None
    opponents: list[int] = []
    points = Fraction(0)
    listed = tagged = 0
    in_force: set[Period] = set()
    for r in rows:
        for plan in r.tournaments:
            force = list_in_force(unit_start(plan.unit), replay_.rating_list)
            if force is not None and plan.counted:
                in_force.add(force)
            ratings, scored = counted_results(plan, r)
            opponents += ratings
            points += scored
            for g in counted_games(plan, r):
                if g.opponent_rating_source is RatingSource.ELO_TAG:
                    tagged += 1
                else:
                    listed += 1
    rp = performance_rating(opponents, points) if opponents else None
    change = sum(r.change or 0 for r in rows)
    return Season(
        replay_.rating_list,
        rows[0].period,
        rows[-1].period,
        len(opponents),
        points,
        rp,
        change,
        rows[0].rating_before,
        rows[-1].replayed,
        listed,
        tagged,
        tuple(sorted(in_force)),
        tuple(sorted(replay_.list_kinds)),
    )


def unplaced_lines(replay_: Replay) -> list[str]:
    """The tournaments whose games are in no period (no usable date, or one after the last
    list replayed), each with the command that places it; the games before the replayed era
    summed up in one line."""
    undated: dict[int, tuple[str, int]] = {}
    by_year: dict[int, dict[int, str]] = {}  # year: the tournaments dated only by it
    year_games: dict[int, int] = {}
    late: dict[int, tuple[str, int, str]] = {}
    early = 0
    for n in replay_.unplaced:
        tid = n.game.tournament_id
        if n.why is NotCountedWhy.ONLY_YEAR and isinstance(n.detail, Unplaced):
            year = n.detail.year or 0
            by_year.setdefault(year, {})[tid] = n.tournament
            year_games[year] = year_games.get(year, 0) + 1
        elif n.why is NotCountedWhy.EXCLUDED:
            continue  # the user set it aside
        elif n.why is NotCountedWhy.NO_DATE:
            label, count = undated.get(tid, (n.tournament, 0))
            undated[tid] = (label, count + 1)
        elif n.why is NotCountedWhy.TOO_LATE:
            label, count, why = late.get(tid, (n.tournament, 0, why_text(n)))
            late[tid] = (label, count + 1, why)
        else:
            early += 1
    lines: list[str] = [
        f"In no period: {label} ({plural(count, 'game')}, no date): "
        + words.command(PinPeriod(tid))
        for tid, (label, count) in sorted(undated.items())
    ]
    lines += [
        f"In no period: {words.only_year(year)}: {plural(len(ts), 'tournament')}, "
        f"{plural(year_games[year], 'game')} ({words.some_names(list(ts.values()))}): "
        + words.year_commands(year)
        for year, ts in sorted(by_year.items())
    ]
    lines += [
        f"In no period: {label} ({plural(count, 'game')}): {why}"
        for _, (label, count, why) in sorted(late.items())
    ]
    if early:
        lines.append(
            f"Not replayed: {plural(early, 'game')} before the first "
            f"{replay_.rating_list} list the tracker replays"
        )
    return lines


def season_line(season: Season) -> str:
    """The season in one line that adds up: start, end and the change between them, split
    into what the games made and what the re-anchors added."""
    span = str(season.first) if season.first == season.last else f"{season.first} to {season.last}"
    rp = "" if season.performance is None else f", performance {season.performance}"
    games = fmt_signed(season.change) or "0"
    if season.start is not None and season.end is not None:
        total = fmt_signed(season.end - season.start) or "0"
        moved = f"{season.start} -> {season.end} ({total}"
        moved += (
            f": {games} from games, {fmt_signed(season.reanchored)} from re-anchors)"
            if season.reanchored
            else ")"
        )
    elif season.end is not None:
        moved = f"unrated -> {season.end}"
    else:
        moved = f"games {games}"
    return (
        f"Season {span} ({season.rating_list}): {plural(season.games, 'rated game')}, "
        f"{plural_points(season.points)}{rp}; {moved}"
    )


def ratings_line(season: Season) -> str:
    """Where the opponents' ratings came from: FIDE's lists, the organisers' Elo tags."""
    if not season.from_lists:
        return "Opponents' ratings: Elo tags (" + _no_list_why(season) + ")"
    if not season.from_tags:
        return f"Opponents' ratings: FIDE's lists, all {plural(season.from_lists, 'game')}"
    return (
        f"Opponents' ratings: FIDE's lists {season.from_lists}, Elo tags "
        f"{season.from_tags} (not on an imported list)"
    )


def _lists_text(periods: Sequence[Period]) -> str:
    """Lists named by their months: "2011-03", "2011-03, 2011-05", "2008-04 to 2020-11,
    75 lists"."""
    if len(periods) <= 3:
        return ", ".join(str(p) for p in periods)
    return f"{periods[0]} to {periods[-1]}, {len(periods)} lists"


def _no_list_why(season: Season) -> Said:
    """Why no opponent's rating came from FIDE's lists: none imported; none imported in
    force for these games (and which would be); or those in force name no opponent."""
    if not season.imported:
        return Said("no FIDE list imported: ", command_line("official", "import"))
    used = sorted(set(season.imported) & set(season.in_force))
    if used:
        one = len(used) == 1
        return Said(
            f"the imported {season.rating_list} {'list' if one else 'lists'} in force for "
            f"these games ({_lists_text(used)}) {'names' if one else 'name'} none of the "
            "opponents"
        )
    return Said(
        f"no {season.rating_list} list imported is in force for these games: imported "
        f"{_lists_text(season.imported)}; in force {_lists_text(season.in_force)}: ",
        command_line("official", "fetch"),
    )


def no_periods_text(rating_list: RatingList, name: str) -> str:
    """What `history` says of a player with nothing on the list yet."""
    return (
        f"No {rating_list} rating periods for {name} yet: import games with "
        f"{command_line('import').quoted()} or record an official rating with "
        f"{command_line('official', 'add').quoted()}."
    )


def unplaced_head(rating_list: RatingList, name: str) -> str:
    """The line above `unplaced_lines` when the player has games but no replayed period."""
    return f"No {rating_list} rating periods for {name}:"


def history_title(name: str, rating_list: RatingList) -> str:
    """The title of `history`'s table."""
    return f"{name}: {rating_list} rating history"


def ahead_line(period: Period, ahead: str) -> str:
    """The line of `history` on a last period far in the future (`ahead`: future_text's)."""
    return f"The {period} list is {ahead}"
