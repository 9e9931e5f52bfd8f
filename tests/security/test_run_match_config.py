"""An organiser's RunMatch (and RunMatches) with a config no parser can take: a precise status and one
sentence. A config nested deeper than Python's recursion limit fits in one small message (30,000
brackets), and json.loads raised RecursionError, which the arena answered as UNKNOWN with the exception."""

from __future__ import annotations

import grpc
import pytest

from tests.security.siege import ADMIN, siege_arena
from tests.server.harness import WAIT_S
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.generated import arena_pb2_grpc as pb_grpc

DEEP = ["[" * 30_000, '{"a":' * 5_000 + "1" + "}" * 5_000]  # each well under the 64 KiB a message may have


@pytest.mark.timeout(90)
def test_a_config_nested_past_the_recursion_limit_is_invalid_argument() -> None:
    harness = siege_arena(good_bot=False)
    try:
        stub = pb_grpc.ArenaStub(harness.channel)
        for config in DEEP:
            request = pb.RunMatchRequest(admin_token=ADMIN, game="tiny-ninjas", seats=["random", "random"], seed=1,
                                         config_json=config)
            with pytest.raises(grpc.RpcError) as refused:
                stub.RunMatch(request, timeout=WAIT_S)
            with pytest.raises(grpc.RpcError) as refused_in_stream:
                list(stub.RunMatches(iter([request]), timeout=WAIT_S))
            for error in (refused.value, refused_in_stream.value):
                assert error.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
                assert error.details() == "config_json is not a JSON object: send e.g. {}."  # type: ignore[attr-defined]
        assert stub.RunMatch(pb.RunMatchRequest(admin_token=ADMIN, game="tiny-ninjas", seats=["random", "random"],
                                                seed=1), timeout=WAIT_S).finished  # it still plays
    finally:
        harness.close()
