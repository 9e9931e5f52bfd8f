"""Bot sessions from one address, over a real arena (loopback, and a Unix socket for another address)."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from tests.server.harness import WAIT_S, wait_for
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.local import LocalArena

OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


class Session:
    """A Play stream that says Hello and stays open until closed; `first` is how the arena answered."""

    def __init__(self, target: str, name: str) -> None:
        self.channel = grpc.insecure_channel(target, options=OWN_CONNECTION)
        self.done = threading.Event()
        hello = pb.BotMessage(hello=pb.Hello(bot_name=name)).SerializeToString()

        def requests() -> Iterator[bytes]:
            yield hello
            self.done.wait(WAIT_S)

        play = self.channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                          response_deserializer=pb.ArenaMessage.FromString)
        self.call = play(requests(), timeout=WAIT_S)
        try:
            self.first = next(iter(self.call)).WhichOneof("kind")
        except grpc.RpcError as exc:
            self.first = str(exc.code().name)  # type: ignore[attr-defined]
        if self.first == "error":  # the arena explains a refusal, then ends the stream with its status
            try:
                next(iter(self.call), None)
            except grpc.RpcError as exc:
                self.first = str(exc.code().name)  # type: ignore[attr-defined]

    def close(self) -> None:
        self.done.set()
        self.call.cancel()
        self.channel.close()


@pytest.mark.timeout(120)
def test_one_address_cannot_fill_the_arena_with_sessions() -> None:
    # Before: only the arena's total (max_sessions) bounded sessions, so one client (anyone, on an arena
    # that admits anonymous bots; any author with a token, on one that does not) could open them all and
    # every other bot was refused as arena_full until it left.
    config = ArenaConfig(allow_anonymous=True, max_sessions=10, max_sessions_per_address=3)
    sessions: list[Session] = []
    with tempfile.TemporaryDirectory(prefix="tourney-t-") as folder:
        socket = Path(folder) / "a.sock"
        with LocalArena(config, unix_paths=[str(socket)]) as local:
            try:
                sessions = [Session(local.address, f"flood-{i}") for i in range(5)]
                assert [s.first for s in sessions] == ["welcome"] * 3 + ["RESOURCE_EXHAUSTED"] * 2
                other = Session(f"unix:{socket}", "neighbour")  # another address still joins
                sessions.append(other)
                assert other.first == "welcome"
                sessions[0].close()  # a session that ends gives its address's place back
                assert wait_for(lambda: len(local.arena.connected()) == 3)
                again = Session(local.address, "flood-again")
                sessions.append(again)
                assert again.first == "welcome"
            finally:
                for session in sessions:
                    session.close()
