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


def _own_view_setups() -> list[tuple[str, dict[str, Any]]]:
    """Every mode of every game that hands its views over without a copy (`Game.views_are_own`)."""
    from tourney.engine.core import available_games

    setups: list[tuple[str, dict[str, Any]]] = []
    for game in available_games():
        if game.views_are_own:
            setups += [(game.id, {"mode": mode}) for mode in game.modes]
    setups += [("tiny-ninjas", {"reveal_hand": [True, False], "use_expansion": True})]
    return setups


def _same_shapes(a: Any, b: Any) -> bool:
    """a == b with the same type at every node (a tuple is not a list here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_shapes(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_shapes(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _containers(node: Any) -> list[Any]:
    found = [node] if isinstance(node, (dict, list)) else []
    for child in node.values() if isinstance(node, dict) else node if isinstance(node, list) else ():
        found += _containers(child)
    return found


@pytest.mark.parametrize(("game", "config"), _own_view_setups(), ids=lambda v: str(v))
def test_a_view_handed_over_without_a_copy_is_json_shaped_and_shares_nothing(game: str, config: dict[str, Any]) -> None:
    assert any(g == "tiny-ninjas" for g, _ in _own_view_setups())  # the flag is declared: not vacuous
    table = Table(game, None, config)
    for seed in range(6):
        table.reset(seed)
        rng = random.Random(seed)
        while not table.over():
            views = [table.view(seat) for seat in range(table.players)]
            again = [table.view(seat) for seat in range(table.players)]
            for view in views:
                assert _same_shapes(view, json.loads(json.dumps(view)))  # what a bot over the network reads
            # No container is shared between two views, or with the state's public view.
            held = [id(c) for v in (*views, *again, table.state.public_view()) for c in _containers(v)]
            assert len(held) == len(set(held))
            # Writing into every view changes nothing the match goes on with.
            before = json.dumps([table.view(s) for s in range(table.players)], sort_keys=True)
            for view in views:
                _scribble(view)
            assert json.dumps([table.view(s) for s in range(table.players)], sort_keys=True) == before
            table.play({s: rng.choice(table.legal(s)[0]) for s in table.acting()})
