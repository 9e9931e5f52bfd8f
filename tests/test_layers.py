"""The import rules of docs/CONTRIBUTING.md ("Layout and arrows"), as allow-lists.

Checked on the source text (every import statement, including ones inside functions and
relative ones), so a new module cannot quietly add a dependency. Module names are written as the
folders are (`engine.core` for `tourney.engine.core`): a game may import only the
standard library, `engine.core` and its own package; bots only the standard library and
`engine.core`; and nothing under engine/ imports the layers above it.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tourney.engine.core import available_games

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (ROOT / "engine" / "games").iterdir() if (p / "__init__.py").exists())

# Standard-library modules that would make a match depend on more than (game, config, seed,
# actions): the clock, threads and processes, the network. A game reads none of them.
IMPURE_STDLIB = frozenset({"time", "datetime", "threading", "asyncio", "multiprocessing", "subprocess",
                           "socket", "selectors", "secrets", "os"})

# The one exception, kept narrow on purpose: Maître Ninja's solver bots use an LP solver
# (docs/CONTRIBUTING.md says why). Only that file, only these two libraries.
GAME_EXCEPTIONS: dict[str, frozenset[str]] = {
    "engine/games/maitre_ninja/bots.py": frozenset({"numpy", "scipy"}),
}


def imports_of(folder: str, as_spelled: bool = False) -> dict[str, set[str]]:
    """{file: every absolute module name it imports} for the .py files under `folder`
    (generated code excluded); relative imports are resolved against the file's package, and
    `tourney.` is dropped. With `as_spelled`, the absolute names as the file writes them."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / folder).rglob("*.py"):
        if "generated" in path.parts:
            continue
        package = list(path.relative_to(ROOT).parent.parts)  # what a relative import starts from
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0:
                    names.add(node.module or "")
                elif not as_spelled:
                    base = package[: len(package) - (node.level - 1)]
                    names.add(".".join(base + ([node.module] if node.module else [])))
        found[str(path.relative_to(ROOT))] = names if as_spelled else {n.removeprefix("tourney.") for n in names}
    return found


def within(name: str, roots: frozenset[str] | tuple[str, ...]) -> bool:
    """True when module `name` is one of `roots` or inside one of them."""
    return any(name == r or name.startswith(r + ".") for r in roots)


STDLIB = frozenset(sys.stdlib_module_names)
GAME_STDLIB = STDLIB - IMPURE_STDLIB


def disallowed(folder: str, allowed_packages: tuple[str, ...], exceptions: dict[str, frozenset[str]],
               stdlib: frozenset[str] = GAME_STDLIB) -> list[str]:
    """Every import under `folder` that is neither in `stdlib` nor inside `allowed_packages`
    nor a listed exception for that file."""
    return sorted(
        f"{file} imports {name}"
        for file, names in imports_of(folder).items()
        for name in names
        if name.split(".")[0] not in stdlib
        and not within(name, allowed_packages)
        and not within(name, exceptions.get(file, frozenset()))
    )


def forbidden(folder: str, roots: tuple[str, ...]) -> list[str]:
    """Every import under `folder` of a module inside `roots`."""
    return sorted(f"{file} imports {name}" for file, names in imports_of(folder).items()
                  for name in names if within(name, roots))


def test_every_game_package_is_checked():
    built_in = [type(g).__module__.split(".")[3] for g in available_games()
                if type(g).__module__.startswith("tourney.engine.games.")]
    assert len(GAMES) == 4 and sorted(built_in) == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_only_the_standard_library_the_core_and_itself(game):
    assert disallowed(f"engine/games/{game}", ("engine.core", f"engine.games.{game}"), GAME_EXCEPTIONS) == []


def test_the_check_catches_an_infrastructure_import_and_another_game(tmp_path, monkeypatch):
    fake = tmp_path / "engine" / "games" / "fake"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("from . import rules\n")
    (fake / "rules.py").write_text("import grpc\nimport time\nfrom tourney.engine.games.other import x\n"
                                   "from tourney.engine.core import Game\nimport random\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert disallowed("engine/games/fake", ("engine.core", "engine.games.fake"), {}) == [
        "engine/games/fake/rules.py imports engine.games.other",
        "engine/games/fake/rules.py imports grpc",
        "engine/games/fake/rules.py imports time",
    ]


