"""One-ply lookahead over the game's own evaluation function.

For each legal action the bot samples a few full states consistent with what it sees
(so it never peeks at hidden cards), applies the action, lets other seats in a
simultaneous decision act at random, and averages `Game.evaluate` over the samples.
"""

from __future__ import annotations

from typing import ClassVar

from tourney.engine.bots.seeding import bot_rng
from tourney.engine.core import Action, BotOption, DecisionRequest


class GreedyBot:
    """Chooses the action whose immediate result evaluates best for its seat."""

    DESCRIPTION: ClassVar[str] = "one-ply look-ahead over the game's evaluation, averaged over sampled hidden states"
    OPTIONS: ClassVar[tuple[BotOption, ...]] = (
        BotOption("samples", int, 3, "hidden-state samples per action", minimum=1),
    )

    def __init__(self, seed: int = 0, samples: int = 3) -> None:
        if samples < 1:
            raise ValueError("greedy needs samples >= 1")
        self.rng = bot_rng(seed, "greedy")
        self.samples = samples

    def act(self, request: DecisionRequest) -> int:
        legal = request.legal
        if len(legal) == 1:
            return 0
        game, seat = request.game, request.seat
        totals = [0.0] * len(legal)
        for _ in range(self.samples):
            world = request.determinize(self.rng)
            for i, action in enumerate(legal):
                after = world.clone()
                joint: dict[int, Action] = {seat: action}
                for other in after.to_act():
                    if other != seat:
                        options = after.legal_actions(other)
                        joint[other] = options[self.rng.randrange(len(options))]
                after.apply(joint)
                totals[i] += game.evaluate(after, seat)
        best = max(totals)
        # Ties are broken at random so the bot is not predictable by list order.
        return self.rng.choice([i for i, t in enumerate(totals) if t == best])
