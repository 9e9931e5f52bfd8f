"""The golden matches: every game, mode and option worth telling apart, between built-in bots.

Each case is played through the public Game/State interface only (no referee, no game
internals), so the record pins what a game does, not how it is written: the outcome, every
decision, and a digest of every observation and public view along the way. Observations are
kept apart from the rest because a deliberate hidden-information fix changes only them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest, get_game

GOLDEN_FILE = "golden.json"
SEEDS = (1, 2, 3)
# A runaway match means the game no longer stops by itself; far above any real match length.
MAX_STEPS = 20_000


@dataclass(frozen=True)
class Case:
    """One line of the golden record: a game, its configuration and the bots in each seat."""

    game: str
    label: str
    bots: tuple[str, ...]
    config: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.game}/{self.label}/{'-'.join(self.bots)}"


SMALL_ISMCTS = "ismcts:iterations=12:rollout_depth=4"

CASES: tuple[Case, ...] = (
    # Tiny Ninjas: every mode, Solo at every difficulty, the expansion and the §7.4 handicaps.
    Case("tiny-ninjas", "standard", ("random", "greedy")),
    Case("tiny-ninjas", "standard", ("greedy", SMALL_ISMCTS)),
    Case("tiny-ninjas", "expansion", ("greedy", "random"), {"use_expansion": True}),
    Case("tiny-ninjas", "blitz", ("random", "greedy"), {"mode": "blitz"}),
    Case("tiny-ninjas", "blitz-expansion", ("greedy", "greedy"), {"mode": "blitz", "use_expansion": True}),
    Case("tiny-ninjas", "survivor", ("random", "greedy"), {"mode": "survivor"}),
    Case("tiny-ninjas", "champion", ("greedy", "random"), {"mode": "champion"}),
    Case("tiny-ninjas", "solo-easy", ("greedy", "random"), {"mode": "solo", "difficulty": "easy"}),
    Case("tiny-ninjas", "solo-normal", ("random", "random"), {"mode": "solo", "difficulty": "normal"}),
    Case("tiny-ninjas", "solo-hard", ("greedy", "random"), {"mode": "solo", "difficulty": "hard"}),
    Case("tiny-ninjas", "solo-expansion", (SMALL_ISMCTS, "random"), {"mode": "solo", "use_expansion": True}),
    Case("tiny-ninjas", "handicaps", ("greedy", "random"),
         {"hand_limit": {0: 4}, "start_health": {1: 7}, "reveal_hand": {0: True}, "chooser": 1}),
    Case("tiny-ninjas", "no-power-ups", ("random", "greedy"), {"power_ups": False, "must_attack": True}),
    # Ninja Versus Ninja: both ways of choosing who starts, and its own search bot.
    Case("ninja-versus-ninja", "standard", ("random", "greedy")),
    Case("ninja-versus-ninja", "first-1", ("greedy", "random"), {"first_player": 1, "target_score": 4}),
    Case("ninja-versus-ninja", "standard", ("expectimax:depth=1:beam=2", "greedy")),
    Case("ninja-versus-ninja", "standard", (SMALL_ISMCTS, "random")),
    # Ninja Arena: 2 and 4 players, Duel, the Genin Pack up to 6, fixed characters.
    Case("ninja-arena", "2p", ("random", "greedy")),
    Case("ninja-arena", "2p", ("tactician", "random")),
    Case("ninja-arena", "4p", ("random", "greedy", "tactician", "random")),
    Case("ninja-arena", "duel", ("greedy", "random"), {"mode": "duel"}),
    Case("ninja-arena", "genin-6p", ("random",) * 3 + ("greedy",) * 3, {"genin_pack": True}),
    Case("ninja-arena", "characters", ("greedy", "tactician"), {"characters": "Naruto,Sakura"}),
    Case("ninja-arena", "tick-cap", ("random", "random", "random"), {"tick_cap": 40}),
    # Maître Ninja: 2 to 4 players and its own solver bots.
    Case("maitre-ninja", "2p", ("random", "greedy")),
    Case("maitre-ninja", "2p", ("nash", "best_response")),
    Case("maitre-ninja", "3p", ("random", "greedy", "nash")),
    Case("maitre-ninja", "4p", ("random",) * 4),
)


def _digest(value: Any, into: Any) -> None:
    into.update(json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr).encode())
    into.update(b"\n")


def play(case: Case, seed: int) -> dict[str, Any]:
    """One seeded match of `case`: outcome, decisions (seat, index) per step, view digests."""
    game = get_game(case.game)
    n = len(case.bots)
    state = game.new_state(seed, players=n, config=dict(case.config))
    seats = [make_bot(spec, game, 1000 * seed + i) for i, spec in enumerate(case.bots)]
    observed = hashlib.sha256()
    public = hashlib.sha256()
    steps: list[list[list[int]]] = []
    while not state.is_over():
        if len(steps) >= MAX_STEPS:
            raise AssertionError(f"{case.key} seed {seed} did not end within {MAX_STEPS} steps")
        _digest(state.public_view(), public)
        for s in range(n):
            _digest(state.observe(s), observed)
        joint = {}
        step = []
        for s in state.to_act():
            legal = state.legal_actions(s)
            request = DecisionRequest(game, s, state.observe(s), legal, None, state)
            index = seats[s].act(request)
            joint[s] = legal[index]
            step.append([s, index])
        steps.append(step)
        state.apply(joint)
    _digest(state.public_view(), public)
    for s in range(n):
        _digest(state.observe(s), observed)
    result = state.outcome()
    return {
        "outcome": {
            "ranking": [list(t) for t in result.ranking],
            "scores": list(result.scores),
            "reason": result.reason,
            "details": json.loads(json.dumps(result.details, sort_keys=True, default=repr)),
        },
        "decisions": hashlib.sha256(json.dumps(steps, separators=(",", ":")).encode()).hexdigest(),
        "steps": len(steps),
        "public": public.hexdigest(),
        "observations": observed.hexdigest(),
    }


def record_all() -> dict[str, dict[str, Any]]:
    """Every case at every seed, keyed `case.key` then seed."""
    return {case.key: {str(seed): play(case, seed) for seed in SEEDS} for case in CASES}
