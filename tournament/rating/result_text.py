"""A stored match's result in words: points for two seats, places for a pod."""

from __future__ import annotations

from collections.abc import Sequence

SOLO_AI = "Solo AI"  # the name a solo match gives the seats the game plays itself


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def places(tiers: Sequence[int]) -> list[str]:
    """Each seat's place from its tier (0 = first), as players count them: a shared place is
    marked '=' and the next place skips the seats that share it ('1st=, 1st=, 3rd')."""
    out = []
    for tier in tiers:
        above = sum(1 for t in tiers if t < tier)
        shared = sum(1 for t in tiers if t == tier) > 1
        out.append(ordinal(above + 1) + ("=" if shared else ""))
    return out


def result_text(tiers: Sequence[int], points: Sequence[float]) -> str:
    """'1 - 0' or '0.5 - 0.5' for two seats (points, at most two decimals); a pod's places
    in seat order ('2nd, 1st, 4th, 3rd'), since its fractional points read as noise."""
    if len(tiers) > 2:
        return ", ".join(places(tiers))
    return " - ".join(f"{round(p, 2):g}" for p in points)
