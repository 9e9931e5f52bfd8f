"""A heuristic value of a position, for `greedy`, `ismcts` cut-offs and `expectimax` leaves.

For each seat: its score, its Ninjas, and what its mission (if any) is worth. A mission's
worth is the expected number of points it brings home minus the Ninja it may lose, taken
from a small dynamic programme over (turns left, row, depth so far, reversal used) that
plays the mission alone on an empty board (table MISSION_VALUE below), and then
discounted by the chance that the opponent captures the mission Ninja on their next
turn. That last term is also what rewards keeping the home dojo guarded: home Ninjas a
likely roll away from the enemy's mission Ninja make that mission worth less to them.
"""

from __future__ import annotations

import math

from tourney.engine.games.ninja_versus_ninja.data import (
    COLS,
    MISSION_TURNS,
    NUM_SQUARES,
    ROLL_OUTCOMES,
    ROLL_WEIGHTS,
    ROWS,
    col_of,
    row_of,
)
from tourney.engine.games.ninja_versus_ninja.paths import IN_HOME
from tourney.engine.games.ninja_versus_ninja.rules import NO_SQUARE
from tourney.engine.games.ninja_versus_ninja.state import NvnState

PIECE = 1.0  # a Ninja, in score points (missions need runners; the last one lost loses the game)
SCALE = 3.5  # score-point difference that maps to tanh(1) ~ 0.76
FLEE = 0.3  # the share of a capture threat left when the threatened seat moves first

HOME_FRONT = 3  # Black's home front row (0-based); the tables are in Black's frame
OPP_FRONT = 7
_P = {n: w / ROLL_OUTCOMES for n, w in ROLL_WEIGHTS.items()}


def _row_depth(r: int) -> int:
    return max(0, r - (OPP_FRONT - 1))


def _mission_table() -> dict[tuple[bool, int, int, int], float]:
    """Expected points (minus PIECE on a lost Ninja) of a lone mission, Black's frame.

    Key: (reversal used, owner turns left, row, depth so far); rows outside home only.
    Each turn the roll n is exact: a move ends |delta| rows away with the other n - |delta|
    steps sideways (at most COLS - 1 of them), or reverses once, turning in the opponent's
    dojo, with an optional sideways leg.
    """
    table: dict[tuple[bool, int, int, int], float] = {}

    def value(rev: bool, left: int, r: int, d: int) -> float:
        if left == 0:
            return -PIECE
        key = (rev, left, r, d)
        if key in table:
            return table[key]
        total = 0.0
        for n, p in _P.items():
            best = -math.inf
            for delta in range(-n, n + 1):
                side = n - abs(delta)
                if side > COLS - 1:
                    continue
                r2 = r + delta
                if not 0 <= r2 < ROWS:
                    continue
                d2 = max(d, _row_depth(r2))
                best = max(best, d2 if r2 <= HOME_FRONT else value(rev, left - 1, r2, d2))
            if not rev:
                for side in range(0, min(COLS - 1, n - 2) + 1):
                    for a in range(1, n - side):
                        turn, back = r + a, n - side - a
                        if not OPP_FRONT <= turn < ROWS or turn - back < 0:
                            continue
                        r2, d2 = turn - back, max(d, _row_depth(turn))
                        best = max(best, d2 if r2 <= HOME_FRONT else value(True, left - 1, r2, d2))
            total += p * (best if best > -math.inf else value(rev, left - 1, r, d))
        table[key] = total
        return total

    for rev in (False, True):
        for left in range(1, MISSION_TURNS + 1):
            for r in range(HOME_FRONT + 1, ROWS):
                for d in range(0, 5):
                    value(rev, left, r, d)
    return table


MISSION_VALUE = _mission_table()


def _manhattan_table() -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(abs(row_of(a) - row_of(b)) + abs(col_of(a) - col_of(b)) for b in range(NUM_SQUARES))
        for a in range(NUM_SQUARES)
    )


MANHATTAN = _manhattan_table()


def _ring_table() -> tuple[tuple[tuple[float, int], ...], ...]:
    """Per target square: (chance of rolling d, mask of the squares exactly d away) for every
    distance d a 2d4 roll can make, so a threat is a few mask tests instead of a walk over Ninjas."""
    return tuple(
        tuple((p, sum(1 << x for x in range(NUM_SQUARES) if MANHATTAN[target][x] == d)) for d, p in sorted(_P.items()))
        for target in range(NUM_SQUARES)
    )


RINGS = _ring_table()


def mission_worth(state: NvnState, seat: int) -> float:
    """Expected points of `seat`'s mission from here, minus its Ninja's expected loss (see `worth`)."""
    target = state.m_sq[seat]
    if target == NO_SQUARE:
        return 0.0
    opp = 1 - seat
    return worth(seat, target, state.m_rev[seat], state.m_turns[seat], state.m_depth[seat], state.occ[opp],
                 state.m_sq[opp], state.to_move == seat and state.winner is None and not state.reason)


def worth(seat: int, target: int, rev: bool, turns: int, depth: int, their_occ: int, their_mission: int,
          to_move: bool) -> float:
    """The worth of `seat`'s mission Ninja on `target` from the raw fields (search reads them
    without building a position, see leaves.py).

    The loss is the chance that the opponent can land on the mission Ninja with its next
    roll: straight and L paths are exactly as long as the Manhattan distance, so an attacker
    at distance D needs n == D (blockers and longer reversal paths are ignored). Outside
    their home, while the opponent has a mission of its own, only its mission Ninja may capture.
    `to_move`: the seat moves next in a live game, so it may flee.
    """
    attackers = their_occ
    if not IN_HOME[1 - seat][target] and their_mission != NO_SQUARE:
        attackers &= 1 << their_mission
    threat = 0.0
    for p, ring in RINGS[target]:
        if attackers & ring:
            threat += p
    if to_move:
        threat *= FLEE
    r = row_of(target) if seat == 0 else ROWS - 1 - row_of(target)
    base = MISSION_VALUE[(rev, MISSION_TURNS - turns, r, depth)]
    return (1.0 - threat) * base - threat * PIECE


def squash(diff: float) -> float:
    """A material difference in score points as a value in (-1, 1)."""
    # Points are worth more as the target nears; 0.999 keeps heuristics below a real win.
    return 0.999 * math.tanh(diff / SCALE)


def evaluate(state: NvnState, seat: int) -> float:
    """How good the position is for `seat`, in [-1, 1] (±1 only for a finished game).

    For each seat its score, its Ninjas and its mission's worth (all in score points); the
    difference is squashed by tanh."""
    if state.is_over():
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == seat else -1.0
    other = 1 - seat
    mine = state.score[seat] + PIECE * state.occ[seat].bit_count()
    if state.m_sq[seat] != NO_SQUARE:
        mine += mission_worth(state, seat)
    theirs = state.score[other] + PIECE * state.occ[other].bit_count()
    if state.m_sq[other] != NO_SQUARE:
        theirs += mission_worth(state, other)
    return squash(mine - theirs)
