"""Ninja Arena: the whole table typed (every player's board, dice and tokens) plus the seat's summary."""

from __future__ import annotations

from typing import Any

from tourney.engine.core import Action, Observation
from tourney.engine.server.codecs.base import (
    TypedCodec,
    action_fields,
    dumps,
    int32_or,
    str_list,
    uint32_or,
    uint_list,
)
from tourney.engine.server.framing import field, tag
from tourney.engine.server.generated import arena_pb2 as pb


def _player(p: Any) -> pb.NinjaArenaPlayer:
    if not isinstance(p, dict):
        return pb.NinjaArenaPlayer()
    cube_bottom = p.get("cube_bottom")
    return pb.NinjaArenaPlayer(
        seat=uint32_or(p.get("seat"), 0),
        character=str(p.get("character") or ""),
        bottom=str(p.get("bottom") or ""),
        side=str(p.get("side") or ""),
        cube=int32_or(p.get("cube"), -1),
        cube_bottom=int32_or(cube_bottom, -1),
        recovered=bool(p.get("recovered")),
        eliminated=bool(p.get("eliminated")),
        pool=int32_or(p.get("pool"), 0),
        power_active=bool(p.get("power_active")),
        dice=str(p.get("dice") or ""),
        stitched_until=int32_or(p.get("stitched_until"), 0),
        byakugan_left=int32_or(p.get("byakugan_left"), 0),
        fan=int32_or(p.get("fan"), 0),
        gate_tokens=int32_or(p.get("gate_tokens"), 0),
        sand_shield=int32_or(p.get("sand_shield"), 0),
        out_time=int32_or(p.get("out_time"), 0),
    )


_PLAYERS_TAG = tag(pb.NinjaArenaObservation, "players", True)
# Players' boards as framed bytes, by content. Only the boards of the last few ticks of the matches
# being played are asked for again (random 4-player play: 3 of 4 boards are found), so 1,024 boards
# (about 1.3 MB with their keys) are plenty; past that the cache starts over.
MAX_CACHED_PLAYERS = 1024


class NinjaArenaCodec(TypedCodec):
    """Typed fields for the table and the seat's summary; the full dict in `json`.

    Every request shows every player's board (17 fields each), and most boards are as they were
    at the last request, so `observation_bytes` frames each board once per distinct content.
    """

    oneof = "ninja_arena"

    def __init__(self) -> None:
        super().__init__()
        self._players: dict[tuple[tuple[str, Any], ...], bytes] = {}

    def typed(self, obs: Observation) -> pb.NinjaArenaObservation:
        """Every field but `json` (see TypedCodec)."""
        players = obs.get("players")
        message = self._table(obs)
        if isinstance(players, list):
            message.players.extend(_player(p) for p in players)
        return message

    def observation_bytes(self, obs: Observation) -> bytes:
        """`observation(obs)` serialized, each player's board taken from the cache when it was seen."""
        players = obs.get("players")
        parts = [self._table(obs).SerializeToString()]
        if isinstance(players, list):
            parts.extend(self._player_bytes(p) for p in players)
        return self.framed(b"".join(parts), obs)

    def _player_bytes(self, p: Any) -> bytes:
        """One board as a framed `players` entry; the same content always gives the same bytes."""
        try:
            key = tuple(p.items())
            data = self._players.get(key)
        except (AttributeError, TypeError):  # not a dict, or a value that cannot be a key
            return field(_PLAYERS_TAG, _player(p).SerializeToString())
        if data is None:
            data = field(_PLAYERS_TAG, _player(p).SerializeToString())
            if len(self._players) >= MAX_CACHED_PLAYERS:
                self._players.clear()
            self._players[key] = data
        return data

    @staticmethod
    def _table(obs: Observation) -> pb.NinjaArenaObservation:
        """Every field but the players' boards and `json`."""
        summary = obs.get("summary")
        summary = summary if isinstance(summary, dict) else {}
        return pb.NinjaArenaObservation(
            seat=uint32_or(obs.get("seat"), 0),
            tick=uint32_or(obs.get("tick", obs.get("t")), 0),
            mode=str(obs.get("mode", "")),
            tick_cap=uint32_or(obs.get("tick_cap"), 0),
            over=bool(obs.get("over")),
            shadow_token=str(obs.get("shadow_token", "")),
            pending_switch=int32_or(obs.get("pending_switch"), -1),
            satisfiable=str_list(summary.get("satisfiable")),
            hit_is_claim=bool(summary.get("hit_is_claim")),
            roll_blocked=bool(summary.get("roll_blocked")),
            dice_masks=uint_list(summary.get("dice_masks")),
        )

    def action(self, action: Action) -> pb.Action:
        fields = action_fields(action)
        allocation = fields.get("allocation")
        return pb.Action(label=action.label, ninja_arena=pb.NinjaArenaAction(
            kind=type(action).__name__,
            dice=uint_list(fields.get("dice")),
            stream_target=int32_or(fields.get("stream_target"), -1),
            technique=str(fields.get("technique", "")),
            target=int32_or(fields.get("target"), -1),
            allocation=[pb.NinjaArenaAllocation(seat=seat, tokens=tokens)
                        for seat, tokens in (uint_list(pair) for pair in allocation)
                        ] if isinstance(allocation, list | tuple) else [],
            bonus_target=int32_or(fields.get("bonus_target"), -1),
            from_shield=uint32_or(fields.get("from_shield"), 0),
            swap=bool(fields.get("switch", False)),
            json=dumps(fields),
        ))
