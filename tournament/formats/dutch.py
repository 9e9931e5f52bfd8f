"""FIDE Dutch Swiss pairing (C.04.3) for any field size: the criteria as weights of a maximum-weight matching.

The round is paired bracket by bracket, top score first. A bracket is its resident players
(one score group) plus the players who floated down into it (MDPs). For each bracket one
maximum-weight matching is solved (rustworkx's compiled blossom) on the bracket and the next
score group: every edge is a legal pair (absolute criteria C.1-C.3: no rematch, no second
bye, non-topscorers with the same absolute colour preference never meet), and its weight
is a number whose bit fields, from the most significant down, count what the quality
criteria ask for, so a heavier matching is one that better satisfies a criterion of higher
priority:

- C.5 pairs in the bracket, C.6 the pairing score difference (MDPs paired, highest first),
- C.7 pairs and score differences in the next bracket (the choice of downfloaters),
- C.8-C.11 colours (topscorers' colour difference and three-in-a-row, colour preferences,
  strong preferences), C.12-C.15 repeated down- and upfloats one and two rounds back,
- last, the order in which the Dutch system generates candidates (D.1-D.3: MDPs by rank,
  the natural S1-S2 pairing, fewest and smallest exchanges), so among equally good
  pairings the one generated first wins.

If the players left after a bracket cannot all be paired (C.4), the bracket is paired again
as the penultimate bracket with every lower group collapsed into one (A.9). Colours follow
E.1-E.5. The last bracket's unpaired player gets the bye, never one who had one.

Entrant i is starting number i+1 (starting rank = entry order). A pairing of several games
counts as one game, won, drawn or lost by the points over those games, with the colour of
its first game (seat 0 = white); scores are counted in half points.

What it guarantees, at every size: the absolute criteria C.1-C.3 (no rematch, no second bye, no
two non-topscorers with the same absolute colour preference), C.4 (everyone left can still be
paired), and for each bracket a maximum-weight matching, so no legal pairing of that bracket meets a
quality criterion (C.5-C.19, in FIDE's priority order, as the weights encode them) better. What it
does not guarantee: the very pairing py4swiss (the reference the tests compare with; this pairer
is its own code) produces when several are equally good by every criterion. The Dutch generation
order (D.1-D.3) is only the last weight: solved choice by choice for brackets of up to
EXACT_BRACKET_MAX players whose graph (with the next group, unless it cannot matter) has up to
FULL_GRAPH_MAX nodes, and kept softly in one solve above, so it picks py4swiss's pairing usually,
not always.
Measured against py4swiss 0.3.1 on simulated events: every round identical up to 200 players;
22 of 27 rounds at 257 players and 24 of 27 at 300 identical, the other rounds different but
equally good by every criterion (tests/tournament/test_dutch_fide.py asserts at least 99%
identical on 20-300 players and never worse anywhere). Larger brackets are paired in slices (CHUNK
players of S1 at a time with as many of S2, taken by opposite colour preference so each slice is as
colour-balanced as the bracket; one solve each), and a bracket too large for the full graph offers
each player only candidates near its natural opponent; a 1,000-player round is checked never worse
than py4swiss's by any criterion C.5-C.19.

Cost: the weights are worked out once per kind of edge (every criterion depends only on the two
players' situations: score, colours, floats, bye), and once a bracket is settled inside (all its
players paired within it, or all but one whom the next group takes whoever it is) the next group
leaves the graph, so the many solves of the generation order run on the bracket alone. C.4's
check that the rest can be paired is a greedy pass, repaired exactly on its last pairs when it
strands players. bench/tournament.py (c) prints one round's time at 100, 1,000 and 10,000
players, and the slowest round of a whole event.
"""

from __future__ import annotations

import itertools
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import rustworkx as rx

from tourney.tournament.formats.pairing import PlayedGame

logger = logging.getLogger(__name__)

WHITE, BLACK, NONE = 1, -1, 0
MILD, STRONG, ABSOLUTE = 1, 2, 3
DOWN, UP = -1, 1
FULL_GRAPH_MAX = 320  # brackets (with the next group) up to this size get every legal edge
# ... and the generation order as its own solve per choice if the bracket itself has at most this many players:
# its cost is about one solve per S1 player, and no field of up to 300 players has a larger bracket after round one.
EXACT_BRACKET_MAX = 160
FIRST_WINDOW = 8
CHUNK = 60  # S1 players per slice of a very large bracket


class DutchUnavailable(Exception):
    """No pairing satisfies the absolute criteria (more rounds than the field allows)."""


@dataclass
class Entrant:
    """What the Dutch rules need to know about one player before the round."""

    index: int
    score: int = 0  # half points
    opponents: set[int] = field(default_factory=set)
    colours: list[int] = field(default_factory=list)  # WHITE/BLACK per game played
    had_bye: bool = False
    float1: int = 0  # DOWN/UP/0 one round back
    float2: int = 0  # two rounds back
    topscorer: bool = False
    preference: tuple[int, int] = (NONE, 0)  # colour side and strength, set by settle()

    @property
    def colour_diff(self) -> int:
        return sum(self.colours)

    def settle(self) -> None:
        """Work out the colour preference once the history is in (FIDE A.6): (side, strength)."""
        if not self.colours:
            self.preference = (NONE, 0)
            return
        diff = self.colour_diff
        double = len(self.colours) > 1 and self.colours[-1] == self.colours[-2]
        side = BLACK if diff > 0 else WHITE if diff < 0 else -self.colours[-1]
        strength = ABSOLUTE if abs(diff) > 1 or double else STRONG if abs(diff) == 1 else MILD
        self.preference = (side, strength)


