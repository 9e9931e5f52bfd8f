"""Every test gets a fresh arena on an ephemeral loopback port."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.harness import ArenaHarness


@pytest.fixture
def harness() -> Iterator[ArenaHarness]:
    h = ArenaHarness()
    try:
        yield h
    finally:
        h.close()
