"""OpenSkill (Plackett-Luce) ratings for any player count, and Elo likelihood of superiority.

OpenSkill updates match by match, so the order matters: matches are always fed in schedule
order (never arrival order), which makes the ratings of a resumed or parallel tournament
equal to those of a sequential run with the same seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

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
    rating = PlackettLuce().rating(name=alias)
    return Skill(alias, float(rating.mu), float(rating.sigma))


def openskill_ratings(aliases: Sequence[str], matches: Iterable[Sequence[StandingSeat]],
                      start: Mapping[str, Skill] | None = None) -> dict[str, Skill]:
    """Rate every entrant from matches given in schedule order; byes (one seat) are skipped.

    Everyone starts from the model's prior, or from `start` (a league's ratings carried over
    from earlier rounds) for the aliases it holds.
    """
    model = PlackettLuce()
    carried = start or {}
    current = {a: model.rating(mu=carried[a].mu, sigma=carried[a].sigma, name=a) if a in carried
               else model.rating(name=a) for a in aliases}
    for match in matches:
        if len(match) < 2:
            continue
        for r in match:
            current.setdefault(r.alias, model.rating(name=r.alias))
        teams = [[current[r.alias]] for r in match]
        rated = model.rate(teams, ranks=[float(r.tier) for r in match])
        for r, team in zip(match, rated, strict=True):
            current[r.alias] = team[0]
    return {a: Skill(a, float(r.mu), float(r.sigma)) for a, r in current.items()}
