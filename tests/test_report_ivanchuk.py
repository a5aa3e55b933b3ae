"""The season report and the chart of a real career (issue 37, item 5): pgnmentor's Ivanchuk
collection (`../shared/corpus/pgnmentor-Ivanchuk.pgn.xz`, 4,349 games, 1986 to 2020, no
TimeControl), imported as a new user does (`tracker import FILE`, then the player marked).
The page shows commands as code and never a backtick, folds a long list of tournaments
behind its count, says at the top what each list expects; the chart writes no value over
another and none twice in a panel."""

from __future__ import annotations

import csv
import io
import itertools
import re
from html import escape

import click
import matplotlib.pyplot as plt
import pytest
import typer.main
from matplotlib.figure import Figure
from matplotlib.text import Annotation

from tests.conftest import CORPUS, need_shared, run_captured
from tracker.app.event_show import show_event
from tracker.app.histories import PlayerHistory, load_history
from tracker.app.players import resolve_player
from tracker.model import RatingList
from tracker.reports import history_rows
from tracker.reports.chart import Chart, chart_footnote, chart_list, chart_model, replayed_title
from tracker.reports.eventpage import event_page
from tracker.reports.pagestyle import prose
from tracker.reports.plot.figure import draw_chart
from tracker.reports.said import VERBS, Command, Said, command_line, joined
from tracker.reports.season import NAMES_SHOWN, assumed_facts, season_report
from tracker.reports.words import why_text
from tracker.store import open_store


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    need_shared()
    db = str(tmp_path_factory.mktemp("ivanchuk") / "t.db")
    source = CORPUS / "pgnmentor-Ivanchuk.pgn.xz"
    code, _, err = run_captured("import", str(source), "--db", db)
    assert code == 0, err
    code, _, err = run_captured("player", "set", "Ivanchuk,V", "--me", "--db", db)
    assert code == 0, err
    return db


@pytest.fixture(scope="module")
def ivanchuk(database: str) -> PlayerHistory:
    with open_store(database) as store:
        return load_history(store, resolve_player(store, None))


@pytest.fixture(scope="module")
def page(ivanchuk: PlayerHistory) -> str:
    return season_report(ivanchuk)


def _text(html: str) -> str:
    """What a reader sees: the page without its tags (the charts' SVG included)."""
    return re.sub(r"<[^>]+>", " ", html)


def test_no_backtick_and_commands_as_code(page: str) -> None:
    assert "`" not in _text(page)
    # the reasons of the games not counted name their command bare: the page shows it code
    assert re.search(r"\(<code>tracker event set \d+ --list rapid\|blitz</code>\)", page)
    # two commands in one sentence are two pieces of code, the words between them are not
    assert "<code>tracker event list</code>, then <code>tracker event set ID" in page
    # no command outside code: every "tracker VERB" of the page's prose is inside <code>
    prose_only = re.sub(r"<svg.*?</svg>|<code>.*?</code>", "", page, flags=re.S)
    verbs = "|".join(VERBS)
    assert not re.search(rf"\btracker (?:{verbs})\b", _text(prose_only))


def test_long_lists_of_tournaments_are_folded(page: str) -> None:
    """The 82 tournaments before 2008 (the standard list is replayed from 2008): their count
    and reason in view, the names a click away; no list of more than NAMES_SHOWN names is
    outside a closed <details>."""
    found = re.search(
        r'<details class="names"><summary>(\d+) tournaments: before 2008: (.*?)</summary>'
        r'<p class="muted">(.*?)</p></details>',
        page,
    )
    assert found is not None
    assert int(found.group(1)) > NAMES_SHOWN
    assert len(found.group(3).split(", ")) >= int(found.group(1))
    outside = re.sub(r"<details.*?</details>", "", page, flags=re.S)
    for names in re.findall(r'<span class="muted"> · (.*?)</span>', outside):
        assert len(names.split(", ")) <= NAMES_SHOWN, names


