"""Maître Ninja's own bots: `nash` (equilibrium mixed strategy per fight), `best_response`, and
`regret`, the anytime search bot (regret matching+ on the same matrix, within a budget).

A fight is a zero-sum matrix game between the attacker's lines and the defender's rows, and
it depends only on the attacker's rank (and the configured row length and supply). The game
is solved once per such key by linear programming and cached; the nash bot then samples its
side's equilibrium mix with its own seeded RNG. The defender lays its row card by card, so
nash draws each card from the mix conditioned on the cards it already laid: card by card,
that is the same distribution over whole rows. `best_response` plays the pure strategy that
does best against nash's mix: the probe used by the exploitability test and the ladder.

The matrix is built by string search: with the greedy leftmost matching of §3.2, the defender
wins exactly when each code is found in order as a block of the row, so `str.find` from the
end of the previous block reproduces the resolution (a test checks this against `resolve`).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from typing import Any, ClassVar

from tourney.engine.core import (
    BotOption,
    Budget,
    Clock,
    DecisionRequest,
    anytime_options,
    default_clock,
    fixed_iterations,
)
from tourney.engine.games.maitre_ninja.actions import PARRIES, attack_lines, iter_rows, parry_rows
from tourney.engine.games.maitre_ninja.data import (
    ATTACK_LEVELS,
    KATANA,
    KATANA_ORDERS,
    PARRIES_BY_RANK,
    PARRY_CODE,
    PARRY_SUPPLY,
    PARRY_TYPES,
    line_size,
)

_LETTER = {"DO": "D", "BL": "B", "JU": "J"}


def _code_string(code: tuple[str, ...]) -> str:
    return "".join(_LETTER[p] for p in code)


@cache
def code_levels(rank: int) -> tuple[tuple[str, ...], ...]:
    """Per level of a rank-`rank` line, the codes of its choices as strings, in legal-line order.

    The Katana's level has one choice per attack-parry order, so the product of these levels
    enumerates lines exactly in `attack_lines(rank)` order.
    """
    out = []
    for level in ATTACK_LEVELS[: line_size(rank)]:
        if level == (KATANA,):
            out.append(tuple(_code_string(order) for order in KATANA_ORDERS))
        else:
            out.append(tuple(_code_string(PARRY_CODE[card]) for card in level))
    return tuple(out)


def defender_wins_mask(row: str, levels: tuple[tuple[str, ...], ...]) -> int:
    """Bit i set when the row (as D/B/J letters) parries every card of line i."""
    frontier = [(0, 0)]  # (next live parry, index of the line prefix so far)
    for codes in levels[:-1]:
        width = len(codes)
        nxt = []
        for j, idx in frontier:
            for k, code in enumerate(codes):
                p = row.find(code, j)
                if p >= 0:
                    nxt.append((p + len(code), idx * width + k))
        frontier = nxt
    last = levels[-1]
    width = len(last)
    # Many prefixes end at the same position; the last level's answers depend only on it.
    by_pos: dict[int, int] = {}
    mask = 0
    for j, idx in frontier:
        bits = by_pos.get(j)
        if bits is None:
            bits = 0
            for k, code in enumerate(last):
                if row.find(code, j) >= 0:
                    bits |= 1 << k
            by_pos[j] = bits
        mask |= bits << (idx * width)
    return mask


@cache
def row_masks(rank: int, length: int, caps: tuple[int, ...]) -> tuple[int, ...]:
    """For every legal row (RowList order), the set of lines it beats, as a bitmask over lines."""
    levels = code_levels(rank)
    return tuple(defender_wins_mask("".join(_LETTER[p] for p in row), levels) for row in iter_rows(length, caps))


@cache
def distinct_rows(rank: int, length: int, caps: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The rows worth playing, as (lines-beaten mask, first legal row with it), in row order.

    Rows with the same answers are merged and rows beating a subset of another row's lines are
    dropped: neither changes what the defender can achieve, and every kept row is a real legal row.
    """
    first_row: dict[int, int] = {}
    for r, mask in enumerate(row_masks(rank, length, caps)):
        first_row.setdefault(mask, r)
    kept: list[int] = []
    for mask in sorted(first_row, key=lambda mk: (-mk.bit_count(), first_row[mk])):
        if not any(mask | k == k for k in kept):
            kept.append(mask)
    kept.sort(key=lambda mk: first_row[mk])
    return tuple((mk, first_row[mk]) for mk in kept)


