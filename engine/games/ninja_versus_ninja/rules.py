"""Ninja Versus Ninja rules (spec ninja-versus-ninja.md), as functions over an NvnState, in the
order of a turn (§3.1): roll (§3.2), list the legal moves (§4), move and capture (§5.1),
missions and scoring (§5.2, §5.4), win checks (§6.1), the mission clock (§5.3), the cap (§6.2).

A state always stands at a decision: the seat to move has rolled and has at least one legal
move. Rolling, passes (no legal move, §4.2.5) and the end of the game are resolved here, so
bots and the referee only ever see real choices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tourney.engine.games.ninja_versus_ninja.actions import Move
from tourney.engine.games.ninja_versus_ninja.data import DIE_SIDES, MISSION_TURNS, ROLLOFF_ATTEMPTS, START, square_index
from tourney.engine.games.ninja_versus_ninja.paths import CANDIDATES, IN_HOME, Group

if TYPE_CHECKING:
    from tourney.engine.games.ninja_versus_ninja.state import NvnState

NO_SQUARE = -1
PASS = "pass"


def dice_stream(seat: int) -> str:
    """The chance stream holding `seat`'s roll-off dice and then its turn rolls (§3.2)."""
    return f"dice/{seat}"


# Each seat's stream name and start position (§8.2, a bitmask), made once: otherwise every roll
# formats a name and every match parses twelve square names.
DICE_STREAMS = (dice_stream(0), dice_stream(1))
START_MASKS = tuple(sum(1 << square_index(q) for q in START[p]) for p in (0, 1))


def setup(state: NvnState, first_player: int | str) -> None:
    """§1.3: the U start (§8.2), the roll-off (or a fixed first player), the first roll."""
    state.occ = list(START_MASKS)
    state.first_player = roll_off(state) if first_player == "rolloff" else int(first_player)
    state.to_move = state.first_player
    begin_turn(state)



def roll_off(state: NvnState) -> int:
    """Both seats roll 2d4 (seat 0 first); the higher total moves first; ties reroll (§1.3)."""
    for _ in range(ROLLOFF_ATTEMPTS):
        totals = [sum(roll_dice(state, seat)) for seat in (0, 1)]
        if totals[0] != totals[1]:
            return 0 if totals[0] > totals[1] else 1
    return 0


def roll_dice(state: NvnState, seat: int) -> tuple[int, int]:
    """Two four-sided dice from `seat`'s stream, die 1 then die 2."""
    name = DICE_STREAMS[seat]
    chance = state.chance
    return (chance.roll(name, DIE_SIDES), chance.roll(name, DIE_SIDES))


# ----------------------------------------------------------------- a turn (§3.1)

def begin_turn(state: NvnState) -> None:
    """Steps 1-2 for the seat to move: roll, list the moves, pass while there are none."""
    while state.winner is None and not state.reason:
        set_roll(state, roll_dice(state, state.to_move))
        # Only whether a move exists decides a pass; the full list waits until someone asks
        # for it (a search that only evaluates this position never does).
        if list_moves(state, sum(state.roll), first_only=True)[0]:
            return
        pass_turn(state)


def set_roll(state: NvnState, dice: tuple[int, int]) -> None:
    """Make `dice` the current roll of the seat to move; its legal moves (§4) are listed on demand."""
    state.roll = dice
    state.forget_moves()


def list_moves(state: NvnState, n: int, first_only: bool = False) -> tuple[list[Move], list[Group]]:
    """Every legal move for a total of `n` (§4), with its group: shapes from paths.CANDIDATES, then
    the §4.2 constraints. With `first_only`, stops at the first legal move (enough to decide a pass)."""
    p = state.to_move
    own = state.occ[p]
    everyone = own | state.occ[1 - p]
    mission = state.m_sq[p]
    rev_ok = not state.m_rev[p]
    legal: list[Move] = []
    groups: list[Group] = []
    table = CANDIDATES[p][n]
    mask = own
    while mask:
        low = mask & -mask
        s = low.bit_length() - 1
        mask ^= low
        is_mission = s == mission
        others = everyone ^ low  # the mover's start square counts as empty once left
        for g in table[s]:
            if g.rev:
                # A reversal: by the mission Ninja (once per mission) or to start a mission.
                if is_mission:
                    if not rev_ok:
                        continue
                elif mission != NO_SQUARE:
                    continue
            elif g.leaves_home and mission != NO_SQUARE and not is_mission:
                continue  # one mission at a time (§4.2.4, A14)
            to = g.to
            if own & (1 << to) and to != s:
                continue  # never onto one's own Ninja
            if not g.crossed & others:  # every path is clear: the first one stands for the move
                legal.append(g.paths[0])
                groups.append(g)
                if first_only:
                    return legal, groups
                continue
            if g.shared & others:  # a square every path crosses is taken
                continue
            for i, m in enumerate(g.masks):
                if not m & others:
                    legal.append(g.paths[i])
                    groups.append(g)
                    break
            if first_only and legal:
                return legal, groups
    return legal, groups


