"""Maître Ninja (2-4 players): hidden attack lines against face-up parry rows.

Spec: shared/rules/maitre-ninja.md. The package exposes GAME for the registry.
"""

from tourney.engine.games.maitre_ninja.actions import AttackLine, Parry, ParryRow
from tourney.engine.games.maitre_ninja.game import MaitreNinja
from tourney.engine.games.maitre_ninja.state import MaitreNinjaState

GAME = MaitreNinja()

__all__ = ["GAME", "AttackLine", "MaitreNinja", "MaitreNinjaState", "Parry", "ParryRow"]
