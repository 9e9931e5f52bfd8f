"""Each game's drawing for the replay viewer: a script in the game's package (`Game.viewer_script`).

The pages load every game's script before web/static/viewer.js; the viewer draws a view with the
drawing its game registered, so the web app names no game.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tourney.engine.core import UnknownGame, available_games, get_game


def viewer_games() -> list[str]:
    """The ids of the games that have a drawing, for the pages' script tags."""
    return [g.id for g in available_games() if g.viewer_script is not None]


def viewer_script(game_id: str) -> Path | None:
    """The file of `game_id`'s drawing, or None when there is no such game or it has none."""
    try:
        game = get_game(game_id)
    except UnknownGame:
        return None
    name = game.viewer_script
    module = sys.modules.get(type(game).__module__)
    if name is None or module is None or module.__file__ is None or Path(name).name != name:
        return None  # a plain file name beside the game's module, nothing that leads elsewhere
    path = Path(module.__file__).parent / name
    return path if path.is_file() else None
