"""Tiny Ninjas configuration (spec §7): the options, and each mode as a delta over the standard.

A match config is the declared defaults (the standard configuration), then the delta of the
chosen `mode`, then the caller's own keys; `OPTIONS.resolve` merges and checks them. Per-seat
keys (start_health, max_health, hand_limit, reveal_hand) take a two-item list, a single value
for both seats, or a {seat: value} dict that changes only the seats it names (the §7.4 handicaps).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tourney.engine.core import ConfigError, Option, Options
from tourney.engine.games.tiny_ninjas.data import CARDS, TYPE_BY_NAME

MODES: Final = ("standard", "blitz", "survivor", "champion", "solo")
DIFFICULTIES: Final = ("easy", "normal", "hard")

MODE_DELTAS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "blitz": {
        "remove_cards": {"Alien": 1, "Angel": 2},
        "initial_hand": 15,
        "hand_limit": [15, 15],
        "replenish": False,
        "opening_discard": False,
        "mulligan": 5,
        "single_attack_rounds": True,
        "must_attack": True,
        "end_when_hands_empty": True,
    },
    "survivor": {
        "remove_cards": {"Medic": 2, "Grim": 2},
        "start_health": [8, 8],
        "max_health": [8, 8],
        "survivor": True,
    },
    "champion": {"power_ups": False, "series_wins": 3, "series_cap": 9},
    "solo": {"remove_cards": {"Baby": 2, "Grim": 2}, "opening_discard": False},
}


def _mode_delta(given: Mapping[str, Any], _players: int | None) -> Mapping[str, Any]:
    """The chosen mode's delta; Blitz with the expansion also takes the Monks out (A16)."""
    mode = given.get("mode", "standard")
    delta = MODE_DELTAS[mode]
    if mode == "blitz" and given.get("use_expansion"):
        delta = {**delta, "remove_cards": {**delta["remove_cards"], "Monk": 2}}
    return delta


def _start_under_max(cfg: dict[str, Any], _players: int | None) -> None:
    """No seat starts above the health it can heal up to."""
    for s in (0, 1):
        if cfg["start_health"][s] > cfg["max_health"][s]:
            raise ConfigError(
                f"seat {s} starts at {cfg['start_health'][s]} health above its max_health "
                f"{cfg['max_health'][s]}: lower start_health or raise max_health."
            )


def _card_removals(cfg: dict[str, Any], _players: int | None) -> None:
    """remove_cards maps Tiny Ninjas card names to at most the copies the deck has."""
    removals = cfg["remove_cards"]
    if not isinstance(removals, Mapping):
        raise ConfigError("config 'remove_cards' must map card names to counts, e.g. {\"Alien\": 1}.")
    for name, n in removals.items():
        t = TYPE_BY_NAME.get(name)
        if t is None:
            raise ConfigError(f"remove_cards names {name!r}, which is not a Tiny Ninjas card: check the spelling.")
        Option(name, "int", 0, "copies removed", 0, CARDS[t].count).check(n, f"remove_cards.{name}")


OPTIONS: Final = Options("Tiny Ninjas", (
    Option("mode", "str", "standard", "§7 mode; each mode is a delta over the standard configuration",
           choices=MODES),
    Option("use_expansion", "bool", False, "add the expansion cards (Appendix A)"),
    Option("start_health", "int", [10, 10], "health each seat starts with", 1, 99, per_seat=True),
    Option("max_health", "int", [10, 10], "health a seat can heal up to", 1, 99, per_seat=True),
    Option("hand_limit", "int", [5, 5], "cards a seat may hold", 1, 30, per_seat=True),
    Option("reveal_hand", "bool", [False, False], "play this seat's hand face up (§7.4 handicap)", per_seat=True),
    Option("power_ups", "bool", True, "deal power-up tokens"),
    Option("chooser", "json", "random", "who picks the first attacker: random, 0 or 1", choices=("random", 0, 1)),
    Option("opening_discard", "bool", True, "each seat discards before the first round"),
    Option("replenish", "bool", True, "hands refill at the end of a round"),
    Option("single_attack_rounds", "bool", False, "one attack per round (BLITZ)"),
    Option("must_attack", "bool", False, "the attacker may not pass (BLITZ)"),
    Option("round_cap", "int", 100, "rounds before the referee adjudicates", 1, 100_000),
    Option("attack_cap_per_round", "int", 30, "attacks in one round before it ends", 1, 1000),
    # Extensions used by the modes (standard values switch them off).
    Option("remove_cards", "json", {}, "card name -> copies taken out of the deck"),
    Option("initial_hand", "int", None, "cards dealt first; null: min(5, hand_limit)", 0, 30, nullable=True),
    Option("mulligan", "int", 0, "cards a seat may set aside and redraw (BLITZ)", 0, 30),
    Option("end_when_hands_empty", "bool", False, "the battle ends when both hands are empty (BLITZ)"),
    Option("survivor", "bool", False, "permanent Grim, DOOM | HEAL_1 | PASS each attacking round (SURVIVOR)"),
    Option("series_wins", "int", 0, "battle wins a Champion series needs (0: a single battle)", 0, 50),
    Option("series_cap", "int", 9, "battles a Champion series plays at most", 1, 200),
    Option("difficulty", "str", "normal", "Solo AI difficulty (solo only)", choices=DIFFICULTIES),
    Option("ai_health", "int", 10, "the Solo AI's health (solo only)", 1, 99),
), validators=(_start_under_max, _card_removals), layer=_mode_delta)

_CACHE: dict[str, tuple[Options, dict[str, Any]]] = {}  # repr(config) -> (the declaration, its config)
_CACHE_SIZE = 256


def resolve_shared(options: Options, config: Mapping[str, Any] | None) -> dict[str, Any]:
    """`options.resolve(config)`, but cached and shared between states: the caller must not mutate it.

    A state only reads its configuration, and random playouts build thousands of states
    with the same few configurations, so checking each one once is enough.
    """
    key = repr(config) if config else ""
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is options:
        return hit[1]
    cfg = options.resolve(config)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = (options, cfg)
    return cfg