def test_the_core_names_no_game():
    assert forbidden("engine/core", ("engine.games", "engine.bots", "engine.referee", "engine.server")) == []
    assert "tourney.engine.games." not in (ROOT / "engine" / "core" / "registry.py").read_text()


def test_bots_import_only_the_standard_library_and_the_core():
    # A bot may read the clock (a time budget per move); it still sees no game and no server.
    assert disallowed("engine/bots", ("engine.core", "engine.bots"), {}, STDLIB) == []


def test_nothing_under_engine_imports_tournament_or_workers():
    assert forbidden("engine", ("tournament", "workers")) == []


def test_workers_import_the_engine_only():
    """Every executor lives in workers/ and plays a plan through workers/executor.py's protocols, so workers
    import the engine (the referee, the server's entry points for arena and program matches) and nothing above."""
    assert forbidden("workers", ("tournament", "web", "envs")) == []


def test_only_the_cli_imports_web():
    """web/ is a leaf: only the command line (`tourney web`, `serve --web-port`, both in tournament/cli/) reaches it."""
    found = [o for pkg in ("engine", "workers", "tournament", "envs") for o in forbidden(pkg, ("web",))]
    assert [o for o in found if not o.startswith("tournament/cli/")] == []


def test_the_cli_imports_one_way():
    """The root app (tournament/cli/main.py) adds every sub-app with add_typer; no other module imports it,
    and nothing outside tournament/cli/ imports a command module (web/ included)."""
    into_root = [o for pkg in ("engine", "workers", "tournament", "web", "envs")
                 for o in forbidden(pkg, ("tournament.cli.main",))]
    assert into_root == ["tournament/cli/__init__.py imports tournament.cli.main"]  # the console script's `app`
    outside = [o for pkg in ("engine", "workers", "web", "envs") for o in forbidden(pkg, ("tournament.cli",))]
    outside += [o for o in forbidden("tournament", ("tournament.cli",)) if not o.startswith("tournament/cli/")]
    assert outside == []


def test_the_rest_uses_the_server_through_its_entry_points_only():
    """Outside engine/server/, the server is `tourney.engine.server` and the names it offers, never its modules."""
    found = [o for pkg in ("engine", "workers", "tournament", "web", "envs") for o in forbidden(pkg, ("engine.server",))
             if not o.startswith("engine/server/") and not o.endswith(" imports engine.server")]
    assert found == []


def test_every_entry_point_of_the_server_is_there():
    import tourney.engine.server as server

    assert server.__all__ == sorted(server._ENTRY_POINTS)
    for name in server.__all__:
        assert getattr(server, name) is not None, name
    with pytest.raises(AttributeError):
        server.not_an_entry_point  # noqa: B018


def test_web_reads_the_store_and_the_public_arena_api_only():
    """The web app uses the store, tournament's reading functions and the arena's public gRPC stubs: never
    the arena's internals, the workers, the bots or a game's rules directly."""
    internals_of = ("workers", "engine.bots", "engine.games", "engine.server.arena", "engine.server.sessions",
                    "engine.server.servicer", "engine.server.server", "engine.server.live", "engine.server.records",
                    "engine.server.match_loop", "engine.server.local", "engine.server.remote", "ray")
    assert forbidden("web", internals_of) == []


def test_everything_imports_the_layers_as_tourney_packages():
    """Inside the repository `import engine` would still work (the folder is on sys.path) and load a second
    copy of every module: the code and the tests name the installed package, `tourney.engine`."""
    bare = [f"{file} imports {name}"
            for folder in ("engine", "workers", "tournament", "web", "envs", "examples", "tests", "bench")
            for file, names in imports_of(folder, as_spelled=True).items() for name in names
            if name.split(".")[0] in {"engine", "workers", "tournament", "web", "envs"}]
    assert bare == []


