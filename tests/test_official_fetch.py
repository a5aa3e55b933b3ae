"""`tracker official fetch`: FIDE's list files from a folder laid out as FIDE's download
folder, into the cache, checked, then imported (issue 34, items 1 and 5).

Every test that downloads runs a real HTTP server (`http.server.ThreadingHTTPServer`) on
127.0.0.1, on a port the system gives, in a thread of the test, serving list zips under
FIDE's names (`shared/spec/fide-list-formats.md`), made by tests/listgen.py or zipped from
the verbatim samples of `shared/spec/fide-list-samples/`. Nothing reaches beyond
127.0.0.1: proxies are switched off (`no_proxy=*`), and the one case that needs a server
name that does not resolve (`test_a_name_that_does_not_resolve`) makes the resolver say so
instead of asking a real one.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import resource
import signal
import socket
import subprocess
import threading
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from sqlalchemy import insert

from tests import listgen
from tests.builders import inserted_id
from tests.conftest import SPEC, run_cli, subprocess_env, tracker_command
from tests.listgen import Figures, Player, write_list
from tracker.app.fetch import (
    FIDE_DOWNLOADS,
    Fetched,
    FetchSettings,
    ListMonth,
    Missing,
    Why,
    asked_lists,
    fetch_files,
    fetch_lists,
    file_names,
    needed_lists,
)
from tracker.errors import BadInput
from tracker.model import Period, RatingList
from tracker.store import Store, open_store
from tracker.store.entries import entries_for
from tracker.store.schema import player_names, players

STD, RAPID, BLITZ = RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ
NOV25 = Period(2025, 11)
TODAY = dt.date(2026, 12, 6)  # (the verb is told the day; the command line uses today's)
SAMPLES = SPEC / "fide-list-samples"


# --- a folder laid out as FIDE's, served on 127.0.0.1 ----------------------------------


@dataclass
class Serve:
    """How the server answers for one path."""

    body: bytes = b""
    status: int = 200
    content_type: str = "application/zip"
    cut: int | None = None  # send only this many bytes of the body (its full length announced)
    stall: bool = False  # answer nothing until the test ends
    location: str | None = None  # a redirect (302) there
    fail_first: int = 0  # answer 503 this many times first
    trickle: float = 0.0  # seconds between blocks of 4 KiB (a slow line)


class Folder:
    """A real HTTP server on 127.0.0.1 (a port the system gives), serving `files` under
    /download/ and counting the requests of each path (`hits`)."""

    def __init__(self) -> None:
        self.files: dict[str, Serve] = {}
        self.hits: Counter[str] = Counter()
        self.release = threading.Event()
        self.asked = threading.Event()
        folder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                path = self.path.split("?")[0]
                folder.hits[path] += 1
                folder.asked.set()
                serve = folder.files.get(path)
                if serve is None:
                    self.send_error(404, "Not Found")
                    return
                if serve.fail_first >= folder.hits[path]:
                    self.send_error(503, "Service Unavailable")
                    return
                if serve.stall:
                    folder.release.wait(30)
                    return
                if serve.location is not None:
                    self.send_response(302)
                    self.send_header("Location", serve.location)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if serve.status != 200:
                    self.send_error(serve.status)
                    return
                self.send_response(200)
                self.send_header("Content-Type", serve.content_type)
                self.send_header("Content-Length", str(len(serve.body)))
                self.end_headers()
                body = serve.body if serve.cut is None else serve.body[: serve.cut]
                if serve.trickle:
                    for at in range(0, len(body), 4096):
                        self.wfile.write(body[at : at + 4096])
                        self.wfile.flush()
                        time.sleep(serve.trickle)
                else:
                    self.wfile.write(body)
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    @property
    def url(self) -> str:
        return self.root + "/download/"

    def put(self, name: str, serve: Serve) -> None:
        self.files[f"/download/{name}"] = serve

    def hit(self, name: str) -> int:
        return self.hits[f"/download/{name}"]

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy for any address (a proxy of the environment would take 127.0.0.1's
    requests elsewhere), and short back-offs."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("no_proxy", "*")
    monkeypatch.setenv("TRACKER_FETCH_BACKOFF", "0.01")


@pytest.fixture
def folder() -> Iterator[Folder]:
    served = Folder()
    try:
        yield served
    finally:
        served.close()


def list_zip(
    tmp: Path,
    rating_list: RatingList,
    period: Period,
    *,
    count: int = 40,
    fmt: str = "txt",
    member: str | None = None,
) -> bytes:
    """A zipped list of `count` generated players (seed 1: the same people in every list),
    its member named as FIDE names it (`standard_nov25frl.txt`) unless `member` says."""
    name = file_names(rating_list, period)[-1]
    made_in = tmp / "made"
    made_in.mkdir(exist_ok=True)
    made = listgen.generate(
        made_in / name,
        count,
        fmt,
        zipped=True,
        period=period,
        rating_list=rating_list,
        member=member or name.replace(".zip", ".xml" if "xml" in fmt else ".txt"),
    )
    return made.read_bytes()


def zipped(member: str, data: bytes) -> bytes:
    """`data` as the one member of a zip."""
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, data)
    return buf.getvalue()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A database holding four players of the generated lists (seed 1), by FIDE ID."""
    people = list(listgen.players(40, seed=1))
    with open_store(str(tmp_path / "t.db")) as opened:
        with opened.engine.begin() as conn:
            for p in people[:4]:
                pid = inserted_id(
                    conn.execute(
                        insert(players).values(
                            name=p.name, norm_name=p.name.lower(), fide_id=p.fide_id
                        )
                    )
                )
                conn.execute(
                    insert(player_names).values(norm_name=f"{p.name.lower()} {pid}", player_id=pid)
                )
        yield opened


