"""A match as spectators follow it: its latest public view, its watchers, and its record."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.records import without_replay

MAX_WATCH_QUEUE = 1024  # events waiting for one watcher who does not read before it is cut off
# ... or their views' characters: a Tiny Ninjas champion view reaches 48 KB, so 1,024 events could pin 50 MB for
# each watcher that never reads, and each of the arena's unauthenticated calls may be one on a match of its own.
MAX_WATCH_QUEUE_BYTES = 4 << 20


class WatcherQueue(asyncio.Queue[pb.MatchEvent | None]):
    """The events waiting for one watcher, and how many characters of public views they hold."""

    def __init__(self) -> None:
        super().__init__()
        self.held = 0

    def _put(self, item: pb.MatchEvent | None) -> None:
        self.held += _weight(item)
        super()._put(item)

    def _get(self) -> pb.MatchEvent | None:
        item: pb.MatchEvent | None = super()._get()
        self.held -= _weight(item)
        return item

    def full_for(self, event: pb.MatchEvent) -> bool:
        """True when `event` would take this watcher past either cap."""
        return self.qsize() >= MAX_WATCH_QUEUE or self.held + _weight(event) > MAX_WATCH_QUEUE_BYTES


def _weight(item: pb.MatchEvent | None) -> int:
    """What an event costs a watcher's queue: its view, the part that grows with the game."""
    return 0 if item is None else len(item.public_view_json)


@dataclass
class LiveMatch:
    """A match being played or kept after it ended: its latest public view, watchers, and record.

    Every event is a whole public view, so a watcher who joins late needs only the latest.
    While nobody watches, a step on the event loop is not even rendered: `advance` keeps a
    way to render it, used only if a watcher arrives before the next step (the state cannot
    change meanwhile, as the referee runs on the same loop). Its last event (`finish`) waits the same
    way: a match nobody watches never builds it unless a late watcher or a public record asks (a
    Tiny Ninjas match saves ~12 µs: its final public view rendered, the record copied). Until then a
    kept match holds its final state (8-19 kB) instead of that event, for the arena's max_finished.
    """

    match_id: str
    seat_names: list[str] = field(default_factory=list)  # public: every event names the players
    watchers: list[WatcherQueue] = field(default_factory=list)
    record: pb.MatchRecord | None = None  # the full record (seed, replay): for the organiser
    step: int = 0
    _latest: pb.MatchEvent | None = None
    _render: Callable[[], str] | None = None
    _final: Callable[[], pb.MatchEvent] | None = None

    def publish(self, event: pb.MatchEvent) -> None:
        """Keep an event as the latest and pass it to every watcher (event-loop thread only)."""
        self._latest, self._render, self._final, self.step = event, None, None, event.step
        for queue in list(self.watchers):
            if queue.full_for(event):
                # A spectator who stopped reading must not make the arena hold every event for it.
                self.watchers.remove(queue)
                queue.put_nowait(None)
            else:
                queue.put_nowait(event)

    def event(self, step: int, public_view_json: str) -> pb.MatchEvent:
        """An event of this match (any thread): its step, public view and seat names."""
        return pb.MatchEvent(match_id=self.match_id, step=step, public_view_json=public_view_json,
                             seat_names=self.seat_names)

    def advance(self, step: int, render: Callable[[], str]) -> None:
        """Step `step` was played (event-loop thread): published if watched, else rendered on demand."""
        if self.watchers:
            self.publish(self.event(step, render()))
        else:
            self._latest, self._render, self.step = None, render, step

    def finish(self, record: pb.MatchRecord) -> None:
        """The match is over with `record` (event-loop thread): its last event (the last public view,
        finished, the record without seed or replay) is published if watched, else made on demand."""
        previous, render, step = self._latest, self._render, self.step + 1

        def final() -> pb.MatchEvent:
            view = previous.public_view_json if previous is not None else render() if render is not None else ""
            event = self.event(step, view)
            event.finished = True
            event.record.CopyFrom(without_replay(record))
            return event

        self.record = record
        if self.watchers:
            self.publish(final())
        else:
            self._latest, self._render, self._final, self.step = None, None, final, step

    def latest(self) -> pb.MatchEvent | None:
        """The newest event (rendered now if it was deferred), None before the first."""
        if self._final is not None:
            self._latest, self._final = self._final(), None
        elif self._latest is None and self._render is not None:
            self._latest = self.event(self.step, self._render())
            self._render = None
        return self._latest
