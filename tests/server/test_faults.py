"""Every fault ends only the faulty bot's match, with the right reason, and is reported to it."""

from __future__ import annotations

import concurrent.futures

import grpc
import pytest

from tests.server.bots import DesertingBot, OutOfRangeBot, SilentBot
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.server.client import BotClient, RandomBot, SessionRefused
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.tokens import token_hash


def _with_a_good_match(harness: ArenaHarness, faulty: list[str], move_ms: int = 0) -> tuple[pb.MatchRecord,
                                                                                            pb.MatchRecord]:
    """Run the faulty match and, at the same time, a normal one on the same server."""
    harness.bot("good", max_concurrent_matches=2)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        bad = pool.submit(harness.run_match, "sticks", faulty, 1, move_ms)
        good = pool.submit(harness.run_match, "sticks", ["remote:good", "greedy"], 2)
        return bad.result(WAIT_S * 2), good.result(WAIT_S * 2)


def test_a_bot_that_never_replies_forfeits_on_time(harness: ArenaHarness) -> None:
    silent = harness.bot("silent", SilentBot())
    bad, good = _with_a_good_match(harness, ["random", "remote:silent"], move_ms=300)
    assert (bad.termination, bad.forfeit_seat) == ("timeout", 1)
    assert list(bad.ranks) == [1, 2]
    assert good.termination == "normal"
    assert wait_for(lambda: any(e.code == "timeout" for e in silent.errors))
    assert wait_for(lambda: [e.termination for e in silent.ended] == ["timeout"])


def test_an_out_of_range_index_is_an_illegal_move(harness: ArenaHarness) -> None:
    oob = harness.bot("oob", OutOfRangeBot())
    bad, good = _with_a_good_match(harness, ["remote:oob", "random"])
    assert (bad.termination, bad.forfeit_seat) == ("illegal_move", 0)
    assert good.termination == "normal"
    assert wait_for(lambda: any(e.code == "illegal_move" for e in oob.errors))


def test_a_stream_closed_mid_match_is_a_disconnection(harness: ArenaHarness) -> None:
    deserter = DesertingBot(moves=1)
    client = harness.bot("deserter", deserter)
    deserter.client = client
    bad, good = _with_a_good_match(harness, ["remote:deserter", "random"])
    assert (bad.termination, bad.forfeit_seat) == ("disconnection", 0)
    assert good.termination == "normal"
    # The replay shows one good move by the deserter before it left.
    assert '"disconnection"' in bad.replay_json


def test_a_reply_to_an_unknown_request_is_reported(harness: ArenaHarness) -> None:
    client = harness.bot("stray")
    client.send_raw(pb.BotMessage(reply=pb.ActionReply(match_id="nope", request_id=7, action_index=0)))
    assert wait_for(lambda: any(e.code == "unknown_request" and e.request_id == 7 for e in client.errors))
    # The session is still usable.
    assert harness.run_match("sticks", ["remote:stray", "random"]).termination == "normal"


def test_malformed_messages_get_an_error_report_and_never_crash_the_server(harness: ArenaHarness) -> None:
    play = harness.channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                         response_deserializer=pb.ArenaMessage.FromString)
    hello = pb.BotMessage(hello=pb.Hello(bot_name="raw")).SerializeToString()
    odd = [
        b"\xff\xff\xff\xff",  # not a protobuf message at all
        b"",  # an empty BotMessage: neither Hello nor reply
        pb.BotMessage(hello=pb.Hello(bot_name="raw")).SerializeToString(),  # a second Hello
    ]
    call = play(iter([hello, *odd]), timeout=WAIT_S)
    codes = []
    for message in call:
        if message.WhichOneof("kind") == "error":
            codes.append(message.error.code)
        if len(codes) == len(odd):
            call.cancel()
            break
    assert codes == ["malformed", "malformed", "bad_hello"]
    # Garbage before any Hello is reported too, and the server still plays matches.
    call = play(iter([b"\x08\x08\x08"]), timeout=WAIT_S)
    first = next(iter(call))
    assert first.error.code in ("malformed", "bad_hello")
    call.cancel()
    assert harness.run_match("sticks", ["random", "random"]).termination == "normal"


def test_a_wrong_token_is_refused() -> None:
    config = ArenaConfig(tokens={"known": token_hash("s3cret")}, admin_token="adm")
    harness = ArenaHarness(config)
    try:
        for name, token in (("known", "wrong"), ("stranger", "s3cret")):
            client = BotClient(harness.address, RandomBot(), name=name, token=token)
            with pytest.raises(SessionRefused):
                client.run()
        harness.bot("known", token="s3cret")
        with pytest.raises(grpc.RpcError) as err:
            harness.run_match("sticks", ["remote:known", "random"], admin_token="bad")
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
        record = harness.run_match("sticks", ["remote:known", "random"], admin_token="adm")
        assert record.termination == "normal"
    finally:
        harness.close()
