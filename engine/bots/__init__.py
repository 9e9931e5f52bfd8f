"""Built-in players that work for any game through the engine.core interface."""

from engine.bots.registry import bot_names, make_bot, parse_bot_spec

__all__ = ["bot_names", "make_bot", "parse_bot_spec"]
