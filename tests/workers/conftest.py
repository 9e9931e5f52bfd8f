"""One local Ray instance for the whole test session (ray.init costs ~4 s and ~0.5 GB)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import tests.sticks  # noqa: F401
from tests.ray_start import start_ray


@pytest.fixture(scope="session")
def ray_session() -> Iterator[object]:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    if not ray.is_initialized():
        start_ray(num_cpus=2)
    yield ray
    ray.shutdown()
