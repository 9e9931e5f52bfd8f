"""clients/README.md lists each game's JSON observation keys exactly as the games produce them."""

from __future__ import annotations

import re

from tests.clients.arena import ROOT
from tests.clients.observation_keys import observed_keys
from tourney.engine.core import available_games

README = ROOT / "clients" / "README.md"


def listed_keys() -> dict[str, set[str]]:
    """game id -> the keys the README lists between its `observation keys` markers."""
    text = README.read_text()
    block = text.split("<!-- observation keys: begin -->")[1].split("<!-- observation keys: end -->")[0]
    return {m.group(1): {k.strip() for k in m.group(2).split(",")}
            for m in re.finditer(r"^- `([a-z-]+)`: (.+)$", block, re.MULTILINE)}


def test_the_readme_lists_every_games_observation_keys() -> None:
    games = {g.id for g in available_games() if type(g).__module__.startswith("tourney.engine.games.")}
    listed = listed_keys()
    assert set(listed) == games
    for game in sorted(games):
        assert listed[game] == observed_keys(game), game
