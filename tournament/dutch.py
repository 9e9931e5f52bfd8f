"""Exact FIDE Dutch pairing for small Swiss fields, through the `py4swiss` package.

py4swiss pairs by the FIDE Dutch rules (absolute and relative criteria, floats, colour
preferences) but needs a TRF: here the tournament so far is written as a `ParsedTrf` in
memory. Entrant i is starting number i+1 (starting rank = entry order). A pairing of
several games counts as one TRF game: won, drawn or lost by the points over those games,
with the colour of its first game (seat 0 = white). A bye is the pairing-allocated bye `U`,
so the same player is never given a second one.

It is exact but slow (0.33 s a round at 100 players, 33 s at 1,000), so formats.py uses it
only up to DUTCH_MAX_PLAYERS and the fast pairer in swiss.py above that.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournament.swiss import Game

DUTCH_MAX_PLAYERS = 64


class DutchUnavailable(Exception):
    """py4swiss is missing or cannot pair this round; the caller falls back to the fast pairer."""


def dutch_round(
    n: int, rounds: Sequence[Sequence[Game]], total_rounds: int
) -> tuple[list[tuple[int, int]], int | None]:
    """Pair round len(rounds)+1 of an n-player Swiss of `total_rounds` rounds by the FIDE Dutch rules."""
    try:
        from py4swiss.engines import DutchEngine
        from py4swiss.engines.common.exceptions import PairingError
        from py4swiss.trf import ParsedTrf
        from py4swiss.trf.codes import PlayerCode
        from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
        from py4swiss.trf.sections import PlayerSection, XSection
    except ImportError as exc:  # pragma: no cover - the dependency is declared
        raise DutchUnavailable(str(exc)) from None

    results: list[list[RoundResult]] = [[] for _ in range(n)]
    points10 = [0] * n
    for games in rounds:
        totals: dict[tuple[int, int], list[float]] = {}
        first_seat: dict[tuple[int, int], tuple[int, int]] = {}
        byes = set()
        for g in games:
            if len(g.seats) == 1:
                byes.add(g.seats[0])
                continue
            key = (min(g.seats), max(g.seats))
            first_seat.setdefault(key, (g.seats[0], g.seats[1]))
            t = totals.setdefault(key, [0.0, 0.0])
            for seat, who in enumerate(g.seats):
                t[0 if who == key[0] else 1] += g.points[seat]
        seen = set(byes)
        for (a, b), (pa, pb) in totals.items():
            white, _ = first_seat[(a, b)]
            for me, other, mine, theirs in ((a, b, pa, pb), (b, a, pb, pa)):
                token = ResultToken.WIN if mine > theirs else ResultToken.DRAW if mine == theirs else ResultToken.LOSS
                color = ColorToken.WHITE if me == white else ColorToken.BLACK
                results[me].append(RoundResult(id=other + 1, color=color, result=token))
                points10[me] += 10 if token == ResultToken.WIN else 5 if token == ResultToken.DRAW else 0
                seen.add(me)
        for i in range(n):
            if i in byes:
                results[i].append(RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED,
                                              result=ResultToken.PAIRING_ALLOCATED_BYE))
                points10[i] += 10
            elif i not in seen:
                results[i].append(RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED,
                                              result=ResultToken.ZERO_POINT_BYE))
    players = [PlayerSection(code=PlayerCode.PLAYER, starting_number=i + 1, points_times_ten=points10[i], rank=i + 1,
                             results=results[i]) for i in range(n)]
    trf = ParsedTrf(player_sections=players, x_section=XSection(number_of_rounds=max(total_rounds, len(rounds) + 1)))
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError as exc:
        raise DutchUnavailable(str(exc)) from None
    pairs: list[tuple[int, int]] = []
    bye = None
    for p in pairings:
        if p.black == 0 or p.white == 0:
            bye = (p.white or p.black) - 1
        else:
            pairs.append((p.white - 1, p.black - 1))
    return pairs, bye
