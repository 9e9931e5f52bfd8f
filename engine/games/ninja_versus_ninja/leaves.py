"""The value of every legal move's result without playing it: search's cheapest path.

At the last level of a search each legal move is scored by `evaluate` on the position it
leads to. Copying the position and playing the move through `rules.play` (log entry, event
text, the move list reset) costs more than the evaluation itself, so this module follows
the same steps on a handful of local integers: the move and any capture (§5.1), the mission
bookkeeping and scoring (§5.2), the win checks (§6.1), the mission clock (§5.3) and the cap
(§6.2), then scores the result exactly as `evaluate` would. tests/ninja_versus_ninja/
test_nvn_leaves.py checks it against play-then-evaluate on many positions.
"""

from __future__ import annotations

from tourney.engine.games.ninja_versus_ninja.data import MISSION_TURNS
from tourney.engine.games.ninja_versus_ninja.evaluate import PIECE, squash, worth
from tourney.engine.games.ninja_versus_ninja.paths import IN_HOME
from tourney.engine.games.ninja_versus_ninja.rules import NO_SQUARE
from tourney.engine.games.ninja_versus_ninja.state import NvnState


def move_values(state: NvnState, seat: int) -> list[float]:
    """`evaluate(after, seat)` for the position after each legal move, in legal order."""
    p = state.to_move
    q = 1 - p
    home = IN_HOME[p]
    occ_p0, occ_q0 = state.occ[p], state.occ[q]
    score_p, score_q = state.score[p], state.score[q]
    mp0, mq0 = state.m_sq[p], state.m_sq[q]
    rev0, turns0, depth0 = state.m_rev[p], state.m_turns[p], state.m_depth[p]
    q_rev, q_turns, q_depth = state.m_rev[q], state.m_turns[q], state.m_depth[q]
    capped = state.turn_number + 1 >= state.cap
    target = state.target
    out = []
    for g in state.legal_groups():
        s, t = g.frm, g.to
        tbit = 1 << t
        occ_p = (occ_p0 ^ (1 << s)) | tbit
        occ_q, mq = occ_q0, mq0
        if occ_q & tbit:  # a capture; a captured mission ends
            occ_q ^= tbit
            if mq == t:
                mq = NO_SQUARE
        mp, rev, turns, depth = mp0, rev0, turns0, depth0
        if s != mp and g.leaves_home:
            mp, rev, turns, depth = t, g.rev, 0, g.depth
        elif s == mp:
            mp = t
            rev = rev or g.rev
            if g.depth > depth:
                depth = g.depth
        points = score_p
        if mp != NO_SQUARE and mp == t and home[t]:  # the mission Ninja came home
            points += depth
            mp = NO_SQUARE
        winner = _winner(p, points, target, occ_p, occ_q)
        if winner < 0 and mp != NO_SQUARE:  # the mission clock
            turns += 1
            if turns >= MISSION_TURNS:
                occ_p ^= 1 << mp
                mp = NO_SQUARE
                winner = _winner(p, points, target, occ_p, occ_q)
        if winner < 0 and capped:
            winner = _at_cap(p, points, score_q, occ_p, occ_q)
        if winner == 2:
            out.append(0.0)
            continue
        if winner >= 0:
            out.append(1.0 if winner == seat else -1.0)
            continue
        # The opponent q moves next, so only q's mission may flee.
        mat_p = points + PIECE * occ_p.bit_count()
        if mp != NO_SQUARE:
            mat_p += worth(p, mp, rev, turns, depth, occ_q, mq, False)
        mat_q = score_q + PIECE * occ_q.bit_count()
        if mq != NO_SQUARE:
            mat_q += worth(q, mq, q_rev, q_turns, q_depth, occ_p, mp, True)
        out.append(squash(mat_p - mat_q) if seat == p else squash(mat_q - mat_p))
    return out


def _winner(p: int, points: int, target: int, occ_p: int, occ_q: int) -> int:
    """`rules.check_wins` for the seat that just moved: the winner, or -1."""
    if points >= target:
        return p
    if occ_q == 0:
        return p
    if occ_p == 0:
        return 1 - p
    return -1


def _at_cap(p: int, points: int, score_q: int, occ_p: int, occ_q: int) -> int:
    """`rules.end_at_cap`: higher score, then more Ninjas; 2 for a draw."""
    if points != score_q:
        return p if points > score_q else 1 - p
    if occ_p.bit_count() != occ_q.bit_count():
        return p if occ_p.bit_count() > occ_q.bit_count() else 1 - p
    return 2
