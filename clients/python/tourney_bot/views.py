"""Whole views back from the deltas the arena sends a bot whose Hello set `view_delta`.

With view_delta, a game whose view carries a log sends in each request only the log's items the seat
was not sent before, and ends the view with `view_delta`: {"list": the key of that list, "at": the
number of its first item sent, "first": the number of the first item the whole view holds (earlier
ones fell out of the game's window)}. `SeatLogs` keeps each seat's list and hands `act` the view the
arena would have sent without view_delta, equal key for key and number for number.
"""

from __future__ import annotations

import json
from typing import Any


class ViewGap(ValueError):
    """A delta that does not follow the items kept for its seat (a request was lost or reordered)."""


class SeatLogs:
    """The log of each (match id, seat) this bot plays, rebuilt request by request.

    The items are kept as their JSON text, so the view a bot gets (and may change) shares no object
    with what is kept. A match's logs are dropped when it ends (`forget`).
    """

    def __init__(self) -> None:
        # (match id, seat) -> (number of the first kept item, each kept item as JSON)
        self._logs: dict[tuple[str, int], tuple[int, list[str]]] = {}

    def whole(self, match_id: str, seat: int, view: dict[str, Any]) -> dict[str, Any]:
        """`view` as the arena's whole view: a delta (one with `view_delta`) completed from the kept items
        (which it then updates); any other view as it is."""
        delta = view.pop("view_delta", None)
        if delta is None:
            return view
        key: str = delta["list"]
        at: int = delta["at"]
        start: int = delta["first"]
        kept_first, kept = self._logs.get((match_id, seat), (0, []))
        if kept_first <= at <= kept_first + len(kept):
            first, texts = kept_first, kept[:at - kept_first]
        else:
            first, texts = at, []
        if first > start:
            raise ViewGap(f"match {match_id[:64]} seat {seat}: the request's {key[:64]} start at item {at}, but only "
                          f"items {kept_first} to {kept_first + len(kept) - 1} were kept and the view starts at "
                          f"{start}; items were lost on the way (reconnect to get whole views again).")
        texts.extend(json.dumps(item, separators=(",", ":")) for item in view[key])
        texts = texts[start - first:]
        self._logs[(match_id, seat)] = (start, texts)
        view[key] = json.loads("[" + ",".join(texts) + "]")
        return view

    def forget(self, match_id: str, seat: int) -> None:
        """The match is over for this seat: its log is no longer needed."""
        self._logs.pop((match_id, seat), None)
