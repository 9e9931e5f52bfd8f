"""A hosted bot writes only where its writes are capped: its tmpfs HOME and /tmp and a small /dev/shm.

bubblewrap builds the sandbox's root, and /dev, on tmpfs mounts the size of half the machine's memory,
writable by the bot. Under cgroups their pages count against the bot's memory cap; with the rlimit caps
(no cgroup, as in the image) they counted against nothing, so a bot could fill the machine's memory with
files in /etc, /run or /dev/shm while its opponent's worker starved.
"""

from __future__ import annotations

from tests.hosted.conftest import Store
from tourney.engine.core import Termination
from tourney.workers.sandbox import SandboxLimits

CAPPED = {"/tmp", "/home/bot", "/dev/shm"}


def test_a_hosted_bot_writes_only_into_its_capped_scratch_folders(hosted_store: Store) -> None:
    result = hosted_store.play("hosted:scribbler", "hosted:good")
    log = hosted_store.log("scribbler")
    assert "SCRIBBLE: tried" in log, log[-2000:]
    assert int(log.split("SCRIBBLE: tried ")[1].split()[0]) > 100  # it did walk the sandbox's folders
    wrote = {line.split()[2]: int(line.split()[3]) for line in log.splitlines() if line.startswith("SCRIBBLE: wrote")}
    assert {"/tmp", "/home/bot"} <= set(wrote), log[-2000:]
    assert set(wrote) <= CAPPED, sorted(set(wrote) - CAPPED)
    assert all(size <= SandboxLimits().scratch_bytes for size in wrote.values()), wrote
    assert result.termination in (Termination.NORMAL, Termination.ADJUDICATION), result.reason
