"""Ninja Arena bots (reached through `Game.bots()`): `greedy` and `tactician`, and `duct`, the search bot.

Everything on the table is public, so a bot rebuilds the exact state with
`request.determinize` (a clone with fresh future chance) and reads it with the rules'
own helpers. Each returns an index into `request.legal`, so none can make a Mistake
other than a deliberate pre-emptive hit.

`duct` uses decoupled regret matching over a tick's grouped actions.

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
from functools import lru_cache
from itertools import combinations
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
from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena import rules
from tourney.engine.games.ninja_arena.actions import HIT, KEEP, SWITCH, WAIT, Activate, Roll, Switch
from tourney.engine.games.ninja_arena.matching import fits
from tourney.engine.games.ninja_arena.state import ArenaState


@lru_cache(maxsize=1 << 16)
def best_keep(masks5: tuple[int, ...], req: tuple[int, ...]) -> tuple[int, ...]:
    """The largest set of dice (indices) that can all go on req; the rest should be rerolled.
    Among equals, keep fewer SPIRALs (they are worth more elsewhere)."""
    for size in range(min(len(req), 5), 0, -1):
        best: tuple[int, ...] | None = None
        for combo in combinations(range(5), size):
            chosen = tuple(masks5[i] for i in combo)
            if 0 in chosen or not fits(chosen, req):
                continue
            if best is None or sum(masks5[i] > 0x7E for i in combo) < sum(masks5[i] > 0x7E for i in best):
                best = combo
        if best is not None:
            return best
    return ()


def _goals(st: ArenaState, p: int, with_power: bool) -> list[tuple[tuple[int, ...], float]]:
    """(requirement, value) pairs a seat can roll toward."""
    if st.ko[p]:
        return [(D.CHARACTERS[st.top[p]].recovery, 10.0)]
    out: list[tuple[tuple[int, ...], float]] = []
    for _, tech, _, _ in rules.techniques(st, p):
        for req, n in tech.variants:
            out.append((req, float(n)))
    if with_power:
        out.append((D.CHARACTERS[st.top[p]].power, 6.0))
    return out


def _index(legal: list[Action], action: Action) -> int:
    try:
        return legal.index(action)
    except ValueError:
        return legal.index(WAIT)


def _roll_toward(st: ArenaState, p: int, legal: list[Action], goals: list[tuple[tuple[int, ...], float]],
                 score: str) -> int:
    """Reroll every die that is not part of the best partial fill of the chosen goal."""
    if st.t <= st.stitched[p]:
        return _index(legal, WAIT)
    m = rules.masks(st, p)
    best: tuple[float, tuple[int, ...]] | None = None
    for req, value in goals:
        keep = best_keep(m, req)
        missing = len(req) - len(keep)
        if missing == 0:
            continue  # already complete (but not usable now, e.g. no target): pick another goal
        key = -missing - len(req) * 0.01 if score == "cheapest" else value / (1.0 + 1.6 * missing)
        if best is None or key > best[0]:
            best = (key, keep)
    if best is None:
        return _index(legal, Roll(tuple(range(5))))
    reroll = tuple(i for i in range(5) if i not in best[1])
    if not reroll:
        return _index(legal, WAIT)
    return _index(legal, Roll(reroll))


def attack_value(st: ArenaState, p: int, a: Activate, smart: bool) -> float:
    """Tokens an activation lands on opponents (Byakugan, Fan and an empty Sand Shield counted);
    the smart version values tokens by the wounds they would cause at the next tally."""
    found = rules.technique_amount(st, p, a)
    if found is None:
        return -1.0
    tech, n, owner = found
    amounts = rules.planned_amounts(st, p, a, tech, n, owner)
    bonus = rules.bonus_now(st, p)
    if bonus and amounts:
        bt = a.bonus_target if a.bonus_target in amounts else min(amounts, key=lambda q: (q - p) % st.n)
        amounts[bt] += bonus
    total = 0.0
    for q, amt in amounts.items():
        if st.power[q] and st.top[q] == D.HINATA and st.byakugan[q] > 0:
            continue
        if st.power[q] and st.top[q] == D.GAARA and st.shield[q] == 0:
            continue
        gain = float(amt)
        if st.fan[q] > 0:
            gain -= 1.0
        if smart:
            gain += 4.0 * (_wounds(st, q, st.pool[q] + amt) - _wounds(st, q, st.pool[q]))
            if rules.claim_kind(st, q):
                gain += 1.0
        total += gain
    if owner == D.SASUKE and tech.key == "T2":
        total -= 1.0
    elif owner == D.SAKURA and tech.key == "T1":
        total += min(2, st.pool[p]) * 0.5
    elif owner == D.HINATA and tech.key == "T1":
        total += min(1, st.pool[p]) * 0.5
    elif owner == D.SHIKAMARU and tech.key == "T2" and smart:
        total += 1.0
    return total


def _wounds(st: ArenaState, q: int, pool: int) -> int:
    """Wounds a tally of `pool` tokens would give q now."""
    track = D.CHARACTERS[st.top[q]].track
    cube = st.cube[q]
    sakura = st.top[q] == D.SAKURA and st.power[q]
    w = 0
    while cube < D.K_SPACES:
        thr = D.SAKURA_THRESHOLD if sakura else track[cube]
        if pool < thr:
            break
        pool -= thr
        cube += 1
        w += 1
    return w


class GreedyArenaBot:
    """Rolls toward the cheapest reachable technique, fires at the most damaging target,
    claims its Power (or Recovery) as soon as it can, never hits bare."""

    DESCRIPTION: ClassVar[str] = "rolls toward the cheapest technique, hits the most damaging target, claims its Power"
    OPTIONS: ClassVar[tuple[BotOption, ...]] = ()

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"ninja-arena/greedy/{seed}")

    def act(self, request: DecisionRequest) -> int:
        legal = list(request.legal)
        if legal and isinstance(legal[0], Switch):
            return self._switch(request, legal)
        st = request.determinize(self.rng)
        assert isinstance(st, ArenaState)
        return self.choose(st, request.seat, legal)

    def _switch(self, request: DecisionRequest, legal: list[Action]) -> int:
        st = request.determinize(self.rng)
        assert isinstance(st, ArenaState)
        p = request.seat
        return legal.index(SWITCH if st.cube[p] > st.cube_b[p] else KEEP)

    def choose(self, st: ArenaState, p: int, legal: list[Action]) -> int:
        """Claim, else the best technique, else roll toward the cheapest technique."""
        claim = rules.claim_kind(st, p)
        if claim == rules.CLAIM_RECOVERY or (claim == rules.CLAIM_POWER and not st.power[p]):
            return legal.index(HIT)
        best, best_v = -1, 0.0
        for i, a in enumerate(legal):
            if isinstance(a, Activate):
                v = attack_value(st, p, a, smart=False)
                if v > best_v:
                    best, best_v = i, v
        if best >= 0:
            return best
        return _roll_toward(st, p, legal, _goals(st, p, with_power=False), "cheapest")


class TacticianBot(GreedyArenaBot):
    """Greedy plus: hits early when another seat shows a claim (so it is never last), values
    damage by the wounds it causes at the next tally, rolls toward the Power when the table's
    pools make a tally pay, and re-claims its own Power when that tallies big pools."""

    DESCRIPTION: ClassVar[str] = "greedy plus timing: hits early against claims, values wounds at the next tally"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"ninja-arena/tactician/{seed}")

    def choose(self, st: ArenaState, p: int, legal: list[Action]) -> int:
        claim = rules.claim_kind(st, p)
        opp_pools = sum(st.pool[q] for q in rules.opponents(st, p))
        if claim == rules.CLAIM_RECOVERY or claim == rules.CLAIM_POWER and (not st.power[p] or opp_pools >= 5):
            return legal.index(HIT)
        live = [q for q in range(st.n) if not st.eliminated[q]]
        if len(live) >= 3 and self._claim_coming(st, p):
            risky = st.cube[p] == D.K_SPACES - 1 or st.ko[p]
            if not risky:
                return legal.index(HIT)
        best, best_v = -1, 0.0
        power_keep = set(best_keep(rules.masks(st, p), D.CHARACTERS[st.top[p]].power)) if not st.ko[p] else set()
        near_power = len(power_keep) >= 4 and not st.power[p]
        for i, a in enumerate(legal):
            if isinstance(a, Activate):
                v = attack_value(st, p, a, smart=True)
                if near_power and set(a.dice) & power_keep:
                    v -= 3.0  # do not spend the dice of an almost-complete Power
                if v > best_v:
                    best, best_v = i, v
        if best >= 0:
            return best
        goals = _goals(st, p, with_power=True)
        if goals and not st.ko[p]:
            req, value = goals[-1]
            goals[-1] = (req, value + 0.6 * opp_pools - (4.0 if st.power[p] else 0.0))
        return _roll_toward(st, p, legal, goals, "value")

    @staticmethod
    def _claim_coming(st: ArenaState, p: int) -> bool:
        """Another seat shows a claim right now (dice are public), so a HIT this tick is early."""
        for q in range(st.n):
            if q == p or st.eliminated[q]:
                continue
            kind = rules.claim_kind(st, q)
            if kind == rules.CLAIM_RECOVERY or kind == rules.CLAIM_POWER and not st.power[q]:
                return True
        return False


# ------------------------------------------------------------------ duct, the search bot
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
        before = {p: root.game.evaluate(root, p) for p in seats}
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
            gains.append(world.game.evaluate(trial, me) - before[me])
            for p in theirs:
                theirs[p] += mine[k] * (world.game.evaluate(trial, p) - before[p])
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
