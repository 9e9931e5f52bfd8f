"""In-process seats answering odd objects: the compiled and the pure referee must record the same match.

An answer is legal when it is an int in range. A bool is an int to Python, so True played the second
action on both builds, but the pure referee kept the bool in the replay (`true` in its JSON) where the
compiled one, whose Decision holds a machine-checked int, kept 1: the same match had two replays.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

ANSWERS = "[True, False, 2**100, -1, 1.0, '0', None]"
PLAY = f"""
import json
from tourney.engine.referee import play_match

class Odd:
    def __init__(self, answer):
        self.answer = answer
    def act(self, request):
        return self.answer

class First:
    def act(self, request):
        return 0

out = []
for answer in {ANSWERS}:
    for game in ("tiny-ninjas", "ninja-arena"):  # a forfeit for an illegal answer, and a game's own penalty
        result = play_match(game, [Odd(answer), First()], seed=3)
        steps = [[[d.seat, d.index, type(d.index).__name__, d.fault] for d in step] for step in result.replay.steps]
        out.append([game, repr(answer), result.termination.value, result.reason, steps])
print(json.dumps(out))
"""


def _play(pure: bool) -> list[object]:
    env = {k: v for k, v in os.environ.items() if k != "TOURNEY_PURE"}
    if pure:
        env["TOURNEY_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", PLAY], capture_output=True, text=True, env=env, timeout=240,
                          check=True)
    answer: list[object] = json.loads(done.stdout)
    return answer


@pytest.mark.timeout(600)
def test_odd_answers_make_the_same_replay_on_both_builds() -> None:
    compiled, pure = _play(False), _play(True)
    assert compiled == pure
    kinds = {kind for match in pure for step in match[4] for _, _, kind, _ in step}  # type: ignore[index, union-attr]
    assert kinds == {"int"}  # a replay holds plain ints: True was played, and recorded, as 1
