"""The arena's framed observations (wire.observation_bytes, and a codec's own cached framing) parse as
exactly the message the codec builds, in process and as a bot receives them over a real arena."""

from __future__ import annotations

import json
import random

import pytest

from tests.server.bots import RecordingBot
from tests.server.harness import ArenaHarness
from tourney.engine.core import available_games, get_game
from tourney.engine.games.tiny_ninjas.data import INSTANCE_TYPE
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState
from tourney.engine.referee import Replay
from tourney.engine.server.codecs import TypedCodec, codec_for
from tourney.engine.server.codecs.ninja_arena import MAX_CACHED_PLAYERS, NinjaArenaCodec
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.wire import legal_encoder, observation_bytes, request_message

BUILT = [g.id for g in available_games()]
# Short matches: the end-to-end test plays every decision through the arena and again in process.
SHORT = {"ninja-arena": '{"tick_cap": 40}'}


@pytest.mark.parametrize("game_id", BUILT)
def test_framed_observation_parses_as_the_codecs_message(game_id: str) -> None:
    """Random playouts of several seeds: every seat's framed observation equals codec.observation's."""
    game = get_game(game_id)
    codec = codec_for(game_id)
    compared = 0
    for seed in (1, 2, 3):
        state = game.new_state(seed, players=4 if game_id == "ninja-arena" else game.min_players)
        rng = random.Random(seed)
        for _ in range(150):
            if state.is_over():
                break
            joint = {}
            for seat in state.to_act():
                obs = state.observe(seat)
                whole = codec.observation(obs)
                assert pb.Observation.FromString(observation_bytes(codec, obs)) == whole
                # Hello.json_view_only: a typed game's message with its `json` alone (a generic one is JSON only).
                json_only = pb.Observation.FromString(observation_bytes(codec, obs, typed=False))
                which = whole.WhichOneof("game")
                assert json_only.WhichOneof("game") == which and which is not None
                if isinstance(codec, TypedCodec):
                    assert [f.name for f, _ in getattr(json_only, which).ListFields()] == ["json"]
                    assert getattr(json_only, which).json == getattr(whole, which).json
                else:
                    assert json_only == whole
                compared += 1
                legal = state.legal_actions(seat)
                joint[seat] = legal[rng.randrange(len(legal))]
            state.apply(joint)
    assert compared >= 3


def test_ninja_arena_boards_that_differ_are_never_mixed_up() -> None:
    """Two tables that differ only in one player's dice give that player's board its own bytes."""
    codec = NinjaArenaCodec()
    state = get_game("ninja-arena").new_state(4, players=2)
    obs = state.observe(0)
    other = json.loads(json.dumps(obs))
    other["players"][1]["dice"] = "".join(reversed(obs["players"][1]["dice"])) + "X"
    first = pb.Observation.FromString(codec.observation_bytes(obs)).ninja_arena
    second = pb.Observation.FromString(codec.observation_bytes(other)).ninja_arena
    assert first.players[1].dice == obs["players"][1]["dice"]
    assert second.players[1].dice == other["players"][1]["dice"]
    assert first.players[0] == second.players[0]


def test_ninja_arena_board_cache_is_bounded() -> None:
    codec = NinjaArenaCodec()
    obs = get_game("ninja-arena").new_state(4, players=2).observe(0)
    for n in range(MAX_CACHED_PLAYERS + 50):
        obs["players"][0]["pool"] = n  # a new board each time
        typed = pb.Observation.FromString(codec.observation_bytes(obs)).ninja_arena
        assert typed.players[0].pool == n
        assert len(codec._players) <= MAX_CACHED_PLAYERS


@pytest.mark.timeout(120)
@pytest.mark.parametrize("game_id", BUILT)
def test_a_bot_receives_the_observations_of_the_replayed_match(harness: ArenaHarness, game_id: str) -> None:
    """Over a real arena, every observation a bot gets equals the codec's message for the state the
    match's replay shows at that decision (same seed, same actions, played again in process): the
    SDK's bot sets Hello.view_delta, so each seat's view holds only what its log gained since its last."""
    bot = RecordingBot(seed=7)
    harness.bot("net", bot, max_concurrent_matches=2)
    record = harness.run_match(game_id, ["remote:net", "remote:net"], seed=11, config_json=SHORT.get(game_id, ""))
    assert record.termination in ("normal", "adjudication"), record.reason
    replay = Replay.from_dict(json.loads(record.replay_json))
    game = get_game(game_id)
    state = game.new_state(replay.seed, players=replay.players, config=replay.config)
    codec = codec_for(game_id)
    expected: dict[int, list[pb.Observation]] = {}
    marks = [0] * replay.players
    for step in replay.steps:
        joint = {}
        for decision in step:
            view, marks[decision.seat] = state.observe_since(decision.seat, marks[decision.seat])
            expected.setdefault(decision.seat, []).append(codec.observation(view))
            joint[decision.seat] = state.legal_actions(decision.seat)[decision.index]
        state.apply(joint)
    received: dict[int, list[pb.Observation]] = {}
    for request, _ in bot.requests:
        received.setdefault(request.seat, []).append(request.observation)
    assert sum(len(v) for v in received.values()) == sum(len(step) for step in replay.steps) > 0
    assert received == expected


def test_tiny_ninjas_request_bytes_hide_the_opponents_hand() -> None:
    """Two worlds that differ only in one card of seat 1's hidden hand: seat 0's request bytes are the
    same in both (nothing framed or cached carries the card), seat 1's are not."""
    codec = codec_for("tiny-ninjas")
    encoder = legal_encoder(codec)
    world = get_game("tiny-ninjas").new_state(21, players=2)
    assert isinstance(world, TinyNinjasState)
    other = world.clone()
    hand, pile = other.hands[1], other.draw
    slot = next(i for i, card in enumerate(hand) if card not in other.known[1])  # a card seat 0 has not seen
    swap = next(j for j, card in enumerate(pile) if INSTANCE_TYPE[card] != INSTANCE_TYPE[hand[slot]])
    hand[slot], pile[swap] = pile[swap], hand[slot]

    def request(state: TinyNinjasState, seat: int) -> bytes:
        observation = observation_bytes(codec, state.observe(seat))
        return request_message("m1", 1, seat, observation, 1000, encoder.encode(state.legal_actions(seat)))

    assert request(world, 0) == request(other, 0)
    assert request(world, 1) != request(other, 1)


def test_a_typed_codec_must_name_a_game_of_observation() -> None:
    with pytest.raises(TypeError, match="name the game's field of Observation"):
        type("NoGameCodec", (TypedCodec,), {"oneof": "chess"})()
