"""The one check of a TCP port a user names on the command line."""

from __future__ import annotations

from tourney.engine.core.errors import ConfigError


def check_port(port: int, flag: str) -> None:
    """One sentence naming `flag` unless `port` is a TCP port or 0 (any free one); the OS would
    otherwise wrap it (70000 -> 4464, -1 -> 65535) or fail with its own message."""
    if not 0 <= port < 65536:
        raise ConfigError(f"{flag} must be between 1 and 65535 (or 0 for any free port), not {port}.")
