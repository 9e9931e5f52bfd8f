"""Ninja Versus Ninja's observation tensor and fixed action space, for training environments.

Everything is public. Tensor: the seat, each side's Ninjas square by square (own side first),
scores, shadow counts, each side's mission Ninja, the roll, whose turn and how far the match is.

Actions: a move is known by its start square, its destination, whether it uses the reversal and
its depth (the four identify a legal move; two paths between the same squares differ in them):
index = ((from * 44 + to) * 2 + reversal) * 5 + depth, squares numbered as in `data.SQUARE_NAMES`.

`encode_state` builds the same tensor from the state's fields (the board's bitmasks, the missions).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tourney.engine.core import Action, Observation, State
from tourney.engine.core.encoding import Encoding, clipped, scaled
from tourney.engine.games.ninja_versus_ninja.actions import Move
from tourney.engine.games.ninja_versus_ninja.data import DIE_SIDES, NUM_SQUARES, ROW_DEPTH, SQUARE_NAMES
from tourney.engine.games.ninja_versus_ninja.rules import NO_SQUARE
from tourney.engine.games.ninja_versus_ninja.state import NvnState

DEPTHS: Final = max(max(row) for row in ROW_DEPTH) + 1
SQUARE_INDEX: Final = {name: i for i, name in enumerate(SQUARE_NAMES)}
SIZE: Final = 2 + 2 * NUM_SQUARES + 2 * 7 + 2 * DIE_SIDES + 3
AT_SIDES: Final = 2 + 2 * NUM_SQUARES  # where the scores and missions start (the order of `encode`)
AT_ROLL: Final = AT_SIDES + 2 * 7
_FACE_AT: Final[dict[Any, int]] = {face: face - 1 for face in range(1, DIE_SIDES + 1)}  # a die's face: its slot


# A flag's 1.0 as one object made at import (not a literal, which the compiled build would box anew on
# every write into a list): the tensor's lists hold it as they would any float.
_ONE: Final[Any] = float(1)


def state_tensor(s: NvnState, me: int) -> list[float]:
    """`encode(s.observe(me))`, number for number, from the state's fields."""
    out: list[Any] = [0.0] * SIZE  # Any: a flag's _ONE is stored as it is
    out[me] = _ONE
    target = float(s.target)
    at = 2
    for p in (me, 1 - me):
        mask = s.occ[p]
        while mask:
            low = mask & -mask
            out[at + low.bit_length() - 1] = _ONE
            mask ^= low
        at += NUM_SQUARES
    for p in (me, 1 - me):
        out[at] = clipped(s.score[p], target)
        out[at + 1] = clipped(s.shadow[p], 12.0)
        square = s.m_sq[p]
        if square != NO_SQUARE:
            out[at + 2] = _ONE
            out[at + 3] = clipped(square, NUM_SQUARES)
            out[at + 4] = clipped(s.m_turns[p], 3.0)
            if s.m_rev[p]:
                out[at + 5] = _ONE
            out[at + 6] = clipped(s.m_depth[p], DEPTHS - 1)
        at += 7
    roll = s.roll
    for k in range(2):
        if 1 <= roll[k] <= DIE_SIDES:
            out[AT_ROLL + k * DIE_SIDES + roll[k] - 1] = _ONE
    at = AT_ROLL + 2 * DIE_SIDES
    if not s.is_over() and s.to_move == me:
        out[at] = _ONE
    if s.first_player == me:
        out[at + 1] = _ONE
    out[at + 2] = clipped(s.turn_number, s.cap)
    return out


class NinjaVersusNinjaEncoding(Encoding):
    """See the module docstring."""

    size = SIZE
    action_count = NUM_SQUARES * NUM_SQUARES * 2 * DEPTHS

    def encode(self, view: Observation) -> list[float]:
        """The position as SIZE numbers, the seat's own Ninjas first (`Features`' rules: a number
        scaled and clipped, None counted as 0), written into place."""
        me = int(view["seat"])
        target = float(view["target_score"])
        out: list[Any] = [0.0] * SIZE
        if me == 0 or me == 1:
            out[me] = _ONE
        # The view's lists and dicts typed as such: compiled, their reads are then direct list and dict
        # calls rather than the generic item lookups, iterators and method calls of an Any.
        ninjas: list[Any] = view["ninjas"]
        scores: list[Any] = view["score"]
        shadows: list[Any] = view["shadow"]
        missions: list[Any] = view["mission"]
        at = 2
        for k in range(2):
            names: list[Any] = ninjas[me if k == 0 else 1 - me]
            for i in range(len(names)):
                square = SQUARE_INDEX.get(names[i], -1)
                if square >= 0:
                    out[at + square] = _ONE
            at += NUM_SQUARES
        for k in range(2):
            p = me if k == 0 else 1 - me
            out[at] = scaled(scores[p], target)
            out[at + 1] = scaled(shadows[p], 12.0)
            mission: dict[str, Any] = missions[p] or {}
            if mission:
                out[at + 2] = _ONE
                out[at + 3] = scaled(SQUARE_INDEX.get(mission.get("square", ""), 0), NUM_SQUARES)
                out[at + 4] = scaled(mission.get("turns_used"), 3.0)
                if mission.get("reversal_used"):
                    out[at + 5] = _ONE
                out[at + 6] = scaled(mission.get("depth"), DEPTHS - 1)
            at += 7
        roll = list(view["roll"] or []) + [0, 0]
        for k in range(2):
            face = roll[k]
            # One lookup instead of comparing with each face (a number equal to a face finds it, as == did).
            slot = _FACE_AT.get(face, -1) if isinstance(face, (int, float)) else -1
            if slot >= 0:
                out[AT_ROLL + k * DIE_SIDES + slot] = _ONE
        at = AT_ROLL + 2 * DIE_SIDES
        if view["to_move"] == me:
            out[at] = _ONE
        if view["first_player"] == me:
            out[at + 1] = _ONE
        out[at + 2] = scaled(view["turn_number"], view["turn_cap"])
        return out

    def encode_state(self, state: State, seat: int) -> list[float]:
        """`encode(state.observe(seat))` built from the state's fields (`state_tensor`)."""
        if isinstance(state, NvnState):
            return state_tensor(state, seat)
        return self.encode(state.observe(seat))

    def action_indices(self, legal: Sequence[Action]) -> list[int]:
        """Each move's index from (from, to, reversal, depth)."""
        out = []
        for move in legal:
            assert isinstance(move, Move)
            cell = SQUARE_INDEX[move.frm] * NUM_SQUARES + SQUARE_INDEX[move.to]
            out.append((cell * 2 + int(move.uses_reversal)) * DEPTHS + move.depth)
        return out


ENCODING: Final = NinjaVersusNinjaEncoding()