def entrants_from_rounds(n: int, rounds: Sequence[Sequence[PlayedGame]], total_rounds: int | None,
                         extra: Sequence[Sequence[float]] | None = None) -> list[Entrant]:
    """Scores, opponents, colours, byes and floats of every entrant after the rounds played.

    `extra[r][i]` adds points entrant i got in round r without a game or a pairing-allocated bye
    (a requested half- or full-point bye in a TRF).
    """
    people = [Entrant(i) for i in range(n)]
    for r, games in enumerate(rounds):
        before = [p.score for p in people]
        played: set[int] = set()
        totals: dict[tuple[int, int], list[float]] = {}
        white_of: dict[tuple[int, int], int] = {}
        for g in games:
            if len(g.seats) == 1:
                people[g.seats[0]].had_bye = True
                continue
            key = (min(g.seats), max(g.seats))
            white_of.setdefault(key, g.seats[0])
            t = totals.setdefault(key, [0.0, 0.0])
            for seat, who in enumerate(g.seats):
                t[0 if who == key[0] else 1] += g.points[seat]
        floats = [DOWN] * n  # not playing counts as a downfloat (A.4.b)
        for (a, b), (pa, pb) in totals.items():
            for me, other, mine, theirs in ((a, b, pa, pb), (b, a, pb, pa)):
                p = people[me]
                p.score += 2 if mine > theirs else 1 if mine == theirs else 0
                p.opponents.add(other)
                p.colours.append(WHITE if white_of[(a, b)] == me else BLACK)
                floats[me] = DOWN if before[me] > before[other] else UP if before[me] < before[other] else 0
                played.add(me)
        for g in games:
            if len(g.seats) == 1:
                people[g.seats[0]].score += 2
        if extra is not None:
            for p in people:
                p.score += round(2 * extra[r][p.index])
        for p in people:
            p.float2, p.float1 = p.float1, floats[p.index]
    for p in people:
        p.settle()
        # A.7: topscorers have over half the maximum score when the last round is paired.
        p.topscorer = total_rounds is not None and len(rounds) + 1 >= total_rounds and p.score > len(rounds)
    return people


def legal(a: Entrant, b: Entrant) -> bool:
    """Absolute criteria C.1 and C.3 for a pair."""
    if b.index in a.opponents:
        return False
    (sa, ka), (sb, kb) = a.preference, b.preference
    return not (ka == ABSOLUTE and kb == ABSOLUTE and sa == sb and not (a.topscorer or b.topscorer))


def allocate_colours(a: Entrant, b: Entrant, first_white: bool = True) -> tuple[int, int]:
    """(white, black) by E.1-E.5; `a` and `b` in any order."""
    hi, lo = (a, b) if (a.score, -a.index) > (b.score, -b.index) else (b, a)
    (sh, kh), (sl, kl) = hi.preference, lo.preference
    side: int = NONE  # the colour the higher-ranked player gets
    if sh != sl and sh != NONE and sl != NONE or (sh == NONE) != (sl == NONE):
        side = sh if sh != NONE else -sl  # E.1: both preferences can be met
    elif sh != NONE and kh != kl:
        side = sh if kh > kl else -sl  # E.2: the stronger preference
    elif sh != NONE and kh == ABSOLUTE and abs(hi.colour_diff) != abs(lo.colour_diff):
        side = sh if abs(hi.colour_diff) > abs(lo.colour_diff) else -sl
    if side == NONE:
        for ch, cl in zip(reversed(hi.colours), reversed(lo.colours), strict=False):  # E.3: alternate
            if ch != cl:
                side = -ch
                break
    if side == NONE and sh != NONE:
        side = sh  # E.4: the higher-ranked player's preference
    if side == NONE:  # E.5: by the higher-ranked player's pairing number
        odd = hi.index % 2 == 0
        side = WHITE if odd == first_white else BLACK
    return (hi.index, lo.index) if side == WHITE else (lo.index, hi.index)


class Matcher:
    """A weighted graph on the bracket's nodes, edited between solves of rustworkx's maximum-weight matching."""

    def __init__(self, size: int) -> None:
        self.graph = rx.PyGraph(multigraph=True)  # never two edges between a pair; no lookup per added edge
        self.graph.add_nodes_from(range(size))
        self.weight: dict[tuple[int, int], int] = {}
        self.fixed: dict[int, int] = {}
        self.isolated_from = -1  # nodes from here on have left the graph (the next score group), -1 while none

    def load(self, edges: list[tuple[int, int]], weights: list[int]) -> None:
        """Add many new edges (u < v, positive weights) at once, in this order."""
        self.graph.add_edges_from([(u, v, w) for (u, v), w in zip(edges, weights, strict=True)])
        self.weight.update(zip(edges, weights, strict=True))

    def set(self, u: int, v: int, w: int) -> None:
        key = (u, v) if u < v else (v, u)
        if w <= 0:
            if self.weight.pop(key, None) is not None:
                self.graph.remove_edge(*key)
            return
        if key in self.weight:
            self.graph.update_edge(key[0], key[1], w)
        else:
            self.graph.add_edge(key[0], key[1], w)
        self.weight[key] = w

    def add(self, u: int, v: int, delta: int) -> None:
        """Change an existing edge's weight (a missing edge stays missing)."""
        key = (u, v) if u < v else (v, u)
        if key in self.weight:
            self.set(u, v, self.weight[key] + delta)

    def has(self, u: int, v: int) -> bool:
        return ((u, v) if u < v else (v, u)) in self.weight

    def drop(self, u: int, others: Sequence[int]) -> None:
        for v in others:
            self.set(u, v, 0)

    def isolate(self, x: int) -> None:
        """Remove every edge of x."""
        for y in list(self.graph.neighbors(x)):
            self.set(x, y, 0)

    def fix(self, u: int, v: int) -> None:
        """Decide that u and v meet: both leave the graph (so later solves are smaller) and are matched."""
        self.isolate(u)
        self.isolate(v)
        self.fixed[u], self.fixed[v] = v, u

    def solve(self) -> dict[int, int]:
        """Each matched node's partner."""
        mate = dict(self.fixed)
        for u, v in rx.max_weight_matching(self.graph, weight_fn=lambda w: w):
            mate[u], mate[v] = v, u
        return mate


