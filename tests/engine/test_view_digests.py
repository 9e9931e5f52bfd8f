"""Every view, public view and training tensor of Tiny Ninjas, Maître Ninja and Ninja Versus Ninja
along seeded random playouts hashes to the digests recorded from the code before the views were
made cheaper (tests/engine/view_digests.py): a faster view shows exactly what it showed before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.view_digests import CASES, DIGEST_FILE, case_digest, case_name

RECORDED: dict[str, str] = json.loads(DIGEST_FILE.read_text())


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game_id", "players", "config"), CASES, ids=[case_name(*c) for c in CASES])
def test_views_and_tensors_match_the_recorded_digests(game_id: str, players: int, config: dict[str, Any]) -> None:
    assert case_digest(game_id, players, config) == RECORDED[case_name(game_id, players, config)]


def test_every_case_is_recorded() -> None:
    assert sorted(RECORDED) == sorted(case_name(*c) for c in CASES)
