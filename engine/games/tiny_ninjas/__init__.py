"""Tiny Ninjas (the rulebook's sections are cited as §N): the standard battle and its modes as config."""

from tourney.engine.games.tiny_ninjas.game import TinyNinjasGame
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState

GAME = TinyNinjasGame()

__all__ = ["GAME", "TinyNinjasGame", "TinyNinjasState"]
