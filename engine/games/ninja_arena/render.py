"""Ninja Arena as text (`tourney match --verbose`): each seat's board, then the last tick's events."""

from __future__ import annotations

from typing import Any

from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena.state import ArenaState


def render(st: ArenaState) -> str:
    """A compact text view: tick, each seat's board, then what happened last tick."""
    lines = [f"tick {st.t}" + (" (over: " + st.reason + ")" if st.over else "")
             + ("  shadow:ON" if st.shadow_on else "")]
    for p in range(st.n):
        ch = D.CHARACTERS[st.top[p]].name
        if st.duel:
            ch += f"/{D.CHARACTERS[st.bottom[p]].name}[{st.cube_b[p]}]"
        side = "OUT" if st.eliminated[p] else ("KO " if st.ko[p] else "   ")
        flags = []
        if st.power[p]:
            flags.append("POWER")
        if st.recovered[p]:
            flags.append("rec")
        if st.stitched[p] >= st.t:
            flags.append(f"stitch<={st.stitched[p]}")
        for label, val in (("fan", st.fan[p]), ("byak", st.byakugan[p]), ("gate", st.gate[p]),
                           ("shield", st.shield[p])):
            if val:
                flags.append(f"{label}{val}")
        lines.append(
            f"  {p} {side} {ch:<10} wound {st.cube[p]}/{D.K_SPACES} pool {st.pool[p]:>2} "
            f"dice {D.letters(st.dice[5 * p: 5 * p + 5])} {' '.join(flags)}".rstrip()
        )
    for e in st.events:
        if e[0] != "roll":
            lines.append("    · " + describe(e))
    return "\n".join(lines)


def describe(e: tuple[Any, ...]) -> str:
    """One event of the resolution log as a short phrase."""
    kind = e[0]
    if kind == "tokens":
        return f"seat {e[1]} +{e[2]} ({e[3]})"
    if kind == "activate":
        return f"seat {e[1]} fires {e[2]} {e[3]}"
    if kind == "tally":
        return f"tally seat {e[1]}: wound {e[2]}->{e[3]}"
    if kind == "pause":
        return f"PAUSE ({e[1]}) by seat {e[2]}, hit order {list(e[3])}"
    if kind == "shield":
        return f"seat {e[1]} Sand Shield catches {e[2]}"
    if kind == "byakugan":
        return f"seat {e[1]} Byakugan cancels seat {e[2]}'s attack"
    return " ".join(str(x) for x in e)
