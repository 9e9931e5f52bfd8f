"""Start the test session's Ray, patiently: on a loaded machine its first start can time out.

ray.init waits a fixed time for its own processes (GCS port file, raylet); when other work
hogs the cores that wait can run out. A failed start is shut down and tried again, so no test
depends on how busy the machine is. Under pytest-xdist each worker process starts its own.
"""

from __future__ import annotations

import os
import time
from typing import Any

ATTEMPTS = 3


def start_ray(**kwargs: Any) -> Any:
    """ray.init(**kwargs) with the test defaults, retried after a timed-out start; returns the ray module."""
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    # address "local": a new instance of this process's own, never another test's cluster that
    # ray.init() would find on the machine and join (xdist runs the cluster tests beside these).
    options = {"address": "local", "include_dashboard": False, "log_to_driver": False, "configure_logging": False,
               **kwargs}
    for attempt in range(1, ATTEMPTS + 1):
        try:
            ray.init(**options)
            return ray
        except Exception:  # Ray raises RuntimeError, TimeoutError or its own types here
            ray.shutdown()
            if attempt == ATTEMPTS:
                raise
            time.sleep(2.0 * attempt)
    return ray
