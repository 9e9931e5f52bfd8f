"""Bots for Ninja Versus Ninja only: expectimax over the 2d4 distribution.

A perfect-information dice game is what expectimax is for: the bot's own move is a max
node, then the opponent's roll is a chance node over n = 2..8 with the 2d4 weights, the
opponent's reply a min node (of the bot's evaluation), and so on until `depth` moves have
been made, where `evaluate` scores the position. Only the total n matters to the rules,
so a chance node has 7 children, not 16.

Beyond depth 2 the tree is too wide to search whole in Python, so it is narrowed: every
root move is first scored at depth 2, the best `beam` of them are searched to `depth`, and
below the root a side considers only its `beam` best moves by the static evaluation.

With `iterations` (a count of rolls expanded at chance nodes, per move) it deepens the same way but
stops after that many, the same on any machine: a time budget's strength, reproducibly.
With `ms` the search deepens until time runs out, and each depth searches the root moves best
first: a depth cut short still counts for the moves it finished (they are compared among
themselves, the best of the previous depth among them), so a busy machine loses part of a
depth, not all of it. The leaves are most of the work, so search copies positions without
their chance streams (`NvnState.lookahead_copy`: it sets the dice itself) and `evaluate` is
written out flat.
"""

from __future__ import annotations

import random
from typing import ClassVar

from tourney.engine.core import BotOption, Budget, Clock, DecisionRequest, OutOfTime, default_clock
from tourney.engine.core.chance import stream_start
from tourney.engine.games.ninja_versus_ninja import leaves, rules
from tourney.engine.games.ninja_versus_ninja.data import ROLL_OUTCOMES, ROLL_WEIGHTS
from tourney.engine.games.ninja_versus_ninja.evaluate import evaluate
from tourney.engine.games.ninja_versus_ninja.state import NvnState

DEFAULT_DEPTH = 3  # with no budget in the spec: fixed, so a match stays a pure function of its seed
MAX_DEPTH = 6  # the deepest a timed search goes; the beam keeps each level finite
_ROLLS = tuple((n, w / ROLL_OUTCOMES) for n, w in ROLL_WEIGHTS.items())


