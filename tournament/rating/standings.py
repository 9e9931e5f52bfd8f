"""Standings from match results: win/draw/loss, points, tiebreaks, and a rating with a 95% interval.

Ties on points are broken by direct encounter (points taken from the other tied entrants),
then Buchholz (the sum of the final points of every opponent met, once per game), then
Sonneborn-Berger (each opponent's final points weighted by the points taken from them),
then outright wins (sole first places), fewer faults, and name. In multiplayer matches every
other seat is an opponent and "points taken from" an opponent is 1 when placed above them,
0.5 level, 0 below.

W-D-L counts results against opponents: a two-player game is one win, draw or loss; a pod of
n is n-1 of them, one per other seat (above it a win, level a draw, below a loss), so a
second place of four is 2-0-1, and points are (W + D/2)/(n-1) per pod. A pod also counts
places (how often first, second, ...; a shared place counts for each seat in it) and the
first-place share (1 for a sole first place, 1/k for a first place shared by k).

A bye (a round without a game) gives its points to the score and to the tiebreaks, but it
is never a game for the rating: the rating, its interval and the score % use only the
points taken in games, divided by the games played.

The rating is a performance rating on the Elo scale: 1500 plus the logistic transform of
the mean points an entrant took per game (kept half a game, at most a quarter, away from 0% and 100%, or a
perfect record would rate infinitely). Its 95% interval is the Wilson score interval of
that score fraction (games as trials, a draw half a point), mapped to Elo the same way.
Unlike a normal approximation it stays honest at the extremes: 5-0-0 gives
[1546, +inf], because no finite number of wins bounds how much stronger a bot may be.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

Z95 = 1.959964


@dataclass(frozen=True)
class StandingSeat:
    """One entrant's part in one finished match, as standings and ratings count it: the compact
    input a 100,000-match run keeps (the full per-seat result is engine.core's SeatResult)."""

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
    points: float = 0.0  # games and byes: what the table ranks by
    game_points: float = 0.0  # games only: what the rating and score % use
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
    outright: int = 0  # sole first places: the tiebreak after Sonneborn-Berger
    places: list[int] = field(default_factory=list)  # places[k]: times placed (k+1)th in a pod (3+ seats)
    first_share: float = 0.0  # pods: 1 per sole first place, 1/k per first place shared by k
    solo_games: int = 0  # games against the game's own AI (Solo mode): no other entrant was met

    @property
    def score_pct(self) -> float:
        """Points per game played, in percent; byes are no games and their points are left out."""
        return 100.0 * self.game_points / self.games if self.games else 0.0


def elo_of(p: float) -> float:
    """Elo-scale rating difference that expects a score fraction p."""
    return 400.0 * math.log10(p / (1.0 - p))


def compute_standings(aliases: Sequence[str], matches: Iterable[Sequence[StandingSeat]]) -> list[Standing]:
    """Standings sorted by points, then direct encounter, Buchholz, Sonneborn-Berger, wins, fewer faults, name.

    A bye's points count, but it is no game for the rating. A match with one seat that is not
    a bye was played against the game itself (Solo mode).
    """
    table = {a: Standing(a) for a in aliases}
    games = matches if isinstance(matches, MatchLog) else MatchLog(matches)
    weighted = _weighted(games)
    for match, times in weighted:
        for r in match:
            s = table.setdefault(r.alias, Standing(r.alias))
            s.points += r.points * times
            if r.bye:
                s.byes += times
                continue
            s.games += times
            s.game_points += r.points * times
            s.faults += r.faults * times
            s.outright += (r.tier == 0 and r.tier_size == 1) * times
            s.solo_games += (len(match) == 1) * times
            if len(match) > 2:
                for _ in range(times):
                    _count_pod(s, r, match)
            elif r.tier == 0 and r.tier_size == 1:
                s.wins += times
            elif r.tier == 0:
                s.draws += times
            else:
                s.losses += times
    for s in table.values():
        _rate(s)
    _tiebreaks(table, weighted)
    ordered = sorted(table.values(), key=lambda s: (-s.points, -s.direct, -s.buchholz, -s.sonneborn_berger,
                                                    -s.outright, s.faults, s.alias))
    _likelihoods(ordered, weighted)
    return ordered


# The finest fraction of a point the counted standings take as exact (a point in 2**-8ths at most).
FRACTION_BITS = 8


def _weighted(games: MatchLog) -> list[tuple[tuple[StandingSeat, ...], int]]:
    """The matches the standings add up, each with how many times it counts.

    Every sum of the standings adds points, opponents' final points and products of the two. When each of those
    is a whole number of 2**-e points (e <= FRACTION_BITS) and no sum can pass 2**53 such units, every addition
    is exact, so the order of the additions changes no bit: each distinct match is then added once, times its
    count (a long run repeats a handful of outcomes: ~3 us a match to ~0, issue 32). Otherwise (a pod's thirds,
    a sum too large) every match counts once, in schedule order, as the sums always were.
    """
    distinct = games.distinct
    if not distinct or any(len(match) > 2 for match in distinct):
        return [(match, 1) for match in games]
    bits = 0
    while bits <= FRACTION_BITS and not all(float(r.points * 2 ** bits).is_integer() for m in distinct for r in m):
        bits += 1
    counts = Counter(games.order)
    seats = sum(len(distinct[i]) * n for i, n in counts.items())
    total = sum(abs(r.points) * n for i, n in counts.items() for r in distinct[i])  # at least any final points
    largest = max(1.0, max(abs(r.points) for m in distinct for r in m))
    if bits > FRACTION_BITS or seats * largest * max(1.0, total) * 4 ** bits >= 2.0 ** 53:
        return [(match, 1) for match in games]
    return [(distinct[i], n) for i, n in sorted(counts.items())]


def _count_pod(s: Standing, me: StandingSeat, match: Sequence[StandingSeat]) -> None:
    """A pod's result for one seat: W-D-L against each other seat, its place, its share of first place."""
    above = sum(1 for other in match if other.tier < me.tier)
    level = me.tier_size - 1
    s.wins += len(match) - 1 - above - level
    s.draws += level
    s.losses += above
    while len(s.places) <= above:
        s.places.append(0)
    s.places[above] += 1
    if me.tier == 0:
        s.first_share += 1.0 / me.tier_size


class MatchLog:
    """Matches kept in order for several passes (the standings' three, the ratings'), a few bytes each.

    A match is a tuple of SeatResults, and a long run repeats few distinct ones (entrants times
    places), so each distinct match is kept once and the order as an array of their indices:
    100,000 matches cost 400 KB rather than 100,000 lists (issue 32: flat memory to the end), and
    the store is read once for all the passes. Every pass sees the same matches in the same
    order, so every sum is the same.
    """

    def __init__(self, matches: Iterable[Sequence[StandingSeat]] = ()) -> None:
        self.distinct: list[tuple[StandingSeat, ...]] = []
        self.order = array("I")
        self._index: dict[tuple[StandingSeat, ...], int] = {}
        for m in matches:
            self.add(m)

    def add(self, seats: Sequence[StandingSeat]) -> int:
        """Put a match after the ones held; return its index in `distinct` (for `repeat`)."""
        match = tuple(seats)
        at = self._index.get(match)
        if at is None:
            at = self._index[match] = len(self.distinct)
            self.distinct.append(match)
        self.order.append(at)
        return at

    def repeat(self, at: int) -> None:
        """Put the held match distinct[at] after the ones held again: `add` without building and hashing its
        seats, for a caller that knows the match is one it added before."""
        if not 0 <= at < len(self.distinct):
            raise IndexError(f"no held match {at}: a MatchLog holds {len(self.distinct)} distinct matches.")
        self.order.append(at)

    def __len__(self) -> int:
        return len(self.order)

    def __iter__(self) -> Iterator[tuple[StandingSeat, ...]]:
        distinct = self.distinct
        return (distinct[i] for i in self.order)


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """P(A is stronger than B) from decisive games (draws carry no information): the normal
    approximation of the binomial, as chess engine testers use it."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def _likelihoods(ordered: list[Standing], games: Iterable[tuple[Sequence[StandingSeat], int]]) -> None:
    """LOS of each entrant over the next one, from the two-player games between them (`games`: (match, times it
    counts), from _weighted)."""
    duels: dict[tuple[str, str], int] = {}
    for match, times in games:
        if len(match) == 2 and match[0].tier != match[1].tier:
            winner, loser = (match[0], match[1]) if match[0].tier < match[1].tier else (match[1], match[0])
            duels[(winner.alias, loser.alias)] = duels.get((winner.alias, loser.alias), 0) + times
    for above, below in zip(ordered, ordered[1:], strict=False):
        w, lost = duels.get((above.alias, below.alias), 0), duels.get((below.alias, above.alias), 0)
        above.los_next = likelihood_of_superiority(w, lost) if w + lost else None


def _versus(me: StandingSeat, other: StandingSeat) -> float:
    """Points `me` took from `other` in one match: 1 above, 0.5 level, 0 below."""
    return 1.0 if me.tier < other.tier else 0.5 if me.tier == other.tier else 0.0


def _tiebreaks(table: dict[str, Standing], games: Iterable[tuple[Sequence[StandingSeat], int]]) -> None:
    """Direct encounter, Buchholz and Sonneborn-Berger from the final points (byes included).

    A bye is a round the entrant did not play: for Buchholz and Sonneborn-Berger it counts as
    a game against a virtual opponent with the entrant's own final points (FIDE tie-break
    regulations, art. 16: "a game against oneself"), so a bye neither helps nor hurts. `games`: (match, times it
    counts), from _weighted.
    """
    final = {a: s.points for a, s in table.items()}
    for match, times in games:
        for me in match:
            s = table[me.alias]
            if me.bye:
                s.buchholz += final[me.alias] * times
                s.sonneborn_berger += me.points * final[me.alias] * times
                continue
            for other in match:
                if other is me:
                    continue
                took = _versus(me, other) if len(match) > 2 else me.points
                s.buchholz += final[other.alias] * times
                s.sonneborn_berger += took * final[other.alias] * times
                if final[other.alias] == final[me.alias] and other.alias != me.alias:
                    s.direct += took * times


def wilson_interval(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a fraction p observed over n trials (n >= 1)."""
    z2n = z * z / n
    centre = (p + z2n / 2.0) / (1.0 + z2n)
    half = z / (1.0 + z2n) * math.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n))
    # At p = 0 or 1 the bound is exactly 0 or 1; rounding would otherwise leave 1 - 1e-16 (a huge finite Elo).
    return 0.0 if p <= 0.0 else max(0.0, centre - half), 1.0 if p >= 1.0 else min(1.0, centre + half)


