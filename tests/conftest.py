"""Shared test setup: the test-only game is registered for every test module; one Ray per session.

Every test that needs Ray takes the `ray_session` fixture: one definition, so a process that
runs tests of several folders starts Ray once (~5 s idle, 30 s on a loaded machine, ~0.5 GB).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import tests.sticks  # noqa: F401
from tests.ray_start import start_ray, stop_ray


@pytest.fixture(scope="session")
def ray_session() -> Iterator[object]:
    """A local 2-CPU Ray instance for the whole session, shut down at its end."""
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    owned = not ray.is_initialized()
    if owned:
        start_ray(num_cpus=2)
    yield ray
    if owned:
        stop_ray()
