"""The ladder's Prometheus series, on the registry `tourney serve` and `--metrics-port` expose.

tourney_ladder_matches_total counts rated matches (rate() of it is matches per second);
tourney_ladder_throughput_matches_per_second is the same over the last batch the loop handed out,
for a dashboard that shows one number; the queue is matches scheduled and not yet rated plus bots
idle and waiting; the longest wait is the idle bot that has waited longest, now.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge

from tourney.engine.server import REGISTRY, game_label

LADDER_MATCHES = Counter("tourney_ladder_matches", "Ladder matches played and rated.", ["game"], registry=REGISTRY)
LADDER_RATE = Gauge("tourney_ladder_throughput_matches_per_second",
                    "Ladder matches rated per second over the last batch.", ["game"], registry=REGISTRY)
LADDER_IN_FLIGHT = Gauge("tourney_ladder_queue_matches", "Ladder matches scheduled and not yet rated.", ["game"],
                         registry=REGISTRY)
LADDER_IDLE = Gauge("tourney_ladder_waiting_bots", "Ladder bots idle, waiting for their next match.", ["game"],
                    registry=REGISTRY)
LADDER_WAIT = Gauge("tourney_ladder_longest_wait_seconds", "How long the ladder bot idle the longest has waited.",
                    ["game"], registry=REGISTRY)


def observe_ladder(game: str, rated: int, per_second: float | None, in_flight: int, idle: int,
                   longest_wait_s: float) -> None:
    """Report the ladder's state after a batch: `rated` more matches, the batch's rate (None: unchanged)."""
    label = game_label(game)
    if rated:
        LADDER_MATCHES.labels(label).inc(rated)
    if per_second is not None:
        LADDER_RATE.labels(label).set(per_second)
    LADDER_IN_FLIGHT.labels(label).set(in_flight)
    LADDER_IDLE.labels(label).set(idle)
    LADDER_WAIT.labels(label).set(longest_wait_s)