@cache
def win_matrix(rank: int, length: int, caps: tuple[int, ...]) -> tuple[tuple[float, ...], ...]:
    """win[a][k] = 1.0 when attack line a beats the k-th of `distinct_rows`, else 0.0."""
    kept = distinct_rows(rank, length, caps)
    return tuple(tuple(0.0 if (mk >> a) & 1 else 1.0 for mk, _ in kept) for a in range(len(attack_lines(rank))))


@dataclass(frozen=True)
class FightSolution:
    """The equilibrium of one fight's matrix game.

    value: the attacker's win probability at equilibrium.
    attacker_probs: one probability per line of `attack_lines(rank)`.
    rows / defender_probs: the defender's mix, over the rows it uses (indices into RowList order).
    """

    rank: int
    length: int
    caps: tuple[int, ...]
    value: float
    attacker_probs: tuple[float, ...]
    rows: tuple[int, ...]
    defender_probs: tuple[float, ...]

    def attacker_win_vs_row(self, mask: int) -> float:
        """The attacker's win probability when nash attacks a row that beats the lines in `mask`."""
        return sum(p for i, p in enumerate(self.attacker_probs) if not (mask >> i) & 1)

    def attacker_win_with_line(self, line_index: int) -> float:
        """The win probability of one pure line against nash's defensive mix."""
        masks = row_masks(self.rank, self.length, self.caps)
        return sum(p for r, p in zip(self.rows, self.defender_probs, strict=True) if not (masks[r] >> line_index) & 1)


def _clean(probs: list[float]) -> tuple[float, ...]:
    """Drop LP round-off (tiny or negative weights) and renormalise."""
    kept = [p if p > 1e-9 else 0.0 for p in probs]
    total = sum(kept)
    return tuple(p / total for p in kept)


@cache
def solve_fight(rank: int, length: int, caps: tuple[int, ...]) -> FightSolution:
    """Solve the fight at `rank` (rows of `length` parries under supply `caps`) by linear programming,
    over the `distinct_rows` only."""
    import numpy as np
    from scipy.optimize import linprog

    n_lines = len(attack_lines(rank))
    kept = distinct_rows(rank, length, caps)
    win = np.array(win_matrix(rank, length, caps))
    n_rows = len(kept)

    # Attacker: maximise v subject to (x . win[:, k]) >= v for every row k, sum(x) = 1.
    att = linprog(
        c=np.r_[np.zeros(n_lines), -1.0],
        A_ub=np.c_[-win.T, np.ones(n_rows)],
        b_ub=np.zeros(n_rows),
        A_eq=np.r_[np.ones(n_lines), 0.0].reshape(1, -1),
        b_eq=[1.0],
        bounds=[(0, None)] * n_lines + [(None, None)],
        method="highs",
    )
    # Defender: minimise u subject to (win[a, :] . y) <= u for every line a, sum(y) = 1.
    dfn = linprog(
        c=np.r_[np.zeros(n_rows), 1.0],
        A_ub=np.c_[win, -np.ones(n_lines)],
        b_ub=np.zeros(n_lines),
        A_eq=np.r_[np.ones(n_rows), 0.0].reshape(1, -1),
        b_eq=[1.0],
        bounds=[(0, None)] * n_rows + [(None, None)],
        method="highs",
    )
    if att.status != 0 or dfn.status != 0:
        raise RuntimeError(f"fight LP failed at rank {rank}: {att.message} / {dfn.message}")
    y = _clean([float(v) for v in dfn.x[:n_rows]])
    support = [k for k, p in enumerate(y) if p > 0]
    return FightSolution(
        rank=rank,
        length=length,
        caps=caps,
        value=float(-att.fun),
        attacker_probs=_clean([float(v) for v in att.x[:n_lines]]),
        rows=tuple(kept[k][1] for k in support),
        defender_probs=tuple(y[k] for k in support),
    )


