"""A game's options, declared once: the keys, their types, defaults and simple checks.

Each game lists its options as `Option`s in one `Options`. From that one declaration come the
default config, the refusal of unknown keys (naming the valid ones), the check of each plain
value, how the command line turns `--set KEY=TEXT` into a value, and what `tourney games`
shows. Checks that tie several options together (start health under max health, characters
per player) stay in the game, next to the rule they protect.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engine.core.errors import ConfigError

# How a value is written: `json` is a structured value (a list, a mapping) given as JSON text.
Kind = Literal["int", "float", "bool", "str", "json"]

_PLAIN = (int, float, str, type(None))  # immutable defaults, shared rather than copied (bool is an int)
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


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
            if value not in self.choices:
                raise ConfigError(f"config '{name}' is {value!r}: use one of {', '.join(map(str, self.choices))}.")
            return value
        if self.kind == "bool" and not isinstance(value, bool):
            raise ConfigError(f"config '{name}' is {value!r}: give true or false.")
        if self.kind in ("int", "float"):
            numeric = (int,) if self.kind == "int" else (int, float)
            if isinstance(value, bool) or not isinstance(value, numeric) or not self._in_range(value):
                raise ConfigError(f"config '{name}' is {value!r}: give {self._range_words()}.")
        if self.kind == "str" and not isinstance(value, str):
            raise ConfigError(f"config '{name}' is {value!r}: give text.")
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
        JSON (numbers, true, lists, mappings) and fall back to the text, which the game's check
        then refuses in its own words."""
        if self.kind == "str" and not self.nullable and not self.per_seat:
            return raw
        if self.kind == "bool":
            text = raw.strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw

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


@dataclass(frozen=True)
class Options:
    """Every option of one game, in a fixed order (the order `tourney games` shows them)."""

    game: str
    items: tuple[Option, ...] = ()

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
        # Built for every new state: only containers need the (slow) deep copy.
        return {o.key: o.default if isinstance(o.default, _PLAIN) else copy.deepcopy(o.default) for o in self.items}

    def refuse_unknown(self, config: Mapping[str, Any] | None) -> None:
        """ConfigError naming the first unknown key and every valid one."""
        valid = self.valid_keys()
        for key in config or {}:
            if key not in valid and not valid:
                raise ConfigError(f"{key!r} is not an option: {self.game} has no options, so leave it out.")
            if key not in valid:
                raise ConfigError(f"unknown {self.game} option {key!r}: use one of {', '.join(valid)}.")

    def option(self, key: str) -> Option:
        """The option `key`; ConfigError listing the valid keys if there is none."""
        self.refuse_unknown({key: None})
        return self[key]

    def describe(self) -> list[dict[str, Any]]:
        """Every option as JSON-ready rows."""
        return [o.describe() for o in self.items]
