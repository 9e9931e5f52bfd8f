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
    if len(skills) == 2:
        return _rate_two(skills, ranks)
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


def _rate_two(skills: Sequence[tuple[float, float]], ranks: Sequence[float]) -> list[tuple[float, float]]:
    """rate_match for two seats, the loops unrolled: the same operations in the same order (a sum that
    starts from 0.0 starts from its first term, which is the same float), at a third of the cost; a run of
    short duels rates every match at its end (issue 32)."""
    a, b = (0, 1) if ranks[0] <= ranks[1] else (1, 0)  # the stable sort of two
    tau_squared = TAU * TAU
    sigma_a = math.sqrt(skills[a][1] * skills[a][1] + tau_squared)
    sigma_b = math.sqrt(skills[b][1] * skills[b][1] + tau_squared)
    variance_a, variance_b = sigma_a ** 2, sigma_b ** 2
    beta_squared = BETA ** 2
    c = math.sqrt((variance_a + beta_squared) + (variance_b + beta_squared))
    strength_a, strength_b = math.exp(skills[a][0] / c), math.exp(skills[b][0] / c)
    both = strength_a + strength_b
    tie = int(ranks[a]) == int(ranks[b])
    rated: list[tuple[float, float]] = [(0.0, 0.0), (0.0, 0.0)]
    if tie:  # each seat is ranked with the other in both terms, each divided by the tie's size
        share_a, share_b = strength_a / both, strength_b / both
        omega_a = (1 - share_a) / 2 - share_a / 2
        delta_a = share_a * (1 - share_a) / 2 + share_a * (1 - share_a) / 2
        omega_b = -(share_b / 2) + (1 - share_b) / 2
        delta_b = share_b * (1 - share_b) / 2 + share_b * (1 - share_b) / 2
    else:  # the winner's only term is the whole field; the loser's are the field and itself alone
        share_a = strength_a / both
        omega_a = (1 - share_a) / 1
        delta_a = share_a * (1 - share_a) / 1
        share_b, alone = strength_b / both, strength_b / strength_b
        omega_b = -(share_b / 1) + (1 - alone) / 1
        delta_b = share_b * (1 - share_b) / 1 + alone * (1 - alone) / 1
    for seat, mu, sigma, variance, omega, delta in ((a, skills[a][0], sigma_a, variance_a, omega_a, delta_a),
                                                    (b, skills[b][0], sigma_b, variance_b, omega_b, delta_b)):
        omega *= variance / c
        delta *= variance / c ** 2
        delta *= math.sqrt(variance) / c
        rated[seat] = (mu + omega, sigma * math.sqrt(max(1 - delta, KAPPA)))
    return rated
