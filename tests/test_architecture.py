"""The one-way import rule of shared/DESIGN.md, checked by parsing every module with ast.

- pure modules import only the standard library and each other;
- each outside library has exactly one owner (chess -> tracker.pgn, sqlalchemy/alembic ->
  tracker.store and the migrations, typer/rich -> tracker.cli, matplotlib -> tracker.reports.plot);
- the network has one owner too: only tracker.lists.fetch imports the standard library's
  networking (urllib.request, http, socket, ssl...), and only one verb, tracker.app.fetch
  (`tracker official fetch`), imports it;
- one library door (issue 36): the command line imports only tracker.app (the verbs),
  tracker.reports (the words), tracker.model and tracker.errors; only tracker.app imports
  the store; no two top-level packages import each other, even through others; no module
  loads one of the project's by name (importlib), out of sight of these rules;
- the rules engine (tracker.fide) says why as values, not sentences: no dataclass field
  `*reason*`/`*why*` typed with str, no `*_text`/`*reason*` function returning one (issue 36:
  tracker.reports.rulewords words them).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = REPO / "tracker"
MIGRATIONS = REPO / "migrations"

OWNERS = {
    "chess": ("tracker.pgn",),
    "sqlalchemy": ("tracker.store", "tracker.migrations"),
    "alembic": ("tracker.store", "tracker.migrations"),
    "typer": ("tracker.cli",),
    "click": ("tracker.cli",),
    "rich": ("tracker.cli",),
    "matplotlib": ("tracker.reports.plot",),
    "psycopg": ("tracker.store",),  # (reached through SQLAlchemy: no module imports it)
}
PURE = (
    "tracker.model",
    "tracker.advice",
    "tracker.fide",
    "tracker.periods",
    "tracker.identity",
    "tracker.errors",
    "tracker.unresolved",
    "tracker.app.calc",
)
USE_CASES = (
    "tracker.app.calc",
    "tracker.app.check",
    "tracker.app.database",
    "tracker.app.fetch",
    "tracker.app.importing",
    "tracker.app.imports",
    "tracker.app.official",
    "tracker.app.players",
    "tracker.app.target",
    "tracker.app.histories",
)
"""Library verbs the CLI calls (issues 16, 36): none of them prints or imports the CLI (the
rule holds for every module of tracker/app/; these must be among them)."""


def _modules() -> list[tuple[str, Path]]:
    found = []
    for root, dotted in ((PACKAGE, "tracker"), (MIGRATIONS, "tracker.migrations")):
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            found.append((".".join([dotted, *parts]), path))
    return found


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _owned_by(module: str, owners: tuple[str, ...]) -> bool:
    return any(module == o or module.startswith(o + ".") for o in owners)


MODULES = _modules()


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_outside_libraries_have_one_owner(module: str, path: Path) -> None:
    for name in _imports(path):
        top = name.split(".")[0]
        if top in OWNERS:
            assert _owned_by(module, OWNERS[top]), f"{module} imports {name}"


NETWORK = (
    "urllib.request",
    "urllib.error",
    "http",
    "socket",
    "socketserver",
    "ssl",
    "ftplib",
    "smtplib",
    "poplib",
    "imaplib",
    "xmlrpc",
    "asyncio",
    "wsgiref",
    "webbrowser",
)
"""The standard library's ways onto the network (urllib.parse only cuts text: not one)."""
NETWORK_OWNER = "tracker.lists.fetch"
"""The one module that reaches the network (`tracker official fetch`)."""
NETWORK_VERB = "tracker.app.fetch"
"""The one verb that uses it."""


def _networking(name: str) -> bool:
    return name == "urllib" or any(name == n or name.startswith(n + ".") for n in NETWORK)


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_only_one_module_reaches_the_network(module: str, path: Path) -> None:
    reached = sorted(n for n in _imports(path) if _networking(n))
    if module == NETWORK_OWNER:
        assert {"urllib.request", "http.client", "socket", "ssl"} <= set(reached), reached
    else:
        assert not reached, f"{module} imports {reached}: only {NETWORK_OWNER} may"
    users = [n for n in _imports(path) if _owned_by(n, (NETWORK_OWNER,))]
    assert not users or module == NETWORK_VERB, f"{module} imports {NETWORK_OWNER}"


