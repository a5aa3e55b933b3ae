"""PostgreSQL for real (issue 17): the server of the test session (tests/conftest.py,
`pg_cluster`), what only PostgreSQL has (the advisory write lock, COPY, sequences, its
messages), and SQLite and PostgreSQL side by side on the same files.

The store, import, replay, check and concurrency tests of the other files run on both
databases too (those marked `databases`); here are the cases that need both at once, or a
server of their own making (a new database, a lock held by hand, a server that is not there).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from tests.conftest import (
    REPO,
    SAMPLES,
    STAMPS,
    PgCluster,
    dump_target,
    run_cli,
    subprocess_env,
    tracker_command,
)
from tests.test_db_maintenance import DAMAGE
from tests.test_import import pgn, write
from tracker.app.importing import ImportOptions, import_paths
from tracker.errors import DatabaseError, NotFound
from tracker.lists import ListRating, ListRow
from tracker.model import Period, RatingList
from tracker.store import open_store
from tracker.store.db import WRITE_LOCK, current_revision, head_revision
from tracker.store.maintenance import check_database, open_existing
from tracker.store.official import import_entries

pytestmark = pytest.mark.slow  # a throwaway PostgreSQL server, processes at once


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


@pytest.fixture
def pg_url(pg_cluster: PgCluster, request: pytest.FixtureRequest) -> str:
    """The URL of a new, empty PostgreSQL database (no tracker schema yet)."""
    return pg_cluster.new_database(request)


def test_the_extras_bring_psycopg_3() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert any(d.startswith("psycopg[binary]") for d in extras["postgres"])
    # the README's test command (pip install -e '.[dev]' && pytest) runs these tests too
    assert any(d.startswith("psycopg[binary]") for d in extras["dev"])


# --- opening: the schema on first use, the URL, the sentences ----------------------------


def test_first_use_makes_the_schema_of_the_migrations(pg_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from tracker.store.schema import metadata

    with pytest.raises(NotFound, match="holds no tracker data yet"):
        open_store(pg_url, create=False)  # a reading command never makes the schema
    with open_store(pg_url) as store, store.engine.connect() as conn:
        assert current_revision(store) == head_revision()
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        checks = conn.execute(
            text(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE contype = 'c' ORDER BY conname"
            )
        ).all()
    # migration 0004's PostgreSQL branch: the list checks in the = ... OR form
    assert (
        "ck_games_list",
        "CHECK ((((list)::text = 'standard'::text) OR ((list)::text = "
        "'rapid'::text) OR ((list)::text = 'blitz'::text)))",
    ) in checks


def test_a_url_without_driver_means_psycopg(pg_cluster: PgCluster, pg_url: str) -> None:
    plain = pg_url.replace("postgresql+psycopg://", "postgresql://")
    with open_store(plain) as store:
        assert store.engine.dialect.driver == "psycopg"


def test_the_sentences_of_a_server_that_cannot_be_used(
    pg_cluster: PgCluster, tmp_path: Path
) -> None:
    with pytest.raises(DatabaseError) as missing:
        open_store(pg_cluster.url("nowhere"))
    assert str(missing.value).endswith(
        "the server has no database nowhere: create it (createdb nowhere), tracker makes "
        "its tables on first use"
    )
    url = f"postgresql+psycopg://u:secret@/x?host={tmp_path}"
    with pytest.raises(DatabaseError) as down:
        open_store(url)
    said = str(down.value)
    assert "\n" not in said and "secret" not in said and "u:***@" in said
    assert "Is the server running" in said
    with pytest.raises(DatabaseError, match="tracker works on SQLite .* and PostgreSQL"):
        open_store("mysql://u@localhost/x")


def test_a_database_of_another_program_is_left_alone(pg_url: str) -> None:
    import psycopg

    with psycopg.connect(
        pg_url.replace("postgresql+psycopg", "postgresql"), autocommit=True
    ) as conn:
        conn.execute("CREATE TABLE notes (x text)")
    with pytest.raises(DatabaseError, match="holds tables of another program"):
        open_store(pg_url)


# --- the write lock -------------------------------------------------------------------------


def _holding_the_write_lock(url: str) -> Any:
    import psycopg

    conn = psycopg.connect(url.replace("postgresql+psycopg", "postgresql"))
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
    return conn


def test_a_writer_waits_for_the_lock_and_then_says_busy(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tracker.store import db

    open_store(pg_url).close()
    # Novak is in the database before the lock is taken: `player set` below finds him and
    # then waits for the lock (a name that matches nothing would be exit 2 at once)
    first = write(tmp_path / "first.pgn", pgn(Round="0"))
    assert run(capsys, monkeypatch, "import", str(first), "--db", pg_url)[0] == 0
    f = write(tmp_path / "a.pgn", pgn())
    holder = _holding_the_write_lock(pg_url)
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 300)
    try:
        started = time.monotonic()
        code, out, err = run(capsys, monkeypatch, "import", str(f), "--db", pg_url)
        waited = time.monotonic() - started
        assert code == 1 and waited >= 0.3
        assert (
            f"{f}: not imported: the database stayed busy: another tracker is writing to "
            "it; run the import again when that one has finished"
        ) in out
        code, out, err = run(capsys, monkeypatch, "player", "set", "Novak", "--me", "--db", pg_url)
        assert code == 1 and "busy" in out + err, out + err
    finally:
        holder.close()
    code, out, err = run(capsys, monkeypatch, "import", str(f), "--db", pg_url)  # free again
    assert code == 0 and "1 added" in out, err


def test_readers_never_wait_for_a_writer(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    f = write(tmp_path / "a.pgn", pgn())
    assert run(capsys, monkeypatch, "import", str(f), "--db", pg_url)[0] == 0
    holder = _holding_the_write_lock(pg_url)
    try:
        code, out, err = run(capsys, monkeypatch, "history", "Novak, Jan", "--db", pg_url)
        assert code == 0, err
        assert run(capsys, monkeypatch, "db", "check", "--db", pg_url)[0] == 0
    finally:
        holder.close()


# --- ids: the importer's and the sequences' ------------------------------------------------


@pytest.mark.databases
def test_players_of_a_list_after_imported_games_get_ids_of_their_own(
    db_target: str, tmp_path: Path
) -> None:
    # The importer allocates player ids itself; the players an official list creates take
    # theirs from the table (SQLite) or its sequence (PostgreSQL): never one of the former.
    with open_store(db_target) as store:
        f = write(tmp_path / "a.pgn", pgn(Round="1"), pgn(Round="2", White="Dvorak, Ivo"))
        assert import_paths(store, [str(f)], ImportOptions()).sources[0].added == 2
        period = Period.parse("2025-10")
        rows = [
            ListRow(
                fide_id=99000000 + i,
                name=f"Listed, No{i}",
                period=period,
                ratings=(ListRating(RatingList.STANDARD, 1500 + i, 0, 20),),
                federation="CZE",
                birth_year=1990,
            )
            for i in range(3)
        ]
        summary = import_entries(store, rows, keep_all=True, source="list.txt")
        assert summary.created == 3
        g = write(tmp_path / "b.pgn", pgn(Round="3", White="Third, New"))
        assert import_paths(store, [str(g)], ImportOptions()).sources[0].added == 1
        with store.engine.connect() as conn:
            ids = conn.execute(text("SELECT id FROM players ORDER BY id")).scalars().all()
        assert ids == [1, 2, 3, 4, 5, 6, 7]  # 3 players of games, 3 of the list, 1 of games
        assert check_database(store) == []


# --- SQLite and PostgreSQL: the same facts, the same replay ---------------------------------


def test_the_sample_season_is_the_same_on_both(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TRACKER_DB", raising=False)
    sqlite = str(tmp_path / "s.db")
    for target in (sqlite, pg_url):
        code, out, err = run(
            capsys,
            monkeypatch,
            "import",
            str(SAMPLES),
            "--quiet",
            "--player",
            "99012345",
            "--db",
            target,
        )
        assert code == 0, err
        code, out, err = run(capsys, monkeypatch, "import", str(SAMPLES), "--quiet", "--db", target)
        assert code == 0 and "0 added" in out, err
    # every fact the same (the games' ids too: no duplicate took a number), and every report
    assert dump_target(sqlite, without=STAMPS) == dump_target(pg_url, without=STAMPS)
    for command in (
        ("history", "--format", "json"),
        ("history", "--list", "rapid"),
        ("players", "--format", "json"),
        ("next", "--format", "json"),
        ("export",),
        ("export", "--what", "games"),
        ("history", "--list", "blitz"),
    ):
        said = [run(capsys, monkeypatch, *command, "--db", target) for target in (sqlite, pg_url)]
        assert said[0][0] == 0 and said[0] == said[1], command


def test_duplicates_and_clashes_are_found_by_the_database(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same file on both: duplicates within it and against an earlier import, and a
    # duplicate whose result differs (a clash) reported with the line of each.
    texts = [
        pgn(
            Round=str(r),
            White=f"P{r % 4}",
            WhiteFideId=str(10 + r % 4),
            Date=f"2025.0{1 + r % 3}.0{1 + r % 7}",
        )
        for r in range(40)
    ]
    first = write(tmp_path / "first.pgn", *texts[:10])
    clash = texts[3].replace(" 1-0\n", " 0-1\n").replace('"1-0"', '"0-1"')
    second = write(tmp_path / "second.pgn", *texts, *texts[:5], clash)
    said = []
    sqlite = str(tmp_path / "s.db")
    for target in (sqlite, pg_url):
        assert run(capsys, monkeypatch, "import", str(first), "--db", target)[0] == 0
        said.append(run(capsys, monkeypatch, "import", str(second), "--db", target))
    assert said[0] == said[1]
    # 46 read: 10 stored before, 5 twice in the file, 1 the clash; 30 new
    assert "46 games read, 30 added, 16 already stored, 1 problem" in said[0][1]
    assert "this game is already stored with result 1-0 (import 1" in said[0][2]
    assert dump_target(sqlite, without=(*STAMPS, "id")) == dump_target(
        pg_url, without=(*STAMPS, "id")
    )


# --- the commands that look after the database ---------------------------------------------


def test_db_commands_on_postgresql(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, monkeypatch, "db", "upgrade", "--db", pg_url)
    assert code == 0 and out.startswith(f"{pg_url}: schema upgraded from empty to "), err
    code, out, err = run(capsys, monkeypatch, "db", "upgrade", "--db", pg_url)
    assert code == 0 and "is current" in out
    f = write(tmp_path / "a.pgn", pgn())
    assert run(capsys, monkeypatch, "import", str(f), "--db", pg_url)[0] == 0
    code, out, err = run(capsys, monkeypatch, "db", "check", "--db", pg_url)
    assert (code, out, err) == (
        0,
        f"{pg_url}: ok (every invariant holds; the server keeps its own integrity)\n",
        "",
    )
    code, out, err = run(capsys, monkeypatch, "db", "backup", "b.dump", "--db", pg_url)
    assert code == 1 and out == "" and err.count("\n") == 1 and "pg_dump" in err, err
    assert not (tmp_path / "b.dump").exists()
    sqlite_backup = tmp_path / "b.db"
    assert run(capsys, monkeypatch, "import", str(f), "--db", str(tmp_path / "s.db"))[0] == 0
    assert (
        run(
            capsys, monkeypatch, "db", "backup", str(sqlite_backup), "--db", str(tmp_path / "s.db")
        )[0]
        == 0
    )
    code, out, err = run(capsys, monkeypatch, "db", "restore", str(sqlite_backup), "--db", pg_url)
    assert code == 1 and err.count("\n") == 1 and "pg_restore" in err, err
    # imports remove takes the write lock there too
    code, out, err = run(capsys, monkeypatch, "imports", "remove", "1", "--db", pg_url)
    assert code == 0 and out.startswith("removed import 1: "), err
    code, out, err = run(capsys, monkeypatch, "import", str(f), "--db", pg_url)
    assert code == 0 and "1 added" in out, err


# A dangling reference (the foreign keys), a broken CHECK, a value only tracker checks, and
# an unfinished import (db check runs every invariant's SQL on PostgreSQL each time).
ON_POSTGRESQL = [
    d for d in DAMAGE if d[1] in ("game-white", "game-list", "official-period", "import-unfinished")
]


@pytest.mark.parametrize("sql,check,count", ON_POSTGRESQL, ids=[d[1] for d in ON_POSTGRESQL])
def test_each_invariant_reports_its_damage_on_postgresql(
    pg_url: str, tmp_path: Path, sql: str, check: str, count: int
) -> None:
    # The damage of tests/test_db_maintenance.py, made with the server's foreign keys off
    # (session_replication_role) and, for a list, without its CHECK constraint.
    import psycopg

    f = write(
        tmp_path / "games.pgn",
        pgn(Round="1"),
        pgn(Round="2", White="Dvorak, Ivo"),
        pgn(Round="3", Black="Dvorak, Ivo", WhiteFideId="99012345"),
    )
    with open_store(pg_url) as store:
        assert import_paths(store, [str(f)], ImportOptions()).sources[0].added == 3
    with psycopg.connect(
        pg_url.replace("postgresql+psycopg", "postgresql"), autocommit=True
    ) as conn:
        conn.execute("SET session_replication_role = replica")
        if check.endswith("-list"):
            table = "games" if check.startswith("game") else "official_ratings"
            conn.execute(f"ALTER TABLE {table} DROP CONSTRAINT ck_{table}_list")
        conn.execute(sql)
    with open_existing(pg_url) as store:
        found = {p.check: p.count for p in check_database(store)}
    assert found == {check: count}


def test_downgrade_to_0001_and_back_keeps_the_rows(pg_url: str, tmp_path: Path) -> None:
    # Every migration both ways on PostgreSQL (0004 alters its checks in place there).
    from alembic import command

    from tracker.store.db import _alembic_config

    f = write(tmp_path / "games.pgn", pgn(Round="1"), pgn(Round="2", WhiteFideId="99012345"))
    with open_store(pg_url) as store:
        import_paths(store, [str(f)], ImportOptions())
    before = dump_target(pg_url)
    with open_existing(pg_url) as store:
        cfg = _alembic_config()
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0001")
        assert current_revision(store) == "0001"
    with open_store(pg_url) as store:
        assert current_revision(store) == head_revision()
        assert check_database(store) == []
    assert dump_target(pg_url) == before


# --- several processes at once ------------------------------------------------------------


GAMES = 3000  # a second of import each part: the three overlap


@pytest.mark.slow
def test_importers_of_the_parts_of_one_file_into_a_new_database(
    pg_url: str, tmp_path: Path
) -> None:
    # The scenario of issue 17: three `tracker import` processes, each a third of one file,
    # into a database nobody opened yet, and a reader all the while. Every one completes,
    # and the database holds what one import of the whole file stores (SQLite: the same in
    # tests/test_faults_concurrency.py and tests/test_store_migrations.py). Without the write
    # lock, 1 of 3 succeeds (checked by hand: the others fail on "pk_players").
    db_target = pg_url
    games = [
        pgn(
            Event=f"Open {i // 300}",
            Round=str(i),
            White=f"W{i % 97}",
            Black=f"B{i % 89}",
            WhiteElo=str(1500 + i % 900),
            BlackElo="1600",
            WhiteFideId=str(99100000 + i % 97),
        )
        for i in range(GAMES)
    ]
    games += games[100:130]  # duplicates, within one part and across parts
    parts = [write(tmp_path / f"part{n}.pgn", *games[n::3]) for n in range(3)]
    procs = [
        subprocess.Popen(
            tracker_command("import", str(p), "--db", db_target, "--quiet"),
            env=subprocess_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in parts
    ]
    reads: list[tuple[int, str]] = []
    while any(p.poll() is None for p in procs) or not reads:
        r = subprocess.run(
            tracker_command("players", "--format", "json", "--db", db_target),
            env=subprocess_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        reads.append((r.returncode, r.stderr))
    results = [(p.returncode, *p.communicate(timeout=120)) for p in procs]
    assert [code for code, _, _ in results] == [0, 0, 0], results
    # a reader may come before the schema: then it says so, nothing else
    assert all(
        code == 0 or "holds no tracker data yet" in e or "does not exist" in e for code, e in reads
    ), reads
    whole = write(tmp_path / "whole.pgn", *games)
    one = str(tmp_path / "one.db")
    with open_store(one) as store:
        assert import_paths(store, [str(whole)], ImportOptions()).sources[0].added == GAMES
    with open_store(db_target) as store:
        assert check_database(store) == []

    # the same games and players (ids aside: the parts came in another order)
    def facts(target: str) -> tuple[list[tuple[bytes, str]], list[str]]:
        with open_store(target) as s, s.engine.connect() as conn:
            games = sorted(
                (bytes(i), str(r))
                for i, r in conn.execute(text("SELECT identity, result FROM games"))
            )
            names = sorted(
                conn.execute(
                    text("SELECT name || ' ' || coalesce(cast(fide_id AS text), '-') FROM players")
                ).scalars()
            )
        return games, names

    assert facts(db_target) == facts(one)
    print(f"3 importers, {len(reads)} reads, {len(facts(one)[0])} games")


def test_a_new_database_opened_by_four_processes_at_once(pg_url: str) -> None:
    code = "import sys; from tracker.store import open_store; open_store(sys.argv[1]).close()"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, pg_url], stderr=subprocess.PIPE, env=subprocess_env()
        )
        for _ in range(4)
    ]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
    with open_store(pg_url) as store:
        assert current_revision(store) == head_revision()


def test_the_json_of_a_reader_is_whole_while_importers_write(pg_url: str, tmp_path: Path) -> None:
    # A reader sees a file's games all or none (each file is one transaction).
    f = write(tmp_path / "a.pgn", *(pgn(Round=str(r), Black=f"O{r}") for r in range(400)))
    g = write(
        tmp_path / "b.pgn",
        *(pgn(Round=str(r), Black=f"Q{r}", Date="2025.04.01") for r in range(400)),
    )  # (a second or so each)
    open_store(pg_url).close()
    procs = [
        subprocess.Popen(
            tracker_command("import", str(x), "--db", pg_url, "--quiet"),
            env=subprocess_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for x in (f, g)
    ]
    seen = set()
    while any(p.poll() is None for p in procs):
        r = subprocess.run(
            tracker_command("players", "--search", "Novak", "--format", "json", "--db", pg_url),
            env=subprocess_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert r.returncode == 0, r.stderr
        found = json.loads(r.stdout)  # [] before the first file lands
        seen.add(sum(found[0]["games"].values()) if found else 0)
    errors = [p.communicate(timeout=120)[1] for p in procs]  # reads and closes the pipes
    assert [p.returncode for p in procs] == [0, 0], errors
    assert seen <= {0, 400, 800}, seen


@pytest.mark.bench
def test_the_bench_runs(tmp_path: Path) -> None:
    # bench/postgres.py on a tiny input (pytest -m bench: some twenty seconds of processes)
    from tests.conftest import CORPUS, need_shared

    need_shared()
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "postgres.py"),
            "--games",
            "600",
            "--players",
            "20",
            "--runs",
            "1",
            "--workdir",
            str(tmp_path),
            "--source",
            str(CORPUS / "event-Gibraltar2019.pgn.xz"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| import, new database (600 games) |" in proc.stdout
    assert "| check --all, 20 players, --jobs 2 |" in proc.stdout
    assert (tmp_path / "postgres-bench.md").exists()
