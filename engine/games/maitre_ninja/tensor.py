"""Maître Ninja's observation tensor and fixed action space, for training environments.

Tensor (seats counted from the viewer, padded to 4): per seat its element, rank, attacks made and
role this fight; the phase, the fight, the attacker's rank, the row length, the parry supply,
the viewer's role, its own row so far (unseen by others) and how many of its lines stay face
down; the latest fight's public face (attack cards, row, winner). The attacker's current line
is in no view, so it is in no tensor.

Actions: every attack line of ranks 1 to 4 (`attack_lines(rank)` in order, rank 1 first), then
the three parries (DO, BL, JU).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tourney.engine.core import Action, Observation
from tourney.engine.core.encoding import Encoding, Features
from tourney.engine.games.maitre_ninja.actions import PARRIES, attack_lines
from tourney.engine.games.maitre_ninja.data import (
    ATTACK_LEVELS,
    ELEMENTS,
    FIGHT_CAP,
    MAITRE,
    MAX_PLAYERS,
    PARRY_TYPES,
)

ALL_ACTIONS: Final[tuple[Action, ...]] = (
    *(line for rank in range(1, len(ATTACK_LEVELS) + 1) for line in attack_lines(rank)), *PARRIES)
ACTION_INDEX: Final[dict[Action, int]] = {a: i for i, a in enumerate(ALL_ACTIONS)}
ATTACK_CARDS: Final = tuple(card for level in ATTACK_LEVELS for card in level)
PHASES: Final = ("NORMAL", "FINAL_ROUND", "OVER")
ROLES: Final = ("attacker", "defender", "watcher", "none")
ROW_MAX: Final = 12.0  # the longest row (rank 4)
PER_SEAT: Final = 1 + len(ELEMENTS) + 5
SIZE: Final = (MAX_PLAYERS * PER_SEAT + len(PHASES) + 3 + len(PARRY_TYPES) + len(ROLES) + len(PARRY_TYPES) + 2
               + len(ATTACK_CARDS) + len(PARRY_TYPES) + 2)


class MaitreNinjaEncoding(Encoding):
    """See the module docstring."""

    size = SIZE
    action_count = len(ALL_ACTIONS)

    def encode(self, view: Observation) -> list[float]:
        """The viewer's view as SIZE numbers, seats counted from the viewer."""
        me, n = int(view["seat"]), int(view["n_players"])
        f = Features()
        for k in range(MAX_PLAYERS):
            p = (me + k) % n
            present = k < n
            f.flag(present)
            f.one_hot(view["elements"][p] if present else None, ELEMENTS)
            f.scaled(view["ranks"][p] if present else 0, MAITRE)
            f.scaled(view["attacks_made"][p] if present else 0, 50)
            f.flag(present and view["attacker"] == p)
            f.flag(present and view["defender"] == p)
            f.flag(present and p in view["final_queue"])
        f.one_hot(view["phase"], PHASES)
        f.scaled(view["fight_number"], FIGHT_CAP)
        f.scaled(view["attacker_rank"], MAITRE)
        f.scaled(view["parries"], ROW_MAX)
        for t in PARRY_TYPES:
            f.scaled(view["parry_supply"][t], 4)
        f.one_hot(view["role"], ROLES)
        f.counts(view.get("row_so_far", ()), PARRY_TYPES, ROW_MAX)
        f.scaled(len(view.get("row_so_far", ())), ROW_MAX)
        f.scaled(len(view["my_hidden"]), 10)
        last = view["history"][-1] if view["history"] else {}
        f.counts(last.get("attack", ()), ATTACK_CARDS, 1)
        f.counts(last.get("row", ()), PARRY_TYPES, ROW_MAX)
        f.flag(last.get("winner") == "attacker")
        f.flag(last.get("attacker") == me)
        return f.done(SIZE)

    def action_indices(self, legal: Sequence[Action]) -> list[int]:
        """Each legal action's place in ALL_ACTIONS."""
        return [ACTION_INDEX[a] for a in legal]


ENCODING: Final = MaitreNinjaEncoding()
