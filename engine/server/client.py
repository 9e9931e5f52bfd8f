"""The Python bot SDK, as the arena's own tools use it (`tourney connect`, the tests, the benchmarks).

The SDK is its own package, `tourney_bot` (clients/python, `pip install ./clients/python`), so a
bot author needs nothing of tourney; `scripts/setup.sh` installs it into the project's venv, and
this module names it for the code inside tourney. Its messages are tourney's own: both packages'
generated code registers the same proto file, so they share one class per message.
"""

from tourney_bot.client import (
    CHANNEL_OPTIONS,
    PLAY_METHOD,
    Bot,
    BotClient,
    RandomBot,
    SessionRefused,
    action_dict,
    observation_dict,
    rpc_detail,
)

__all__ = ["CHANNEL_OPTIONS", "PLAY_METHOD", "Bot", "BotClient", "RandomBot", "SessionRefused", "action_dict",
           "observation_dict", "rpc_detail"]