def play(state: NvnState, group: Group, move: Move) -> None:
    """Steps 4-7 of a turn: move, capture, missions and scoring, wins, the clock, hand over."""
    p, q = state.to_move, 1 - state.to_move
    s, t = group.frm, group.to
    tbit = 1 << t
    state.occ[p] ^= 1 << s
    event = ""
    if state.occ[q] & tbit:  # capture (§5.1): no points; a captured mission ends
        state.occ[q] ^= tbit
        event = "captures"
        if state.m_sq[q] == t:
            state.m_sq[q] = NO_SQUARE
            state.shadow[q] = 0
            event = "captures the mission Ninja"
    state.occ[p] |= tbit
    # Mission bookkeeping (§5.2).
    if s != state.m_sq[p] and group.leaves_home:
        state.m_sq[p] = t
        state.m_turns[p] = 0
        state.m_rev[p] = group.rev
        state.m_depth[p] = group.depth
    elif s == state.m_sq[p]:
        state.m_sq[p] = t
        state.m_rev[p] = state.m_rev[p] or group.rev
        if group.depth > state.m_depth[p]:
            state.m_depth[p] = group.depth
    if state.m_sq[p] != NO_SQUARE:
        state.shadow[p] = state.m_depth[p]
        if state.m_sq[p] == t and IN_HOME[p][t]:  # the mission Ninja itself came home
            state.score[p] += state.m_depth[p]
            event = (event + ", " if event else "") + f"home +{state.m_depth[p]}"
            state.shadow[p] = 0
            state.m_sq[p] = NO_SQUARE
    record(state, move, event)
    check_wins(state, p)
    end_turn(state)


def pass_turn(state: NvnState) -> None:
    """A turn with no legal move (§4.2.5): the dice were rolled, the clock still runs."""
    record(state, PASS, "")
    end_turn(state)


def end_turn(state: NvnState) -> None:
    """Steps 6-7: the mission clock (§5.3), the win checks again (§6.1), the cap (§6.2), hand over."""
    p = state.to_move
    if state.winner is None and not state.reason and state.m_sq[p] != NO_SQUARE:
        # Step 6, the mission clock (§5.3).
        state.m_turns[p] += 1
        if state.m_turns[p] >= MISSION_TURNS:
            state.occ[p] ^= 1 << state.m_sq[p]
            state.m_sq[p] = NO_SQUARE
            state.shadow[p] = 0
            record(state, None, "mission Ninja lost to the clock")
            check_wins(state, p)
    state.to_move = 1 - p
    state.turn_number += 1
    if state.winner is None and not state.reason and state.turn_number >= state.cap:
        end_at_cap(state)
    state.set_moves([], [])


def check_wins(state: NvnState, p: int) -> None:
    """The win checks of §6.1, for the seat that just moved."""
    if state.winner is not None:
        return
    if state.score[p] >= state.target:
        state.winner, state.reason = p, "points"
    elif state.occ[1 - p] == 0:
        state.winner, state.reason = p, "elimination"
    elif state.occ[p] == 0:
        state.winner, state.reason = 1 - p, "elimination"


def end_at_cap(state: NvnState) -> None:
    """§6.2: higher score, then more Ninjas, else a draw."""
    state.reason = "cap"
    counts = [state.occ[0].bit_count(), state.occ[1].bit_count()]
    for key in (state.score, counts):
        if key[0] != key[1]:
            state.winner = 0 if key[0] > key[1] else 1
            return


def record(state: NvnState, move: Move | str | None, event: str) -> None:
    """Log a move's label (or a pass); `move=None` adds `event` to the entry just written."""
    # The label, not the move: every view carries the whole log, and a label is a cache hit here
    # (actions._label) but a property call and a hash per entry per view when read back.
    if move is not None:
        label = move if isinstance(move, str) else move.label
        if state.history is not None:  # the entry written before is closed now: its view row is final
            state.close_row(state.history[1])
        state.history = (state.history, (state.to_move, state.roll, label, event))
    elif state.history is not None:  # an event that belongs to the entry just written
        prev, (seat, dice, mv, ev) = state.history
        state.history = (prev, (seat, dice, mv, (ev + ", " if ev else "") + event))
