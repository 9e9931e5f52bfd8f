"""Ninja Arena bots: `greedy` and `tactician` (reached through `Game.bots()`).

Everything on the table is public, so a bot rebuilds the exact state with
`request.determinize` (a clone with fresh future chance) and reads it with the rules'
own helpers. Both return an index into `request.legal`, so neither can make a Mistake
other than a deliberate pre-emptive hit.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations
from typing import ClassVar

from tourney.engine.core import Action, BotOption, DecisionRequest
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
    for _, tech, _ in rules.techniques(st, p):
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
