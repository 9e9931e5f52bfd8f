"""Requirement matching (§3.1): which dice can fill which symbols, and canonical dice choices.

A die is turned into a bitmask of the symbols it can fill (its face; every symbol for a
SPIRAL; under Blade Dance also every non-SPIRAL face shown on another of the player's
dice). Matching is then a tiny bipartite search, cached on (masks, requirement).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from tourney.engine.games.ninja_arena.data import BLANK, W

WILD = 0b1111110 | (1 << 7)  # fills K..L; bit 7 marks "this is a SPIRAL" for canonical choices
_SYMBOL_BITS = 0b1111110


def die_masks(faces: tuple[int, ...] | list[int], blade: bool) -> tuple[int, ...]:
    """For each die, the bitmask of symbols it can fill (0 for a BLANK die)."""
    masks = []
    for i, f in enumerate(faces):
        if f == BLANK:
            masks.append(0)
        elif f == W:
            masks.append(WILD)
        else:
            m = 1 << f
            if blade:
                # A die may copy a non-SPIRAL face shown on *another* die (A18).
                others = 0
                for j, g in enumerate(faces):
                    if j != i and g != BLANK and g != W:
                        others |= 1 << g
                m |= others
            masks.append(m)
    return tuple(masks)


@lru_cache(maxsize=1 << 18)
def fits(masks: tuple[int, ...], req: tuple[int, ...]) -> bool:
    """True if the dice (masks) can be assigned one-to-one to slots of req, every die used.

    len(masks) == len(req) is an exact fill; len(masks) == len(req) - 1 leaves one slot
    empty (Akamaru).
    """
    if len(masks) > len(req):
        return False
    return _assign(masks, 0, req, 0)


def _assign(masks: tuple[int, ...], i: int, req: tuple[int, ...], used: int) -> bool:
    if i == len(masks):
        return True
    m = masks[i]
    tried = 0
    for j, s in enumerate(req):
        bit = 1 << s
        if used >> j & 1 or not m & bit or tried & bit:
            continue
        tried |= bit  # symmetric slots: trying one K slot is enough
        if _assign(masks, i + 1, req, used | 1 << j):
            return True
    return False


@lru_cache(maxsize=1 << 18)
def canonical(masks5: tuple[int, ...], req: tuple[int, ...], size: int) -> tuple[int, ...] | None:
    """The canonical `size` dice (indices) filling req: fewest SPIRALs, then lowest indices."""
    live = [i for i, m in enumerate(masks5) if m]
    if len(live) < size:
        return None
    if size == len(req):
        # Quick rejection: every symbol needs as many dice able to fill it as it has slots.
        for sym in set(req):
            bit = 1 << sym
            if sum(1 for i in live if masks5[i] & bit) < req.count(sym):
                return None
    best: tuple[int, ...] | None = None
    best_w = 99
    for combo in combinations(live, size):
        chosen = tuple(masks5[i] for i in combo)
        nw = chosen.count(WILD)
        if nw < best_w and fits(chosen, req):
            best, best_w = combo, nw
            if nw == 0:
                break
    return best


def chosen_fit(masks5: tuple[int, ...], dice: tuple[int, ...], req: tuple[int, ...]) -> bool:
    """True if the listed dice (indices) fill req (exactly, or leaving one slot for Akamaru)."""
    return fits(tuple(masks5[i] for i in dice), req)
