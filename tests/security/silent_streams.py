"""Play streams that never say Hello, each on a connection of its own, held open while a test attacks."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import grpc

from tests.server.harness import WAIT_S
from tourney.engine.server.generated import arena_pb2 as pb

OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


@contextmanager
def silent_streams(targets: Sequence[str]) -> Iterator[None]:
    """One silent Play stream to each of `targets` (a target twice: two connections), until the block ends."""
    release = threading.Event()

    def silence() -> Iterator[bytes]:
        release.wait(WAIT_S)
        yield from ()

    channels = [grpc.insecure_channel(target, options=OWN_CONNECTION) for target in targets]
    held = [channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                  response_deserializer=pb.ArenaMessage.FromString)(silence())
            for channel in channels]
    try:
        yield
    finally:
        release.set()
        for call in held:
            call.cancel()
        for channel in channels:
            channel.close()
