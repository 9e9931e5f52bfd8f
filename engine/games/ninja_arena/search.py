"""Ninja Arena's search bot (`duct`): decoupled regret matching over a tick's grouped actions.

Every live seat acts in the same tick, so no seat may search as if it saw the others'
choices: each seat keeps its own regrets over its own candidates (decoupled), and none
conditions on another's pick. An iteration draws fresh future dice (`determinize`), each
opponent picks from its regret-matching strategy, and then every one of the bot's own
candidates is played against those picks on the same dice (common random numbers): the
tick is resolved, a few more ticks are played out by the tactician's policy for everyone,
and `Game.evaluate` gives each seat's gain. The bot's regrets get the whole vector of
gains (full-width regret matching, low variance); each opponent's get an outcome-sampled
estimate for its one pick (Lanctot et al. 2013, SM-MCTS with regret matching).

The legal list holds up to a hundred actions (31 rolls, every target and split of every
technique), far too many for the handful of iterations Python affords in 50 ms, so it is
grouped into a few candidates that differ in kind: the tactician's and greedy's choices,
a wait, a claim, the best activations, the rolls toward the best goals. The tactician's
choice starts with a positive regret (a prior): with few iterations the bot plays like the
tactician, and the search moves it away where the play-outs keep disagreeing.

Anytime like `ismcts`: exactly `iterations` (default 8; the clock is then never read, so a
seed fixes every choice) or until `ms` is spent (an iteration cut short is dropped, so every
candidate is always judged on the same dice); the request's deadline always stops it.
"""

from __future__ import annotations

import random
from typing import ClassVar

from tourney.engine.core import (
    Action,
    BotOption,
    Budget,
    Clock,
    DecisionRequest,
    OutOfTime,
    anytime_options,
    default_clock,
    fixed_iterations,
)
from tourney.engine.core.chance import stream_start
from tourney.engine.games.ninja_arena import rules
from tourney.engine.games.ninja_arena.actions import HIT, WAIT, Activate, Roll, Switch
from tourney.engine.games.ninja_arena.bots import GreedyArenaBot, TacticianBot, _goals, attack_value, best_keep
from tourney.engine.games.ninja_arena.game import GAME
from tourney.engine.games.ninja_arena.state import ArenaState

DEFAULT_ITERATIONS = 8  # with no `ms`: fixed, so a match stays a pure function of its seed
OPPONENT_WIDTH = 3  # candidates per opponent: its tactician and greedy choices, a wait
EXPLORE = 0.2  # share of uniform play mixed into an opponent's strategy, so each of its candidates is sampled
ACTIVATIONS_KEPT = 3  # the best-valued activations among my candidates
ROLL_GOALS_KEPT = 2  # rolls toward this many of the best goals


