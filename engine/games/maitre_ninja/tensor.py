"""Maître Ninja's observation tensor and fixed action space, for training environments.

Tensor (seats counted from the viewer, padded to 4): per seat its element, rank, attacks made and
role this fight; the phase, the fight, the attacker's rank, the row length, the parry supply,
the viewer's role, its own row so far (unseen by others) and how many of its lines stay face
down; the latest fight's public face (attack cards, row, winner). The attacker's current line
is in no view, so it is in no tensor.

Actions: every attack line of ranks 1 to 4 (`attack_lines(rank)` in order, rank 1 first), then
the three parries (DO, BL, JU).

`encode_state` builds the same tensor from the state's fields, reading only what the seat's view
holds (its own row so far, how many of its own lines stayed face down, the latest public face).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tourney.engine.core import Action, Observation, State
from tourney.engine.core.encoding import Encoding, clipped, scaled
from tourney.engine.games.maitre_ninja.actions import PARRIES, attack_lines
from tourney.engine.games.maitre_ninja.data import (
    ATTACK_LEVELS,
    ELEMENTS,
    FIGHT_CAP,
    MAITRE,
    MAX_PLAYERS,
    PARRY_TYPES,
)
from tourney.engine.games.maitre_ninja.rules import OVER
from tourney.engine.games.maitre_ninja.state import MaitreNinjaState

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

# Where each part of the tensor starts (the order of `encode`), for `state_tensor`.
AT_PHASE: Final = MAX_PLAYERS * PER_SEAT
AT_FIGHT: Final = AT_PHASE + len(PHASES)
AT_SUPPLY: Final = AT_FIGHT + 3
AT_ROLE: Final = AT_SUPPLY + len(PARRY_TYPES)
AT_ROW: Final = AT_ROLE + len(ROLES)
AT_LAST: Final = AT_ROW + len(PARRY_TYPES) + 2
AT_LAST_ROW: Final = AT_LAST + len(ATTACK_CARDS)
ELEMENT_INDEX: Final = {element: i for i, element in enumerate(ELEMENTS)}
PHASE_INDEX: Final = {phase: i for i, phase in enumerate(PHASES)}
CARD_INDEX: Final = {card: i for i, card in enumerate(ATTACK_CARDS)}
PARRY_INDEX: Final = {parry: i for i, parry in enumerate(PARRY_TYPES)}
ROLE_INDEX: Final = {role: i for i, role in enumerate(ROLES)}
ROLE_ATTACKER, ROLE_DEFENDER, ROLE_WATCHER, ROLE_NONE = range(len(ROLES))


# A flag's 1.0 as one object made at import (not a literal, which the compiled build would box anew on
# every write into a list): the tensor's lists hold it as they would any float.
_ONE: Final[Any] = float(1)


def _count_parries(out: list[Any], at: int, row: Sequence[str]) -> None:
    """`Features.counts(row, PARRY_TYPES, ROW_MAX)` into out[at:at + 3] (zero before)."""
    tally = [0, 0, 0]
    for parry in row:
        k = PARRY_INDEX.get(parry, -1)
        if k >= 0:
            tally[k] += 1
            out[at + k] = min(1.0, tally[k] / ROW_MAX)


def _write_seat(out: list[Any], at: int, element: str, rank: float) -> int:
    """A seat's presence flag, element one-hot and rank (already scaled) from out[at] on (zero
    before); returns where the rank went, which the seat's counters and roles follow. The view and
    the state paths both write a seat through here."""
    out[at] = _ONE
    k = ELEMENT_INDEX.get(element, -1)
    if k >= 0:
        out[at + 1 + k] = _ONE
    at += 1 + len(ELEMENTS)
    out[at] = rank
    return at


def state_tensor(s: MaitreNinjaState, me: int) -> list[float]:
    """`encode(s.observe(me))`, number for number, from the state's fields."""
    out: list[Any] = [0.0] * SIZE  # Any: a flag's _ONE is stored as it is
    n = s.num_players
    over = s.phase == OVER
    elements = s.setup.elements
    for k in range(MAX_PLAYERS):
        if k >= n:
            break
        p = (me + k) % n
        at = _write_seat(out, k * PER_SEAT, elements[p], clipped(s.ranks[p], MAITRE))
        out[at + 1] = clipped(s.attacks_made[p], 50.0)
        if not over and s.attacker == p:
            out[at + 2] = _ONE
        if not over and s.defender == p:
            out[at + 3] = _ONE
        if p in s.queue:
            out[at + 4] = _ONE
    phase = PHASE_INDEX.get(s.phase, -1)
    if phase >= 0:
        out[AT_PHASE + phase] = _ONE
    out[AT_FIGHT] = clipped(s.fights + (0 if over else 1), FIGHT_CAP)
    if not over:
        rank = s.ranks[s.attacker]
        out[AT_FIGHT + 1] = clipped(rank, MAITRE)
        out[AT_FIGHT + 2] = clipped(s.setup.parries_by_rank[rank], ROW_MAX)
    supply = s.setup.parry_supply
    for k in range(len(PARRY_TYPES)):
        out[AT_SUPPLY + k] = clipped(supply[k], 4.0)
    if over:
        out[AT_ROLE + ROLE_NONE] = _ONE
    elif me == s.attacker:
        out[AT_ROLE + ROLE_ATTACKER] = _ONE
    elif me == s.defender:
        out[AT_ROLE + ROLE_DEFENDER] = _ONE
    else:
        out[AT_ROLE + ROLE_WATCHER] = _ONE
    if me == s.defender and not over:
        _count_parries(out, AT_ROW, s.laid)
        out[AT_ROW + len(PARRY_TYPES)] = clipped(len(s.laid), ROW_MAX)
    history = s.history
    hidden = 0
    for rec in history:
        if rec.attacker == me and rec.face_down:
            hidden += 1
    out[AT_ROW + len(PARRY_TYPES) + 1] = clipped(hidden, 10.0)
    if history:
        last = history[-1]
        for card in last.line.cards[: last.resolution.revealed]:
            c = CARD_INDEX.get(card, -1)
            if c >= 0:
                out[AT_LAST + c] = _ONE  # one copy of each attack card: a count of 1 at most
        _count_parries(out, AT_LAST_ROW, last.row)
        if last.resolution.attacker_wins:
            out[AT_LAST_ROW + len(PARRY_TYPES)] = _ONE
        if last.attacker == me:
            out[AT_LAST_ROW + len(PARRY_TYPES) + 1] = _ONE
    return out


