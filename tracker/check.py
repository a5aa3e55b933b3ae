"""Check the replay against FIDE's official lists, and say why a number differs.

`reconcile(inputs)` replays one list for one player (tracker.periods.replay) and, for every
period with an official entry, compares the replayed rating with the official one. For every
difference it ranks the likely causes, from what the data shows, by re-computing the period
under each hypothesis and keeping those that reproduce FIDE's number:

- games missing: FIDE rated more games than the replay; a tournament the replay put on a
  neighbouring list, pinned here, reproduces the list (verified by re-running the replay
  with the pin), or the games are not in the database;
- games extra: FIDE rated fewer games; a tournament was rated on another list (a late
  report): the exact `tracker event set ID --period YYYY-MM` that pins it, verified by
  re-running the replay with that pin (or `--exclude` when it was never rated);
- K differs: another K reproduces the list, and why (junior, 30 games, 2400, 700 rule);
- rounding: rounding per tournament instead of once per period reproduces the list;
- a one-point base correction: FIDE started the period one point off the published list;
- an unrated opponent counted or not;
- the cap or the 2650 rule: another treatment of |D| above the cap reproduces the list;
- the Ro FIDE used: the player's own Elo tag, when it differs from the list in force;
- a pre-2008 era that is not replayed.

Causes are ranked by evidence: one that reproduces the official rating (and game count)
exactly comes first; ties follow `CAUSE_ORDER`. Where the replay re-anchors at the official
rating and the later periods then match, the row says so.

Everything here is pure (the replay and the engine over plain values); `check_player`
gathers a player's facts from the store.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from decimal import Decimal

from tracker.fide import (
    GameIn,
    GameOut,
    PeriodOut,
    TournamentIn,
    edition_for,
    expected_score,
    one_off_adjustment,
    rate_period,
    round_change,
)
from tracker.fide.editions import KScheme
from tracker.fide.rounding import to_decimal
from tracker.model import OfficialEntry, Period, PlayerRef, RatingList
from tracker.periods import (
    REPLAY_FROM,
    GameFact,
    PeriodRow,
    PlayerInfo,
    Replay,
    ReplayInputs,
    TournamentFact,
    next_list,
    previous_list,
    replay,
)
from tracker.store import Store, open_store
from tracker.store.history import (
    facts_of_players,
    games_of,
    official_of_players,
    players_by_name,
    players_with_ratings,
    tournaments_of,
)
from tracker.store.official import entries_for
from tracker.store.players import get_player

# Stable words for the kinds of cause (JSON `kind`), in the order ties are ranked.
PRE_2008 = "pre-2008"
GAMES_EXTRA = "games-extra"
GAMES_MISSING = "games-missing"
K_DIFFERS = "k"
UNRATED_OPPONENT = "unrated-opponent"
CAP = "cap"
ELO_TAG = "elo-tag"
BASE_CORRECTION = "base-correction"
ROUNDING = "rounding"
NOT_IN_DATABASE = "not-in-database"
UNEXPLAINED = "unexplained"
CAUSE_ORDER = (PRE_2008, GAMES_EXTRA, GAMES_MISSING, K_DIFFERS, UNRATED_OPPONENT, CAP, ELO_TAG,
               BASE_CORRECTION, ROUNDING, NOT_IN_DATABASE, UNEXPLAINED)

# Row statuses.
MATCH = "match"
DIFFERS = "differs"
START = "start"

NEIGHBOUR_LISTS = 3  # a late report slips one to three lists (spec section 1)
CAP_MODES = ("every game", "once per tournament", "no cap", "cap 350")
PIN_SUBSETS = 2  # try single tournaments, then pairs
MAX_COMBOS = 24  # tournament sets tried per difference (each costs a replay or several)


@dataclass(frozen=True)
class Cause:
    """One likely cause of a difference."""

    kind: str  # one of CAUSE_ORDER
    text: str
    reproduces: bool  # re-computing under this cause gives exactly the official rating
    games_match: bool = False  # ... and the official game count
    command: str | None = None  # what the user can run to record it

    def rank_key(self) -> tuple[int, int]:
        evidence = 4 * self.reproduces + 2 * self.games_match
        return (-evidence, CAUSE_ORDER.index(self.kind))


@dataclass(frozen=True)
class CheckRow:
    """One period with an official entry: replayed vs official, and why they differ."""

    period: Period
    rating_list: RatingList
    replayed: int | None
    official: int | None
    games: int
    official_games: int | None
    k: int | None  # K the replay used
    official_k: int | None  # K published on the previous list (what FIDE used), if known
    status: str  # match, differs, start
    causes: tuple[Cause, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def difference(self) -> int | None:
        """Replayed minus official (as `tracker history` shows it)."""
        if self.replayed is None or self.official is None:
            return None
        return self.replayed - self.official

    def to_json(self) -> dict[str, object]:
        return {
            "period": str(self.period),
            "list": str(self.rating_list),
            "replayed": self.replayed,
            "official": self.official,
            "difference": self.difference,
            "games": self.games,
            "official_games": self.official_games,
            "k": self.k,
            "official_k": self.official_k,
            "status": self.status,
            "causes": [
                {"kind": c.kind, "text": c.text, "reproduces": c.reproduces,
                 "games_match": c.games_match, "command": c.command}
                for c in self.causes
            ],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class CheckReport:
    """The check of one player on one list."""

    player: str
    rating_list: RatingList
    rows: tuple[CheckRow, ...]
    start: str  # where the replay starts ("official 2025-09", "unrated", ...)
    notes: tuple[str, ...] = ()

    @property
    def compared(self) -> tuple[CheckRow, ...]:
        return tuple(r for r in self.rows if r.status != START)

    @property
    def differences(self) -> tuple[CheckRow, ...]:
        return tuple(r for r in self.rows if r.status == DIFFERS)

    @property
    def all_match(self) -> bool:
        return not self.differences

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "list": str(self.rating_list),
            "start": self.start,
            "all_match": self.all_match,
            "compared": len(self.compared),
            "differences": len(self.differences),
            "rows": [r.to_json() for r in self.rows],
            "notes": list(self.notes),
        }


# --- reconcile -----------------------------------------------------------------------------


def reconcile(inputs: ReplayInputs, *, player: str = "", analyse: bool = True,
              replayed: Replay | None = None) -> CheckReport:
    """Replay `inputs` and compare every period that has an official entry (`replayed`: the
    replay of `inputs` when the caller has it already)."""
    base = replay(inputs) if replayed is None else replayed
    ctx = _Ctx(inputs, base)
    rows: list[CheckRow] = []
    for row in base.rows:
        entry = row.official
        if entry is None:
            continue
        if _is_start(base, row):
            rows.append(_row(row, entry, START, (), ("the replay starts from this rating",)))
            continue
        if _rating_matches(row, entry):
            rows.append(_row(row, entry, MATCH, (), _elo_notes(row)))
            continue
        causes = likely_causes(ctx, row) if analyse else ()
        rows.append(_row(row, entry, DIFFERS, causes, _elo_notes(row)))
    rows = _reanchor_notes(rows)
    notes: list[str] = []
    pre = [nc for nc in base.unplaced if "2008" in nc.reason]
    if pre:
        notes.append(f"{len(pre)} games before 2008 are not replayed (FIDE rated by tournament "
                     "averages then)")
    return CheckReport(player, inputs.rating_list, tuple(rows), base.start_source, tuple(notes))


def _is_start(base: Replay, row: PeriodRow) -> bool:
    return row.period == base.start and row.out is None and row.rating_before is None and (
        row.first is None)


def _rating_matches(row: PeriodRow, entry: OfficialEntry) -> bool:
    return row.replayed == entry.rating


def _fixed(rep: Replay, period: Period, entry: OfficialEntry) -> bool:
    """Whether `rep` reproduces the official entry (rating, and game count when known)."""
    row = rep.row(period)
    if row is None:
        return False
    games_ok = entry.games is None or row.games == entry.games
    return row.replayed == entry.rating and games_ok


def _row(row: PeriodRow, entry: OfficialEntry, status: str, causes: Sequence[Cause],
         notes: Sequence[str]) -> CheckRow:
    return CheckRow(
        period=row.period, rating_list=row.rating_list, replayed=row.replayed,
        official=entry.rating, games=row.games, official_games=entry.games, k=row.k,
        official_k=row.facts.official_k, status=status,
        causes=tuple(sorted(causes, key=Cause.rank_key)), notes=tuple(notes),
    )


def _elo_notes(row: PeriodRow) -> tuple[str, ...]:
    return tuple(f"{p.unit.label}: {p.note}" for p in row.tournaments if p.note)


def _reanchor_notes(rows: list[CheckRow]) -> list[CheckRow]:
    out: list[CheckRow] = []
    for i, r in enumerate(rows):
        later = [x for x in rows[i + 1:] if x.status != START]
        if r.status == DIFFERS and r.official is not None and later:
            if all(x.status == MATCH for x in later):
                n = len(later)
                rest = (f"the {n} later periods checked match" if n > 1 else
                        "the later period checked matches")
                note = f"re-anchoring at the official {r.official} makes the rest match: {rest}"
            elif later[0].status == MATCH:
                note = (f"re-anchoring at the official {r.official} makes the next period "
                        f"({later[0].period}) match")
            else:
                note = ""
            if note:
                r = replace(r, notes=(*r.notes, note))
        out.append(r)
    return out


# --- cause analysis ------------------------------------------------------------------------


@dataclass
class _Ctx:
    inputs: ReplayInputs
    base: Replay
    official: dict[Period, OfficialEntry] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.official = {e.period: e for e in self.inputs.official
                         if e.list == self.inputs.rating_list}

    @property
    def rating_list(self) -> RatingList:
        return self.inputs.rating_list

    def rerun(self, tournaments: Iterable[TournamentFact] = (),
              games: Iterable[GameFact] = ()) -> Replay:
        """The replay again, with some tournaments' facts (overrides) or games replaced."""
        t_new = {t.id: t for t in tournaments}
        g_new = {g.id: g for g in games}
        known = {t.id for t in self.inputs.tournaments}
        ts = [t_new.get(t.id, t) for t in self.inputs.tournaments]
        ts += [t for tid, t in t_new.items() if tid not in known]
        gs = [g_new.get(g.id, g) for g in self.inputs.games]
        return replay(replace(self.inputs, tournaments=ts, games=gs))

    def tournament(self, tid: int) -> TournamentFact:
        for t in self.inputs.tournaments:
            if t.id == tid:
                return t
        return TournamentFact(id=tid, name=f"tournament {tid}")

    def neighbours(self, period: Period) -> list[Period]:
        """The lists around `period` a late (or early) report could land on."""
        found: list[Period] = []
        p = period
        for _ in range(NEIGHBOUR_LISTS):
            p = next_list(p, self.rating_list)
            found.append(p)
        q: Period | None = period
        for _ in range(NEIGHBOUR_LISTS):
            q = previous_list(q, self.rating_list) if q is not None else None
            if q is None:
                break
            found.append(q)
        return found


