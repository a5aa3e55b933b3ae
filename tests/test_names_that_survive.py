"""Issue 37 item 6: what a user gets wrong on the command line, said in one line with what to do
(a FIDE list given to `tracker import`, `explain` with its arguments swapped), and the name
of a tournament as a key that survives an import taken out and put back (its id may not)."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO, SPEC, need_shared, run_cli

SAMPLES = SPEC / "fide-list-samples"
WEINVIERTEL = REPO / "sample_pgns" / "2025-11-21_weinviertel-open.pgn"


def _samples() -> list[str]:
    if not SAMPLES.is_dir():
        return ["missing"]
    return sorted(p.name for p in SAMPLES.iterdir() if p.suffix.lower() == ".txt")


@pytest.mark.parametrize("name", _samples())
@pytest.mark.parametrize("zipped", [False, True])
def test_a_fide_list_given_to_import_names_official_import(
    name: str,
    zipped: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """FIDE's verbatim files (four eras of TXT layouts), plain and zipped as FIDE serves them:
    one line, exit 2, nothing stored, and the command it names imports the file (the
    combined 2015 file, whose name and header say no month, asks for --period)."""
    need_shared()
    monkeypatch.chdir(tmp_path)
    path = Path(name)
    shutil.copy(SAMPLES / name, path)
    if zipped:
        path = Path(name.rsplit(".", 1)[0] + ".zip")
        with zipfile.ZipFile(path, "w") as zf:
            zf.write(name)
    code, out, err = run_cli(capsys, monkeypatch, "import", str(path), "--db", "t.db")
    assert (code, out) == (2, "")
    assert err == (
        f"error: {path} is a FIDE rating list, not PGN games: import it with "
        f"`tracker official import {path}`\n"
    )
    command = re.search(r"`tracker (official import [^`]+)`", err)
    assert command is not None
    code, out, err = run_cli(capsys, monkeypatch, *command.group(1).split(), "--db", "t.db")
    if name == "players_list_2015.txt":
        assert code == 2 and err.endswith("give --period YYYY-MM\n")
    else:
        assert code == 0, err
        assert re.match(
            rf"{re.escape(str(path))}: \d{{4}}-\d\d \((standard|rapid)\): \d+ players", out
        )


def test_explain_with_the_period_first_names_the_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = demo_folder_at(tmp_path, capsys, monkeypatch)
    db = str(folder / "tracker-demo.db")
    code, out, err = run_cli(capsys, monkeypatch, "explain", "2025-11", "Novák", "--db", db)
    assert (code, out) == (2, "")
    assert (
        err == "error: the player comes first, then the period: tracker explain 'Novák' 2025-11\n"
    )
    # the order it names works
    code, out, _ = run_cli(capsys, monkeypatch, "explain", "Novák", "2025-11", "--db", db)
    assert code == 0 and out.startswith("Novák, Tomáš: standard list 2025-11")
    # two periods, or two names: the usual message, not this one
    code, _, err = run_cli(capsys, monkeypatch, "explain", "2025-11", "2025-12", "--db", db)
    assert "comes first" not in err


def demo_folder_at(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Path:
    folder = tmp_path / "demo-out"
    code, _, err = run_cli(
        capsys,
        monkeypatch,
        "demo",
        "--samples",
        str(REPO / "sample_pgns"),
        "--output-dir",
        str(folder),
    )
    assert code == 0, err
    return folder


def _id_of(out: str, name: str) -> int:
    found = re.search(rf"^\s*(\d+)\s+{re.escape(name)}\s", out, re.M)
    assert found is not None, out
    return int(found.group(1))


def test_a_tournaments_name_survives_an_import_taken_out_and_put_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The finding behind the docs' commands: a tournament that went with its import comes
    back under a new id (Weinviertel Open 2025: 6, then 16), so docs/check.md's command
    names it; a tournament kept for its overrides keeps its id and its override."""
    db = str(demo_folder_at(tmp_path, capsys, monkeypatch) / "tracker-demo.db")

    def cli(*args: str) -> tuple[int, str, str]:
        return run_cli(capsys, monkeypatch, *args, "--db", db)

    name = "Weinviertel Open 2025"
    before = _id_of(cli("event", "list")[1], name)
    imports = cli("imports")[1]
    found = re.search(rf"^\s*(\d+)\s+\S*{re.escape(WEINVIERTEL.name)}", imports, re.M)
    assert found is not None, imports
    assert cli("imports", "remove", found.group(1))[0] == 0
    assert cli("import", str(WEINVIERTEL))[0] == 0
    after = _id_of(cli("event", "list")[1], name)
    assert after != before  # the id did not survive
    code, out, err = cli("event", "set", name, "--period", "2026-01")
    assert (code, err) == (0, "")
    assert out == f"tournament {after} ({name}): period 2026-01\n"
    # now with an override: the tournament stays (and its id) when its import goes and comes
    imports = cli("imports")[1]
    found = re.search(rf"^\s*(\d+)\s+\S*{re.escape(WEINVIERTEL.name)}", imports, re.M)
    assert found is not None
    assert cli("imports", "remove", found.group(1))[0] == 0
    assert cli("import", str(WEINVIERTEL))[0] == 0
    listed = cli("event", "list")[1]
    assert _id_of(listed, name) == after
    row = next(line for line in listed.splitlines() if name in line)
    assert "2026-01" in row  # the pin survived
    # a part of the name only one tournament has, as `event show` takes it
    assert cli("event", "set", "Weinviertel", "--period", "default")[1] == (
        f"tournament {after} ({name}): period default\n"
    )
    code, _, err = cli("event", "set", "liga", "--exclude")
    assert code == 2 and err.startswith("error: 4 tournaments match 'liga': ")
