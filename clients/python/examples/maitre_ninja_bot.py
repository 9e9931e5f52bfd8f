"""Maître Ninja: as attacker, prefer the longest line; as defender, lay a varied row.

The defender lays its row one parry at a time (each action is kind "Parry", its card in
`row`); the cards laid so far in this fight are in the observation's `row_so_far`. This bot
lays the type it has laid least so far. Shows the typed fields:
request.observation.maitre_ninja.role and each action's maitre_ninja.
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tourney_bot import Bot, run_bot  # noqa: E402


class LongestBot(Bot):
    def __init__(self) -> None:
        self.rng = random.Random()

    def act(self, observation, legal_actions, request):
        typed = request.observation.maitre_ninja
        if typed.role == "attacker":
            sizes = [len(a.maitre_ninja.line) for a in legal_actions]
            best = max(sizes)
            return self.rng.choice([i for i, s in enumerate(sizes) if s == best])
        laid = observation.get("row_so_far", [])
        uses = [laid.count(a.maitre_ninja.row[0]) for a in legal_actions]
        fewest = min(uses)
        return self.rng.choice([i for i, u in enumerate(uses) if u == fewest])


if __name__ == "__main__":
    run_bot(LongestBot(), games=["maitre-ninja"])
