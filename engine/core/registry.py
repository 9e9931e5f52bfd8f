"""Games by id. Each game package exposes `GAME`; it is imported the first time it is asked for."""

from __future__ import annotations

import importlib

from engine.core.errors import UnknownGame
from engine.core.game import Game

# id -> module that defines GAME. Kept as names so importing the registry stays cheap.
GAME_MODULES: dict[str, str] = {
    "tiny-ninjas": "engine.games.tiny_ninjas",
    "ninja-versus-ninja": "engine.games.ninja_versus_ninja",
    "maitre-ninja": "engine.games.maitre_ninja",
    "ninja-arena": "engine.games.ninja_arena",
}

_loaded: dict[str, Game] = {}


def game_ids() -> list[str]:
    """Every registered game id, in registry order."""
    return list(GAME_MODULES)


def get_game(game_id: str) -> Game:
    """The game registered as `game_id`; UnknownGame (one sentence) if there is none."""
    if game_id in _loaded:
        return _loaded[game_id]
    module_name = GAME_MODULES.get(game_id)
    if module_name is None:
        known = ", ".join(GAME_MODULES)
        raise UnknownGame(f"unknown game '{game_id}': choose one of {known}.")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise UnknownGame(f"game '{game_id}' is registered but not built yet: pick another game.") from None
        raise
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise UnknownGame(f"game '{game_id}' is registered but not built yet: pick another game.")
    _loaded[game_id] = game
    return game


def available_games() -> list[Game]:
    """The registered games that are built, in registry order."""
    out = []
    for gid in GAME_MODULES:
        try:
            out.append(get_game(gid))
        except UnknownGame:
            continue
    return out


def register(game: Game) -> None:
    """Add a game that lives outside this package (plugins, test fixtures) under its id."""
    _loaded[game.id] = game
    GAME_MODULES.setdefault(game.id, type(game).__module__)
