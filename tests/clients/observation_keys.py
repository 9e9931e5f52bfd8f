"""The top-level keys of each game's JSON observation, as random playouts of every mode meet them."""

from __future__ import annotations

import random

from tourney.engine.core import available_games, get_game

PLAYOUTS = 3  # per game and mode: enough to reach every phase of the four games
MAX_STEPS = 2000  # a playout longer than this stops (the games' caps end them sooner)


def observed_keys(game_id: str) -> set[str]:
    """Every key any seat's observation had, over a few random playouts of each of the game's modes."""
    game = get_game(game_id)
    keys: set[str] = set()
    for mode in game.modes or (None,):
        for seed in range(PLAYOUTS):
            config = {"mode": mode} if mode is not None and "mode" in {o.key for o in game.options} else {}
            players = max(2, game.min_players)
            state = game.new_state(seed, players=players, config=config)
            rng = random.Random(seed)
            for _ in range(MAX_STEPS):
                if state.is_over():
                    break
                for seat in state.to_act():
                    keys |= set(state.observe(seat))
                state.apply({seat: rng.choice(list(state.legal_actions(seat))) for seat in state.to_act()})
    return keys


def all_observed_keys() -> dict[str, set[str]]:
    """game id -> its observation keys, for every game that seats two or more players."""
    return {g.id: observed_keys(g.id) for g in available_games() if g.max_players >= 2}