MAX_BITS = 124  # rustworkx weighs in 128-bit integers; sums must not overflow
MIN_ORDER_BITS = 12  # at least this much room below the criteria for the preference among equals


class BracketSolver:
    """One bracket (MDPs + residents) and the next score group, paired by the criteria and then the Dutch order."""

    def __init__(self, mdps: list[Entrant], residents: list[Entrant], lower: list[Entrant], final: bool,
                 rounds_played: int, exact: bool = True) -> None:
        self.mdps, self.residents, self.lower = mdps, residents, lower
        self.final = final  # the penultimate (collapsed) or last bracket: pair everyone who can be
        self.bracket = mdps + residents
        self.nodes = self.bracket + lower
        self.nm, self.nb = len(mdps), len(self.bracket)
        self.rounds_played = rounds_played
        self.low_score = residents[-1].score
        self.exact = exact  # follow the Dutch generation order exactly (one solve per choice), or softly
        self._leftover: list[Entrant] | None = None  # the next group's greedy pairing's unpaired, once needed

    def inside(self, u: int) -> bool:
        return u < self.nb

    def _next_group_cannot_matter(self) -> bool:
        """A bracket of one score that can pair all its players but for parity, where the next group takes any
        one of them as a floater and still pairs everyone: every best pairing pairs as many here (C.5) and sends
        the next bracket the same (C.7), so the bracket is paired on its own edges (a greedy pass proves it)."""
        left = _greedy_leftover(self.residents)
        return len(left) == len(self.residents) % 2 and (not left or self.floater_is_absorbed(self.residents))

    def floater_is_absorbed(self, free: list[Entrant]) -> bool:
        """Would the next bracket make as many pairs, one of them with the floater, whichever of `free` floats into
        it? (C.7 counts those pairs and the floater's score difference.) A greedy pairing of the next group that
        leaves nobody, when each of `free` may meet someone there, proves it; so does one that leaves a single
        player whom each of `free` may meet. Else no."""
        if self._leftover is None:
            self._leftover = _greedy_leftover(self.lower)
        left = self._leftover
        if not left:
            return all(any(legal(p, q) for q in self.lower) for p in free)
        return len(left) == 1 and all(legal(p, left[0]) for p in free)

    def edges(self, window: int | None) -> list[tuple[int, int]]:
        """Legal pairs of node positions; with a window, residents only see candidates near their natural opponent
        (the next few below them, and the few around the player half a bracket down); MDPs see everyone."""
        half = max(1, len(self.residents) // 2)
        size = len(self.nodes)
        index = [p.index for p in self.nodes]
        # legal() for many pairs at once: no rematch, and no two non-topscorers with the same absolute preference.
        barred = [p.preference[0] if p.preference[1] == ABSOLUTE and not p.topscorer else None for p in self.nodes]
        out: list[tuple[int, int]] = []
        for u, a in enumerate(self.nodes):
            if window is None or u < self.nm:
                near: Iterable[int] = range(u + 1, size)
            else:
                near = sorted(set(range(u + 1, min(size, u + window + 1)))
                              | set(range(max(u + 1, u + half - window), min(size, u + half + window + 1))))
            met, side = a.opponents, barred[u]
            if side is None:
                out.extend((u, v) for v in near if index[v] not in met)
            else:
                out.extend((u, v) for v in near if index[v] not in met and barred[v] != side)
        return out

    def _sd(self, p: Entrant) -> int:
        """A.8: the score difference a downfloater causes (in half points, from one point below the bracket)."""
        return p.score - self.low_score + 2

    def _repeated_down_sd(self, a: Entrant, b: Entrant, back: int) -> dict[int, int]:
        """C.16/C.18: score differences of repeated downfloats avoided, less the one this pair causes."""
        hi, lo = _higher(a, b)
        out: dict[int, int] = {}
        for p in (a, b):
            if _floated(p, back, DOWN):
                out[self._sd(p)] = out.get(self._sd(p), 0) + 1
        if _floated(hi, back, DOWN) and hi.score > lo.score:
            out[hi.score - lo.score] = out.get(hi.score - lo.score, 0) - 1
        return out

    def criteria_weights(self, edges: list[tuple[int, int]]) -> tuple[dict[int, int], list[int], int]:
        """The weight over the quality criteria (most important field highest) of each kind of edge, the kind of
        each of `edges` (each (u, v) with u < v; in their order), and the width in bits.

        A field counts something per pair (an int), or counts it per score difference (buckets: a tuple of
        (difference, count), the larger difference weighing more than any number of smaller ones). Every field
        depends only on the two players' situations (score, colours, floats, bye), not on who they are, so it
        is worked out once per kind of edge: brackets are large and situations few.
        """
        nodes, nb = self.nodes, self.nb
        kind_of: dict[tuple[Any, ...], int] = {}
        kind = [kind_of.setdefault(_situation(p), len(kind_of)) for p in nodes]
        k = len(kind_of)
        # An edge inside the bracket is keyed by its two kinds; one reaching the next group also by whether its
        # first end is in the bracket (the C.7 fields ask which end floats down), as a negative key.
        keys = [kind[u] * k + kind[v] if v < nb else -1 - 2 * (kind[u] * k + kind[v]) - (u < nb) for u, v in edges]
        uses = Counter(keys)
        example = dict(zip(keys, edges, strict=True))
        inner = [key for key in uses if key >= 0]
        outer = [key for key in uses if key < 0]
        inner_uses = [uses[key] for key in inner]
        outer_uses = [uses[key] for key in outer]
        most_pairs = len(nodes) // 2 + 1
        fields: list[tuple[int, list[int], list[int] | None]] = []

        def field(values: list[Any], outside: list[Any] | None = None) -> None:
            # A field that is equal on every pair inside the bracket and zero elsewhere decides nothing once
            # C.5 has fixed how many pairs inside the bracket there are.
            reaches_out = outside is not None and any(outside)
            if fields and len(set(values)) <= 1 and not reaches_out:
                return
            bits, packed = _pack(values + (outside or []), inner_uses + (outer_uses if outside is not None else []),
                                 most_pairs if reaches_out else nb // 2)
            fields.append((bits, packed[:len(values)], packed[len(values):] if reaches_out else None))

        pairs = [(nodes[example[key][0]], nodes[example[key][1]]) for key in inner]
        downs = [(nodes[example[key][0]], nodes[example[key][1]]) for key in outer]
        if self.final:  # everyone left is paired, and whoever stays unpaired has had no bye (C.2)
            field([1 + a.had_bye + b.had_bye for a, b in pairs], [1 + a.had_bye + b.had_bye for a, b in downs])
        field([1] * len(pairs), [0] * len(downs))  # C.5
        sd = self._sd

        def psd(a: Entrant, b: Entrant) -> tuple[tuple[int, int], ...]:
            # C.6: downfloats avoided, less the pair's score difference
            out = {sd(a): 2} if sd(a) == sd(b) else {sd(a): 1, sd(b): 1}
            diff = abs(a.score - b.score)
            if diff:
                out[diff] = out.get(diff, 0) - 1
            return tuple(sorted(out.items()))
        if self.mdps or len({p.score for p in self.residents}) > 1:
            field([psd(a, b) for a, b in pairs])
        if not self.final and self.lower:  # C.7: pairs in the next bracket, then the scores floating into it
            field([0] * len(pairs), [1] * len(downs))
            field([()] * len(pairs), [((sd(a) if example[key][0] < nb else sd(b), 1),)
                                      for key, (a, b) in zip(outer, downs, strict=True)])
        # Fields that cannot tell two matchings apart here are skipped without being computed: C.8-C.9 without
        # topscorers; in a bracket of one score nobody floats, so only who downfloats out of it (C.12/C.14) counts.
        colour = [colour_conflicts(a, b) for a, b in pairs]
        tops = any(p.topscorer for p in self.bracket)
        for c in range(0 if tops else 2, 4):  # C.8-C.11
            field([1 - x[c] for x in colour])
        one_score = not self.mdps and len({p.score for p in self.residents}) == 1
        backs = [b for b in (1, 2) if self.rounds_played >= b]

        def floated(back: int, way: int) -> bool:
            return any((p.float1 if back == 1 else p.float2) == way for p in self.bracket)

        def items(d: dict[int, int]) -> tuple[tuple[int, int], ...]:
            return tuple(sorted(d.items()))
        for back in backs:  # C.12-C.15: repeated down- and upfloats, one and two rounds back
            if floated(back, DOWN):
                field([repeated_downfloats_avoided(a, b, back) for a, b in pairs])
            if self.rounds_played >= 2 and not one_score and floated(back, UP):
                field([1 - repeated_upfloat(a, b, back) for a, b in pairs])
        for back in backs if not one_score else []:  # C.16-C.19: the score differences of those floats
            if floated(back, DOWN):
                field([items(self._repeated_down_sd(a, b, back)) for a, b in pairs])
            if floated(back, UP):
                field([((sd(_higher(a, b)[0]), -1),) if repeated_upfloat(a, b, back) else () for a, b in pairs])
        while sum(bits for bits, _, _ in fields) > MAX_BITS - MIN_ORDER_BITS and len(fields) > 1:
            # Only for very large brackets late in a long event: the least important criteria are left out
            # rather than overflow the solver's 128-bit weights.
            logger.debug("bracket of %d: dropping a criterion field to fit 128-bit weights", len(nodes))
            fields.pop()
        widths = [bits for bits, _, _ in fields]
        weight = dict(zip(inner, _combine(widths, [values for _, values, _ in fields]), strict=True))
        weight.update(zip(outer, _combine(widths, [outside or [0] * len(outer) for _, _, outside in fields]),
                          strict=True))
        return weight, keys, sum(widths)

    def solve(self) -> tuple[list[tuple[Entrant, Entrant]], list[Entrant]]:
        """The bracket's pairs and its unpaired players (downfloaters, or the bye in the last bracket)."""
        if self.lower and not self.final and not self.mdps and self._next_group_cannot_matter():
            self.lower, self.nodes = [], self.bracket
        natural = self._natural_if_perfect()
        if natural is not None:
            return natural
        m = len(self.nodes)
        if m > FULL_GRAPH_MAX and len(self.residents) > 2 * CHUNK:
            return self._in_chunks()
        if m <= FULL_GRAPH_MAX:
            mate = self._match(self.edges(None), exact=self.exact and self.nb <= EXACT_BRACKET_MAX)
        else:
            # Large brackets: candidates near the natural opponent, widened once if that leaves players unpaired
            # or more colour clashes than the bracket's preferences force.
            for window in (FIRST_WINDOW, 4 * FIRST_WINDOW):
                mate = self._match(self.edges(window), exact=False)
                if self._as_good_as_it_gets(mate, colours=window == FIRST_WINDOW):
                    break
        pairs = [(self.nodes[u], self.nodes[v]) for u, v in mate.items() if u < v and self.inside(u) and self.inside(v)]
        paired = {p.index for pr in pairs for p in pr}
        return pairs, [p for p in self.bracket if p.index not in paired]

    def _in_chunks(self) -> tuple[list[tuple[Entrant, Entrant]], list[Entrant]]:
        """A very large bracket, paired slice by slice: the natural pairing meets S1[i] with S2[i], so the i-th
        CHUNK of S1 and as many S2 players, each S1 player's opposite colour preference first (_ColourQueues),
        form a sub-bracket (the MDPs join the first one). Whoever a slice leaves unpaired joins the next; the
        last slice sees the next score group (C.7) and, in the last bracket, pairs everyone it can. The rules
        hold in every slice; the generation order holds inside it."""
        res = self.residents
        half = len(res) // 2
        pairs: list[tuple[Entrant, Entrant]] = []
        carry = list(self.mdps)
        starts = list(range(0, half, CHUNK))
        s2 = _ColourQueues(res[half:])
        for n_slice, start in enumerate(starts):
            last = n_slice == len(starts) - 1
            top = res[start:start + CHUNK] if not last else res[start:half]
            bottom = s2.partners(top) if not last else s2.rest()
            members = sorted(carry + top + bottom, key=lambda p: (-p.score, p.index))
            mdps = [p for p in members if p.score > self.low_score]
            # The next group's top few are enough to judge a slice's downfloaters (C.7); a collapsed group
            # below the penultimate bracket stays whole, as all of it must be paired.
            below = self.lower if self.final else self.lower[:2 * CHUNK]
            sub = BracketSolver(mdps, [p for p in members if p.score == self.low_score],
                                below if last else [], self.final if last else False,
                                self.rounds_played, exact=False)
            got, carry = sub.solve()
            pairs.extend(got)
        return pairs, carry

    def _match(self, edges: list[tuple[int, int]], exact: bool) -> dict[int, int]:
        by_kind, kinds, width = self.criteria_weights(edges)
        m = len(self.nodes)
        soft_bits, pair_bits = 2 * m.bit_length(), (m // 2 + 1).bit_length()
        # Below the criteria: the Dutch order's bonuses (exact), each worth more than any matching's total soft
        # preference, which sits in the lowest bits (at most m * m an edge).
        order_bits = 2 * self.nb.bit_length() + 3 + soft_bits + 2 * pair_bits + 1
        shift = max(0, min(order_bits, MAX_BITS - width))
        exact = exact and shift >= order_bits
        half = max(1, len(self.residents) // 2)
        nm = self.nm
        # A preference for the natural S1-S2 opponent (an MDP: the top resident). In the exact order it only
        # makes first guesses right more often (fewer solves); otherwise it is the order, with higher-ranked
        # players paired first so the lowest is the one left over.
        room, up = shift - pair_bits, m.bit_length() + 1
        if not exact and ((m << up) + 2 * m).bit_length() <= room:
            # One solve (no graph to edit afterwards), and every soft preference fits whole (the usual case):
            # the weights in one pass, the criteria's part shifted once per kind of edge.
            base = {kind: (w << shift) + 2 * m + 1 for kind, w in by_kind.items()}
            return _solve_once(m, [(u, v, base[kind] + (((x if (x := m - abs(v - u - half)) > 0 else 0)
                                                          if u >= nm else m - v) << up) - u - v)
                                   for (u, v), kind in zip(edges, kinds, strict=True)])
        weights = [by_kind[kind] for kind in kinds]
        softs = [(x if (x := m - abs(v - u - half)) > 0 else 0) if u >= nm else m - v for u, v in edges]
        if not exact:  # one solve: no graph to edit afterwards
            softs = _top_bits([(s << up) + (2 * m - u - v) for s, (u, v) in zip(softs, edges, strict=True)], room)
            return _solve_once(m, [(u, v, (w << shift) + s + 1)
                                   for (u, v), w, s in zip(edges, weights, softs, strict=True)])
        full = [(w << shift) + s + 1 for w, s in zip(weights, softs, strict=True)]
        matcher = Matcher(m)
        matcher.load(edges, full)
        mate = matcher.solve()
        return DutchOrder(self, matcher, mate, 1 << (soft_bits + pair_bits),
                          dict(zip(edges, softs, strict=True))).run()

    def _natural_if_perfect(self) -> tuple[list[tuple[Entrant, Entrant]], list[Entrant]] | None:
        """The first candidate of the Dutch order (S1[i] against S2[i]) when it breaks no criterion at all: a
        homogeneous bracket in which every natural pair is legal and gets both colour preferences, even, or odd
        as the last bracket whose lowest player may take the bye without a repeated downfloat. Nothing can beat
        it, and it comes first (round one of any field is such a bracket)."""
        if self.mdps or self.final and self.lower:
            return None
        half = len(self.residents) // 2
        left = self.residents[2 * half:]
        if left and (self.lower or left[0].had_bye or left[0].float1 == DOWN or left[0].float2 == DOWN):
            return None
        pairs = list(zip(self.residents[:half], self.residents[half:2 * half], strict=True))
        # Nobody floats in such a pairing, so the float criteria hold too; C.7 has no downfloaters to judge.
        if all(legal(a, b) and not colour_conflicts(a, b)[2] for a, b in pairs):
            return pairs, left
        return None

    def _as_good_as_it_gets(self, mate: dict[int, int], colours: bool) -> bool:
        """The windowed matching pairs the whole bracket (but for parity) with no more colour clashes than the
        preferences force (the surplus of one colour over the other, less the players without a preference)."""
        unpaired = sum(1 for u in range(self.nb) if u not in mate or not self.inside(mate[u]))
        if unpaired > self.nb % 2:
            return False
        if not colours:
            return True
        clashes = sum(colour_conflicts(self.nodes[u], self.nodes[v])[2] for u, v in mate.items()
                      if u < v and self.inside(v))
        sides = [p.preference[0] for p in self.bracket]
        forced = max(0, abs(sides.count(WHITE) - sides.count(BLACK)) - sides.count(NONE) - self.nb % 2) // 2
        return clashes <= forced


class _ColourQueues:
    """S2 of a very large bracket as three queues by colour preference side, each in rank order.

    A slice of S2 cut by position alone holds whatever colours happen to lie there, and a slice pairs all it
    can (C.5 before C.10): where its S1 part wants more whites than its S2 part has blacks, it meets
    same-preference pairs that the whole bracket would not need (at 10,000 players, ten times the forced
    number). Taking for each S1 player the next S2 player of the opposite preference keeps every slice as
    balanced as the bracket, and each queue is taken in rank order, so the slice stays near the natural pairing.
    """

    def __init__(self, players: list[Entrant]) -> None:
        self.queues = {side: [p for p in players if p.preference[0] == side] for side in (WHITE, BLACK, NONE)}
        self.heads = dict.fromkeys(self.queues, 0)

    def _take(self, side: int) -> Entrant | None:
        i = self.heads[side]
        if i >= len(self.queues[side]):
            return None
        self.heads[side] = i + 1
        return self.queues[side][i]

    def _first(self) -> Entrant:
        """The highest-ranked player left in any queue."""
        side = min((s for s in self.queues if self.heads[s] < len(self.queues[s])),
                   key=lambda s: self.queues[s][self.heads[s]].index)
        got = self._take(side)
        assert got is not None
        return got

    def partners(self, top: list[Entrant]) -> list[Entrant]:
        """As many S2 players as `top` has, each S1 player's opposite preference first, then no preference, then
        the highest-ranked left; in rank order."""
        out = []
        for p in top:
            side = p.preference[0]
            got = (self._take(-side) or self._take(NONE)) if side != NONE else None
            out.append(got or self._first())
        return sorted(out, key=lambda p: p.index)

    def rest(self) -> list[Entrant]:
        """Everyone not yet taken, in rank order."""
        return sorted((p for s, q in self.queues.items() for p in q[self.heads[s]:]), key=lambda p: p.index)


def _pack(values: list[Any], uses: list[int], most_pairs: int) -> tuple[int, list[int]]:
    """A field's values (one per kind of edge, `uses` edges of each kind) as integers and its width: a count, or
    buckets of counts by score difference (a tuple of (difference, count); the larger difference in the higher
    bits), each just wide enough for its sum over a whole matching (one more bit, for the sign, where a value
    can be negative)."""
    def width(top: int, used: int, signed: bool) -> int:
        return (top * min(used, most_pairs)).bit_length() + (1 if signed else 0)

    if not values or isinstance(values[0], int):
        top = max(map(abs, values), default=0)
        return width(top, most_pairs, min(values, default=0) < 0), values
    seen: dict[int, list[int]] = {}  # bucket -> [edges using it, largest |coefficient|, any negative]
    for v, count in zip(values, uses, strict=True):
        for k, c in v:
            entry = seen.setdefault(k, [0, 0, 0])
            entry[0] += count
            entry[1] = max(entry[1], abs(c))
            entry[2] |= c < 0
    offset: dict[int, int] = {}
    bits = 0
    for k in sorted(seen):
        offset[k] = bits
        used, top, negative = seen[k]
        bits += width(top, used, bool(negative))
    return bits, [sum(c << offset[k] for k, c in v) for v in values]


def _combine(widths: list[int], columns: list[list[int]]) -> list[int]:
    """Per row, the fields' values side by side in one integer (the first field highest), each `widths` bits."""
    out = [0] * (len(columns[0]) if columns else 0)
    for bits, values in zip(widths, columns, strict=True):
        out = [(w << bits) + x for w, x in zip(out, values, strict=True)]
    return out


def _situation(p: Entrant) -> tuple[Any, ...]:
    """All the quality criteria ask of a player: two players in the same situation weigh the same in every pair.
    (Where a criterion tells the higher-ranked of a pair by starting number, the two have equal scores and it
    counts both alike.)"""
    double = len(p.colours) > 1 and p.colours[-1] == p.colours[-2]
    return p.score, p.preference, p.topscorer, abs(p.colour_diff) > 1, double, p.float1, p.float2, p.had_bye


def colour_conflicts(a: Entrant, b: Entrant) -> tuple[int, int, int, int]:
    """Violations of C.8-C.11 if a and b meet: (topscorer colour difference beyond 2, topscorer's third colour
    in a row, a colour preference not met, a strong colour preference not met)."""
    (sa, ka), (sb, kb) = a.preference, b.preference
    clash = sa != NONE and sa == sb
    top = a.topscorer or b.topscorer
    double = len(a.colours) > 1 and a.colours[-1] == a.colours[-2] and len(b.colours) > 1 \
        and b.colours[-1] == b.colours[-2]
    return (int(top and clash and abs(a.colour_diff) > 1 and abs(b.colour_diff) > 1), int(top and clash and double),
            int(clash), int(clash and ka >= STRONG and kb >= STRONG))


def _solve_once(size: int, edges: list[tuple[int, int, int]]) -> dict[int, int]:
    """Each matched node's partner in a maximum-weight matching of these (u, v, positive weight) edges."""
    graph = rx.PyGraph(multigraph=True)  # never two edges between a pair; no lookup per added edge
    graph.add_nodes_from(range(size))
    graph.add_edges_from(edges)
    mate: dict[int, int] = {}
    for u, v in rx.max_weight_matching(graph, weight_fn=lambda w: w):
        mate[u], mate[v] = v, u
    return mate


def _top_bits(values: list[int], room: int) -> list[int]:
    """Each value cut to its `room` most significant bits (0 when there is no room)."""
    if room <= 0:
        return [0] * len(values)
    return [x >> (b - room) if (b := x.bit_length()) > room else x for x in values]


def _higher(a: Entrant, b: Entrant) -> tuple[Entrant, Entrant]:
    return (a, b) if (a.score, -a.index) > (b.score, -b.index) else (b, a)


def repeated_downfloats_avoided(a: Entrant, b: Entrant, back: int) -> int:
    """C.12/C.14: players who downfloated `back` rounds ago and do not downfloat again in this pair."""
    hi, lo = _higher(a, b)
    return int(_floated(hi, back, DOWN) and hi.score <= lo.score) + int(_floated(lo, back, DOWN))


def _floated(p: Entrant, back: int, way: int) -> bool:
    """Did p float `way` (DOWN/UP) `back` rounds ago?"""
    return (p.float1 if back == 1 else p.float2) == way


def repeated_upfloat(a: Entrant, b: Entrant, back: int) -> int:
    """C.13/C.15: 1 when the lower player upfloated `back` rounds ago and upfloats again here."""
    hi, lo = _higher(a, b)
    was = lo.float1 == UP if back == 1 else lo.float2 == UP
    return int(was and hi.score > lo.score)


class DutchOrder:
    """Among the matchings that best meet the criteria, the one the Dutch system generates first (D.1-D.3).

    Each choice, in the order the rules make it, is a small bonus on some edges and a new solve;
    once made it is fixed (edges removed), so later bonuses never undo it. The bonuses live
    below the criteria's bits, so every solve stays optimal for the criteria.
    """

    def __init__(self, solver: BracketSolver, matcher: Matcher, mate: dict[int, int], unit: int,
                 soft: dict[tuple[int, int], int]) -> None:
        self.s, self.m, self.mate, self.soft = solver, matcher, mate, soft
        self.unit = unit  # the bonuses sit above the soft natural-order preference in the lowest bits

    def resolve(self) -> None:
        self.mate = self.m.solve()

    def with_resident(self, u: int) -> bool:
        v = self.mate.get(u)
        return v is not None and self.s.nm <= v < self.s.nb

    def in_s1(self, u: int) -> bool:
        """Paired with a lower-ranked resident: u leads its pair."""
        v = self.mate.get(u)
        return v is not None and u < v < self.s.nb

    def bump(self, u: int, others: Sequence[int], value: int, step: int = 0) -> None:
        for v in others:
            self.m.add(u, v, value * self.unit)
            value += step

    def leave_next_group_when_settled(self) -> None:
        """Just after a solve: if everyone left in a (not final) bracket is paired inside it, every best matching
        pairs them inside (C.5, the first criterion, counts those pairs), so the next group's edges cannot
        change who meets whom here any more: they leave the graph, and the solves that follow are smaller.

        The same holds with one player left over (an odd bracket) when everyone still free here has one score
        and the next group pairs all its players with any of them: then whoever floats, the next bracket makes
        as many pairs and sees the same score difference, so C.7 cannot prefer one floater to another and the
        choice is the generation order's alone, made on the bracket's edges."""
        s = self.s
        if s.final or len(s.nodes) == s.nb or self.m.isolated_from >= 0:
            return
        free = [u for u in range(s.nb) if u not in self.m.fixed]
        out = sum(1 for u in free if self.mate.get(u, s.nb) >= s.nb)
        if out == 0 or out == 1 and len({s.nodes[u].score for u in free}) == 1 \
                and s.floater_is_absorbed([s.nodes[u] for u in free]):
            for x in range(s.nb, len(s.nodes)):
                self.m.isolate(x)
            self.m.isolated_from = s.nb

    def run(self) -> dict[int, int]:
        s = self.s
        residents = list(range(s.nm, s.nb))
        size = len(s.nodes)
        self.leave_next_group_when_settled()  # the first solve may settle it already: D.2's solve is then smaller
        # D.3: which MDPs are paired in the bracket: the highest-ranked first.
        chosen = []
        for u in range(s.nm):
            if not self.with_resident(u):
                self.bump(u, residents, 1)
                self.resolve()
            if self.with_resident(u):
                chosen.append(u)
                self.bump(u, residents, size)
        # D.1 for MDPs: each paired MDP, in rank order, meets the highest-ranked resident it can.
        fixed: set[int] = set()
        for u in chosen:
            first = next((v for v in residents if v not in fixed and self.m.has(u, v)), None)
            if self.mate.get(u) != first:  # else no solve can give it a higher-ranked resident
                self.bump(u, residents[::-1], 0, 1)
                self.resolve()
            v = self.mate[u]
            self.m.fix(u, v)
            fixed |= {u, v}
        remainder = [u for u in residents if u not in fixed]
        pairs = sum(1 for u in remainder if self.mate.get(u) in remainder) // 2
        s1, s2 = remainder[:pairs], remainder[pairs:]
        # D.2.a-b: fewest exchanges between the original S1 and S2, then the smallest difference of their sums.
        bits = 2 * len(remainder).bit_length()
        for i, u in enumerate(remainder):
            self.bump(u, remainder[i + 1:], ((int(i < pairs) << bits) - i) << 1)
        self.resolve()
        self.leave_next_group_when_settled()
        exchanges = sum(1 for u in s1 if not self.in_s1(u))
        lower = list(range(s.nb, size))
        # D.2.c: move the lowest-ranked players of S1 to S2 first.
        left = exchanges
        for i in range(len(s1) - 1, -1, -1):
            if left == 0:
                break
            u, below = s1[i], s1[i + 1:] + s2
            moved = not self.in_s1(u)
            if not moved:
                self.bump(u, below, -1)
                self.resolve()
            if not self.in_s1(u):
                left -= 1
                self.m.drop(u, below)
            if not moved:
                self.bump(u, below, 1)
        # D.2.d: move the highest-ranked players of S2 to S1 first.
        left = exchanges
        for i, u in enumerate(s2):
            if left == 0:
                break
            above = s1 + s2[:i]
            moved = self.in_s1(u)
            if not moved:
                self.bump(u, above, -1)
                self.resolve()
            if self.in_s1(u):
                left -= 1
                self.m.drop(u, above + lower)
            if not moved:
                self.bump(u, above, 1)
        leaders = [u for u in remainder if self.in_s1(u)]
        followers = [u for u in remainder if not self.in_s1(u)]
        for group in (leaders, followers):
            for i, u in enumerate(group):
                self.m.drop(u, group[i + 1:])
        # D.1: each S1 player, in rank order, meets the highest-ranked S2 player it can. When the current best
        # matching already gives it the highest-ranked free S2 player it has an edge to, no solve can do better.
        # The soft preference is reset to (|S1| - i)(|S2| - j) for S1[i]-S2[j]: a matching that maximises it
        # pairs early S1 players with early S2 players, so the current matching is usually already that one.
        for i, u in enumerate(leaders):
            for j, v in enumerate(followers):
                if self.m.has(u, v):
                    self.m.add(u, v, (len(leaders) - i) * (len(followers) - j) - self.soft.get((u, v), 0))
        self.resolve()
        self.leave_next_group_when_settled()
        # Every solve is a best matching by the criteria, so all best ones break each colour criterion (C.8-C.11)
        # as often as this one. Where it breaks one nowhere, no best matching has a pair that would: such an S2
        # player is no leader's first choice, and skipping it spares a solve that could not change the matching.
        nodes = s.nodes
        kept = [c for c in range(4) if not any(colour_conflicts(nodes[u], nodes[v])[c] for u, v in self.mate.items()
                                                if u < v < s.nb)]
        taken: set[int] = set()
        for u in leaders:
            first = next((v for v in followers if v not in taken and self.m.has(u, v)
                          and not any(colour_conflicts(nodes[u], nodes[v])[c] for c in kept)), None)
            if self.mate.get(u) != first:
                self.bump(u, followers[::-1], 0, 1)
                self.resolve()
            partner = self.mate.get(u)
            if partner is not None:
                self.m.fix(u, partner)
                taken.add(partner)
        self.resolve()
        return self.mate


def _greedy_leftover(players: list[Entrant]) -> list[Entrant]:
    """Who is left when these are paired greedily, each with the first legal partner after it."""
    left = list(players)
    out = []
    while left:
        a = left.pop(0)
        b = next((x for x in left if legal(a, x)), None)
        if b is None:
            out.append(a)
        else:
            left.remove(b)
    return out


def completes(players: list[Entrant]) -> bool:
    """C.4: can these players all be paired legally (one left over when odd, who has had no bye)?"""
    if not players:
        return True
    # A greedy pass in score order settles almost every case without building a graph.
    rest = sorted(players, key=lambda p: (-p.score, p.index))
    left = list(rest)
    made: list[Entrant] = []  # the greedy pass's pairs, two by two in the order made
    while len(left) > 1:
        a = left.pop(0)
        b = next((x for x in left if legal(a, x)), None)
        if b is None:
            left.insert(0, a)
            break
        left.remove(b)
        made += [a, b]
    else:
        if not left or not left[0].had_bye:
            return True
    # Late in an event the greedy pass often strands its last few players. Undoing its last pairs and pairing
    # those players with the stranded ones exactly usually proves it (the other greedy pairs stand); then a
    # matching over each player's next few legal partners; only when both fail is every pair tried, which at
    # 1,000 players would be most of a round's time.
    pool = made[-2 * REPAIR_PAIRS:] + left
    return _pairs_everyone(sorted(pool, key=lambda p: (-p.score, p.index)), None) \
        or _pairs_everyone(rest, NEAR_PARTNERS) or _pairs_everyone(rest, None)


REPAIR_PAIRS = 40
NEAR_PARTNERS = 12


def _pairs_everyone(rest: list[Entrant], near: int | None) -> bool:
    """Does a maximum matching pair all of `rest` (one left over without a bye when odd), each player offered its
    first `near` legal partners after it in this order (every one with None)?"""
    g = rx.PyGraph(multigraph=True)  # never two edges between a pair
    g.add_nodes_from(range(len(rest) + 1))
    edges: list[tuple[int, int, int]] = []
    for i, a in enumerate(rest):
        found = (j for j in range(i + 1, len(rest)) if legal(a, rest[j]))
        edges.extend((i, j, 1) for j in (found if near is None else itertools.islice(found, near)))
        if len(rest) % 2 and not a.had_bye:
            edges.append((i, len(rest), 1))
    g.add_edges_from(edges)
    need = (len(rest) + 1) // 2
    return len(rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda x: x)) >= need


def pair_entrants(people: list[Entrant], rounds_played: int, first_white: bool = True
                  ) -> tuple[list[tuple[int, int]], int | None]:
    """Pair one round: (white, black) pairs in publishing order, and the bye. `first_white`: the initial
    colour of E.5 (white for the top seed in round one)."""
    if not completes(people):
        raise DutchUnavailable("no pairing avoids a rematch, a second bye and an absolute colour clash")
    order = sorted(people, key=lambda p: (-p.score, p.index))
    groups = [list(g) for _, g in itertools.groupby(order, key=lambda p: p.score)]
    pairs: list[tuple[Entrant, Entrant]] = []
    mdps: list[Entrant] = []
    collapsed = False
    i = 0
    while i < len(groups):
        residents = groups[i]
        lower = groups[i + 1] if i + 1 < len(groups) else []
        final = collapsed and i == len(groups) - 2 or not lower
        if not residents and not mdps:
            i += 1
            continue
        if not residents:  # only floaters left: they form the bracket
            residents, mdps = mdps, []
        solver = BracketSolver(mdps, residents, lower, final, rounds_played)
        got, left = solver.solve()
        if not final and not completes(left + [p for g in groups[i + 1:] for p in g]):
            groups = groups[:i + 1] + [[p for g in groups[i + 1:] for p in g]]
            collapsed = True
            continue
        pairs.extend(got)
        mdps = left
        i += 1
    bye = None
    if mdps:
        bye = mdps[0].index
    out = [allocate_colours(a, b, first_white) for a, b in pairs]
    rank = {p.index: (p.score, -p.index) for p in people}

    def publish(pair: tuple[int, int]) -> tuple[tuple[int, int], int, int]:
        hi = max(pair, key=lambda x: rank[x])
        return rank[hi], rank[pair[0]][0] + rank[pair[1]][0], -hi
    out.sort(key=publish, reverse=True)
    return out, bye


def dutch_round(
    n: int, rounds: Sequence[Sequence[PlayedGame]], total_rounds: int | None
) -> tuple[list[tuple[int, int]], int | None]:
    """Pair round len(rounds)+1 of an n-player Swiss of `total_rounds` rounds by the FIDE Dutch rules.

    Returns (white, black) pairs and the bye (None for an even field). Raises DutchUnavailable
    when no pairing satisfies the absolute criteria.
    """
    if n < 2:
        raise ValueError("a Swiss round needs at least two players")
    people = entrants_from_rounds(n, rounds, total_rounds)
    return pair_entrants(people, len(rounds))
