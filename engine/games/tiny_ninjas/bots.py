"""`montecarlo`, Tiny Ninjas' search bot: paired Monte Carlo over sampled worlds, sequential halving.

Each round draws one world the seat cannot tell apart from the real one (`determinize`: the
opponent's unseen cards and the pile are resampled from the cards the seat has not seen, the
cards it saw stay where it saw them), then tries every action still in the running in that same
world with the same dice (common random numbers). Comparing actions in the same worlds cancels
most of the luck of the deal and the dice, which is what decides Tiny Ninjas: a tree search that
spread its playouts over different worlds per action could not tell close actions apart and
lost to one-ply greedy (about 30% in 17 games).

An action is scored by `Game.evaluate` when the seat's next own attacking Round begins: the
playout policy (`playout.py`) plays the rest of this Round and the other seat's Round. That is
the first moment two actions are alike enough to compare: every Round the Attacker holds a full
hand and the Defender only the cards it kept back from its own Round, so what an attack really
costs is the shield missing in the next Round, which no score right after the move can see.
Scored right after the action (`lookahead=none`, as greedy scores it, over many paired worlds
instead of three) the bot scored 58% against greedy; scored after a fixed number of playout
moves (4, or 1) it lost (25-40%), scoring an END_ROUND against the other's next attack and an
attack against nothing. Plays whose tokens add no damage are dropped first (`undominated`).

`Game.evaluate` counts cards, not what they are, and greedy needs no more; but at the horizon the
seat's hand is what it is about to attack with and the other seat's hand is all it has to defend
with for a whole Round. So the search adds the hands' quality (`horizon_value`): the expected
damage of the seat's cards minus the expected block of the other's, read off the playout's card
tables. That turned "spend the best card now" into "keep the card that will matter": against
greedy at 50 ms of CPU, over the same 1,000 duplicate pairs (`bench/ladder.py --seed 1..4`), it
lifted the score from 64.3% (986 playouts) to 69.1% [67.2, 71.1] (981 playouts).

After every few rounds the worse half of the actions drops out (sequential halving, down to the
best two), so the budget goes to telling the good ones apart. In a simultaneous step (the Blitz
mulligan) the other seat's hidden choice is drawn by the playout policy in each world.

The search is anytime: it stops after exactly `iterations` playouts (then it never reads the
clock and a seed fixes every choice) or when `ms` or the request's deadline is spent.
"""

from __future__ import annotations

import random
from typing import ClassVar, Final

from tourney.engine.core import (
    Action,
    BotOption,
    Budget,
    Clock,
    DecisionRequest,
    anytime_options,
    default_clock,
    fixed_iterations,
)
from tourney.engine.core.chance import stream_start
from tourney.engine.games.tiny_ninjas.data import INSTANCE_TYPE
from tourney.engine.games.tiny_ninjas.playout import ATTACK_WORTH, KEEP_CARDS, SHIELD_WORTH, playout_action, undominated
from tourney.engine.games.tiny_ninjas.rules import P_OVER
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState

# With no `ms` in the spec a fixed count, so a match stays a pure function of its seed: about
# what 50 ms of one core buys (process CPU time, median over the decisions of games against
# greedy: 700 playouts took 39.5 ms; over one fixed set of 334 decisions 49 ms, 70 us a playout).
DEFAULT_ITERATIONS: Final = 700
# Rounds (worlds) between two halvings of the actions still in the running.
ROUNDS_PER_HALVING: Final = 4
# A playout stops after this many moves even if the seat's next Round has not begun (a Round
# may hold up to attack_cap_per_round attacks; the policy's Rounds take a few).
MAX_PLAYOUT_MOVES: Final = 60
LOOKAHEADS: Final = ("round", "none")
# A point of a hand's expected damage (or block) is worth 1/HAND_SCALE of the evaluation's range
# times the `hand` weight: near an even score evaluate moves 0.95/6 a HEALTH point, so at weight 1
# a point in hand counts about a third of a HEALTH point.
HAND_SCALE: Final = 20.0
HAND_WEIGHT: Final = 1.0

