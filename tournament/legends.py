"""What the short forms in a game's play-by-play mean: printed once above `--verbose` and `replay`.

Each game renders its public position compactly (one line per step for Tiny Ninjas); a reader
new to the game gets the key once instead of guessing at `P0A 5c [RBY]` or `FFSRH`.
"""

from __future__ import annotations

LEGENDS: dict[str, str] = {
    "tiny-ninjas": (
        "key: R1 = round 1 · P0A / P1D = seat 0 attacks, seat 1 defends · 10/10hp = health / maximum · "
        "5c = cards in hand · [RBY] = the Red, Blue and Yellow tokens a seat still holds (- none) · "
        "draw / discard = pile sizes, top = the card on the discard · the last word is the phase"
    ),
    "ninja-versus-ninja": (
        "key: R = a Red ninja, B = a Black ninja, . = an empty square · columns a-d, rows 1-11 · "
        "c11→c8→d8 = a ninja's path · each move is followed by the position it left: the next turn, "
        "who moves in it and their dice (rolled 2+2=4)"
    ),
    "maitre-ninja": (
        "key: parries DO = dodge, BL = block, JU = jump · attacks Fi = fist, Fo = foot, Te = Tegaki, "
        "As = Ashiko, Sh = Shuriken, Ku = Kunai, Nu = Nunchaku, Jo = Jo staff, Ni = Ninjato, Ka = Katana · "
        "P1(Terre) = seat 1 and its element · a line played face down shows as 'committed' until it is revealed"
    ),
    "ninja-arena": (
        "key: dice faces K = kunai, S = shuriken, R = scroll, H = seal, F = fist, L = leaf, W = spiral "
        "(wild), . = blank · wound 0/4 = wounds taken / the track's length · pool = dice in the pool · "
        "simultaneous choices show as 'committed', their effects in the position below"
    ),
}


def legend(game_id: str) -> str | None:
    """The key to `game_id`'s play-by-play, or None for a game whose rendering needs none."""
    return LEGENDS.get(game_id)
