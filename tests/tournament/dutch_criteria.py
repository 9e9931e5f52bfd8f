"""A FIDE Dutch pairing judged by the rules' criteria, bracket by bracket: so two pairers can be compared.

The pairing of a round is cut into the brackets the Dutch system would have seen: score groups from
the top, each with the players left unpaired above it (its MDPs). For every bracket the quality
criteria C.5-C.19 of C.04.3 are counted from the pairs and colours actually chosen, as a vector in
the rules' order of priority, smaller better; the absolute criteria C.1-C.3 are counted for the
round. A better pairing is the one whose first differing bracket has the smaller vector: the
system settles brackets top down, each by the criteria in this order (C.7 looks one bracket on).

Scores are in half points (as `tournament.formats.dutch.Entrant`); a score difference (SD) of a
downfloater is its score less one point below the bracket's lowest score (A.8).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from tourney.tournament.formats.dutch import ABSOLUTE, BLACK, DOWN, NONE, STRONG, UP, WHITE, Entrant

# The names of a bracket's vector fields, in priority order; C.5 and C.7 count pairs (more is better, so
# they are stored negated).
FIELDS = ("C.5 pairs", "C.6 PSD", "C.7 next pairs", "C.7 next PSD", "C.8 topscorer colour diff > 2",
          "C.9 topscorer colour 3 in a row", "C.10 colour preference unmet", "C.11 strong preference unmet",
          "C.12 repeat downfloat (1 back)", "C.13 repeat upfloat (1 back)", "C.14 repeat downfloat (2 back)",
          "C.15 repeat upfloat (2 back)", "C.16 SD of C.12", "C.17 SD of C.13", "C.18 SD of C.14",
          "C.19 SD of C.15")


@dataclass
class Bracket:
    """One bracket of a finished round: who was in it, the pairs it made, who floated down out of it."""

    score: int
    members: list[Entrant]
    pairs: list[tuple[Entrant, Entrant]]  # (white, black)
    down: list[Entrant]  # left unpaired: MDPs of the next bracket, or the bye


def brackets_of(people: list[Entrant], pairs: list[tuple[int, int]], bye: int | None) -> list[Bracket]:
    """The round cut into brackets: a pair belongs to the bracket of its lower score, a player unpaired there
    floats into the next one."""
    partner: dict[int, int] = {}
    for white, black in pairs:
        partner[white], partner[black] = black, white
    colour_of = {white: WHITE for white, _ in pairs} | {black: BLACK for _, black in pairs}
    order = sorted(people, key=lambda p: (-p.score, p.index))
    out: list[Bracket] = []
    carried: list[Entrant] = []
    for score, group in itertools.groupby(order, key=lambda p: p.score):
        members = carried + list(group)
        inside = {p.index for p in members}
        made = [(p, people[partner[p.index]]) for p in members
                if p.index in partner and partner[p.index] in inside and colour_of[p.index] == WHITE]
        paired = {p.index for pair in made for p in pair}
        carried = [p for p in members if p.index not in paired]
        out.append(Bracket(score, members, made, carried))
    if carried and [p.index for p in carried] != ([bye] if bye is not None else []):
        raise ValueError(f"players {[p.index for p in carried]} are neither paired nor the bye")
    return out


def absolute_violations(people: list[Entrant], pairs: list[tuple[int, int]], bye: int | None) -> tuple[int, int, int]:
    """(C.1 rematches, C.2 second byes, C.3 non-topscorers of one absolute colour preference paired together)."""
    rematches = sum(b in people[a].opponents for a, b in pairs)
    second_bye = int(bye is not None and people[bye].had_bye)
    clash = 0
    for a, b in pairs:
        (sa, ka), (sb, kb) = people[a].preference, people[b].preference
        clash += ka == kb == ABSOLUTE and sa == sb and not (people[a].topscorer or people[b].topscorer)
    return rematches, second_bye, clash


def _sd(p: Entrant, bracket: Bracket) -> int:
    """A.8: a downfloater's score difference, from one point below the bracket's lowest score."""
    return p.score - min(q.score for q in bracket.members) + 2


def _floats(bracket: Bracket, back: int, way: int) -> list[int]:
    """The SDs of the bracket's players who float `way` now as they did `back` rounds ago (C.12-C.19)."""
    out = []
    for white, black in bracket.pairs:
        hi, lo = (white, black) if white.score > black.score else (black, white)
        if hi.score == lo.score:
            continue
        p = hi if way == DOWN else lo
        if (p.float1 if back == 1 else p.float2) == way:
            out.append(hi.score - lo.score)
    if way == DOWN:
        out += [_sd(p, bracket) for p in bracket.down if (p.float1 if back == 1 else p.float2) == DOWN]
    return sorted(out, reverse=True)


def _psd(bracket: Bracket) -> list[int]:
    """A.8: the pairs' score differences and the downfloaters', largest first (a smaller list is better)."""
    sds = [abs(w.score - b.score) for w, b in bracket.pairs] + [_sd(p, bracket) for p in bracket.down]
    return sorted(sds, reverse=True)


