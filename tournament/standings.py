"""Standings from match results: win/draw/loss, points, tiebreaks, and a rating with a 95% interval.

Ties on points are broken by direct encounter (points taken from the other tied entrants),
then Buchholz (the sum of the final points of every opponent met, once per game), then
Sonneborn-Berger (each opponent's final points weighted by the points taken from them),
then wins, fewer faults, and name. In multiplayer matches every other seat is an opponent
and "points taken from" an opponent is 1 when placed above them, 0.5 level, 0 below.

The rating is a performance rating on the Elo scale: 1500 plus the logistic transform of
the mean points an entrant took per game. Its interval comes from the spread of those
points (a normal approximation), pushed through the same transform, so a short
tournament shows a wide interval instead of a falsely precise number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Z95 = 1.959964


@dataclass(frozen=True)
class SeatResult:
    """One entrant's part in one finished match."""

    alias: str
    tier: int
    tier_size: int
    points: float
    faults: int = 0
    bye: bool = False  # a round without a game: its points count, it is no game for the rating


@dataclass
class Standing:
    alias: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    faults: int = 0
    rating: float = 1500.0
    low: float = 1500.0
    high: float = 1500.0
    byes: int = 0
    direct: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    los_next: float | None = None  # likelihood of superiority over the next in the table (their direct games)
    _samples: list[float] = field(default_factory=list, repr=False)

    @property
    def score_pct(self) -> float:
        return 100.0 * self.points / self.games if self.games else 0.0


def elo_of(p: float) -> float:
    """Elo-scale rating difference that expects a score fraction p."""
    return 400.0 * math.log10(p / (1.0 - p))


def compute_standings(aliases: Sequence[str], matches: Iterable[Sequence[SeatResult]]) -> list[Standing]:
    """Standings sorted by points, then direct encounter, Buchholz, Sonneborn-Berger, wins, fewer faults, name.

    A bye's points count, but it is no game for the rating. A match with one seat that is not
    a bye was played against the game itself (Solo mode).
    """
    table = {a: Standing(a) for a in aliases}
    games = [list(m) for m in matches]
    for match in games:
        for r in match:
            s = table.setdefault(r.alias, Standing(r.alias))
            s.points += r.points
            if r.bye:
                s.byes += 1
                continue
            s.games += 1
            s.faults += r.faults
            s._samples.append(r.points)
            if r.tier == 0 and r.tier_size == 1:
                s.wins += 1
            elif r.tier == 0:
                s.draws += 1
            else:
                s.losses += 1
    for s in table.values():
        _rate(s)
    _tiebreaks(table, games)
    ordered = sorted(table.values(), key=lambda s: (-s.points, -s.direct, -s.buchholz, -s.sonneborn_berger,
                                                    -s.wins, s.faults, s.alias))
    _likelihoods(ordered, games)
    return ordered


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """P(A is stronger than B) from decisive games (draws carry no information): the normal
    approximation of the binomial, as chess engine testers use it."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def _likelihoods(ordered: list[Standing], games: list[list[SeatResult]]) -> None:
    """LOS of each entrant over the next one, from the two-player games between them."""
    duels: dict[tuple[str, str], int] = {}
    for match in games:
        if len(match) == 2 and match[0].tier != match[1].tier:
            winner, loser = (match[0], match[1]) if match[0].tier < match[1].tier else (match[1], match[0])
            duels[(winner.alias, loser.alias)] = duels.get((winner.alias, loser.alias), 0) + 1
    for above, below in zip(ordered, ordered[1:], strict=False):
        w, lost = duels.get((above.alias, below.alias), 0), duels.get((below.alias, above.alias), 0)
        above.los_next = likelihood_of_superiority(w, lost) if w + lost else None


def _versus(me: SeatResult, other: SeatResult) -> float:
    """Points `me` took from `other` in one match: 1 above, 0.5 level, 0 below."""
    return 1.0 if me.tier < other.tier else 0.5 if me.tier == other.tier else 0.0


def _tiebreaks(table: dict[str, Standing], games: list[list[SeatResult]]) -> None:
    final = {a: s.points for a, s in table.items()}
    for match in games:
        for me in match:
            s = table[me.alias]
            for other in match:
                if other is me:
                    continue
                took = _versus(me, other) if len(match) > 2 else me.points
                s.buchholz += final[other.alias]
                s.sonneborn_berger += took * final[other.alias]
                if final[other.alias] == final[me.alias] and other.alias != me.alias:
                    s.direct += took


def _rate(s: Standing) -> None:
    n = s.games
    if n == 0:
        return
    # Keep p away from 0 and 1 (half a game's worth), or a perfect record rates infinitely.
    eps = 0.5 / n
    mean = s.points / n
    var = sum((x - mean) ** 2 for x in s._samples) / (n - 1) if n > 1 else 0.25
    half = Z95 * math.sqrt(max(var, 1e-9) / n)
    def clamp(p: float) -> float:
        return min(max(p, eps), 1.0 - eps)
    s.rating = 1500.0 + elo_of(clamp(mean))
    s.low = 1500.0 + elo_of(clamp(mean - half))
    s.high = 1500.0 + elo_of(clamp(mean + half))
