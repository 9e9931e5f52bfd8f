"""Admission control: which calls the arena starts now, so no flood of calls can stop a tournament.

Every call but the organiser's (a RunMatch with the admin token) is admitted against three limits:
- calls in flight on one connection (a bot needs one Play stream; a viewer a few);
- unauthenticated calls in flight on the whole arena (ListGames, GetMatch and Watch without the
  admin token, a Play stream until its Hello is accepted): each holds memory while it lasts;
- unauthenticated calls started a second, per address and overall (token buckets).
A refused call ends at once with RESOURCE_EXHAUSTED and one sentence. The organiser's RunMatch
is never counted, so it always gets through: it is what a tournament waits for.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from tourney.engine.core.addresses import grpc_peer_address
from tourney.engine.server.rate_limit import HelloLimiter


@dataclass(frozen=True)
class AdmissionLimits:
    """The limits of `Admission` (see ArenaConfig for their defaults and meaning)."""

    calls_per_connection: int
    unauthenticated_calls: int
    unauthenticated_per_s: float
    unauthenticated_per_s_per_address: float


class Ticket:
    """One admitted call: `authenticated()` once it proved who it is, `leave()` when it ends."""

    def __init__(self, admission: Admission, peer: str) -> None:
        self._admission = admission
        self._peer = peer
        self._counted_unauthenticated = True
        self._left = False

    def authenticated(self) -> None:
        """The call proved who it is (a bot's Hello): it no longer counts as unauthenticated."""
        with self._admission.lock:
            if self._counted_unauthenticated and not self._left:
                self._counted_unauthenticated = False
                self._admission.unauthenticated -= 1

    def leave(self) -> None:
        """The call ended: its places are free again."""
        with self._admission.lock:
            if self._left:
                return
            self._left = True
            if self._counted_unauthenticated:
                self._admission.unauthenticated -= 1
            left = self._admission.in_flight.get(self._peer, 1) - 1
            if left > 0:
                self._admission.in_flight[self._peer] = left
            else:
                self._admission.in_flight.pop(self._peer, None)


class Admission:
    """Counts the calls in flight per connection and overall, and the rate of new unauthenticated ones."""

    def __init__(self, limits: AdmissionLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.lock = threading.Lock()
        self.in_flight: dict[str, int] = {}  # connection (gRPC peer) -> calls in flight on it
        self.unauthenticated = 0
        burst = max(1, int(limits.unauthenticated_per_s))
        self._overall = HelloLimiter(burst, limits.unauthenticated_per_s, clock, max_peers=1)
        per_address = limits.unauthenticated_per_s_per_address
        self._per_address = HelloLimiter(max(1, int(per_address)), per_address, clock)

    def enter(self, peer: str) -> Ticket | str:
        """A ticket for a new call from connection `peer`, or the sentence refusing it."""
        limits = self.limits
        with self.lock:
            if self.in_flight.get(peer, 0) >= limits.calls_per_connection:
                return (f"this connection has {limits.calls_per_connection} calls in flight already: wait for one "
                        "to end or open fewer at once.")
            if self.unauthenticated >= limits.unauthenticated_calls:
                return (f"the arena serves {limits.unauthenticated_calls} unauthenticated calls at once already: "
                        "try again shortly.")
            if not self._per_address.allow(grpc_peer_address(peer)):
                return (f"more than {limits.unauthenticated_per_s_per_address:g} new unauthenticated calls a second "
                        "from this address: slow down.")
            if not self._overall.allow(""):
                return (f"the arena takes at most {limits.unauthenticated_per_s:g} new unauthenticated calls a "
                        "second: try again shortly.")
            self.in_flight[peer] = self.in_flight.get(peer, 0) + 1
            self.unauthenticated += 1
            return Ticket(self, peer)
