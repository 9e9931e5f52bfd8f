"""Rewrite the golden tournament record from the current code: `.venv/bin/python -m tests.golden.record_tournaments`.

The record is what the code stores today, and every refactor must leave it unchanged: never
re-record to make a refactor pass. Re-record only after a deliberate change of behaviour (a
rule fix, a new seeding scheme, a new tiebreak), and say in the commit message which entries
changed and why. Recording starts a local Ray and checks that Ray workers store exactly what
in-process play stores before anything is written.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from tests.golden.tournament_cases import GOLDEN_FILE, record_all


def main() -> None:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    from tests.ray_start import start_ray, stop_ray
    from tourney.workers import RayExecutor

    start_ray(num_cpus=2)
    try:
        with tempfile.TemporaryDirectory(prefix="tourney-golden-") as tmp:
            record = record_all(RayExecutor(workers=2), Path(tmp))
    finally:
        stop_ray()
    path = Path(__file__).with_name(GOLDEN_FILE)
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
