"""The uniform random player: the baseline every other bot must beat."""

from __future__ import annotations

from typing import ClassVar

from tourney.engine.bots.seeding import bot_rng
from tourney.engine.core import BotOption, DecisionRequest


class RandomBot:
    """Picks uniformly among the legal actions."""

    DESCRIPTION: ClassVar[str] = "uniform random legal moves: the baseline"
    OPTIONS: ClassVar[tuple[BotOption, ...]] = ()

    def __init__(self, seed: int = 0) -> None:
        self.rng = bot_rng(seed, "random")

    def act(self, request: DecisionRequest) -> int:
        """A uniformly random legal index."""
        return self.rng.randrange(len(request.legal))
