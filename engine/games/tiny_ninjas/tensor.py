"""Tiny Ninjas' observation tensor and fixed action space, for training environments.

Tensor (from the seat's own view, own seat first): mode, phase, round, who attacks; per seat
health, hand limit, tokens, hand size, known and revealed cards by type; draw pile, discard
pile by type, the pending attack, the last dice, the series, and the seat's own hand by type.

Actions: every action the game can offer, in this order: the two roles, discard (by card id),
play (card id x token mask RED|BLUE), Princess play (ATTACK, HEAL x card id x mask), end
round, revive (card id), defend (card id x YELLOW), no defend, mulligan (card id), keep hand,
the three Survivor options, declare attack (Solo).

`encode_state` builds the same tensor from the state's fields, reading only what the seat's view
holds (its own hand and mulligan marks, the cards the opponent showed, public counts and events).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tourney.engine.core import Action, Observation, State
from tourney.engine.core.chance import i64
from tourney.engine.core.encoding import Encoding, clipped, scaled
from tourney.engine.games.tiny_ninjas import actions as A
from tourney.engine.games.tiny_ninjas.data import (
    BLUE,
    DIE_FACES,
    INSTANCE_TYPE,
    NUM_TYPES,
    RED,
    TOKEN_BLUE,
    TOKEN_NAMES,
    TOKEN_RED,
    TOKEN_YELLOW,
    TYPE_BY_NAME,
)
from tourney.engine.games.tiny_ninjas.game import MODES
from tourney.engine.games.tiny_ninjas.rules import P_DEFEND, P_MULLIGAN, PHASE_NAMES
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState, TypedOptions

ALL_ACTIONS: Final[tuple[Action, ...]] = (
    A.CHOOSE_ATTACK, A.CHOOSE_DEFEND, *A.DISCARD,
    *(play for masks in A.PLAY for play in masks),
    *(play for by_card in A.PLAY_MODE for masks in by_card for play in masks),
    A.END_ROUND, *A.REVIVE, *(d for pair in A.DEFEND for d in pair), A.NO_DEFEND, *A.MULLIGAN, A.KEEP_HAND,
    A.SURVIVOR_DOOM, A.SURVIVOR_HEAL, A.SURVIVOR_PASS, A.DECLARE_ATTACK,
)
ACTION_INDEX: Final[dict[Action, int]] = {a: i for i, a in enumerate(ALL_ACTIONS)}
TOKENS: Final = tuple(name for _, name in TOKEN_NAMES)  # RED, BLUE, YELLOW
COPIES: Final = 6.0  # the most copies of one type in the deck: the scale of a per-type count
PER_SEAT: Final = 5 + len(TOKENS) + 2 * NUM_TYPES
SIZE: Final = (len(MODES) + len(PHASE_NAMES) + 5 + 2 * PER_SEAT + 1 + NUM_TYPES + 6
               + 2 * len(DIE_FACES) + 4 + 2 * NUM_TYPES)

# Where each part of the tensor starts (the order of `encode`), for `state_tensor`.
AT_PHASE: Final = len(MODES)
AT_ROUND: Final = AT_PHASE + len(PHASE_NAMES)
AT_SEATS: Final = AT_ROUND + 5
AT_KNOWN: Final = 8  # within a seat's part: its known cards by type, then its revealed hand by type
AT_REVEALED: Final = AT_KNOWN + NUM_TYPES
AT_DRAW: Final = AT_SEATS + 2 * PER_SEAT
AT_ATTACK: Final = AT_DRAW + 1 + NUM_TYPES
AT_DICE: Final = AT_ATTACK + 6
AT_HAND: Final = AT_DICE + 2 * len(DIE_FACES) + 4
AT_MARKED: Final = AT_HAND + NUM_TYPES
MODE_INDEX: Final = {mode: i for i, mode in enumerate(MODES)}
PHASE_INDEX: Final = {phase: i for i, phase in enumerate(PHASE_NAMES)}
# A per-type count as the tensor holds it (n / COPIES, at most 1), for n = 0, 1, ..., 70: kept as
# objects, so that storing one in the tensor is a pointer copy, not a new float each time.
# ZERO is the one 0.0 state_tensor fills its list with, and COUNT_VALUE[0]: a count's slot always holds one
# of COUNT_VALUE's objects, so _count_types finds the count so far by identity (from 6 on, one object: 1.0).
ZERO: Final[object] = float(0)  # made by a call: a literal might be inlined, and boxed anew, where it is used
ONE: Final[object] = float(1)  # every flag of a tensor: one object, not a float boxed per call
COUNT_VALUE: Final[tuple[object, ...]] = (ZERO, *(min(1.0, n / COPIES) for n in range(1, 71)))
# Each card's type as a byte: compiled, indexing bytes gives a machine integer, a tuple a boxed one.
TYPE_BYTE: Final = bytes(INSTANCE_TYPE)
# A pile of the state holds each card once, so a type's count there is at most its copies in the deck:
# _count_types tallies a pile COUNT_BITS a type in two machine integers (types below LOW_TYPES in one).
COUNT_BITS: Final = 3
COUNT_MASK: Final = (1 << COUNT_BITS) - 1
LOW_TYPES: Final = 16
if max(INSTANCE_TYPE.count(t) for t in range(NUM_TYPES)) > COUNT_MASK or NUM_TYPES > 2 * LOW_TYPES:
    raise ValueError("a card type's copies or the number of types outgrow _count_types' packing")


def _values(top: float, most: int) -> tuple[object, ...]:
    """`clipped(n, top)` for n = 0..most, as objects: storing one in a tensor is then a pointer copy,
    where `clipped` makes a new float each time."""
    return tuple(clipped(n, top) for n in range(most + 1))


# The scales of state_tensor's numbers, over the values the options allow (and more).
BY_5: Final = _values(5.0, 20)
BY_10: Final = _values(10.0, 100)
BY_20: Final = _values(20.0, 100)
BY_70: Final = _values(70.0, 200)
BY_100: Final = _values(100.0, 1000)


def _scaled(values: tuple[object, ...], n: int, top: float) -> object:
    """`clipped(n, top)`, read from `values` (`_values(top, ...)`) when n is in it."""
    return values[n] if 0 <= n < len(values) else clipped(n, top)


def _scaled_any(values: tuple[object, ...], value: Any, top: float) -> object:
    """`scaled(value, top)` (a view's number: None or a non-number counts as 0), read from `values` when
    `value` is an int in it."""
    if isinstance(value, int) and 0 <= value < len(values):
        n: int = value
        return values[n]
    return scaled(value, top)


def _count_one(out: list[Any], k: int) -> None:
    """One more card of the type counted at out[k], which holds COUNT_VALUE[n]: COUNT_VALUE[n + 1] (the last
    at most), n found by identity, so no count is kept beside the tensor (a tally list cost a boxed int read
    and written per card, and a pass to clear it)."""
    held = out[k]
    n = 0
    while COUNT_VALUE[n] is not held:  # bounded: a count's slot holds one of COUNT_VALUE's objects
        n += 1
    if n + 1 < len(COUNT_VALUE):
        out[k] = COUNT_VALUE[n + 1]


def _count_types(out: list[Any], at: int, cards: list[int], unit: i64 = 1) -> None:
    """`Features.counts` of the cards' types, into out[at:at + NUM_TYPES] (ZERO before), from a pile of the
    state. The counts so far are machine integers, COUNT_BITS a type (compiled, a shift and a mask a card),
    and each card writes its type's count so far, so a type's last card leaves its whole count. `unit` is
    1, a parameter because mypyc writes a 1 it can see as C's 32-bit int, and `1 << 33` then overflows."""
    low: i64 = 0
    high: i64 = 0
    for c in cards:
        t: i64 = TYPE_BYTE[c]
        if t < LOW_TYPES:
            shift = COUNT_BITS * t
            low += unit << shift
            n = (low >> shift) & COUNT_MASK
        else:
            shift = COUNT_BITS * (t - LOW_TYPES)
            high += unit << shift
            n = (high >> shift) & COUNT_MASK
        out[at + t] = COUNT_VALUE[n]


def _count_names(out: list[Any], at: int, names: Sequence[Any]) -> None:
    """`Features.counts(names, TYPE_NAMES, COPIES)` into out[at:at + NUM_TYPES] (ZERO before); a name that
    is no card type counts nowhere."""
    for name in names:
        t = TYPE_BY_NAME.get(name, -1) if isinstance(name, str) else -1
        if t >= 0:
            _count_one(out, at + t)


def _seats(out: list[Any], s: TinyNinjasState, me: int, options: TypedOptions) -> None:
    """Both seats' parts of `state_tensor`, own seat first, in one call that reads each of the state's
    per-seat lists once (a call per seat cost some 30 ns more on a state played afresh; a loop over the
    tuple (me, 1 - me) would go through the generic iterator protocol)."""
    one = ONE
    health = s.health
    maxh = s.maxh
    limit = s.limit
    tokens = s.tokens
    hands = s.hands
    known = s.known
    for i in range(2):
        p = me if i == 0 else 1 - me
        at = AT_SEATS + PER_SEAT * i
        hand = hands[p]
        out[at] = _scaled(BY_20, health[p], 20.0)
        out[at + 1] = _scaled(BY_20, maxh[p], 20.0)
        out[at + 2] = _scaled(BY_10, limit[p], 10.0)
        out[at + 3] = _scaled(BY_10, len(hand), 10.0)
        held = tokens[p]  # the token slots in TOKENS's order
        if held & TOKEN_RED:
            out[at + 5] = one
        if held & TOKEN_BLUE:
            out[at + 6] = one
        if held & TOKEN_YELLOW:
            out[at + 7] = one
        _count_types(out, at + AT_KNOWN, known[p])
        if options.reveal1 if p else options.reveal0:
            out[at + 4] = one
            _count_types(out, at + AT_REVEALED, hand)


def state_tensor(s: TinyNinjasState, me: int) -> list[float]:
    """`encode(s.observe(me))`, number for number, from the state's fields. Every number is stored as an
    object made once (ONE, ZERO, the `_values` tables, COUNT_VALUE): compiled, a float written into the list
    would be a new object each time."""
    out: list[Any] = [ZERO] * SIZE
    one = ONE
    options = s.typed_options
    mode = MODE_INDEX.get(options.mode_name, -1)
    if mode >= 0:
        out[mode] = one
    out[AT_PHASE + s.phase] = one
    out[AT_ROUND] = _scaled(BY_100, s.round, 100.0)
    if s.attacker == me:
        out[AT_ROUND + 1] = one
    for seat in s._to_act:  # a loop over the typed tuple: `in` would box `me` and call the generic test
        if seat == me:
            out[AT_ROUND + 2] = one
    out[AT_ROUND + 3] = _scaled(BY_10, s.attacks, 10.0)
    if s.freeze:
        out[AT_ROUND + 4] = one
    _seats(out, s, me, options)
    out[AT_DRAW] = _scaled(BY_70, len(s.draw), 70.0)
    _count_types(out, AT_DRAW + 1, s.discard)
    if s.phase == P_DEFEND:
        out[AT_ATTACK] = one
        if s.p_colour == RED:
            out[AT_ATTACK + 1] = one
        elif s.p_colour == BLUE:
            out[AT_ATTACK + 2] = one
        out[AT_ATTACK + 3] = _scaled(BY_10, s.p_amount, 10.0)
        out[AT_ATTACK + 4] = _scaled(BY_10, s.p_undef, 10.0)
    if options.series:
        out[AT_ATTACK + 5] = _scaled(BY_5, s.wins[me], 5.0)
        out[AT_DICE + 2 * len(DIE_FACES) + 1] = _scaled(BY_5, s.wins[1 - me], 5.0)
    rolled = s.last_roll  # the latest roll, as the view's last_dice
    if rolled is not None:
        faces: list[int] = rolled[3]  # rules.roll and roll2 log a list
        for k in range(min(2, len(faces))):
            face = faces[k]
            if 1 <= face <= len(DIE_FACES):
                out[AT_DICE + k * len(DIE_FACES) + face - 1] = one
        roller = rolled[2]  # a seat, or Solo's AI by name
        if isinstance(roller, int) and roller == me:  # compiled: an int's test, not a generic comparison
            out[AT_DICE + 2 * len(DIE_FACES)] = one
    if s.solo:
        if s.ai_card >= 0:
            out[AT_HAND - 2] = one
        if options.difficulty:
            out[AT_HAND - 1] = one
    _count_types(out, AT_HAND, s.hands[me])
    if s.phase == P_MULLIGAN:
        _count_types(out, AT_MARKED, s.mull[me])
    return out


class TinyNinjasEncoding(Encoding):
    """See the module docstring."""

    size = SIZE
    action_count = len(ALL_ACTIONS)

    def encode(self, view: Observation) -> list[float]:
        """The seat's view as SIZE numbers, its own seat first (`Features`' rules: a number scaled and
        clipped, None counted as 0), written into place."""
        me = int(view["seat"])
        out: list[Any] = [ZERO] * SIZE
        one = ONE
        mode = MODE_INDEX.get(view["mode"], -1)
        if mode >= 0:
            out[mode] = one
        phase = PHASE_INDEX.get(view["phase"], -1)
        if phase >= 0:
            out[AT_PHASE + phase] = one
        out[AT_ROUND] = _scaled_any(BY_100, view["round"], 100.0)
        if view["attacker"] == me:
            out[AT_ROUND + 1] = one
        if me in view["to_act"]:
            out[AT_ROUND + 2] = one
        out[AT_ROUND + 3] = _scaled_any(BY_10, view["attacks_this_round"], 10.0)
        if view["freeze_pending"]:
            out[AT_ROUND + 4] = one
        revealed = view["revealed_hands"]
        at = AT_SEATS
        for p in (me, 1 - me):
            out[at] = _scaled_any(BY_20, view["health"][p], 20.0)
            out[at + 1] = _scaled_any(BY_20, view["max_health"][p], 20.0)
            out[at + 2] = _scaled_any(BY_10, view["hand_limit"][p], 10.0)
            out[at + 3] = _scaled_any(BY_10, view["hand_sizes"][p], 10.0)
            if str(p) in revealed:
                out[at + 4] = one
            tokens = view["tokens"][p]
            for k in range(len(TOKENS)):
                if TOKENS[k] in tokens:
                    out[at + 5 + k] = one
            _count_names(out, at + AT_KNOWN, view["known_cards"][p])
            _count_names(out, at + AT_REVEALED, revealed.get(str(p), ()))
            at += PER_SEAT
        out[AT_DRAW] = _scaled_any(BY_70, view["draw_pile_size"], 70.0)
        _count_names(out, AT_DRAW + 1, view["discard_pile"])
        attack = view["pending_attack"] or {}
        if attack:
            out[AT_ATTACK] = one
        colour = attack.get("colour")
        if colour == "RED":
            out[AT_ATTACK + 1] = one
        elif colour == "BLUE":
            out[AT_ATTACK + 2] = one
        out[AT_ATTACK + 3] = _scaled_any(BY_10, attack.get("amount"), 10.0)
        out[AT_ATTACK + 4] = _scaled_any(BY_10, attack.get("undefendable"), 10.0)
        series = view.get("series") or {"wins": [0, 0]}
        out[AT_ATTACK + 5] = _scaled_any(BY_5, series["wins"][me], 5.0)
        dice = view["last_dice"] or {"faces": []}
        faces = list(dice["faces"]) + [0, 0]
        for k in range(2):
            for face in range(1, len(DIE_FACES) + 1):
                if faces[k] == face:
                    out[AT_DICE + k * len(DIE_FACES) + face - 1] = one
        if dice.get("seat") == me:
            out[AT_DICE + 2 * len(DIE_FACES)] = one
        out[AT_DICE + 2 * len(DIE_FACES) + 1] = _scaled_any(BY_5, series["wins"][1 - me], 5.0)
        if view.get("ai_card"):
            out[AT_HAND - 2] = one
        if view.get("difficulty"):
            out[AT_HAND - 1] = one
        _count_names(out, AT_HAND, view["hand"])
        _count_names(out, AT_MARKED, view.get("mulligan_marked", ()))
        return out

    def encode_state(self, state: State, seat: int) -> list[float]:
        """`encode(state.observe(seat))` built from the state's fields (`state_tensor`)."""
        if isinstance(state, TinyNinjasState):
            return state_tensor(state, seat)
        return self.encode(state.observe(seat))

    def action_indices(self, legal: Sequence[Action]) -> list[int]:
        """Each legal action's place in ALL_ACTIONS."""
        return [ACTION_INDEX[a] for a in legal]


ENCODING: Final = TinyNinjasEncoding()