def test_the_network_rule_sees_its_owner_and_verb() -> None:
    names = {m for m, _ in MODULES}
    assert {NETWORK_OWNER, NETWORK_VERB} <= names
    assert NETWORK_OWNER in _imports(dict(MODULES)[NETWORK_VERB])
    assert _networking("urllib.request") and _networking("http.client")
    assert not _networking("urllib.parse") and not _networking("httpx_like_name")


PURE_MODULES = [(m, p) for m, p in MODULES if _owned_by(m, PURE)]
LIBRARY = [
    (m, p) for m, p in MODULES if not _owned_by(m, ("tracker.cli",)) and m != "tracker.__main__"
]


def test_the_groups_are_not_empty() -> None:
    # a parametrized check over an empty group would pass on nothing
    assert len(PURE_MODULES) >= 20 and len(LIBRARY) >= 50, (len(PURE_MODULES), len(LIBRARY))


@pytest.mark.parametrize("module,path", PURE_MODULES, ids=[m for m, _ in PURE_MODULES])
def test_pure_modules_import_only_stdlib_and_pure(module: str, path: Path) -> None:
    for name in _imports(path):
        top = name.split(".")[0]
        if top == "tracker":
            assert _owned_by(name, PURE), f"pure {module} imports {name}"
        else:
            assert top in sys.stdlib_module_names or top == "__future__", (
                f"pure {module} imports {name}"
            )


@pytest.mark.parametrize("module,path", LIBRARY, ids=[m for m, _ in LIBRARY])
def test_the_library_never_imports_the_cli(module: str, path: Path) -> None:
    for name in _imports(path):
        assert not _owned_by(name, ("tracker.cli",)), f"{module} imports {name}"


def test_use_cases_are_library_verbs() -> None:
    names = {m for m, _ in MODULES}
    assert set(USE_CASES) <= names, set(USE_CASES) - names
    for module, path in MODULES:
        if _owned_by(module, ("tracker.app",)):
            assert "print(" not in path.read_text(encoding="utf-8"), f"{module} prints"


def test_rule_sees_the_modules() -> None:
    names = {m for m, _ in MODULES}
    assert "tracker.model" in names and "tracker.store.schema" in names


def test_importer_tunables_live_in_one_module_only() -> None:
    """tracker.importer.batches owns the import's tunables and reads them; tests patch them
    there. A copy on the package (or a module reading its own copy) would make a patch miss
    silently: the package has none, so a patch on it fails loudly."""
    import tracker.importer as package
    from tracker.importer import batches, contract, prepare

    tunables = ("BATCH", "WORKER_MIN_BYTES", "SPLIT_MIN_BYTES", "SPLIT_PART")
    for name in tunables:
        assert isinstance(getattr(batches, name), int), name
        for other in (package, contract, prepare):
            assert not hasattr(other, name), f"{other.__name__}.{name}"


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_no_private_name_is_imported_across_modules(module: str, path: Path) -> None:
    # issue 16: what a module shares it names publicly; a `_name` is its own
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tracker"):
            private = [
                a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")
            ]
            assert not private, f"{module} imports {private} from {node.module}"


CLI_RULE_WORDS = (
    "expected_score",
    "dp_for",
    "difference_table",
    "dp_table",
    "derive_k",
    "k_said(",
    "apply_700_rule",
    "rate_period",
    "first_rating(",
    "one_off_adjustment",
    "round_change",
    "round_half_away",
    "performance_rating",
    "seeds_from_standard",
)
"""The engine's verbs (tracker.fide): the CLI parses and prints, the library computes, so no
CLI module calls one (issue 16: calc, official import and target moved out)."""


@pytest.mark.parametrize(
    "module,path",
    [(m, p) for m, p in MODULES if m.startswith("tracker.cli")],
    ids=[m for m, _ in MODULES if m.startswith("tracker.cli")],
)
def test_the_cli_holds_no_rule(module: str, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not [w for w in CLI_RULE_WORDS if w in text], module


def _from_imports(path: Path) -> list[tuple[str, list[str]]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.module, [a.name for a in node.names])
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
    ]


CLI = [(m, p) for m, p in MODULES if _owned_by(m, ("tracker.cli",))]
STORE = [(m, p) for m, p in MODULES if _owned_by(m, ("tracker.store",))]


NAMES = {m for m, _ in MODULES}


