"""One Plackett-Luce rating update on plain floats: openskill's `PlackettLuce().rate` for one-player teams.

openskill (6.x) deep-copies every rating object and draws a uuid4 for each new one on every call,
about 20-30 us a match: at the end of a run of short matches that was a fifth of what the loop
costs beyond playing them (issue 32). This is the same arithmetic (Weng and Lin's Algorithm 4,
with openskill's defaults: no weights, scores, balance or sigma limit), in the same order of
operations, so it gives bit-identical ratings; tests/tournament/test_plackett_luce.py checks that
against openskill itself on many random matches.

Two of openskill's quirks are kept because the stored ratings depend on them: teams are taken in
order of rank (a stable sort), which fixes the order of every sum; and tied teams keep their own
mean change (openskill's averaging of a tie compares each rating with itself, so it changes nothing).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0


def rate_match(skills: Sequence[tuple[float, float]], ranks: Sequence[float]) -> list[tuple[float, float]]:
    """The (mu, sigma) of each seat after one match in which seat i, rated skills[i], finished ranks[i]
    (lower is better, equal is a tie); in seat order."""
    order = sorted(range(len(skills)), key=ranks.__getitem__)  # stable, as openskill sorts
    tau_squared = TAU * TAU
    sigmas = [math.sqrt(skills[i][1] * skills[i][1] + tau_squared) for i in order]
    mus = [skills[i][0] for i in order]
    tiers = [int(ranks[i]) for i in order]
    variances = [s ** 2 for s in sigmas]
    beta_squared = BETA ** 2
    collective = 0.0
    for v in variances:
        collective += v + beta_squared
    c = math.sqrt(collective)
    strengths = [math.exp(mu / c) for mu in mus]
    # below[q]: the strengths of every team ranked at q's tier or below, summed in team order.
    below = [0.0 for _ in tiers]
    for q, tier_q in enumerate(tiers):
        for i, tier_i in enumerate(tiers):
            if tier_i >= tier_q:
                below[q] += strengths[i]
    tied = [tiers.count(t) for t in tiers]
    rated: list[tuple[float, float]] = [(0.0, 0.0)] * len(order)
    for i, tier_i in enumerate(tiers):
        omega = 0.0
        delta = 0.0
        strength = strengths[i]
        for q, tier_q in enumerate(tiers):
            share = strength / below[q]
            if tier_q <= tier_i:
                delta += share * (1 - share) / tied[q]
                if q == i:
                    omega += (1 - share) / tied[q]
                else:
                    omega -= share / tied[q]
        variance = variances[i]
        omega *= variance / c
        delta *= variance / c ** 2
        delta *= math.sqrt(variance) / c  # openskill's default gamma
        # openskill scales both by (a player's variance / its team's), exactly 1.0 for one-player teams.
        rated_sigma = sigmas[i] * math.sqrt(max(1 - delta, KAPPA))
        rated[order[i]] = (mus[i] + omega, rated_sigma)
    return rated
