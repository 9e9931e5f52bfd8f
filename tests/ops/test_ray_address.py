"""A driver given HOST:6379 where no Ray node runs is told to use Ray Client (ray://HOST:10001)."""

from __future__ import annotations

import pytest

from tests.ops.prom import free_port
from tourney.workers.ray_tasks import ClusterUnreachable, client_hint, make_executor


def test_a_gcs_address_that_fails_names_the_ray_client_address() -> None:
    port = free_port()  # nothing listens there
    with pytest.raises(ClusterUnreachable) as failed:
        make_executor(address=f"127.0.0.1:{port}")
    message = str(failed.value)
    assert f"cannot join the Ray cluster at 127.0.0.1:{port}" in message
    assert "use Ray Client: --address ray://127.0.0.1:10001" in message


def test_ray_client_and_auto_addresses_get_no_hint() -> None:
    assert client_hint("ray://head:10001") == "" and client_hint("auto") == "" and client_hint(None) == ""
    assert "ray://ray-head:10001" in client_hint("ray-head:6379")
