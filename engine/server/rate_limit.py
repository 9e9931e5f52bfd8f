"""A token bucket per key: how often a connection may say Hello, or a stream send what is of no use."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class HelloLimiter:
    """A token bucket per connection (gRPC peer): `allow(peer)` spends one Hello if any is left."""

    def __init__(self, burst: int, per_s: float, clock: Callable[[], float] = time.monotonic,
                 max_peers: int = 10_000) -> None:
        self.burst = float(max(1, burst))
        self.per_s = max(0.0, per_s)
        self.clock = clock
        self.max_peers = max_peers
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # peer -> (tokens, when)

    def can_allow(self, peer: str) -> bool:
        """True when `peer` has a token left now; nothing is spent."""
        tokens, when = self._buckets.get(peer, (self.burst, self.clock()))
        return min(self.burst, tokens + (self.clock() - when) * self.per_s) >= 1.0

    def allow(self, peer: str) -> bool:
        """True when `peer` may say Hello now (one token is spent)."""
        now = self.clock()
        tokens, when = self._buckets.pop(peer, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.per_s)
        allowed = tokens >= 1.0
        self._buckets[peer] = (tokens - 1.0 if allowed else tokens, now)
        # Forget the oldest connections first; a forgotten peer starts again with a full bucket,
        # which is what a brand-new connection would get anyway.
        while len(self._buckets) > self.max_peers:
            self._buckets.popitem(last=False)
        return allowed