@cache
def defender_mix(rank: int, length: int, caps: tuple[int, ...]) -> tuple[tuple[tuple[str, ...], float], ...]:
    """Nash's defensive mix as (row, probability) pairs."""
    sol = solve_fight(rank, length, caps)
    rows = parry_rows(length, caps)
    return tuple((rows[r].row, p) for r, p in zip(sol.rows, sol.defender_probs, strict=True))


def next_parry_weights(mix: tuple[tuple[tuple[str, ...], float], ...], laid: tuple[str, ...]) -> list[float]:
    """Per parry type (DO, BL, JU), the mix's probability of it coming next after `laid`."""
    k = len(laid)
    weights = [0.0] * len(PARRY_TYPES)
    for row, p in mix:
        if row[:k] == laid:
            weights[PARRY_TYPES.index(row[k])] += p
    return weights


def laid_so_far(request: DecisionRequest) -> tuple[str, ...]:
    """The defender's own parries already laid in this fight."""
    return tuple(request.observation.get("row_so_far", ()))


def fight_key(request: DecisionRequest) -> tuple[str, int, int, tuple[int, ...]]:
    """(role, attacker rank, row length, supply) read from the observation."""
    obs = request.observation
    supply = obs["parry_supply"]
    return obs["role"], int(obs["attacker_rank"]), int(obs["parries"]), (supply["DO"], supply["BL"], supply["JU"])


def warm_up() -> None:
    """Solve the four standard fights now, so a timed first move does not pay for the LP."""
    caps = tuple(PARRY_SUPPLY[t] for t in PARRY_TYPES)
    for rank, length in PARRIES_BY_RANK.items():
        best_responses(rank, length, caps)


class NashBot:
    """Plays every fight by the equilibrium mixed strategy of its matrix game."""

    DESCRIPTION: ClassVar[str] = "plays each fight by its Nash equilibrium mix (optimal, no search)"
    OPTIONS: ClassVar[tuple[BotOption, ...]] = (
        BotOption("warm", bool, True, "solve every fight before the first move"),
    )

    def __init__(self, seed: int = 0, warm: bool = True) -> None:
        self.rng = random.Random(seed)
        if warm:
            warm_up()

    def act(self, request: DecisionRequest) -> int:
        """Sample a line (attacker) or the row's next parry (defender) from the cached equilibrium mix."""
        role, rank, length, caps = fight_key(request)
        if role == "attacker":
            pick = _sample(self.rng, solve_fight(rank, length, caps).attacker_probs)
            return request.legal.index(attack_lines(rank)[pick])
        if role == "defender":
            weights = next_parry_weights(defender_mix(rank, length, caps), laid_so_far(request))
            if not sum(weights):  # a row the mix never lays (another bot began it): any legal parry
                return self.rng.randrange(len(request.legal))
            return request.legal.index(PARRIES[_sample(self.rng, tuple(weights))])
        raise ValueError(f"nash bot asked to act with role {role!r}")


