"""Ninja Versus Ninja's observation tensor and fixed action space, for training environments.

Everything is public. Tensor: the seat, each side's Ninjas square by square (own side first),
scores, shadow counts, each side's mission Ninja, the roll, whose turn and how far the match is.

Actions: a move is known by its start square, its destination, whether it uses the reversal and
its depth (the four identify a legal move; two paths between the same squares differ in them):
index = ((from * 44 + to) * 2 + reversal) * 5 + depth, squares numbered as in `data.SQUARE_NAMES`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tourney.engine.core import Action, Observation
from tourney.engine.core.encoding import Encoding, Features
from tourney.engine.games.ninja_versus_ninja.actions import Move
from tourney.engine.games.ninja_versus_ninja.data import DIE_SIDES, NUM_SQUARES, ROW_DEPTH, SQUARE_NAMES

DEPTHS: Final = max(max(row) for row in ROW_DEPTH) + 1
SQUARE_INDEX: Final = {name: i for i, name in enumerate(SQUARE_NAMES)}
SIZE: Final = 2 + 2 * NUM_SQUARES + 2 * 7 + 2 * DIE_SIDES + 3


class NinjaVersusNinjaEncoding(Encoding):
    """See the module docstring."""

    size = SIZE
    action_count = NUM_SQUARES * NUM_SQUARES * 2 * DEPTHS

    def encode(self, view: Observation) -> list[float]:
        """The position as SIZE numbers, the seat's own Ninjas first."""
        me = int(view["seat"])
        target = float(view["target_score"])
        f = Features()
        f.one_hot(me, (0, 1))
        for p in (me, 1 - me):
            f.counts(view["ninjas"][p], SQUARE_NAMES, 1)
        for p in (me, 1 - me):
            f.scaled(view["score"][p], target)
            f.scaled(view["shadow"][p], 12)
            mission = view["mission"][p] or {}
            f.flag(mission)
            f.scaled(SQUARE_INDEX.get(mission.get("square", ""), 0), NUM_SQUARES)
            f.scaled(mission.get("turns_used"), 3)
            f.flag(mission.get("reversal_used"))
            f.scaled(mission.get("depth"), DEPTHS - 1)
        roll = list(view["roll"] or []) + [0, 0]
        for die in roll[:2]:
            f.one_hot(die, range(1, DIE_SIDES + 1))
        f.flag(view["to_move"] == me)
        f.flag(view["first_player"] == me)
        f.scaled(view["turn_number"], view["turn_cap"])
        return f.done(SIZE)

    def action_indices(self, legal: Sequence[Action]) -> list[int]:
        """Each move's index from (from, to, reversal, depth)."""
        out = []
        for move in legal:
            assert isinstance(move, Move)
            cell = SQUARE_INDEX[move.frm] * NUM_SQUARES + SQUARE_INDEX[move.to]
            out.append((cell * 2 + int(move.uses_reversal)) * DEPTHS + move.depth)
        return out


ENCODING: Final = NinjaVersusNinjaEncoding()
