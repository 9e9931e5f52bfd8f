"""Whole views back from the event deltas the arena sends a bot whose Hello set `view_delta`.

With view_delta, a game whose view carries an event log (`events`, `events_total`) sends in each
request only the events added since that seat's previous request, and `events_from`: the number of
the first event the whole view shows (older ones fell out of its window). The new events are
numbered from events_total - len(events). `SeatLogs` keeps each seat's window and hands `act` the
view the arena would have sent without view_delta, equal key for key and number for number.
"""

from __future__ import annotations

import json
from typing import Any


class ViewGap(ValueError):
    """A delta that does not follow the events kept for its seat (a request was lost or reordered)."""


class SeatLogs:
    """The event window of each (match id, seat) this bot plays, rebuilt request by request.

    The events are kept as their JSON text, so the view a bot gets (and may change) shares no object
    with what is kept. A match's windows are dropped when it ends (`forget`).
    """

    def __init__(self) -> None:
        # (match id, seat) -> (number of the first kept event, each kept event as JSON)
        self._logs: dict[tuple[str, int], tuple[int, list[str]]] = {}

    def whole(self, match_id: str, seat: int, view: dict[str, Any]) -> dict[str, Any]:
        """`view` as the arena's whole view: a delta (one with `events_from`) completed from the kept events
        (which it then updates); any other view as it is."""
        start = view.pop("events_from", None)
        if start is None:
            return view
        new: list[Any] = view["events"]
        total: int = view["events_total"]
        new_first = total - len(new)
        kept_first, kept = self._logs.get((match_id, seat), (0, []))
        if kept_first <= new_first <= kept_first + len(kept):
            first, texts = kept_first, kept[:new_first - kept_first]
        else:
            first, texts = new_first, []
        if first > start:
            raise ViewGap(f"match {match_id[:64]} seat {seat}: the request's events start at {new_first}, but only "
                          f"events {kept_first} to {kept_first + len(kept) - 1} were kept and the view starts at "
                          f"{start}; events were lost on the way (reconnect to get whole views again).")
        texts.extend(json.dumps(event, separators=(",", ":")) for event in new)
        texts = texts[start - first:]
        self._logs[(match_id, seat)] = (start, texts)
        view["events"] = json.loads("[" + ",".join(texts) + "]")
        return view

    def forget(self, match_id: str, seat: int) -> None:
        """The match is over for this seat: its events are no longer needed."""
        self._logs.pop((match_id, seat), None)

    def __len__(self) -> int:
        return len(self._logs)