def settings(folder: Folder, tmp_path: Path, **changed: object) -> FetchSettings:
    base: dict[str, object] = {
        "base_url": folder.url,
        "cache": tmp_path / "cache",
        "timeout": 2.0,
        "retries": 2,
        "backoff": 0.01,
    }
    base.update(changed)
    return FetchSettings(**base)  # type: ignore[arg-type]


def cache_files(tmp_path: Path) -> list[str]:
    cache = tmp_path / "cache"
    return sorted(p.name for p in cache.iterdir()) if cache.is_dir() else []


def months(*pairs: tuple[RatingList, Period]) -> list[ListMonth]:
    return [ListMonth(p, rl) for rl, p in pairs]


# --- the names -------------------------------------------------------------------------


def test_file_names_are_fides() -> None:
    # shared/spec/fide-list-formats.md: standard_jan23frl.zip, rapid_..., blitz_...; the
    # same names with _xml before .zip
    assert file_names(STD, NOV25) == ("standard_nov25frl.zip",)
    assert file_names(RAPID, NOV25) == ("rapid_nov25frl.zip",)
    assert file_names(BLITZ, Period(2023, 1)) == ("blitz_jan23frl.zip",)
    assert file_names(STD, Period(2023, 1), xml=True) == ("standard_jan23frl_xml.zip",)
    assert file_names(RAPID, Period(2012, 9)) == ("rapid_sep12frl.zip",)  # (the sample's)
    # before the first rapid and blitz lists, the standard list by its month alone first
    # (APR04FRL.TXT of the samples), the prefixed name second
    assert file_names(STD, Period(2004, 4)) == ("apr04frl.zip", "standard_apr04frl.zip")
    assert file_names(STD, Period(2011, 3))[0] == "mar11frl.zip"
    assert FIDE_DOWNLOADS == "https://ratings.fide.com/download/"


def test_the_command_line_default_is_the_adapters() -> None:
    from tracker.cli import fetch as command
    from tracker.lists import fetch

    assert command.FIDE_DOWNLOADS == fetch.FIDE_DOWNLOADS
    assert command.CACHE_ENV == fetch.CACHE_ENV


