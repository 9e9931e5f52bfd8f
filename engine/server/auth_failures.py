"""Failed authentication is limited per address and overall, not only per connection.

Every wrong bot token (Hello) and wrong admin token spends one try from the address's bucket and
from the arena's; once either is empty, credentials from that address (or from anyone) are
refused unread until the buckets refill, so guessing gains nothing from more connections. A Hello
or call without a token guesses nothing and spends nothing (else one address could keep the arena's
bucket empty with tokenless Hellos, which its own lockout does not refuse). A
right admin token is checked before this limit and always admitted: the organiser must get
through, and a 24-byte random token is beyond guessing at any rate.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from tourney.engine.core.addresses import grpc_peer_address
from tourney.engine.server.rate_limit import HelloLimiter


class FailedAuthLimit:
    """Token buckets of failed authentications: per address, and one for the whole arena."""

    def __init__(self, per_address_burst: int, per_address_per_s: float, overall_burst: int,
                 overall_per_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._per_address = HelloLimiter(per_address_burst, per_address_per_s, clock)
        self._overall = HelloLimiter(overall_burst, overall_per_s, clock, max_peers=1)

    def refused(self, peer: str) -> str | None:
        """None when `peer` may present credentials now, else the sentence refusing it (nothing is spent)."""
        with self._lock:
            if not self._per_address.can_allow(grpc_peer_address(peer)):
                return "too many failed authentications from this address: wait a minute, then check the token."
            if not self._overall.can_allow(""):
                return "too many failed authentications at this arena: wait a minute, then check the token."
        return None

    def failed(self, peer: str) -> None:
        """Count one failed authentication from `peer`."""
        with self._lock:
            self._per_address.allow(grpc_peer_address(peer))
            self._overall.allow("")
