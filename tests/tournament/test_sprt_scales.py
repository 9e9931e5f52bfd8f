"""SPRT in fishtest's two Elo scales: the normalized LLR against values computed independently."""

from __future__ import annotations

import math

import pytest
from scipy.optimize import minimize

from tourney.tournament.rating.sprt import SCORES, explain, llr, sprt


def constrained_max(counts: list[float], constraint) -> float:
    """max Σ c_i log q_i over distributions q with constraint(q) = 0, by a general-purpose optimiser."""
    def neg(p):
        return -sum(c * math.log(max(q, 1e-300)) for c, q in zip(counts, p, strict=True))
    cons = [{"type": "eq", "fun": lambda p: sum(p) - 1}, {"type": "eq", "fun": constraint}]
    start = [c / sum(counts) for c in counts]
    res = minimize(neg, start, constraints=cons, bounds=[(1e-12, 1)] * 5, method="SLSQP",
                   options={"ftol": 1e-15, "maxiter": 1000})
    assert res.success, res.message
    return -res.fun


def normalized_by_optimizer(counts: list[int], nelo0: float, nelo1: float) -> float:
    """fishtest's published definition: per-game t = nelo·ln10/800, a pair's t is √2 times it; the GSPRT maximises
    the likelihood subject to (μ − ½)/σ = t under each hypothesis (empty classes count 0.001)."""
    reg = [c if c else 1e-3 for c in counts]

    def best(nelo: float) -> float:
        t = math.sqrt(2) * nelo * math.log(10) / 800

        def t_gap(p):
            mu = sum(q * x for q, x in zip(p, SCORES, strict=True))
            sd = math.sqrt(sum(q * (x - mu) ** 2 for q, x in zip(p, SCORES, strict=True)))
            return mu - 0.5 - t * sd
        return constrained_max(reg, t_gap)
    return best(nelo1) - best(nelo0)


def normalized_approximation(counts: list[int], nelo0: float, nelo1: float) -> float:
    """The closed form of "normalized Elo, practical" §4.2: (games/2) ln((1+(t−t0)²)/(1+(t−t1)²))."""
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, SCORES, strict=True)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, SCORES, strict=True)) / n
    sigma_game = math.sqrt(2 * var)
    t = (mean - 0.5) / sigma_game
    t0, t1 = (e * math.log(10) / 800 for e in (nelo0, nelo1))
    return n * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))


@pytest.mark.parametrize("counts", [[80, 200, 400, 220, 100], [30, 120, 300, 150, 40], [5, 40, 100, 60, 15],
                                    [0, 10, 50, 30, 12]])
@pytest.mark.parametrize(("nelo0", "nelo1"), [(0, 5), (-3, 2), (0, 20)])
def test_normalized_llr_equals_an_independent_optimiser(counts, nelo0, nelo1):
    got = llr(counts, nelo0, nelo1, "normalized")
    assert got == pytest.approx(normalized_by_optimizer(counts, nelo0, nelo1), abs=2e-4)
    assert got == pytest.approx(normalized_approximation(counts, nelo0, nelo1), rel=0.1, abs=0.05)


# Far from the uniform start (small samples, every pair won or drawn), fishtest's fixed-point
# iteration meets a secular equation with no root; the test must still maximise the likelihood.
@pytest.mark.parametrize(("counts", "nelo0", "nelo1"), [([0, 0, 4, 0, 4], 100, 300), ([1, 0, 6, 0, 9], 100, 300),
                                                        ([0, 0, 3, 0, 5], 50, 250), ([0, 1, 2, 0, 6], 0, 400),
                                                        ([6, 0, 4, 0, 0], -300, -100), ([0, 0, 0, 0, 5], 0, 3000),
                                                        ([5, 0, 0, 0, 0], -3000, 0)])
def test_normalized_llr_is_the_constrained_maximum_where_the_secular_equation_has_no_root(counts, nelo0, nelo1):
    got = llr(counts, nelo0, nelo1, "normalized")
    assert got == pytest.approx(normalized_by_optimizer(counts, nelo0, nelo1), abs=1e-4)


def test_data_that_favour_h1_do_not_accept_h0_after_a_few_pairs():
    """The issue's gauntlet: half the pairs split, half won twice, against bounds 100/300."""
    state = sprt([0, 0, 4, 0, 4], 100, 300, scale="normalized")
    assert state.llr > 0
    assert state.verdict == "continue"

def test_the_scales_differ_and_a_drawish_result_weighs_more_in_normalized_elo():
    drawish, decisive = [2, 60, 400, 70, 3], [100, 20, 290, 40, 120]  # about the same mean score
    assert llr(drawish, 0, 5) != pytest.approx(llr(drawish, 0, 5, "normalized"), abs=1e-3)
    # Same mean, smaller spread: the same normalized margin is more surely passed by the drawish bot.
    ratio_drawish = llr(drawish, 0, 5, "normalized") / llr(drawish, 0, 5)
    ratio_decisive = llr(decisive, 0, 5, "normalized") / llr(decisive, 0, 5)
    assert ratio_drawish != pytest.approx(ratio_decisive, rel=0.05)
    assert sprt([0, 0, 20, 120, 60], 0, 10, scale="normalized").verdict == "H1"
    assert sprt([60, 120, 20, 0, 0], 0, 10, scale="normalized").verdict == "H0"
    with pytest.raises(ValueError, match="logistic or normalized"):
        llr([1, 1, 1, 1, 1], 0, 5, "bayes")


def test_the_explanation_names_the_hypotheses_and_the_bounds():
    text = explain(0, 5, 0.05, 0.1, "normalized")
    assert "H0: the new bot is at most 0 normalized Elo better" in text
    assert "H1: it is at least 5 normalized Elo better" in text
    assert f"{math.log(0.9 / 0.05):.2f}" in text and f"{math.log(0.1 / 0.95):.2f}" in text
