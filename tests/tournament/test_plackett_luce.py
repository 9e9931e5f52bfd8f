"""Our Plackett-Luce update on plain floats gives openskill's ratings bit for bit.

Stored ratings (the golden tournaments, every league's carried skills, the ladder) were made by
openskill's PlackettLuce; the float version replaces it only because it is the same numbers
without openskill's per-call deep copies, so every comparison here is exact (==), not approximate.
"""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from tourney.tournament.rating.plackett_luce import rate_match
from tourney.tournament.rating.ratings import Skill, initial_skill, openskill_ratings
from tourney.tournament.rating.standings import StandingSeat


def openskill_rate(skills: list[tuple[float, float]], ranks: list[float]) -> list[tuple[float, float]]:
    """The reference: openskill's own update of one-player teams."""
    model = PlackettLuce()
    rated = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in skills], ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def random_match(rng: random.Random) -> tuple[list[tuple[float, float]], list[float]]:
    """Seats with ratings from far apart to near equal, sigma from tiny (the kappa floor) to the prior's, and any
    ranking: outright places, ties of any size, everyone tied."""
    seats = rng.choice([2, 2, 2, 3, 4, 5, 6, 8])
    skills = [(rng.uniform(-30.0, 80.0), rng.choice([rng.uniform(0.001, 0.5), rng.uniform(0.5, 12.0)]))
              for _ in range(seats)]
    ranks = [float(rng.randrange(rng.choice([1, 2, seats]))) for _ in range(seats)]
    return skills, ranks


def test_one_update_equals_openskill_bit_for_bit_on_many_random_matches() -> None:
    rng = random.Random(32)
    for _ in range(5000):
        skills, ranks = random_match(rng)
        assert rate_match(skills, ranks) == openskill_rate(skills, ranks), (skills, ranks)


def test_a_duel_which_has_its_own_unrolled_update_equals_openskill_bit_for_bit() -> None:
    """Two seats take their own path (the loops unrolled): every order of ranks, ties, equal ratings, far-apart
    ones and the kappa floor, each against openskill exactly."""
    rng = random.Random(2)
    cases = [([(25.0, 25.0 / 3), (25.0, 25.0 / 3)], [0.0, 1.0]), ([(25.0, 25.0 / 3), (25.0, 25.0 / 3)], [1.0, 0.0]),
             ([(25.0, 25.0 / 3), (25.0, 25.0 / 3)], [0.0, 0.0]), ([(80.0, 1e-3), (-30.0, 12.0)], [1.0, 0.0]),
             ([(25.0, 1e-4), (25.0, 40.0)], [1.0, 0.0]), ([(25.0, 1e-4), (25.0, 40.0)], [0.0, 0.0])]
    for _ in range(3000):
        skills = [(rng.uniform(-30.0, 80.0), rng.choice([rng.uniform(0.001, 0.5), rng.uniform(0.5, 12.0)]))
                  for _ in range(2)]
        cases.append((skills, [float(rng.randrange(2)), float(rng.randrange(2))]))
    for skills, ranks in cases:
        assert rate_match(skills, ranks) == openskill_rate(skills, ranks), (skills, ranks)


def test_the_prior_and_sigma_floor_equal_openskill() -> None:
    model = PlackettLuce()
    assert initial_skill("a") == Skill("a", model.mu, model.sigma)
    # A rating so sure of itself that the update's variance factor hits openskill's kappa floor.
    skills, ranks = [(25.0, 1e-4), (25.0, 40.0)], [1.0, 0.0]
    assert rate_match(skills, ranks) == openskill_rate(skills, ranks)


def test_a_whole_schedule_rates_as_openskill_does_match_after_match() -> None:
    """openskill_ratings over a long schedule of duels and pods (byes skipped, a late entrant, carried
    ratings) equals feeding the same matches to openskill one by one."""
    rng = random.Random(7)
    aliases = ["a", "b", "c", "d", "e"]
    schedule: list[list[StandingSeat]] = []
    for _ in range(600):
        seated = rng.sample([*aliases, "late"] if len(schedule) > 300 else aliases, rng.choice([1, 2, 2, 3, 4]))
        tiers = [rng.randrange(len(seated)) for _ in seated]
        schedule.append([StandingSeat(alias, tier, 1, 0.0) for alias, tier in zip(seated, tiers, strict=True)])
    start = {"c": Skill("c", 31.5, 2.25)}
    expected = {a: (start[a].mu, start[a].sigma) if a in start else (25.0, 25.0 / 3.0) for a in aliases}
    for match in schedule:
        if len(match) < 2:
            continue
        rated = openskill_rate([expected.get(s.alias, (25.0, 25.0 / 3.0)) for s in match],
                               [float(s.tier) for s in match])
        expected.update((s.alias, skill) for s, skill in zip(match, rated, strict=True))
    ours = openskill_ratings(aliases, schedule, start)
    assert {a: (s.mu, s.sigma) for a, s in ours.items()} == expected
    assert set(ours) == {*aliases, "late"}
