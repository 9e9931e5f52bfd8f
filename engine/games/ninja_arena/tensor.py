"""Ninja Arena's observation tensor and fixed action space, for training environments.

Everything on the table is public. Tensor (seats counted from the viewer, padded to 6): per seat
its characters, wound cubes, state, pool, dice faces and tiles; the mode, the tick, the Shadow
token, a pending Duel switch, and the viewer's own summary (techniques its dice satisfy, whether
a hit claims, whether it may roll, what each die may show).

Actions: 0 wait, 1 hit, 2 keep, 3 switch; then rolls, 4 + (stream_target + 1) * 31 + (dice mask
- 1); then activations, 221 + ((technique * 32 + dice mask) * 256 + variant), technique in T1,
T2, T3, B1, dice mask the set of dice used, and variant the activation's place among the legal
activations of the same technique and dice (targets and splits, in the game's legal order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tourney.engine.core import Action, Observation, State
from tourney.engine.core.encoding import Encoding
from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena.actions import Activate, Hit, Roll, Switch, Wait
from tourney.engine.games.ninja_arena.rules import claim_kind, masks, satisfiable
from tourney.engine.games.ninja_arena.state import ArenaState

MODES: Final = ("standard", "tick", "duel", "realtime")
TECHNIQUES: Final = ("T1", "T2", "T3", "B1")
NAMES: Final = tuple(c.name for c in D.CHARACTERS)
LETTERS: Final = tuple(D.SYMBOL_LETTER[s] for s in range(1, 8))
SUBSETS: Final = 31  # non-empty subsets of the five dice
TARGETS: Final = D.MAX_PLAYERS_GENIN + 1  # stream_target -1..5
ROLL_BASE: Final = 4
ACTIVATE_BASE: Final = ROLL_BASE + TARGETS * SUBSETS
VARIANTS: Final = 256  # more than the most allocations one split can have (6 tokens over 5 seats: 210)
PER_SEAT: Final = 1 + 2 * len(NAMES) + 12 + D.DICE_PER_PLAYER * len(LETTERS)
SIZE: Final = len(MODES) + 4 + D.MAX_PLAYERS_GENIN * PER_SEAT + len(TECHNIQUES) + 2 + D.DICE_PER_PLAYER * 8


def dice_mask(dice: Sequence[int]) -> int:
    """The set of dice (0 = the black die) as a bit mask."""
    mask = 0
    for d in dice:
        mask |= 1 << d
    return mask


# Where each part of the tensor starts (the module docstring's order).
_TICK: Final = len(MODES)
_SEATS: Final = _TICK + 4
_SUMMARY: Final = _SEATS + D.MAX_PLAYERS_GENIN * PER_SEAT
_MASKS: Final = _SUMMARY + len(TECHNIQUES) + 2
# Inside a seat's block: its characters, its numbers (after the KO flag), its dice.
_TOP: Final = 1
_BOTTOM: Final = _TOP + len(NAMES)
_KO: Final = _BOTTOM + len(NAMES)
_DICE: Final = _KO + 12
NAME_INDEX: Final = {name: i for i, name in enumerate(NAMES)}
MODE_INDEX: Final = {mode: i for i, mode in enumerate(MODES)}
LETTER_FACE: Final = {letter: i + 1 for i, letter in enumerate(LETTERS)}
# A flag's 1.0 as one object made at import (not a literal, which the compiled build would box anew on
# every write into a list): the tensor's lists hold it as they would any float.
_ONE: Final[Any] = float(1)


def _scaled(value: float, top: float) -> float:
    return min(1.0, max(0.0, value / top))


def _seat(out: list[Any], at: int, top: int, bottom: int, ko: bool, cube: float, cube_bottom: float,
          recovered: bool, eliminated: bool, pool: float, power: bool, stitched: bool, byakugan: float,
          fan: float, gate: float, shield: float, faces: list[int]) -> None:
    """One seat's block at `at`: characters by index (-1: none), flags, numbers (scaled here) and the
    five faces (symbols; BLANK or anything unknown sets nothing). `out` starts at zero, so only what is
    not zero is written (a scaled number is a float boxed per write in the compiled build, and most of a
    block is zero); `out` holds Any so that a flag's 1.0 is one constant object, never boxed."""
    out[at] = _ONE
    if top >= 0:
        out[at + _TOP + top] = _ONE
    if bottom >= 0:
        out[at + _BOTTOM + bottom] = _ONE
    at += _KO
    if ko:
        out[at] = _ONE
    if cube > 0:
        out[at + 1] = _scaled(cube, D.K_SPACES + 1)
    if cube_bottom > 0:
        out[at + 2] = _scaled(cube_bottom, D.K_SPACES + 1)
    if recovered:
        out[at + 3] = _ONE
    if eliminated:
        out[at + 4] = _ONE
    if pool > 0:
        out[at + 5] = _scaled(pool, 20)
    if power:
        out[at + 6] = _ONE
    if stitched:
        out[at + 7] = _ONE
    if byakugan > 0:
        out[at + 8] = _scaled(byakugan, D.BYAKUGAN_CHARGES)
    if fan > 0:
        out[at + 9] = _scaled(fan, D.FAN_TOKENS)
    if gate > 0:
        out[at + 10] = _scaled(gate, D.GATE_TOKENS)
    if shield > 0:
        out[at + 11] = _scaled(shield, 6)
    at += 12
    for i in range(D.DICE_PER_PLAYER):
        face = faces[i]
        if 1 <= face <= len(LETTERS):
            out[at + len(LETTERS) * i + face - 1] = _ONE


