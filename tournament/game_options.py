"""`tourney games`' view of each game's declared options: JSON rows and a readable table."""

from __future__ import annotations

import json
from typing import Any

from rich.markup import escape
from rich.table import Table

from tourney.engine.core import Game


def options_doc(game: Game) -> list[dict[str, Any]]:
    """Every option of `game` with its type, default, limits and help, JSON-ready."""
    return game.options.describe()


def options_table(games: list[Game]) -> Table:
    """One row per (game, option): what `--set KEY=VALUE` accepts and what it is without it."""
    table = Table(title="Game options (--set KEY=VALUE)")
    for col in ("game", "option", "type", "default", "allowed", "meaning"):
        table.add_column(col)
    for game in games:
        for option in game.options:
            allowed = ", ".join(map(str, option.choices)) if option.choices else _range(option.low, option.high)
            table.add_row(game.id, option.key, option.type_name(), escape(json.dumps(option.default)), escape(allowed),
                          escape(option.help))
    return table


def _range(low: float | None, high: float | None) -> str:
    if low is None and high is None:
        return ""
    return f"{'' if low is None else f'{low:g}'}..{'' if high is None else f'{high:g}'}"
