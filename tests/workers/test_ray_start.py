"""The test session's Ray start recovers from a failed first attempt and leaves none of its processes.

The first attempt is made to fail for real: a plasma directory that does not exist is refused
after ray.init has already spawned the GCS, the monitor and the dashboard head, the kind of
half-started node that once survived ray.shutdown() and starved the retries. It runs in a child
process, so this test's own session Ray (if any) is not disturbed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ray_start import processes_of

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, os, sys
from pathlib import Path
import tests.ray_start as ray_start

ray = ray_start.start_ray(num_cpus=1, first_attempt={"_plasma_directory": "/nonexistent/tourney-plasma"})
root = ray_start._roots[-1]
report = {"root": str(root), "attempts": sorted(p.name for p in root.iterdir()),
          "left_by_first": ray_start.processes_of(root / "1"),
          "of_second": len(ray_start.processes_of(root / "2")),
          "answer": ray.get(ray.remote(lambda: 6 * 7).remote())}
ray_start.stop_ray()
report["left_after_stop"] = ray_start.processes_of(root)
report["root_removed"] = not root.exists()
print(json.dumps(report))
"""


@pytest.mark.timeout(300)
def test_a_failed_first_start_is_cleaned_up_and_the_retry_starts_ray():
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=280)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["attempts"] == ["1", "2"]  # the first failed, the second started
    assert report["left_by_first"] == []  # its GCS, monitor and dashboard were killed
    assert report["of_second"] > 0  # the check can see a live node's processes
    assert report["answer"] == 42
    assert report["left_after_stop"] == [] and report["root_removed"]
    assert processes_of(Path(report["root"])) == []
