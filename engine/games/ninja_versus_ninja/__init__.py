"""Ninja Versus Ninja (spec: shared/rules/ninja-versus-ninja.md): two players, 2d4, missions."""

from tourney.engine.games.ninja_versus_ninja.actions import Move
from tourney.engine.games.ninja_versus_ninja.game import NinjaVersusNinja
from tourney.engine.games.ninja_versus_ninja.state import NvnState

GAME = NinjaVersusNinja()

__all__ = ["GAME", "Move", "NinjaVersusNinja", "NvnState"]
