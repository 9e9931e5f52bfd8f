"""ActionRequests as bytes, written by hand: the arena's hottest path.

An ActionRequest is sent once per decision, and its legal list can be long (a Maître Ninja
defender can have ~35,000 rows). Building protobuf objects for it costs more than the game
step, so the legal rows are encoded once per distinct action and the request is framed
around them (see framing.py for why the bytes parse as the generated stub's message).
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Sequence

from tourney.engine.core import Action, Observation
from tourney.engine.server.codecs import Codec, GenericCodec, TypedCodec
from tourney.engine.server.codecs.base import json_bytes
from tourney.engine.server.framing import field, tag, varint
from tourney.engine.server.generated import arena_pb2 as pb

_ACTION_REQUEST_TAG = tag(pb.ArenaMessage, "action_request", True)
_MATCH_ID_TAG = tag(pb.ActionRequest, "match_id", True)
_REQUEST_ID_TAG = tag(pb.ActionRequest, "request_id", False)
_SEAT_TAG = tag(pb.ActionRequest, "seat", False)
_OBSERVATION_TAG = tag(pb.ActionRequest, "observation", True)
_DEADLINE_TAG = tag(pb.ActionRequest, "deadline_ms", False)
_LEGAL_TAG = tag(pb.ActionRequest, "legal_actions", True)
_STARTED_TAG = tag(pb.ActionRequest, "started", True)
_GENERIC_TAG = tag(pb.Observation, "generic", True)
_GAME_TAG = tag(pb.GenericObservation, "game", True)
_JSON_TAG = tag(pb.GenericObservation, "json", True)


class LegalEncoder:
    """Legal lists as ready-to-send bytes (ActionRequest field 5, one entry per action).

    Encoding is the arena's hot path: a Maître Ninja defender can have ~35,000 legal rows.
    Each distinct action is encoded once (actions are frozen, so equal actions encode
    equally), found again by identity before equality, and an immutable legal sequence
    returned again by the game is reused whole.
    """

    def __init__(self, codec: Codec, max_actions: int = 200_000, max_lists: int = 64,
                 max_by_id: int = 8192) -> None:
        self.codec = codec
        self.max_actions = max_actions
        self.max_lists = max_lists
        self._actions: dict[Action, bytes] = {}
        # The same by identity: the games hand out the same action objects again and again (Tiny
        # Ninjas ~97%), and an int's hash is free where a dataclass's __hash__ is Python code.
        self.max_by_id = max_by_id
        self._by_id: dict[int, tuple[Action, bytes]] = {}
        self._lists: OrderedDict[int, tuple[Sequence[Action], bytes]] = OrderedDict()

    def encode(self, legal: Sequence[Action]) -> bytes:
        """The framed bytes of every action of `legal`, in order."""
        key = id(legal)
        hit = self._lists.get(key)
        if hit is not None and hit[0] is legal:
            return hit[1]
        parts = []
        cache = self._actions
        by_id = self._by_id
        for action in legal:
            seen = by_id.get(id(action))
            if seen is not None and seen[0] is action:
                parts.append(seen[1])
                continue
            try:
                data = cache.get(action)
            except TypeError:  # an unhashable action: encode it every time
                parts.append(field(_LEGAL_TAG, self.codec.action(action).SerializeToString()))
                continue
            if data is None:
                data = field(_LEGAL_TAG, self.codec.action(action).SerializeToString())
                if len(cache) < self.max_actions:
                    cache[action] = data
            if len(by_id) >= self.max_by_id:  # a game that makes its actions anew churns through it
                by_id.clear()
            by_id[id(action)] = (action, data)  # held, so its id is not reused while it is here
            parts.append(data)
        out = b"".join(parts)
        # Only immutable sequences may be reused by identity (a list could change in place).
        if len(legal) >= 32 and not isinstance(legal, list):
            self._lists[key] = (legal, out)
            while len(self._lists) > self.max_lists:
                self._lists.popitem(last=False)
        return out


_ENCODERS: dict[int, LegalEncoder] = {}


def legal_encoder(codec: Codec) -> LegalEncoder:
    """The shared encoder of one codec (one per game)."""
    encoder = _ENCODERS.get(id(codec))
    if encoder is None or encoder.codec is not codec:
        encoder = _ENCODERS[id(codec)] = LegalEncoder(codec)
    return encoder


def observation_bytes(codec: Codec, obs: Observation, typed: bool = True) -> bytes:
    """The serialized proto Observation of `obs`: a generic (JSON-only) one framed here, a codec's own
    `observation_bytes` when it has one (it frames what repeats from request to request once). Not
    `typed` (Hello.json_view_only): a typed codec's message with its `json` alone."""
    if isinstance(codec, GenericCodec):
        return field(_GENERIC_TAG, field(_GAME_TAG, codec.game_id.encode()) + field(_JSON_TAG, json_bytes(obs)))
    if not typed and isinstance(codec, TypedCodec):
        return codec.framed(b"", obs)
    framed = getattr(codec, "observation_bytes", None)
    data: bytes = framed(obs) if framed is not None else codec.observation(obs).SerializeToString()
    return data


@functools.lru_cache(maxsize=1024)
def _match_field(match_id: str) -> bytes:
    return field(_MATCH_ID_TAG, match_id.encode())  # the same for every request of a match


@functools.lru_cache(maxsize=256)
def _deadline_field(deadline_ms: int) -> bytes:
    return _DEADLINE_TAG + varint(deadline_ms)  # one per time control, in practice


def request_message(match_id: str, request_id: int, seat: int, observation: bytes, deadline_ms: int,
                    legal: bytes, started: bytes = b"") -> bytes:
    """The bytes of ArenaMessage{action_request: ActionRequest{...}}; legal as LegalEncoder gives it, and
    `started` the serialized MatchStarted the request carries (empty: none)."""
    body = b"".join((_match_field(match_id), _REQUEST_ID_TAG, varint(request_id), _SEAT_TAG, varint(seat),
                     _OBSERVATION_TAG, varint(len(observation)), observation, _deadline_field(deadline_ms),
                     legal, field(_STARTED_TAG, started) if started else b""))
    return field(_ACTION_REQUEST_TAG, body)
