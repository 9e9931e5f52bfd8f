"""`tourney games`' view of each game's declared options: JSON rows and readable lines."""

from __future__ import annotations

import json
from typing import Any

from tourney.engine.core import Game


def options_doc(game: Game) -> list[dict[str, Any]]:
    """Every option of `game` with its type, default, limits and help, JSON-ready."""
    return game.options.describe()


def options_lines(game: Game) -> list[tuple[str, str]]:
    """Each option of `game` as (what `--set KEY=VALUE` accepts, what it means), e.g.
    ('fight_cap (int, default 200, 1..)', 'fights before the referee adjudicates')."""
    lines = []
    for option in game.options:
        allowed = ", ".join(map(str, option.choices)) if option.choices else _range(option.low, option.high)
        facts = ", ".join(part for part in (option.type_name(), f"default {json.dumps(option.default)}", allowed)
                          if part)
        lines.append((f"{option.key} ({facts})", option.help))
    return lines


def _range(low: float | None, high: float | None) -> str:
    if low is None and high is None:
        return ""
    return f"{'' if low is None else f'{low:g}'}..{'' if high is None else f'{high:g}'}"
