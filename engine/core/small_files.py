"""Reading a small file a user names (a token file, a TLS certificate) with a bound on what is read.

A size from stat() bounds nothing: a device, a pipe or a /proc file reports 0 and may never end.
"""

from __future__ import annotations

import os
from pathlib import Path

from tourney.engine.core.errors import ConfigError


def read_small(path: Path, most: int, what: str) -> bytes:
    """At most `most` bytes of `path`; ConfigError naming `what` (e.g. "--tls-cert") when the file cannot
    be read or is larger."""
    try:
        # Opened without blocking: opening a FIFO that nobody writes to waits for a writer for good. Reads
        # block again, and one with no writer ends at once (an empty file).
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        os.set_blocking(descriptor, True)
        with open(descriptor, "rb") as handle:
            data = handle.read(most + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read {what} {path}: {exc.strerror or exc}; check the path.") from None
    if len(data) > most:
        raise ConfigError(f"{what} {path} is larger than {most >> 10} KiB: is it the right file?")
    return data