class DuctArenaBot:
    """Regret matching per seat at the tick, tactician play-outs, the tactician's choice as prior."""

    DESCRIPTION: ClassVar[str] = ("simultaneous-move search: decoupled regret matching over grouped actions, "
                                  "tactician play-outs; anytime, stops on `ms` or `iterations`")
    OPTIONS: ClassVar[tuple[BotOption, ...]] = (
        *anytime_options(DEFAULT_ITERATIONS, "iterations per decision: deterministic for a seed"),
        BotOption("horizon", int, 3, "ticks played out after the searched one", minimum=0),
        BotOption("width", int, 6, "candidate actions searched for the bot's own seat", minimum=1),
        BotOption("prior", float, 0.05, "starting regret of the tactician's choice (0: no prior)", minimum=0),
    )

    def __init__(self, seed: int = 0, ms: float | None = None, iterations: int | None = None, horizon: int = 3,
                 width: int = 6, prior: float = 0.05, clock: Clock = default_clock) -> None:
        if horizon < 0 or width < 1 or prior < 0:
            raise ValueError("duct needs horizon >= 0, width >= 1 and prior >= 0")
        self.rng = random.Random(stream_start(seed, "bot/duct"))
        self.iterations = fixed_iterations("duct", ms, iterations, DEFAULT_ITERATIONS)
        self.ms = ms
        self.horizon = horizon
        self.width = width
        self.prior = prior
        self.clock = clock
        # The heuristic policies never draw random numbers in `choose`: their seeds do not matter.
        self.tactician = TacticianBot(seed)
        self.greedy = GreedyArenaBot(seed)
        self.last_iterations = 0  # iterations the last searched tick finished (what an `ms` budget affords)

    def act(self, request: DecisionRequest) -> int:
        """Search the tick until the budget runs out; play the candidate the strategy favours most."""
        legal = list(request.legal)
        if len(legal) == 1:
            return 0
        if isinstance(legal[0], Switch):  # the Duel board switch is a single choice: the tactician's rule
            return self.tactician.act(request)
        budget = Budget(self.clock, self.ms, request.deadline_s)  # from the start: the candidates count too
        root = request.determinize(self.rng)
        assert isinstance(root, ArenaState)
        me = request.seat
        seats = list(root.to_act())
        cands = {p: self.candidates(root, p, self.width if p == me else OPPONENT_WIDTH) for p in seats}
        if len(cands[me]) == 1:
            return legal.index(cands[me][0])
        before = {p: GAME.evaluate(root, p) for p in seats}
        # The tactician's choice is each seat's first candidate: it starts ahead by `prior`.
        regrets = {p: [self.prior] + [0.0] * (len(cands[p]) - 1) for p in seats}
        totals = {p: [0.0] * len(cands[p]) for p in seats}
        done = 0
        while (self.iterations is None or done < self.iterations) and not budget.spent():
            try:
                self._iterate(request, me, cands, regrets, totals, before, budget)
            except OutOfTime:
                break
            done += 1
        self.last_iterations = done
        mine = totals[me] if done else regrets[me]
        best = max(range(len(mine)), key=lambda k: mine[k])
        return legal.index(cands[me][best])

    def _iterate(self, request: DecisionRequest, me: int, cands: dict[int, list[Action]],
                 regrets: dict[int, list[float]], totals: dict[int, list[float]], before: dict[int, float],
                 budget: Budget) -> None:
        """One sample of the dice: the opponents pick from their strategies, every own candidate is
        played against those picks on the same dice, and every seat's regrets update at the end
        (an iteration cut short by the budget raises OutOfTime before anything is updated)."""
        world = request.determinize(self.rng)
        assert isinstance(world, ArenaState)
        picks: dict[int, tuple[int, list[float]]] = {}
        for p in cands:
            if p != me:
                sigma = _strategy(regrets[p], EXPLORE)
                picks[p] = (_sample(self.rng, sigma), sigma)
        mine = _strategy(regrets[me], 0.0)
        gains: list[float] = []
        theirs = dict.fromkeys(picks, 0.0)  # each opponent's gain, expected over the bot's strategy
        for k, action in enumerate(cands[me]):
            budget.check()
            trial = world.clone()  # the same future dice for every candidate
            joint = {p: cands[p][j] for p, (j, _) in picks.items()}
            joint[me] = action
            trial.apply(joint)
            self._play_out(trial, budget)
            gains.append(GAME.evaluate(trial, me) - before[me])
            for p in theirs:
                theirs[p] += mine[k] * (GAME.evaluate(trial, p) - before[p])
        expected = sum(s * g for s, g in zip(mine, gains, strict=True))
        for k, g in enumerate(gains):
            regrets[me][k] += g - expected
            totals[me][k] += mine[k]
        for p, (j, sigma) in picks.items():
            # Outcome sampling: only the picked action has a value estimate, its gain / its probability.
            estimate = theirs[p] / sigma[j]
            row = regrets[p]
            for i in range(len(row)):
                row[i] += (estimate if i == j else 0.0) - theirs[p]
            for i, s_i in enumerate(sigma):
                totals[p][i] += s_i

    def _play_out(self, world: ArenaState, budget: Budget) -> None:
        """`horizon` ticks of tactician play for every seat (OutOfTime when the budget is spent)."""
        for _ in range(self.horizon):
            if world.over:
                return
            budget.check()
            joint: dict[int, Action] = {}
            for p in world.to_act():
                legal = list(world.legal_actions(p))
                if isinstance(legal[0], Switch):
                    joint[p] = legal[1] if world.cube[p] > world.cube_b[p] else legal[0]
                else:
                    joint[p] = legal[self.tactician.choose(world, p, legal)]
            world.apply(joint)

    def candidates(self, st: ArenaState, p: int, width: int) -> list[Action]:
        """Up to `width` legal actions of different kinds, the tactician's choice first."""
        legal = list(st.legal_actions(p))
        out: list[Action] = []

        def add(a: Action) -> None:
            if a not in out and len(out) < width:
                out.append(a)

        add(legal[self.tactician.choose(st, p, legal)])
        add(legal[self.greedy.choose(st, p, legal)])
        add(WAIT)
        if rules.claim_kind(st, p):
            add(HIT)
        scored = [(attack_value(st, p, a, smart=True), a) for a in legal if isinstance(a, Activate)]
        scored.sort(key=lambda va: -va[0])
        for _, a in scored[:ACTIVATIONS_KEPT]:
            add(a)
        if st.t > st.stitched[p]:
            for roll in _goal_rolls(st, p)[:ROLL_GOALS_KEPT]:
                if roll in legal:
                    add(roll)
        return out


def _goal_rolls(st: ArenaState, p: int) -> list[Roll]:
    """For each goal (technique, Power, Recovery), the roll keeping its best partial fill, best goal first."""
    m = rules.masks(st, p)
    ranked: list[tuple[float, Roll]] = []
    for req, value in _goals(st, p, with_power=True):
        keep = best_keep(m, req)
        missing = len(req) - len(keep)
        reroll = tuple(i for i in range(5) if i not in keep)
        if missing and reroll:
            ranked.append((value / (1.0 + 1.6 * missing), Roll(reroll)))
    ranked.sort(key=lambda vr: -vr[0])
    seen: list[Roll] = []
    for _, roll in ranked:
        if roll not in seen:
            seen.append(roll)
    return seen


def _strategy(regrets: list[float], explore: float) -> list[float]:
    """Regret matching (positive regrets, normalised) mixed with `explore` of uniform play."""
    positive = [r if r > 0.0 else 0.0 for r in regrets]
    total = sum(positive)
    n = len(regrets)
    if total <= 0.0:
        return [1.0 / n] * n
    return [(1.0 - explore) * r / total + explore / n for r in positive]


def _sample(rng: random.Random, sigma: list[float]) -> int:
    x = rng.random()
    for k, s in enumerate(sigma):
        x -= s
        if x < 0.0:
            return k
    return len(sigma) - 1