def likely_causes(ctx: _Ctx, row: PeriodRow) -> list[Cause]:
    """The likely causes of the difference in `row`, ranked (best first)."""
    entry = row.official
    assert entry is not None
    if row.period.list_date < REPLAY_FROM:
        return [_pre_2008(ctx, row, entry)]
    causes: list[Cause] = []
    ours = row.games
    theirs = entry.games
    if theirs is not None and theirs > ours:
        causes += _games_missing(ctx, row, entry, theirs - ours)
    elif theirs is not None and theirs < ours:
        causes += _games_extra(ctx, row, entry, ours - theirs)
    if row.out is not None and row.rating_before is not None:
        causes += _k_differs(row, entry)
        causes += _cap(row, entry)
        causes += _rounding(row, entry)
    causes += _elo_tag(ctx, row, entry)
    causes += _base_correction(row, entry)
    if not any(c.reproduces for c in causes):
        causes.append(Cause(
            UNEXPLAINED,
            f"no single cause reproduces the official {_r(entry.rating)}: compare with "
            f"FIDE's calculation page for {row.period} (`tracker explain {row.period}` shows "
            "the replay's); `tracker event set ID --ro R` records the Ro FIDE used",
            reproduces=False,
        ))
    return sorted(causes, key=Cause.rank_key)


