"""The generic bots play any game through the interface, and the smarter ones are stronger."""

from __future__ import annotations

import pytest

import tests.sticks  # noqa: F401
from tourney.engine.bots import bot_names, make_bot, parse_bot_spec
from tourney.engine.core import ConfigError, get_game
from tourney.engine.referee import play_match

GAME = get_game("sticks")


def win_rate(hero: str, villain: str, games: int) -> float:
    points = 0.0
    for g in range(games):
        hero_seat = g % 2
        names = [villain, villain]
        names[hero_seat] = hero
        seats = [make_bot(n, GAME, 1000 * g + i) for i, n in enumerate(names)]
        points += play_match("sticks", seats, seed=g).points(hero_seat)
    return points / games


def test_greedy_beats_random_at_sticks():
    assert win_rate("greedy", "random", 60) >= 0.75


def test_ismcts_beats_random_at_sticks():
    assert win_rate("ismcts:iterations=200", "random", 40) >= 0.75


def test_bot_specs_carry_typed_options():
    assert parse_bot_spec("ismcts:iterations=400:exploration=0.5:x=y") == (
        "ismcts", {"iterations": 400, "exploration": 0.5, "x": "y"})


def test_unknown_bots_and_bad_options_are_one_clear_sentence():
    with pytest.raises(ConfigError, match="unknown bot 'nope' for sticks: choose one of random, greedy, ismcts"):
        make_bot("nope", GAME, 1)
    with pytest.raises(ConfigError, match="ismcts:iterations=0 is below 1"):
        make_bot("ismcts:iterations=0", GAME, 1)
    with pytest.raises(ConfigError, match="cannot be built"):
        make_bot("ismcts:epsilon=2", GAME, 1)
    with pytest.raises(ConfigError, match="not key=value"):
        make_bot("ismcts:fast", GAME, 1)
    # The built-ins come first, in this order (a test module may register a test bot after them).
    assert bot_names(GAME)[:3] == ["random", "greedy", "ismcts"]