# The set bits of each byte, lowest first.
_SET_BITS: Final = tuple(tuple(bit for bit in range(8) if m >> bit & 1) for m in range(256))


def _summary(out: list[Any], keys: Sequence[str], claim: bool, blocked: bool, masks: list[int]) -> None:
    """The viewer's own summary: satisfiable techniques, a claiming HIT, a blocked ROLL, dice masks."""
    for t in range(len(TECHNIQUES)):
        if TECHNIQUES[t] in keys:
            out[_SUMMARY + t] = _ONE
    if claim:
        out[_SUMMARY + len(TECHNIQUES)] = _ONE
    if blocked:
        out[_SUMMARY + len(TECHNIQUES) + 1] = _ONE
    for i in range(min(len(masks), D.DICE_PER_PLAYER)):
        at = _MASKS + 8 * i
        for bit in _SET_BITS[masks[i] & 0xFF]:  # one write per set bit of the die's eight symbol bits
            out[at + bit] = _ONE


_TEXT_FACES: Final[dict[str, list[int]]] = {}


def _faces(dice: Any) -> list[int]:
    """A view's dice letters as five faces (unknown letters and missing dice: 0), remembered for
    five-letter texts (8**5 of them at most: as many as the dice can show)."""
    text = dice if isinstance(dice, str) else str(dice)
    got = _TEXT_FACES.get(text)
    if got is None:
        got = [LETTER_FACE.get(letter, 0) for letter in text.ljust(D.DICE_PER_PLAYER)][: D.DICE_PER_PLAYER]
        if len(text) == D.DICE_PER_PLAYER and len(_TEXT_FACES) < 8**5:
            _TEXT_FACES[text] = got
    return got


def _number(value: Any) -> float:
    """A view's number as the tensor reads it: ints and floats as they are, anything else 0."""
    if type(value) is int:  # what the view holds: one pointer test
        return float(value)
    return float(value) if isinstance(value, (int, float)) else 0.0  # a tuple: `int | float` builds a union per call


