"""`mcts`, Tiny Ninjas' search bot: information-set MCTS with table-driven playouts.

Each iteration draws a world the seat cannot tell apart from the real one (`determinize`:
the opponent's unseen cards and the pile are resampled from the cards the seat has not seen,
cards it saw go back where it saw them), walks one shared tree, plays the rest out with
`playout.playout_action` (no state copies, so hundreds of playouts fit in 50 ms where the
one-ply greedy playout of the generic `ismcts` fits a handful) and backs up `Game.evaluate`.

Sequential decisions choose by UCB, counting how often an action was available so that
moves only some worlds allow are not starved. The Blitz mulligan is simultaneous and hidden:
there each seat keeps its own regrets and plays regret matching with some exploration
(decoupled, so neither seat's choice depends on the other's), and the bot's own answer at a
simultaneous root is drawn from its average strategy rather than the most visited move.

The search is anytime: it stops after exactly `iterations` (then it never reads the clock and a
seed fixes every choice) or when `ms` or the request's deadline is spent.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import ClassVar, Final

from engine.core import Action, BotOption, Budget, Clock, DecisionRequest, State, default_clock
from engine.core.chance import stream_start
from engine.games.tiny_ninjas.playout import playout_action
from engine.games.tiny_ninjas.state import TinyNinjasState

# With no `ms` in the spec a fixed count, so a match stays a pure function of its seed; this
# count costs about 50 ms a decision on a quiet core (bench: `tourney run`, README).
DEFAULT_ITERATIONS: Final = 200
# Share of uniform exploration mixed into regret matching at simultaneous steps.
MIX_EXPLORATION: Final = 0.2

# How a simultaneous move was drawn: (the actions offered, the drawn one's sampling chance, its
# chance under the regret-matched strategy), for the sampled regret update.
_Draw = tuple[tuple[Action, ...], float, float]


class _Node:
    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple[Action, ...], _Node] = {}
        # seat -> action -> [visits, reward sum, times available | cumulative regret, strategy sum]
        self.stats: dict[int, dict[Action, list[float]]] = {}


class TinyNinjasMcts:
    """Searches each decision for `ms` milliseconds (or exactly `iterations`) and plays the best-tried move."""

    DESCRIPTION: ClassVar[str] = ("information-set MCTS with card-table playouts and regret matching at the "
                                  "Blitz mulligan; anytime, stops on `ms` or `iterations`")
    OPTIONS: ClassVar[tuple[BotOption, ...]] = (
        BotOption("ms", float, None, "think this many milliseconds a decision instead of a fixed count (not "
                  "reproducible run to run)", minimum=1, example=50),
        BotOption("iterations", int, DEFAULT_ITERATIONS, "iterations per decision: deterministic for a seed",
                  minimum=1),
        BotOption("playout_depth", int, 12, "moves played out after the tree", minimum=0),
        BotOption("exploration", float, 0.7, "UCB exploration constant", minimum=0),
        BotOption("epsilon", float, 0.1, "share of random moves in playouts", minimum=0),
    )

    def __init__(
        self,
        seed: int = 0,
        ms: float | None = None,
        iterations: int | None = None,
        playout_depth: int = 12,
        exploration: float = 0.7,
        epsilon: float = 0.1,
        clock: Clock = default_clock,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("mcts needs iterations >= 1")
        if ms is not None and ms <= 0:
            raise ValueError("mcts needs ms > 0")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError("mcts epsilon must be between 0 and 1")
        self.rng = random.Random(stream_start(seed, "bot/tiny-ninjas-mcts"))
        self.iterations = DEFAULT_ITERATIONS if iterations is None and ms is None else iterations
        self.ms = ms
        self.clock = clock
        self.playout_depth = playout_depth
        self.c = exploration
        self.epsilon = epsilon
        self.last_iterations = 0

    def act(self, request: DecisionRequest) -> int:
        """Search until the budget (own `ms`, `iterations`, or the request's deadline) runs out."""
        legal = request.legal
        if len(legal) == 1:
            return 0
        budget = Budget(self.clock, self.ms, request.deadline_s)
        root = _Node()
        done = 0
        simultaneous = False
        while done == 0 or ((self.iterations is None or done < self.iterations) and not budget.spent()):
            world = request.determinize(self.rng)
            assert isinstance(world, TinyNinjasState)
            world.log = []  # no rule reads the log back; a search copy need not carry the match's history
            simultaneous = len(world.to_act()) > 1
            self._iterate(request, root, world, budget)
            done += 1
        self.last_iterations = done
        table = root.stats.get(request.seat, {})
        if simultaneous:
            weights = [table[a][4] if a in table else 0.0 for a in legal]
            if sum(weights) > 0:
                return self.rng.choices(range(len(legal)), weights=weights)[0]
        return max(range(len(legal)), key=lambda i: table[legal[i]][0] if legal[i] in table else -1.0)

    def _iterate(self, request: DecisionRequest, root: _Node, state: State, budget: Budget) -> None:
        path: list[tuple[_Node, dict[int, Action], dict[int, _Draw]]] = []
        node = root
        while not state.is_over():
            seats = state.to_act()
            joint: dict[int, Action] = {}
            draws: dict[int, _Draw] = {}
            for s in seats:
                options = request.legal if node is root and s == request.seat else state.legal_actions(s)
                if len(seats) > 1:
                    joint[s], draws[s] = self._matched(node, s, options)
                else:
                    joint[s] = self._ucb(node, s, options)
            path.append((node, joint, draws))
            state.apply(joint)
            key = tuple(joint[s] for s in seats)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                break
            node = child
        assert isinstance(state, TinyNinjasState)
        depth = 0
        while not state.is_over() and depth < self.playout_depth:
            state.apply({s: playout_action(state, s, self.rng, self.epsilon) for s in state.to_act()})
            depth += 1
        game = request.game
        rewards = [game.evaluate(state, s) for s in range(state.num_players)]
        for visited, choices, draws in path:
            for s, a in choices.items():
                table = visited.stats[s]
                if s in draws:
                    _regret_update(table, a, rewards[s], draws[s])
                st = table[a]
                st[0] += 1
                st[1] += rewards[s]

    def _ucb(self, node: _Node, seat: int, legal: Sequence[Action]) -> Action:
        """UCB over the actions legal in this world; untried ones first, at random."""
        table = node.stats.setdefault(seat, {})
        untried = []
        for a in legal:
            st = table.get(a)
            if st is None:
                st = table[a] = [0, 0.0, 0, 0.0, 0.0]
            st[2] += 1
            if st[0] == 0:
                untried.append(a)
        if untried:
            return untried[self.rng.randrange(len(untried))]
        c = self.c
        return max(legal, key=lambda a: _ucb_score(table[a], c))

    def _matched(self, node: _Node, seat: int, legal: Sequence[Action]) -> tuple[Action, _Draw]:
        """Regret matching mixed with uniform exploration: the drawn action and how it was drawn."""
        table = node.stats.setdefault(seat, {})
        for a in legal:
            if a not in table:
                table[a] = [0, 0.0, 0, 0.0, 0.0]
        positive = [max(table[a][3], 0.0) for a in legal]
        total = sum(positive)
        n = len(legal)
        strategy = [(p / total if total > 0 else 1.0 / n) for p in positive]
        for a, p in zip(legal, strategy, strict=True):
            table[a][4] += p  # the average strategy is what the seat finally plays
        mixed = [(1 - MIX_EXPLORATION) * p + MIX_EXPLORATION / n for p in strategy]
        i = self.rng.choices(range(n), weights=mixed)[0]
        return legal[i], (tuple(legal), mixed[i], strategy[i])


def _regret_update(table: dict[Action, list[float]], chosen: Action, reward: float, draw: _Draw) -> None:
    """Outcome-sampling regret matching (Lanctot et al. 2013): the chosen action's reward,
    importance-weighted by its sampling chance, against the strategy's estimated value."""
    offered, sampled, played = draw
    estimate = reward / sampled
    strategy_value = played * estimate
    for a in offered:
        table[a][3] += (estimate if a is chosen else 0.0) - strategy_value


def _ucb_score(st: list[float], c: float) -> float:
    visits, total, avail = st[0], st[1], st[2]
    return total / visits + c * math.sqrt(math.log(max(avail, 1.0)) / visits)