def test_the_cache_is_the_users(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tracker.lists.fetch import default_cache

    monkeypatch.delenv("TRACKER_LIST_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache() == tmp_path / "xdg" / "tracker" / "lists"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache() == tmp_path / "home" / ".cache" / "tracker" / "lists"
    monkeypatch.setenv("TRACKER_LIST_CACHE", str(tmp_path / "given"))
    assert default_cache() == tmp_path / "given"


# --- which months ----------------------------------------------------------------------


def test_months_asked_follow_fides_calendar() -> None:
    # two-monthly lists to May 2012 (odd months), monthly from Jul 2012; rapid and blitz
    # from Jul 2012 (tracker/fide/calendar.py, docs/lists.md)
    got = asked_lists((), None, Period(2012, 4), Period(2012, 8), TODAY)
    assert got == months(
        (STD, Period(2012, 5)),
        (STD, Period(2012, 7)),
        (RAPID, Period(2012, 7)),
        (BLITZ, Period(2012, 7)),
        (STD, Period(2012, 8)),
        (RAPID, Period(2012, 8)),
        (BLITZ, Period(2012, 8)),
    )
    assert asked_lists((RAPID,), NOV25, None, None, TODAY) == months((RAPID, NOV25))
    # --from alone runs to the latest list out: next month's
    assert asked_lists((STD,), None, Period(2026, 11), None, TODAY) == months(
        (STD, Period(2026, 11)), (STD, Period(2026, 12)), (STD, Period(2027, 1))
    )


@pytest.mark.parametrize(
    "args,words",
    [
        (((STD,), Period(2010, 2), None, None), "FIDE published no standard list in 2010-02"),
        (((RAPID,), Period(2011, 5), None, None), "no rapid list before 2012-07"),
        (((), Period(2000, 10), None, None), "starts with the list of 2001-01"),
        (((), None, Period(1999, 1), Period(2001, 1)), "--from 1999-01"),
        (((), None, Period(2020, 5), Period(2020, 1)), "is after --to"),
        (((), None, None, Period(2020, 1)), "give --from too"),
        (((), NOV25, NOV25, None), "either --period or --from/--to"),
    ],
)
def test_months_that_cannot_be_asked_for(
    args: tuple[tuple[RatingList, ...], Period | None, Period | None, Period | None], words: str
) -> None:
    with pytest.raises(BadInput, match=words):
        asked_lists(*args, TODAY)


def _games_db(tmp_path: Path, capsys: pytest.CaptureFixture[str], mp: pytest.MonkeyPatch) -> str:
    """A database of four tournaments: standard from 2025-11-07 (the tracked player's),
    standard from 2010-02-10, rapid from 2025-11-21, blitz from 2011-05-05 (before blitz
    lists), one excluded."""
    db = str(tmp_path / "g.db")
    rows = [
        ("Open A", "2025.11.07", "5400+30", "Novak, Jan", "Svoboda, Petr"),
        ("Open A", "2025.11.08", "5400+30", "Novak, Jan", "Dvorak, Eva"),
        ("Old Open", "2010.02.10", "5400+30", "Svoboda, Petr", "Dvorak, Eva"),
        ("Rapid Cup", "2025.11.21", "900+10", "Novak, Jan", "Dvorak, Eva"),
        ("Blitz Night", "2011.05.05", "180+2", "Svoboda, Petr", "Dvorak, Eva"),
        ("Simul Show", "2024.03.05", "5400+30", "Svoboda, Petr", "Dvorak, Eva"),
    ]
    text = "".join(
        f'[Event "{e}"]\n[Site "Praha"]\n[Date "{d}"]\n[Round "1"]\n[White "{w}"]\n'
        f'[Black "{b}"]\n[Result "1-0"]\n[WhiteElo "1850"]\n[BlackElo "1800"]\n'
        f'[TimeControl "{tc}"]\n\n1. e4 e5 1-0\n\n'
        for e, d, tc, w, b in rows
    )
    pgn = tmp_path / "games.pgn"
    pgn.write_text(text, encoding="utf-8")
    code, _, err = run_cli(capsys, mp, "import", str(pgn), "--db", db, "--player", "Novak, Jan")
    assert code == 0, err
    code, out, err = run_cli(
        capsys, mp, "event", "list", "Svoboda, Petr", "--db", db, "--format", "json"
    )
    assert code == 0, err
    simul = next(e["id"] for e in json.loads(out) if e["name"] == "Simul Show")
    code, _, err = run_cli(capsys, mp, "event", "set", str(simul), "--exclude", "--db", db)
    assert code == 0, err
    return db


def test_the_lists_the_database_needs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _games_db(tmp_path, capsys, monkeypatch)
    with open_store(db) as opened:
        needed = needed_lists(opened)
        only_rapid = needed_lists(opened, (RAPID,))
    assert needed == months(
        (STD, Period(2010, 1)),  # the two-monthly list in force on 2010-02-10
        (STD, NOV25),  # in force on 2025-11-07; the standard list in force at the rapid start
        (RAPID, NOV25),  # in force on 2025-11-21
        (STD, Period(2025, 12)),  # the tracked player's periods: standard rated on Dec
        (RAPID, Period(2025, 12)),  # and rapid
    )  # (no blitz list before 2012-07; the excluded simul needs none)
    assert only_rapid == months((RAPID, NOV25), (RAPID, Period(2025, 12)))


# --- downloading -----------------------------------------------------------------------


def test_fetch_downloads_checks_lands_and_imports(
    folder: Folder, tmp_path: Path, store: Store
) -> None:
    for rl in RatingList:
        folder.put(file_names(rl, NOV25)[0], Serve(list_zip(tmp_path, rl, NOV25)))
    wanted = months((STD, NOV25), (RAPID, NOV25), (BLITZ, NOV25))
    said: list[Fetched | Missing] = []
    out = fetch_lists(store, wanted, settings(folder, tmp_path), today=TODAY, on_result=said.append)
    assert [type(r) for r in said] == [Fetched, Fetched, Fetched] and out.results == said
    assert [r.cached for r in out.results if isinstance(r, Fetched)] == [False] * 3
    assert cache_files(tmp_path) == [
        "blitz_nov25frl.zip",
        "rapid_nov25frl.zip",
        "standard_nov25frl.zip",
    ]
    assert not out.failed and not out.missing
    assert [(i.month, i.outcome.summary.kept) for i in out.imports if i.outcome.summary] == [
        (m, 4) for m in wanted
    ]
    # every rating of the four players the lists have, written, from its file
    written = set()
    for person in list(listgen.players(40, seed=1))[:4]:
        with store.engine.connect() as conn:
            pid = conn.execute(players.select().where(players.c.fide_id == person.fide_id)).one().id
        written |= {(e.list, e.rating, e.source) for e in entries_for(store, pid) if e.rating}
    listed = {
        (rl, p.figures(rl).rating, f"{rl}_nov25frl.zip")
        for p in list(listgen.players(40, seed=1))[:4]
        for rl in RatingList
        if p.figures(rl).rating is not None
    }
    assert written == listed and {rl for rl, _, _ in listed} >= {STD, RAPID}


def test_a_second_fetch_is_served_from_the_cache(
    folder: Folder, tmp_path: Path, store: Store
) -> None:
    folder.put("standard_nov25frl.zip", Serve(list_zip(tmp_path, STD, NOV25)))
    wanted = months((STD, NOV25))
    first = fetch_lists(store, wanted, settings(folder, tmp_path), today=TODAY)
    again = fetch_lists(store, wanted, settings(folder, tmp_path), today=TODAY)
    assert folder.hit("standard_nov25frl.zip") == 1  # downloaded once
    assert [r.cached for r in first.had] == [False] and [r.cached for r in again.had] == [True]
    summary = again.imports[0].outcome.summary
    rated = sum(p.standard.rating is not None for p in list(listgen.players(40, seed=1))[:4])
    assert summary is not None and (summary.entries, summary.unchanged) == (0, rated) != (0, 0)
    # --offline: the cache only, no request at all
    offline = fetch_files(
        months((STD, NOV25), (RAPID, NOV25)), settings(folder, tmp_path, offline=True), today=TODAY
    )
    assert [type(r) for r in offline.results] == [Fetched, Missing]
    assert offline.missing[0].why is Why.NOT_IN_CACHE and sum(folder.hits.values()) == 1


def test_a_month_fide_never_published_is_named_and_skipped(
    folder: Folder, tmp_path: Path, store: Store
) -> None:
    folder.put("rapid_nov25frl.zip", Serve(list_zip(tmp_path, RAPID, NOV25)))
    out = fetch_lists(
        store, months((STD, NOV25), (RAPID, NOV25)), settings(folder, tmp_path), today=TODAY
    )
    (missing,) = out.missing
    assert (missing.rating_list, missing.why, missing.status) == (STD, Why.NOT_PUBLISHED, 404)
    assert missing.url == folder.url + "standard_nov25frl.zip" and missing.tries == 1
    assert [i.month for i in out.imports] == months((RAPID, NOV25)) and out.failed
    assert cache_files(tmp_path) == ["rapid_nov25frl.zip"]


def test_a_list_not_out_yet_says_when_it_is_due(folder: Folder, tmp_path: Path) -> None:
    today = dt.date(2026, 12, 6)
    out = fetch_files(
        months((STD, Period(2026, 12)), (STD, Period(2027, 1)), (STD, Period(2027, 3))),
        settings(folder, tmp_path),
        today=today,
    )
    assert [r.why for r in out.due] == [Why.NOT_YET] * 3 and not out.missing
    # this month's and next month's are asked for (a 404: not out yet); a later one is not
    assert folder.hit("standard_dec26frl.zip") == folder.hit("standard_jan27frl.zip") == 1
    assert folder.hit("standard_mar27frl.zip") == 0
    from tracker.reports.fetch import result_line

    assert result_line(out.due[1], settings(folder, tmp_path)) == (
        "standard 2027-01: not out yet: FIDE's folder does not have the list of 2027-01-01 "
        f"yet ({folder.url}standard_jan27frl.zip: HTTP 404 Not Found): fetch again in a few days"
    )
    assert result_line(out.due[2], settings(folder, tmp_path)) == (
        "standard 2027-03: not out yet: FIDE publishes it on 2027-03-01 (or a day or two "
        "before): fetch again then"
    )
    offline = fetch_files(
        months((STD, Period(2027, 3))), settings(folder, tmp_path, offline=True), today=today
    )
    assert [r.why for r in offline.due] == [Why.NOT_YET] and not offline.failed


def test_an_html_page_where_a_zip_should_be(folder: Folder, tmp_path: Path) -> None:
    page = b"<!DOCTYPE html><html><body>Sorry, the page is being updated</body></html>"
    folder.put("standard_nov25frl.zip", Serve(page, content_type="text/html"))
    out = fetch_files(months((STD, NOV25)), settings(folder, tmp_path), today=TODAY)
    (missing,) = out.missing
    assert (missing.why, missing.detail, missing.tries) == (Why.NOT_A_ZIP, "html", 1)
    assert cache_files(tmp_path) == []  # nothing landed, no temporary file left


def test_a_truncated_body_is_retried_then_refused(folder: Folder, tmp_path: Path) -> None:
    body = list_zip(tmp_path, STD, NOV25)
    folder.put("standard_nov25frl.zip", Serve(body, cut=len(body) // 2))
    out = fetch_files(months((STD, NOV25)), settings(folder, tmp_path), today=TODAY)
    (missing,) = out.missing
    assert (missing.why, missing.size, missing.expected) == (
        Why.TRUNCATED,
        len(body) // 2,
        len(body),
    )
    assert missing.tries == 3 and folder.hit("standard_nov25frl.zip") == 3  # retries 2
    assert cache_files(tmp_path) == []


def test_a_server_that_stalls_times_out(folder: Folder, tmp_path: Path) -> None:
    folder.put("standard_nov25frl.zip", Serve(stall=True))
    began = time.monotonic()
    out = fetch_files(
        months((STD, NOV25)), settings(folder, tmp_path, timeout=0.3, retries=1), today=TODAY
    )
    took = time.monotonic() - began
    (missing,) = out.missing
    assert missing.why is Why.TIMEOUT and missing.tries == 2
    assert 0.6 <= took < 5, took  # two tries of 0.3 s, not the server's 30 s
    assert cache_files(tmp_path) == []


def test_a_redirect_is_followed(folder: Folder, tmp_path: Path) -> None:
    folder.put("standard_nov25frl.zip", Serve(location="/mirror/standard_nov25frl.zip"))
    folder.files["/mirror/standard_nov25frl.zip"] = Serve(list_zip(tmp_path, STD, NOV25))
    out = fetch_files(months((STD, NOV25)), settings(folder, tmp_path), today=TODAY)
    assert [type(r) for r in out.results] == [Fetched]
    assert folder.hits["/mirror/standard_nov25frl.zip"] == 1
    assert cache_files(tmp_path) == ["standard_nov25frl.zip"]


def test_a_redirect_off_the_web_is_not_followed(folder: Folder, tmp_path: Path) -> None:
    # urllib would follow a redirect to ftp:// too; fetch follows http and https only
    folder.put("standard_nov25frl.zip", Serve(location="ftp://127.0.0.1:1/standard.zip"))
    out = fetch_files(months((STD, NOV25)), settings(folder, tmp_path), today=TODAY)
    (missing,) = out.missing
    assert (missing.why, missing.status, missing.tries) == (Why.REFUSED, 302, 1)
    assert "ftp://127.0.0.1:1/standard.zip: not followed" in missing.detail


def test_a_damaged_file_in_the_cache_is_downloaded_again(folder: Folder, tmp_path: Path) -> None:
    folder.put("standard_nov25frl.zip", Serve(list_zip(tmp_path, STD, NOV25)))
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "standard_nov25frl.zip").write_bytes(b"PK\x03\x04 cut short")
    offline = fetch_files(
        months((STD, NOV25)), settings(folder, tmp_path, offline=True), today=TODAY
    )
    assert [m.why for m in offline.missing] == [Why.DAMAGED_IN_CACHE]
    assert cache_files(tmp_path) == []  # removed
    (tmp_path / "cache" / "standard_nov25frl.zip").write_bytes(b"PK\x03\x04 cut short")
    out = fetch_files(months((STD, NOV25)), settings(folder, tmp_path), today=TODAY)
    assert [r.cached for r in out.had] == [False] and folder.hit("standard_nov25frl.zip") == 1
    assert zipfile.is_zipfile(tmp_path / "cache" / "standard_nov25frl.zip")


def test_a_server_error_is_retried_with_back_off(folder: Folder, tmp_path: Path) -> None:
    folder.put("standard_nov25frl.zip", Serve(list_zip(tmp_path, STD, NOV25), fail_first=2))
    out = fetch_files(months((STD, NOV25)), settings(folder, tmp_path), today=TODAY)
    assert [type(r) for r in out.results] == [Fetched]
    assert folder.hit("standard_nov25frl.zip") == 3
    folder.put("rapid_nov25frl.zip", Serve(list_zip(tmp_path, RAPID, NOV25), fail_first=9))
    again = fetch_files(months((RAPID, NOV25)), settings(folder, tmp_path), today=TODAY)
    (missing,) = again.missing
    assert (missing.why, missing.status, missing.tries) == (Why.SERVER, 503, 3)


@pytest.mark.parametrize(
    "served,member,found",
    [
        pytest.param((STD, Period(2025, 10)), None, (STD, Period(2025, 10)), id="another-month"),
        pytest.param((RAPID, NOV25), None, (RAPID, NOV25), id="another-list"),
        # a member name that says nothing: the header's month tells
        pytest.param((STD, Period(2025, 10)), "list.txt", (STD, Period(2025, 10)), id="header"),
    ],
)
def test_a_zip_of_another_month_or_list_is_refused(
    folder: Folder,
    tmp_path: Path,
    store: Store,
    served: tuple[RatingList, Period],
    member: str | None,
    found: tuple[RatingList, Period],
) -> None:
    body = list_zip(tmp_path, served[0], served[1], member=member)
    folder.put("standard_nov25frl.zip", Serve(body))
    out = fetch_lists(store, months((STD, NOV25)), settings(folder, tmp_path), today=TODAY)
    (missing,) = out.missing
    assert missing.why in (Why.WRONG_LIST, Why.NOT_A_LIST), missing
    if member is None:
        assert missing.why is Why.WRONG_LIST and missing.found == found
    else:  # the reader's own words: the header's month against the one asked for
        assert "2025-10" in missing.detail and "2025-11" in missing.detail
    assert cache_files(tmp_path) == [] and out.imports == []


def test_a_combined_list_or_a_damaged_zip_is_refused(folder: Folder, tmp_path: Path) -> None:
    folder.put(
        "standard_nov25frl.zip",
        Serve(list_zip(tmp_path, STD, NOV25, fmt="combined-txt", member="players_list_foa.txt")),
    )
    good = list_zip(tmp_path, RAPID, NOV25)
    damaged = bytearray(good)
    damaged[len(good) // 3] ^= 0xFF  # a byte of the deflated list: the CRC says so
    folder.put("rapid_nov25frl.zip", Serve(bytes(damaged)))
    out = fetch_files(months((STD, NOV25), (RAPID, NOV25)), settings(folder, tmp_path), today=TODAY)
    combined, bad = out.missing
    assert (combined.why, combined.detail) == (Why.WRONG_LIST, "combined")
    assert bad.why is Why.NOT_A_LIST
    assert cache_files(tmp_path) == []


def test_a_file_over_the_size_bound_is_refused(folder: Folder, tmp_path: Path) -> None:
    body = list_zip(tmp_path, STD, NOV25, count=400)
    folder.put("standard_nov25frl.zip", Serve(body))
    out = fetch_files(
        months((STD, NOV25)), settings(folder, tmp_path, max_bytes=len(body) - 1), today=TODAY
    )
    (missing,) = out.missing
    assert (missing.why, missing.size) == (Why.TOO_BIG, len(body))
    assert cache_files(tmp_path) == []


def test_old_lists_under_their_names_of_then(folder: Folder, tmp_path: Path, store: Store) -> None:
    # the verbatim samples: APR04FRL.TXT as FIDE zipped it (apr04frl.zip); Mar 2011 only
    # under the prefixed name: the name of the month alone is tried first (a 404), then it
    apr04 = (SAMPLES / "APR04FRL.TXT").read_bytes()
    mar11 = (SAMPLES / "standard_mar11frl.txt").read_bytes()
    folder.put("apr04frl.zip", Serve(zipped("APR04FRL.TXT", apr04)))
    folder.put("standard_mar11frl.zip", Serve(zipped("standard_mar11frl.txt", mar11)))
    wanted = months((STD, Period(2004, 4)), (STD, Period(2011, 3)))
    out = fetch_lists(store, wanted, settings(folder, tmp_path), today=TODAY)
    assert [type(r) for r in out.results] == [Fetched, Fetched], out.results
    assert folder.hit("mar11frl.zip") == 1 and folder.hit("standard_mar11frl.zip") == 1
    assert cache_files(tmp_path) == ["apr04frl.zip", "standard_mar11frl.zip"]
    assert [i.outcome.summary.rows for i in out.imports if i.outcome.summary] == [
        3,
        11,
    ]  # (the samples' rows)


def test_no_connection_stops_the_run(folder: Folder, tmp_path: Path) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nobody listens there: the connection is refused
    wanted = months((STD, NOV25), (RAPID, NOV25), (BLITZ, NOV25))
    out = fetch_files(
        wanted, settings(folder, tmp_path, base_url=f"http://127.0.0.1:{port}/"), today=TODAY
    )
    (missing,) = out.missing
    assert missing.why is Why.NO_NETWORK and missing.tries == 3
    assert "refused" in missing.detail.lower()
    assert out.stopped == missing and out.untried == wanted[1:] and out.failed


def test_a_tls_failure_stops_the_run(folder: Folder, tmp_path: Path) -> None:
    # https:// to a server that speaks plain HTTP: the TLS handshake fails
    wanted = months((STD, NOV25), (RAPID, NOV25))
    out = fetch_files(
        wanted,
        settings(folder, tmp_path, base_url=folder.url.replace("http:", "https:")),
        today=TODAY,
    )
    (missing,) = out.missing
    assert missing.why is Why.TLS and missing.tries == 1 and out.untried == wanted[1:]


def test_a_name_that_does_not_resolve(
    folder: Folder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real lookup of an unknown name would ask the system's resolver, beyond 127.0.0.1:
    # the resolver says "not known" here instead, as getaddrinfo does for such a name.
    real = socket.getaddrinfo

    def lookup(host: object, *args: object, **kw: object) -> object:
        if host == "fide.invalid":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    out = fetch_files(
        months((STD, NOV25)),
        settings(folder, tmp_path, base_url="https://fide.invalid/download/"),
        today=TODAY,
    )
    (missing,) = out.missing
    assert (missing.why, missing.detail, missing.tries) == (
        Why.NO_SUCH_HOST,
        "Name or service not known",
        1,
    )


def test_a_cache_that_cannot_be_written(folder: Folder, tmp_path: Path) -> None:
    folder.put("standard_nov25frl.zip", Serve(list_zip(tmp_path, STD, NOV25)))
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    out = fetch_files(
        months((STD, NOV25), (RAPID, NOV25)),
        settings(folder, tmp_path, cache=blocked / "cache"),
        today=TODAY,
    )
    (missing,) = out.missing
    assert missing.why is Why.CACHE and out.untried == months((RAPID, NOV25))


# --- the command line ------------------------------------------------------------------


def _cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


def test_the_command_says_what_it_fetched_and_what_is_missing(
    folder: Folder,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder.put("standard_nov25frl.zip", Serve(list_zip(tmp_path, STD, NOV25)))
    folder.put("rapid_nov25frl.zip", Serve(list_zip(tmp_path, RAPID, NOV25)))
    db = str(tmp_path / "c.db")
    cache = str(tmp_path / "cache")
    args = ("official", "fetch", "--period", "2025-11", "--base-url", folder.url, "--db", db)
    code, out, err = _cli(capsys, monkeypatch, *args, "--cache", cache)
    size = len(folder.files["/download/standard_nov25frl.zip"].body) / 1000
    rsize = len(folder.files["/download/rapid_nov25frl.zip"].body) / 1000
    assert code == 1
    assert out.splitlines() == [
        f"standard 2025-11: downloaded standard_nov25frl.zip ({size:.1f} KB)",
        f"rapid 2025-11: downloaded rapid_nov25frl.zip ({rsize:.1f} KB)",
        f"blitz 2025-11: the folder has no such file ({folder.url}blitz_nov25frl.zip: "
        "HTTP 404 Not Found): a copy of FIDE's folder may lack it, or --base-url names the "
        "wrong folder; skipped",
        "standard_nov25frl.zip: 2025-11 (standard): 40 players read; 0 in the database; 40 "
        "others skipped; 0 entries written; FIDE's whole list",
        "rapid_nov25frl.zip: 2025-11 (rapid): 40 players read; 0 in the database; 40 others "
        "skipped; 0 entries written; FIDE's whole list",
        "fetched: 2 (standard 2025-11, rapid 2025-11)",
        "from the cache: 0",
        "missing: 1 (blitz 2025-11)",
        "players of the database on each list: standard 2025-11: 0; rapid 2025-11: 0",
    ]
    assert err == (
        "error: 1 list not had: blitz 2025-11 (why and what to do: above); the other 2 "
        "lists imported\n"
    )
    code, out, err = _cli(capsys, monkeypatch, *args, "--cache", cache, "--list", "standard")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "standard 2025-11: in the cache (standard_nov25frl.zip)"
    assert "from the cache: 1 (standard 2025-11)" in out
    assert folder.hit("standard_nov25frl.zip") == 1


def test_fetch_format_json_and_csv_one_row_per_month(
    folder: Folder,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--format json and csv: one object (row) per month asked for, how it was had or why
    not, and what importing it gave; stdout holds that alone (no line per month, not cut to
    the width); the error line stays one line on stderr (exit 1). The list served is FIDE's
    verbatim sample of March 2011, zipped as FIDE's folder names it."""
    import csv
    import io

    from tests.test_fidelists import SAMPLE_ROWS

    sample = SPEC / "fide-list-samples" / "standard_mar11frl.txt"
    folder.put("standard_mar11frl.zip", Serve(zipped(sample.name, sample.read_bytes())))
    _, expected = SAMPLE_ROWS[sample.name]
    monkeypatch.setenv("COLUMNS", "40")
    db = str(tmp_path / "f.db")
    args = ["official", "fetch", "--from", "2011-03", "--to", "2011-05", "--list", "standard"]
    args += ["--base-url", folder.url, "--db", db, "--cache", str(tmp_path / "cache")]
    code, out, err = _cli(capsys, monkeypatch, *args, "--format", "json")
    assert code == 1
    assert err == (
        "error: 1 list not had: standard 2011-05 (why and what to do: the why and error "
        "fields); the other list imported\n"
    )
    had, missing = json.loads(out)
    size = len(folder.files["/download/standard_mar11frl.zip"].body)
    assert {k: had[k] for k in ("list", "period", "fetched", "file", "bytes", "reason")} == {
        "list": "standard",
        "period": "2011-03",
        "fetched": "downloaded",
        "file": "standard_mar11frl.zip",
        "bytes": size,
        "reason": None,
    }
    # an empty database: every player of the list read, none of them kept
    assert {k: had[k] for k in ("outcome", "periods", "lists", "players_read", "skipped")} == {
        "outcome": "imported",
        "periods": ["2011-03"],
        "lists": ["standard"],
        "players_read": len(expected),
        "skipped": len(expected),
    }
    assert (had["in_database"], had["entries"], had["error"]) == (0, 0, None)
    assert {k: missing[k] for k in ("period", "fetched", "file", "reason", "outcome")} == {
        "period": "2011-05",
        "fetched": "missing",
        "file": None,
        "reason": "not-published",
        "outcome": "not-had",
    }
    assert missing["why"].startswith(f"the folder has no such file ({folder.url}standard_may11")
    assert missing["players_read"] is None
    # again, as CSV: the month now comes from the cache
    code, out, err = _cli(capsys, monkeypatch, *args, "--format", "csv")
    assert code == 1 and err.count("\n") == 1
    lines = out.split("\r\n")
    assert len(lines) == 1 + 2 + 1 and lines[-1] == ""
    assert max(len(x) for x in lines) > 40  # not cut to COLUMNS
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["period"], r["fetched"], r["outcome"]) for r in rows] == [
        ("2011-03", "cached", "imported"),
        ("2011-05", "missing", "not-had"),
    ]
    assert rows[0]["players_read"] == str(len(expected)) and rows[0]["unchanged"] == "0"
    assert folder.hit("standard_mar11frl.zip") == 1


@pytest.mark.parametrize(
    "args,message",
    [
        (("--base-url", "ftp://example.org/"), "--base-url 'ftp://example.org/' is not an http"),
        (("--timeout", "0"), "--timeout 0: give a number of seconds above 0"),
        (("--retries", "11"), "--retries 11: give a whole number from 0 to 10"),
        (("--period", "1999-01"), "--period 1999-01: FIDE's download folder starts"),
        (("--period", "2010-02", "--list", "standard"), "--period 2010-02: FIDE published no"),
        (("--to", "2020-01"), "--to 2020-01: give --from too"),
        (("--list", "bullet"), "unknown list 'bullet'"),
    ],
)
def test_bad_values_on_the_command_line_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    message: str,
) -> None:
    db = tmp_path / "none.db"
    code, out, err = _cli(capsys, monkeypatch, "official", "fetch", *args, "--db", str(db))
    assert (code, out) == (2, "") and err.startswith(f"error: {message}"), err
    assert err.count("\n") == 1 and not db.exists()


def test_nothing_to_fetch_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "empty.db")
    open_store(db, create=True).close()
    code, out, err = _cli(capsys, monkeypatch, "official", "fetch", "--db", db, "--offline")
    assert (code, out) == (1, "")
    assert err == (
        "error: nothing to fetch: the database has no dated tournament since 2008 (import "
        "your games with `tracker import`), or name the months: --period YYYY-MM or --from "
        "YYYY-MM\n"
    )


# --- the real command, in a process of its own -----------------------------------------


def _env(tmp_path: Path) -> dict[str, str]:
    env = subprocess_env()
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy"):
        env.pop(name, None)
    env["no_proxy"] = "*"
    env["TRACKER_FETCH_BACKOFF"] = "0.01"
    env["TRACKER_LIST_CACHE"] = str(tmp_path / "cache")
    return env


def test_the_real_command_fetches_and_fails_cleanly(folder: Folder, tmp_path: Path) -> None:
    folder.put("standard_nov25frl.zip", Serve(list_zip(tmp_path, STD, NOV25)))
    db = str(tmp_path / "p.db")
    base = ("official", "fetch", "--base-url", folder.url, "--db", db, "--list", "standard")
    done = subprocess.run(
        tracker_command(*base, "--period", "2025-11"),
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith("standard 2025-11: downloaded standard_nov25frl.zip (")
    assert "━" not in done.stdout  # no progress bar in a pipe
    assert cache_files(tmp_path) == ["standard_nov25frl.zip"]
    failed = subprocess.run(
        tracker_command(*base, "--period", "2025-10"),
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert failed.returncode == 1 and "Traceback" not in failed.stderr
    assert failed.stderr == (
        "error: 1 list not had: standard 2025-10 (why and what to do: above)\n"
    )
    assert "standard 2025-10: the folder has no such file" in failed.stdout


def test_on_a_terminal_a_progress_bar_is_drawn_then_gone(folder: Folder, tmp_path: Path) -> None:
    from tests.terminal import on_a_terminal

    body = list_zip(tmp_path, STD, NOV25, count=4000)
    blocks = len(body) / 4096
    folder.put("standard_nov25frl.zip", Serve(body, trickle=1.0 / blocks))  # about 1 s
    args = ("official", "fetch", "--period", "2025-11", "--list", "standard")
    code, drawn = on_a_terminal(
        tracker_command(*args, "--base-url", folder.url, "--db", str(tmp_path / "t.db")),
        _env(tmp_path),
        columns=120,
    )
    assert code == 0, drawn
    bars = [line for line in drawn.splitlines() if "━" in line]
    assert any("standard_nov25frl.zip" in line and "/s" in line for line in bars), drawn
    assert "━" not in drawn.rstrip().splitlines()[-1]  # gone at the end


def _limit_file_size(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_full_disk_leaves_no_partial_file(folder: Folder, tmp_path: Path) -> None:
    # A file-size limit on the process: its writes fail in the kernel past `limit` bytes
    # (EFBIG, as ENOSPC on a full disk).
    body = list_zip(tmp_path, STD, NOV25, count=3000)
    limit = len(body) // 4
    folder.put("standard_nov25frl.zip", Serve(body))
    folder.put("rapid_nov25frl.zip", Serve(list_zip(tmp_path, RAPID, NOV25)))
    db = tmp_path / "full.db"
    done = subprocess.run(
        tracker_command(
            "official", "fetch", "--period", "2025-11", "--base-url", folder.url, "--db", str(db)
        ),
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: _limit_file_size(limit),  # noqa: PLW1509 (no threads in the child yet)
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    cache = tmp_path / "cache"
    assert done.stdout.splitlines()[0] == (
        f"standard 2025-11: cannot write the cache folder {cache} (File too large): free "
        "some space, or give another folder with --cache"
    )
    assert "not tried: 2 (rapid 2025-11, blitz 2025-11)" in done.stdout
    assert done.stderr == (
        "error: 3 lists not had: standard 2025-11, rapid 2025-11, blitz 2025-11 (why and "
        "what to do: above)\n"
    )
    assert cache_files(tmp_path) == [] and not db.exists()


def test_ctrl_c_leaves_no_partial_file(folder: Folder, tmp_path: Path) -> None:
    folder.put("standard_nov25frl.zip", Serve(stall=True))
    db = tmp_path / "c.db"
    proc = subprocess.Popen(
        tracker_command(
            "official", "fetch", "--period", "2025-11", "--base-url", folder.url, "--db", str(db)
        ),
        env=_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert folder.asked.wait(60), "the command never asked the server"
        time.sleep(0.2)
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert err == (
        f"interrupted: the lists downloaded stay in the cache ({tmp_path / 'cache'}) and "
        "those imported stay imported; nothing of the file being downloaded or imported was "
        "kept: run the command again to go on\n"
    )
    assert cache_files(tmp_path) == [] and not db.exists()


# --- end to end: a season's PGN files, then FIDE's folder, then the history --------------

ME = ("Novák, Tomáš", 99012345)
OPPONENTS = (  # name, FIDE ID, the PGN's Elo tag (None: missing), FIDE's rating, the score
    ("Adler, Anna", 1001, None, 1850, "1-0"),
    ("Berg, Bruno", 1002, "2150", 1750, "1/2-1/2"),
    ("Cerny, Cyril", 1003, None, 1950, "0-1"),
    ("Dorn, Dora", 1004, None, 2050, "1-0"),
)


def _person(name: str, fide_id: int, rating: int) -> Player:
    empty = Figures(None, None, None)
    return Player(
        fide_id, name, "CZE", "M", "", "", "", "", Figures(rating, 4, 20), empty, empty, 1990, ""
    )


def _list_file(tmp: Path, period: Period, people: list[Player]) -> bytes:
    name = file_names(STD, period)[0]
    text = tmp / name.replace(".zip", ".txt")
    with text.open("w", encoding="utf-8", newline="\n") as out:
        write_list(out, people, "txt", rating_list=STD, period=period)
    return zipped(text.name, text.read_bytes())


def test_a_season_then_fides_folder_gives_fides_ratings(
    folder: Folder,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = dt.date(2025, 11, 7)
    games = []
    for i, (name, fid, tag, _, result) in enumerate(OPPONENTS):
        head = {
            "Event": "Autumn Open",
            "Site": "Brno",
            "Date": (start + dt.timedelta(days=i)).strftime("%Y.%m.%d"),
            "Round": str(i + 1),
            "White": ME[0],
            "Black": name,
            "Result": result,
            "WhiteFideId": str(ME[1]),
            "BlackFideId": str(fid),
            "TimeControl": "5400+30",
        }
        if tag is not None:
            head["BlackElo"] = tag
        games.append("".join(f'[{k} "{v}"]\n' for k, v in head.items()) + f"\n1. e4 {result}\n")
    pgn = tmp_path / "autumn.pgn"
    pgn.write_text("\n".join(games), encoding="utf-8")
    db = str(tmp_path / "season.db")
    code, _, err = _cli(capsys, monkeypatch, "import", str(pgn), "--db", db, "--player", ME[0])
    assert code == 0, err
    # Without the lists: three opponents have no tag, so one game counts (Berg's, by his
    # tag), toward a first rating
    code, out, err = _cli(capsys, monkeypatch, "history", "--db", db)
    assert (code, err) == (0, ""), err
    assert "Season 2025-12 (standard): 1 rated game, 0.5 points" in out
    # FIDE's folder: the November list (in force at the start: Novák 1850, K 20, and his
    # opponents) and the December list, with the rating FIDE published after the Open.
    # By hand, with FIDE's table 8.1.2: D 0 -> 0.50, D +100 -> 0.64, D -100 -> 0.36,
    # D -200 -> 0.24; 2.5 points against 1.74 expected, 20 x 0.76 = 15.2 -> +15: 1865.
    opponents = [_person(n, f, r) for n, f, _, r, _ in OPPONENTS]
    folder.put(
        "standard_nov25frl.zip",
        Serve(_list_file(tmp_path, NOV25, [_person(ME[0], ME[1], 1850), *opponents])),
    )
    folder.put(
        "standard_dec25frl.zip",
        Serve(_list_file(tmp_path, Period(2025, 12), [_person(ME[0], ME[1], 1865), *opponents])),
    )
    monkeypatch.setenv("TRACKER_LIST_CACHE", str(tmp_path / "cache"))
    code, out, err = _cli(
        capsys, monkeypatch, "official", "fetch", "--base-url", folder.url, "--db", db
    )
    assert (code, err) == (0, ""), err
    assert "fetched: 2 (standard 2025-11, standard 2025-12)" in out
    assert "players of the database on each list: standard 2025-11: 5; standard 2025-12: 5" in out
    code, out, err = _cli(capsys, monkeypatch, "history", "--db", db, "--format", "json")
    assert code == 0, err
    (dec,) = [r for r in json.loads(out) if r["period"] == "2025-12"]
    assert (dec["games"], dec["rating_after"], dec["official_rating"]) == (4, 1865, 1865)
    assert dec["opponents_from_lists"] == 4
    code, out, err = _cli(capsys, monkeypatch, "explain", "2025-12", "--db", db, "--format", "json")
    rated = {g["opponent"]: g["opponent_rating"] for g in json.loads(out)["games"]}
    assert rated == {n: r for n, _, _, r, _ in OPPONENTS}


def test_a_404_blames_fide_only_on_fides_own_folder() -> None:
    """A file missing from FIDE's own folder is a list FIDE never published; one missing from
    another folder (a mirror, a wrong --base-url) may be a list the copy lacks."""
    from tracker.lists.fetch import FIDE_DOWNLOADS, FetchSettings, Missing, Why
    from tracker.reports.fetch import missing_text

    period = Period(2022, 3)
    fide = Missing(RatingList.STANDARD, period, Why.NOT_PUBLISHED, FIDE_DOWNLOADS + "x.zip", 404)
    assert missing_text(fide, FetchSettings()).endswith("FIDE never published this list; skipped")
    mirror = Missing(RatingList.STANDARD, period, Why.NOT_PUBLISHED, "http://m/x.zip", 404)
    said = missing_text(mirror, FetchSettings(base_url="http://m/"))
    assert "never published" not in said
    assert said.endswith("--base-url names the wrong folder; skipped")
