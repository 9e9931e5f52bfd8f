"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration samples a full state consistent with the bot's observation (`determinize`),
walks the shared tree choosing actions by UCB among those legal in that sample (counting
availability, so rarely-legal actions are not starved), expands one node, plays a short
random rollout, scores it with `Game.evaluate` for every seat, and backs the scores up.

Simultaneous decisions are handled the decoupled way (DUCT): every acting seat keeps its
own statistics at the node and chooses by its own UCB, so no seat sees another's choice.
Seats with very wide action lists (Maître Ninja's parry rows) are sampled uniformly below
the root instead of being searched: UCB over tens of thousands of arms cannot converge.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from engine.bots.seeding import bot_rng
from engine.core import Action, DecisionRequest, Game, State

WIDE = 64  # an action list longer than this is sampled, not searched


class _Node:
    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple[Action, ...], _Node] = {}
        # seat -> action -> [visits, total reward for that seat, times available]
        self.stats: dict[int, dict[Action, list[float]]] = {}


class IsmctsBot:
    """Searches a per-move budget of iterations (or milliseconds) and plays the most-visited action."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 150,
        time_ms: float | None = None,
        rollout_depth: int = 20,
        exploration: float = 0.7,
    ) -> None:
        if iterations < 1:
            raise ValueError("ismcts needs iterations >= 1")
        self.rng = bot_rng(seed, "ismcts")
        self.iterations = iterations
        self.time_ms = time_ms
        self.rollout_depth = rollout_depth
        self.c = exploration

    def act(self, request: DecisionRequest) -> int:
        legal = request.legal
        if len(legal) == 1:
            return 0
        candidates = list(range(len(legal)))
        if len(legal) > WIDE:
            candidates = self.rng.sample(candidates, WIDE)
        root_choices = [legal[i] for i in candidates]
        stop_at = self._stop_time(request)
        root = _Node()
        done = 0
        while done < self.iterations or (stop_at is not None and self.time_ms is not None):
            if stop_at is not None and time.perf_counter() >= stop_at:
                break
            self._iterate(request.game, root, request.determinize(self.rng), request.seat, root_choices)
            done += 1
        table = root.stats.get(request.seat, {})
        best = max(range(len(root_choices)), key=lambda k: table.get(root_choices[k], (0.0,))[0])
        return candidates[best]

    def _stop_time(self, request: DecisionRequest) -> float | None:
        budgets = []
        if self.time_ms is not None:
            budgets.append(self.time_ms / 1000.0)
        if request.deadline_s is not None:
            # Leave a margin for the round trip: a bot that overruns forfeits.
            budgets.append(request.deadline_s * 0.7)
        return time.perf_counter() + min(budgets) if budgets else None

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

    def _iterate(self, game: Game, root: _Node, state: State, me: int, root_choices: list[Action]) -> None:
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
        while not state.is_over() and depth < self.rollout_depth:
            rollout: dict[int, Action] = {}
            for s in state.to_act():
                options = state.legal_actions(s)
                rollout[s] = options[self.rng.randrange(len(options))]
            state.apply(rollout)
            depth += 1
        rewards = [game.evaluate(state, s) for s in range(state.num_players)]
        for visited, choices in path:
            for s, a in choices.items():
                st = visited.stats.get(s, {}).get(a)
                if st is not None:
                    st[0] += 1
                    st[1] += rewards[s]


def _ucb(st: list[float], c: float) -> float:
    visits, total, avail = st
    return total / visits + c * math.sqrt(math.log(max(avail, 1.0)) / visits)
