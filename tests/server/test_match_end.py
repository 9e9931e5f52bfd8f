"""What a match's end sends and keeps, made cheaply: each seat's MatchEnded framed by hand is the
ArenaMessage a stub would write, and a match nobody watches builds its last event only when asked."""

from __future__ import annotations

import asyncio

import pytest

from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.live import LiveMatch, WatcherQueue
from tourney.engine.server.sessions import BotSession

RECORD = pb.MatchRecord(match_id="m", game="sticks", seat_names=["a", "b"], seed=99, ranks=[2, 1],
                        replay_json='{"steps": []}', details_json='{"held": "the ace"}', full_replay=True,
                        seats=[pb.SeatResult(tier=1, points=0.0, decisions=3, think_s=0.5),
                               pb.SeatResult(tier=0, points=1.0, decisions=3, think_s=0.25)])


@pytest.mark.timeout(20)
def test_a_seat_is_sent_its_match_ended_as_the_stub_would_write_it() -> None:
    async def run() -> list[bytes | None]:
        session = BotSession("s", "bot", [], 1, asyncio.get_running_loop())
        sent: list[bytes | None] = []
        session.outbound.put = sent.append  # type: ignore[method-assign]
        session.end(pb.MatchEnded(match_id="m", seat=1, points=1.0, ranks=[2, 1], seats=RECORD.seats))
        session.end(pb.MatchEnded(match_id="m2"))  # every field at its default: an empty submessage
        return sent

    sent = asyncio.run(run())
    assert sent == [
        pb.ArenaMessage(match_ended=pb.MatchEnded(match_id="m", seat=1, points=1.0, ranks=[2, 1],
                                                  seats=RECORD.seats)).SerializeToString(),
        pb.ArenaMessage(match_ended=pb.MatchEnded(match_id="m2")).SerializeToString(),
    ]


def _played(live: LiveMatch, rendered: list[int]) -> None:
    for step in (1, 2):
        live.advance(step, lambda step=step: rendered.append(step) or f'{{"step": {step}}}')  # type: ignore[misc]


def _is_final(event: pb.MatchEvent | None) -> None:
    assert event is not None and event.finished and event.step == 3
    assert event.public_view_json == '{"step": 2}'  # the last step's view, nothing newer
    # anyone's last event: no seed, replay, details or clocks
    assert (event.record.seed, event.record.replay_json, event.record.details_json) == (0, "", "")
    assert [(s.tier, s.points, s.decisions, s.think_s) for s in event.record.seats] == \
        [(1, 0.0, 0, 0.0), (0, 1.0, 0, 0.0)]


def test_an_unwatched_match_makes_its_last_event_only_when_asked() -> None:
    live, rendered = LiveMatch("m", seat_names=["a", "b"]), []
    _played(live, rendered)
    live.finish(RECORD)
    assert rendered == [] and live.record is RECORD  # the organiser's full record is kept at once
    latest = live.latest()  # a late watcher, or a public record, asks
    _is_final(latest)
    assert rendered == [2] and live.latest() is latest  # made once


def test_a_watched_match_publishes_its_last_event_at_once() -> None:
    live, rendered = LiveMatch("m", seat_names=["a", "b"]), []
    queue = WatcherQueue()
    _played(live, rendered)
    live.latest()  # step 2 rendered for a watcher who came
    live.watchers.append(queue)
    live.finish(RECORD)
    final = queue.get_nowait()
    _is_final(final)
    assert final is live.latest() and rendered == [2]


def test_a_match_without_steps_ends_with_an_empty_view() -> None:
    live = LiveMatch("m")
    live.finish(RECORD)
    latest = live.latest()
    assert latest is not None and latest.finished and latest.step == 1 and latest.public_view_json == ""
