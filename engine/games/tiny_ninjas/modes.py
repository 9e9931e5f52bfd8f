"""Where a mode takes over the order of play: `Mode` is the standard battle at those points.

The state holds one Mode (this module's STANDARD, or Solo's in solo.py, §8) and rules.py calls it
at the points a mode may replace, so the rules never ask which mode is played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from tourney.engine.core import Action, IllegalAction
from tourney.engine.games.tiny_ninjas.rules import (
    BOTH,
    P_MULLIGAN,
    P_PLAY,
    TO_ACT,
    choose_chooser,
    draw_cards,
    end_round,
    resolve,
)

if TYPE_CHECKING:
    from tourney.engine.games.tiny_ninjas.state import TinyNinjasState


class Mode:
    """The standard battle at the points a mode may replace; Solo (solo.py, §8) replaces them all.

    The state holds one Mode and calls it; the rules never ask which mode is played.
    """

    def deal(self, s: TinyNinjasState) -> None:
        """After the shuffle (§1.4): opening hands, then the mulligan (§7.1) or the chooser."""
        cfg = s.cfg
        initial = cfg["initial_hand"]
        for p in (0, 1):
            draw_cards(s, p, min(5, s.limit[p]) if initial is None else initial)
        if cfg["series_wins"] and s.battles:
            s.log.append((-1, "battle_start", s.battle, list(s.level), s.last_loser))
        if cfg["mulligan"]:
            s.set_phase(P_MULLIGAN, BOTH)
            return
        choose_chooser(s)

    def legal(self, s: TinyNinjasState) -> list[Action]:
        """The actions at a decision point only this mode has (the standard battle has none)."""
        return []

    def apply(self, s: TinyNinjasState, action: Action) -> None:
        """An action at a decision point only this mode has."""
        raise IllegalAction(f"'{action.label}' belongs to no decision of a {s.cfg['mode']} battle.")

    def undefended(self, s: TinyNinjasState) -> None:
        """An attack no seat defends (nothing defendable, or an empty hand) resolves at once."""
        resolve(s, 0, 0, -1)

    def after_attack(self, s: TinyNinjasState) -> None:
        """Nobody fell (§4.4): attack again, or the Round ends (empty hand, cap, single attack)."""
        a = s.attacker
        if not s.hands[a] or s.attacks >= s.cfg["attack_cap_per_round"] or s.cfg["single_attack_rounds"]:
            end_round(s)
            return
        s.set_phase(P_PLAY, TO_ACT[a])


STANDARD: Final = Mode()
