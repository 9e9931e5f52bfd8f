"""SPRT on pentanomial pair counts: LLR values checked against independent computations."""

from __future__ import annotations

import math

import pytest
from scipy.optimize import minimize

from tourney.tournament.rating.sprt import SCORES, bounds, expected_score, llr, pentanomial, sprt


def approx_llr(counts: list[int], elo0: float, elo1: float) -> float:
    """The closed-form GSPRT approximation: N (s1 - s0) (2 mean - s0 - s1) / (2 var)."""
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, SCORES, strict=True)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, SCORES, strict=True)) / n
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def exact_by_optimizer(counts: list[int], elo0: float, elo1: float) -> float:
    """max log-likelihood with mean s1 minus that with mean s0, by a general-purpose optimiser."""
    def best(s: float) -> float:
        def neg(p):
            return -sum(c * math.log(max(q, 1e-300)) for c, q in zip(counts, p, strict=True))
        cons = [{"type": "eq", "fun": lambda p: sum(p) - 1},
                {"type": "eq", "fun": lambda p: sum(q * x for q, x in zip(p, SCORES, strict=True)) - s}]
        start = [c / sum(counts) for c in counts]
        res = minimize(neg, start, constraints=cons, bounds=[(1e-12, 1)] * 5, method="SLSQP",
                       options={"ftol": 1e-14, "maxiter": 500})
        return -res.fun
    return best(expected_score(elo1)) - best(expected_score(elo0))


@pytest.mark.parametrize("counts", [[80, 200, 400, 220, 100], [30, 120, 300, 150, 40], [5, 40, 100, 60, 15]])
def test_llr_matches_an_independent_optimiser_and_the_approximation(counts):
    got = llr(counts, 0, 5)
    assert got == pytest.approx(exact_by_optimizer(counts, 0, 5), abs=1e-4)
    assert got == pytest.approx(approx_llr(counts, 0, 5), rel=0.05)  # close to the hypotheses, they agree


def test_known_values():
    # Hand-computed with the approximation (exact to <0.5% here): mean 0.515, variance 0.071025,
    # s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.507195; LLR = 1000 * 0.007195 * 0.022805 / 0.14205.
    assert llr([80, 200, 400, 220, 100], 0, 5) == pytest.approx(1.1551, abs=0.005)
    # A symmetric result sits exactly between symmetric hypotheses.
    assert llr([50, 100, 200, 100, 50], -5, 5) == pytest.approx(0.0, abs=1e-9)
    assert bounds(0.05, 0.05) == pytest.approx((-math.log(19), math.log(19)))


def test_verdicts_and_counts():
    assert sprt([0, 0, 20, 120, 60], 0, 10).verdict == "H1"
    assert sprt([60, 120, 20, 0, 0], 0, 10).verdict == "H0"
    assert sprt([1, 2, 3, 2, 1], 0, 10).verdict == "continue"
    assert pentanomial([0, 0.5, 1, 1.5, 2, 2]) == [1, 1, 1, 1, 2]
    with pytest.raises(ValueError):
        sprt([1, 1, 1, 1, 1], 5, 0)
