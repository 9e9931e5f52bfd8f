"""The trained policy as a bot program: `cmd:python3 examples/policy/bot.py`.

It connects like any bot (TOURNEY_ARENA etc., set by whoever starts it), encodes the JSON view it
is sent with the game's own tensor, turns each legal action back into the engine's action to
find its fixed index, and plays the policy's most likely legal action.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
SDK = HERE.parent.parent / "clients" / "python"  # the SDK, inside the repository (a hosted bot has it already)
if SDK.is_dir():
    sys.path.insert(0, str(SDK))

from policy import Policy  # noqa: E402
from tourney_bot import Bot, run_bot  # noqa: E402

from tourney.engine.games.tiny_ninjas import actions as A  # noqa: E402
from tourney.engine.games.tiny_ninjas.tensor import ENCODING  # noqa: E402


def engine_action(action: Any) -> Any:
    """The engine's action for a proto legal action (its kind and fields, lists read as tuples)."""
    message = action.tiny_ninjas
    fields = {k: tuple(v) if isinstance(v, list) else v for k, v in json.loads(message.json or "{}").items()}
    return getattr(A, message.kind)(**fields)


class PolicyBot(Bot):
    """Plays the policy's most likely legal action."""

    def __init__(self) -> None:
        self.policy = Policy.load()

    def act(self, observation: dict[str, Any], legal_actions: Any, request: Any) -> int:
        indices = ENCODING.action_indices([engine_action(a) for a in legal_actions])
        tensor = np.asarray(ENCODING.encode(observation), np.float64)
        mask = np.zeros(ENCODING.action_count)
        mask[indices] = 1
        return indices.index(self.policy.best(tensor, mask))


if __name__ == "__main__":
    run_bot(PolicyBot(), games=["tiny-ninjas"])