def _dice(n: int) -> tuple[int, int]:
    return (n // 2, n - n // 2)


class ExpectimaxBot:
    """Expectimax deepened one move at a time until `ms` is spent, or to a fixed `depth`.

    Depth counts moves (2 = its move and every reply to every roll). Without a budget it searches
    exactly `depth` deep (default 3; reproducible, bounded only by the request's deadline);
    with `ms` or `iterations` it deepens up to `depth` (default MAX_DEPTH) and plays from the deepest search,
    counting the moves a depth cut short had finished. `expectimax:depth=2` searches the full two-move tree in a
    few milliseconds; depth 3 with a beam of 4 takes a tenth to a quarter of a second.
    """

    DESCRIPTION: ClassVar[str] = "expectimax over the 2d4 rolls, deepened until `ms` is spent or to a fixed `depth`"
    OPTIONS: ClassVar[tuple[BotOption, ...]] = (
        BotOption("ms", float, None, "deepen for this many milliseconds a move instead of a fixed depth (not "
                  "reproducible run to run)", minimum=1, example=50),
        BotOption("depth", int, DEFAULT_DEPTH, "search depth in moves: deterministic for a seed", minimum=1),
        BotOption("beam", int, 4, "moves kept per side below depth 2", minimum=1),
        BotOption("iterations", int, None, "rolls expanded per move, deepening up to `depth` (default "
                  f"{MAX_DEPTH}): a time budget's strength, deterministic for a seed", minimum=1, example=3000),
    )

    def __init__(self, seed: int = 0, depth: int | None = None, beam: int = 4, ms: float | None = None,
                 iterations: int | None = None, clock: Clock = default_clock) -> None:
        if depth is not None and depth < 1:
            raise ValueError("expectimax needs depth >= 1")
        if iterations is not None and iterations < 1:
            raise ValueError("expectimax needs iterations >= 1")
        if beam < 1:
            raise ValueError("expectimax needs beam >= 1")
        if ms is not None and ms <= 0:
            raise ValueError("expectimax needs ms > 0")
        self.rng = random.Random(stream_start(seed, "bot/expectimax"))
        # A depth is a fixed, reproducible budget; `ms` or `iterations` alone let the budget decide how deep.
        self.depth = depth if depth is not None else DEFAULT_DEPTH if ms is None and iterations is None else MAX_DEPTH
        self.ms = ms
        self.iterations = iterations
        self.beam = beam
        self.clock = clock
        self._budget = Budget(clock, None, None)
        self.last_iterations = 0

    def act(self, request: DecisionRequest) -> int:
        """The index of the move with the best expected value (ties broken at random)."""
        if len(request.legal) == 1:
            return 0
        state = request.determinize(self.rng)
        if not isinstance(state, NvnState):
            raise TypeError("the expectimax bot plays Ninja Versus Ninja only")
        self._budget = Budget(self.clock, self.ms, request.deadline_s, checks=self.iterations)
        values = self._search(self._children(state), request.seat, self.depth)
        self.last_iterations = self._budget.passed
        best = max(values)
        return self.rng.choice([i for i, v in enumerate(values) if v >= best - 1e-12])

    def move_values(self, state: NvnState, seat: int, depth: int) -> list[float]:
        """The value, for `seat`, of each legal move searched `depth` moves deep (no time limit);
        moves outside the deep beam score below the rest."""
        self._budget = Budget(self.clock, None, None)
        return self._search(self._children(state), seat, depth)

    def _search(self, children: list[NvnState], seat: int, depth: int) -> list[float]:
        """Iterative deepening from depth 1 (one static evaluation per move, always finished, so
        there is an answer) until `depth` or until the budget stops a search part-way."""
        values = [evaluate(c, seat) for c in children]
        shallow: list[float] = []
        for d in range(2, depth + 1):
            values, finished = self._deepen(children, seat, d, shallow, values)
            if not finished:
                break
            if d == 2:
                shallow = values
        return values

    def _children(self, state: NvnState) -> list[NvnState]:
        """The position after each legal move, in legal order."""
        children = []
        for group, move in zip(state.legal_groups(), state.legal_moves(), strict=True):
            child = state.lookahead_copy()
            rules.play(child, group, move)
            children.append(child)
        return children

    def _deepen(self, children: list[NvnState], seat: int, depth: int, shallow: list[float],
                previous: list[float]) -> tuple[list[float], bool]:
        """Values at `depth` (>= 2) and whether every searched move finished. Depth 2 searches every
        move; deeper, only the `beam` moves best at depth 2 (`shallow`), the rest pushed below them.
        Moves are searched best first (by `previous`), so when time runs out the moves already
        searched at `depth` are compared among themselves; with none finished, `previous` stands."""
        ranked = sorted(range(len(children)), key=lambda i: previous[i], reverse=True)
        if depth > 2:
            kept = set(sorted(range(len(children)), key=lambda i: shallow[i], reverse=True)[: self.beam])
            ranked = [i for i in ranked if i in kept]
        out = [v - 4.0 for v in (shallow if depth > 2 else previous)]  # below every searched value (all in [-1, 1])
        for done, i in enumerate(ranked):
            try:
                out[i] = self._chance(children[i], seat, depth - 1)
            except OutOfTime:
                return (out if done else previous), False
        return out, True

    def _chance(self, state: NvnState, root: int, depth: int) -> float:
        """Expected value over the next roll of the seat to move in `state`."""
        if depth <= 0 or state.is_over():
            return evaluate(state, root)
        total = 0.0
        for n, p in _ROLLS:
            # Checked per roll: the most a spent budget can still run is one move list's evaluations.
            self._budget.check()
            node = state.lookahead_copy()
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
        # Every move's result scored without playing it (leaves.py): the last level is most of the work.
        static = leaves.move_values(node, root)
        if depth == 1:
            return max(static) if maximize else min(static)
        order = sorted(range(len(static)), key=lambda i: static[i], reverse=maximize)[: self.beam]
        groups, moves = node.legal_groups(), node.legal_moves()
        values = []
        for i in order:
            child = node.lookahead_copy()
            rules.play(child, groups[i], moves[i])
            values.append(self._chance(child, root, depth - 1))
        return max(values) if maximize else min(values)
