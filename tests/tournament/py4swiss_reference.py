"""py4swiss as the reference FIDE Dutch pairer: our tournament history written as its in-memory TRF.

A pairing of several games counts as one game, won, drawn or lost by the points over them,
with the colour of its first game; a bye is the pairing-allocated bye `U`.
"""

from __future__ import annotations

from collections.abc import Sequence

from py4swiss.engines import DutchEngine
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
from py4swiss.trf.sections import PlayerSection, XSection

from tourney.tournament.formats.pairing import PlayedGame


def py4swiss_round(
    n: int, rounds: Sequence[Sequence[PlayedGame]], total_rounds: int
) -> tuple[list[tuple[int, int]], int | None]:
    """Round len(rounds)+1 as py4swiss pairs it: the reference the tests compare our pairer with."""

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
    pairings = DutchEngine.generate_pairings(trf)
    pairs: list[tuple[int, int]] = []
    bye = None
    for p in pairings:
        if p.black == 0 or p.white == 0:
            bye = (p.white or p.black) - 1
        else:
            pairs.append((p.white - 1, p.black - 1))
    return pairs, bye
