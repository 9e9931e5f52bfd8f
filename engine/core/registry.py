"""Games by id. The core names no game: it finds the built-in ones, and others register.

A built-in game is a package under `engine.games` that exposes its `Game` as `GAME`. The first
time a game is asked for and not yet registered, each such package is imported once and its
`GAME` registered. Games from elsewhere (plugins, test fixtures) call `register` themselves.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading

from tourney.engine.core.errors import UnknownGame
from tourney.engine.core.game import Game

# Where the built-in games live: a place to look, not a list of games.
BUILTIN_GAMES_PACKAGE = "tourney.engine.games"

# id -> the module that registered it, so a fresh worker process can import it again.
GAME_MODULES: dict[str, str] = {}

_loaded: dict[str, Game] = {}
_discovered = False
# Threads (the arena's handlers, a learner's environment) may ask for games at once: one imports them
# all while the others wait, so none sees half a registry. Re-entrant: a game package that asks for a
# game while it is being imported gets what is registered so far, as before.
_discovery = threading.RLock()
_discovering = False


def register(game: Game) -> None:
    """Make `game` available under its id (games outside `engine.games` call this on import)."""
    _loaded[game.id] = game
    GAME_MODULES.setdefault(game.id, type(game).__module__)


def _discover() -> None:
    """Import every package under BUILTIN_GAMES_PACKAGE once and register the GAME it exposes."""
    global _discovered, _discovering
    if _discovered:
        return
    with _discovery:
        if _discovered or _discovering:  # done meanwhile, or this thread is inside the discovery
            return
        _discovering = True
        try:
            package = importlib.import_module(BUILTIN_GAMES_PACKAGE)
            for info in sorted(pkgutil.iter_modules(package.__path__, f"{BUILTIN_GAMES_PACKAGE}."),
                               key=lambda m: m.name):
                if not info.ispkg:
                    continue
                game = getattr(importlib.import_module(info.name), "GAME", None)
                if not isinstance(game, Game):
                    raise TypeError(f"{info.name} is a game package without a GAME: expose its Game instance as GAME.")
                if game.id not in _loaded:
                    register(game)
            _discovered = True
        finally:
            _discovering = False


def game_ids() -> list[str]:
    """Every registered game id, sorted."""
    _discover()
    return sorted(_loaded)


def get_game(game_id: str) -> Game:
    """The game registered as `game_id`; UnknownGame (one sentence) if there is none."""
    game = _loaded.get(game_id)
    if game is None:
        _discover()
        game = _loaded.get(game_id)
    if game is None:
        known = ", ".join(sorted(_loaded))
        raise UnknownGame(f"unknown game '{game_id!s:.60}': choose one of {known}.")  # a caller's id, bounded
    return game


def available_games() -> list[Game]:
    """Every registered game, sorted by id."""
    _discover()
    return [_loaded[gid] for gid in sorted(_loaded)]
