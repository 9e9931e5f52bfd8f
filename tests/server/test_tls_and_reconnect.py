"""TLS when a certificate is given; the SDK reconnects with backoff when the arena comes later."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from pathlib import Path

import grpc

from tests.server.harness import WAIT_S, wait_for
from tourney.engine.server.client import BotClient, RandomBot
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.local import LocalArena


def _self_signed(tmp: Path) -> tuple[bytes, bytes]:
    key, cert = tmp / "key.pem", tmp / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True, timeout=60)
    return cert.read_bytes(), key.read_bytes()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_bot_plays_over_tls(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)
    with LocalArena(ArenaConfig(allow_anonymous=True), host="localhost", tls=(cert, key)) as local:
        client = BotClient(local.address, RandomBot(), name="secure",
                           credentials=grpc.ssl_channel_credentials(root_certificates=cert))
        runner = threading.Thread(target=client.run, daemon=True)
        runner.start()
        assert client.connected.wait(WAIT_S)
        assert local.run_match("sticks", ["remote:secure", "random"], 1).termination == "normal"
        # A plaintext client cannot talk to the TLS port.
        plain = BotClient(local.address, RandomBot(), name="plain")
        failed: list[BaseException] = []

        def run_plain() -> None:
            try:
                plain.run()
            except grpc.RpcError as exc:
                failed.append(exc)

        thread = threading.Thread(target=run_plain, daemon=True)
        thread.start()
        thread.join(WAIT_S)
        assert failed and not plain.connected.is_set()
        client.stop()
        runner.join(WAIT_S)


def test_run_forever_reconnects_when_the_arena_starts_later() -> None:
    port = _free_port()
    client = BotClient(f"127.0.0.1:{port}", RandomBot(), name="patient")
    runner = threading.Thread(target=lambda: client.run_forever(max_attempts=40, first_backoff_s=0.05,
                                                                max_backoff_s=0.2), daemon=True)
    runner.start()
    time.sleep(0.3)  # a few refused attempts first
    assert not client.connected.is_set()
    with LocalArena(port=port):
        assert client.connected.wait(WAIT_S)
        client.stop()
        runner.join(WAIT_S)
        assert wait_for(lambda: not runner.is_alive())
