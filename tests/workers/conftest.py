"""One local Ray instance for the whole test session (ray.init costs ~4 s and ~0.5 GB)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import tests.sticks  # noqa: F401


@pytest.fixture(scope="session")
def ray_session() -> Iterator[object]:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()
