"""`Options.resolve`, the one place a config is merged and checked: every game's bad values are
refused by the shared checker, its cross-field validators ride on the declaration, and a
state is built from the declared defaults (changing one changes the state)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tourney.engine.core import ConfigError, Game, Option, Options, get_game

GAMES = ["tiny-ninjas", "maitre-ninja", "ninja-versus-ninja", "ninja-arena"]
# Enough players for every game's default options (Ninja Arena's characters are drawn for 2).
PLAYERS = {"tiny-ninjas": 2, "maitre-ninja": 2, "ninja-versus-ninja": 2, "ninja-arena": 2}


def _refusal(game: Game, config: dict[str, Any], players: int | None = None) -> str:
    with pytest.raises(ConfigError) as err:
        game.new_state(1, players=players, config=config)
    message = str(err.value)
    assert message.endswith(".") and "\n" not in message and ":" in message, message
    return message


def _with_default(game: Game, key: str, default: Any) -> Options:
    """The game's declaration with one default changed (validators and layer kept)."""
    items = tuple(dataclasses.replace(o, default=default) if o.key == key else o for o in game.options)
    return dataclasses.replace(game.options, items=items)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_default_passes_its_own_check(game_id: str) -> None:
    # resolve trusts the defaults and checks only what a layer or the caller gives.
    for option in get_game(game_id).options:
        if option.per_seat:
            assert all(option.check(item) == item for item in option.default)
        else:
            assert option.check(option.default) == option.default


@pytest.mark.parametrize("game_id", GAMES)
def test_out_of_range_numbers_are_refused_by_the_shared_checker(game_id: str) -> None:
    game = get_game(game_id)
    numbers = [o for o in game.options if o.kind == "int" and o.low is not None]
    assert numbers
    for option in numbers:
        assert option.low is not None
        too_low = int(option.low) - 1
        with pytest.raises(ConfigError) as expected:
            option.check(too_low)
        assert _refusal(game, {option.key: too_low}, PLAYERS[game_id]) == str(expected.value)


@pytest.mark.parametrize("game_id", GAMES)
def test_resolve_refuses_an_unknown_key_naming_every_valid_one(game_id: str) -> None:
    options = get_game(game_id).options
    with pytest.raises(ConfigError) as err:
        options.resolve({"colour": "red"})
    assert "'colour'" in str(err.value) and all(key in str(err.value) for key in options.valid_keys())


