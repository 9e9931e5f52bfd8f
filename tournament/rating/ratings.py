"""OpenSkill (Plackett-Luce) ratings for any player count, and Elo likelihood of superiority.

OpenSkill updates match by match, so the order matters: matches are always fed in schedule
order (never arrival order), which makes the ratings of a resumed or parallel tournament
equal to those of a sequential run with the same seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tourney.tournament.rating.plackett_luce import MU, SIGMA, rate_match
from tourney.tournament.rating.standings import MatchLog, StandingSeat, likelihood_of_superiority

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
    if isinstance(matches, MatchLog):  # each distinct match's seats read once: a long run repeats a handful
        seatings = [_seating(match) for match in matches.distinct]
        ordered: Iterable[tuple[tuple[str, ...], list[float]]] = (seatings[i] for i in matches.order)
    else:
        ordered = (_seating(match) for match in matches)
    for who, ranks in ordered:
        if len(who) < 2:
            continue
        rated = rate_match([current.get(alias, prior) for alias in who], ranks)
        for alias, skill in zip(who, rated, strict=True):
            current[alias] = skill
    return {a: Skill(a, mu, sigma) for a, (mu, sigma) in current.items()}


def _seating(match: Sequence[StandingSeat]) -> tuple[tuple[str, ...], list[float]]:
    """A match's aliases and their ranks (tiers), in seat order."""
    return tuple(r.alias for r in match), [float(r.tier) for r in match]
