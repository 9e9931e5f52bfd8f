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


def test_workers_do_not_import_tournament():
    assert forbidden("workers", ("tournament",)) == []


def test_nothing_imports_web_but_the_two_cli_registrations():
    """web/ is a leaf: only `tourney web` (tournament/cli.py) and `serve --web-port` (serve_cli.py) reach it."""
    allowed = {"tournament/cli.py", "tournament/serve_cli.py"}
    found = [o for pkg in ("engine", "workers", "tournament") for o in forbidden(pkg, ("web",))]
    assert [o for o in found if o.split(" imports ")[0] not in allowed] == []


def test_web_reads_the_store_and_the_public_arena_api_only():
    """The web app uses the store, tournament's reading functions and the arena's public gRPC stubs: never
    the arena's internals, the workers, the bots or a game's rules directly."""
    internals_of = ("workers", "engine.bots", "engine.games", "engine.server.arena", "engine.server.sessions",
                    "engine.server.servicer", "engine.server.server", "engine.server.live", "engine.server.records",
                    "engine.server.match_loop", "engine.server.local", "engine.server.remote", "ray")
    internals = [o for o in forbidden("web", internals_of)
                 if not o.startswith("web/cli.py imports engine.server.arena")]
    assert internals == []  # web/cli.py names the Arena type only to start beside it (serve --web-port)


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