def _r(rating: int | None) -> str:
    return "unrated" if rating is None else str(rating)


def _pre_2008(ctx: _Ctx, row: PeriodRow, entry: OfficialEntry) -> Cause:
    unplaced = [nc for nc in ctx.base.unplaced if "2008" in nc.reason]
    extra = f" ({len(unplaced)} games before 2008 are not replayed)" if unplaced else ""
    return Cause(
        PRE_2008,
        f"the {row.period} list is before 2008, when FIDE rated by tournament averages: the "
        f"tracker does not replay that era{extra}; it re-anchors at the official "
        f"{_r(entry.rating)}",
        reproduces=False,
    )


def _plans_with_counts(row: PeriodRow) -> list[tuple[int, str, int]]:
    """(tournament id, name, games counted by the engine) for each tournament of `row`."""
    counts: list[tuple[int, str, int]] = []
    outs = row.out.tournaments if row.out is not None else ()
    for i, plan in enumerate(row.tournaments):
        if i < len(outs) and outs[i].label == plan.unit.label:
            n = outs[i].games_counted
        else:
            n = len(plan.counted)
        counts.append((plan.unit.tournament.id, plan.unit.label, n))
    return counts


def _subsets(items: Sequence[tuple[int, str, int]], total: int
             ) -> Iterator[tuple[tuple[int, str, int], ...]]:
    tried = 0
    for size in range(1, PIN_SUBSETS + 1):
        for combo in itertools.combinations(items, size):
            if sum(c[2] for c in combo) == total:
                tried += 1
                yield combo
                if tried >= MAX_COMBOS:
                    return
        if tried:
            return


def _names(combo: Sequence[tuple[int, str, int]]) -> str:
    return " and ".join(f"{name} (id {tid}, {n} games)" for tid, name, n in combo)


def _commands(combo: Sequence[tuple[int, str, int]], period: Period) -> str:
    return "; ".join(f"tracker event set {tid} --period {period}" for tid, _, _ in combo)


def _pin(ctx: _Ctx, combo: Sequence[tuple[int, str, int]], period: Period | None,
         exclude: bool = False) -> Replay:
    changed = []
    for tid, _, _ in combo:
        t = ctx.tournament(tid)
        changed.append(replace(t, excluded=True) if exclude else replace(t, pinned_period=period))
    return ctx.rerun(tournaments=changed)


