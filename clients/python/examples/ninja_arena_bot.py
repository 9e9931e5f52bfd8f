"""Ninja Arena: prefers any action other than waiting (the full table is in `observation`)."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tourney_bot import Bot, run_bot  # noqa: E402


class BusyBot(Bot):
    def __init__(self) -> None:
        self.rng = random.Random()

    def act(self, observation, legal_actions, request):
        busy = [i for i, a in enumerate(legal_actions) if a.label != "wait"]
        return self.rng.choice(busy or list(range(len(legal_actions))))


if __name__ == "__main__":
    run_bot(BusyBot(), games=["ninja-arena"])
