"""Codecs: typed fields agree with the observation dict; pre-encoded legal lists parse back exactly."""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest

from tourney.engine.core import available_games, get_game
from tourney.engine.server.codecs import codec_for, dumps
from tourney.engine.server.codecs.base import GenericCodec, json_bytes
from tourney.engine.server.framing import field, tag
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.wire import LegalEncoder, observation_bytes, request_message

BUILT = [g.id for g in available_games()]


def _positions(game_id: str, seed: int, limit: int = 400):  # type: ignore[no-untyped-def]
    """(observation, legal) of every decision of one random match."""
    game = get_game(game_id)
    state = game.new_state(seed, players=game.min_players)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_over():
            return
        joint = {}
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            yield seat, state.observe(seat), legal
            joint[seat] = legal[rng.randrange(len(legal))]
        state.apply(joint)


@pytest.mark.parametrize("game_id", BUILT)
def test_observation_json_round_trips_and_typed_game_is_set(game_id: str) -> None:
    codec = codec_for(game_id)
    expected = {"tiny-ninjas": "tiny_ninjas", "ninja-versus-ninja": "ninja_versus_ninja",
                "maitre-ninja": "maitre_ninja", "ninja-arena": "ninja_arena"}.get(game_id, "generic")
    for seat, obs, legal in _positions(game_id, 3, limit=60):
        message = codec.observation(obs)
        which = message.WhichOneof("game")
        assert which == expected
        typed = getattr(message, which)
        assert json.loads(typed.json) == json.loads(json.dumps(obs))
        if "seat" in obs and hasattr(typed, "seat"):
            assert typed.seat == obs["seat"] == seat
        labels = [codec.action(a).label for a in legal[:50]]
        assert labels == [a.label for a in legal[:50]]


def test_maitre_ninja_typed_fields() -> None:
    if "maitre-ninja" not in BUILT:
        pytest.fail("maitre-ninja is not built")
    codec = codec_for("maitre-ninja")
    for _, obs, legal in _positions("maitre-ninja", 5, limit=40):
        typed = codec.observation(obs).maitre_ninja
        assert list(typed.ranks) == obs["ranks"] and typed.role == obs["role"]
        assert typed.attacker == (obs["attacker"] if obs["attacker"] is not None else -1)
        for action in legal[:20]:
            proto = codec.action(action).maitre_ninja
            fields = action.to_json()  # type: ignore[attr-defined]
            assert list(proto.line) == fields.get("line", []) and list(proto.row) == fields.get("row", [])


def test_ninja_versus_ninja_typed_fields() -> None:
    if "ninja-versus-ninja" not in BUILT:
        pytest.fail("ninja-versus-ninja is not built")
    codec = codec_for("ninja-versus-ninja")
    for _, obs, legal in _positions("ninja-versus-ninja", 2, limit=40):
        typed = codec.observation(obs).ninja_versus_ninja
        assert list(typed.black_ninjas) == obs["ninjas"][0] and list(typed.red_ninjas) == obs["ninjas"][1]
        assert list(typed.score) == obs["score"]
        for action in legal[:20]:
            proto = codec.action(action).ninja_versus_ninja
            assert getattr(proto, "from") == action.frm and tuple(proto.path) == action.path  # type: ignore[attr-defined]


def test_ninja_arena_typed_fields() -> None:
    if "ninja-arena" not in BUILT:
        pytest.fail("ninja-arena is not built")
    from tourney.engine.games.ninja_arena.actions import Activate, Roll, Switch

    codec = codec_for("ninja-arena")
    game = get_game("ninja-arena")
    kinds: set[str] = set()
    for seed, players, config in ((4, 3, None), (5, 2, {"mode": "duel"}), (6, 4, None)):
        state = game.new_state(seed, players=players, config=config)
        rng = random.Random(seed)
        while not state.is_over():
            for seat in state.to_act():
                obs = state.observe(seat)
                typed = codec.observation(obs).ninja_arena
                assert (typed.mode, typed.tick, typed.over) == (obs["mode"], obs["tick"], obs["over"])
                assert typed.pending_switch == obs["pending_switch"]
                for proto, player in zip(typed.players, obs["players"], strict=True):
                    assert (proto.seat, proto.character, proto.side, proto.dice) == (
                        player["seat"], player["character"], player["side"], player["dice"])
                    assert (proto.cube, proto.pool, proto.eliminated) == (
                        player["cube"], player["pool"], player["eliminated"])
                    assert proto.bottom == (player["bottom"] or "")
                summary = obs.get("summary", {})
                assert list(typed.satisfiable) == summary.get("satisfiable", [])
                assert list(typed.dice_masks) == summary.get("dice_masks", [])
                for action in state.legal_actions(seat):
                    proto = codec.action(action).ninja_arena
                    kinds.add(proto.kind)
                    if isinstance(action, Roll | Activate):
                        assert tuple(proto.dice) == action.dice
                    if isinstance(action, Roll):
                        assert proto.stream_target == action.stream_target
                    if isinstance(action, Activate):
                        assert (proto.technique, proto.target, proto.bonus_target, proto.from_shield) == (
                            action.technique, action.target, action.bonus_target, action.from_shield)
                        assert [(a.seat, a.tokens) for a in proto.allocation] == list(action.allocation)
                    if isinstance(action, Switch):
                        assert proto.swap == action.switch
            state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
    assert {"Wait", "Hit", "Roll", "Activate"} <= kinds


