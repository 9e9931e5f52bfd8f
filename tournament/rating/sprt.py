"""Sequential probability ratio test on duplicate pairs (pentanomial), as fishtest does.

A duplicate pair is two games on the same seed with seats swapped; the challenger scores
0, 0.5, 1, 1.5 or 2 points over the pair, so pairs fall into five classes. Playing pairs
cancels most of the luck of the deal, and treating the pair (not the game) as the unit keeps
the test honest, because the two games of a pair are correlated.

The log-likelihood ratio is the generalised SPRT: under each hypothesis the pentanomial
distribution closest to the observed one is found by maximum likelihood, and the LLR is N
times the difference of their log-likelihoods. The test stops when the LLR leaves
[log(β/(1−α)), log((1−β)/α)]. Two Elo scales, as fishtest offers:

- logistic: a hypothesis fixes the expected score, s = 1/(1 + 10^(−elo/400)); the constrained
  maximum has a closed form up to one Lagrange multiplier (solved by bisection).
- normalized: a hypothesis fixes the t-value (μ − ½)/σ of the per-game score, t = nelo·ln10/800
  (times √2 for a pair, whose score is the mean of two games). Normalized Elo does not depend
  on the draw rate, so the same bounds mean the same effort in drawish and decisive games.
  The maximum is found by fixed-point iteration: with μ and σ of the current guess, the
  constraint is linear in the probabilities and has the same one-multiplier solution.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # pair points / 2 for the five classes
ELO_SCALES = ("logistic", "normalized")
NELO_PER_T = 800.0 / math.log(10.0)  # normalized Elo per unit of per-game t-value
EMPTY_CLASS = 1e-3  # an empty class counts as this many pairs, as fishtest regularises
# The largest Elo difference a test may name: 4,000 Elo is a 99.99% score; not far past it (about 7,000)
# a float score rounds to 1 and the likelihood has no maximum inside (0, 1).
MAX_SPRT_ELO = 4000.0


def expected_score(elo: float) -> float:
    """The logistic expected score of an Elo difference."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds (lower accepts H0, upper accepts H1)."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _mle(probs: Sequence[float], scores: Sequence[float], s: float) -> list[float]:
    """The distribution with mean s that maximises the likelihood of the observed `probs`."""
    q = _tilt(probs, [x - s for x in scores])
    # A mean strictly inside (0, 1) always straddles the scores 0 and 1, whose classes are never empty.
    assert q is not None
    return q


def _tilt(probs: Sequence[float], d: Sequence[float]) -> list[float] | None:
    """The distribution q maximising Σ p_i log q_i subject to Σ q_i d_i = 0, or None if there is none.

    It is p_i / (1 + θ d_i) with θ solving Σ p_i d_i / (1 + θ d_i) = 0 (one Lagrange multiplier, the
    "secular equation"). That has a root only when the d_i straddle zero; otherwise no distribution
    meets the constraint.
    """
    if all(di >= 0 for di in d) or all(di <= 0 for di in d):
        return None
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


def _mle_t(probs: Sequence[float], scores: Sequence[float], t: float) -> list[float]:
    """The distribution with t-value (μ − ½)/σ = t that maximises the likelihood of `probs`.

    With μ, σ taken from the current guess, μ − ½ − tσ = 0 is approximated to first order in
    the probabilities by Σ q_i (x_i − ½ − tσ (1 + ((x_i − μ)/σ)²)/2) = 0, solved as in `_tilt`;
    repeating from the new guess converges to the constrained maximum (fishtest's method).

    From a guess far from the answer (the uniform start, when the data lie far from t) the
    linearised constraint can have every coefficient of one sign: that secular equation has no
    root and the iteration has nowhere to go. Then, and if it does not settle, the maximum is
    found by `_mle_t_profiled` instead.
    """
    q = [1.0 / len(probs)] * len(probs)
    for _ in range(100):
        mu = sum(qi * x for qi, x in zip(q, scores, strict=True))
        sigma = math.sqrt(sum(qi * (x - mu) ** 2 for qi, x in zip(q, scores, strict=True)))
        d = [x - 0.5 - t * sigma * (1.0 + ((x - mu) / sigma) ** 2) / 2.0 for x in scores]
        new = _tilt(probs, d)
        if new is None:
            return _mle_t_profiled(probs, scores, t)
        if max(abs(a - b) for a, b in zip(new, q, strict=True)) < 1e-13:
            return new
        q = new
    return _mle_t_profiled(probs, scores, t)


# Where in each gap between neighbouring scores a mean is tried before the best is refined.
PROFILE_POINTS = (1e-6, 1e-4, 1e-2, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1 - 1e-4, 1 - 1e-6)