@pytest.mark.parametrize(
    ("game_id", "key", "default", "read"),
    [
        ("tiny-ninjas", "round_cap", 7, lambda s: s.cfg["round_cap"]),
        ("tiny-ninjas", "hand_limit", [3, 4], lambda s: s.cfg["hand_limit"]),
        ("maitre-ninja", "fight_cap", 9, lambda s: s.setup.fight_cap),
        ("maitre-ninja", "elements", ["Feu", "Eau"], lambda s: list(s.setup.elements)),
        ("ninja-versus-ninja", "target_score", 3, lambda s: s.target),
        ("ninja-arena", "tick_cap", 77, lambda s: s.tick_cap),
    ],
)
def test_a_state_takes_the_declared_defaults(game_id: str, key: str, default: Any, read: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game(game_id)
    assert read(game.new_state(1, players=PLAYERS[game_id])) != default
    monkeypatch.setattr(game, "options", _with_default(game, key, default))
    assert read(game.new_state(1, players=PLAYERS[game_id])) == default
    assert game.default_config()[key] == default


def test_tiny_ninjas_default_config_is_the_declaration() -> None:
    game = get_game("tiny-ninjas")
    assert game.default_config() == game.options.defaults() == game.options.resolve(None)


@pytest.mark.parametrize(
    ("game_id", "players", "config", "words"),
    [
        ("tiny-ninjas", None, {"start_health": [10, 12], "max_health": 11}, ["seat 1 starts at 12", "max_health 11"]),
        # Survivor's delta sets max_health 8; the caller's start_health lands over it.
        ("tiny-ninjas", None, {"mode": "survivor", "start_health": {0: 9}}, ["seat 0 starts at 9", "max_health 8"]),
        ("tiny-ninjas", None, {"remove_cards": {"Alien": 5}}, ["remove_cards.Alien", "from 0 to"]),
        ("maitre-ninja", 3, {"elements": ["Air", "Feu"]}, ["must name 3 different elements"]),
        ("maitre-ninja", 2, {"first_player": 2}, ["first_player=2 is not a seat of 2 players"]),
        ("maitre-ninja", 2, {"n_players": 4}, ["players=2 contradicts config n_players=4"]),
        ("maitre-ninja", 2, {"parry_supply": {"DO": 1, "BL": 1, "JU": 1}}, ["does not fit the supply of 3"]),
        ("ninja-arena", 3, {"mode": "duel"}, ["Duel mode is for exactly 2 players, not 3"]),
        ("ninja-arena", 5, {}, ["enable genin_pack for up to 6"]),
        # Five characters and no player count: five players, one more than the core game seats.
        ("ninja-arena", None, {"characters": "Naruto,Sakura,Sasuke,Shikamaru,Gaara"}, ["needs 2 to 4 players, not 5"]),
        ("ninja-arena", 2, {"characters": ["Naruto"]}, ["1 names but 2 are needed"]),
        ("ninja-arena", 2, {"characters": [1, 2]}, ["config 'characters' is [1, 2]"]),
    ],
)
def test_cross_field_validators_fire(game_id: str, players: int | None, config: dict[str, Any],
                                     words: list[str]) -> None:
    message = _refusal(get_game(game_id), config, players)
    assert all(w in message for w in words), message


def test_validators_and_layer_run_from_the_declaration_alone() -> None:
    seen: list[tuple[dict[str, Any], int | None]] = []

    def no_more_than_cap(cfg: dict[str, Any], players: int | None) -> None:
        seen.append((dict(cfg), players))
        if cfg["start"] > cfg["cap"]:
            raise ConfigError(f"start {cfg['start']} is above cap {cfg['cap']}: lower start.")

    options = Options("demo", (Option("start", "int", 1, "start", low=0), Option("cap", "int", 5, "cap", low=1),
                               Option("mode", "str", "calm", "mode", choices=("calm", "wild"))),
                      validators=(no_more_than_cap,),
                      layer=lambda given, players: {"cap": 2} if given.get("mode") == "wild" else {})
    assert options.resolve({"start": "3"}, players=4) == {"start": 3, "cap": 5, "mode": "calm"}
    assert seen[-1] == ({"start": 3, "cap": 5, "mode": "calm"}, 4)
    with pytest.raises(ConfigError, match="start 3 is above cap 2"):
        options.resolve({"start": 3, "mode": "WILD"})  # the layer lowers cap under the caller's keys
    assert options.resolve({"start": 3, "mode": "wild", "cap": 3})["cap"] == 3  # the caller's key wins
    typo = dataclasses.replace(options, layer=lambda given, players: {"capp": 2})
    with pytest.raises(ConfigError, match="unknown demo option 'capp'"):
        typo.resolve({})


def test_text_is_read_as_each_options_kind() -> None:
    nvn = get_game("ninja-versus-ninja")
    as_text = nvn.new_state(4, config={"first_player": "1", "target_score": "03", "turn_cap": " 50"})
    as_values = nvn.new_state(4, config={"first_player": 1, "target_score": 3, "turn_cap": 50})
    assert as_text.public_view() == as_values.public_view()
    arena = get_game("ninja-arena").options
    assert arena.resolve({"mode": "DUEL", "genin_pack": "false"}, 2)["mode"] == "duel"
    # genin_pack once went through bool(), which read the text "false" as true.
    assert arena.resolve({"genin_pack": "false"}, 2)["genin_pack"] is False


@pytest.mark.parametrize(
    ("game_id", "config", "words"),
    [
        ("ninja-versus-ninja", {"first_player": True}, ["'first_player' is True", "rolloff, 0, 1"]),
        ("ninja-versus-ninja", {"first_player": 1.0}, ["'first_player' is 1.0"]),
        ("tiny-ninjas", {"chooser": True}, ["'chooser' is True"]),
        ("ninja-arena", {"genin_pack": 1}, ["'genin_pack' is 1", "true or false"]),
        ("maitre-ninja", {"first_player": "north"}, ["'first_player' is 'north'", "or null"]),
        ("tiny-ninjas", {"hand_limit": {2: 3}}, ["names seat 2", "use 0 or 1"]),
        ("tiny-ninjas", {"reveal_hand": [True]}, ["'reveal_hand' is [True]", "one value per seat (2)"]),
    ],
)
def test_values_of_the_wrong_type_are_refused(game_id: str, config: dict[str, Any], words: list[str]) -> None:
    message = _refusal(get_game(game_id), config, PLAYERS[game_id])
    assert all(w in message for w in words), message


def test_per_seat_mapping_changes_only_its_seats_over_the_mode() -> None:
    cfg = get_game("tiny-ninjas").options.resolve({"mode": "survivor", "start_health": {"1": 5}, "reveal_hand": True})
    assert cfg["start_health"] == [8, 5] and cfg["max_health"] == [8, 8] and cfg["reveal_hand"] == [True, True]



def test_resolve_shared_checks_a_config_once_and_refuses_a_bad_one_every_time() -> None:
    options = get_game("maitre-ninja").options
    first = options.resolve_shared({"fight_cap": 30}, 3)
    assert first == options.resolve({"fight_cap": 30}, 3) and first["n_players"] == 3
    assert options.resolve_shared({"fight_cap": 30}, 3) is first  # shared, not built again
    assert options.resolve_shared({"fight_cap": 30}, 4)["n_players"] == 4  # the player count is in the key
    assert options.resolve_shared({"fight_cap": 31}, 3)["fight_cap"] == 31
    for _ in range(2):
        with pytest.raises(ConfigError):
            options.resolve_shared({"fight_cap": 0}, 3)
