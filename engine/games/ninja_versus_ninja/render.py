"""Ninja Versus Ninja as text (`tourney match --verbose`): the board, the tracks, the last move."""

from __future__ import annotations

from tourney.engine.games.ninja_versus_ninja.data import COL_LETTERS, COLOR_NAMES, COLS, HOME_ROWS, ROWS
from tourney.engine.games.ninja_versus_ninja.rules import NO_SQUARE
from tourney.engine.games.ninja_versus_ninja.state import NvnState


def render_board(state: NvnState) -> str:
    """The board with row labels and dojo bands, then each side's score, shadow and mission.

    B/R are Ninjas at home; b/r (lower case) is the Ninja on a mission.
    """
    lines = []
    if state.is_over():
        who = "draw" if state.winner is None else f"{COLOR_NAMES[state.winner]} wins"
        lines.append(f"after {state.turn_number} turns · game over: {who} ({state.reason})")
    else:
        # Under the move just printed, the header is the next turn's (turn_number counts turns
        # played), so "turn 2 · Red to move" follows Black's turn 1, never "turn 1 · Red".
        d1, d2 = state.roll
        lines.append(
            f"turn {state.turn_number + 1} · {COLOR_NAMES[state.to_move]} to move · rolled {d1}+{d2}={d1 + d2}"
        )
    lines.append("      " + " ".join(COL_LETTERS))
    for r in range(ROWS - 1, -1, -1):
        cells = []
        for c in range(COLS):
            sq = c * ROWS + r
            owner = state.owner(sq)
            mark = "." if owner < 0 else "BR"[owner]
            if owner >= 0 and state.m_sq[owner] == sq:
                mark = mark.lower()
            cells.append(mark)
        zone = ""
        if r == HOME_ROWS[1][-1]:
            zone = "Red dojo"
        elif r == HOME_ROWS[1][0] - 1:
            zone = "neutral"
        elif r == HOME_ROWS[0][-1]:
            zone = "Black dojo"
        lines.append(f"  {r + 1:>2}  " + " ".join(cells) + (f"   {zone}" if zone else ""))
        if r in (HOME_ROWS[1][0], HOME_ROWS[0][-1] + 1):
            lines.append("      " + "-" * (2 * COLS - 1))
    for seat in (0, 1):
        text = (
            f"{COLOR_NAMES[seat]:<5} score {state.score[seat]}/{state.target}  "
            f"shadow {state.shadow[seat]}  ninjas {state.occ[seat].bit_count()}"
        )
        if state.m_sq[seat] != NO_SQUARE:
            m = state.mission(seat)
            assert m is not None
            text += (
                f"  mission {m['square']}: turn {m['turns_used']}/3 done, depth {m['depth']}, "
                f"reversal {'used' if m['reversal_used'] else 'unused'}"
            )
        lines.append(text)
    log = state.log()
    if log:
        seat, dice, label, event = log[-1]
        lines.append(
            f"last: {COLOR_NAMES[seat]} rolled {dice[0]}+{dice[1]}: {label}" + (f" ({event})" if event else "")
        )
    return "\n".join(lines)
