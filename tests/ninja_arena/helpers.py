"""Helpers for Ninja Arena tests: build a table, force dice and the tick's shuffles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tourney.engine.core import Action, Inject
from tourney.engine.games.ninja_arena import GAME, ArenaState
from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena.actions import WAIT


def table(chars: Sequence[str], *, mode: str = "standard", seed: int = 0, **cfg: Any) -> ArenaState:
    """A match with fixed characters (genin pack on) and an empty injection queue."""
    config = {"characters": list(chars), "genin_pack": True, "mode": mode, **cfg}
    return GAME.new_state(seed, config=config, inject=Inject())


def set_dice(st: ArenaState, seat: int, faces: str) -> None:
    """Put faces on a seat's dice, e.g. 'WFKLS' (index 0 = black die), '.' = BLANK."""
    assert len(faces) == 5
    st.dice[5 * seat : 5 * seat + 5] = [D.BLANK if c == "." else D.LETTER_SYMBOL[c] for c in faces]


def dice_of(st: ArenaState, seat: int) -> str:
    return D.letters(st.dice[5 * seat : 5 * seat + 5])


def force_order(st: ArenaState, *orders: Sequence[int], items: Sequence[Sequence[int]] | None = None) -> None:
    """Queue the next shuffles (π_t, then ρ_t) as seat orders.

    Each order is a permutation of the seats shuffled at that point (π_t: the live seats;
    ρ_t: the live seats that did not hit), converted to index permutations.
    """
    assert st.chance.inject is not None
    for k, order in enumerate(orders):
        base = sorted(order) if items is None else list(items[k])
        st.chance.inject.shuffles.append([base.index(s) for s in order])


def force_faces(st: ArenaState, *faces: int) -> None:
    """Queue die faces (1..6, the die's own numbering) for the next rolls."""
    assert st.chance.inject is not None
    st.chance.inject.dice.extend(faces)


def tick(st: ArenaState, actions: dict[int, Action] | None = None) -> None:
    """Resolve one tick; seats not listed WAIT."""
    acts: dict[int, Action] = {p: WAIT for p in st.to_act()}
    acts.update(actions or {})
    st.apply(acts)


def events(st: ArenaState, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in st.events if e[0] == kind]
