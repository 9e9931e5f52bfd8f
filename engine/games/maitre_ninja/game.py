"""The Maître Ninja game object: facts, configuration, state factory, bots, rendering."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from engine.core import Chance, ConfigError, Game, Inject, Option, Options, State
from engine.games.maitre_ninja import data
from engine.games.maitre_ninja.state import MaitreNinjaState, Setup

OPTIONS = Options("maitre-ninja", (
    Option("n_players", "int", 2, "players (or use --players); must agree with --players", 2, 4),
    Option("first_player", "int", None, "the first attacker's seat; null: a seeded pick (A11)", low=0,
           nullable=True),
    Option("fight_cap", "int", data.FIGHT_CAP, "fights before the referee adjudicates", low=1),
    Option("parries_by_rank", "json", dict(data.PARRIES_BY_RANK), "row length of parries for ranks 1-4 (§5)"),
    Option("parry_supply", "json", dict(data.PARRY_SUPPLY), "parry cards of each type DO, BL, JU (§5)"),
    Option("elements", "json", None, "one element per seat from Air, Terre, Eau, Feu; null: in seat order",
           nullable=True),
))


def _int(value: Any, what: str, fix: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{what} must be an integer, got {value!r}: {fix}.")
    return value


# What a config fixes for the whole match, once checked: players, fight cap, row length by rank
# (index = attacker rank), parry supply (DO, BL, JU) and elements.
Checked = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[str, ...]]


def parse_config(players: int | None, config: Mapping[str, Any] | None, chance: Chance) -> Setup:
    """Check a config against §5 and turn it into a Setup; ConfigError names any bad value."""
    cfg = dict(config or {})
    n, cap, parries, supply, elements = _check(players, cfg) if cfg else _check_defaults(players)
    first = cfg.get("first_player")
    if first is None:
        first = chance.pick("tiebreak", n)  # A11: a seeded pick
    else:
        first = _int(first, "first_player", f"give a seat from 0 to {n - 1} or leave it out")
        if not 0 <= first < n:
            raise ConfigError(f"first_player={first} is not a seat of {n} players: give 0 to {n - 1}.")
    return Setup(n, first, cap, parries, supply, elements)


@cache
def _check_defaults(players: int | None) -> Checked:
    """The checked defaults for a player count, worked out once per count: most matches give no
    config, and checking one costs about a tenth of a whole random playout."""
    return _check(players, {})


def _check(players: int | None, cfg: Mapping[str, Any]) -> Checked:
    """Everything in a config but the first attacker, checked against §5."""
    OPTIONS.refuse_unknown(cfg)
    n = cfg.get("n_players")
    if n is not None:
        n = _int(n, "n_players", "give 2, 3 or 4")
    if players is not None and n is not None and players != n:
        raise ConfigError(f"players={players} contradicts config n_players={n}: give the same count in both.")
    n = players if players is not None else (n if n is not None else data.MIN_PLAYERS)
    if not data.MIN_PLAYERS <= n <= data.MAX_PLAYERS:
        raise ConfigError(f"Maître Ninja is for 2 to 4 players, not {n}: choose 2, 3 or 4 players.")

    cap = OPTIONS["fight_cap"].check(cfg.get("fight_cap", data.FIGHT_CAP))

    raw_supply = cfg.get("parry_supply", data.PARRY_SUPPLY)
    if not isinstance(raw_supply, Mapping) or set(raw_supply) != set(data.PARRY_TYPES):
        raise ConfigError(f"parry_supply must map exactly DO, BL and JU to counts, got {raw_supply!r}: fix its keys.")
    supply = tuple(_int(raw_supply[t], f"parry_supply[{t}]", "give a count of cards") for t in data.PARRY_TYPES)
    if min(supply) < 0:
        raise ConfigError(f"parry_supply {raw_supply!r} has a negative count: give counts of 0 or more.")

    raw_parries = cfg.get("parries_by_rank", data.PARRIES_BY_RANK)
    if not isinstance(raw_parries, Mapping):
        raise ConfigError(f"parries_by_rank must map ranks 1-4 to row lengths, got {raw_parries!r}: give a mapping.")
    try:
        by_rank = {int(k): v for k, v in raw_parries.items()}  # JSON configs spell the ranks as strings
    except (TypeError, ValueError):
        raise ConfigError(
            f"parries_by_rank keys must be the ranks 1-4, got {sorted(map(str, raw_parries))}: use 1, 2, 3 and 4."
        ) from None
    if set(by_rank) != {1, 2, 3, 4}:
        raise ConfigError(
            f"parries_by_rank must give ranks 1, 2, 3 and 4, got {sorted(by_rank)}: add the missing ranks."
        )
    parries = [0]
    for rank in (1, 2, 3, 4):
        m = _int(by_rank[rank], f"parries_by_rank[{rank}]", "give a row length")
        if not 1 <= m <= sum(supply):
            raise ConfigError(
                f"parries_by_rank[{rank}]={m} does not fit the supply of {sum(supply)} parries: "
                "give a length between 1 and the supply."
            )
        parries.append(m)

    raw_elements = cfg.get("elements")
    if raw_elements is None:
        elements = data.ELEMENTS[:n]
    else:
        elements = tuple(raw_elements)
        if len(elements) != n or len(set(elements)) != n or not set(elements) <= set(data.ELEMENTS):
            raise ConfigError(
                f"elements {raw_elements!r} must name {n} different elements from {', '.join(data.ELEMENTS)}: "
                "give one per seat."
            )
    return n, cap, tuple(parries), supply, tuple(elements)


class MaitreNinja(Game):
    """Be the first to rise from Apprenti to Maître Ninja by winning fights as the attacker."""

    id = "maitre-ninja"
    name = "Maître Ninja"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    options = OPTIONS

    def new_state(
        self,
        seed: int,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        inject: Inject | None = None,
    ) -> MaitreNinjaState:
        """A fresh match; the only chance is the first attacker (stream `tiebreak`, or Inject picks)."""
        chance = Chance(seed, inject)
        return MaitreNinjaState(self, parse_config(players, config, chance), chance)

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        from engine.games.maitre_ninja.bots import BestResponseBot, NashBot, RegretBot

        return {"nash": NashBot, "best_response": BestResponseBot, "regret": RegretBot}

    def render(self, state: State) -> str:
        from engine.games.maitre_ninja.render import render

        assert isinstance(state, MaitreNinjaState)
        return render(state)

    def evaluate(self, state: State, seat: int) -> float:
        """Rank lead over the average opponent, scaled to [-1, 1]; exact once the match is over."""
        if state.is_over():
            return 2.0 * state.outcome().points(seat) - 1.0
        assert isinstance(state, MaitreNinjaState)
        ranks = state.ranks
        others = [r for s, r in enumerate(ranks) if s != seat]
        return (ranks[seat] - sum(others) / len(others)) / 4.0