class NinjaArenaEncoding(Encoding):
    """See the module docstring."""

    size = SIZE
    action_count = ACTIVATE_BASE + len(TECHNIQUES) * 32 * VARIANTS

    def encode(self, view: Observation) -> list[float]:
        """The table as SIZE numbers, the viewer's seat first."""
        out: list[Any] = [0.0] * SIZE  # Any: a 1.0 written is one shared object, not a float boxed per write
        me = int(view["seat"])
        mode = view["mode"]
        if isinstance(mode, str):  # one dict lookup instead of a scan and index() over MODES
            at = MODE_INDEX.get(mode, -1)
            if at >= 0:
                out[at] = _ONE
        tick = view["tick"]
        out[_TICK] = _scaled(_number(tick), view["tick_cap"])
        if view["shadow_token"] == "on_uzumaki":
            out[_TICK + 1] = _ONE
        pending = view["pending_switch"]
        if pending == me:
            out[_TICK + 2] = _ONE
        elif pending != -1:
            out[_TICK + 3] = _ONE
        players: list[Any] = view["players"]  # typed: the compiled build indexes the list directly
        n = len(players)
        for k in range(min(n, D.MAX_PLAYERS_GENIN)):
            p: dict[str, Any] = players[(me + k) % n]  # typed: the compiled build calls dict.get directly
            if not p:
                continue
            faces = _faces(p.get("dice", ""))
            _seat(out, _SEATS + PER_SEAT * k, NAME_INDEX.get(p.get("character", ""), -1),
                  NAME_INDEX.get(p.get("bottom", ""), -1), p.get("side") == "KO", _number(p.get("cube")),
                  _number(p.get("cube_bottom")), bool(p.get("recovered")), bool(p.get("eliminated")),
                  _number(p.get("pool")), bool(p.get("power_active")), p.get("stitched_until", 0) >= tick,
                  _number(p.get("byakugan_left")), _number(p.get("fan")), _number(p.get("gate_tokens")),
                  _number(p.get("sand_shield")), faces)
        summary: dict[str, Any] | None = view.get("summary")
        if summary:
            shown = summary.get("dice_masks", ())
            _summary(out, summary.get("satisfiable", ()), bool(summary.get("hit_is_claim")),
                     bool(summary.get("roll_blocked")), shown if isinstance(shown, list) else list(shown))
        return out

    def encode_state(self, state: State, seat: int) -> list[float]:
        """The same numbers as `encode(state.observe(seat))`, read straight from the state (the view
        holds the whole table, so this reads nothing the seat's view does not)."""
        assert isinstance(state, ArenaState)
        st = state
        out: list[Any] = [0.0] * SIZE  # Any: a 1.0 written is one shared object, not a float boxed per write
        out[2 if st.duel else 0] = 1.0
        out[_TICK] = _scaled(float(st.t), st.tick_cap)
        out[_TICK + 1] = 1.0 if st.shadow_on else 0.0
        out[_TICK + 2] = 1.0 if st.pending_switch == seat else 0.0
        out[_TICK + 3] = 1.0 if st.pending_switch != -1 and st.pending_switch != seat else 0.0
        n = st.n
        for k in range(min(n, D.MAX_PLAYERS_GENIN)):
            p = (seat + k) % n
            _seat(out, _SEATS + PER_SEAT * k, st.top[p], st.bottom[p], st.ko[p], st.cube[p],
                  st.cube_b[p] if st.duel else 0.0, st.recovered[p], st.eliminated[p], st.pool[p], st.power[p],
                  st.stitched[p] >= st.t, st.byakugan[p], st.fan[p], st.gate[p], st.shield[p],
                  st.dice[5 * p : 5 * p + 5])
        if not st.over and not st.eliminated[seat]:
            _summary(out, satisfiable(st, seat), bool(claim_kind(st, seat)), st.t <= st.stitched[seat],
                     list(masks(st, seat)))
        return out

    def action_indices(self, legal: Sequence[Action]) -> list[int]:
        """Each legal action's index (see the module docstring)."""
        out = []
        seen: dict[tuple[str, int], int] = {}
        for action in legal:
            if isinstance(action, Wait):
                out.append(0)
            elif isinstance(action, Hit):
                out.append(1)
            elif isinstance(action, Switch):
                out.append(3 if action.switch else 2)
            elif isinstance(action, Roll):
                out.append(ROLL_BASE + (action.stream_target + 1) * SUBSETS + dice_mask(action.dice) - 1)
            else:
                assert isinstance(action, Activate)
                mask = dice_mask(action.dice)
                variant = seen.get((action.technique, mask), 0)
                if variant >= VARIANTS:
                    raise ValueError(f"more than {VARIANTS} activations of {action.technique} with one set of dice")
                seen[(action.technique, mask)] = variant + 1
                out.append(ACTIVATE_BASE + (TECHNIQUES.index(action.technique) * 32 + mask) * VARIANTS + variant)
        return out


ENCODING: Final = NinjaArenaEncoding()
