"""Shared helpers for the Ninja Versus Ninja tests: positions, move lookup, a reference generator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tourney.engine.core import Inject
from tourney.engine.games.ninja_versus_ninja import GAME, Move, NvnState
from tourney.engine.games.ninja_versus_ninja.data import COL_LETTERS, COLS, ROWS, square_index

# A quiet Red army far from the action, so games do not end by elimination in a scenario.
RED_BACK = ("a11", "d11")


def pos(
    black: Sequence[str],
    red: Sequence[str] = RED_BACK,
    dice: tuple[int, int] | None = None,
    to_move: int = 0,
    missions: dict[int, dict[str, Any]] | None = None,
    score: tuple[int, int] = (0, 0),
    inject: Sequence[int] = (),
    seed: int = 0,
) -> NvnState:
    """A position with the seat to move holding `dice` (and any later dice forced by `inject`)."""
    return GAME.position(
        black, red, to_move=to_move, dice=dice, missions=missions, score=score, seed=seed,
        inject=Inject(dice=list(inject)) if inject else None,
    )


def find(state: NvnState, frm: str, path: Sequence[str]) -> Move | None:
    """The legal move from `frm` whose canonical path is `path`, if any."""
    for move in state.legal_moves():
        if move.frm == frm and move.path == tuple(path):
            return move
    return None


def keys(state: NvnState) -> set[tuple[str, str, bool, int]]:
    """The (from, to, uses_reversal, depth) key of every legal move."""
    return {(m.frm, m.to, m.uses_reversal, m.depth) for m in state.legal_moves()}


def play(state: NvnState, frm: str, path: Sequence[str]) -> NvnState:
    """Play the legal move with this canonical path (AssertionError if it is not legal)."""
    move = find(state, frm, path)
    assert move is not None, f"{frm}->{path} not legal; legal: {[m.label for m in state.legal_moves()]}"
    state.apply({state.to_move: move})
    return state


# ---------------------------------------------------------------- an independent reference

_STEP = {"N": (1, 0), "E": (0, 1), "S": (-1, 0), "W": (0, -1)}
_ORDER = {"N": 0, "E": 1, "S": 2, "W": 3}
_OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def _runs(n: int, parts: int) -> list[list[int]]:
    if parts == 1:
        return [[n]]
    return [[a, *rest] for a in range(1, n) for rest in _runs(n - a, parts - 1)]


def _shapes(n: int, seat: int) -> list[tuple[str, bool, int]]:
    """Direction strings of length n of the spec's table (§4.1): (steps, reversal, turning step)."""
    fwd, back = ("N", "S") if seat == 0 else ("S", "N")
    out = []
    for parts in (1, 2, 3):
        for lengths in _runs(n, parts):
            for dirs in _dir_choices(parts):
                if any(dirs[i] == dirs[i + 1] for i in range(parts - 1)):
                    continue  # two runs in one direction are one run
                steps = "".join(d * k for d, k in zip(dirs, lengths, strict=True))
                if parts == 1:
                    out.append((steps, False, -1))
                elif parts == 2 and dirs[1] != _OPPOSITE[dirs[0]]:
                    out.append((steps, False, -1))  # an L
                elif parts == 2 and dirs == (fwd, back):
                    out.append((steps, True, lengths[0] - 1))  # REV
                elif parts == 3 and dirs[0] in "EW" and dirs[1:] == (fwd, back):
                    out.append((steps, True, lengths[0] + lengths[1] - 1))  # S-REV
                elif parts == 3 and dirs[:2] == (fwd, back) and dirs[2] in "EW":
                    out.append((steps, True, lengths[0] - 1))  # REV-S
    return out


def _dir_choices(parts: int) -> list[tuple[str, ...]]:
    if parts == 0:
        return [()]
    return [(d, *rest) for d in "NESW" for rest in _dir_choices(parts - 1)]


def _name(r: int, c: int) -> str:
    return f"{COL_LETTERS[c]}{r + 1}"


def _home(seat: int, name: str) -> bool:
    row = int(name[1:])
    return row <= 4 if seat == 0 else row >= 8


def _depth(seat: int, name: str) -> int:
    row = int(name[1:])
    return max(0, row - 7) if seat == 0 else max(0, 5 - row)


def reference_moves(state: NvnState) -> dict[tuple[str, str, bool, int], tuple[str, ...]]:
    """The spec's pseudo-code (§4.2) written out naively: key -> canonical path."""
    view = state.public_view()
    p = state.to_move
    n = state.roll[0] + state.roll[1]
    own = set(view["ninjas"][p])
    occupied = own | set(view["ninjas"][1 - p])
    mission = view["mission"][p]
    best: dict[tuple[str, str, bool, int], tuple[tuple[int, ...], tuple[str, ...]]] = {}
    for s in own:
        r0, c0 = square_index(s) % ROWS, square_index(s) // ROWS
        for steps, rev, turn in _shapes(n, p):
            r, c, path = r0, c0, []
            for d in steps:
                r, c = r + _STEP[d][0], c + _STEP[d][1]
                if not (0 <= r < ROWS and 0 <= c < COLS):
                    break
                path.append(_name(r, c))
            else:
                if rev:
                    allowed = (mission is not None and s == mission["square"] and not mission["reversal_used"]) or (
                        _home(p, s) and mission is None
                    )
                    if not allowed or not _home(1 - p, path[turn]):
                        continue
                if any(q in occupied and q != s for q in path[:-1]):
                    continue
                if path[-1] in own and path[-1] != s:
                    continue
                starts = _home(p, s) and any(not _home(p, q) for q in path)
                if starts and mission is not None:
                    continue
                if mission is not None and s != mission["square"] and not _home(p, path[-1]):
                    continue
                key = (s, path[-1], rev, max(_depth(p, q) for q in path))
                order = tuple(_ORDER[d] for d in steps)
                if key not in best or order < best[key][0]:
                    best[key] = (order, tuple(path))
    return {k: v[1] for k, v in best.items()}
