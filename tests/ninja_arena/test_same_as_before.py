"""The rules play exactly the game main's code played before they were made faster: the same
legal lists (in the same order), views, training tensors, events and outcomes on the first seeds
of every table recorded in `reference_digests.json` (see `digests.py` for how it was made)."""

from __future__ import annotations

import pytest

from tests.ninja_arena.digests import CHUNK, TABLES, stored, table_digest


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("name", "players", "config"), TABLES, ids=[t[0] for t in TABLES])
def test_the_first_seeds_play_as_recorded(name: str, players: int, config: dict[str, object]) -> None:
    assert table_digest(players, dict(config), range(CHUNK)) == stored()[name][0]
