"""Achievements earned in a tournament: per match (from the game's result) and streaks.

A game reports what each seat earned in one match in `details["achievements"]`; streaks
("win 3 in a row against the same opponent") span matches, so they are counted here from
the stored results in schedule order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


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


StreakRule = tuple[int, int, str, Mapping[str, tuple[str, ...]]]


def rules_for(rules: Sequence[StreakRule], config: Mapping[str, Any],
              defaults: Mapping[str, Any]) -> list[tuple[int, int, str]]:
    """The streak rules a tournament's config allows: (number, length, name)."""
    def allowed(requires: Mapping[str, tuple[str, ...]]) -> bool:
        return all(str(config.get(k, defaults.get(k, ""))).lower() in values for k, values in requires.items())
    return [(number, length, name) for number, length, name, requires in rules if allowed(requires)]


def streak_achievements(
    results: Iterable[Sequence[tuple[str, int, int]]],
    rules: Sequence[tuple[int, int, str]],
) -> list[Earned]:
    """Streaks of wins against one opponent, over results in schedule order.

    results: each match as (alias, tier, tier size) per seat; a match with one entrant is a
    match against the game itself (Solo mode's AI), whose opponent is None. rules: (number,
    streak length, name). A draw or a loss against that opponent resets the count; each
    streak achievement is earned at most once per pair.
    """
    if not rules:
        return []
    run: dict[tuple[str, str | None], int] = {}
    best: dict[tuple[str, str | None], int] = {}
    for match in results:
        if len(match) == 1:
            sides: list[tuple[tuple[str, int, int], str | None]] = [(match[0], None)]
        elif len(match) == 2:
            sides = [(match[0], match[1][0]), (match[1], match[0][0])]
        else:
            continue
        for me, opponent in sides:
            key = (me[0], opponent)
            won = me[1] == 0 and me[2] == 1
            run[key] = run.get(key, 0) + 1 if won else 0
            best[key] = max(best.get(key, 0), run[key])
    out = []
    for (alias, opponent), longest in sorted(best.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        for number, length, name in rules:
            if longest >= length:
                out.append(Earned(alias, number, name, opponent))
    return out
