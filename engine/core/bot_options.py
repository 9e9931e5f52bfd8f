"""What a bot declares about itself: its options, so specs are checked and listed in one place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BotOption:
    """One `key=value` a bot spec may carry: its type, default, lower bound and meaning."""

    name: str
    kind: type
    default: Any
    help: str
    minimum: float | None = None
    choices: tuple[str, ...] = ()
    example: Any = None  # a good value to suggest when the option has no default
