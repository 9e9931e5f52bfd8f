"""A game's options, declared once: the keys, their types, defaults and checks.

Each game lists its options as `Option`s in one `Options`. From that one declaration come the
default config, `Options.resolve` (the caller's config merged over the defaults, text read as
each option's kind, every value checked, unknown keys refused naming the valid ones), how the
command line turns `--set KEY=TEXT` into a value, and what `tourney games` shows. What only
one game knows rides on the same declaration as small hooks: `validators` for checks that tie
several options together (start health under max health, one element per seat) and `layer`
for values a game puts between its defaults and the caller's config (a mode's delta).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tourney.engine.core.errors import ConfigError
from tourney.engine.core.printable import shown

# How a value is written: `json` is a structured value (a list, a mapping) given as JSON text.
Kind = Literal["int", "float", "bool", "str", "json"]

_PLAIN = (int, float, str, type(None))  # immutable defaults, shared rather than copied (bool is an int)
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
_WHOLE = re.compile(r"[+-]?\d+")

# A check that ties options together: the merged, checked config and the player count asked for
# (None: the game's default). It raises ConfigError, and may put a value it has checked into the
# form the game reads (rank keys given as text become ints).
Validator = Callable[[dict[str, Any], int | None], None]
# The values a game puts over its defaults before the caller's own keys, from the caller's
# (already read and checked) keys and the player count: Tiny Ninjas' mode delta, for one.
Layer = Callable[[Mapping[str, Any], int | None], Mapping[str, Any]]


def _shown(value: Any) -> str:
    """`value`'s repr as an error repeats it (a config's value may be as long as its message)."""
    return shown(repr(value))


@dataclass(frozen=True)
class Option:
    """One option: its key, kind, default, a one-line help, and the limits a value must keep.

    per_seat: the value may also be one item per seat (a list) or a {seat: value} mapping.
    nullable: None is allowed (it means "choose for me": drawn, or derived from other options).
    choices: when given, a value must be one of them (after any game-specific spelling fixes).
    """

    key: str
    kind: Kind
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()
    per_seat: bool = False
    nullable: bool = False

    def check(self, value: Any, label: str | None = None) -> Any:
        """`value` if it fits this option; otherwise ConfigError, one sentence naming the fix.

        `label` names the value in the message (e.g. "remove_cards.Alien"); the key by default.
        """
        name = label or self.key
        if value is None and self.nullable:
            return value
        if self.choices:
            # Same type as well as equal: True is not the choice 1, nor 1.0 the seat 1.
            if not any(type(value) is type(c) and value == c for c in self.choices):
                choices = ", ".join(map(str, self.choices))
                raise ConfigError(f"config '{name}' is {_shown(value)}: use one of {choices}.")
            return value
        if self.kind == "bool" and not isinstance(value, bool):
            raise ConfigError(f"config '{name}' is {_shown(value)}: give true or false.")
        if self.kind in ("int", "float"):
            numeric = (int,) if self.kind == "int" else (int, float)
            if isinstance(value, bool) or not isinstance(value, numeric) or not self._in_range(value):
                either = " or null" if self.nullable else ""  # null: the game chooses (see the help)
                raise ConfigError(f"config '{name}' is {_shown(value)}: give {self._range_words()}{either}.")
        if self.kind == "str" and not isinstance(value, str):
            raise ConfigError(f"config '{name}' is {_shown(value)}: give text.")
        return value

    def _in_range(self, value: float) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def _range_words(self) -> str:
        what = "a whole number" if self.kind == "int" else "a number"
        if self.low is not None and self.high is not None:
            return f"{what} from {self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"{what} of at least {self.low:g}"
        if self.high is not None:
            return f"{what} of at most {self.high:g}"
        return what

    def from_text(self, raw: str) -> Any:
        """The value `--set KEY=raw` means: text stays text for a text option; other kinds read
        JSON (numbers, true, lists, mappings) and fall back to the text, which the check then
        refuses in its own words."""
        if self.kind == "str" and not self.nullable and not self.per_seat:
            return raw
        text = raw.strip().lower()
        if self.kind == "bool":
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
        try:
            if self.kind == "int" and _WHOLE.fullmatch(text):
                return int(text)  # JSON would refuse "03" and "+3"
            return json.loads(raw)
        # Not JSON, or past what Python parses (an int of over 4,300 digits, nesting past the recursion limit).
        except (ValueError, RecursionError):
            return raw

    def read(self, value: Any) -> Any:
        """`value` with text read as this option's kind ("40" -> 40, "off" -> False), and text
        naming a choice in any case ("BLITZ" -> "blitz", "1" -> the seat 1); anything else as
        it is, for `check` to judge."""
        if not isinstance(value, str):
            return value
        if self.choices:
            text = value.strip().lower()
            return next((c for c in self.choices if str(c).lower() == text), value)
        return self.from_text(value)

    def checked(self, value: Any, label: str | None = None) -> Any:
        """`read` then `check`: the value a config may hold, or ConfigError."""
        return self.check(self.read(value), label)

    def type_name(self) -> str:
        """The type as a reader sees it: "int", "bool or per-seat", "str or null", ..."""
        name: str = self.kind
        if self.per_seat:
            name += " or per-seat"
        if self.nullable:
            name += " or null"
        return name

    def describe(self) -> dict[str, Any]:
        """A JSON-ready description, for `tourney games --json`."""
        doc: dict[str, Any] = {"key": self.key, "type": self.type_name(), "default": self.default,
                               "help": self.help}
        if self.choices:
            doc["choices"] = list(self.choices)
        if self.low is not None:
            doc["min"] = self.low
        if self.high is not None:
            doc["max"] = self.high
        return doc


SHARED_CONFIGS = 256  # resolved configurations `Options.resolve_shared` keeps (then it starts again)
_SHARED: dict[tuple[str, str, int | None], tuple[Options, dict[str, Any]]] = {}


@dataclass(frozen=True)
class Options:
    """Every option of one game, in a fixed order (the order `tourney games` shows them), and
    the game's own `validators` and `layer` (see the module docstring), which `resolve` runs."""

    game: str
    items: tuple[Option, ...] = ()
    validators: tuple[Validator, ...] = ()
    layer: Layer | None = None

    def __iter__(self) -> Iterator[Option]:
        return iter(self.items)

    def __getitem__(self, key: str) -> Option:
        for option in self.items:
            if option.key == key:
                return option
        raise KeyError(key)

    def valid_keys(self) -> tuple[str, ...]:
        """The valid keys, in declaration order."""
        return tuple(o.key for o in self.items)

    def defaults(self) -> dict[str, Any]:
        """A fresh default config (lists and mappings copied, so a caller may change them)."""
        return {o.key: _fresh(o.default) for o in self.items}

    def resolve(self, config: Mapping[str, Any] | None = None, players: int | None = None) -> dict[str, Any]:
        """The full, checked config for `config`: the defaults, then the game's `layer`, then the
        caller's keys, every given value read as its option's kind and checked, then the game's
        `validators`. ConfigError (one sentence) for an unknown key or a bad value.

        A per-seat option takes a list (one item per seat), one value for every seat, or a
        {seat: value} mapping that changes only the seats it names.
        """
        given = self._read(config)
        layers = [self._read(self.layer(given, players)), given] if self.layer else [given]
        cfg = self.defaults()
        for layer in layers:
            for key, value in layer.items():
                if isinstance(value, dict) and self[key].per_seat:
                    for seat, item in value.items():  # only the seats it names
                        cfg[key][seat] = item
                else:
                    cfg[key] = value
        for validate in self.validators:
            validate(cfg, players)
        return cfg

    def resolve_shared(self, config: Mapping[str, Any] | None = None, players: int | None = None) -> dict[str, Any]:
        """`resolve(config, players)`, checked once per distinct (config, players) and then shared by
        every caller that asks again: the caller must not mutate it. A state only reads its
        configuration, and random playouts build thousands of states from the same few."""
        key = (self.game, repr(config) if config else "", players)
        hit = _SHARED.get(key)
        if hit is not None and hit[0] is self:
            return hit[1]
        cfg = self.resolve(config, players)
        if len(_SHARED) >= SHARED_CONFIGS:
            _SHARED.clear()
        _SHARED[key] = (self, cfg)
        return cfg


    def _read(self, config: Mapping[str, Any] | None) -> dict[str, Any]:
        """Each value of `config` read and checked; a per-seat one as a full list or {seat: item}."""
        self.refuse_unknown(config)
        out: dict[str, Any] = {}
        for key, value in (config or {}).items():
            option = self[key]
            out[key] = _per_seat(option, value) if option.per_seat else option.checked(value)
        return out

    def refuse_unknown(self, config: Mapping[str, Any] | None) -> None:
        """ConfigError naming the first unknown key and every valid one."""
        valid = self.valid_keys()
        for key in config or {}:
            if key not in valid and not valid:
                raise ConfigError(f"{key!r:.60} is not an option: {self.game} has no options, so leave it out.")
            if key not in valid:
                raise ConfigError(f"unknown {self.game} option {key!r:.60}: use one of {', '.join(valid)}.")

    def option(self, key: str) -> Option:
        """The option `key`; ConfigError listing the valid keys if there is none."""
        self.refuse_unknown({key: None})
        return self[key]

    def describe(self) -> list[dict[str, Any]]:
        """Every option as JSON-ready rows."""
        return [o.describe() for o in self.items]


