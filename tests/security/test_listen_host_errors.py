"""A listener whose host is the problem (no such name, no address of this machine) said "pick another
--port": the sentence must name the flag to fix."""

from __future__ import annotations

import socket

import pytest

from tourney.engine.core import ConfigError
from tourney.engine.server.metrics import serve_metrics
from tourney.tournament.cli.web import listen


@pytest.mark.parametrize("host", ["nosuch.invalid", "192.0.2.1"])  # no such name; a documentation address
def test_a_bad_host_names_the_host_flag(host: str) -> None:
    with pytest.raises(ConfigError, match=r"check --host\.$"):
        listen(host, 0, "--port")
    with pytest.raises(ConfigError, match=r"check --metrics-host\.$"):
        serve_metrics(0, host)


def test_a_taken_port_names_the_port_flag() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError, match=r"pick another --port\.$"):
            listen("127.0.0.1", port, "--port")
