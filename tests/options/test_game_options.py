"""Each game's declared options: valid values accepted with their types, unknown keys and bad
values refused in one sentence, and the CLI listing and parsing them through the real entry point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tourney.engine.core import ConfigError, get_game

ROOT = Path(__file__).resolve().parents[2]
TOURNEY = str(Path(sys.executable).with_name("tourney"))

# (game, a valid config with non-default values, a key -> the type it must arrive as)
VALID = [
    ("tiny-ninjas", {"mode": "blitz", "round_cap": 40, "hand_limit": {1: 4}, "power_ups": False}),
    ("maitre-ninja", {"fight_cap": 50, "first_player": 1, "n_players": 2}),
    ("ninja-versus-ninja", {"target_score": 3, "turn_cap": 99, "first_player": 1}),
    ("ninja-arena", {"tick_cap": 500, "genin_pack": True, "grace_ms": 0}),
]

# (game, option, a value of the right kind that is out of range or not allowed)
BAD = [
    ("tiny-ninjas", "round_cap", 0),
    ("tiny-ninjas", "difficulty", "insane"),
    ("maitre-ninja", "fight_cap", 0),
    ("ninja-versus-ninja", "target_score", 0),
    ("ninja-versus-ninja", "board", "5x11"),
    ("ninja-arena", "tick_cap", -1),
    ("ninja-arena", "reaction_timeout_ms", "soon"),
]


def one_sentence(message: str) -> bool:
    return message.endswith(".") and "\n" not in message and ":" in message


@pytest.mark.parametrize(("game_id", "config"), VALID)
def test_valid_options_are_accepted(game_id: str, config: dict[str, object]) -> None:
    game = get_game(game_id)
    state = game.new_state(3, config=config)
    assert not state.is_over()
    for key, value in config.items():
        option = game.options[key]
        if not option.per_seat:
            assert option.check(value) == value


def test_tiny_ninjas_options_arrive_with_their_types() -> None:
    given = {"round_cap": "40", "power_ups": "off", "hand_limit": {"1": "4"}, "mode": "BLITZ"}
    cfg = get_game("tiny-ninjas").options.resolve(given)
    assert cfg["round_cap"] == 40 and cfg["power_ups"] is False and cfg["mode"] == "blitz"
    assert cfg["hand_limit"] == [15, 4]  # blitz deals 15, the handicap lowers seat 1 only


@pytest.mark.parametrize("game_id", ["tiny-ninjas", "maitre-ninja", "ninja-versus-ninja", "ninja-arena"])
def test_unknown_key_is_refused_with_the_valid_ones(game_id: str) -> None:
    game = get_game(game_id)
    with pytest.raises(ConfigError) as err:
        game.new_state(1, config={"colour": "red"})
    message = str(err.value)
    assert one_sentence(message) and "'colour'" in message
    assert all(key in message for key in game.options.valid_keys())


@pytest.mark.parametrize(("game_id", "key", "value"), BAD)
def test_bad_value_is_one_sentence(game_id: str, key: str, value: object) -> None:
    with pytest.raises(ConfigError) as err:
        get_game(game_id).new_state(1, config={key: value})
    assert one_sentence(str(err.value)) and key in str(err.value)


def test_default_config_is_the_declared_defaults() -> None:
    for game_id in ("maitre-ninja", "ninja-versus-ninja", "ninja-arena"):
        game = get_game(game_id)
        assert game.default_config() == {o.key: o.default for o in game.options}
    first = get_game("ninja-arena").default_config()
    first["mode"] = "duel"  # a caller's copy, never the declaration
    assert get_game("ninja-arena").default_config()["mode"] == "standard"


def _tourney(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    return subprocess.run([TOURNEY, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


def test_games_json_lists_every_games_options() -> None:
    done = _tourney("games", "--json")
    assert done.returncode == 0, done.stderr
    games = {g["id"]: g for g in json.loads(done.stdout)["games"]}
    assert set(games) == {"tiny-ninjas", "maitre-ninja", "ninja-versus-ninja", "ninja-arena"}
    for game_id, doc in games.items():
        listed = {o["key"]: o for o in doc["options"]}
        assert list(listed) == list(get_game(game_id).options.valid_keys())
        assert all({"type", "default", "help"} <= set(o) for o in listed.values())
    tiny = {o["key"]: o for o in games["tiny-ninjas"]["options"]}
    assert tiny["round_cap"]["type"] == "int" and tiny["round_cap"]["default"] == 100
    assert tiny["hand_limit"]["type"] == "int or per-seat" and tiny["hand_limit"]["default"] == [5, 5]
    assert tiny["difficulty"]["choices"] == ["easy", "normal", "hard"]
    arena = {o["key"]: o for o in games["ninja-arena"]["options"]}
    assert arena["genin_pack"] == {"key": "genin_pack", "type": "bool", "default": False,
                                   "help": arena["genin_pack"]["help"]}


def test_games_table_shows_the_options() -> None:
    done = _tourney("games")
    assert done.returncode == 0, done.stderr
    assert "Game options" in done.stdout and "round_cap" in done.stdout and "[false, false]" in done.stdout


def test_set_round_trip_through_match() -> None:
    base = ["match", "--bots", "greedy,random", "--seed", "7", "--json"]
    short = _tourney(*base, "--set", "round_cap=1")
    assert short.returncode == 0, short.stderr
    doc = json.loads(short.stdout)
    assert doc["termination"] == "adjudication"  # one round cannot finish a battle of 10 health
    again = _tourney(*base, "--set", "round_cap=1")
    assert json.loads(again.stdout)["ranking"] == doc["ranking"]
    full = json.loads(_tourney(*base).stdout)
    assert full["plies"] > doc["plies"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--set", "colour=red"], ["unknown Tiny Ninjas option 'colour'", "round_cap", "difficulty"]),
        (["--set", "round_cap=0"], ["round_cap", "from 1 to 100000"]),
        (["--handicap", "1:round_cap=3"], ["not per-seat", "hand_limit"]),
        (["-g", "ninja-versus-ninja", "--set", "target_score=lots"], ["target_score", "whole number"]),
    ],
)
def test_bad_set_exits_2_with_one_sentence(args: list[str], words: list[str]) -> None:
    done = _tourney("match", "--bots", "greedy,random", "--seed", "1", *args)
    assert done.returncode == 2
    line = done.stderr.strip()
    assert line.startswith("error: ") and "\n" not in line and "Traceback" not in line
    assert all(w in line for w in words), line
