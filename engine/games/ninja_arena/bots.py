"""Ninja Arena bots (placeholder, filled in below)."""

from __future__ import annotations

from engine.core import DecisionRequest


class GreedyArenaBot:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, request: DecisionRequest) -> int:
        return 0


TacticianBot = GreedyArenaBot
