"""Helpers of the fault suite: run a faulty match while good matches are in flight, and check storage."""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Callable, Sequence

from tests.server.harness import WAIT_S, ArenaHarness
from tourney.engine.server import framing
from tourney.engine.server.generated import arena_pb2 as pb

GAME = "tiny-ninjas"


def check_stored(harness: ArenaHarness, records: Sequence[pb.MatchRecord]) -> None:
    """Every finished match reached storage once, with the same outcome the bots were told."""
    stored = harness.stored.results  # type: ignore[attr-defined]
    for record in records:
        assert record.match_id in stored, f"match {record.match_id} was never stored"
        names, result = stored[record.match_id]
        assert names == list(record.seat_names)
        assert result.termination == record.termination and result.reason == record.reason
        assert (result.forfeit_seat if result.forfeit_seat is not None else -1) == record.forfeit_seat
        # The replay is complete: replaying it on the server's side gives the same number of steps.
        assert len(json.loads(record.replay_json)["steps"]) == len(result.replay.steps)


def with_good_matches(harness: ArenaHarness, faulty: Callable[[], pb.MatchRecord], good: int = 2,
                      game: str = GAME) -> tuple[pb.MatchRecord, list[pb.MatchRecord]]:
    """Run `faulty` while `good` normal matches (a well-behaved remote bot vs a built-in) are played.

    Asserts the good matches end normally and that all of them are stored; returns the records.
    """
    if not harness.arena.connected("good"):
        harness.bot("good", max_concurrent_matches=good + 2)
    with concurrent.futures.ThreadPoolExecutor(good + 1) as pool:
        bad = pool.submit(faulty)
        goods = [pool.submit(harness.run_match, game, ["remote:good", "random"], 100 + i) for i in range(good)]
        bad_record = bad.result(WAIT_S * 4)
        good_records = [g.result(WAIT_S * 4) for g in goods]
    for record in good_records:
        assert record.termination in ("normal", "adjudication"), record.reason
        assert record.forfeit_seat == -1
    check_stored(harness, [bad_record, *good_records])
    return bad_record, good_records


def varint(value: int) -> bytes:
    """A protobuf varint; negative values as their 64-bit two's complement (how int64 -1 travels)."""
    return framing.varint(value & ((1 << 64) - 1))


def reply_bytes(match_id: str | bytes, request_id: int, index: int) -> bytes:
    """A BotMessage{reply: ActionReply} written by hand, so any index (even negative) can be sent."""
    mid = match_id.encode() if isinstance(match_id, str) else match_id
    body = b"\x0a" + varint(len(mid)) + mid + b"\x10" + varint(request_id) + b"\x18" + varint(index)
    return b"\x12" + varint(len(body)) + body


def hello_bytes(name: str, games: Sequence[str] = (), slots: int = 1, start_in_request: bool = False,
                view_delta: bool = False) -> bytes:
    """A serialized Hello."""
    return pb.BotMessage(hello=pb.Hello(bot_name=name, games=list(games), max_concurrent_matches=slots,
                                        start_in_request=start_in_request, view_delta=view_delta)
                         ).SerializeToString()


class RawBot:
    """A bot that writes raw bytes on its Play stream: `answer(request)` returns what to send for it."""

    def __init__(self, address: str, name: str, answer: Callable[[pb.ActionRequest], list[bytes]],
                 slots: int = 1, max_send_bytes: int = 256 * 1024 * 1024, start_in_request: bool = False,
                 view_delta: bool = False) -> None:
        import queue
        import threading

        import grpc

        self.answer = answer
        self.errors: list[pb.ErrorReport] = []
        self.ended: list[pb.MatchEnded] = []
        self.requests: list[pb.ActionRequest] = []
        self.received: list[pb.ArenaMessage] = []  # every message, in the order it arrived
        self.welcome = pb.Welcome()
        self.welcomed = threading.Event()
        self.finished = threading.Event()
        self.failure: BaseException | None = None
        self.out: queue.Queue[bytes | None] = queue.Queue()
        self.out.put(hello_bytes(name, slots=slots, start_in_request=start_in_request, view_delta=view_delta))
        self.channel = grpc.insecure_channel(address, options=[("grpc.max_send_message_length", max_send_bytes),
                                                               ("grpc.max_receive_message_length", 64 << 20)])
        play = self.channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                          response_deserializer=pb.ArenaMessage.FromString)
        self.call = play(iter(self.out.get, None))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.welcomed.wait(WAIT_S), f"raw bot {name} was not welcomed"

    def _read(self) -> None:
        try:
            for message in self.call:
                self.received.append(message)
                kind = message.WhichOneof("kind")
                if kind == "welcome":
                    self.welcome = message.welcome
                    self.welcomed.set()
                elif kind == "action_request":
                    self.requests.append(message.action_request)
                    for data in self.answer(message.action_request):
                        self.out.put(data)
                elif kind == "error":
                    self.errors.append(message.error)
                elif kind == "match_ended":
                    self.ended.append(message.match_ended)
        except BaseException as exc:  # kept for the test (the stream may be cut on purpose)
            self.failure = exc
        finally:
            self.finished.set()

    def codes(self) -> list[str]:
        """The codes of every ErrorReport received so far."""
        return [e.code for e in list(self.errors)]

    def close(self) -> None:
        """Cancel the stream and close the channel."""
        self.out.put(None)
        self.call.cancel()
        self.finished.wait(WAIT_S)
        self.channel.close()
