"""Tiny Ninjas' observation tensor and fixed action space, for training environments.

Tensor (from the seat's own view, own seat first): mode, phase, round, who attacks; per seat
health, hand limit, tokens, hand size, known and revealed cards by type; draw pile, discard
pile by type, the pending attack, the last dice, the series, and the seat's own hand by type.

Actions: every action the game can offer, in this order: the two roles, discard (by card id),
play (card id x token mask RED|BLUE), Princess play (ATTACK, HEAL x card id x mask), end
round, revive (card id), defend (card id x YELLOW), no defend, mulligan (card id), keep hand,
the three Survivor options, declare attack (Solo).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tourney.engine.core import Action, Observation
from tourney.engine.core.encoding import Encoding, Features
from tourney.engine.games.tiny_ninjas import actions as A
from tourney.engine.games.tiny_ninjas.data import DIE_FACES, NUM_TYPES, TYPE_NAMES
from tourney.engine.games.tiny_ninjas.game import MODES
from tourney.engine.games.tiny_ninjas.rules import PHASE_NAMES

ALL_ACTIONS: Final[tuple[Action, ...]] = (
    A.CHOOSE_ATTACK, A.CHOOSE_DEFEND, *A.DISCARD,
    *(play for masks in A.PLAY for play in masks),
    *(play for by_card in A.PLAY_MODE for masks in by_card for play in masks),
    A.END_ROUND, *A.REVIVE, *(d for pair in A.DEFEND for d in pair), A.NO_DEFEND, *A.MULLIGAN, A.KEEP_HAND,
    A.SURVIVOR_DOOM, A.SURVIVOR_HEAL, A.SURVIVOR_PASS, A.DECLARE_ATTACK,
)
ACTION_INDEX: Final[dict[Action, int]] = {a: i for i, a in enumerate(ALL_ACTIONS)}
TOKENS: Final = ("RED", "BLUE", "YELLOW")
COPIES: Final = 6.0  # the most copies of one type in the deck: the scale of a per-type count
PER_SEAT: Final = 5 + len(TOKENS) + 2 * NUM_TYPES
SIZE: Final = (len(MODES) + len(PHASE_NAMES) + 5 + 2 * PER_SEAT + 1 + NUM_TYPES + 6
               + 2 * len(DIE_FACES) + 4 + 2 * NUM_TYPES)


class TinyNinjasEncoding(Encoding):
    """See the module docstring."""

    size = SIZE
    action_count = len(ALL_ACTIONS)

    def encode(self, view: Observation) -> list[float]:
        """The seat's view as SIZE numbers, its own seat first."""
        me = int(view["seat"])
        f = Features()
        f.one_hot(view["mode"], MODES)
        f.one_hot(view["phase"], PHASE_NAMES)
        f.scaled(view["round"], 100)
        f.flag(view["attacker"] == me)
        f.flag(me in view["to_act"])
        f.scaled(view["attacks_this_round"], 10)
        f.flag(view["freeze_pending"])
        revealed = view["revealed_hands"]
        for p in (me, 1 - me):
            f.scaled(view["health"][p], 20)
            f.scaled(view["max_health"][p], 20)
            f.scaled(view["hand_limit"][p], 10)
            f.scaled(view["hand_sizes"][p], 10)
            f.flag(str(p) in revealed)
            for token in TOKENS:
                f.flag(token in view["tokens"][p])
            f.counts(view["known_cards"][p], TYPE_NAMES, COPIES)
            f.counts(revealed.get(str(p), ()), TYPE_NAMES, COPIES)
        f.scaled(view["draw_pile_size"], 70)
        f.counts(view["discard_pile"], TYPE_NAMES, COPIES)
        attack = view["pending_attack"] or {}
        f.flag(attack)
        f.one_hot(attack.get("colour"), ("RED", "BLUE"))
        f.scaled(attack.get("amount"), 10)
        f.scaled(attack.get("undefendable"), 10)
        series = view.get("series") or {"wins": [0, 0]}
        f.scaled(series["wins"][me], 5)
        dice = view["last_dice"] or {"faces": []}
        faces = list(dice["faces"]) + [0, 0]
        for face in faces[:2]:
            f.one_hot(face, range(1, len(DIE_FACES) + 1))
        f.flag(dice.get("seat") == me)
        f.scaled(series["wins"][1 - me], 5)
        f.flag(view.get("ai_card"))
        f.flag(view.get("difficulty"))
        f.counts(view["hand"], TYPE_NAMES, COPIES)
        f.counts(view.get("mulligan_marked", ()), TYPE_NAMES, COPIES)
        return f.done(SIZE)

    def action_indices(self, legal: Sequence[Action]) -> list[int]:
        """Each legal action's place in ALL_ACTIONS."""
        return [ACTION_INDEX[a] for a in legal]


ENCODING: Final = TinyNinjasEncoding()