@dataclass(frozen=True)
class CliFlag:
    """An option the command line offers as a flag of its own: `--genin-pack` for genin_pack=true.

    A game lists its flags in `Game.cli_flags`; the CLI adds every game's to `tourney match` and
    `tourney run` and puts a given one in the match config under `key` (a switch as True, any other
    as its text, which the option then reads and checks like `--set`).
    """

    key: str  # the option it sets, one of the game's `options`
    help: str
    switch: bool = False  # a flag without a value

    @property
    def flag(self) -> str:
        """The flag as typed: the key with dashes, `--genin-pack`."""
        return "--" + self.key.replace("_", "-")


def _fresh(value: Any) -> Any:
    """A copy of a default that shares nothing a caller could change (plain values are shared)."""
    # Built for every new state: lists and mappings of plain values are copied without deepcopy.
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, list) and all(isinstance(v, _PLAIN) for v in value):
        return list(value)
    if isinstance(value, dict) and all(isinstance(v, _PLAIN) for v in value.values()):
        return dict(value)
    return copy.deepcopy(value)


def _per_seat(option: Option, value: Any) -> list[Any] | dict[int, Any]:
    """A per-seat value checked item by item: a list of one item per seat, one value for every
    seat (as that list), or a {seat: item} mapping (seat keys given as text become ints)."""
    seats = len(option.default)
    which = " or ".join(map(str, range(seats))) if seats <= 2 else f"0 to {seats - 1}"
    if isinstance(value, Mapping):
        out: dict[int, Any] = {}
        for seat, item in value.items():
            try:
                s = int(seat)
            except (TypeError, ValueError):
                raise ConfigError(f"config '{option.key}' has seat key {seat!r}: use {which}.") from None
            if not 0 <= s < seats:
                raise ConfigError(f"config '{option.key}' names seat {s}: use {which}.")
            out[s] = option.checked(item)
        return out
    if isinstance(value, list | tuple):
        if len(value) != seats:
            raise ConfigError(
                f"config '{option.key}' is {_shown(list(value))}: give one value per seat ({seats}), or one for every "
                "seat."
            )
        return [option.checked(item) for item in value]
    return [option.checked(value)] * seats
