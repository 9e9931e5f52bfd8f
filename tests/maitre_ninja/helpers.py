"""Scripted fights for Maître Ninja tests: lines and rows that force a known winner."""

from __future__ import annotations

from tourney.engine.games.maitre_ninja import GAME, AttackLine, MaitreNinjaState, Parry, ParryRow

# One attack line per rank, plus a row that parries it and a row that lets it through.
LINE = {
    1: AttackLine(("Fi",)),
    2: AttackLine(("Fi", "As")),
    3: AttackLine(("Fi", "As", "Nu")),
    4: AttackLine(("Fo", "As", "Ni", "Ka"), ("BL", "DO", "JU")),
}
PARRYING_ROW = {
    1: ParryRow(("BL", "BL")),
    2: ParryRow(("BL", "JU", "DO", "DO", "DO")),
    3: ParryRow(("BL", "JU", "DO", "BL", "JU", "DO", "DO", "DO", "JU")),
    4: ParryRow(("JU", "JU", "DO", "DO", "BL", "JU", "BL", "DO", "JU", "BL", "DO", "BL")),  # M5's row
}
LOSING_ROW = {
    1: ParryRow(("JU", "JU")),
    2: ParryRow(("DO", "DO", "DO", "DO", "JU")),
    3: ParryRow(("DO", "DO", "DO", "DO", "JU", "JU", "JU", "JU", "BL")),
    4: ParryRow(("DO", "DO", "DO", "DO", "BL", "BL", "BL", "BL", "JU", "JU", "JU", "JU")),
}


def new(players: int, first: int = 0, **config: object) -> MaitreNinjaState:
    """A fresh match with a fixed first attacker."""
    return GAME.new_state(0, players=players, config={"first_player": first, **config})


def lay(state: MaitreNinjaState, line: AttackLine, row: ParryRow) -> None:
    """Play the current fight through `apply`: the line with the row's first parry, then parry by parry."""
    state.apply({state.attacker: line, state.defender: Parry(row.row[0])})
    for parry in row.row[1:]:
        state.apply({state.defender: Parry(parry)})


def play(state: MaitreNinjaState, attacker_wins: bool) -> None:
    """Play the current fight through `apply`, with the attacker winning or losing as asked."""
    rank = state.attacker_rank()
    lay(state, LINE[rank], LOSING_ROW[rank] if attacker_wins else PARRYING_ROW[rank])


def play_script(state: MaitreNinjaState, wins: str) -> None:
    """Play one fight per character: 'W' the attacker wins, 'L' the defender wins."""
    for ch in wins:
        assert not state.is_over()
        play(state, ch == "W")