def test_nothing_imports_the_training_environments():
    """envs/ is a leaf like web/: it wraps the engine for training, and no layer of the product needs it."""
    found = [o for pkg in ("engine", "workers", "tournament", "web") for o in forbidden(pkg, ("envs",))]
    assert found == []


def test_the_install_adds_one_top_level_package(tmp_path):
    """Outside the repository the layers are reachable only as `tourney.<layer>`."""
    code = ("import importlib.util as u, tourney.engine, tourney.web;"
            "print([n for n in ('engine', 'workers', 'tournament', 'web') if u.find_spec(n)])")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, check=True)
    assert out.stdout.strip() == "[]"


# Import cycles still to be broken, each as the sorted modules of one strongly connected component.
# This list may only shrink: a new cycle fails the test below, and so does a listed one that is gone.
KNOWN_CYCLES: list[list[str]] = []


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _run_on_import(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module body that run when it is imported: not those inside a function,
    nor under `if TYPE_CHECKING:`, but those under any other if, try, with or class body."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            found += _run_on_import(node.orelse)
        else:
            for part in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, part, None)
                if isinstance(inner, list):
                    found += _run_on_import(inner)
    return found


def import_graph(root: Path, layers: tuple[str, ...]) -> dict[str, set[str]]:
    """{module: the modules of ours that importing it imports first}, module names without `tourney.`.

    `import a.b.c` and `from a.b.c import x` run a, a.b and a.b.c (x too, when it is a module); the
    packages a module lives in are left out, since they are already importing when it runs.
    """
    files = {}
    for layer in layers:
        for path in (root / layer).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        dotted = module.split(".")
        enclosing = {".".join(dotted[:i]) for i in range(1, len(dotted))}
        named: set[str] = set()  # every module an import statement names, with the packages it is in
        for node in _run_on_import(ast.parse(path.read_text(), str(path)).body):
            if isinstance(node, ast.Import):
                named.update(alias.name.removeprefix("tourney.") for alias in node.names)
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = (node.module or "").removeprefix("tourney.")
            named.add(source)
            named.update(f"{source}.{alias.name}" for alias in node.names)  # a module, when it is one
        packages = {".".join(n.split(".")[:i]) for n in named for i in range(1, n.count(".") + 2)}
        graph[module] = {n for n in packages if n in files and n not in enclosing and n != module}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each a cycle of imports), sorted
    (Tarjan's algorithm, iterative so a deep graph cannot overflow the stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return sorted(cycles)


def test_no_module_level_import_cycle():
    """Importing any module of the package never comes back to a module still being imported: a cycle
    works or breaks by import order alone, and the layers can no longer be read one way."""
    assert import_cycles(import_graph(ROOT, ("engine", "workers", "tournament", "web", "envs"))) == KNOWN_CYCLES


def test_the_cycle_check_sees_through_packages_and_skips_what_runs_later(tmp_path):
    pkg = tmp_path / "engine" / "demo"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from tourney.engine.demo.game import GAME\n")
    (pkg / "game.py").write_text("from . import rules\nGAME = 1\n")
    (pkg / "rules.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .state import S\n"
                                  "def f():\n    from tourney.engine.demo import state\n")
    (pkg / "state.py").write_text("import tourney.engine.demo.rules\n")
    (pkg / "cli.py").write_text("from tourney.engine.demo.cmd import x\n")
    (pkg / "cmd.py").write_text("try:\n    from .cli import app\nexcept ImportError:\n    pass\n")
    graph = import_graph(tmp_path, ("engine",))
    assert graph["engine.demo.rules"] == set()  # TYPE_CHECKING and in-function imports run later, if ever
    assert graph["engine.demo.state"] == {"engine.demo.rules"}  # its own package is already importing
    assert graph["engine.demo.game"] == {"engine.demo.rules"}  # `from . import rules` imports the module
    assert import_cycles(graph) == [["engine.demo.cli", "engine.demo.cmd"]]