def _games_missing(ctx: _Ctx, row: PeriodRow, entry: OfficialEntry, missing: int
                   ) -> list[Cause]:
    causes: list[Cause] = []
    here = row.period
    candidates: list[tuple[int, str, int]] = []
    origin: dict[int, Period] = {}
    for p in ctx.neighbours(here):
        other = ctx.base.row(p)
        if other is None:
            continue
        ends = {plan.unit.tournament.id: plan.unit.end for plan in other.tournaments}
        for item in _plans_with_counts(other):
            end = ends.get(item[0])
            if item[2] > 0 and (end is None or end < here.list_date):  # over before the list
                candidates.append(item)
                origin[item[0]] = p
    for combo in _subsets(candidates, missing):
        rep = _pin(ctx, combo, here)
        ok_here = _fixed(rep, here, entry)
        where = sorted({origin[c[0]] for c in combo})
        verified = [p for p in where if p in ctx.official and _fixed(rep, p, ctx.official[p])]
        broken = [p for p in where if p in ctx.official and not _fixed(rep, p, ctx.official[p])]
        got = rep.row(here)
        text = (f"games missing: FIDE rated {entry.games} games on the {here} list, the replay "
                f"{row.games}: {_names(combo)}, which the replay rated on the "
                f"{', '.join(str(p) for p in where)} list, probably landed here; ")
        if ok_here:
            text += (f"re-running the replay with that pin gives {_r(entry.rating)} for {here}")
            if verified:
                text += f" and matches {', '.join(str(p) for p in verified)} too"
            if broken:
                text += f" (but {', '.join(str(p) for p in broken)} would then differ)"
        else:
            text += (f"re-running the replay with that pin gives "
                     f"{_r(got.replayed if got else None)} for {here}, not {_r(entry.rating)}")
        causes.append(Cause(GAMES_MISSING, text, reproduces=ok_here and not broken,
                            games_match=_games_ok(rep, here, entry),
                            command=_commands(combo, here)))
    causes = _drop_disproved(causes)
    causes += _unrated_counted_by_fide(row, entry, missing)
    if not any(c.reproduces for c in causes):
        not_counted = [nc for nc in row.not_counted]
        hint = ""
        if not_counted and len(not_counted) >= missing:
            reasons = sorted({nc.reason for nc in not_counted})
            hint = (f"; the replay did not count {len(not_counted)} game(s) of this period "
                    f"({', '.join(reasons)}): FIDE may have")
        causes.append(Cause(
            NOT_IN_DATABASE,
            f"games missing: FIDE rated {entry.games} games on the {here} list, the replay "
            f"{row.games}: {missing} game(s) are probably not in the database; import the "
            f"missing tournament's PGN (`tracker import FILE`){hint}",
            reproduces=False, games_match=False,
        ))
    return causes


def _games_ok(rep: Replay, period: Period, entry: OfficialEntry) -> bool:
    row = rep.row(period)
    return row is not None and entry.games is not None and row.games == entry.games


def _unrated_counted_by_fide(row: PeriodRow, entry: OfficialEntry, missing: int
                             ) -> list[Cause]:
    unrated = [(t.label, g.label) for t in (row.out.tournaments if row.out else ())
               for g in t.games if not g.counted and g.reason == "unrated-opponent"]
    unrated += [(nc.tournament, nc.game.opponent) for nc in row.not_counted
                if nc.reason == "unrated-opponent"]
    if not unrated or len(unrated) != missing:
        return []
    names = ", ".join(sorted({opp for _, opp in unrated}))
    return [Cause(
        UNRATED_OPPONENT,
        f"an unrated opponent counted: FIDE rated {entry.games} games, the replay {row.games} "
        f"because it did not count {len(unrated)} game(s) against {names} (no rating in the "
        "PGN); FIDE probably had a rating for them: put it in the game's Elo tag and re-import",
        reproduces=False, games_match=True,
    )]


def _games_extra(ctx: _Ctx, row: PeriodRow, entry: OfficialEntry, extra: int) -> list[Cause]:
    causes: list[Cause] = []
    here = row.period
    items = [i for i in _plans_with_counts(row) if i[2] > 0]
    ends = {p.unit.tournament.id: p.unit.end for p in row.tournaments}
    for combo in _subsets(items, extra):
        best: Cause | None = None
        last = max((e for c in combo if (e := ends.get(c[0])) is not None), default=None)
        for target in ctx.neighbours(here):
            if last is not None and target.list_date <= last:
                continue  # a list cannot rate a tournament that was not over
            if ctx.base.start is not None and target <= ctx.base.start:
                continue  # inside the starting official rating: nothing to confirm
            rep = _pin(ctx, combo, target)
            if not _fixed(rep, here, entry):
                continue
            there = ctx.official.get(target)
            if there is not None and there.rating is not None:
                if not _fixed(rep, target, there):
                    continue
                check = f" and {_r(there.rating)} for {target}, as published"
            else:
                check = f" (no official entry for {target} to confirm it)"
            cause = Cause(
                GAMES_EXTRA,
                f"games extra: FIDE rated {entry.games} games on the {here} list, the replay "
                f"{row.games}: {_names(combo)} was probably rated on the {target} list "
                f"({_why_there(target, here)}); re-running the replay with that pin gives "
                f"{_r(entry.rating)} for {here}{check}",
                reproduces=True, games_match=True, command=_commands(combo, target),
            )
            if there is not None:
                best = cause
                break
            best = best or cause
        if best is None:
            rep = _pin(ctx, combo, None, exclude=True)
            if _fixed(rep, here, entry):
                best = Cause(
                    GAMES_EXTRA,
                    f"games extra: FIDE rated {entry.games} games on the {here} list, the "
                    f"replay {row.games}: {_names(combo)} was probably not rated at all (no "
                    f"neighbouring list takes it); excluding it gives {_r(entry.rating)}",
                    reproduces=True, games_match=True,
                    command="; ".join(f"tracker event set {tid} --exclude"
                                      for tid, _, _ in combo),
                )
        if best is None:
            best = Cause(
                GAMES_EXTRA,
                f"games extra: FIDE rated {entry.games} games on the {here} list, the replay "
                f"{row.games}: {_names(combo)} may have been rated on another list, but "
                "re-running the replay with it moved does not reproduce the official rating",
                reproduces=False, games_match=True,
                command=_commands(combo, next_list(here, ctx.rating_list)),
            )
        causes.append(best)
    causes = _drop_disproved(causes)
    causes += _unrated_for_fide(ctx, row, entry, extra)
    return causes


