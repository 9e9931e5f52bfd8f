"""Tiny Ninjas actions (spec §3.1), one small frozen dataclass per decision kind.

Every action a state can offer is built once at import and reused (`play(...)`,
`defend(...)`, ...): legal lists are then lists of shared objects, which keeps random
playouts fast and lets `apply` recognise an action by identity.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from tourney.engine.core import Action
from tourney.engine.games.tiny_ninjas.data import (
    INSTANCE_NAME,
    NUM_INSTANCES,
    TOKEN_BLUE,
    TOKEN_RED,
    TOKEN_YELLOW,
)

ATTACK: Final = "ATTACK"
HEAL: Final = "HEAL"


def _token_names(mask: int) -> tuple[str, ...]:
    out = []
    if mask & TOKEN_RED:
        out.append("RED")
    if mask & TOKEN_BLUE:
        out.append("BLUE")
    if mask & TOKEN_YELLOW:
        out.append("YELLOW")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ChooseRole(Action):
    """D0: the chooser attacks first (True) or defends first (False)."""

    attack_first: bool

    @property
    def label(self) -> str:
        return "attack first" if self.attack_first else "defend first"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """D1: the first Defender's opening discard (card = instance id)."""

    card: int

    @property
    def label(self) -> str:
        return f"discard {INSTANCE_NAME[self.card]}"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """D2: play a card from hand with power-up tokens; mode is ATTACK/HEAL for Princess, else ""."""

    card: int
    tokens: tuple[str, ...] = ()
    mode: str = ""

    @property
    def label(self) -> str:
        out = f"play {INSTANCE_NAME[self.card]}"
        if self.mode:
            out += f" {self.mode}"
        for t in self.tokens:
            out += f" +{t}"
        return out


@dataclass(frozen=True, slots=True)
class EndRound(Action):
    """D2: the Attacker ends the Round (legal after at least one attack)."""

    @property
    def label(self) -> str:
        return "end round"


@dataclass(frozen=True, slots=True)
class Revive(Action):
    """D2b: REVIVE takes this card (instance id) from the discard pile into the hand."""

    card: int

    @property
    def label(self) -> str:
        return f"revive {INSTANCE_NAME[self.card]}"


@dataclass(frozen=True, slots=True)
class Defend(Action):
    """D3: defend with a card, optionally adding the YELLOW token."""

    card: int
    yellow: bool = False

    @property
    def label(self) -> str:
        return f"defend {INSTANCE_NAME[self.card]}" + (" +YELLOW" if self.yellow else "")


@dataclass(frozen=True, slots=True)
class NoDefend(Action):
    """D3: take the damage and keep the cards."""

    @property
    def label(self) -> str:
        return "no defend"


@dataclass(frozen=True, slots=True)
class Mulligan(Action):
    """BLITZ mulligan step: set this card aside to redraw it (one card per step)."""

    secret: ClassVar[bool] = True  # chosen hidden, revealed together on the discard pile (§7.1)
    card: int

    @property
    def label(self) -> str:
        return f"mulligan {INSTANCE_NAME[self.card]}"


@dataclass(frozen=True, slots=True)
class KeepHand(Action):
    """BLITZ mulligan step: stop setting cards aside (a finished seat repeats it until both are done)."""

    @property
    def label(self) -> str:
        return "keep hand"


@dataclass(frozen=True, slots=True)
class SurvivorOption(Action):
    """SURVIVOR: at the start of an attacking Round, DOOM, HEAL_1 or PASS."""

    option: str

    @property
    def label(self) -> str:
        return f"survivor {self.option.lower()}"


@dataclass(frozen=True, slots=True)
class DeclareAttack(Action):
    """SOLO H1: draw the AI's defending card, then choose the attacking card (H2)."""

    @property
    def label(self) -> str:
        return "declare attack"


# --- interned instances ------------------------------------------------------------------------
CHOOSE_ATTACK: Final = ChooseRole(True)
CHOOSE_DEFEND: Final = ChooseRole(False)
END_ROUND: Final = EndRound()
NO_DEFEND: Final = NoDefend()
KEEP_HAND: Final = KeepHand()
DECLARE_ATTACK: Final = DeclareAttack()
SURVIVOR_DOOM: Final = SurvivorOption("DOOM")
SURVIVOR_HEAL: Final = SurvivorOption("HEAL_1")
SURVIVOR_PASS: Final = SurvivorOption("PASS")

# PLAY[card][token_mask] for token masks 0..3 (RED|BLUE); PRINCESS_PLAY[mode_index][card][mask].
PLAY: Final = tuple(tuple(Play(c, _token_names(m)) for m in range(4)) for c in range(NUM_INSTANCES))
PLAY_MODE: Final = tuple(
    tuple(tuple(Play(c, _token_names(m), mode) for m in range(4)) for c in range(NUM_INSTANCES))
    for mode in (ATTACK, HEAL)
)
DISCARD: Final = tuple(Discard(c) for c in range(NUM_INSTANCES))
REVIVE: Final = tuple(Revive(c) for c in range(NUM_INSTANCES))
DEFEND: Final = tuple((Defend(c, False), Defend(c, True)) for c in range(NUM_INSTANCES))
MULLIGAN: Final = tuple(Mulligan(c) for c in range(NUM_INSTANCES))

TOKEN_MASK: Final = {(): 0, ("RED",): TOKEN_RED, ("BLUE",): TOKEN_BLUE, ("RED", "BLUE"): TOKEN_RED | TOKEN_BLUE}