def _colours(bracket: Bracket) -> tuple[int, int, int, int]:
    """C.8-C.11 from the colours given: (topscorers or their opponents past a colour difference of 2, the same
    for a third colour in a row, colour preferences unmet, strong or absolute preferences unmet)."""
    beyond = three = unmet = strong = 0
    for white, black in bracket.pairs:
        top = white.topscorer or black.topscorer
        for p, colour in ((white, WHITE), (black, BLACK)):
            after = [*p.colours, colour]
            side, strength = p.preference
            if top:
                beyond += abs(sum(after)) > 2
                three += len(after) >= 3 and len(set(after[-3:])) == 1
            if side != NONE and side != colour:
                unmet += 1
                strong += strength >= STRONG
    return beyond, three, unmet, strong


def bracket_vector(brackets: list[Bracket], i: int, rounds_played: int) -> tuple[Any, ...]:
    """Bracket i's criteria C.5-C.19, in FIELDS order, each smaller-is-better."""
    b = brackets[i]
    nxt = brackets[i + 1] if i + 1 < len(brackets) else None
    # C.7 looks at the next bracket, except from the last two (the rules' PPB and CLB have no next to spare).
    look = nxt is not None and i + 2 < len(brackets)
    c7 = (-len(nxt.pairs), _psd(nxt)) if look and nxt is not None else (0, [])
    floats: list[Any] = []
    for back in (1, 2):
        for way in (DOWN, UP):
            floats.append(_floats(b, back, way) if rounds_played >= back else [])
    counts = [len(f) for f in floats]
    return (-len(b.pairs), _psd(b), *c7, *_colours(b), *counts, *floats)


@dataclass
class Verdict:
    """How pairing A compares with pairing B: 'same', 'colours' (the same pairs, some with the colours the other
    way round: E.1-E.5, which no criterion counts), 'tie' (other pairs, equal on every criterion in every
    bracket: the Dutch order D.1-D.3 broke the tie), 'better' or 'worse' (A against B), and where the first
    difference lies."""

    outcome: str
    bracket: int | None = None  # index of the first bracket whose criteria differ
    criterion: str | None = None
    detail: str = ""


def compare_pairings(people: list[Entrant], a: tuple[list[tuple[int, int]], int | None],
                     b: tuple[list[tuple[int, int]], int | None], rounds_played: int) -> Verdict:
    """Judge pairing `a` against `b` of the same round by the Dutch criteria (absolute first, then bracket by
    bracket from the top)."""
    if (sorted(a[0]), a[1]) == (sorted(b[0]), b[1]):
        return Verdict("same")
    if (sorted(map(sorted, a[0])), a[1]) == (sorted(map(sorted, b[0])), b[1]):
        flipped = len(set(a[0]) - set(b[0]))
        return Verdict("colours", detail=f"{flipped} pairs with the colours the other way round")
    abs_a, abs_b = absolute_violations(people, *a), absolute_violations(people, *b)
    if abs_a != abs_b:
        worse = abs_a > abs_b
        return Verdict("worse" if worse else "better", None, "C.1-C.3", f"{abs_a} against {abs_b}")
    ba, bb = brackets_of(people, *a), brackets_of(people, *b)
    for i in range(min(len(ba), len(bb))):
        va, vb = bracket_vector(ba, i, rounds_played), bracket_vector(bb, i, rounds_played)
        if va != vb:
            k = next(k for k in range(len(va)) if va[k] != vb[k])
            return Verdict("worse" if va > vb else "better", i, FIELDS[k],
                           f"bracket of score {ba[i].score / 2:g}: {va[k]} against {vb[k]}")
    return Verdict("tie")


def round_totals(people: list[Entrant], pairing: tuple[list[tuple[int, int]], int | None],
                 rounds_played: int) -> dict[str, int]:
    """Each criterion counted over the whole round (bracket sums; score differences as their sum)."""
    brackets = brackets_of(people, *pairing)
    totals = dict(zip(("C.1 rematches", "C.2 second byes", "C.3 absolute colour clashes"),
                      absolute_violations(people, *pairing), strict=True))
    for i in range(len(brackets)):
        v = bracket_vector(brackets, i, rounds_played)
        for k, name in enumerate(FIELDS):
            if name.startswith("C.7"):
                continue  # the next bracket's own C.5/C.6 count it already
            x = v[k]
            totals[name] = totals.get(name, 0) + (sum(x) if isinstance(x, list) else abs(x))
    return totals


def colour_floor(people: list[Entrant], pairing: tuple[list[tuple[int, int]], int | None]) -> int:
    """The fewest unmet colour preferences (C.10) any pairing of the same players within the same brackets
    could have: in each bracket, the surplus of one preferred colour over the other that the players without
    a preference cannot absorb, half of it per pair. For fields too large for the reference to pair."""
    floor = 0
    for b in brackets_of(people, *pairing):
        sides = [p.preference[0] for pair in b.pairs for p in pair]
        floor += max(0, abs(sides.count(WHITE) - sides.count(BLACK)) - sides.count(NONE)) // 2
    return floor
