"""Tiny Ninjas: never ends a round early when a card can be played, else random."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tourney_bot import Bot, run_bot  # noqa: E402


class EagerBot(Bot):
    def __init__(self) -> None:
        self.rng = random.Random()

    def act(self, observation, legal_actions, request):
        plays = [i for i, a in enumerate(legal_actions) if a.tiny_ninjas.kind in ("Play", "Defend")]
        return self.rng.choice(plays or list(range(len(legal_actions))))


if __name__ == "__main__":
    run_bot(EagerBot(), games=["tiny-ninjas"])