def _reached(path: Path) -> set[str]:
    """The project's modules a module imports (anywhere in it: at the top, in a function,
    under TYPE_CHECKING): `from tracker.x import y` reaches tracker.x.y when that is a
    module, else tracker.x; `from tracker import __version__` reaches the package itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "tracker")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != "tracker":
                continue
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in NAMES else node.module)
    return found


def _top(module: str) -> str:
    """The top-level package (or module) of one of the project's modules: tracker.app.check
    -> tracker.app, tracker.model -> tracker.model (the package itself: tracker)."""
    return ".".join(module.split(".")[:2])


CLI_DOOR = ("tracker.app", "tracker.reports", "tracker.model", "tracker.errors", "tracker.cli")
"""What the command line may import (issue 36): the library's verbs, the words, the plain
values and the errors, and its own modules (besides the package itself: its version)."""


@pytest.mark.parametrize("module,path", CLI, ids=[m for m, _ in CLI])
def test_the_cli_imports_only_the_app_the_reports_the_model_and_the_errors(
    module: str, path: Path
) -> None:
    # one door: the command line parses, calls tracker.app and prints what tracker.reports
    # words; the core, the adapters and the store are behind the door, not even for a type
    reached = sorted(n for n in _reached(path) if n != "tracker" and not _owned_by(n, CLI_DOOR))
    assert not reached, f"{module} imports {reached}"


STORE_USERS = ("tracker.app", "tracker.store", "tracker.migrations")
"""Who may import tracker.store (issue 36): the library's verbs, and the store itself with
its migrations."""


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_only_the_app_imports_the_store(module: str, path: Path) -> None:
    if _owned_by(module, STORE_USERS):
        return
    reached = sorted(n for n in _reached(path) if _owned_by(n, ("tracker.store",)))
    assert not reached, f"{module} imports {reached}: only tracker.app calls the store"
    named = [
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"tracker\.store(\.\w+)*", node.value)
    ]
    assert not named, f"{module} names {named} (imported by name)"


HANDLE = {("tracker.app.database", "Store")}
"""The one store name the app hands on (issue 36): the open database, a handle the command
line holds and gives back to the verbs (it calls nothing on it)."""


def _store_names(source: str) -> set[str]:
    """The names a module binds from tracker.store (`from tracker.store.x import y [as z]`:
    z, else y)."""
    return {
        a.asname or a.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
        and node.module
        and node.level == 0
        and _owned_by(node.module, ("tracker.store",))
        for a in node.names
    }


def _all_names(source: str) -> set[str]:
    """The names a module's `__all__` lists."""
    for node in ast.parse(source).body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, ast.List | ast.Tuple)
        ):
            return {
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            }
    return set()


def reexports(app: dict[str, str], users: dict[str, str]) -> list[str]:
    """Store names the app passes on (issue 36): a name an app module (of `app`, module ->
    source) imports from tracker.store that its `__all__` lists, or that a module of
    `users` (outside the app) imports from it; as "user: app.name"."""
    bound = {m: _store_names(src) for m, src in app.items()}
    found = [
        f"{m}: {m}.{n} (__all__)"
        for m, src in app.items()
        for n in sorted(_all_names(src) & bound[m])
        if (m, n) not in HANDLE
    ]
    for user, src in users.items():
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.ImportFrom) and node.module in bound and node.level == 0:
                found += [
                    f"{user}: {node.module}.{a.name}"
                    for a in node.names
                    if a.name in bound[node.module] and (node.module, a.name) not in HANDLE
                ]
    return found


def test_the_app_passes_on_no_store_name() -> None:
    # the door is a door: the app's verbs and result types are its own (or plain values of
    # tracker.model), not the store's names handed through it
    app = {m: p.read_text(encoding="utf-8") for m, p in MODULES if _owned_by(m, ("tracker.app",))}
    users = {
        m: p.read_text(encoding="utf-8")
        for m, p in MODULES
        if not _owned_by(m, ("tracker.app", "tracker.store", "tracker.migrations"))
    }
    assert reexports(app, users) == []