@pytest.mark.parametrize("game_id", [*BUILT, "sticks"])
def test_hand_encoded_requests_parse_as_the_generated_message(game_id: str) -> None:
    codec = codec_for(game_id)
    encoder = LegalEncoder(codec)
    for i, (seat, obs, legal) in enumerate(_positions(game_id, 7, limit=30)):
        observation = codec.observation(obs)
        assert pb.Observation.FromString(observation_bytes(codec, obs)) == observation
        request_id, deadline = 2**40 + i, 300 + 1000 * i  # multi-byte varints too
        wire = request_message(f"match-{i}", request_id, seat, observation_bytes(codec, obs), deadline,
                               encoder.encode(legal))
        expected = pb.ActionRequest(match_id=f"match-{i}", request_id=request_id, seat=seat, observation=observation,
                                    legal_actions=[codec.action(a) for a in legal], deadline_ms=deadline)
        assert pb.ArenaMessage.FromString(wire) == pb.ArenaMessage(action_request=expected)
        # Twice, to exercise the caches.
        assert encoder.encode(legal) == encoder.encode(legal)


@pytest.mark.parametrize("game_id", BUILT)
def test_cached_legal_lists_are_the_actions_encoded_afresh(game_id: str) -> None:
    # Found by identity, by equality (a copy of an action: another object), or after the identity map
    # filled up and was cleared (a bound of 5 ids): always the bytes of each action encoded on its own.
    codec = codec_for(game_id)
    encoder = LegalEncoder(codec, max_by_id=5)
    for _, _, legal in _positions(game_id, 11, limit=40):
        fresh = b"".join(field(tag(pb.ActionRequest, "legal_actions", True), codec.action(a).SerializeToString())
                         for a in legal)
        copies = [copy.copy(a) for a in legal]
        assert encoder.encode(list(legal)) == encoder.encode(copies) == encoder.encode(list(legal)) == fresh
        assert len(encoder._by_id) <= 5


def test_unknown_games_get_the_generic_codec() -> None:
    assert isinstance(codec_for("sticks"), GenericCodec)


def test_json_bytes_are_the_json_text_encoded() -> None:
    # what an observation's `json` field carries: orjson's bytes, its retry for non-string keys, and the
    # standard library's last resort (an int beyond 64 bits), each the UTF-8 of what dumps writes
    for value in ({"name": "Maître", "dice": (1, 2)}, {1: "one"}, {"big": 2**70}, [None, 1.5, "ü"]):
        assert json_bytes(value) == dumps(value).encode()
        assert json.loads(json_bytes(value)) == json.loads(json.dumps(value, default=str))


def _stdlib(value: object) -> object:
    return json.loads(json.dumps(value, default=str))


@pytest.mark.parametrize("game_id", BUILT)
def test_fast_json_reads_back_as_the_standard_library_would(game_id: str) -> None:
    game = get_game(game_id)
    for seed in range(3):
        state = game.new_state(seed, players=min(game.max_players, 4))
        rng = random.Random(seed)
        while not state.is_over():
            for seat in state.to_act():
                assert json.loads(dumps(state.observe(seat))) == _stdlib(state.observe(seat))
            assert json.loads(dumps(state.public_view())) == _stdlib(state.public_view())
            state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})


def test_fast_json_handles_what_json_does_not_know_like_the_standard_library() -> None:
    @dataclasses.dataclass(frozen=True)
    class Card:
        name: str

    odd = {1: "int key", "card": Card("fox"), "set": {3}, "tuple": (1, 2), "big": 2**70, "text": "Maître"}
    assert json.loads(dumps(odd)) == _stdlib(odd)
    assert "\n" not in dumps(odd) and ", " not in dumps({"a": [1, 2]})  # compact


def test_out_of_range_numbers_are_clamped_not_fatal() -> None:
    # Real time sets the tick cap to 2**62 ("no cap"); a proto int field must not abort the match.
    codec = codec_for("ninja-arena")
    huge = {"seat": 0, "tick": 2**40, "tick_cap": 2**62, "pending_switch": -(2**40),
            "players": [{"seat": 0, "out_time": 2**62, "cube": -(2**50)}]}
    typed = codec.observation(huge).ninja_arena
    assert (typed.tick, typed.tick_cap, typed.pending_switch) == (2**32 - 1, 2**32 - 1, -(2**31))
    assert (typed.players[0].out_time, typed.players[0].cube) == (2**31 - 1, -(2**31))
