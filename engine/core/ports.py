"""The one check of a TCP port a user names on the command line, and the one sentence for a listener
that could not be had."""

from __future__ import annotations

import errno
import socket

from tourney.engine.core.errors import ConfigError


def check_port(port: int, flag: str) -> None:
    """One sentence naming `flag` unless `port` is a TCP port or 0 (any free one); the OS would
    otherwise wrap it (70000 -> 4464, -1 -> 65535) or fail with its own message."""
    if not 0 <= port < 65536:
        raise ConfigError(f"{flag} must be between 1 and 65535 (or 0 for any free port), not {port}.")


def bind_error(exc: OSError, what: str, host: str, port: int, port_flag: str, host_flag: str) -> ConfigError:
    """One sentence for `what` not served on host:port: the fix names `host_flag` when the host is the
    problem (no such name, or no address of this machine), else `port_flag` (the port is taken)."""
    host_problem = isinstance(exc, socket.gaierror) or exc.errno == errno.EADDRNOTAVAIL
    fix = f"check {host_flag}" if host_problem else f"pick another {port_flag}"
    return ConfigError(f"cannot serve {what} on {host}:{port} ({exc.strerror or exc}): {fix}.")
