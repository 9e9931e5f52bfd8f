"""The same seeds give the same matches: every golden case replayed against the committed record.

Outcome, decisions and public views are compared apart from the observations, so a
deliberate fix to what a seat may see shows up as that alone (re-record with
`python -m tests.golden.record` and say why in the commit).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.golden.cases import CASES, GOLDEN_FILE, SEEDS, Case, play

RECORD: dict[str, dict[str, Any]] = json.loads(Path(__file__).with_name(GOLDEN_FILE).read_text())


def test_the_record_covers_every_case_and_nothing_else() -> None:
    assert sorted(RECORD) == sorted(c.key for c in CASES)
    assert all(sorted(RECORD[c.key]) == sorted(str(s) for s in SEEDS) for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_same_seeds_same_matches(case: Case) -> None:
    for seed in SEEDS:
        got = play(case, seed)
        want = RECORD[case.key][str(seed)]
        for part in ("outcome", "steps", "decisions", "public"):
            assert got[part] == want[part], f"{case.key} seed {seed}: {part} differs"
        assert got["observations"] == want["observations"], f"{case.key} seed {seed}: what a seat observes differs"
