"""The actions of a tick (§5.1) plus the Duel SWITCH/KEEP decision (§8.1)."""

from __future__ import annotations

from dataclasses import dataclass

from tourney.engine.core import Action


@dataclass(frozen=True, slots=True)
class Wait(Action):
    """Do nothing this tick."""

    @property
    def label(self) -> str:
        return "wait"


@dataclass(frozen=True, slots=True)
class Hit(Action):
    """Hit the Uzumaki tile: a claim if the dice show the Power (or, KO'd, the Recovery) combo."""

    @property
    def label(self) -> str:
        return "hit"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Reroll the listed dice (0 = black die). stream_target: Stream His Chakra's target, -1 = default."""

    dice: tuple[int, ...]
    stream_target: int = -1

    @property
    def label(self) -> str:
        extra = f" stream->{self.stream_target}" if self.stream_target >= 0 else ""
        return "roll " + "".join(str(d) for d in self.dice) + extra


@dataclass(frozen=True, slots=True)
class Activate(Action):
    """Fire a technique ("T1", "T2", "T3", or Duel "B1") with the listed dice.

    target: the chosen opponent for ONE / NEIGHBOUR / All-Fours techniques (-1 otherwise).
    allocation: ((seat, tokens), ...) for SPLIT techniques, seats ascending.
    bonus_target: who gets an active Power's attack bonus (-1 = default recipient).
    from_shield: Sand Prison only: how many of the 2 tokens come off the Sand Shield tile.
    """

    technique: str
    dice: tuple[int, ...]
    target: int = -1
    allocation: tuple[tuple[int, int], ...] = ()
    bonus_target: int = -1
    from_shield: int = 0

    @property
    def label(self) -> str:
        out = f"{self.technique} [{''.join(str(d) for d in self.dice)}]"
        if self.target >= 0:
            out += f" ->{self.target}"
        if self.allocation:
            out += " ->" + ",".join(f"{s}:{k}" for s, k in self.allocation)
        if self.bonus_target >= 0:
            out += f" +{self.bonus_target}"
        if self.from_shield:
            out += f" shield{self.from_shield}"
        return out


@dataclass(frozen=True, slots=True)
class Switch(Action):
    """Duel, after an opponent's Power pause: swap TOP and BOTTOM boards (True) or keep them."""

    switch: bool

    @property
    def label(self) -> str:
        return "switch" if self.switch else "keep"


WAIT = Wait()
HIT = Hit()
KEEP = Switch(False)
SWITCH = Switch(True)
# The 31 non-empty subsets of the 5 dice, smallest first, so the list order is stable.
ROLL_SUBSETS: tuple[tuple[int, ...], ...] = tuple(
    sorted(
        (tuple(i for i in range(5) if mask >> i & 1) for mask in range(1, 32)),
        key=lambda d: (len(d), d),
    )
)
ROLLS: tuple[Roll, ...] = tuple(Roll(d) for d in ROLL_SUBSETS)
