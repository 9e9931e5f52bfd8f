"""A public record is events, not a frame per step: about the size of what happened, rebuilt by the reader."""

from __future__ import annotations

import json
import random
from typing import Any

from tests.server.harness import WAIT_S, ArenaHarness
from tourney.engine.public_replay import frames_of, public_frames
from tourney.engine.referee import Replay
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.view_diff import applied, change

ADMIN = "organiser-secret"


def test_a_long_match_public_record_is_small_and_rebuilds_every_frame() -> None:
    harness = ArenaHarness(ArenaConfig(allow_anonymous=True, admin_token=ADMIN))
    try:
        record = harness.run_match("tiny-ninjas", ["greedy", "greedy"], seed=7, admin_token=ADMIN,
                                   config_json=json.dumps({"mode": "champion"}), match_id="long")
        public = harness.stub.GetMatch(pb.GetMatchRequest(match_id="long"), timeout=WAIT_S)
        frames = json.loads(json.dumps(public_frames(Replay.from_dict(json.loads(record.replay_json)))))
        assert len(frames) > 300  # a long match: the case that cost 9.5 MB as a frame per step
        assert frames_of(json.loads(public.replay_json)) == frames
        # The frames themselves are many MB; the record of their changes is a small multiple of the
        # organiser's full record (which holds only the decisions).
        assert len(public.replay_json) * 50 < len(json.dumps(frames))
        assert len(public.SerializeToString()) < 40 * len(record.SerializeToString())
    finally:
        harness.close()


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(5 if depth < 3 else 3)
    if kind == 0:
        return rng.randrange(4)
    if kind == 1:
        return rng.choice(["a", "b", None, True])
    if kind == 2:
        return rng.random() < 0.5
    if kind == 3:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice("xyz"): _random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def test_a_change_turns_any_json_view_into_the_next() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        old, new = _random_json(rng), _random_json(rng)
        before = json.dumps(old)
        step = json.loads(json.dumps(change(old, new)))  # it crosses the wire as JSON
        assert applied(old, step) == new
        assert json.dumps(old) == before  # the view before is left as it was
    # A list that only grew is sent as what it gained.
    assert change({"log": [1, 2, 3]}, {"log": [1, 2, 3, 4]}) == ["d", {"log": ["l", 3, [4]]}, []]
