"""`tourney serve`'s limits: flags reach the running arena, and a nonsense value is one sentence, exit 2."""

from __future__ import annotations

import contextlib
import socket
import subprocess

import grpc

from tests.faults.faultlib import hello_bytes
from tests.security.raw_h2 import WindowZeroClient
from tests.server.test_cli import ENV, ROOT, TOURNEY
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.workers.arena import check_arena

PLAY = "/tourney.v1.Arena/Play"


def _first_reply(address: str, hello: bytes) -> tuple[pb.ArenaMessage | None, grpc.StatusCode | None]:
    with grpc.insecure_channel(address, options=[("grpc.max_send_message_length", 1 << 20)]) as channel:
        call = channel.stream_stream(PLAY, request_serializer=lambda b: b,
                                     response_deserializer=pb.ArenaMessage.FromString)(iter([hello]))
        first = None
        with contextlib.suppress(grpc.RpcError, StopIteration):
            first = next(call)
        call.cancel()
        return first, None if first is not None else call.code()


def _listening_address(proc: subprocess.Popen[str]) -> str:
    """The HOST:PORT a just-started `tourney serve` says it listens on."""
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("arena listening on "), line
    return line.rsplit(" ", 1)[1].strip()


def test_serve_flags_set_the_receive_limit_and_the_slots_cap() -> None:
    proc = subprocess.Popen([*TOURNEY, "serve", "--port", "0", "--allow-anonymous", "--max-receive-kb", "2",
                             "--max-matches-per-session", "3"], cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        address = _listening_address(proc)
        welcome, _ = _first_reply(address, hello_bytes("slots", slots=100))
        assert welcome is not None and welcome.welcome.max_concurrent_matches == 3
        # 4 KB of games is over the 2 KB limit: cut before the arena reads it.
        refused, code = _first_reply(address, hello_bytes("big", games=["g" * 60] * 70))
        assert refused is None and code == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        proc.terminate()
        proc.wait(20)


def test_a_limit_below_one_is_refused_in_one_sentence() -> None:
    done = subprocess.run([*TOURNEY, "serve", "--port", "0", "--max-queued-mb", "0"], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--max-queued-mb must be at least 1" in done.stderr and "Traceback" not in done.stderr


def _session_after(address: str, messages: list[bytes]) -> tuple[list[str], grpc.StatusCode, str]:
    """Error codes the arena sent for `messages` (after a Hello), and how the stream ended (status, details)."""
    with grpc.insecure_channel(address) as channel:
        call = channel.stream_stream(PLAY, request_serializer=lambda b: b,
                                     response_deserializer=pb.ArenaMessage.FromString)(iter(messages))
        codes: list[str] = []
        with contextlib.suppress(grpc.RpcError):
            for message in call:
                if message.WhichOneof("kind") == "error":
                    codes.append(message.error.code)
        return codes, call.code(), call.details() or ""


def test_serve_flags_set_the_bad_message_rate_limit() -> None:
    proc = subprocess.Popen([*TOURNEY, "serve", "--port", "0", "--allow-anonymous", "--bad-message-burst", "2",
                             "--bad-messages-per-s", "0.01"], cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("arena listening on "), line
        address = line.rsplit(" ", 1)[1].strip()
        # An empty BotMessage is malformed: two are within the burst of 2 (the default is 64) ...
        codes, status, _ = _session_after(address, [hello_bytes("twice"), b"", b""])
        assert codes == ["malformed", "malformed"] and status == grpc.StatusCode.OK
        # ... a third is not: the stream is cut as rate_limited.
        codes, status, details = _session_after(address, [hello_bytes("thrice"), b"", b"", b""])
        assert codes == ["malformed", "malformed"]
        assert status == grpc.StatusCode.RESOURCE_EXHAUSTED and details.startswith("rate_limited")
    finally:
        proc.terminate()
        proc.wait(20)


def test_a_bad_message_rate_of_zero_is_refused_in_one_sentence() -> None:
    done = subprocess.run([*TOURNEY, "serve", "--port", "0", "--bad-messages-per-s", "0"], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--bad-messages-per-s must be above 0" in done.stderr and "Traceback" not in done.stderr


def test_serve_flags_cap_streams_per_connection_and_open_the_organisers_listener() -> None:
    proc = subprocess.Popen([*TOURNEY, "serve", "--port", "0", "--streams-per-connection", "2", "--admin-port", "0"],
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    clients: list[WindowZeroClient] = []
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("arena listening on "), line
        address = line.rsplit(" ", 1)[1].strip()
        line = proc.stdout.readline()
        assert line.startswith("organiser's listener on 127.0.0.1:"), line
        organiser = line.rsplit(" ", 1)[1].strip()
        # Four calls at once on one connection: the arena answers two (no such match), HTTP/2 resets two unread.
        body = pb.GetMatchRequest(match_id="none").SerializeToString()
        for where in (address, organiser):
            clients.append(WindowZeroClient(where, "/tourney.v1.Arena/GetMatch", body, 4))
        assert clients[0].read_until(answered=4, timeout_s=20) == {1: "refused:5", 3: "refused:5", 5: "reset",
                                                                   7: "reset"}
        # The organiser's listener has room for all four, and takes the admin token ($TOURNEY_ADMIN_TOKEN):
        # a RunMatch of no game is answered INVALID_ARGUMENT, not PERMISSION_DENIED.
        assert set(clients[1].read_until(answered=4, timeout_s=20).values()) == {"refused:5"}
        check_arena(organiser, ENV["TOURNEY_ADMIN_TOKEN"])
    finally:
        for client in clients:
            client.close()
        proc.terminate()
        proc.wait(20)


def test_a_busy_admin_port_is_one_sentence() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = str(taken.getsockname()[1])
        done = subprocess.run([*TOURNEY, "serve", "--port", "0", "--admin-port", busy],
                              cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "pick another --admin-port" in done.stderr and "Traceback" not in done.stderr
    # The bots' own port is busy too, though gRPC could share it with a second listener.
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = str(free.getsockname()[1])
    free.close()
    done = subprocess.run([*TOURNEY, "serve", "--port", port, "--admin-port", port],
                          cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "pick another --admin-port" in done.stderr and "Traceback" not in done.stderr


def test_a_second_arena_on_a_running_arenas_port_is_one_sentence() -> None:
    """Running `tourney serve` twice: the second used to listen beside the first (gRPC shares a port by
    default) and each took some of the connections, so bots and RunMatch calls met at random."""
    first = subprocess.Popen([*TOURNEY, "serve", "--port", "0"], cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        port = _listening_address(first).rsplit(":", 1)[1]
        done = subprocess.run([*TOURNEY, "serve", "--port", port], cwd=ROOT, env=ENV, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 2, done.stdout
        assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and "pick another --port" in done.stderr
        assert "Traceback" not in done.stderr
    finally:
        first.kill()  # its shutdown is not what this test is about (and takes a while on a loaded machine)
        first.communicate(timeout=60)
