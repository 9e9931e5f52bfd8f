"""Naruto: Ninja Arena (+ Genin Pack, Duel): simultaneous ticks for 2-6 players (spec ninja-arena.md).

Config keys (declared in game.OPTIONS; `tourney games` lists them):
  mode        "standard" (the tick model), "duel" (2 players, two boards each) or "realtime"
              (the same state; engine/games/ninja_arena/realtime.py drives it on a clock)
  genin_pack  allow the 6 expansion characters and up to 6 players
  characters  names in seat order (Duel: P0 top, P0 bottom, P1 top, P1 bottom); a list or
              a comma-separated string; default: drawn from the `setup` stream
  tick_cap    3000 ticks, then a final tally decides (§5.6)
  min_action_interval_ms, reaction_timeout_ms, grace_ms, wall_clock_cap_s: real-time (§6)

Modules: data (tables), matching (dice vs requirements), actions, rules (the transitions in
order of play), state (ArenaState), game (config, evaluate, render and the facts the layers above
read: legend, CLI flags, default bots, codec, viewer, real-time driver), realtime (clock driver),
bots (greedy, tactician, and duct, the simultaneous-move search bot).
"""

from tourney.engine.games.ninja_arena.game import NinjaArena
from tourney.engine.games.ninja_arena.realtime import RealtimeDriver
from tourney.engine.games.ninja_arena.state import ArenaState

GAME = NinjaArena()

__all__ = ["GAME", "ArenaState", "NinjaArena", "RealtimeDriver"]