def test_the_top_of_the_page_says_each_list_in_plain_words(
    page: str, ivanchuk: PlayerHistory
) -> None:
    top = page.split("</header>", 1)[0]
    glance = _text(top.split('<div class="glance">', 1)[1])
    assert "Ivanchuk,V" in _text(top.split('<div class="glance">', 1)[0])  # who, above it
    for rl in RatingList:
        rows = ivanchuk.replays[rl].rows
        assert rows
        said = re.search(
            rf"{str(rl).capitalize()}\s*:\s*(\d+)\s*expected on the (\d{{4}}-\d\d) list", glance
        )
        assert said is not None, (rl, glance)
        # the same figures as the list's own "next list" block further down
        section = page.split(f'<section id="{rl}"', 1)[1]
        assert f'data-expected="{said.group(1)}"' in section
        assert f"{said.group(2)} list" in section
    assert "no official standard rating is recorded" in glance


def _values(fig: Figure) -> list[list[tuple[str, object]]]:
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    return [
        [
            (t.get_text(), t.get_window_extent(renderer))
            for t in ax.texts
            if isinstance(t, Annotation)
        ]
        for ax in fig.axes
    ]


def _charts(history: PlayerHistory) -> list[Chart]:
    """`tracker plot`'s chart and the report's, one a list."""
    who = history.player
    return [chart_model(history)] + [
        Chart(
            replayed_title(who, f"{rl} rating"),
            (chart_list(history.replays[rl], who),),
            chart_footnote([history.replays[rl]]),
        )
        for rl in RatingList
    ]


def test_chart_values_neither_overlap_nor_repeat(ivanchuk: PlayerHistory) -> None:
    """On the real figures, measured by matplotlib's text extents: no two values of a panel
    meet, none covers an axis label or the panel's title, and no value is written twice in
    a panel (rapid's 2681 of the start and of the first list; blitz's 2772 of a flat step)."""
    for chart in _charts(ivanchuk):
        fig, _ = draw_chart(chart)
        try:
            fig.canvas.draw()
            renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
            for ax, values in zip(fig.axes, _values(fig), strict=True):
                texts = [text for text, _ in values]
                assert len(values) >= 3, texts
                assert len(texts) == len(set(texts)), texts
                for (a, box), (b, other) in itertools.combinations(values, 2):
                    assert not box.overlaps(other), (a, b)  # type: ignore[attr-defined]
                fixed = [ax.title, *ax.get_xticklabels(), *ax.get_yticklabels()]
                for text, box in values:
                    for label in fixed:
                        if label.get_text():
                            assert not box.overlaps(  # type: ignore[attr-defined]
                                label.get_window_extent(renderer)
                            ), (text, label.get_text())
        finally:
            plt.close(fig)


def test_the_verbs_a_command_names_are_the_clis() -> None:
    """command_line makes a command of the command line's verbs only: the same as the
    CLI's, sub-commands included."""
    from tracker.cli import app

    root = typer.main.get_command(app)
    assert isinstance(root, click.Group)
    verbs = {
        name: tuple(sorted(cmd.commands)) if isinstance(cmd, click.Group) else ()
        for name, cmd in root.commands.items()
    }
    assert verbs == {k: tuple(sorted(v)) for k, v in VERBS.items()}
    with pytest.raises(ValueError, match="no command"):
        command_line("rate", "--list", "rapid")


FAST = command_line("event", "set", 12, "--list", "rapid|blitz")
NAMED = command_line("official", "add", '"Novák, T"', "--list rapid", "--period", "2025-01")