@cache
def _cumulative(probs: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(accumulate(probs))


def _sample(rng: random.Random, probs: tuple[float, ...]) -> int:
    cum = _cumulative(probs)
    return min(bisect_right(cum, rng.random() * cum[-1]), len(probs) - 1)


@cache
def best_responses(rank: int, length: int, caps: tuple[int, ...]) -> tuple[int, int]:
    """(best line against nash's defence, best row against nash's attack), first in legal order."""
    sol = solve_fight(rank, length, caps)
    lines = range(len(attack_lines(rank)))
    best_line = max(lines, key=lambda a: (sol.attacker_win_with_line(a), -a))
    masks = row_masks(rank, length, caps)
    # The best row beats the most attack probability; score each distinct mask once.
    score: dict[int, float] = {}
    best_row, best = 0, -1.0
    for r, mask in enumerate(masks):
        s = score.get(mask)
        if s is None:
            s = score[mask] = 1.0 - sol.attacker_win_vs_row(mask)
        if s > best + 1e-12:
            best_row, best = r, s
    return best_line, best_row


class BestResponseBot:
    """Plays the pure best response to nash's mix in every fight (deterministic; seed unused)."""

    DESCRIPTION: ClassVar[str] = "the pure best response to nash's mix in every fight (deterministic)"
    OPTIONS: ClassVar[tuple[BotOption, ...]] = (
        BotOption("warm", bool, True, "solve every fight before the first move"),
    )

    def __init__(self, seed: int = 0, warm: bool = True) -> None:
        self.seed = seed
        if warm:
            warm_up()

    def act(self, request: DecisionRequest) -> int:
        """The best line or row against the nash bot's equilibrium mix for this fight."""
        role, rank, length, caps = fight_key(request)
        best_line, best_row = best_responses(rank, length, caps)
        if role == "attacker":
            return request.legal.index(attack_lines(rank)[best_line])
        if role == "defender":
            row = parry_rows(length, caps)[best_row].row
            laid = laid_so_far(request)
            nxt = PARRIES[PARRY_TYPES.index(row[len(laid)])]
            return request.legal.index(nxt) if row[: len(laid)] == laid else 0
        raise ValueError(f"best_response bot asked to act with role {role!r}")


# With no `ms` in the spec a fixed count, so a match stays a pure function of its seed. A count
# that costs about 50 ms at rank 4 here (162 lines x 426 rows) and leaves the mix within a few
# points of the game value (tests/maitre_ninja/test_mn_regret.py measures how close).
REGRET_ITERATIONS = 300


@dataclass(frozen=True)
class RegretMix:
    """What a regret-matching run found: each side's average strategy and the work it took.

    attacker_probs: one probability per line of `attack_lines(rank)`; defender_probs: one per
    `distinct_rows` entry; iterations: how many rounds of play it averaged.
    """

    attacker_probs: tuple[float, ...]
    defender_probs: tuple[float, ...]
    iterations: int


def regret_match(rank: int, length: int, caps: tuple[int, ...], iterations: int | None, budget: Budget) -> RegretMix:
    """Approach the fight's equilibrium by regret matching+ with alternating updates.

    Each round both sides play their regret-matched strategy against the other's current one;
    the average over rounds (weighted by round number, which converges faster) is the answer.
    It stops after `iterations` rounds or when `budget` is spent, whichever is first, and always
    plays at least one round. The same count gives the same mix: nothing here is random.
    """
    import numpy as np

    win = np.array(win_matrix(rank, length, caps))
    n_lines, n_rows = win.shape
    regret_a = np.zeros(n_lines)
    regret_d = np.zeros(n_rows)
    avg_a = np.zeros(n_lines)
    avg_d = np.zeros(n_rows)
    sigma_d = np.full(n_rows, 1.0 / n_rows)
    done = 0
    while done == 0 or ((iterations is None or done < iterations) and not budget.spent()):
        done += 1
        sigma_a = _matched(regret_a)
        line_values = win @ sigma_d  # each line's win chance against the current defence
        regret_a = np.maximum(regret_a + line_values - sigma_a @ line_values, 0.0)
        sigma_a = _matched(regret_a)
        row_values = 1.0 - sigma_a @ win  # each row's hold chance against the current attack
        regret_d = np.maximum(regret_d + row_values - sigma_d @ row_values, 0.0)
        avg_a += done * sigma_a
        avg_d += done * sigma_d
        sigma_d = _matched(regret_d)
    return RegretMix(_clean([float(p) for p in avg_a]), _clean([float(p) for p in avg_d]), done)


def _draw(rng: random.Random, weights: Sequence[float]) -> int:
    """An index drawn in proportion to `weights` (not cached: a timed search's mixes never repeat)."""
    return rng.choices(range(len(weights)), weights=weights)[0]


def _matched(regret: Any) -> Any:
    """Play in proportion to positive regret; uniformly when no action has any."""
    total = float(regret.sum())
    return regret / total if total > 0 else regret * 0.0 + 1.0 / len(regret)


class RegretBot:
    """The anytime fight search: regret matching+ on each fight's matrix game, within its budget."""

    DESCRIPTION: ClassVar[str] = ("anytime search of each fight (hidden line vs parry row) by regret matching+ "
                                  "over merged rows; stops on `ms` or `iterations`")
    OPTIONS: ClassVar[tuple[BotOption, ...]] = (
        *anytime_options(REGRET_ITERATIONS, "regret-matching rounds per fight: deterministic for a seed",
                         per="a fight"),
    )

    def __init__(self, seed: int = 0, ms: float | None = None, iterations: int | None = None,
                 clock: Clock = default_clock) -> None:
        self.rng = random.Random(seed)
        self.iterations = fixed_iterations("regret", ms, iterations, REGRET_ITERATIONS)
        self.ms = ms
        self.clock = clock
        # The row this bot chose for the fight it is defending: (fight number, row), laid card by card.
        self.plan: tuple[int, tuple[str, ...]] | None = None
        self.last_mix: RegretMix | None = None
        self.last_iterations = 0  # rounds the last search played (what an `ms` budget affords)

    def _search(self, request: DecisionRequest, rank: int, length: int, caps: tuple[int, ...]) -> RegretMix:
        budget = Budget(self.clock, self.ms, request.deadline_s)
        self.last_mix = regret_match(rank, length, caps, self.iterations, budget)
        self.last_iterations = self.last_mix.iterations
        return self.last_mix

    def act(self, request: DecisionRequest) -> int:
        """Attacker: a line drawn from the searched mix. Defender: a whole row drawn at its first
        card (from the rows agreeing with any cards already laid), then laid card by card."""
        role, rank, length, caps = fight_key(request)
        if role == "attacker":
            mix = self._search(request, rank, length, caps)
            return request.legal.index(attack_lines(rank)[_draw(self.rng, mix.attacker_probs)])
        if role != "defender":
            raise ValueError(f"regret bot asked to act with role {role!r}")
        fight = int(request.observation["fight_number"])
        laid = laid_so_far(request)
        if self.plan is None or self.plan[0] != fight or self.plan[1][: len(laid)] != laid:
            self.plan = self._plan_row(request, fight, laid, rank, length, caps)
        if self.plan is None:  # no row of the mix begins this way (another bot began it): any legal parry
            return self.rng.randrange(len(request.legal))
        return request.legal.index(PARRIES[PARRY_TYPES.index(self.plan[1][len(laid)])])

    def _plan_row(self, request: DecisionRequest, fight: int, laid: tuple[str, ...], rank: int, length: int,
                  caps: tuple[int, ...]) -> tuple[int, tuple[str, ...]] | None:
        mix = self._search(request, rank, length, caps)
        rows = parry_rows(length, caps)
        kept = distinct_rows(rank, length, caps)
        options = [(rows[r].row, p) for (_, r), p in zip(kept, mix.defender_probs, strict=True)
                   if p > 0 and rows[r].row[: len(laid)] == laid]
        if not options:
            return None
        pick = _draw(self.rng, [p for _, p in options])
        return fight, options[pick][0]


__all__ = ["BestResponseBot", "FightSolution", "NashBot", "RegretBot", "regret_match", "solve_fight", "warm_up"]
