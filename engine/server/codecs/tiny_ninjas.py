"""Tiny Ninjas: health, own hand (names and instance ids), piles; card actions by kind."""

from __future__ import annotations

from tourney.engine.core import Action, Observation
from tourney.engine.server.codecs import TypedCodec
from tourney.engine.server.codecs.base import action_fields, dumps, int32_or, int_list, str_list, uint32_or, uint_list
from tourney.engine.server.generated import arena_pb2 as pb


class TinyNinjasCodec(TypedCodec):
    """Typed fields for a Tiny Ninjas seat's view; the full dict in `json`."""

    oneof = "tiny_ninjas"

    def typed(self, obs: Observation) -> pb.TinyNinjasObservation:
        """Every field but `json` (see TypedCodec)."""
        return pb.TinyNinjasObservation(
            seat=uint32_or(obs.get("seat"), 0),
            mode=str(obs.get("mode", "")),
            phase=str(obs.get("phase", "")),
            round=uint32_or(obs.get("round"), 0),
            attacker=uint32_or(obs.get("attacker"), 0),
            defender=uint32_or(obs.get("defender"), 0),
            health=int_list(obs.get("health")),
            max_health=int_list(obs.get("max_health")),
            hand=str_list(obs.get("hand")),
            hand_ids=uint_list(obs.get("hand_ids")),
            hand_sizes=uint_list(obs.get("hand_sizes")),
            draw_pile_size=uint32_or(obs.get("draw_pile_size"), 0),
            discard_pile=str_list(obs.get("discard_pile")),
        )

    def action(self, action: Action) -> pb.Action:
        fields = action_fields(action)
        return pb.Action(label=action.label, tiny_ninjas=pb.TinyNinjasAction(
            kind=type(action).__name__,
            card=int32_or(fields.get("card"), -1),
            tokens=str_list(fields.get("tokens")),
            mode=str(fields.get("mode", "")),
            yellow=bool(fields.get("yellow", False)),
            attack_first=bool(fields.get("attack_first", False)),
            option=str(fields.get("option", "")),
            json=dumps(fields),
        ))