class PairedMonteCarloBot:
    """Tries every action in the same sampled worlds, keeps the better half every few rounds."""

    DESCRIPTION: ClassVar[str] = ("Monte Carlo search: every action scored in the same sampled worlds and "
                                  "dice, sequential halving; anytime, stops on `ms` or `iterations`")
    OPTIONS: ClassVar[tuple[BotOption, ...]] = (
        *anytime_options(DEFAULT_ITERATIONS, "playouts per decision: deterministic for a seed"),
        BotOption("lookahead", str, "round", "round: score an action when the seat's next own Round begins; "
                  "none: right after it (58% against greedy instead of about 70%)", choices=LOOKAHEADS),
        BotOption("keep", int, KEEP_CARDS, "cards a playout Attacker keeps back to defend with", minimum=0),
        BotOption("epsilon", float, 0.1, "share of random moves in playouts", minimum=0),
        BotOption("hand", float, HAND_WEIGHT, "weight of the hands' quality at the horizon (0: the game's "
                  "evaluation alone: 64% against greedy instead of 69%)", minimum=0),
    )

    def __init__(
        self,
        seed: int = 0,
        ms: float | None = None,
        iterations: int | None = None,
        lookahead: str = "round",
        keep: int = KEEP_CARDS,
        epsilon: float = 0.1,
        hand: float = HAND_WEIGHT,
        clock: Clock = default_clock,
    ) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError("montecarlo epsilon must be between 0 and 1")
        if lookahead not in LOOKAHEADS:
            raise ValueError(f"montecarlo lookahead must be one of {', '.join(LOOKAHEADS)}")
        if keep < 0:
            raise ValueError("montecarlo needs keep >= 0")
        if hand < 0:
            raise ValueError("montecarlo needs hand >= 0")
        self.rng = random.Random(stream_start(seed, "bot/tiny-ninjas-montecarlo"))
        self.iterations = fixed_iterations("montecarlo", ms, iterations, DEFAULT_ITERATIONS)
        self.ms = ms
        self.clock = clock
        self.lookahead = lookahead
        self.keep = keep
        self.epsilon = epsilon
        self.hand = hand
        self.last_iterations = 0

    def act(self, request: DecisionRequest) -> int:
        """Search until the budget (own `ms`, `iterations`, or the request's deadline) runs out."""
        legal = request.legal
        if len(legal) == 1:
            return 0
        alive = undominated(legal)
        if len(alive) == 1:
            return alive[0]
        budget = Budget(self.clock, self.ms, request.deadline_s)
        totals = [0.0] * len(legal)
        counts = [0] * len(legal)
        every = self._rounds_per_halving(len(alive))
        done = 0
        rounds = 0
        while not self._out_of_budget(done, budget):
            world = request.determinize(self.rng)
            assert isinstance(world, TinyNinjasState)
            world.forget_log()
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
        """`action` in a copy of `world`, the other seats' and the next moves by the playout policy
        until the seat's next own Round (or the end of the battle), with the dice and the
        playout's coin flips fixed by `seed` for every action compared."""
        state = world.clone()
        state.chance.reseed(seed)
        rng = random.Random(seed)
        me = request.seat
        epsilon, keep = self.epsilon, self.keep
        state.apply({s: action if s == me else playout_action(state, s, rng, epsilon, keep) for s in state.to_act()})
        if self.lookahead == "round":
            start, battle = world.round, world.battle
            for _ in range(MAX_PLAYOUT_MOVES):
                if state.phase == P_OVER or state.battle != battle or (state.round > start and state.attacker == me):
                    break
                to_act = state.to_act()
                if len(to_act) == 1:  # the policy only makes legal moves: no list to check them against
                    seat = to_act[0]
                    state.apply_unchecked(seat, playout_action(state, seat, rng, epsilon, keep))
                else:
                    state.apply({s: playout_action(state, s, rng, epsilon, keep) for s in to_act})
        return horizon_value(request.game.evaluate(state, me), state, me, self.hand)


def horizon_value(evaluation: float, state: TinyNinjasState, seat: int, weight: float) -> float:
    """`evaluation` (the game's, for `seat`) plus `weight` times the hands' quality while the
    battle goes on: the expected damage of the seat's cards minus the expected block of the
    other seat's, in units of HAND_SCALE."""
    if not weight or state.phase == P_OVER:
        return evaluation
    mine = sum(ATTACK_WORTH[INSTANCE_TYPE[c]] for c in state.hands[seat])
    theirs = sum(SHIELD_WORTH[INSTANCE_TYPE[c]] for c in state.hands[1 - seat])
    return evaluation + weight * (mine - theirs) / HAND_SCALE
