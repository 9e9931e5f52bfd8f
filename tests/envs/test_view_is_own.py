"""A training environment hands out views that are the trainer's own: writing into one changes nothing else.

Games share the unchanging parts of their views (Maitre Ninja's fight faces, Ninja Versus Ninja's closed
log rows) between the state's views, to keep `observe()` cheap; the environment is where a view leaves the
engine for code that may write into it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tourney.envs.table import Table

SETUPS = [("maitre-ninja", 2), ("maitre-ninja", 4), ("ninja-versus-ninja", 2), ("tiny-ninjas", 2), ("ninja-arena", 2)]


def _scribble(node: Any) -> None:
    """Overwrite every leaf of a JSON view in place, and append to every list."""
    items = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
    for key, value in items:
        if isinstance(value, (dict, list)):
            _scribble(value)
        else:
            node[key] = "scribbled"
    if isinstance(node, list):
        node.append("scribbled")


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_writing_into_a_view_changes_no_later_view(game: str, players: int) -> None:
    table = Table(game, players)
    table.reset(3)
    rng = random.Random(3)
    for _ in range(60):  # far enough that fights, log rows and events are shared by later views
        if table.over():
            break
        table.play({s: rng.choice(table.legal(s)[0]) for s in table.acting()})
    shown = {seat: json.dumps(table.view(seat), sort_keys=True) for seat in range(players)}
    public = json.dumps(table.state.public_view(), sort_keys=True)
    for seat in range(players):
        _scribble(table.view(seat))
    assert {seat: json.dumps(table.view(seat), sort_keys=True) for seat in range(players)} == shown
    assert json.dumps(table.state.public_view(), sort_keys=True) == public
    assert "scribbled" not in public
