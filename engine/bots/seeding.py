"""A bot's own random generator, derived from a seed so tournaments replay exactly."""

from __future__ import annotations

import random

from tourney.engine.core.chance import stream_start


def bot_rng(seed: int, name: str) -> random.Random:
    """A generator for bot `name` that depends only on (seed, name)."""
    return random.Random(stream_start(seed, f"bot/{name}"))
