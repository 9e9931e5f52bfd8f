"""A match's replay: its inputs and every seat's timed decision, step by step.

The replay is what reproduces a match without its bots; the result (`engine.core.result`) refers to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Decision:
    """One seat's answer at one step: the legal index (-1 when there was no usable answer)."""

    seat: int
    index: int
    ms: float
    fault: str | None = None


@dataclass
class Replay:
    """Everything needed to replay a match: the inputs and every decision, step by step."""

    game_id: str
    players: int
    config: dict[str, Any]
    seed: int
    steps: list[list[Decision]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The replay as a JSON-ready document (decision times rounded to a microsecond)."""
        return {
            "game": self.game_id,
            "players": self.players,
            "config": self.config,
            "seed": self.seed,
            "steps": [[[d.seat, d.index, round(d.ms, 3), d.fault] for d in step] for step in self.steps],
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Replay:
        """The replay of a document written by `to_dict`."""
        steps = [[Decision(int(s), int(i), float(ms), f) for s, i, ms, f in step] for step in data["steps"]]
        return Replay(data["game"], int(data["players"]), dict(data["config"]), int(data["seed"]), steps)
