"""Naruto: Ninja Arena (+ Genin Pack, Duel): simultaneous ticks for 2-6 players (spec ninja-arena.md)."""

from engine.games.ninja_arena.game import GAME, NinjaArena
from engine.games.ninja_arena.state import ArenaState

__all__ = ["GAME", "ArenaState", "NinjaArena"]
