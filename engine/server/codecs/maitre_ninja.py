"""Maître Ninja: observation (ranks, roles, own hidden lines) and attack lines / the row's next parry."""

from __future__ import annotations

from typing import Any

from tourney.engine.core import Action, Observation
from tourney.engine.server.codecs import TypedCodec
from tourney.engine.server.codecs.base import action_fields, int32_or, int_list, str_list, uint32_or, uint_list
from tourney.engine.server.generated import arena_pb2 as pb


def _hidden(entry: Any) -> pb.MaitreHiddenLine:
    if not isinstance(entry, dict):
        return pb.MaitreHiddenLine()
    return pb.MaitreHiddenLine(
        fight=uint32_or(entry.get("fight"), 0),
        line=str_list(entry.get("line")),
        ka_order=str_list(entry.get("ka_order")),
    )


class MaitreNinjaCodec(TypedCodec):
    """Typed fields for what a Maître Ninja seat sees; the full dict in `json`."""

    oneof = "maitre_ninja"

    def typed(self, obs: Observation) -> pb.MaitreNinjaObservation:
        """Every field but `json` (see TypedCodec)."""
        hidden = obs.get("my_hidden")
        return pb.MaitreNinjaObservation(
            seat=uint32_or(obs.get("seat"), 0),
            n_players=uint32_or(obs.get("n_players"), 0),
            ranks=int_list(obs.get("ranks")),
            attacks_made=uint_list(obs.get("attacks_made")),
            phase=str(obs.get("phase", "")),
            fight_number=uint32_or(obs.get("fight_number"), 0),
            attacker=int32_or(obs.get("attacker"), -1),
            defender=int32_or(obs.get("defender"), -1),
            attacker_rank=int32_or(obs.get("attacker_rank"), -1),
            parries=int32_or(obs.get("parries"), -1),
            role=str(obs.get("role", "")),
            my_hidden=[_hidden(h) for h in hidden] if isinstance(hidden, list) else [],
            fight_cap=uint32_or(obs.get("fight_cap"), 0),
            elements=str_list(obs.get("elements")),
        )

    def action(self, action: Action) -> pb.Action:
        fields = action_fields(action)
        return pb.Action(label=action.label, maitre_ninja=pb.MaitreNinjaAction(
            kind=type(action).__name__,
            line=str_list(fields.get("line", fields.get("cards"))),
            ka_order=str_list(fields.get("ka_order")),
            # A Parry (the defender's row is laid card by card) is kind "Parry" with its one card in row.
            row=str_list(fields.get("row")),
            # No `json`: the typed fields are the whole action.
        ))
