"""Without a cgroup, a hosted bot's memory cap holds for all its processes together, not for each.

The rlimit caps (the image's: no cgroup) bound each process's address space to 1 GiB, and a bot may
run 64 processes: three children of 450 MiB held 1,350 MiB together, four of 700 MiB 2.8 GiB, and the
bot played on. Now the worker adds up its processes' proportional set sizes and its scratch
(rlimit_watch.py), and the bot forfeits as a cgroup's out-of-memory kill would make it.
"""

from __future__ import annotations

import pytest

from tests.hosted.conftest import Beside, Store, crash_under_rlimits

pytestmark = [pytest.mark.timeout(180)]


def test_children_past_the_memory_cap_together_are_killed_and_forfeit(hosted_store: Store, beside: Beside,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    reason = crash_under_rlimits(hosted_store, "hosted:herd", monkeypatch)
    assert "out of memory (its limit is 1 GiB)" in reason
    assert "HERD: let go" not in hosted_store.log("herd")  # killed while it held them
