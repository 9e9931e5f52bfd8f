"""A hosted bot looks for its opponent's socket (or the organiser's) from inside its sandbox: each seat's
socket is in a folder of its own and the sandbox shows it only its own (workers/programs.py). An attempt
that holds: it sees no Unix socket but its own."""

from __future__ import annotations

import pytest

from tests.hosted.conftest import Store
from tourney.engine.core import Termination

pytestmark = [pytest.mark.timeout(180)]


def test_a_hosted_seat_sees_no_socket_but_its_own(hosted_store: Store) -> None:
    result = hosted_store.play("hosted:peeker", "hosted:good")
    log = hosted_store.log("peeker")
    assert "PEEK: own" in log and "PEEK: looked at" in log, log[-2000:]
    assert int(log.split("PEEK: looked at ")[1].split()[0]) > 10  # it did walk a file tree
    assert "PEEK: reached" not in log and "PEEK: other socket" not in log, log[-2000:]
    assert result.termination in (Termination.NORMAL, Termination.ADJUDICATION), result.reason
