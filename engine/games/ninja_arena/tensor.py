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
from typing import Final

from tourney.engine.core import Action, Observation
from tourney.engine.core.encoding import Encoding, Features
from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena.actions import Activate, Hit, Roll, Switch, Wait

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


class NinjaArenaEncoding(Encoding):
    """See the module docstring."""

    size = SIZE
    action_count = ACTIVATE_BASE + len(TECHNIQUES) * 32 * VARIANTS

    def encode(self, view: Observation) -> list[float]:
        """The table as SIZE numbers, the viewer's seat first."""
        me = int(view["seat"])
        players = view["players"]
        n = len(players)
        f = Features()
        f.one_hot(view["mode"], MODES)
        f.scaled(view["tick"], view["tick_cap"])
        f.flag(view["shadow_token"] == "on_uzumaki")
        f.flag(view["pending_switch"] == me)
        f.flag(view["pending_switch"] not in (-1, me))
        for k in range(D.MAX_PLAYERS_GENIN):
            p = players[(me + k) % n] if k < n else {}
            f.flag(p)
            f.one_hot(p.get("character"), NAMES)
            f.one_hot(p.get("bottom"), NAMES)
            f.flag(p.get("side") == "KO")
            f.scaled(p.get("cube"), D.K_SPACES + 1)
            f.scaled(p.get("cube_bottom"), D.K_SPACES + 1)
            f.flag(p.get("recovered"))
            f.flag(p.get("eliminated"))
            f.scaled(p.get("pool"), 20)
            f.flag(p.get("power_active"))
            f.flag(p.get("stitched_until", 0) >= view["tick"])
            f.scaled(p.get("byakugan_left"), D.BYAKUGAN_CHARGES)
            f.scaled(p.get("fan"), D.FAN_TOKENS)
            f.scaled(p.get("gate_tokens"), D.GATE_TOKENS)
            f.scaled(p.get("sand_shield"), 6)
            faces = str(p.get("dice", "")).ljust(D.DICE_PER_PLAYER)
            for letter in faces[: D.DICE_PER_PLAYER]:
                f.one_hot(letter, LETTERS)
        summary = view.get("summary") or {}
        for t in TECHNIQUES:
            f.flag(t in summary.get("satisfiable", ()))
        f.flag(summary.get("hit_is_claim"))
        f.flag(summary.get("roll_blocked"))
        masks = list(summary.get("dice_masks", ())) + [0] * D.DICE_PER_PLAYER
        for m in masks[: D.DICE_PER_PLAYER]:
            f.values.extend(float(m >> bit & 1) for bit in range(8))
        return f.done(SIZE)

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
