"""`montecarlo`, Tiny Ninjas' search bot: paired Monte Carlo over sampled worlds, sequential halving.

Each round draws one world the seat cannot tell apart from the real one (`determinize`: the
opponent's unseen cards and the pile are resampled from the cards the seat has not seen, the
cards it saw stay where it saw them), then tries every action still in the running in that same
world with the same dice (common random numbers) and scores it with `Game.evaluate`; with
`resolve` it first plays out the opponent's defence by `playout.playout_action`. Comparing
actions in the same worlds cancels most of the luck of the deal and the dice, which is what
decides Tiny Ninjas: a tree search that spread its playouts over different worlds per action
could not tell close actions apart and lost to one-ply greedy (about 30% in 17 games), and
scoring after a fixed playout depth (4, or 1) lost too (25-40%): it scored an END_ROUND against
the opponent's next attack and an attack against nothing. By default an action is scored right
after it is applied, as greedy does, but over many paired worlds instead of three.

After every few rounds the worse half of the actions drops out (sequential halving, down to the
best two), so the budget goes to telling the good ones apart. In a simultaneous step (the Blitz
mulligan) the other seat's hidden choice is drawn by the playout policy in each world.

The search is anytime: it stops after exactly `iterations` playouts (then it never reads the
clock and a seed fixes every choice) or when `ms` or the request's deadline is spent.
"""

from __future__ import annotations

import random
from typing import ClassVar, Final

from engine.core import Action, BotOption, Budget, Clock, DecisionRequest, default_clock
from engine.core.chance import stream_start
from engine.games.tiny_ninjas.playout import playout_action
from engine.games.tiny_ninjas.rules import P_DEFEND
from engine.games.tiny_ninjas.state import TinyNinjasState

# With no `ms` in the spec a fixed count, so a match stays a pure function of its seed; this
# many playouts cost about 50 ms of one core a decision (README, "how strong is each bot").
DEFAULT_ITERATIONS: Final = 1200
# Rounds (worlds) between two halvings of the actions still in the running.
ROUNDS_PER_HALVING: Final = 4


class PairedMonteCarloBot:
    """Tries every action in the same sampled worlds, keeps the better half every few rounds."""

    DESCRIPTION: ClassVar[str] = ("Monte Carlo search: every action scored in the same sampled worlds and "
                                  "dice, sequential halving; anytime, stops on `ms` or `iterations`")
    OPTIONS: ClassVar[tuple[BotOption, ...]] = (
        BotOption("ms", float, None, "think this many milliseconds a decision instead of a fixed count (not "
                  "reproducible run to run)", minimum=1, example=50),
        BotOption("iterations", int, DEFAULT_ITERATIONS, "playouts per decision: deterministic for a seed",
                  minimum=1),
        BotOption("resolve", bool, False, "play out the opponent's defence to an attack before scoring it (measured "
                  "weaker: 4 of 10 against greedy)"),
        BotOption("epsilon", float, 0.1, "share of random moves in playouts", minimum=0),
    )

    def __init__(
        self,
        seed: int = 0,
        ms: float | None = None,
        iterations: int | None = None,
        resolve: bool = False,
        epsilon: float = 0.1,
        clock: Clock = default_clock,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("montecarlo needs iterations >= 1")
        if ms is not None and ms <= 0:
            raise ValueError("montecarlo needs ms > 0")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError("montecarlo epsilon must be between 0 and 1")
        self.rng = random.Random(stream_start(seed, "bot/tiny-ninjas-montecarlo"))
        self.iterations = DEFAULT_ITERATIONS if iterations is None and ms is None else iterations
        self.ms = ms
        self.clock = clock
        self.resolve = resolve
        self.epsilon = epsilon
        self.last_iterations = 0

    def act(self, request: DecisionRequest) -> int:
        """Search until the budget (own `ms`, `iterations`, or the request's deadline) runs out."""
        legal = request.legal
        if len(legal) == 1:
            return 0
        budget = Budget(self.clock, self.ms, request.deadline_s)
        alive = list(range(len(legal)))
        totals = [0.0] * len(legal)
        counts = [0] * len(legal)
        every = self._rounds_per_halving(len(legal))
        done = 0
        rounds = 0
        while not self._out_of_budget(done, budget):
            world = request.determinize(self.rng)
            assert isinstance(world, TinyNinjasState)
            world.log = []  # no rule reads the log back: a search copy need not carry the match's history
            playout_seed = self.rng.getrandbits(63)
            for i in alive:
                totals[i] += self._playout(request, world, legal[i], playout_seed)
                counts[i] += 1
                done += 1
                if self._out_of_budget(done, budget):
                    break
            rounds += 1
            if rounds % every == 0 and len(alive) > 2:
                alive.sort(key=lambda k: -totals[k] / counts[k])
                alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
        self.last_iterations = done
        # The budget may stop a round halfway: compare means, not sums.
        return max(alive, key=lambda k: totals[k] / max(counts[k], 1))

    def _rounds_per_halving(self, actions: int) -> int:
        """Rounds between halvings: a count is spread evenly over the halvings it will need
        (sequential halving); a time budget halves every ROUNDS_PER_HALVING rounds."""
        if self.iterations is None:
            return ROUNDS_PER_HALVING
        halvings = max(1, (actions - 1).bit_length())
        return max(1, self.iterations // (halvings * actions))

    def _out_of_budget(self, done: int, budget: Budget) -> bool:
        return (self.iterations is not None and done >= self.iterations) or budget.spent()

    def _playout(self, request: DecisionRequest, world: TinyNinjasState, action: Action, seed: int) -> float:
        """`action` in a copy of `world`, the other seats' and the next moves by the playout policy,
        with the dice and the playout's coin flips fixed by `seed` for every action compared."""
        state = world.clone()
        state.chance.reseed(seed)
        rng = random.Random(seed)
        me = request.seat
        state.apply({s: action if s == me else playout_action(state, s, rng, self.epsilon) for s in state.to_act()})
        # With `resolve`, an attack is scored once the opponent's defence to it is played out.
        while self.resolve and state.phase == P_DEFEND and state.to_act() != (me,):
            state.apply({s: playout_action(state, s, rng, self.epsilon) for s in state.to_act()})
        return request.game.evaluate(state, me)
