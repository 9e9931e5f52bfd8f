"""Ninja Arena: the seat and tick typed; the table (boards, dice, pools) in `json` for now."""

from __future__ import annotations

from engine.core import Action, Observation
from engine.server.codecs.base import action_fields, dumps, int_or
from engine.server.generated import arena_pb2 as pb


class NinjaArenaCodec:
    """The engine is still being written: seat and tick typed, everything else as JSON."""

    def observation(self, obs: Observation) -> pb.Observation:
        return pb.Observation(ninja_arena=pb.NinjaArenaObservation(
            seat=max(0, int_or(obs.get("seat"), 0)),
            tick=max(0, int_or(obs.get("tick", obs.get("t")), 0)),
            json=dumps(obs),
        ))

    def action(self, action: Action) -> pb.Action:
        return pb.Action(label=action.label, ninja_arena=pb.NinjaArenaAction(
            kind=type(action).__name__, json=dumps(action_fields(action)),
        ))
