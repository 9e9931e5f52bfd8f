"""A session's deadlines: one alarm serves every pending request, whatever order they expire in."""

from __future__ import annotations

import asyncio

from tourney.engine.core import SeatFault, SeatTimeout
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.sessions import BotSession


def _requests_sent(session: BotSession) -> list[pb.ArenaMessage]:
    out = []
    while session.outbound._items:  # what the writer would send
        item = session.outbound._items.popleft()
        out.append(pb.ArenaMessage.FromString(item) if isinstance(item, bytes) else item)
    return out


def test_a_short_deadline_expires_on_time_behind_a_long_one() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        session = BotSession("s", "bot", [], 4, loop)
        answers: dict[str, list[int | SeatFault]] = {"long": [], "short": [], "answered": []}
        session.request("long", 0, b"", b"", 3, 30.0, answers["long"].append)
        session.request("answered", 0, b"", b"", 3, 0.02, answers["answered"].append)
        started = loop.time()
        session.request("short", 0, b"", b"", 3, 0.1, answers["short"].append)
        sent = [m.action_request for m in _requests_sent(session)]
        assert [r.match_id for r in sent] == ["long", "answered", "short"]
        assert [r.deadline_ms for r in sent] == [30_000, 20, 100]
        # Answered before its deadline: the alarm set for it finds nothing due and moves on.
        assert session.resolve(pb.ActionReply(match_id="answered", request_id=sent[1].request_id, action_index=2))
        for _ in range(200):  # bounded: 2 s at most
            if answers["short"]:
                break
            await asyncio.sleep(0.01)
        waited = loop.time() - started
        assert answers["answered"] == [2]
        assert len(answers["short"]) == 1 and isinstance(answers["short"][0], SeatTimeout)
        assert 0.1 - 0.002 <= waited < 1.0
        assert answers["long"] == []  # still pending
        reports = _requests_sent(session)
        assert [(r.error.code, r.error.match_id) for r in reports] == [("timeout", "short")]
        # A late reply to the expired request is not accepted.
        assert not session.resolve(pb.ActionReply(match_id="short", request_id=sent[2].request_id))
        session.close()
        assert len(answers["long"]) == 1 and answers["long"][0].kind == "disconnection"  # type: ignore[union-attr]

    asyncio.run(scenario())


def test_many_requests_share_one_alarm() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        session = BotSession("s", "bot", [], 1, loop)
        timers_before = len(loop._scheduled)  # type: ignore[attr-defined]
        got: list[int | SeatFault] = []
        for i in range(500):
            session.request("m", 0, b"", b"", 3, 30.0, got.append)
            request = pb.ArenaMessage.FromString(session.outbound._items.pop()).action_request
            assert session.resolve(pb.ActionReply(match_id="m", request_id=request.request_id, action_index=i % 3))
        assert got == [i % 3 for i in range(500)]
        assert len(loop._scheduled) - timers_before <= 1  # type: ignore[attr-defined]
        session.close()

    asyncio.run(scenario())


def test_an_index_out_of_range_is_reported_to_the_bot_and_passed_on() -> None:
    async def scenario() -> None:
        session = BotSession("s", "bot", [], 1, asyncio.get_running_loop())
        got: list[int | SeatFault] = []
        session.request("m", 0, b"", b"", 3, 5.0, got.append)
        request = _requests_sent(session)[0].action_request
        assert session.resolve(pb.ActionReply(match_id="m", request_id=request.request_id, action_index=3))
        assert got == [3]  # the referee rules on it
        [report] = _requests_sent(session)
        assert report.error.code == "illegal_move" and "not below 3" in report.error.message
        session.close()

    asyncio.run(scenario())
