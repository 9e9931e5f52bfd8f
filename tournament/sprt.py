"""Sequential probability ratio test on duplicate pairs (pentanomial), as fishtest does.

A duplicate pair is two games on the same seed with seats swapped; the challenger scores
0, 0.5, 1, 1.5 or 2 points over the pair, so pairs fall into five classes. Playing pairs
cancels most of the luck of the deal, and treating the pair (not the game) as the unit keeps
the test honest, because the two games of a pair are correlated.

The log-likelihood ratio is the generalised SPRT: under each hypothesis (expected score s0 or
s1, from elo0 and elo1 on the logistic scale) the pentanomial distribution closest to the
observed one with that mean is found by maximum likelihood (a Lagrange multiplier, solved by
bisection), and the LLR is N times the difference of their log-likelihoods. The test stops
when the LLR leaves [log(β/(1−α)), log((1−β)/α)].
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # pair points / 2 for the five classes


def expected_score(elo: float) -> float:
    """The logistic expected score of an Elo difference."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds (lower accepts H0, upper accepts H1)."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _mle(probs: Sequence[float], scores: Sequence[float], s: float) -> list[float]:
    """The distribution with mean s that maximises the likelihood of the observed `probs`.

    It is p_i / (1 + θ (x_i − s)) with θ solving Σ p_i (x_i − s) / (1 + θ (x_i − s)) = 0.
    """
    d = [x - s for x in scores]
    # 1 + θ d_i must stay positive for every class (all probabilities are positive here).
    lo = max((-1.0 / di for di in d if di > 0), default=-1e9)
    hi = min((-1.0 / di for di in d if di < 0), default=1e9)
    # f(θ) is decreasing on (lo, hi); shrink the ends a hair to stay off the poles.
    eps = 1e-12
    lo, hi = lo + eps * max(1.0, abs(lo)), hi - eps * max(1.0, abs(hi))

    def f(theta: float) -> float:
        return sum(p * di / (1.0 + theta * di) for p, di in zip(probs, d, strict=True) )

    for _ in range(200):
        mid = (lo + hi) / 2.0
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    theta = (lo + hi) / 2.0
    return [p / (1.0 + theta * di) for p, di in zip(probs, d, strict=True)]


def llr(pentanomial: Sequence[int], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for pair counts [LL, LD, DD/WL, WD, WW]."""
    if len(pentanomial) != 5:
        raise ValueError("the pentanomial needs five counts")
    n = sum(pentanomial)
    if n == 0:
        return 0.0
    # Regularise empty classes as fishtest does, so a short run cannot be certain of anything.
    counts = [c if c > 0 else 1e-3 for c in pentanomial]
    total = sum(counts)
    probs = [c / total for c in counts]
    s0, s1 = expected_score(elo0), expected_score(elo1)
    p0, p1 = _mle(probs, SCORES, s0), _mle(probs, SCORES, s1)
    return total * sum(p * math.log(q1 / q0) for p, q0, q1 in zip(probs, p0, p1, strict=True) if p > 0)


@dataclass(frozen=True)
class SprtState:
    """Where the test stands: LLR, its bounds, and the verdict so far."""

    llr: float
    lower: float
    upper: float
    pairs: int
    pentanomial: tuple[int, ...]

    @property
    def verdict(self) -> str:
        """'H1' (elo1 accepted: the challenger is better), 'H0' (rejected), or 'continue'."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return "continue"


def sprt(pentanomial: Sequence[int], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> SprtState:
    """Evaluate the test on the pair counts so far."""
    if not elo0 < elo1:
        raise ValueError("elo0 must be below elo1")
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError("alpha and beta must lie strictly between 0 and 1")
    lower, upper = bounds(alpha, beta)
    return SprtState(llr(pentanomial, elo0, elo1), lower, upper, sum(pentanomial), tuple(pentanomial))


def pentanomial(pair_points: Sequence[float]) -> list[int]:
    """Count pairs by the challenger's points over the pair (0, 0.5, 1, 1.5, 2)."""
    counts = [0] * 5
    for p in pair_points:
        counts[min(4, max(0, round(p * 2)))] += 1
    return counts
