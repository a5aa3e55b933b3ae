"""The QA bugs of tracker.sources: tar archives, a zip on standard input, file names that are
not UTF-8, pipes named as paths, archives inside archives, compression told by magic bytes.

Each test reproduces a reported bug (it failed before the fix) and pins the fixed behaviour.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import sqlite3
import subprocess
import sys
import tarfile
import threading
import zipfile
from pathlib import Path

import pytest

import tracker.sources as sources
from tests.conftest import SAMPLES, subprocess_env, tracker_command
from tracker.errors import BadInput
from tracker.importer import ImportOptions, import_paths
from tracker.sources import MAX_NESTING, iter_sources
from tracker.store import Store, open_store


def game(n: int) -> bytes:
    return (f'[Event "E"]\n[Site "S"]\n[Date "2025.10.0{n % 9 + 1}"]\n[Round "{n}"]\n'
            f'[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n'
            ).encode()


A, B, C = game(1), game(2) + game(3), game(4)


def contents(paths: list[str]) -> list[tuple[str, bytes]]:
    out = []
    for s in iter_sources(paths):
        with s.open() as f:
            out.append((s.name, f.read()))
    return out


def tar_bytes(members: list[tuple[str, bytes]], mode: str = "w") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tf:  # type: ignore[call-overload]
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zip_bytes(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return buf.getvalue()


# -- bug 1: tar archives ----------------------------------------------------------------------

TAR_MODES = {".tar": "w", ".tar.gz": "w:gz", ".tgz": "w:gz", ".tar.bz2": "w:bz2",
             ".tar.xz": "w:xz"}


@pytest.mark.parametrize("suffix", list(TAR_MODES))
def test_tar_members_are_read_in_order(tmp_path: Path, suffix: str) -> None:
    members = [("./b.pgn", B), ("readme.txt", b"not games"), ("./sub/a.PGN", A),
               ("./" + "long" * 40 + ".pgn", C)]  # a name over 100 bytes (a GNU/pax header)
    t = tmp_path / f"s{suffix}"
    t.write_bytes(tar_bytes(members, TAR_MODES[suffix]))
    want = [(f"{t}:{n.removeprefix('./')}", d) for n, d in members if n != "readme.txt"]
    assert contents([str(t)]) == want
    assert contents([str(t)]) == want  # a fresh stream each time
    assert sorted(p.name for p in tmp_path.iterdir()) == [t.name]  # nothing unpacked


def test_a_folder_picks_up_tar_archives(tmp_path: Path) -> None:
    (tmp_path / "s.tgz").write_bytes(tar_bytes([("a.pgn", A)], "w:gz"))
    assert contents([str(tmp_path)]) == [(f"{tmp_path / 's.tgz'}:a.pgn", A)]


def test_tar_without_pgn_and_damaged_tar(tmp_path: Path) -> None:
    (tmp_path / "docs.tar").write_bytes(tar_bytes([("readme.txt", b"x")]))
    with pytest.raises(BadInput, match=r"docs.tar holds no .pgn file"):
        iter_sources([str(tmp_path / "docs.tar")])
    whole = tar_bytes([("a.pgn", A * 2000)], "w:gz")
    (tmp_path / "cut.tar.gz").write_bytes(whole[: len(whole) // 2])
    with pytest.raises(BadInput, match=r"cut.tar.gz is not a readable tar archive"):
        iter_sources([str(tmp_path / "cut.tar.gz")])


def test_a_member_cut_short_is_an_error_not_fewer_games(tmp_path: Path) -> None:
    from tracker.pgn import read_games

    whole = tar_bytes([("a.pgn", A * 50)])
    (tmp_path / "cut.tar").write_bytes(whole)
    (source,) = iter_sources([str(tmp_path / "cut.tar")])
    (tmp_path / "cut.tar").write_bytes(whole[:1000])  # cut after the listing
    with source.open() as f, pytest.raises(BadInput, match=r"cut.tar:a.pgn: the file cannot"):
        list(read_games(f, source.name))


def test_tar_then_its_files_are_recognised(store: Store, db_path: Path, tmp_path: Path) -> None:
    """The reproduction: a tar.gz of three sample files, then the files themselves."""
    names = ["2025-09-12_brno-autumn-open.pgn", "2025-10-03_olomouc-open.pgn",
             "2025-11-21_weinviertel-open.pgn"]
    t = tmp_path / "s.tar.gz"
    t.write_bytes(tar_bytes([(f"./{n}", (SAMPLES / n).read_bytes()) for n in names], "w:gz"))
    first = import_paths(store, [str(t)], ImportOptions())
    assert [s.problem_count for s in first.sources] == [0, 0, 0]
    assert first.total("added") == sum((SAMPLES / n).read_bytes().count(b"[Event ") for n in names)
    again = import_paths(store, [str(SAMPLES / n) for n in names], ImportOptions())
    assert again.total("added") == 0
    assert all(s.already is not None for s in again.sources)
    con = sqlite3.connect(db_path)
    try:
        events = {r[0] for r in con.execute("SELECT event FROM tournaments")}
    finally:
        con.close()
    assert "?" not in events and len(events) == 3


# -- bug 2: a zip on standard input -----------------------------------------------------------


def fake_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    class FakeStdin:
        buffer = io.BytesIO(data)

    monkeypatch.setattr(sys, "stdin", FakeStdin())
    monkeypatch.setattr(sources, "_STDIN", None)


def test_a_zip_on_standard_input_yields_every_member(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_stdin(monkeypatch, zip_bytes([("a.pgn", A), ("x.txt", b"no"), ("b.pgn", B)]))
    assert contents(["-"]) == [("-:a.pgn", A), ("-:b.pgn", B)]


def test_a_tar_on_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_stdin(monkeypatch, tar_bytes([("a.pgn", A), ("b.pgn", B)], "w:bz2"))
    assert contents(["-"]) == [("-:a.pgn", A), ("-:b.pgn", B)]


def test_a_zip_on_standard_input_imports_every_game(store: Store,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    fake_stdin(monkeypatch, zip_bytes([("a.pgn", A), ("b.pgn", B + C)]))
    report = import_paths(store, ["-"], ImportOptions())
    assert [(s.name, s.added) for s in report.sources] == [("-:a.pgn", 1), ("-:b.pgn", 3)]


def test_a_big_spool_is_read_by_two_readers_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past 32 MB the spool is a temporary file: reads never share its position."""
    monkeypatch.setattr(sources, "_SPOOL_MEMORY", 1000)
    data = B * 200
    fake_stdin(monkeypatch, data)
    (source,) = iter_sources(["-"])
    got: list[bytes] = []

    def read() -> None:
        with source.open() as f:
            got.append(b"".join(iter(lambda: f.read(7), b"")))

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [data] * 4


