"""Tiny Ninjas as one line of text (`tourney match --verbose`): public facts only."""

from __future__ import annotations

from tourney.engine.games.tiny_ninjas.data import DIE_FACES, INSTANCE_NAME, TOKEN_NAMES
from tourney.engine.games.tiny_ninjas.rules import P_DEFEND, PHASE_NAMES
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState


def render_line(state: TinyNinjasState) -> str:
    """One public line: round, roles, health, hand sizes, tokens, discard top, last event."""
    parts = [f"R{state.round}"]
    if state.cfg["series_wins"]:
        parts.append(f"battle {state.battle} wins {state.wins[0]}-{state.wins[1]}")
    for p in (0, 1):
        role = "A" if state.attacker == p else "D"
        toks = "".join(n[0] for bit, n in TOKEN_NAMES if state.tokens[p] & bit) or "-"
        parts.append(f"P{p}{role} {state.health[p]}/{state.maxh[p]}hp {len(state.hands[p])}c [{toks}]")
    top = INSTANCE_NAME[state.discard[-1]] if state.discard else "-"
    parts.append(f"draw {len(state.draw)} discard {len(state.discard)} top {top}")
    if state.freeze:
        parts.append("FREEZE")
    last = _last_roll(state)
    if last:
        parts.append(last)
    if state.phase == P_DEFEND:
        colour = {1: "Red", 2: "Blue"}.get(state.p_colour, "")
        parts.append(f"incoming {state.p_amount} {colour} from {INSTANCE_NAME[state.p_card]}")
    parts.append(PHASE_NAMES[state.phase])
    return " | ".join(parts)


def _last_roll(state: TinyNinjasState) -> str:
    """The latest die roll of this Round, as 'seat 0 rolled 6(Three/Purple/Black)', or ''."""
    for ev in reversed(state.log[-8:]):
        if ev[1] == "roll":
            faces = " ".join(f"{f}({'/'.join(DIE_FACES[f - 1])})" for f in ev[3])
            return f"seat {ev[2]} rolled {faces}"
        if ev[1] in ("round", "end_round"):
            return ""
    return ""
