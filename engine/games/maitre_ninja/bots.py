"""Maître Ninja's own bots: `nash` (equilibrium mixed strategy per fight) and `best_response`.

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
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from typing import ClassVar

from engine.core import BotOption, DecisionRequest
from engine.games.maitre_ninja.actions import PARRIES, attack_lines, iter_rows, parry_rows
from engine.games.maitre_ninja.data import (
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
    """Solve the fight at `rank` (rows of `length` parries under supply `caps`) by linear programming.

    Rows with the same answers are merged and rows beating a subset of another row's lines are
    dropped first: neither changes the value, and every kept row is a real legal row.
    """
    import numpy as np
    from scipy.optimize import linprog

    n_lines = len(attack_lines(rank))
    masks = row_masks(rank, length, caps)
    first_row: dict[int, int] = {}
    for r, mask in enumerate(masks):
        first_row.setdefault(mask, r)
    kept: list[int] = []
    for mask in sorted(first_row, key=lambda mk: (-mk.bit_count(), first_row[mk])):
        if not any(mask | k == k for k in kept):
            kept.append(mask)
    kept.sort(key=lambda mk: first_row[mk])
    # win[a, k] = 1 when line a beats kept row k.
    win = np.array([[0.0 if (mk >> a) & 1 else 1.0 for mk in kept] for a in range(n_lines)])
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
        rows=tuple(first_row[kept[k]] for k in support),
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


__all__ = ["BestResponseBot", "FightSolution", "NashBot", "solve_fight", "warm_up"]
