"""Ninja Versus Ninja's action (spec §3.3): one Ninja moved along one path, and its label."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tourney.engine.core import Action
from tourney.engine.games.ninja_versus_ninja.data import DIR_DELTA, col_of, row_of, square_index

ARROW = "→"
REVERSAL_MARK = "⤴"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move one Ninja from `frm` along `path` (every square entered; the last is the destination).

    uses_reversal and depth (the deepest opponent-dojo row on the path for the mover) are
    part of the action's identity (§3.3); they follow from the path.
    """

    frm: str
    path: tuple[str, ...]
    uses_reversal: bool
    depth: int

    @property
    def to(self) -> str:
        """The destination square."""
        return self.path[-1]

    @property
    def label(self) -> str:
        """E.g. `b1→b5`, `b1→b2→c2` (an L), `b4⤴b8→b4 (+1)` (reversal at b8, depth 1).

        Corners are listed with →, a reversal's turning square with ⤴ before it, and
        "(+d)" is the deepest opponent-dojo row the path reaches (d points if it gets home).
        """
        return _label(self.frm, self.path, self.depth)


@cache
def _label(frm: str, path: tuple[str, ...], depth: int) -> str:
    # Cached: observations carry the whole move log, so the same labels are asked for often.
    squares = [square_index(frm)] + [square_index(q) for q in path]
    dirs = [_direction(a, b) for a, b in zip(squares, squares[1:], strict=False)]
    text = frm
    for i, d in enumerate(dirs):
        last = i == len(dirs) - 1
        if last or dirs[i + 1] != d:
            reverses = not last and (dirs[i + 1] - d) % 4 == 2
            # The mark goes before the turning square: b4 ⤴b8 →b4.
            text += (REVERSAL_MARK if reverses else ARROW) + path[i]
    return text + (f" (+{depth})" if depth else "")


def _direction(a: int, b: int) -> int:
    delta = (row_of(b) - row_of(a), col_of(b) - col_of(a))
    return DIR_DELTA.index(delta)
