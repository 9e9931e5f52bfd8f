"""The import arrows of DESIGN.md: tournament -> workers -> engine.referee -> engine.games, engine.bots.

Checked on the source text (every import statement, including ones inside functions), so a
new module cannot quietly reverse an arrow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imports_of(package: str) -> dict[str, set[str]]:
    """{file: every module it imports} for the .py files under `package` (generated code excluded)."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / package).rglob("*.py"):
        if "generated" in path.parts:
            continue
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


def offenders(package: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{file} imports {name}"
        for file, names in imports_of(package).items()
        for name in names
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    )


def test_nothing_under_engine_imports_tournament_or_workers():
    assert offenders("engine", ("tournament", "workers")) == []


def test_workers_do_not_import_tournament():
    assert offenders("workers", ("tournament",)) == []


@pytest.mark.parametrize("game", ["tiny_ninjas", "ninja_versus_ninja", "maitre_ninja", "ninja_arena"])
def test_games_import_only_the_core_and_no_infrastructure(game):
    infrastructure = ("grpc", "ray", "sqlmodel", "sqlalchemy", "prometheus_client", "engine.bots", "engine.referee",
                      "engine.server", "socket", "threading", "time")
    other_games = tuple(f"engine.games.{g}" for g in ("tiny_ninjas", "ninja_versus_ninja", "maitre_ninja",
                                                       "ninja_arena") if g != game)
    assert offenders(f"engine/games/{game}", infrastructure + other_games) == []


def test_bots_see_only_the_core():
    assert offenders("engine/bots", ("engine.games", "engine.referee", "engine.server")) == []


def test_nothing_imports_web_but_the_two_cli_registrations():
    """web/ is a leaf: only `tourney web` (tournament/cli.py) and `serve --web-port` (serve_cli.py) reach it."""
    allowed = {"tournament/cli.py", "tournament/serve_cli.py"}
    found = [o for pkg in ("engine", "workers", "tournament") for o in offenders(pkg, ("web",))]
    assert [o for o in found if o.split(" imports ")[0] not in allowed] == []


def test_web_reads_the_store_and_the_public_arena_api_only():
    """The web app uses the store, tournament's reading functions and the arena's public gRPC stubs: never
    the arena's internals, the workers, the bots or a game's rules directly."""
    forbidden = ("workers", "engine.bots", "engine.games", "engine.server.arena", "engine.server.sessions",
                 "engine.server.match_loop", "engine.server.local", "engine.server.remote", "ray")
    internals = [o for o in offenders("web", forbidden) if not o.startswith("web/cli.py imports engine.server.arena")]
    assert internals == []  # web/cli.py names the Arena type only to start beside it (serve --web-port)