def elo_bound(p: float) -> float:
    """elo_of, extended to the ends of an interval: -inf at 0, +inf at 1."""
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return elo_of(p)


def _rate(s: Standing) -> None:
    n = s.games
    if n == 0:
        return
    mean = s.game_points / n
    # Half a game's worth off 0% and 100%, a finite point estimate for a perfect record; never more
    # than a quarter, or after one game the winner and the loser would both rate 1500.
    eps = min(0.5 / n, 0.25)
    s.rating = 1500.0 + elo_of(min(max(mean, eps), 1.0 - eps))
    low, high = wilson_interval(min(max(mean, 0.0), 1.0), n)
    s.low = 1500.0 + elo_bound(low)
    s.high = 1500.0 + elo_bound(high)


LEGEND = (
    ("Elo [95%]", "performance rating from the points per game played (1500 = even; byes left out), and its "
                  "Wilson score interval mapped to Elo (open, ±inf, after 0% or 100%)"),
    ("LOS", "likelihood of superiority over the next bot in the table, from their decisive games against each other"),
    ("W-D-L", "results against each opponent: a two-player game is one; a pod of n is n-1, one per other seat "
              "(placed above it a win, level a draw, below a loss)"),
    ("places", "pods: how often placed 1st-2nd-3rd-...; 1st share: sole first places, a first place shared by k "
               "counting 1/k"),
    ("μ (μ-3σ)", "OpenSkill (Plackett-Luce) skill μ and uncertainty σ; μ-3σ is the conservative estimate "
                 "(Solo: the score against the game's AI instead, as the bots never meet)"),
    ("DE", "direct encounter: points taken from the bots tied on points"),
    ("Buch", "Buchholz: sum of the final points of every opponent met (a bye counts as meeting oneself)"),
    ("SB", "Sonneborn-Berger: each opponent's final points times the points taken from them"),
)


def legend_lines() -> list[str]:
    """One line per column of the standings table that needs explaining: 'NAME: meaning'."""
    return [f"{name}: {meaning}" for name, meaning in LEGEND]