def test_the_reexport_rule_sees_a_reexport() -> None:
    app = {
        "tracker.app.x": (
            "from tracker.store.lists import Candidate, lists_imported\n"
            "from tracker.store import entries as e\n"
            "from tracker.model import Period\n"
            "__all__ = ['Candidate', 'Period', 'verb']\n"
            "def verb() -> None: ...\n"
        ),
        "tracker.app.database": "from tracker.store import Store\n__all__ = ['Store']\n",
    }
    users = {
        "tracker.cli.y": (
            "def f() -> None:\n"
            "    from tracker.app.x import Period, e, lists_imported, verb\n"
            "    from tracker.app.database import Store\n"
        )
    }
    assert reexports(app, users) == [
        "tracker.app.x: tracker.app.x.Candidate (__all__)",
        "tracker.cli.y: tracker.app.x.e",
        "tracker.cli.y: tracker.app.x.lists_imported",
    ]


def _package_graph() -> dict[str, set[str]]:
    """Which top-level packages each imports (tracker.app -> tracker.store...), from every
    import of every module; a package's imports of itself are left out."""
    graph: dict[str, set[str]] = {}
    for module, path in MODULES:
        here = _top(module)
        if here == "tracker":  # the package's own __init__ and __main__ start the program
            continue
        for name in _reached(path):
            there = _top(name)
            if there not in (here, "tracker"):
                graph.setdefault(here, set()).add(there)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of `graph` ([a, b, ..., a]), or [] when it has none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return []
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            found = visit(nxt)
            if found:
                return found
        path.pop()
        done.add(node)
        return []

    for start in sorted(graph):
        found = visit(start)
        if found:
            return found
    return []


def test_no_two_packages_import_each_other() -> None:
    # issue 36: the layers of shared/DESIGN.md import one way (tracker.app and
    # tracker.reports did import each other), directly or through other packages
    graph = _package_graph()
    assert {"tracker.cli", "tracker.app", "tracker.store", "tracker.reports"} <= set(graph)
    assert _cycle(graph) == []


def test_the_cycle_rule_sees_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
    assert _top("tracker.app.check") == "tracker.app" and _top("tracker.model") == "tracker.model"


LOADERS = ("import_module", "__import__")
"""The ways to import a module by its name at run time (importlib.import_module, the
builtin __import__): an import the rules above cannot see."""


def _loads_by_name(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.name}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id in LOADERS)
            or (isinstance(node.func, ast.Attribute) and node.func.attr in LOADERS)
        )
    ]


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_no_module_imports_by_name(module: str, path: Path) -> None:
    # issue 36: tracker.importer loaded tracker.files.sources through importlib, the CLI
    # its command modules and tracker.pgn.native: plain imports say the same, in sight
    assert _loads_by_name(path) == []


def test_the_loader_rule_sees_a_load(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import importlib\n"
        "from importlib import import_module\n"
        "a = importlib.import_module('tracker.files.sources')\n"
        "b = import_module(f'tracker.cli.{name}')\n"
        "c = __import__('tracker.store')\n"
        "from importlib.util import find_spec\n"
        "d = find_spec('tracker.pgn._speedups')\n",
        encoding="utf-8",
    )
    assert _loads_by_name(sample) == [
        "sample.py:3: importlib.import_module('tracker.files.sources')",
        "sample.py:4: import_module(f'tracker.cli.{name}')",
        "sample.py:5: __import__('tracker.store')",
    ]


@pytest.mark.parametrize("module,path", STORE, ids=[m for m, _ in STORE])
def test_the_store_does_not_import_the_pgn_reader(module: str, path: Path) -> None:
    reached = [name for name in _imports(path) if _owned_by(name, ("tracker.pgn",))]
    assert not reached, f"{module} imports {reached}"


@pytest.mark.parametrize("module,path", STORE, ids=[m for m, _ in STORE])
def test_the_store_calls_no_rule_of_the_engine(module: str, path: Path) -> None:
    # the rules live in the core (tracker.fide, tracker.periods): the store imports none of
    # the engine's verbs, only the values the replay reads (classes)
    import importlib

    for source, names in _from_imports(path):
        if _owned_by(source, ("tracker.fide",)):
            raise AssertionError(f"{module} imports {names} from {source}")
        if _owned_by(source, ("tracker.periods",)):
            core = importlib.import_module(source)
            verbs = [n for n in names if not isinstance(getattr(core, n), type)]
            assert not verbs, f"{module} imports {verbs} from {source}"


def test_the_pin_rule_lives_in_the_core() -> None:
    from tracker import periods
    from tracker.store import reading

    assert periods.check_pin.__module__ == "tracker.periods.pins"
    assert not hasattr(reading, "check_pin")


