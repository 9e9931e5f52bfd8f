"""Ninja Versus Ninja: the board (both sides' squares), scores, dice; moves as from + path."""

from __future__ import annotations

from tourney.engine.core import Action, Observation
from tourney.engine.server.codecs import TypedCodec
from tourney.engine.server.codecs.base import action_fields, dumps, int32_or, int_list, str_list, uint32_or, uint_list
from tourney.engine.server.generated import arena_pb2 as pb


class NinjaVersusNinjaCodec(TypedCodec):
    """Typed fields for the perfect-information board; the full dict in `json`."""

    oneof = "ninja_versus_ninja"

    def typed(self, obs: Observation) -> pb.NinjaVersusNinjaObservation:
        """Every field but `json` (see TypedCodec)."""
        ninjas = obs.get("ninjas")
        sides = ninjas if isinstance(ninjas, list) and len(ninjas) == 2 else [[], []]
        return pb.NinjaVersusNinjaObservation(
            seat=uint32_or(obs.get("seat"), 0),
            black_ninjas=str_list(sides[0]),
            red_ninjas=str_list(sides[1]),
            score=int_list(obs.get("score")),
            shadow=int_list(obs.get("shadow")),
            to_move=int32_or(obs.get("to_move"), -1),
            turn_number=uint32_or(obs.get("turn_number"), 0),
            roll=uint_list(obs.get("roll")),
            target_score=uint32_or(obs.get("target_score"), 0),
            turn_cap=uint32_or(obs.get("turn_cap"), 0),
        )

    def action(self, action: Action) -> pb.Action:
        fields = action_fields(action)
        return pb.Action(label=action.label, ninja_versus_ninja=pb.NinjaVersusNinjaAction(
            kind=type(action).__name__,
            **{"from": str(fields.get("frm", ""))},
            path=str_list(fields.get("path")),
            uses_reversal=bool(fields.get("uses_reversal", False)),
            depth=uint32_or(fields.get("depth"), 0),
            json=dumps(fields),
        ))
