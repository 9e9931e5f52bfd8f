"""Shared helpers for the Tiny Ninjas tests: build a battle from named hands, act by label."""

from __future__ import annotations

from typing import Any

from tourney.engine.core import Inject
from tourney.engine.games.tiny_ninjas import GAME
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState

FILLER = ["Trio", "Trio", "Trio", "Trio", "Trio"]


def battle(
    hand0: list[str],
    hand1: list[str],
    dice: list[int] | None = None,
    picks: list[int] | None = None,
    health: tuple[int, int] = (10, 10),
    first: str = "attack first",
    seed: int = 7,
    **config: Any,
) -> TinyNinjasState:
    """A standard battle whose hands are exactly hand0/hand1 (initial_hand = their size); the
    chooser (seat 0 unless the config says otherwise) answers `first`; no opening discard unless
    the config asks for one."""
    assert len(hand0) == len(hand1)
    cfg: dict[str, Any] = {"chooser": 0, "opening_discard": False, "initial_hand": len(hand0),
                           "start_health": list(health)}
    cfg.update(config)
    inject = Inject(dice=list(dice or []), deck_order=hand0 + hand1, picks=list(picks or []))
    s = GAME.new_state(seed, config=cfg, inject=inject)
    assert s.observe(0)["hand"] == hand0
    assert s.observe(1)["hand"] == hand1
    act(s, first)
    return s


def labels(s: TinyNinjasState) -> list[str]:
    """Labels of the legal actions of the (single) seat to act."""
    (seat,) = s.to_act()
    return [a.label for a in s.legal_actions(seat)]


def act(s: TinyNinjasState, label: str) -> None:
    """Apply the legal action with this label for the seat to act."""
    (seat,) = s.to_act()
    for a in s.legal_actions(seat):
        if a.label == label:
            s.apply({seat: a})
            return
    raise AssertionError(f"{label!r} not legal; legal: {labels(s)}")
