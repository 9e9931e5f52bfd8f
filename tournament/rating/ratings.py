"""OpenSkill (Plackett-Luce) ratings for any player count, and Elo likelihood of superiority.

OpenSkill updates match by match, so the order matters: matches are always fed in schedule
order (never arrival order), which makes the ratings of a resumed or parallel tournament
equal to those of a sequential run with the same seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tourney.tournament.rating.plackett_luce import MU, SIGMA, rate_match
from tourney.tournament.rating.standings import StandingSeat, likelihood_of_superiority

__all__ = ["Skill", "initial_skill", "likelihood_of_superiority", "openskill_ratings"]


@dataclass(frozen=True)
class Skill:
    """An OpenSkill rating: mean μ, uncertainty σ, and the conservative μ − 3σ."""

    alias: str
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return self.mu - 3.0 * self.sigma


def initial_skill(alias: str) -> Skill:
    """The rating every newcomer starts from (the model's prior)."""
    return Skill(alias, MU, SIGMA)


def openskill_ratings(aliases: Sequence[str], matches: Iterable[Sequence[StandingSeat]],
                      start: Mapping[str, Skill] | None = None) -> dict[str, Skill]:
    """Rate every entrant from matches given in schedule order; byes (one seat) are skipped.

    Everyone starts from the model's prior, or from `start` (a league's ratings carried over
    from earlier rounds) for the aliases it holds. The arithmetic is openskill's PlackettLuce,
    on plain floats (tournament.rating.plackett_luce).
    """
    carried = start or {}
    current = {a: (carried[a].mu, carried[a].sigma) if a in carried else (MU, SIGMA) for a in aliases}
    prior = (MU, SIGMA)
    for match in matches:
        if len(match) < 2:
            continue
        rated = rate_match([current.get(r.alias, prior) for r in match], [float(r.tier) for r in match])
        for r, skill in zip(match, rated, strict=True):
            current[r.alias] = skill
    return {a: Skill(a, mu, sigma) for a, (mu, sigma) in current.items()}
