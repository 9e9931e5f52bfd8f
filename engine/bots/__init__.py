"""Built-in players that work for any game through the engine.core interface."""

from tourney.engine.bots.registry import BotInfo, bot_infos, bot_names, make_bot, option_usage, parse_bot_spec

__all__ = ["BotInfo", "bot_infos", "bot_names", "make_bot", "option_usage", "parse_bot_spec"]