def _drop_disproved(causes: list[Cause]) -> list[Cause]:
    """When one tournament's move reproduces the list, the moves that do not are disproved."""
    if any(c.reproduces for c in causes):
        return [c for c in causes if c.reproduces]
    return causes


def _why_there(target: Period, here: Period) -> str:
    if target > here:
        return "a late report"
    return "it reached FIDE before that list closed"


def _unrated_for_fide(ctx: _Ctx, row: PeriodRow, entry: OfficialEntry, extra: int
                      ) -> list[Cause]:
    """Games against one opponent the replay counted but FIDE did not (unrated for FIDE)."""
    by_opp: dict[int, list[GameFact]] = {}
    for plan in row.tournaments:
        for g in plan.counted:
            if g.opponent_elo is not None:
                by_opp.setdefault(g.opponent_id, []).append(g)
    causes: list[Cause] = []
    for gs in by_opp.values():
        if len(gs) != extra:
            continue
        rep = ctx.rerun(games=[replace(g, opponent_elo=None) for g in gs])
        if not _fixed(rep, row.period, entry):
            continue
        opp = gs[0]
        causes.append(Cause(
            UNRATED_OPPONENT,
            f"an unrated opponent counted: the replay counted {len(gs)} game(s) against "
            f"{opp.opponent} (Elo {opp.opponent_elo} in the PGN), FIDE did not: "
            f"{opp.opponent} was probably unrated on FIDE's {ctx.rating_list} list (the tag "
            f"may be a national rating); without those games the replay gives "
            f"{_r(entry.rating)}",
            reproduces=True, games_match=True,
        ))
    return causes


def _tournaments_in(out: PeriodOut) -> list[TournamentIn]:
    return [
        TournamentIn(start=t.start, own_rating=t.own_rating, label=t.label,
                     games=tuple(GameIn(g.opponent_rating, g.score, g.label) for g in t.games))
        for t in out.tournaments
    ]


def _rate(row: PeriodRow, rating_before: int, tournaments: Sequence[TournamentIn],
          k: int | None = None) -> PeriodOut:
    return rate_period(rating_before, tournaments, rating_list=row.rating_list,
                       list_date=row.period.list_date, facts=row.facts, k=k)


def _after(row: PeriodRow, out: PeriodOut) -> int | None:
    """The rating published from a what-if `out`: after the list's one-off adjustment when
    the replay applied one to this period."""
    if out.rating_after is None or row.adjustment is None:
        return out.rating_after
    adj = one_off_adjustment(row.rating_list, row.period.list_date, out.rating_after)
    return adj[0] if adj else out.rating_after


