"""Achievements earned in a tournament: per match (from the game's result) and streaks.

A game reports what each seat earned in one match in `details["achievements"]`; streaks
("win 3 in a row against the same opponent") span matches, so they are counted here from
the stored results in schedule order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Earned:
    """One achievement earned by one entrant (opponent set for streaks)."""

    alias: str
    number: int
    name: str
    opponent: str | None = None


def match_achievements(details_json: str, aliases: Sequence[str]) -> list[Earned]:
    """What each seat (named by `aliases`, in seat order) earned in one match."""
    details = json.loads(details_json or "{}")
    earned = details.get("achievements") or {}
    names = details.get("achievement_names") or {}
    out = []
    for seat, alias in enumerate(aliases):
        numbers = earned.get(str(seat), earned.get(seat, []))
        labels = names.get(str(seat), names.get(seat, []))
        for i, number in enumerate(numbers):
            label = labels[i] if i < len(labels) else f"achievement {number}"
            out.append(Earned(alias, int(number), str(label)))
    return out


def streak_achievements(
    results: Iterable[Sequence[tuple[str, int, int]]],
    rules: Sequence[tuple[int, int, str]],
) -> list[Earned]:
    """Streaks of wins against one opponent, over two-player results in schedule order.

    results: each match as (alias, tier, tier size) per seat. rules: (number, streak length,
    name). A draw or a loss against that opponent resets the count; each streak achievement
    is earned at most once per pair.
    """
    if not rules:
        return []
    run: dict[tuple[str, str], int] = {}
    best: dict[tuple[str, str], int] = {}
    for match in results:
        if len(match) != 2:
            continue
        for me, them in ((match[0], match[1]), (match[1], match[0])):
            key = (me[0], them[0])
            won = me[1] == 0 and me[2] == 1
            run[key] = run.get(key, 0) + 1 if won else 0
            best[key] = max(best.get(key, 0), run[key])
    out = []
    for (alias, opponent), longest in sorted(best.items()):
        for number, length, name in rules:
            if longest >= length:
                out.append(Earned(alias, number, name, opponent))
    return out
