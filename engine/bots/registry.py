"""Bots by name: the generic ones here, plus whatever a game brings through `Game.bots()`.

A bot spec is `name` or `name:key=value:key=value` (e.g. `ismcts:ms=200`). Each bot class
declares its `DESCRIPTION` and `OPTIONS` once; option values are checked here, for every bot,
so a bad spec is one sentence whichever bot it names.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tourney.engine.bots.greedy import GreedyBot
from tourney.engine.bots.ismcts import IsmctsBot
from tourney.engine.bots.random_bot import RandomBot
from tourney.engine.core import BotOption, ConfigError, Game, Seat

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


@dataclass(frozen=True)
class BotInfo:
    """What `tourney games` shows about a bot: its name, one-line description and options."""

    name: str
    description: str
    options: tuple[BotOption, ...]

    def as_json(self) -> dict[str, Any]:
        """The bot for `tourney games --json`: name, description and each option's kind and bounds."""
        return {"name": self.name, "description": self.description, "options": [
            {"name": o.name, "type": o.kind.__name__, "default": o.default, "minimum": o.minimum,
             "choices": list(o.choices), "help": o.help} for o in self.options]}


def _factory(game: Game, name: str) -> Callable[..., Any] | None:
    return game.bots().get(name) or GENERIC.get(name)


def bot_infos(game: Game) -> list[BotInfo]:
    """Every bot usable for `game`, in `bot_names` order, with what it declares about itself."""
    infos = []
    for name in bot_names(game):
        factory = _factory(game, name)
        infos.append(BotInfo(name, getattr(factory, "DESCRIPTION", ""), tuple(getattr(factory, "OPTIONS", ()))))
    return infos


def option_usage(option: BotOption) -> str:
    """One option as `name=<kind>` with its default, bound or choices, e.g. `ms=<float> (default 50.0, >= 1)`."""
    kind = "|".join(option.choices) if option.choices else option.kind.__name__
    notes = [] if option.default is None else [f"default {option.default}"]
    if option.minimum is not None:
        notes.append(f">= {option.minimum:g}")
    return f"{option.name}=<{kind}>" + (f" ({', '.join(notes)})" if notes else "")


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
    factory = _factory(game, name)
    if factory is None:
        known = ", ".join(bot_names(game))
        raise ConfigError(f"unknown bot '{name}' for {game.id}: choose one of {known}.")
    declared = getattr(factory, "OPTIONS", None)
    if declared is not None:
        options = _checked(name, {o.name: o for o in declared}, options)
    else:
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


_KIND_WORDS = {int: "a whole number", float: "a number", bool: "true or false", str: "text"}


def _checked(bot: str, declared: dict[str, BotOption], options: dict[str, Any]) -> dict[str, Any]:
    """The options converted to their declared kinds, or a ConfigError naming the first bad one."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        option = declared.get(key)
        if option is None:
            known = ", ".join(declared) or "none"
            raise ConfigError(f"bot '{bot}' has no option '{key}': its options are {known}.")
        sample = next(v for v in (option.example, option.choices[0] if option.choices else None, option.default, 1)
                      if v is not None)
        shown = f"{sample:g}" if isinstance(sample, float) else str(sample)
        example = f"write e.g. {bot}:{key}={shown}"
        converted = _convert(str(value), option.kind)
        if converted is None:
            kind = _KIND_WORDS.get(option.kind, option.kind.__name__)
            raise ConfigError(f"bot option {bot}:{key}={value} is not {kind}: {example}.")
        if option.minimum is not None and converted < option.minimum:
            raise ConfigError(f"bot option {bot}:{key}={value} is below {option.minimum:g}: {example}.")
        if option.choices and converted not in option.choices:
            raise ConfigError(f"bot option {bot}:{key}={value} is not one of {', '.join(option.choices)}: {example}.")
        out[key] = converted
    return out


def _convert(raw: str, kind: type) -> Any:
    if kind is bool:
        return {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}.get(raw.lower())
    try:
        value = kind(raw)
    except ValueError:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