def _mle_t_profiled(probs: Sequence[float], scores: Sequence[float], t: float) -> list[float]:
    """The t-value-constrained maximum by profiling the mean: exact wherever a root exists.

    Fixing the mean m fixes σ = (m − ½)/t, and both are linear constraints on q, so each m has a
    unique concave maximum (`_tilt_two`). The mean is then chosen by a grid over the means that
    t allows (above ½ for t > 0, below for t < 0), refined by golden section around the best;
    the best mean tried is kept, so a probe outside the band that fits cannot lose it.
    """
    if t == 0.0:
        q = _tilt(probs, [x - 0.5 for x in scores])
        assert q is not None  # ½ lies strictly between the scores 0 and 1
        return q
    lo, hi = (0.5, max(scores)) if t > 0 else (min(scores), 0.5)

    ordered = sorted(scores)

    def fit(m: float) -> tuple[float, list[float] | None]:
        var = ((m - 0.5) / t) ** 2
        # With mean m the variance lies between that of the two neighbouring scores and that of
        # the two extremes; outside, no distribution fits (skip the solver's run-off).
        below = max(x for x in ordered if x <= m)
        above = min(x for x in ordered if x >= m)
        if not (m - below) * (above - m) < var < (m - ordered[0]) * (ordered[-1] - m):
            return -math.inf, None
        q = _tilt_two(probs, [x - m for x in scores], [(x - m) ** 2 - var for x in scores])
        if q is None:
            return -math.inf, None
        return sum(p * math.log(qi) for p, qi in zip(probs, q, strict=True)), q

    # Means tried first: in each gap between neighbouring scores, points ever closer to both ends,
    # since near a score the least variance goes to 0 and a large t leaves only a thin band there.
    ends = sorted({lo, hi} | {x for x in scores if lo < x < hi})
    grid = sorted({x + (y - x) * u for x, y in itertools.pairwise(ends) for u in PROFILE_POINTS})
    tried = [(fit(m)[0], m) for m in grid]
    best_f, best_m = max(tried)
    if best_f == -math.inf:
        raise ValueError(f"no distribution over the scores has t-value {t}")
    k = grid.index(best_m)
    a, b = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    golden = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(60):  # 0.618^60 of the bracket: far below any printed digit
        c, d = b - golden * (b - a), a + golden * (b - a)
        (fc, _), (fd, _) = fit(c), fit(d)
        for f, m in ((fc, c), (fd, d)):
            if f > best_f:
                best_f, best_m = f, m
        if fc == fd == -math.inf:  # both outside the band that fits: close in on the best mean seen
            a, b = (a, c) if best_m <= c else (d, b) if best_m >= d else (c, d)
        elif fc >= fd:
            b = d
        else:
            a = c
    q = fit(best_m)[1]
    assert q is not None  # best_m fitted when it was tried
    return q


def _tilt_two(probs: Sequence[float], u: Sequence[float], w: Sequence[float]) -> list[float] | None:
    """The distribution q maximising Σ p_i log q_i subject to Σ q_i u_i = 0 and Σ q_i w_i = 0, or None.

    It is p_i / (1 + a u_i + b w_i), with (a, b) minimising the convex dual −Σ p_i log(1 + a u_i + b w_i);
    damped Newton steps from (0, 0) stay where every 1 + a u_i + b w_i is positive. When no
    distribution meets both constraints the dual falls without bound: the steps run off and
    the would-be q sums to nearly nothing, which is how that case is told apart.
    """

    def dual(a: float, b: float) -> float:
        r = [1.0 + a * ui + b * wi for ui, wi in zip(u, w, strict=True)]
        if min(r) <= 0.0:
            return math.inf
        return -sum(p * math.log(ri) for p, ri in zip(probs, r, strict=True))

    a = b = 0.0
    for _ in range(100):
        r = [1.0 + a * ui + b * wi for ui, wi in zip(u, w, strict=True)]
        ga = -sum(p * ui / ri for p, ui, ri in zip(probs, u, r, strict=True))
        gb = -sum(p * wi / ri for p, wi, ri in zip(probs, w, r, strict=True))
        haa = sum(p * ui * ui / ri**2 for p, ui, ri in zip(probs, u, r, strict=True))
        hab = sum(p * ui * wi / ri**2 for p, ui, wi, ri in zip(probs, u, w, r, strict=True))
        hbb = sum(p * wi * wi / ri**2 for p, wi, ri in zip(probs, w, r, strict=True))
        det = haa * hbb - hab * hab
        if det <= 0.0:
            return None
        da, db = -(hbb * ga - hab * gb) / det, -(haa * gb - hab * ga) / det
        if -(ga * da + gb * db) < 1e-18:
            break  # the Newton decrement: the dual is within 1e-18 of its minimum (rounding is near 1e-22)
        # Start from the longest step that keeps every 1 + a u_i + b w_i positive.
        shrink = min([1.0] + [-0.99 * ri / dz for ri, ui, wi in zip(r, u, w, strict=True)
                              if (dz := da * ui + db * wi) < 0.0])
        now = dual(a, b)
        while dual(a + shrink * da, b + shrink * db) > now + 0.25 * shrink * (ga * da + gb * db):
            shrink /= 2.0
            if shrink < 1e-4:
                break  # no real progress left in floating point: the minimum to rounding, or a run-off
        else:
            a, b = a + shrink * da, b + shrink * db
            continue
        break
    q = [p / (1.0 + a * ui + b * wi) for p, ui, wi in zip(probs, u, w, strict=True)]
    total = sum(q)
    if abs(total - 1.0) > 1e-6:
        return None
    return [qi / total for qi in q]


