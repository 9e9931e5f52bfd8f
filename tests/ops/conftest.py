"""Operations tests: the test game, and one local Ray instance shared by the session."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import tests.sticks  # noqa: F401
from tests.ray_start import start_ray


@pytest.fixture(scope="session")
def ray_ops() -> Iterator[object]:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    owned = not ray.is_initialized()
    if owned:
        start_ray(address="local", num_cpus=2)
    yield ray
    if owned:
        ray.shutdown()


from tests.tournament.conftest import postgres_url  # noqa: E402, F401  (the private PostgreSQL cluster fixture)
