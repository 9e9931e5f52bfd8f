"""Entrants from the command line: `name[:options][@alias]`, e.g. `random@b` or `ismcts:iterations=50`."""

from __future__ import annotations

from dataclasses import dataclass

from engine.bots import make_bot, parse_bot_spec
from engine.core import ConfigError, Game


@dataclass(frozen=True)
class Entrant:
    """A bot entered in a tournament under a unique alias."""

    alias: str
    spec: str


def parse_entrants(text: str, game: Game, unique: bool = True) -> list[Entrant]:
    """Parse a comma-separated list of bot specs, checking every bot exists for `game`.

    With unique (tournaments), two entries may not share an alias; a single match may
    seat the same bot twice.
    """
    entrants: list[Entrant] = []
    for raw in (part.strip() for part in text.split(",")):
        if not raw:
            raise ConfigError(f"the bot list '{text}' has an empty entry: write names separated by commas.")
        spec, _, alias = raw.partition("@")
        alias = alias or spec
        name, _ = parse_bot_spec(spec)
        make_bot(spec, game, 0)  # fails now, with one sentence, rather than mid-tournament
        if unique and any(e.alias == alias for e in entrants):
            raise ConfigError(f"bot '{alias}' is entered twice: give one an alias, e.g. {name}@{name}2.")
        entrants.append(Entrant(alias, spec))
    return entrants
