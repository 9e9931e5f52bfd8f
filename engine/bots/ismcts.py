"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration samples a full state consistent with the bot's observation (`determinize`),
walks the shared tree choosing actions by UCB among those legal in that sample (counting
availability, so rarely-legal actions are not starved), expands one node, plays a short
random rollout, scores it with `Game.evaluate` for every seat, and backs the scores up.

Simultaneous decisions are handled the decoupled way (DUCT): every acting seat keeps its
own statistics at the node and chooses by its own UCB, so no seat sees another's choice.
Seats with very wide action lists (Maître Ninja's parry rows) are sampled uniformly below
the root instead of being searched: UCB over tens of thousands of arms cannot converge.

The search is anytime: it stops after exactly `iterations` (default 150; then it never reads
the clock, so a seed fixes every choice), or when its `ms` budget is spent; the request's
deadline always stops it, checked between iterations and between rollout steps.

Rollouts are epsilon-greedy over `Game.evaluate` by default: purely random rollouts make
every seat play like the random bot, which misjudges positions badly enough that the
search lost to plain one-ply greedy (measured on Tiny Ninjas: about 45-57% against greedy
with random rollouts).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from tourney.engine.bots.seeding import bot_rng
from tourney.engine.core import (
    Action,
    BotOption,
    Budget,
    Clock,
    DecisionRequest,
    Game,
    State,
    anytime_options,
    default_clock,
    fixed_iterations,
)

WIDE = 64  # an action list longer than this is sampled, not searched
ROLLOUT_CANDIDATES = 12  # a greedy rollout step looks at most at this many actions
# With no budget in the spec a fixed count: a match stays a pure function of its seed (a Ray retry,
# a resume or a rerun with the same seed key gives the same result); `ms=` trades that for time.
DEFAULT_ITERATIONS = 150


class _Node:
    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple[Action, ...], _Node] = {}
        # seat -> action -> [visits, total reward for that seat, times available]
        self.stats: dict[int, dict[Action, list[float]]] = {}


class IsmctsBot:
    """Searches each decision for `ms` milliseconds (or exactly `iterations`) and plays the most-visited action."""

    DESCRIPTION: ClassVar[str] = "information-set MCTS with greedy rollouts; anytime, stops on `ms` or `iterations`"
    OPTIONS: ClassVar[tuple[BotOption, ...]] = (
        *anytime_options(DEFAULT_ITERATIONS, "iterations per decision: deterministic for a seed"),
        BotOption("rollout_depth", int, 10, "moves played out after the tree", minimum=0),
        BotOption("exploration", float, 0.7, "UCB exploration constant", minimum=0),
        BotOption("rollout", str, "greedy", "rollout policy", choices=("greedy", "random")),
        BotOption("epsilon", float, 0.2, "share of random moves in greedy rollouts", minimum=0),
    )

    def __init__(
        self,
        seed: int = 0,
        ms: float | None = None,
        iterations: int | None = None,
        rollout_depth: int = 10,
        exploration: float = 0.7,
        rollout: str = "greedy",
        epsilon: float = 0.2,
        clock: Clock = default_clock,
    ) -> None:
        if rollout not in ("greedy", "random"):
            raise ValueError("ismcts rollout must be greedy or random")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError("ismcts epsilon must be between 0 and 1")
        self.rng = bot_rng(seed, "ismcts")
        # A count is a fixed, reproducible budget; `ms` alone means time decides.
        self.iterations = fixed_iterations("ismcts", ms, iterations, DEFAULT_ITERATIONS)
        self.ms = ms
        self.clock = clock
        self.rollout_depth = rollout_depth
        self.c = exploration
        self.greedy_rollouts = rollout == "greedy"
        self.epsilon = epsilon

    def act(self, request: DecisionRequest) -> int:
        """Search until the budget (own `ms`, `iterations`, or the request's deadline) runs out."""
        legal = request.legal
        if len(legal) == 1:
            return 0
        budget = Budget(self.clock, self.ms, request.deadline_s)
        candidates = list(range(len(legal)))
        if len(legal) > WIDE:
            candidates = self.rng.sample(candidates, WIDE)
        root_choices = [legal[i] for i in candidates]
        root = _Node()
        done = 0
        while (self.iterations is None or done < self.iterations) and not budget.spent():
            self._iterate(request.game, root, request.determinize(self.rng), request.seat, root_choices, budget)
            done += 1
        table = root.stats.get(request.seat, {})
        best = max(range(len(root_choices)), key=lambda k: table.get(root_choices[k], (0.0,))[0])
        return candidates[best]

    def _choose(self, node: _Node, seat: int, legal: Sequence[Action]) -> Action:
        table = node.stats.setdefault(seat, {})
        untried = []
        for a in legal:
            st = table.get(a)
            if st is None:
                st = table[a] = [0, 0.0, 0]
            st[2] += 1
            if st[0] == 0:
                untried.append(a)
        if untried:
            return self.rng.choice(untried)
        c = self.c
        return max(legal, key=lambda a: _ucb(table[a], c))

    def _iterate(self, game: Game, root: _Node, state: State, me: int, root_choices: list[Action],
                 budget: Budget) -> None:
        path: list[tuple[_Node, dict[int, Action]]] = []
        node = root
        while not state.is_over():
            seats = state.to_act()
            joint: dict[int, Action] = {}
            for s in seats:
                legal = state.legal_actions(s)
                if node is root and s == me:
                    legal = root_choices
                if len(legal) > WIDE:
                    joint[s] = legal[self.rng.randrange(len(legal))]
                else:
                    joint[s] = self._choose(node, s, legal)
            path.append((node, joint))
            state.apply(joint)
            key = tuple(joint[s] for s in seats)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                break
            node = child
        depth = 0
        # A long rollout is cut short when time is up: its evaluation still counts.
        while not state.is_over() and depth < self.rollout_depth and not budget.spent():
            rollout: dict[int, Action] = {}
            for s in state.to_act():
                rollout[s] = self._rollout_action(game, state, s)
            state.apply(rollout)
            depth += 1
        rewards = [game.evaluate(state, s) for s in range(state.num_players)]
        for visited, choices in path:
            for s, a in choices.items():
                st = visited.stats.get(s, {}).get(a)
                if st is not None:
                    st[0] += 1
                    st[1] += rewards[s]

    def _rollout_action(self, game: Game, state: State, seat: int) -> Action:
        """Epsilon-greedy: usually the action whose result evaluates best for `seat`."""
        options = state.legal_actions(seat)
        rng = self.rng
        if len(options) == 1 or not self.greedy_rollouts or rng.random() < self.epsilon:
            return options[rng.randrange(len(options))]
        if len(options) > ROLLOUT_CANDIDATES:
            picks = [options[rng.randrange(len(options))] for _ in range(ROLLOUT_CANDIDATES)]
        else:
            picks = list(options)
        best, best_value = picks[0], -math.inf
        multi = len(state.to_act()) > 1
        for action in picks:
            after = state.clone()
            joint = {seat: action}
            if multi:  # others in a simultaneous step act at random in this look-ahead
                for other in after.to_act():
                    if other != seat:
                        theirs = after.legal_actions(other)
                        joint[other] = theirs[rng.randrange(len(theirs))]
            after.apply(joint)
            value = game.evaluate(after, seat)
            if value > best_value:
                best, best_value = action, value
        return best


def _ucb(st: list[float], c: float) -> float:
    visits, total, avail = st
    return total / visits + c * math.sqrt(math.log(max(avail, 1.0)) / visits)
