"""A well-behaved bot's match as a flood's test checks it: the moves it makes on a quiet arena."""

from __future__ import annotations

import json

from tourney.engine.server.generated import arena_pb2 as pb


def moves(record: pb.MatchRecord) -> list[list[list[int]]]:
    """The (seat, action) of every decision of a record's replay, without its think times (which differ)."""
    return [[decision[:2] for decision in step] for step in json.loads(record.replay_json)["steps"]]
