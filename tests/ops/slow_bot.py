"""`slowpoke`: a random bot that thinks $TOURNEY_SLOWPOKE_S seconds per decision (default 0), so a
test can stop a scheduler while its round is surely still playing. Importing this registers it."""

from __future__ import annotations

import os
import time

from tourney.engine.bots.random_bot import RandomBot
from tourney.engine.bots.registry import GENERIC
from tourney.engine.core import DecisionRequest


class SlowBot(RandomBot):
    def act(self, request: DecisionRequest) -> int:
        time.sleep(float(os.environ.get("TOURNEY_SLOWPOKE_S", "0")))
        return super().act(request)


GENERIC.setdefault("slowpoke", SlowBot)
