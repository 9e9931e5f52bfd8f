"""Requirement matching (§3.1): which dice can fill which symbols, and canonical dice choices.

A die is turned into a bitmask of the symbols it can fill (its face; every symbol for a
SPIRAL; under Blade Dance also every non-SPIRAL face shown on another of the player's
dice). Outside Blade Dance each die fills one symbol or, a SPIRAL, any: then a choice of dice
fills a requirement exactly when its non-SPIRAL faces are a sub-multiset of it, and the canonical
choice (fewest SPIRALs, then lowest indices) is found in one pass over the five dice
(`lowest_fill`). Blade Dance's many-symbol dice need a small bipartite search, cached on
(masks, requirement).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Final

from tourney.engine.core.chance import i64
from tourney.engine.games.ninja_arena.data import BLANK, W

WILD: Final = 0b1111110 | (1 << 7)  # fills K..L; bit 7 marks "this is a SPIRAL" for canonical choices
_SYMBOL_BITS: Final = 0b1111110
# A mask as the face it stands for: BLANK for 0, the symbol for one bit, W for WILD, -1 for a
# Blade Dance die that fills several symbols.
_MASK_FACE: Final = [-1] * 256
_MASK_FACE[0] = BLANK
_MASK_FACE[WILD] = W
for _s in range(1, W):
    _MASK_FACE[1 << _s] = _s


# Each face's mask outside Blade Dance, by face: what `die_masks` gives a die on its own.
FACE_MASK: Final = tuple(0 if f == BLANK else WILD if f == W else 1 << f for f in range(W + 1))


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


def room_of(req: tuple[int, ...]) -> int:
    """How many slots of each symbol req has, packed three bits a symbol (for `fill_bits`)."""
    room = 0
    for s in req:
        room += 1 << 3 * s
    return room


def fill_bits(faces: list[int], base: int, room: int, size: int) -> int:
    """The canonical `size` dice of faces[base:base+5] (no Blade Dance) filling `size` slots of the
    requirement whose `room_of` is `room` (size at most its length), as a bit set of die indices;
    0 when none do. Fewest SPIRALs, then lowest indices.

    With the SPIRAL count fixed at w, the choices that fit are the bases of a matroid (w of the
    SPIRALs, and size - w other dice taking each symbol at most as often as the requirement has
    it), so taking each die in index order whenever it still fits gives the lowest one."""
    # Machine integers (i64) throughout: compiled, every step is one instruction instead of a tagged
    # integer's checks, and the five faces are read from the list once, packed three bits each.
    # faces is a list, not any sequence: the compiled build then indexes it directly.
    at: i64 = base
    packed: i64 = 0
    spirals: i64 = 0
    i: i64 = 0
    while i < 5:
        f: i64 = faces[at + i]
        packed |= f << (3 * i)
        if f == W:
            spirals += 1
        i += 1
    want: i64 = size
    full: i64 = room
    w: i64 = 0
    most: i64 = spirals if spirals < want else want
    while w <= most:
        left: i64 = full
        plain: i64 = want - w
        wild: i64 = w
        chosen: i64 = 0
        i = 0
        while i < 5:
            f = (packed >> (3 * i)) & 7
            if f == W:
                if wild > 0:
                    wild -= 1
                    chosen |= 1 << i
            elif f != BLANK and plain > 0 and (left >> (3 * f)) & 7 != 0:
                left -= 1 << (3 * f)
                plain -= 1
                chosen |= 1 << i
            i += 1
        if plain == 0 and wild == 0:
            return chosen
        w += 1
    return 0


# A bit set of dice as the ascending tuple of their indices.
DICE_OF_BITS: Final = tuple(tuple(i for i in range(5) if bits >> i & 1) for bits in range(32))


def lowest_fill(faces: list[int], base: int, req: tuple[int, ...], size: int) -> tuple[int, ...] | None:
    """`fill_bits` as a tuple of die indices (None when no dice fill req)."""
    if size > len(req):
        return None
    bits = fill_bits(faces, base, room_of(req), size)
    return DICE_OF_BITS[bits] if bits else None


def _plain_faces(masks: Sequence[int]) -> list[int] | None:
    """The faces behind masks that each fill one symbol (or are SPIRALs); None under Blade Dance."""
    faces = [_MASK_FACE[m] for m in masks]
    return None if -1 in faces else faces


@lru_cache(maxsize=1 << 18)
def fits(masks: tuple[int, ...], req: tuple[int, ...]) -> bool:
    """True if the dice (masks) can be assigned one-to-one to slots of req, every die used.

    len(masks) == len(req) is an exact fill; len(masks) == len(req) - 1 leaves one slot
    empty (Akamaru).
    """
    if len(masks) > len(req):
        return False
    faces = _plain_faces(masks)
    if faces is not None:
        room = [0, 0, 0, 0, 0, 0, 0, 0]
        for s in req:
            room[s] += 1
        for f in faces:
            if f == BLANK:
                return False
            if f != W:
                room[f] -= 1
                if room[f] < 0:
                    return False
        return True
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


def canonical(masks5: tuple[int, ...], req: tuple[int, ...], size: int) -> tuple[int, ...] | None:
    """The canonical `size` dice (indices) filling req: fewest SPIRALs, then lowest indices."""
    faces = _plain_faces(masks5)
    if faces is not None and len(faces) == 5:
        return lowest_fill(faces, 0, req, size)
    return _searched(masks5, req, size)


@lru_cache(maxsize=1 << 18)
def _searched(masks5: tuple[int, ...], req: tuple[int, ...], size: int) -> tuple[int, ...] | None:
    """`canonical` by trying every choice of dice in index order (any masks, Blade Dance's too)."""
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