# -- bug 7: file names that are not UTF-8 -----------------------------------------------------


def bad_name(folder: Path) -> Path:
    name = os.fsdecode(b"Open_\x8e\xe1r.pgn")
    path = folder / name
    try:
        path.write_bytes(A)
    except (OSError, UnicodeEncodeError):  # pragma: no cover - a file system without them
        pytest.skip("the file system refuses names that are not UTF-8")
    return path


def test_a_name_that_is_not_utf8_is_shown_escaped(tmp_path: Path) -> None:
    path = bad_name(tmp_path)
    (tmp_path / "b.pgn").write_bytes(B)
    want = [(f"{tmp_path}/Open_\\x8e\\xe1r.pgn", A), (str(tmp_path / "b.pgn"), B)]
    assert contents([str(tmp_path)]) == want
    assert contents([str(path)]) == want[:1]


def test_a_name_that_is_not_utf8_is_imported(tmp_path: Path) -> None:
    bad_name(tmp_path)
    (tmp_path / "b.pgn").write_bytes(B)
    db = tmp_path / "t.db"
    open_store(str(db)).close()  # the import under test, not the creation of a database
    done = subprocess.run(tracker_command("import", str(tmp_path), "--db", str(db)),
                          capture_output=True, env=subprocess_env(), timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    con = sqlite3.connect(db)
    try:
        stored = sorted(r[0] for r in con.execute("SELECT source FROM imports"))
        games = con.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        con.close()
    assert stored == [f"{tmp_path}/Open_\\x8e\\xe1r.pgn", str(tmp_path / "b.pgn")]
    assert games == 3
    assert b"Open_\\x8e\\xe1r.pgn: 1 game read, 1 added" in done.stdout


# -- bug 11: pipes named as paths -------------------------------------------------------------


def test_a_named_pipe_is_read_once(tmp_path: Path) -> None:
    fifo = tmp_path / "games.pgn"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(gzip.compress(B))

    writer = threading.Thread(target=write)
    writer.start()
    got = contents([str(fifo)])
    writer.join()
    assert got == [(str(fifo), B)]


def test_a_pipe_given_as_dev_fd(tmp_path: Path) -> None:
    """`tracker import <(cat f.pgn)` and `cat f.pgn | tracker import /dev/stdin`."""
    f = tmp_path / "f.pgn"
    f.write_bytes(B)
    db = tmp_path / "t.db"
    open_store(str(db)).close()  # the import under test, not the creation of a database
    with open(f, "rb") as data:
        cat = subprocess.Popen(["cat"], stdin=data, stdout=subprocess.PIPE)
        assert cat.stdout is not None
        done = subprocess.run(tracker_command("import", "/dev/stdin", "--db", str(db)),
                              stdin=cat.stdout, capture_output=True, env=subprocess_env(),
                              timeout=120, check=False)
        cat.wait()
    assert done.returncode == 0, done.stderr
    assert b"/dev/stdin: 2 games read, 2 added" in done.stdout


def test_a_device_is_refused() -> None:
    with pytest.raises(BadInput, match=r"/dev/zero is a device, not a file"):
        iter_sources(["/dev/zero"])


# -- bug 23: archives inside archives, compression told by its magic bytes --------------------


def test_a_zip_inside_a_zip_is_read(tmp_path: Path) -> None:
    inner = zip_bytes([("a.pgn", A), ("b.pgn", B)])
    z = tmp_path / "outer.zip"
    z.write_bytes(zip_bytes([("inner.zip", inner), ("c.pgn.gz", gzip.compress(C))]))
    assert contents([str(z)]) == [(f"{z}:inner.zip:a.pgn", A), (f"{z}:inner.zip:b.pgn", B),
                                  (f"{z}:c.pgn.gz", C)]


def test_archives_inside_a_tar_gz(tmp_path: Path) -> None:
    t = tmp_path / "all.tar.gz"
    t.write_bytes(tar_bytes([("one.zip", zip_bytes([("a.pgn", A)])),
                             ("two.tar.xz", tar_bytes([("b.pgn", B)], "w:xz")),
                             ("three.pgn.bz2", bz2.compress(C))], "w:gz"))
    assert contents([str(t)]) == [(f"{t}:one.zip:a.pgn", A), (f"{t}:two.tar.xz:b.pgn", B),
                                  (f"{t}:three.pgn.bz2", C)]


def test_members_of_the_same_name_in_two_inner_archives_are_both_kept(tmp_path: Path) -> None:
    z = tmp_path / "outer.zip"
    z.write_bytes(zip_bytes([("x.zip", zip_bytes([("a.pgn", A)])),
                             ("y.zip", zip_bytes([("a.pgn", B)]))]))
    assert [d for _, d in contents([str(z)])] == [A, B]


def test_too_deep_or_empty_inner_archives_fail_alone(tmp_path: Path) -> None:
    deep = zip_bytes([("a.pgn", A)])
    for level in range(MAX_NESTING):
        deep = zip_bytes([(f"level{level}.zip", deep)])
    z = tmp_path / "outer.zip"
    z.write_bytes(zip_bytes([("deep.zip", deep), ("docs.zip", zip_bytes([("r.txt", b"x")])),
                             ("b.pgn", B)]))
    got = list(iter_sources([str(z)]))
    assert [s.name for s in got] == [
        f"{z}:deep.zip:level{MAX_NESTING - 1}.zip:level{MAX_NESTING - 2}.zip",
        f"{z}:docs.zip", f"{z}:b.pgn"]
    with pytest.raises(BadInput, match=f"an archive inside {MAX_NESTING} archives"):
        got[0].open()
    with pytest.raises(BadInput, match=r"outer.zip:docs.zip holds no .pgn file"):
        got[1].open()
    with got[2].open() as f:
        assert f.read() == B


def test_a_nested_archive_imports_every_game(store: Store, tmp_path: Path) -> None:
    z = tmp_path / "outer.zip"
    z.write_bytes(zip_bytes([("inner.zip", zip_bytes([("a.pgn", A), ("b.pgn", B)]))]))
    assert import_paths(store, [str(z)], ImportOptions()).total("added") == 3


@pytest.mark.parametrize("pack", [gzip.compress, bz2.compress, lzma.compress, None],
                         ids=["gzip", "bzip2", "xz", "zip"])
def test_compression_is_told_by_its_magic_bytes(tmp_path: Path, pack: object) -> None:
    f = tmp_path / "games"
    if pack is None:
        f.write_bytes(zip_bytes([("a.pgn", A)]))
        assert contents([str(f)]) == [(f"{f}:a.pgn", A)]
    else:
        f.write_bytes(pack(B))  # type: ignore[operator]
        assert contents([str(f)]) == [(str(f), B)]


def test_a_gz_name_holding_plain_pgn_is_read(tmp_path: Path) -> None:
    (tmp_path / "plain.pgn.gz").write_bytes(B)
    assert contents([str(tmp_path / "plain.pgn.gz")]) == [(str(tmp_path / "plain.pgn.gz"), B)]


def test_a_plain_file_still_opens_as_a_plain_file(tmp_path: Path) -> None:
    """The import splits a big plain file for two workers only when it is a real file."""
    (tmp_path / "a.pgn").write_bytes(B)
    (source,) = iter_sources([str(tmp_path / "a.pgn")])
    with source.open() as f:
        assert type(f) is io.BufferedReader and isinstance(f.raw, io.FileIO)


def test_an_encrypted_member_fails_alone_with_a_clear_line(tmp_path: Path) -> None:
    z = tmp_path / "enc.zip"
    data = bytearray(zip_bytes([("secret.pgn", A), ("open.pgn", B)]))
    local, central = data.index(b"PK\x03\x04"), data.index(b"PK\x01\x02")
    data[local + 6] |= 0x1  # the first member marked encrypted: reading needs a password
    data[central + 8] |= 0x1
    z.write_bytes(bytes(data))
    secret, plain = iter_sources([str(z)])
    with pytest.raises(BadInput, match=r"enc.zip:secret.pgn: the archive member is encrypted"):
        secret.open()
    with plain.open() as f:
        assert f.read() == B


def test_a_tar_gz_of_many_members_is_read_in_one_pass(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Member after member (twice each: the content hash, then the games), the decompressed
    stream goes on where the previous member ended instead of starting again each time."""
    members = [(f"m{i:03}.pgn", game(i) * 50) for i in range(60)]
    t = tmp_path / "many.tgz"
    t.write_bytes(tar_bytes(members, "w:gz"))
    found = list(iter_sources([str(t)]))
    opened: list[str] = []
    real_open = open

    def counting_open(path: str, mode: str = "r") -> object:
        opened.append(path)
        return real_open(path, mode)

    monkeypatch.setattr(sources, "open", counting_open, raising=False)
    for source, (_, data) in zip(found, members, strict=True):
        with source.open() as first, source.open() as second:
            assert first.read() == data
            assert second.read() == data
    assert len(opened) <= 4


@pytest.mark.parametrize("workers", [False, True])
def test_importing_a_tar_gz_in_a_worker_gives_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: bool
) -> None:
    from tests.conftest import dump_db
    from tracker.importer import batches

    monkeypatch.setattr(batches, "WORKER_MIN_BYTES", 0)  # the path of big sources
    members = [(f"m{i:03}.pgn", b"".join(game(i * 10 + j) for j in range(10)))
               for i in range(12)]
    t = tmp_path / "s.tar.gz"
    t.write_bytes(tar_bytes(members, "w:gz"))
    plain = tmp_path / "plain"
    plain.mkdir()
    for name, data in members:
        (plain / name).write_bytes(data)
    dumps = []
    for what, db in ((t, tmp_path / "a.db"), (plain, tmp_path / "b.db")):
        with open_store(str(db)) as store:
            report = import_paths(store, [str(what)], ImportOptions(workers=workers))
        assert report.total("added") == 120 and not report.failed
        dumps.append([line for line in dump_db(db) if "INSERT INTO \"imports\"" not in line])
    assert dumps[0] == dumps[1]


def test_a_zip_name_holding_a_tar_gz_is_read(tmp_path: Path) -> None:
    z = tmp_path / "games.zip"
    z.write_bytes(tar_bytes([("a.pgn", A)], "w:gz"))
    assert contents([str(z)]) == [(f"{z}:a.pgn", A)]
