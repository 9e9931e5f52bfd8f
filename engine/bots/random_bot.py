"""The uniform random player: the baseline every other bot must beat."""

from __future__ import annotations

from engine.bots.seeding import bot_rng
from engine.core import DecisionRequest


class RandomBot:
    """Picks uniformly among the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = bot_rng(seed, "random")

    def act(self, request: DecisionRequest) -> int:
        return self.rng.randrange(len(request.legal))
