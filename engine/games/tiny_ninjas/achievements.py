"""Achievement predicates over one finished battle (spec §9.6).

The engine records the stats (state.stats, state.empty_flag); this module turns them into
the achievement numbers each seat earned in that battle. Streak achievements (#15, #16,
#22, #25) need several matches and are left to the platform; #19 (Champion undefeated) is
decided by the series in rules.py.

Reading of "p = winner unless stated": #4 (Vampire 6), #5 (Legend 10), #7 (deplete the draw
pile, shared by both seats: the flag is per battle) and #9 (Pyro save) do not need a win,
because the rulebook phrases them as feats, not wins. #17 (Blitz tie) goes to both seats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tourney.engine.games.tiny_ninjas.data import (
    S_HEALED,
    S_LEGEND_MAX,
    S_LOST,
    S_PYRO_SAVES,
    S_ROUNDS_ATT,
    S_SURVIVOR_USED,
    S_VAMPIRE,
    S_YELLOW,
)

if TYPE_CHECKING:
    from tourney.engine.games.tiny_ninjas.state import TinyNinjasState


def battle_achievements(state: TinyNinjasState, winner: int, reason: str) -> dict[int, list[int]]:
    """{seat: sorted achievement numbers} earned in the battle that just ended."""
    cfg = state.cfg
    mode = cfg["mode"]
    series = bool(cfg["series_wins"])
    out: dict[int, list[int]] = {0: [], 1: []}
    seats = (0,) if state.solo else (0, 1)  # the Solo AI (seat 1) earns nothing
    for p in seats:
        o = 1 - p
        st = state.stats[p]
        got = out[p]
        won = winner == p
        if st[S_VAMPIRE] >= 6:
            got.append(4)
        if st[S_LEGEND_MAX] >= 10:
            got.append(5)
        if state.empty_flag:
            got.append(7)
        if st[S_PYRO_SAVES] > 0:
            got.append(9)
        if mode == "blitz" and state.health[0] == state.health[1]:
            got.append(17)
        if not won:
            got.sort()
            continue
        if st[S_HEALED] == 0:
            got.append(1)
        if st[S_LOST] == 0:
            got.append(2)
        if state.health[p] == 1:
            got.append(3)
        if st[S_YELLOW] == 0:
            got.append(6)
        if cfg["reveal_hand"][p]:
            got.append(8)
        if cfg["hand_limit"][p] == 4 and cfg["hand_limit"][o] == 5:
            got.append(10)
        if st[S_ROUNDS_ATT] <= 3:
            got.append(11)
        if st[S_ROUNDS_ATT] == 1 and state.attacker == p and reason != "cap":
            got.append(12)
        if not series and not state.solo:
            if cfg["start_health"][p] == 5 and cfg["start_health"][o] == 10:
                got.append(13)
            if cfg["max_health"][p] == 8 and cfg["max_health"][o] == 10:
                got.append(14)
        if mode == "survivor" and st[S_SURVIVOR_USED] == 0:
            got.append(18)
        if state.solo:
            start = cfg["start_health"][0]
            diff = cfg["difficulty"]
            if diff == "normal" and start == 8:
                got.append(20)
            if diff == "normal" and start == 6:
                got.append(21)
            if diff == "hard" and start == 8:
                got.append(23)
            if diff == "hard" and start == 6:
                got.append(24)
        got.sort()
    return out
