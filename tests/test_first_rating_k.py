"""K after a starting official rating that is the player's first (spec section 3 rule 3:
fewer than 30 rated games completed -> K 40; "policy: the games behind a first rating count").

The season: a tournament of 9 games the player played unrated (no Elo tag of theirs, every
opponent rated), inside the official 2022-04 rating 1993 (the player's first), then a
tournament in April 2022: two games against 2000 (a win and a draw), rated on the 2022-05
list. Ro 1993 vs 2000: D = -7, table 8.1.2 row 4-10 -> p_low 0.49 each; sum of (score - PD)
= 1.5 - 0.98 = 0.52. K 40 (9 games completed): 40 x 0.52 = 20.8 -> +21 -> 2014. K 20 (the
30 games assumed of a player found rated): 20 x 0.52 = 10.4 -> +10 -> 2003.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from tests.builders import Replay
from tests.conftest import run_captured
from tracker.advice import PlayerFact
from tracker.model import Period
from tracker.periods import PlayerInfo

HALF = Fraction(1, 2)


def _season(own_tag: int | None) -> Replay:
    s = Replay(PlayerInfo())
    ch = s.t("ch-VIE 2022", "2022-02-28", "2022-03-08")
    for opp in (2136, 2050, 1980, 2010, 1900, 2200, 1950, 2080, 1990):
        s.g(ch, opp, HALF, own=own_tag)
    s.off("2022-04", 1993)
    spring = s.t("Spring Open 2022", "2022-04-10", "2022-04-11")
    s.g(spring, 2000, 1, own=1993)
    s.g(spring, 2000, HALF, own=1993)
    return s


def test_a_first_official_rating_counts_its_games_k_40() -> None:
    rep = _season(own_tag=None).run()
    row = rep.row(Period(2022, 5))
    assert row is not None and row.out is not None
    assert (row.out.k, row.replayed) == (40, 2014)
    assert row.facts.rated_games == 9
    (said,) = row.assumptions
    assert said.fact is PlayerFact.RATED_GAMES and said.first_rating == Period(2022, 4)


def test_a_rating_found_with_the_players_tag_is_still_taken_for_30_games() -> None:
    # The same games with the player's own Elo tag 1993 inside the start: rated before, the
    # games completed unknown (policy GAMES_COMPLETED_WHEN_UNKNOWN): K 20 -> 2003.
    rep = _season(own_tag=1993).run()
    row = rep.row(Period(2022, 5))
    assert row is not None and row.out is not None
    assert (row.out.k, row.replayed) == (20, 2003)
    (said,) = [a for a in row.assumptions if a.fact is PlayerFact.RATED_GAMES]
    assert said.first_rating is None


def test_a_recorded_count_wins_over_the_first_rating() -> None:
    # 40 rated games recorded before the first stored game: K 20 -> 2003, nothing assumed.
    rep = _season(own_tag=None).run(PlayerInfo(birth_year=1980, rated_games=40))
    row = rep.row(Period(2022, 5))
    assert row is not None and row.out is not None
    assert (row.out.k, row.replayed, row.assumptions) == (20, 2003, ())


def _pgn(
    event: str, date: str, rnd: int, white: str, black: str, res: str, welo: str, belo: str
) -> str:
    elo = "".join(f'[{side}Elo "{e}"]\n' for side, e in (("White", welo), ("Black", belo)) if e)
    return (
        f'[Event "{event}"]\n[Site "Hanoi VIE"]\n[Date "{date}"]\n[Round "{rnd}"]\n'
        f'[White "{white}"]\n[Black "{black}"]\n[Result "{res}"]\n{elo}\n1. e4 e5 {res}\n'
    )


def test_explain_and_check_say_the_first_rating_is_assumed(tmp_path: Path) -> None:
    me = "Vo, Hoai Thuong"
    games = [
        _pgn("ch-VIE 2022", f"2022.03.0{i}", i, me, f"Opp, {i}", "1/2-1/2", "", "2000")
        for i in range(1, 10)
    ]
    games.append(_pgn("Spring Open 2022", "2022.04.10", 1, me, "Someone, A", "1-0", "1993", "2000"))
    games.append(
        _pgn("Spring Open 2022", "2022.04.11", 2, "Other, B", me, "1/2-1/2", "2000", "1993")
    )
    pgn = tmp_path / "season.pgn"
    pgn.write_text("\n".join(games), encoding="utf-8")
    db = str(tmp_path / "t.db")
    assert run_captured("import", str(pgn), "--player", me, "--db", db)[0] == 0
    assert (
        run_captured("official", "add", me, "--period", "2022-04", "--rating", "1993", "--db", db)[
            0
        ]
        == 0
    )
    assert (
        run_captured("official", "add", me, "--period", "2022-05", "--rating", "2003", "--db", db)[
            0
        ]
        == 0
    )
    said = (
        "K assumes the 2022-04 rating was a first rating (no Elo tag of yours in the games "
        "before it)"
    )
    code, out, err = run_captured("explain", "2022-05", "--db", db)
    assert code == 0, err
    assert "K 40: fewer than 30 games (9 completed)" in out and said in out
    code, out, err = run_captured("check", "--db", db)
    assert code == 1, err  # FIDE's 2003 is K 20's: the check names the count
    assert said in out
    assert "K differs: FIDE's rating follows from K 20" in out
    assert "--rated-games N" in out
