"""Movement shapes (spec §4.1) walked out once, at import, for every seat, square and roll.

Move generation is the hot path of every playout, so everything that does not depend on
the position is decided here: each candidate path's squares, its depth, whether it leaves
the home dojo, whether its turning square lies in the opponent's dojo (a reversal whose
turning square does not is never legal and is dropped here), and a bitmask of the squares
that must be empty for it (the clear-path rule, §4.2.1). At play time a candidate is legal
when `mask & occupied == 0` plus a few flag tests.

Candidates are grouped by the spec's action key (from, to, uses_reversal, depth) (§3.3);
inside a group they are ordered by their direction string (N < E < S < W), so the first
clear one is the canonical path.
"""

from __future__ import annotations

import operator
from functools import reduce

from tourney.engine.games.ninja_versus_ninja.actions import Move
from tourney.engine.games.ninja_versus_ninja.data import (
    BACKWARD,
    COLS,
    DIR_DELTA,
    FORWARD,
    HOME_ROWS,
    NUM_SQUARES,
    ROLL_WEIGHTS,
    ROW_DEPTH,
    ROWS,
    SIDEWAYS,
    SQUARE_NAMES,
    col_of,
    row_of,
)


class Group:
    """All candidate paths of one action key, canonical (smallest direction string) first.

    leaves_home: the mover is a home Ninja and the path visits a square outside the home
    dojo, i.e. the move starts a mission (§4.2.4).
    """

    __slots__ = ("frm", "to", "rev", "depth", "leaves_home", "ends_home", "paths", "masks", "crossed", "shared")

    def __init__(self, frm: int, to: int, rev: bool, depth: int, leaves_home: bool, ends_home: bool) -> None:
        self.frm = frm
        self.to = to
        self.rev = rev
        self.depth = depth
        self.leaves_home = leaves_home
        self.ends_home = ends_home
        self.paths: list[Move] = []
        self.masks: list[int] = []
        # Every square some path crosses, and the squares every path crosses: the legal move
        # lists test these first, since most positions leave all paths clear or block them all.
        self.crossed = 0
        self.shared = 0


IN_HOME = tuple(tuple(row_of(sq) in HOME_ROWS[p] for sq in range(NUM_SQUARES)) for p in (0, 1))
HOME_MASK = tuple(sum(1 << sq for sq in range(NUM_SQUARES) if IN_HOME[p][sq]) for p in (0, 1))
OPP_DOJO = tuple(tuple(IN_HOME[1 - p][sq] for sq in range(NUM_SQUARES)) for p in (0, 1))
SQ_DEPTH = tuple(tuple(ROW_DEPTH[p][row_of(sq)] for sq in range(NUM_SQUARES)) for p in (0, 1))


def _shapes(n: int, p: int) -> list[tuple[tuple[int, ...], bool, int]]:
    """Every step sequence of length n for seat p: (directions, is_reversal, turning step index)."""
    out: list[tuple[tuple[int, ...], bool, int]] = []
    for d in range(4):  # STRAIGHT
        out.append(((d,) * n, False, -1))
    for d1 in range(4):  # L: exactly one 90° turn, both legs >= 1
        for d2 in range(4):
            if d1 % 2 == d2 % 2:
                continue
            for a in range(1, n):
                out.append(((d1,) * a + (d2,) * (n - a), False, -1))
    f, b = FORWARD[p], BACKWARD[p]
    for a in range(1, n):  # REV: a forward then n-a back; turning square after step a
        out.append(((f,) * a + (b,) * (n - a), True, a - 1))
    for s in SIDEWAYS:  # S-REV (turn first) and REV-S (turn last), every leg >= 1
        for c in range(1, n - 1):
            for a in range(1, n - c):
                back = n - c - a
                out.append(((s,) * c + (f,) * a + (b,) * back, True, c + a - 1))
                out.append(((f,) * a + (b,) * back + (s,) * c, True, a - 1))
    return out


def _walk(start: int, dirs: tuple[int, ...]) -> list[int] | None:
    r, c = row_of(start), col_of(start)
    squares = []
    for d in dirs:
        dr, dc = DIR_DELTA[d]
        r, c = r + dr, c + dc
        if not (0 <= r < ROWS and 0 <= c < COLS):
            return None
        squares.append(c * ROWS + r)
    return squares


def _build(p: int, start: int, n: int) -> tuple[Group, ...]:
    groups: dict[tuple[int, bool, int], Group] = {}
    found: list[tuple[tuple[int, ...], tuple[int, bool, int], list[int], bool, bool]] = []
    for dirs, rev, turn in _shapes(n, p):
        squares = _walk(start, dirs)
        if squares is None:
            continue
        # A reversal needs its turning square in the opponent's dojo (§4.2.3): static, so dropped here.
        if rev and not OPP_DOJO[p][squares[turn]]:
            continue
        depth = max(SQ_DEPTH[p][q] for q in squares)
        # Only a home Ninja can start a mission; for one already out the flag stays False.
        leaves = IN_HOME[p][start] and any(not IN_HOME[p][q] for q in squares)
        found.append((dirs, (squares[-1], rev, depth), squares, leaves, IN_HOME[p][squares[-1]]))
    found.sort(key=lambda item: item[0])
    for _dirs, key, squares, leaves, ends_home in found:
        group = groups.get(key)
        if group is None:
            group = groups[key] = Group(start, key[0], key[1], key[2], leaves, ends_home)
        # Every square but the destination must be empty; the start square counts as empty
        # once left, which the caller ensures by clearing the mover's own bit.
        mask = 0
        for q in squares[:-1]:
            if q != start:
                mask |= 1 << q
        group.paths.append(Move(SQUARE_NAMES[start], tuple(SQUARE_NAMES[q] for q in squares), key[1], key[2]))
        group.masks.append(mask)
        # Starting a mission is a property of the key, not of one path (from home, legs are
        # monotone and reversals turn in the opponent's dojo): check the tables agree.
        assert group.leaves_home == leaves
    for group in groups.values():
        group.crossed = reduce(operator.or_, group.masks)
        group.shared = reduce(operator.and_, group.masks)
    return tuple(groups[k] for k in sorted(groups))


# CANDIDATES[p][n][square] -> the action groups of seat p moving a Ninja from `square` with roll n.
CANDIDATES: tuple[dict[int, tuple[tuple[Group, ...], ...]], ...] = tuple(
    {n: tuple(_build(p, sq, n) for sq in range(NUM_SQUARES)) for n in ROLL_WEIGHTS} for p in (0, 1)
)