@pytest.mark.parametrize(
    ("sentence", "terminal", "html"),
    [
        (
            Said("not standard (", FAST, ")"),
            "not standard (tracker event set 12 --list rapid|blitz)",
            "not standard (<code>tracker event set 12 --list rapid|blitz</code>)",
        ),
        (
            Said("pin it with ", FAST.quoted(), "; then"),
            "pin it with `tracker event set 12 --list rapid|blitz`; then",
            "pin it with <code>tracker event set 12 --list rapid|blitz</code>; then",
        ),
        (
            Said(NAMED, " <b>now</b>"),
            'tracker official add "Novák, T" --list rapid --period 2025-01 <b>now</b>',
            "<code>tracker official add &quot;Novák, T&quot; --list rapid --period 2025-01"
            "</code> &lt;b&gt;now&lt;/b&gt;",
        ),
        (  # a plain string is text: no command is looked for in it, not even in backticks
            "pin it with `tracker event set ID --period YYYY-MM`, or tracker event set 3",
            "pin it with `tracker event set ID --period YYYY-MM`, or tracker event set 3",
            "pin it with `tracker event set ID --period YYYY-MM`, or tracker event set 3",
        ),
        ("the tracker is a tool", "the tracker is a tool", "the tracker is a tool"),
        ("<b>tracker</b>", "<b>tracker</b>", "&lt;b&gt;tracker&lt;/b&gt;"),
    ],
)
def test_prose_shows_the_commands_a_sentence_carries_as_code(
    sentence: str, terminal: str, html: str
) -> None:
    """The terminal prints a sentence's text (a quoted command in backticks); a page shows
    each command it carries as code, and no backtick."""
    assert sentence == terminal
    assert prose(sentence) == html
    # a Said joined or added to keeps its commands; an f-string makes plain text
    both = joined("; ", [sentence, Said("see ", FAST)]) + "."
    assert both == f"{terminal}; see {FAST}."
    assert prose(both) == f"{html}; see <code>{FAST}</code>."
    assert prose((" see " + FAST + " ").strip()) == f"see <code>{FAST}</code>"


def _commands(sentence: str) -> list[str]:
    return (
        [p.line for p in sentence.parts if isinstance(p, Command)]
        if isinstance(sentence, Said)
        else []
    )


def test_each_command_a_sentence_carries_is_one_code_element(
    ivanchuk: PlayerHistory, page: str
) -> None:
    """Every command the page's sentences carry (the history's notes, the reasons of the
    games not counted, the assumptions with the command that records each) is one <code>
    element, whole; each <code> holds one command of the command line, and no command's
    words follow it outside."""
    carried: set[str] = set()
    for rp in ivanchuk.replays.values():
        for h in history_rows(rp, player=ivanchuk.player):
            carried.update(_commands(h.note))
        for f in assumed_facts(rp, ivanchuk.player):
            carried.update(_commands(f.command))
        for row in rp.rows:
            for n in row.not_counted:
                carried.update(_commands(why_text(n)))
    # the bare ones too, that a page once had to guess the end of in the sentence
    assert "tracker event set ID --list" in carried
    assert any(c.endswith("--list rapid|blitz") for c in carried)
    assert any(c.startswith("tracker official add ID --list blitz") for c in carried)
    assert "tracker event list" in carried
    codes = re.findall(r"<code>(.*?)</code>", page)
    for line in carried:
        assert f"<code>{escape(line)}</code>" in page, line
    for code in codes:
        assert re.fullmatch(rf"tracker (?:{'|'.join(VERBS)})\b.*", code), code
    assert not re.search(r"</code>\s*(?:--|ID\b|LIST\b|YYYY|\d)", page)
    assert not re.search(r"</code>\s*<code>", page)


def test_an_event_pages_notes_show_their_commands_as_code(database: str) -> None:
    """The Trophee CCAS KO of 2008 (4 games a day against one opponent, no time control):
    its players' notes name the command that puts it on the rapid or blitz list, as code,
    each reason's count after it (a note joins several reasons)."""
    code, out, err = run_captured("event", "list", "--format", "csv", "--db", database)
    assert code == 0, err
    (tid,) = [
        row["id"]
        for row in csv.DictReader(io.StringIO(out))
        if row["name"] == "Trophee CCAS KO" and row["start"] == "2008-10-29"
    ]
    with open_store(database) as store:
        ev = show_event(store, tid, None)
    html = event_page(ev)
    fast = f"(<code>tracker event set {tid} --list rapid|blitz</code>)"
    assert f"not standard {fast} 4, " in html
    assert f"not standard {fast} 4; no FIDE ID</td>" in html
    assert "`" not in re.sub(r"<[^>]+>", "", html)