def llr(pentanomial: Sequence[int], elo0: float, elo1: float, scale: str = "logistic") -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for pair counts [LL, LD, DD/WL, WD, WW].

    `scale` says what elo0 and elo1 are: "logistic" or "normalized" Elo.
    """
    if len(pentanomial) != 5:
        raise ValueError("the pentanomial needs five counts")
    if scale not in ELO_SCALES:
        raise ValueError(f"the Elo scale is logistic or normalized, not {scale!r}")
    n = sum(pentanomial)
    if n == 0:
        return 0.0
    # Regularise empty classes as fishtest does, so a short run cannot be certain of anything.
    counts = [c if c > 0 else EMPTY_CLASS for c in pentanomial]
    total = sum(counts)
    probs = [c / total for c in counts]
    if scale == "logistic":
        s0, s1 = expected_score(elo0), expected_score(elo1)
        p0, p1 = _mle(probs, SCORES, s0), _mle(probs, SCORES, s1)
    else:
        # A pair's score is the mean of two games: its σ is the per-game σ / √2, so its t is √2 times larger.
        t0, t1 = (math.sqrt(2.0) * e / NELO_PER_T for e in (elo0, elo1))
        p0, p1 = _mle_t(probs, SCORES, t0), _mle_t(probs, SCORES, t1)
    return total * sum(p * math.log(q1 / q0) for p, q0, q1 in zip(probs, p0, p1, strict=True) if p > 0)


@dataclass(frozen=True)
class SprtState:
    """Where the test stands: LLR, its bounds, and the verdict so far."""

    llr: float
    lower: float
    upper: float
    pairs: int
    pentanomial: tuple[int, ...]
    scale: str = "logistic"

    @property
    def verdict(self) -> str:
        """'H1' (elo1 accepted: the challenger is better), 'H0' (rejected), or 'continue'."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return "continue"


def sprt(pentanomial: Sequence[int], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
         scale: str = "logistic") -> SprtState:
    """Evaluate the test on the pair counts so far (elo0, elo1 on the `scale` Elo scale)."""
    if not elo0 < elo1:
        raise ValueError("elo0 must be below elo1")
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError("alpha and beta must lie strictly between 0 and 1")
    lower, upper = bounds(alpha, beta)
    return SprtState(llr(pentanomial, elo0, elo1, scale), lower, upper, sum(pentanomial), tuple(pentanomial), scale)


def explain(elo0: float, elo1: float, alpha: float, beta: float, scale: str = "logistic") -> str:
    """What the test decides, in words for the organiser comparing a new bot with an old one."""
    lower, upper = bounds(alpha, beta)
    unit = "normalized Elo" if scale == "normalized" else "Elo"
    return (f"H0: the new bot is at most {elo0:g} {unit} better than the old one. "
            f"H1: it is at least {elo1:g} {unit} better. "
            f"After each batch of duplicate pairs the log-likelihood ratio (LLR) says how much more the results "
            f"favour H1 than H0: at or above {upper:.2f} the test accepts H1 (wrongly at most {100 * alpha:g}% "
            f"of the time if H0 holds), at or below {lower:.2f} it accepts H0 (wrongly at most {100 * beta:g}% "
            f"of the time if H1 holds); in between it plays on.")


def pentanomial(pair_points: Sequence[float]) -> list[int]:
    """Count pairs by the challenger's points over the pair (0, 0.5, 1, 1.5, 2)."""
    counts = [0] * 5
    for p in pair_points:
        counts[min(4, max(0, round(p * 2)))] += 1
    return counts
