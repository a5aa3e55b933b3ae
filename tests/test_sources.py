"""Opening what the user names: files, folders, globs, archives, standard input."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys
import zipfile
from pathlib import Path

import pytest

import tracker.sources as sources
from tracker.errors import BadInput, NotFound
from tracker.sources import iter_sources, spool_source

PGN = b'[Event "E"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 1-0\n'


def names(paths: list[str]) -> list[str]:
    return [s.name for s in iter_sources(paths)]


def read(path: str | Path) -> list[bytes]:
    out = []
    for s in iter_sources([str(path)]):
        with s.open() as f:
            out.append(f.read())
    return out


def test_plain_and_compressed_files(tmp_path: Path) -> None:
    (tmp_path / "a.pgn").write_bytes(PGN)
    (tmp_path / "b.PGN.GZ").write_bytes(gzip.compress(PGN))
    (tmp_path / "c.pgn.bz2").write_bytes(bz2.compress(PGN))
    (tmp_path / "d.pgn.xz").write_bytes(lzma.compress(PGN))
    for name in ("a.pgn", "b.PGN.GZ", "c.pgn.bz2", "d.pgn.xz"):
        assert read(tmp_path / name) == [PGN]


def test_a_named_file_is_read_whatever_its_suffix(tmp_path: Path) -> None:
    (tmp_path / "games.txt").write_bytes(PGN)
    assert read(tmp_path / "games.txt") == [PGN]


def test_folder_is_searched_recursively_in_order(tmp_path: Path) -> None:
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "b.pgn").write_bytes(PGN)
    (tmp_path / "a.pgn.gz").write_bytes(gzip.compress(PGN))
    (tmp_path / "sub" / "deeper" / "c.Pgn").write_bytes(PGN)
    (tmp_path / "notes.txt").write_text("not a game")
    got = names([str(tmp_path)])
    assert got == [
        str(tmp_path / "a.pgn.gz"),
        str(tmp_path / "b.pgn"),
        str(tmp_path / "sub" / "deeper" / "c.Pgn"),
    ]


def test_zip_members_are_streamed(tmp_path: Path) -> None:
    z = tmp_path / "twic1427g.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("twic1427.pgn", PGN)
        zf.writestr("readme.txt", "hello")
        zf.writestr("more/second.PGN", PGN + PGN)
    got = list(iter_sources([str(z)]))
    assert [s.name for s in got] == [f"{z}:twic1427.pgn", f"{z}:more/second.PGN"]
    for s, want in zip(got, [PGN, PGN + PGN], strict=True):
        for _ in range(2):  # a fresh stream each time
            with s.open() as f:
                assert f.read() == want
    assert not list(tmp_path.glob("*.pgn"))  # nothing unpacked to disk


def test_zip_without_pgn(tmp_path: Path) -> None:
    z = tmp_path / "docs.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("readme.txt", "hello")
    with pytest.raises(BadInput, match="holds no .pgn file"):
        iter_sources([str(z)])


def test_not_a_zip(tmp_path: Path) -> None:
    (tmp_path / "fake.zip").write_bytes(b"this is not a zip")
    with pytest.raises(BadInput, match="not a readable zip"):
        iter_sources([str(tmp_path / "fake.zip")])


def test_glob_patterns(tmp_path: Path) -> None:
    (tmp_path / "x1.pgn").write_bytes(PGN)
    (tmp_path / "x2.pgn").write_bytes(PGN)
    (tmp_path / "y.pgn").write_bytes(PGN)
    assert names([str(tmp_path / "x*.pgn")]) == [str(tmp_path / "x1.pgn"), str(tmp_path / "x2.pgn")]
    with pytest.raises(NotFound, match="no file matches"):
        iter_sources([str(tmp_path / "z*.pgn")])


def test_missing_path_and_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="no such file or folder"):
        iter_sources([str(tmp_path / "missing.pgn")])
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("x")
    with pytest.raises(NotFound, match="holds no PGN files"):
        iter_sources([str(tmp_path / "empty")])
    with pytest.raises(BadInput):
        iter_sources([])


def test_errors_come_before_any_source(tmp_path: Path) -> None:
    (tmp_path / "a.pgn").write_bytes(PGN)
    with pytest.raises(NotFound):
        iter_sources([str(tmp_path / "a.pgn"), str(tmp_path / "missing.pgn")])


def test_the_same_file_twice_is_listed_once(tmp_path: Path) -> None:
    (tmp_path / "a.pgn").write_bytes(PGN)
    assert names([str(tmp_path), str(tmp_path / "a.pgn")]) == [str(tmp_path / "a.pgn")]


def test_damaged_archive_raises_bad_input_when_read(tmp_path: Path) -> None:
    from tracker.pgn import read_games

    (tmp_path / "bad.pgn.gz").write_bytes(gzip.compress(PGN * 100)[:60])
    (source,) = iter_sources([str(tmp_path / "bad.pgn.gz")])
    with source.open() as f, pytest.raises(BadInput, match="bad.pgn.gz: the file cannot be read"):
        list(read_games(f, source.name))


@pytest.mark.parametrize(
    "payload",
    [PGN, gzip.compress(PGN), bz2.compress(PGN), lzma.compress(PGN)],
    ids=["plain", "gzip", "bzip2", "xz"],
)
def test_spooled_stream_can_be_opened_again(payload: bytes) -> None:
    spool = io.BytesIO(payload)
    source = spool_source("-", spool)
    with source.open() as a, source.open() as b:
        assert a.read(10) == PGN[:10]
        assert b.read() == PGN
        assert a.read() == PGN[10:]


def test_spooled_zip_reads_its_first_pgn_member() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("x.pgn", PGN)
    with spool_source("-", buf).open() as f:
        assert f.read() == PGN


def test_standard_input_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeStdin:
        buffer = io.BytesIO(PGN)

    monkeypatch.setattr(sys, "stdin", FakeStdin())
    monkeypatch.setattr(sources, "_STDIN", None)
    (first,) = iter_sources(["-"])
    (again,) = iter_sources(["-"])  # stdin is exhausted; the spool is kept
    assert first.name == "-"
    for s in (first, again, first):
        with s.open() as f:
            assert f.read() == PGN


def test_zip_member_reads_lines(tmp_path: Path) -> None:
    z = tmp_path / "a.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("a.pgn", PGN)
    (source,) = iter_sources([str(z)])
    with source.open() as f:
        assert f.readline() == b'[Event "E"]\n'
        assert f.read() == PGN[len(b'[Event "E"]\n') :]
