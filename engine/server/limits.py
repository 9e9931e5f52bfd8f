"""What a bot's Hello may hold: every size a client chooses has a limit.

The arena's receive limit (ArenaConfig.max_receive_bytes) already bounds a whole message; these
bound its fields, so a name or a list of games cannot be large enough to matter wherever the
arena keeps or repeats it.
"""

from __future__ import annotations

from tourney.engine.server.generated import arena_pb2 as pb

MAX_NAME_CHARS = 64
MAX_TOKEN_CHARS = 256
MAX_GAMES = 64


def hello_problem(hello: pb.Hello) -> str | None:
    """None when every field of `hello` is within its limit, else one sentence saying which is not."""
    if len(hello.bot_name) > MAX_NAME_CHARS:
        return (f"Hello.bot_name has {len(hello.bot_name)} characters: use at most {MAX_NAME_CHARS}.")
    if len(hello.token) > MAX_TOKEN_CHARS:
        return f"Hello.token has {len(hello.token)} characters: tokens have at most {MAX_TOKEN_CHARS}."
    if len(hello.games) > MAX_GAMES or any(len(g) > MAX_NAME_CHARS for g in hello.games):
        return (f"Hello.games lists {len(hello.games)} games: list at most {MAX_GAMES}, "
                f"each of at most {MAX_NAME_CHARS} characters (see ListGames).")
    return None
