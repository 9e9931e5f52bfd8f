"""Bots for Ninja Versus Ninja only: expectimax over the 2d4 distribution.

A perfect-information dice game is what expectimax is for: the bot's own move is a max
node, then the opponent's roll is a chance node over n = 2..8 with the 2d4 weights, the
opponent's reply a min node (of the bot's evaluation), and so on until `depth` moves have
been made, where `evaluate` scores the position. Only the total n matters to the rules,
so a chance node has 7 children, not 16.

Beyond depth 2 the tree is too wide to search whole in Python, so it is narrowed: every
root move is first scored at depth 2, the best `beam` of them are searched to `depth`, and
below the root a side considers only its `beam` best moves by the static evaluation.
"""

from __future__ import annotations

import random

from engine.core import DecisionRequest
from engine.core.chance import stream_start
from engine.games.ninja_versus_ninja import rules
from engine.games.ninja_versus_ninja.data import ROLL_OUTCOMES, ROLL_WEIGHTS
from engine.games.ninja_versus_ninja.evaluate import evaluate
from engine.games.ninja_versus_ninja.state import NvnState

_ROLLS = tuple((n, w / ROLL_OUTCOMES) for n, w in ROLL_WEIGHTS.items())


def _dice(n: int) -> tuple[int, int]:
    return (n // 2, n - n // 2)


class ExpectimaxBot:
    """Depth-limited expectimax; depth counts moves (2 = its move and every reply to every roll).

    The default, depth 3 with a beam of 4, takes a tenth to a quarter of a second a move on
    one core; `expectimax:depth=2` searches the full two-move tree in a few milliseconds.
    """

    def __init__(self, seed: int = 0, depth: int = 3, beam: int = 4) -> None:
        if depth < 1:
            raise ValueError("expectimax needs depth >= 1")
        if beam < 1:
            raise ValueError("expectimax needs beam >= 1")
        self.rng = random.Random(stream_start(seed, "bot/expectimax"))
        self.depth = depth
        self.beam = beam

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
        """The value, for `seat`, of each legal move; moves outside the deep beam score below the rest."""
        children = []
        for group, move in zip(state.legal_groups(), state.legal_moves(), strict=True):
            child = state.clone()
            rules.play(child, group, move)
            children.append(child)
        shallow = [self._chance(c, seat, min(self.depth, 2) - 1) for c in children]
        if self.depth <= 2:
            return shallow
        order = sorted(range(len(children)), key=lambda i: shallow[i], reverse=True)[: self.beam]
        out = [v - 4.0 for v in shallow]  # below every deep value (all in [-1, 1])
        for i in order:
            out[i] = self._chance(children[i], seat, self.depth - 1)
        return out

    def _chance(self, state: NvnState, root: int, depth: int) -> float:
        """Expected value over the next roll of the seat to move in `state`."""
        if depth <= 0 or state.is_over():
            return evaluate(state, root)
        total = 0.0
        for n, p in _ROLLS:
            node = state.clone()
            rules.set_roll(node, _dice(n))
            if not node.legal_moves():
                rules.pass_turn(node)
                total += p * self._chance(node, root, depth - 1)
            else:
                total += p * self._choose(node, root, depth)
        return total

    def _choose(self, node: NvnState, root: int, depth: int) -> float:
        """The mover's best value (max for the root, min for its opponent) with `depth` moves to go."""
        maximize = node.to_move == root
        children = []
        for group, move in zip(node.legal_groups(), node.legal_moves(), strict=True):
            child = node.clone()
            rules.play(child, group, move)
            children.append(child)
        if depth == 1:
            values = [evaluate(c, root) for c in children]
        else:
            if len(children) > self.beam:
                static = [evaluate(c, root) for c in children]
                order = sorted(range(len(children)), key=lambda i: static[i], reverse=maximize)
                children = [children[i] for i in order[: self.beam]]
            values = [self._chance(c, root, depth - 1) for c in children]
        return max(values) if maximize else min(values)
