"""Ninja Versus Ninja: the fixed facts of the game as plain tables (spec §1, §3.2, §5.4, §8).

The board graphic of the rule sheet is missing, so the board, the start position and the
shadow-track values are the spec's reconstruction (§8), not the rulebook's.

Squares are numbered column-major, `index = column * ROWS + row` (row 0 = label 1), so
that sorting by index is sorting by name the way a person reads it: a1 < a2 < ... < a11 < b1.
"""

from __future__ import annotations

BLACK, RED = 0, 1
COLOR_NAMES = ("Black", "Red")

COLS = 4
ROWS = 11
COL_LETTERS = "abcd"
NUM_SQUARES = COLS * ROWS

# Home dojo rows (0-based) per seat: Black rows 1-4, Red rows 8-11 (labels). Neutral: 5-7.
HOME_ROWS = (range(0, 4), range(7, 11))

# Depth of each row label for each seat (0 unless inside the opponent's dojo, §1.2).
# Black: label - 7 for labels 8..11; Red: 5 - label for labels 1..4.
ROW_DEPTH = (
    (0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4),
    (4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0),
)

# The "U" start (§1.2, §8.2): whole back row plus the two outer squares of the second row.
START = (
    ("a1", "b1", "c1", "d1", "a2", "d2"),
    ("a11", "b11", "c11", "d11", "a10", "d10"),
)

# Step directions, in the order the spec breaks path ties (§3.3: N < E < S < W).
# N is towards row 11 (Black's forward), S towards row 1 (Red's forward).
N, E, S, W = 0, 1, 2, 3
DIR_NAMES = "NESW"
DIR_DELTA = ((1, 0), (0, 1), (-1, 0), (0, -1))  # (drow, dcol)
FORWARD = (N, S)  # per seat
BACKWARD = (S, N)
SIDEWAYS = (E, W)

DIE_SIDES = 4
DICE_PER_ROLL = 2
# Distribution of n = 2d4 (§3.2): n -> number of the 16 equally likely outcomes.
ROLL_WEIGHTS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 3, 7: 2, 8: 1}
ROLL_OUTCOMES = 16

MISSION_TURNS = 3  # a mission Ninja still out after its owner's 3rd turn is eliminated (§5.3)
ROLLOFF_ATTEMPTS = 100  # ties in the first-player roll-off are rerolled this often (§1.3)


def square_index(name: str) -> int:
    """The index of a square name such as 'b4'; ValueError for anything off the board."""
    if len(name) < 2 or name[0] not in COL_LETTERS or not name[1:].isdigit():
        raise ValueError(f"'{name}' is not a square name like 'b4'")
    row = int(name[1:]) - 1
    if not 0 <= row < ROWS:
        raise ValueError(f"'{name}' is off the board (rows 1..{ROWS})")
    return COL_LETTERS.index(name[0]) * ROWS + row


def row_of(square: int) -> int:
    """0-based row of a square index (label - 1)."""
    return square % ROWS


def col_of(square: int) -> int:
    """0-based column of a square index."""
    return square // ROWS


SQUARE_NAMES = tuple(f"{COL_LETTERS[sq // ROWS]}{sq % ROWS + 1}" for sq in range(NUM_SQUARES))