MUTATORS = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "add"}
)


def _replay_state_changes(path: Path) -> list[str]:
    """Where a module changes a ReplayState from outside: an assignment to an attribute of
    a name bound to one (a parameter annotated ReplayState, or `x = ReplayState(...)`), or a
    mutating call on such an attribute (`state.pool.extend(...)`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = [*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs]
        names = {
            a.arg
            for a in args
            if a.annotation is not None and "ReplayState" in ast.unparse(a.annotation)
        }
        for node in ast.walk(func):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and ast.unparse(node.value.func).endswith("ReplayState")
            ):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(func):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in MUTATORS
            ):
                targets = [node.func.value]
            for t in targets:
                for leaf in ast.walk(t):
                    if (
                        isinstance(leaf, ast.Attribute)
                        and isinstance(leaf.value, ast.Name)
                        and leaf.value.id in names
                    ):
                        found.append(f"{path.name}:{leaf.lineno}: {ast.unparse(leaf)}")
    return found


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_replay_state_changes_only_through_its_methods(module: str, path: Path) -> None:
    # issue 36: what the replay knows between periods changes in one place, by named steps
    if module == "tracker.periods.state":
        return
    assert _replay_state_changes(path) == []


def test_the_replay_state_rule_sees_a_change(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(state: ReplayState, other: int) -> None:\n"
        "    state.rating = 1\n"
        "    state.rated_games += 2\n"
        "    state.pool.extend([])\n"
        "    other.x = 3\n"
        "def g(inputs) -> None:\n"
        "    s = ReplayState(inputs)\n"
        "    s.source, s.waiting = 'x', None\n"
        "    s.publish(None, None)\n",
        encoding="utf-8",
    )
    assert _replay_state_changes(sample) == [
        "sample.py:2: state.rating",
        "sample.py:3: state.rated_games",
        "sample.py:4: state.pool",
        "sample.py:8: s.source",
        "sample.py:8: s.waiting",
    ]


ENGINE = [(m, p) for m, p in MODULES if _owned_by(m, ("tracker.fide",))]


def _engine_sentences(path: Path) -> list[str]:
    """Where a module makes reasons words: a dataclass field named `*reason*` or `*why*`
    typed with `str` (in it: `str | None`, `tuple[str, ...]`), or a function named
    `*_text` or `*reason*` that returns one."""

    def says_str(annotation: ast.expr | None) -> bool:
        return annotation is not None and any(
            isinstance(n, ast.Name) and n.id == "str" for n in ast.walk(annotation)
        )

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and any(
            "dataclass" in ast.unparse(d) for d in node.decorator_list
        ):
            found += [
                f"{path.name}:{f.lineno}: {node.name}.{f.target.id}"
                for f in node.body
                if isinstance(f, ast.AnnAssign)
                and isinstance(f.target, ast.Name)
                and ("reason" in f.target.id or "why" in f.target.id)
                and says_str(f.annotation)
            ]
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (node.name.endswith("_text") or "reason" in node.name)
            and says_str(node.returns)
        ):
            found.append(f"{path.name}:{node.lineno}: {node.name}()")
    return found


@pytest.mark.parametrize("module,path", ENGINE, ids=[m for m, _ in ENGINE])
def test_the_engine_says_why_as_values(module: str, path: Path) -> None:
    # issue 36: the rules engine's reasons (K's, the floor's, a first rating's, a left-out
    # tournament's, a time control's) travel as values and are worded in tracker.reports
    # (rulewords) only: no sentence is carried up to be printed as it is
    assert _engine_sentences(path) == []


def test_the_engine_sentence_rule_sees_a_sentence(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "@dataclass(frozen=True)\n"
        "class Out:\n"
        "    k_reason: str\n"
        "    reason: str | None\n"
        "    ignored_reasons: tuple[str, ...] = ()\n"
        "    why: KWhy | None = None\n"
        "    label: str = ''\n"
        "def k_reason_text(why: KWhy) -> str: ...\n"
        "def floor_reason(floor: int) -> str | None: ...\n"
        "def k_said(why: KWhy) -> KSaid: ...\n"
        "def label(x: int) -> str: ...\n",
        encoding="utf-8",
    )
    assert _engine_sentences(sample) == [
        "sample.py:3: Out.k_reason",
        "sample.py:4: Out.reason",
        "sample.py:5: Out.ignored_reasons",
        "sample.py:8: k_reason_text()",
        "sample.py:9: floor_reason()",
    ]


MAX_FUNCTION_LINES = 100
MAX_MODULE_LINES = 600
KEPT_SHORT = (
    "tracker/periods",
    "tracker/reports/plot",
    "tracker/fide/period.py",
    "tracker/reports/nextlist.py",
    "tracker/cli/demo.py",
    "tracker/cli/check.py",
    "tracker/cli/target.py",
    "tracker/app/calc.py",
    "tracker/app/check.py",
    "tracker/app/database.py",
    "tracker/app/importing.py",
    "tracker/app/imports.py",
    "tracker/app/outputs.py",
    "tracker/app/players.py",
    "tracker/app/version.py",
    "tracker/cli/importing.py",
    "tracker/reports/imports.py",
    "tracker/cli/official.py",
    "tracker/cli/fetch.py",
    "tracker/cli/listlines.py",
    "tracker/cli/output.py",
    "tracker/cli/options.py",
    "tracker/cli/help.py",
    "tracker/store/merges.py",
    "tracker/store/unmerge.py",
    "tracker/importer/tagvalues.py",
    "tracker/cli/club.py",
    "tracker/cli/reports.py",
    "tracker/reports/eventpage.py",
    "tracker/reports/causes.py",
    "tracker/reports/explain.py",
    "tracker/reports/explaingames.py",
    "tracker/model.py",
    "tracker/unresolved.py",
    "tracker/cli/eventset.py",
    "tracker/reports/listfile.py",
    "tracker/reports/check.py",
    "tracker/store/official.py",
    "tracker/store/entries.py",
)
"""The modules issue 36 split (item 3: what is long) or made (item 1: the library's door,
`import_command` once 163 lines), kept so: no function over MAX_FUNCTION_LINES lines, no
module over MAX_MODULE_LINES."""


def _kept_short() -> list[Path]:
    found: list[Path] = []
    for name in KEPT_SHORT:
        path = REPO / name
        found += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return found


@pytest.mark.parametrize("path", _kept_short(), ids=lambda p: str(p.relative_to(REPO)))
def test_split_modules_stay_short(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    assert lines <= MAX_MODULE_LINES, f"{lines} lines: split it"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert long == []


# --- meaning as types, words only in tracker.reports (issue 36) ------------------------------

BELOW_REPORTS = ("periods", "fide", "check", "store", "identity", "lists", "importer")
"""The packages that spell no command outside an error message: advice leaves them as
values (tracker.advice), tracker.reports.words says it."""

COMMAND = re.compile(
    r"\btracker (?:import|imports|players?|history|explain|next|export|plot|report|check"
    r"|target|demo|official|event|db|calc)\b"
)
"""A command of the command line spelled in a string."""

ERROR_NAMES = frozenset({"BadInput", "NotFound", "TrackerError", "DatabaseError"})

SAYS_A_COMMAND = {
    "tracker/store/db.py::missing_database": "the error a reading command raises (NotFound)",
    "tracker/store/db.py::RESTORE": "the end of DamagedDatabase's message (an error)",
    "tracker/store/games.py::GameWriter._clash": "a problem the import reports, an error",
    "tracker/store/maintenance.py::POSTGRESQL_BACKUP": "raised as DatabaseError by db backup",
    "tracker/store/maintenance.py::POSTGRESQL_RESTORE": "raised as DatabaseError by db restore",
    "tracker/store/maintenance.py::_late_dates": "damage `db check` reports (exit code 4)",
    "tracker/store/maintenance.py::check_database": "damage `db check` reports (exit code 4)",
    "tracker/store/players.py::_held": "the error when a FIDE ID is held (BadInput)",
    "tracker/lists/fetch.py::ListFetcher.__init__": "the HTTP User-Agent names the command",
}
"""Strings below tracker.reports that spell a command and are no advice but an error message
(or a name), by module and function (or constant): why each may."""


def _is_error_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    return name in ERROR_NAMES or name.endswith(("Error", "Exception"))


def _documentation(tree: ast.AST) -> set[int]:
    """The ids of the docstrings (a module's, class's or function's, and the string under an
    assignment that documents it)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, st in enumerate(body):
            is_doc = isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant)
            if is_doc and (i == 0 or isinstance(body[i - 1], ast.Assign | ast.AnnAssign)):
                found.add(id(st.value))
    return found