def _k_differs(row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    """Another K (a rung of the edition's scheme, or a K cut by the 700 rule from one) that
    reproduces the official rating: the period change is K x the exact sum of changes."""
    out = row.out
    assert out is not None and row.rating_before is not None
    total = sum((t.change for t in out.tournaments), Decimal(0))
    causes: list[Cause] = []
    for k, why in _k_candidates(row):
        if k == out.k:
            continue
        rating: int | None = row.rating_before + round_change(Decimal(k) * total)
        if rating is not None and rating < out.floor:
            rating = None
        if rating is not None and row.adjustment is not None:
            adj = one_off_adjustment(row.rating_list, row.period.list_date, rating)
            rating = adj[0] if adj else rating
        if rating != entry.rating:
            continue
        causes.append(Cause(
            K_DIFFERS,
            f"K differs: FIDE's rating follows from K {k} ({k} x {total} = "
            f"{Decimal(k) * total} -> {rating}); the replay used K {out.k} "
            f"({out.k_reason}). {why}",
            reproduces=True, games_match=entry.games is None or entry.games == row.games,
            command=_k_command(k, out.k, row),
        ))
    official_k = entry.k
    if official_k is not None and row.facts.official_k is None and official_k != out.k_base:
        # The K printed on this list is what the player carries into the next period: say
        # when it disagrees with what the replay derived for this one (a hint, not proof).
        causes.append(Cause(
            K_DIFFERS,
            f"K differs: the {row.period} list prints K {official_k}, the replay derived "
            f"K {out.k_base} ({out.k_reason}) for this period. "
            + _k_why(official_k, out.k_base, row),
            reproduces=False,
            command=_k_command(official_k, out.k_base, row),
        ))
    return causes


def _k_candidates(row: PeriodRow) -> list[tuple[int, str]]:
    """(K, why FIDE may have used it) for every K worth trying in `row`'s period."""
    out = row.out
    assert out is not None
    e = edition_for(row.rating_list, row.period.list_date)
    n = out.games
    found: dict[int, str] = {}
    for k in _k_values(row):
        cut = 700 // n if n else k
        if e.rule_700 and k * n > 700:
            found.setdefault(cut, f"Why: the 700 rule: {n} games x {k} = {k * n} > 700 -> "
                                  f"K {cut}; " + _k_why(k, out.k_base, row))
            found.setdefault(k, f"Why: FIDE did not apply the 700 rule to K {k} here ({n} "
                                f"games); the replay did")
        else:
            found.setdefault(k, _k_why(k, out.k_base, row))
            if n and k * n > 700:
                found.setdefault(cut, f"Why: the 700 rule: {n} games x {k} = {k * n} > 700 "
                                      f"-> K {cut}; the replay's policy is that the rule "
                                      "came in Jul 2017 (UNSETTLED: 2014 or 2017), FIDE "
                                      "applied it here")
    return sorted(found.items(), key=lambda kv: -kv[0])


def _k_values(row: PeriodRow) -> list[int]:
    """The K values of the edition of the period's list (every rung of its scheme)."""
    e = edition_for(row.rating_list, row.period.list_date)
    if e.k_scheme is KScheme.FLAT:
        return [e.k_flat]
    return sorted({e.k_top, e.k_junior, e.k_new, e.k_mid}, reverse=True)


def _k_why(theirs: int, ours: int, row: PeriodRow) -> str:
    facts = row.facts
    if theirs == 10 and ours != 10:
        return ("Why: a published rating of 2400 or more on this list at some time gives K 10 "
                "for good; the replay does not know of one")
    if ours == 10 and theirs != 10:
        return ("Why: the replay believes 2400 was reached on this list (K 10 for good); FIDE "
                "does not: check the official entries and `--ever-2400`")
    if theirs == 40 and ours < 40:
        if facts.birth_year is None:
            return ("Why: a junior (K 40 while under 2300 to the end of the year of the 18th "
                    "birthday) or a player with fewer than 30 rated games; the birth year is "
                    "not recorded")
        return (f"Why: fewer than 30 rated games (the replay counts {facts.rated_games}) or a "
                f"junior (born {facts.birth_year}): check the birth year and the rated games")
    if ours == 40 and theirs < 40:
        born = f"born {facts.birth_year}" if facts.birth_year else "no birth year"
        return (f"Why: the replay took K 40 ({born}, {facts.rated_games} rated games "
                "counted); FIDE no longer did: the junior years are over or 30 games were "
                "reached earlier")
    if theirs in (25, 30, 15) or ours in (25, 30, 15):
        return "Why: an older edition's K scheme (25/15/10 or 30/15/10)"
    return "Why: the 700 rule or a K recorded on FIDE's side"


def _k_command(theirs: int, ours: int, row: PeriodRow) -> str | None:
    if theirs == 10:
        return "tracker player set PLAYER --ever-2400"
    if theirs == 40 and row.facts.birth_year is None:
        return "tracker player set PLAYER --birth-year YYYY"
    if theirs in (40, 20) and ours in (40, 20):
        return "tracker player set PLAYER --rated-games N"
    return None


def _cap(row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    out = row.out
    assert out is not None and row.rating_before is not None
    causes: list[Cause] = []
    for mode in CAP_MODES:
        total = Decimal(0)
        differs = False
        for t in out.tournaments:
            counted = [g for g in t.games if g.counted and g.difference is not None]
            once = _largest(counted) if mode == "once per tournament" else None
            for g in counted:
                assert g.difference is not None
                d = g.difference
                if mode == "every game" or (mode == "once per tournament" and g is once):
                    used = max(-400, min(400, d))
                elif mode == "cap 350":
                    used = max(-350, min(350, d))
                else:
                    used = d
                if used != g.difference_used:
                    differs = True
                total += to_decimal(g.score) - expected_score(used)
        if not differs:
            continue
        rating = row.rating_before + round_change(Decimal(out.k) * total)
        if rating < out.floor or rating != entry.rating:
            continue
        ros = [t.own_rating for t in out.tournaments if t.own_rating is not None]
        text = {
            "every game": "FIDE capped |D| at 400 in every game",
            "once per tournament": "FIDE capped |D| at 400 once per tournament (the 2022 "
                                   "rule: only the game with the largest difference)",
            "no cap": "FIDE used the true rating differences, without the 400 cap"
                      + (" (the 2650 rule: Ro 2650 or more)" if ros and max(ros) >= 2650
                         else ""),
            "cap 350": "FIDE capped |D| at 350 (the rule before Jul 2009)",
        }[mode]
        causes.append(Cause(
            CAP, f"the cap or the 2650 rule: {text}; that gives {rating}, the replay applied "
                 "the cap of the edition in force at each tournament's start",
            reproduces=True, games_match=entry.games is None or entry.games == row.games,
        ))
    return causes


def _largest(games: Sequence[GameOut]) -> GameOut | None:
    over = [g for g in games if g.difference is not None and abs(g.difference) > 400]
    if not over:
        return None
    return max(over, key=lambda g: (abs(g.difference or 0), g.difference or 0))


def _rounding(row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    out = row.out
    assert out is not None and row.rating_before is not None
    if len(out.tournaments) < 2:
        return []
    per = sum(round_change(t.k_change) for t in out.tournaments)
    rating = row.rating_before + per
    if per == out.change or rating != entry.rating:
        return []
    parts = " + ".join(f"{round_change(t.k_change)}" for t in out.tournaments)
    return [Cause(
        ROUNDING,
        f"rounding: rounding each tournament's change ({parts} = {per:+d}) instead of the "
        f"period's once ({out.change_exact} -> {out.change:+d}) gives {rating}; FIDE does "
        "this in rare periods",
        reproduces=True, games_match=entry.games is None or entry.games == row.games,
    )]


def _base_correction(row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    rb = row.rating_before
    if rb is None or entry.rating is None:
        return []
    causes: list[Cause] = []
    for delta in (-1, 1):
        base = rb + delta
        if row.out is None:
            rating: int | None = base
        else:
            tins = [replace(t, own_rating=base if t.own_rating == rb else t.own_rating)
                    for t in _tournaments_in(row.out)]
            rating = _after(row, _rate(row, base, tins, k=row.out.k_base))
        if rating != entry.rating:
            continue
        causes.append(Cause(
            BASE_CORRECTION,
            f"a one-point base correction: FIDE started the {row.period} period from {base}, "
            f"not the published {rb} (a silent correction FIDE sometimes makes); from {base} "
            f"the period gives {rating}. Nothing to fix: the replay re-anchors at the official "
            "rating",
            reproduces=True, games_match=entry.games is None or entry.games == row.games,
        ))
    return causes


def _elo_tag(ctx: _Ctx, row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    causes: list[Cause] = []
    for plan in row.tournaments:
        tag = plan.elo_tag
        if tag is None or plan.ro is None or tag == plan.ro:
            continue
        t = ctx.tournament(plan.unit.tournament.id)
        rep = ctx.rerun(tournaments=[replace(t, ro=tag)])
        ok = _fixed(rep, row.period, entry)
        got = rep.row(row.period)
        causes.append(Cause(
            ELO_TAG,
            f"the Ro FIDE used: {plan.unit.label} used Ro {plan.ro} ({plan.ro_source}) but "
            f"your Elo tag there says {tag}; with Ro {tag} the period gives "
            f"{_r(got.replayed if got else None)}",
            reproduces=ok, games_match=ok and entry.games is not None,
            command=f"tracker event set {t.id} --ro {tag}" if ok else None,
        ))
    return causes


# --- the store side ------------------------------------------------------------------------


def inputs_for(store: Store, player: PlayerRef | int, rating_lists: Sequence[RatingList],
               official: Sequence[OfficialEntry] | None = None
               ) -> dict[RatingList, ReplayInputs]:
    """The replay's facts for one player, one `ReplayInputs` per list, read once.

    Rapid and blitz take the published standard ratings (Oct 2022 raise, unrated seeds) from
    the standard replay, as `tracker history` does. `official`: the player's entries when the
    caller has read them already.
    """
    p = get_player(store, player) if isinstance(player, int) else player
    games = games_of(store, p.id)
    tournaments = tournaments_of(store, p.id)
    if official is None:
        official = entries_for(store, p.id)
    return _inputs(p, games, tournaments, official, rating_lists)[0]


def _inputs(p: PlayerRef, games: Sequence[GameFact], tournaments: Sequence[TournamentFact],
            official: Sequence[OfficialEntry], rating_lists: Sequence[RatingList]
            ) -> tuple[dict[RatingList, ReplayInputs], Replay | None]:
    """`inputs_for` over facts read already, and the standard replay when it was made (it
    is the replay of the standard inputs: the check need not make it again)."""
    info = PlayerInfo(p.birth_year, p.rated_games, p.ever_2400)
    out: dict[RatingList, ReplayInputs] = {}
    standard: dict[Period, int] = {}
    std: Replay | None = None
    if any(rl != RatingList.STANDARD for rl in rating_lists):
        std = replay(ReplayInputs(RatingList.STANDARD, games, tournaments, official, info))
        standard = {r.period: r.published for r in std.rows if r.published is not None}
    for rl in rating_lists:
        out[rl] = ReplayInputs(rl, games, tournaments, official, info,
                               standard_ratings=standard if rl != RatingList.STANDARD else {})
    return out, std


def _lists_in(entries: Iterable[OfficialEntry]) -> list[RatingList]:
    found = {e.list for e in entries if e.rating is not None}
    return [rl for rl in RatingList if rl in found]


def check_player(store: Store, player: PlayerRef | int, rating_lists: Sequence[RatingList] = (),
                 *, analyse: bool = True) -> list[CheckReport]:
    """Check one player on the given lists (default: every list with official ratings); a
    list without an official entry gives no report."""
    official = entries_for(store, player if isinstance(player, int) else player.id)
    lists = list(rating_lists) or _lists_in(official)
    if not lists or not _lists_in(official):
        return []
    p = get_player(store, player) if isinstance(player, int) else player
    inputs = _inputs(p, games_of(store, p.id), tournaments_of(store, p.id), official, lists)
    return _reconcile_lists(p, inputs, lists, analyse)


def _reconcile_lists(p: PlayerRef,
                     inputs: tuple[dict[RatingList, ReplayInputs], Replay | None],
                     lists: Sequence[RatingList], analyse: bool) -> list[CheckReport]:
    by_list, std = inputs
    reports = [reconcile(by_list[rl], player=p.name, analyse=analyse,
                         replayed=std if rl == RatingList.STANDARD else None) for rl in lists]
    return [r for r in reports if r.rows]


def _check_ids(store: Store, ids: Sequence[int], rating_lists: Sequence[RatingList],
               analyse: bool) -> Iterator[list[CheckReport]]:
    """`check_player` of each of `ids`, in order, with the facts of all of them read in one
    pass (a handful of queries instead of five per player)."""
    official = {pid: entries for pid, entries in official_of_players(store, ids).items()
                if _lists_in(entries)}
    facts = facts_of_players(store, official)
    for pid in ids:
        f = facts.get(pid)
        if f is None:
            yield []
            continue
        lists = list(rating_lists) or _lists_in(f.official)
        inputs = _inputs(f.player, f.games, f.tournaments, f.official, lists)
        yield _reconcile_lists(f.player, inputs, lists, analyse)


def check_all(store: Store, rating_lists: Sequence[RatingList] = (), *, analyse: bool = True,
              progress: Callable[[int, int], None] | None = None, jobs: int = 1
              ) -> list[CheckReport]:
    """Check every player with an official rating (`tracker check --all`), by name.

    `progress(done, total)` is called as players are looked at; `jobs` > 1 spreads the
    players over that many processes (worth it from a few hundred players)."""
    everyone = players_by_name(store)
    pieces = _pieces(everyone, players_with_ratings(store))
    if jobs > 1 and len(everyone) >= 2 * CHUNK:
        return _check_in_processes(store.url, pieces, len(everyone), rating_lists, analyse,
                                   jobs, progress)
    reports: list[CheckReport] = []
    done = 0
    for size, ids in pieces:
        for found in _check_ids(store, ids, rating_lists, analyse):
            reports += found
        done += size
        if progress is not None:
            progress(done, len(everyone))
    return reports


CHUNK = 200  # players checked per read of their facts (and per task in several processes)


def _pieces(everyone: Sequence[int], rated: set[int]) -> list[tuple[int, list[int]]]:
    """`everyone` cut in order into pieces holding CHUNK players with an official rating
    each: (players in the piece, the ids of those to check)."""
    pieces: list[tuple[int, list[int]]] = []
    size = 0
    ids: list[int] = []
    for pid in everyone:
        size += 1
        if pid in rated:
            ids.append(pid)
            if len(ids) == CHUNK:
                pieces.append((size, ids))
                size, ids = 0, []
    if size:
        pieces.append((size, ids))
    return pieces


def _check_chunk(url: str, ids: Sequence[int], rating_lists: Sequence[RatingList],
                 analyse: bool) -> list[CheckReport]:
    with open_store(url, upgrade=False) as store:
        return [r for found in _check_ids(store, ids, rating_lists, analyse) for r in found]


def _check_in_processes(url: str, pieces: list[tuple[int, list[int]]], total: int,
                        rating_lists: Sequence[RatingList], analyse: bool, jobs: int,
                        progress: Callable[[int, int], None] | None) -> list[CheckReport]:
    """`check_all` over `jobs` worker processes (each opens the database itself); reports
    come back in the players' order."""
    results: list[list[CheckReport]] = [[] for _ in pieces]
    done = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(_check_chunk, url, ids, tuple(rating_lists), analyse): n
                   for n, (_, ids) in enumerate(pieces)}
        for fut in as_completed(futures):
            n = futures[fut]
            results[n] = fut.result()
            done += pieces[n][0]
            if progress is not None:
                progress(done, total)
    return [r for chunk in results for r in chunk]
