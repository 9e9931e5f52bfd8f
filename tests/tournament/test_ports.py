"""A port a user names is a TCP port or one sentence: the OS would wrap 70000 to 4464 and -1 to 65535
and listen there, and a busy metrics port was a traceback."""

from __future__ import annotations

import socket

import pytest

from tests.tournament.test_cli import one_sentence_error, run


@pytest.mark.timeout(60)
@pytest.mark.parametrize("args,flag", [
    (("serve", "--port", "70000"), "--port"),
    (("serve", "--port", "-1"), "--port"),
    (("serve", "--port", "0", "--admin-port", "70000"), "--admin-port"),
    (("serve", "--port", "0", "--metrics-port", "65536"), "--metrics-port"),
    (("run", "--game", "sticks", "--bots", "random,greedy", "--metrics-port", "70000"), "--metrics-port"),
    (("web", "--port", "70000"), "--port"),
    (("serve", "--port", "0", "--web-port", "-2"), "--web-port"),
])
def test_a_port_out_of_range_is_one_sentence_naming_its_flag(tmp_path, args, flag):
    one_sentence_error(run(*args, "--db", str(tmp_path / "t.db")), f"{flag} must be between 1 and 65535")


@pytest.mark.timeout(60)
def test_a_busy_metrics_port_is_one_sentence(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        one_sentence_error(run("run", "--game", "sticks", "--bots", "random,greedy", "--db", str(tmp_path / "t.db"),
                               "--metrics-port", str(port)), f"cannot serve metrics on 127.0.0.1:{port}",
                           "pick another --metrics-port")