def _where(node: ast.AST, parents: dict[int, ast.AST]) -> str:
    """`Class.function`, `function` or the constant a node is in."""
    names: list[str] = []
    while id(node) in parents:
        node = parents[id(node)]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.insert(0, node.name)
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            names.insert(0, node.targets[0].id)
    return ".".join(names)


HELP_KEYWORDS = ("help", "short_help", "epilog")
"""The keywords that hand typer a command's or an option's help text."""


def _help_texts(tree: ast.AST) -> set[int]:
    """The ids of the strings of help texts: the value of a `help=` (or `short_help=`,
    `epilog=`) keyword, and a constant whose name ends in HELP."""
    found: set[int] = set()
    for node in ast.walk(tree):
        is_help = isinstance(node, ast.keyword) and node.arg in HELP_KEYWORDS
        named = isinstance(node, ast.Assign) and all(
            isinstance(t, ast.Name) and t.id.endswith("HELP") for t in node.targets
        )
        if is_help or named:
            found.update(id(sub) for sub in ast.walk(node))
    return found


def commands_spelled(path: Path, rel: str, *, help_too: bool = False) -> list[str]:
    """Where a module spells a command outside an error message: a string (not a docstring)
    that is not inside a `raise`, a call of an exception class, or an exception class (nor,
    with `help_too`, a help text)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    excused = _documentation(tree) | (_help_texts(tree) if help_too else set())
    for node in ast.walk(tree):
        is_error_class = isinstance(node, ast.ClassDef) and any(
            ast.unparse(b).endswith(("Error", "Exception")) or ast.unparse(b) in ERROR_NAMES
            for b in node.bases
        )
        if isinstance(node, ast.Raise) or _is_error_call(node) or is_error_class:
            excused.update(id(sub) for sub in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in excused
            and COMMAND.search(node.value)
        ):
            found.append(f"{rel}::{_where(node, parents)}")
    return sorted(set(found))


def _below_reports(root: Path) -> list[tuple[str, Path]]:
    return [
        (str(p.relative_to(root)), p)
        for pkg in BELOW_REPORTS
        for p in sorted((root / "tracker" / pkg).rglob("*.py"))
    ]


def test_no_command_is_spelled_below_the_reports() -> None:
    found = [w for rel, path in _below_reports(REPO) for w in commands_spelled(path, rel)]
    unexcused = [w for w in found if w not in SAYS_A_COMMAND]
    assert unexcused == [], "advice below tracker.reports goes as tracker.advice values"
    assert sorted(set(found)) == sorted(SAYS_A_COMMAND)  # no stale excuse


def test_the_command_rule_sees_a_command(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""`tracker event set` in a docstring is documentation."""\n'
        "def advice(tid: int) -> str:\n"
        '    return f"pin it with `tracker event set {tid} --period YYYY-MM`"\n'
        "def refuse() -> None:\n"
        '    raise BadInput("give a period (tracker event set ID --period YYYY-MM)")\n'
        "class Gone(DatabaseError):\n"
        "    def __init__(self) -> None:\n"
        '        super().__init__("restore it (`tracker db backup`)")\n'
        'HINT = "tracker player set PLAYER --ever-2400"\n'
        '"""The hint."""\n'
        'WORDS = "the tracker rates each list"\n',
        encoding="utf-8",
    )
    assert commands_spelled(sample, "sample.py") == ["sample.py::HINT", "sample.py::advice"]


