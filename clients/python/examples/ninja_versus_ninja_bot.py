"""Ninja Versus Ninja: the move that goes deepest into the opponent's dojo, ties at random."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tourney_bot import Bot, run_bot  # noqa: E402


class DeepBot(Bot):
    def __init__(self) -> None:
        self.rng = random.Random()

    def act(self, observation, legal_actions, request):
        depths = [a.ninja_versus_ninja.depth for a in legal_actions]
        best = max(depths)
        return self.rng.choice([i for i, d in enumerate(depths) if d == best])


if __name__ == "__main__":
    run_bot(DeepBot(), games=["ninja-versus-ninja"])
