"""A text picture of a Maître Ninja match for `tourney match --verbose`.

It shows what a spectator saw in the last fight (each attack card as it was flipped, the parry
row with burned and spent cards marked, the outcome) and then the ranks and the next fight.
Cards that were never flipped are shown as `??`.
"""

from __future__ import annotations

from tourney.engine.games.maitre_ninja.data import KATANA, PARRY_CODE, RANK_NAMES
from tourney.engine.games.maitre_ninja.rules import OVER, FightRecord
from tourney.engine.games.maitre_ninja.state import MaitreNinjaState


def _player(state: MaitreNinjaState, seat: int) -> str:
    return f"P{seat}({state.setup.elements[seat]})"


def _positions(positions: tuple[int, ...]) -> str:
    """Row positions as compact runs: (1, 2, 3, 5) -> "1-3,5"."""
    runs: list[list[int]] = []
    for p in positions:
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return ",".join(f"{a}-{b}" if b > a else f"{a}" for a, b in runs)


def fight_lines(state: MaitreNinjaState, rec: FightRecord) -> list[str]:
    """The public story of one fight, one line per step."""
    res = rec.resolution
    row = rec.row
    out = [
        f"Fight {rec.number}: {_player(state, rec.attacker)} {RANK_NAMES[rec.attacker_rank]} attacks "
        f"{_player(state, rec.defender)} with {len(rec.line.cards)} face-down card(s)",
        "  parry row : " + " ".join(f"{i}:{p}" for i, p in enumerate(row)),
    ]
    for i, card in enumerate(res.cards):
        name = rec.line.cards[i]
        code = rec.line.ka_order if name == KATANA else PARRY_CODE[name]
        steps = []
        if card.burned:
            steps.append("burned " + _positions(card.burned))
        if card.parried_at is not None:
            end = card.parried_at + len(code) - 1
            steps.append(f"parried by {_positions(tuple(range(card.parried_at, end + 1)))}")
        else:
            steps.append("defender exhausted")
        out.append(f"  flip {name} [{' '.join(code)}]: " + "; ".join(steps))
    if rec.face_down:
        out.append(f"  never flipped: {' '.join(['??'] * rec.face_down)}")
    if res.attacker_wins:
        new = rec.attacker_rank + 1
        out.append(f"  => ATTACKER wins: {_player(state, rec.attacker)} rises to {RANK_NAMES[new]} ({new})")
    else:
        unused = " ".join(row[p] for p in res.unused) or "none"
        out.append(f"  => DEFENDER wins (parries left unused: {unused})")
    return out


def render(state: MaitreNinjaState) -> str:
    """Last fight, then ranks and what comes next."""
    lines: list[str] = []
    if state.pending is not None:  # a row being laid: how far, never which cards
        lines.append(f"Fight {state.fights + 1}: {_player(state, state.attacker)} has laid a face-down line; "
                     f"{_player(state, state.defender)} has laid {len(state.laid)} of {state.row_length()} parries")
    elif state.history:
        lines.extend(fight_lines(state, state.history[-1]))
    lines.append("Ranks:")
    for seat, rank in enumerate(state.ranks):
        master = " *first Maître*" if seat == state.first_master else ""
        name = f"{_player(state, seat):<10} {RANK_NAMES[rank]:<12}"
        lines.append(f"  {name} rank {rank}  attacks {state.attacks_made[seat]}{master}")
    if state.phase == OVER:
        out = state.outcome()
        tiers = " > ".join("=".join(f"P{s}" for s in tier) for tier in out.ranking)
        lines.append(f"Game over ({out.reason}) after {state.fights} fights: {tiers}")
    else:
        tag = " (final round)" if state.phase == "FINAL_ROUND" else ""
        lines.append(
            f"Next{tag}: fight {state.fights + 1}, {_player(state, state.attacker)} attacks "
            f"{_player(state, state.defender)} (defender lays {state.row_length()} parries)"
        )
    return "\n".join(lines)