class MaitreNinjaEncoding(Encoding):
    """See the module docstring."""

    size = SIZE
    action_count = len(ALL_ACTIONS)

    def encode(self, view: Observation) -> list[float]:
        """The viewer's view as SIZE numbers, seats counted from the viewer (`Features`' rules: a
        number scaled and clipped, None counted as 0), written into place."""
        me, n = int(view["seat"]), int(view["n_players"])
        out: list[Any] = [0.0] * SIZE
        elements, ranks, attacks = view["elements"], view["ranks"], view["attacks_made"]
        attacker, defender, queue = view["attacker"], view["defender"], view["final_queue"]
        for k in range(min(n, MAX_PLAYERS)):
            p = (me + k) % n
            at = _write_seat(out, k * PER_SEAT, elements[p], scaled(ranks[p], MAITRE))
            out[at + 1] = scaled(attacks[p], 50.0)
            if attacker == p:
                out[at + 2] = _ONE
            if defender == p:
                out[at + 3] = _ONE
            if p in queue:
                out[at + 4] = _ONE
        phase = PHASE_INDEX.get(view["phase"], -1)
        if phase >= 0:
            out[AT_PHASE + phase] = _ONE
        out[AT_FIGHT] = scaled(view["fight_number"], FIGHT_CAP)
        out[AT_FIGHT + 1] = scaled(view["attacker_rank"], MAITRE)
        out[AT_FIGHT + 2] = scaled(view["parries"], ROW_MAX)
        supply = view["parry_supply"]
        for k in range(len(PARRY_TYPES)):
            out[AT_SUPPLY + k] = scaled(supply[PARRY_TYPES[k]], 4.0)
        role = ROLE_INDEX.get(view["role"], -1)
        if role >= 0:
            out[AT_ROLE + role] = _ONE
        row = view.get("row_so_far", ())
        _count_parries(out, AT_ROW, row)
        out[AT_ROW + len(PARRY_TYPES)] = clipped(len(row), ROW_MAX)
        out[AT_ROW + len(PARRY_TYPES) + 1] = clipped(len(view["my_hidden"]), 10.0)
        history = view["history"]
        if history:
            last = history[-1]
            for card in last.get("attack", ()):
                c = CARD_INDEX.get(card, -1)
                if c >= 0:
                    out[AT_LAST + c] = _ONE  # a count scaled by 1: 1 for any card shown
            _count_parries(out, AT_LAST_ROW, last.get("row", ()))
            if last.get("winner") == "attacker":
                out[AT_LAST_ROW + len(PARRY_TYPES)] = _ONE
            if last.get("attacker") == me:
                out[AT_LAST_ROW + len(PARRY_TYPES) + 1] = _ONE
        return out

    def encode_state(self, state: State, seat: int) -> list[float]:
        """`encode(state.observe(seat))` built from the state's fields (`state_tensor`)."""
        if isinstance(state, MaitreNinjaState):
            return state_tensor(state, seat)
        return self.encode(state.observe(seat))

    def action_indices(self, legal: Sequence[Action]) -> list[int]:
        """Each legal action's place in ALL_ACTIONS."""
        return [ACTION_INDEX[a] for a in legal]


ENCODING: Final = MaitreNinjaEncoding()