def _reports(root: Path) -> list[tuple[str, Path]]:
    return [
        (str(p.relative_to(root)), p) for p in sorted((root / "tracker" / "reports").rglob("*.py"))
    ]


def test_the_reports_spell_a_command_only_through_its_maker() -> None:
    """One function makes every command the words name (issue 36), and a sentence carries it
    as a value (tracker.reports.said: Command, Said), so that a page shows it as code
    without looking for it in the English: no other string of tracker.reports spells one."""
    assert [w for rel, path in _reports(REPO) for w in commands_spelled(path, rel)] == []


DEMO_SAYS = {
    "tracker/cli/demo.py::_show_history": "the heading of the step: the command it runs",
    "tracker/cli/demo.py::_show_next": "the heading of the step: the command it runs",
    "tracker/cli/demo.py::demo": "the commands to try next on the demo's database",
}
"""Where the command line spells a command itself, and why each may: the demo's script."""


def test_the_cli_words_no_command_but_in_help_and_errors() -> None:
    """The command line parses, calls tracker.app and prints what tracker.reports words
    (issue 36): a sentence that names a command is made there (command_line), so no string
    of tracker.cli spells one, outside help texts, docstrings and errors; the demo, a script
    of commands, excepted."""
    root = REPO / "tracker" / "cli"
    found = [
        w
        for p in sorted(root.rglob("*.py"))
        for w in commands_spelled(p, str(p.relative_to(REPO)), help_too=True)
    ]
    assert [w for w in found if w not in DEMO_SAYS] == []
    assert sorted(found) == sorted(DEMO_SAYS)  # no stale excuse


