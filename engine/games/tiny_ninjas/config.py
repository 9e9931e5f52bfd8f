"""Tiny Ninjas configuration (spec §7): the standard configuration and each mode as a delta.

A match config is a dict merged, in this order, over: the standard configuration, then the
delta of the chosen `mode`, then the caller's own keys. Per-seat keys (start_health,
max_health, hand_limit, reveal_hand) take a two-item list, a single value for both seats,
or a {seat: value} dict that changes only the seats it names (the §7.4 handicaps).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.core import ConfigError
from engine.games.tiny_ninjas.data import CARDS, TYPE_BY_NAME

MODES: Final = ("standard", "blitz", "survivor", "champion", "solo")
DIFFICULTIES: Final = ("easy", "normal", "hard")
PER_SEAT: Final = ("start_health", "max_health", "hand_limit", "reveal_hand")

STANDARD: Final[dict[str, Any]] = {
    "mode": "standard",
    "use_expansion": False,
    "start_health": [10, 10],
    "max_health": [10, 10],
    "hand_limit": [5, 5],
    "reveal_hand": [False, False],
    "power_ups": True,
    "chooser": "random",
    "opening_discard": True,
    "replenish": True,
    "single_attack_rounds": False,
    "must_attack": False,
    "round_cap": 100,
    "attack_cap_per_round": 30,
    # Extensions used by the modes (standard values switch them off).
    "remove_cards": {},  # card name -> copies taken out of the deck
    "initial_hand": None,  # None: min(5, hand_limit[p]); BLITZ deals 15
    "mulligan": 0,  # BLITZ: up to 5 cards set aside and redrawn
    "end_when_hands_empty": False,  # BLITZ end condition
    "survivor": False,  # SURVIVOR: permanent Grim, DOOM | HEAL_1 | PASS each attacking Round
    "series_wins": 0,  # CHAMPION: battle wins needed (0 = a single battle)
    "series_cap": 9,  # CHAMPION: battles played at most
    "difficulty": "normal",  # SOLO only
    "ai_health": 10,  # SOLO only
}

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


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _coerce(key: str, value: Any) -> Any:
    """Text from a command line ("4", "true", "HARD") as the type the standard value has."""
    if not isinstance(value, str):
        return value
    ref = STANDARD[key]
    if isinstance(ref, list):
        ref = ref[0]
    text = value.strip().lower()
    if isinstance(ref, bool):
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    elif isinstance(ref, int) or key in ("initial_hand", "chooser"):
        if text.lstrip("-").isdigit():
            return int(text)
    elif key in ("mode", "difficulty"):
        return text
    return value


def _seat_list(key: str, value: Any, base: list[Any]) -> list[Any]:
    if isinstance(value, Mapping):
        out = list(base)
        for seat, v in value.items():
            try:
                s = int(seat)
            except (TypeError, ValueError):
                raise ConfigError(f"config '{key}' has seat key {seat!r}: use 0 or 1.") from None
            if s not in (0, 1):
                raise ConfigError(f"config '{key}' names seat {s}: use 0 or 1.")
            out[s] = v
        return out
    if isinstance(value, list | tuple):
        if len(value) != 2:
            raise ConfigError(f"config '{key}' must list one value per seat (2 values), not {len(value)}.")
        return list(value)
    return [value, value]


def _int(key: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"config '{key}' is {value!r}: give a whole number from {low} to {high}.")
    return value


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"config '{key}' is {value!r}: give true or false.")
    return value


_CACHE: dict[str, dict[str, Any]] = {}
_CACHE_SIZE = 256


def resolve_shared(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """Like `resolve`, but cached and shared between states: the caller must not mutate it.

    A state only reads its configuration, and random playouts build thousands of states
    with the same few configurations, so checking each one once is enough.
    """
    key = repr(config) if config else ""
    cfg = _CACHE.get(key)
    if cfg is None:
        cfg = resolve(config)
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = cfg
    return cfg


def resolve(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """The full, checked configuration for `config` (standard < mode delta < caller keys)."""
    given = dict(config or {})
    mode = _coerce("mode", given.get("mode", "standard"))
    if mode not in MODES:
        raise ConfigError(f"unknown Tiny Ninjas mode {mode!r}: choose one of {', '.join(MODES)}.")
    cfg: dict[str, Any] = {k: (list(v) if isinstance(v, list) else v) for k, v in STANDARD.items()}
    delta = dict(MODE_DELTAS[mode])
    if mode == "blitz" and given.get("use_expansion"):
        delta["remove_cards"] = {**delta["remove_cards"], "Monk": 2}  # A16
    for source in (delta, given):
        for key, value in source.items():
            if key not in STANDARD:
                raise ConfigError(f"unknown Tiny Ninjas config key {key!r}: use one of {', '.join(STANDARD)}.")
            if key in PER_SEAT:
                cfg[key] = [_coerce(key, v) for v in _seat_list(key, value, cfg[key])]
            else:
                cfg[key] = _coerce(key, value)
    return _check(cfg)


def _check(cfg: dict[str, Any]) -> dict[str, Any]:
    for key in ("use_expansion", "power_ups", "opening_discard", "replenish", "single_attack_rounds",
                "must_attack", "end_when_hands_empty", "survivor"):
        _bool(key, cfg[key])
    cfg["reveal_hand"] = [_bool("reveal_hand", v) for v in cfg["reveal_hand"]]
    cfg["hand_limit"] = [_int("hand_limit", v, 1, 30) for v in cfg["hand_limit"]]
    cfg["max_health"] = [_int("max_health", v, 1, 99) for v in cfg["max_health"]]
    cfg["start_health"] = [_int("start_health", v, 1, 99) for v in cfg["start_health"]]
    for s in (0, 1):
        if cfg["start_health"][s] > cfg["max_health"][s]:
            raise ConfigError(
                f"seat {s} starts at {cfg['start_health'][s]} health above its max_health "
                f"{cfg['max_health'][s]}: lower start_health or raise max_health."
            )
    _int("round_cap", cfg["round_cap"], 1, 100_000)
    _int("attack_cap_per_round", cfg["attack_cap_per_round"], 1, 1000)
    _int("mulligan", cfg["mulligan"], 0, 30)
    _int("series_wins", cfg["series_wins"], 0, 50)
    _int("series_cap", cfg["series_cap"], 1, 200)
    _int("ai_health", cfg["ai_health"], 1, 99)
    if cfg["initial_hand"] is not None:
        _int("initial_hand", cfg["initial_hand"], 0, 30)
    chooser = cfg["chooser"]
    if chooser not in ("random", 0, 1, "0", "1"):
        raise ConfigError(f"config 'chooser' is {chooser!r}: use random, 0 or 1.")
    cfg["chooser"] = chooser if chooser == "random" else int(chooser)
    if cfg["difficulty"] not in DIFFICULTIES:
        raise ConfigError(f"solo difficulty {cfg['difficulty']!r} is unknown: use easy, normal or hard.")
    removals = cfg["remove_cards"]
    if not isinstance(removals, Mapping):
        raise ConfigError("config 'remove_cards' must map card names to counts, e.g. {\"Alien\": 1}.")
    for name, n in removals.items():
        t = TYPE_BY_NAME.get(name)
        if t is None:
            raise ConfigError(f"remove_cards names {name!r}, which is not a Tiny Ninjas card: check the spelling.")
        _int(f"remove_cards.{name}", n, 0, CARDS[t].count)
    return cfg
