"""Bots by name: the generic ones here, plus whatever a game brings through `Game.bots()`.

A bot spec is `name` or `name:key=value:key=value` (e.g. `ismcts:iterations=400`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from engine.bots.greedy import GreedyBot
from engine.bots.ismcts import IsmctsBot
from engine.bots.random_bot import RandomBot
from engine.core import ConfigError, Game, Seat

GENERIC: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "ismcts": IsmctsBot,
}


def bot_names(game: Game) -> list[str]:
    """Every bot name usable for `game`: generic ones first, then the game's own."""
    names = list(GENERIC)
    names += [n for n in game.bots() if n not in GENERIC]
    return names


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split `name:key=value:...` into the name and typed options (int, float or str)."""
    name, *parts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, raw = part.partition("=")
        if not sep or not key:
            raise ConfigError(f"bot option '{part}' in '{spec}' is not key=value: write e.g. ismcts:iterations=400.")
        options[key] = _typed(raw)
    return name, options


def _typed(raw: str) -> Any:
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            continue
    return raw


def make_bot(spec: str, game: Game, seed: int) -> Seat:
    """Build the bot named by `spec` for `game`, with its own generator seeded by `seed`."""
    name, options = parse_bot_spec(spec)
    factory = game.bots().get(name) or GENERIC.get(name)
    if factory is None:
        known = ", ".join(bot_names(game))
        raise ConfigError(f"unknown bot '{name}' for {game.id}: choose one of {known}.")
    _check_numbers(spec, factory, options)
    try:
        bot: Seat = factory(seed=seed, **options)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"bot '{spec}' cannot be built ({exc}): check its options.") from None
    return bot


def _check_numbers(spec: str, factory: Callable[..., Any], options: Mapping[str, Any]) -> None:
    """An option whose default is a number must be given as one: say so, naming the option."""
    try:
        defaults = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a factory without a readable signature checks its own options
        return
    for key, value in options.items():
        param = defaults.get(key)
        default = None if param is None else param.default
        if isinstance(default, (int, float)) and not isinstance(default, bool) and isinstance(value, str):
            raise ConfigError(f"bot option {key}={value} in '{spec}' is not a number: write e.g. "
                              f"{spec.split(':')[0]}:{key}={default}.")
