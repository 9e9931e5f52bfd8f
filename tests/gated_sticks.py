"""Sticks with a bot that holds its first move until the test says go: a tournament that is still being
played for exactly as long as a test needs, with no sleeps and no timing assumptions.

`gate` waits, at every move, for the file named by $TOURNEY_TEST_GATE to exist (then plays the first legal
action); a test starts a `tourney run --game gated-sticks --bots gate,random` in another process, does what it
must while that run is stuck in its first match, then creates the file. The wait is bounded (GATE_LIMIT_S),
so a test that fails before opening the gate leaves no process behind for ever.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from tests.sticks import Sticks
from tourney.engine.core import DecisionRequest, register

GATE_ENV = "TOURNEY_TEST_GATE"
GATE_LIMIT_S = 300.0
POLL_S = 0.02


class GateBot:
    """Plays the first legal action once the gate file exists."""

    def __init__(self, seed: int = 0) -> None:
        self.gate = Path(os.environ[GATE_ENV])

    def act(self, request: DecisionRequest) -> int:
        """Wait for the gate, then take one stick."""
        limit = time.monotonic() + GATE_LIMIT_S
        while not self.gate.exists() and time.monotonic() < limit:
            time.sleep(POLL_S)
        return 0


class GatedSticks(Sticks):
    id = "gated-sticks"
    name = "Sticks with a gated bot (test game)"

    def bots(self) -> dict[str, Any]:
        return {"gate": GateBot}


GAME = GatedSticks()
register(GAME)