def test_the_cli_rule_sees_a_sentence_but_not_a_help_text(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'HELP = "Start with `tracker demo`."\n'
        "def command(x: int = typer.Option(0, help='see `tracker event list`')) -> None:\n"
        '    """Example: tracker history"""\n'
        '    out.print("no imports yet: run `tracker import FOLDER`")\n',
        encoding="utf-8",
    )
    assert commands_spelled(sample, "sample.py", help_too=True) == ["sample.py::command"]
    assert commands_spelled(sample, "sample.py") == ["sample.py::HELP", "sample.py::command"]


TOLD_FIELDS = frozenset(
    {
        "reason",
        "source",
        "note",
        "notes",
        "start_source",
        "rating_before_source",
        "ro_source",
        "opponent_rating_source",
    }
)
"""Fields that hold a reason, a source or a note: typed values, never sentences to test."""

STABLE_WORDS = {
    "entry.source == 'manual'": "an official entry's source: a file name or `manual`",
    "g.source == 'manual'": "FIDE's count's source: a file name or `manual`",
}
"""Comparisons of such a field with a stable word (no sentence), and why each may."""

READ_BACK = ("reports", "cli", "check", "periods")
"""The packages that once read sentences back (reports, the CLI; the check and the replay
of each other's words)."""


def _told(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in TOLD_FIELDS


def sentences_tested(path: Path, rel: str) -> list[str]:
    """Where a module tests a reason, source or note as text: `re.split`, `.startswith` or
    `.endswith` on such a field, `in` on it, `==` between it and a string."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        said = ""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            f = node.func
            is_test = f.attr in ("startswith", "endswith") and _told(f.value)
            if is_test or ast.unparse(f) == "re.split":
                said = ast.unparse(node)
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, ast.In | ast.NotIn) and _told(right):
                    said = ast.unparse(node)
                strings = [s for s in sides if isinstance(s, ast.Constant)]
                if isinstance(op, ast.Eq | ast.NotEq) and strings and any(map(_told, sides)):
                    said = ast.unparse(node)
        if said and said not in STABLE_WORDS:
            found.append(f"{rel}:{getattr(node, 'lineno', 0)}: {said}")
    return found


def test_no_reason_or_source_is_read_back_as_text() -> None:
    found = [
        hit
        for pkg in READ_BACK
        for path in sorted((PACKAGE / pkg).rglob("*.py"))
        for hit in sentences_tested(path, str(path.relative_to(REPO)))
    ]
    assert found == [], "a reason, a source or a note is a value: compare its type"


def test_the_read_back_rule_sees_a_sentence_test(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import re\n"
        "def f(n, row, start, entry) -> None:\n"
        '    a = re.split(r": | \\(", n.reason)\n'
        '    b = n.reason.startswith("no date")\n'
        '    c = "2008" in n.reason\n'
        '    d = row.source == "Elo tag"\n'
        '    e = start.source.startswith("official")\n'
        "    f = n.why is NotCountedWhy.NO_DATE\n"
        '    g = entry.source == "manual"\n'
        '    h = "i" in row.official.flag\n',
        encoding="utf-8",
    )
    assert [x.split(": ", 1)[1] for x in sentences_tested(sample, "sample.py")] == [
        "re.split(': | \\\\(', n.reason)",
        "n.reason.startswith('no date')",
        "'2008' in n.reason",
        "row.source == 'Elo tag'",
        "start.source.startswith('official')",
    ]
