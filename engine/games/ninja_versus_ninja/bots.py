"""Bots for Ninja Versus Ninja only: expectimax over the 2d4 distribution.

A perfect-information dice game is what expectimax is for: the bot's own move is a max
node, then the opponent's roll is a chance node over n = 2..8 with the 2d4 weights, the
opponent's reply a min node (of the bot's evaluation), and so on until `depth` moves have
been made, where `evaluate` scores the position. Only the total n matters to the rules,
so a chance node has 7 children, not 16.
"""

from __future__ import annotations

import random

from engine.core import DecisionRequest
from engine.core.chance import stream_start
from engine.games.ninja_versus_ninja.data import ROLL_OUTCOMES, ROLL_WEIGHTS
from engine.games.ninja_versus_ninja.evaluate import evaluate
from engine.games.ninja_versus_ninja.state import NvnState

_ROLLS = tuple((n, w / ROLL_OUTCOMES) for n, w in ROLL_WEIGHTS.items())


def _dice(n: int) -> tuple[int, int]:
    return (n // 2, n - n // 2)


class ExpectimaxBot:
    """Depth-limited expectimax; depth counts moves (2 = its move and every reply to every roll)."""

    def __init__(self, seed: int = 0, depth: int = 2) -> None:
        if depth < 1:
            raise ValueError("expectimax needs depth >= 1")
        self.rng = random.Random(stream_start(seed, "bot/expectimax"))
        self.depth = depth

    def act(self, request: DecisionRequest) -> int:
        """The index of the move with the best expected value (ties broken at random)."""
        if len(request.legal) == 1:
            return 0
        state = request.determinize(self.rng)
        if not isinstance(state, NvnState):
            raise TypeError("the expectimax bot plays Ninja Versus Ninja only")
        values = self.move_values(state, request.seat)
        best = max(values)
        return self.rng.choice([i for i, v in enumerate(values) if v >= best - 1e-12])

    def move_values(self, state: NvnState, seat: int) -> list[float]:
        """The expectimax value, for `seat`, of each legal move of the seat to move."""
        out = []
        groups, moves = state.legal_groups(), state.legal_moves()
        for group, move in zip(groups, moves, strict=True):
            child = state.clone()
            child.play(group, move)
            out.append(self._chance(child, seat, self.depth - 1))
        return out

    def _chance(self, state: NvnState, root: int, depth: int) -> float:
        """Expected value over the next roll of the seat to move in `state`."""
        if depth <= 0 or state.is_over():
            return evaluate(state, root)
        total = 0.0
        for n, p in _ROLLS:
            node = state.clone()
            node.set_roll(_dice(n))
            moves = node.legal_moves()
            if not moves:
                node.pass_turn()
                total += p * self._chance(node, root, depth - 1)
                continue
            maximize = node.to_move == root
            best = -2.0 if maximize else 2.0
            for group, move in zip(node.legal_groups(), moves, strict=True):
                child = node.clone()
                child.play(group, move)
                v = self._chance(child, root, depth - 1)
                if (v > best) if maximize else (v < best):
                    best = v
            total += p * best
        return total
