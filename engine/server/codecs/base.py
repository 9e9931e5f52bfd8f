"""What a codec is, and the helpers every codec shares.

A codec turns one game's observation dict into the typed proto Observation and one of its
actions into a proto Action. The arena knows nothing else about a game: the referee keeps
the state, the codec only translates what a seat is shown.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, ClassVar, Protocol

import orjson
from google.protobuf.message import Message
from mypy_extensions import mypyc_attr

from tourney.engine.core import Action, Observation
from tourney.engine.server.framing import field, varint
from tourney.engine.server.generated import arena_pb2 as pb


class Codec(Protocol):
    """Translates one game's observations and actions into proto messages.

    A codec may also have `observation_bytes(obs) -> bytes`, the serialized `observation(obs)`
    (parsing to an equal message): the arena sends that instead, so a codec can frame once what
    repeats from request to request (see wire.observation_bytes).
    """

    def observation(self, obs: Observation) -> pb.Observation:
        """The typed proto of an observation dict (full dict also in the game message's `json`)."""
        ...

    def action(self, action: Action) -> pb.Action:
        """The typed proto of one legal action (its `label` always set)."""
        ...


# The stdlib encoder, built once (json.dumps with options builds one per call): the last
# resort, for what orjson refuses (integers beyond 64 bits).
_COMPACT = json.JSONEncoder(separators=(",", ":"), default=str)
# orjson is 5-7x faster on observations, which are encoded once per decision. Dataclasses and
# other unknown objects become their str(), as with the stdlib. Dict keys that are not
# strings make orjson refuse, and are retried with the (slower) option that turns them into
# strings as the stdlib does; the games' own views never have them.
_ORJSON = orjson.OPT_PASSTHROUGH_DATACLASS
_ORJSON_ANY_KEYS = _ORJSON | orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """Compact JSON; anything JSON does not know (tuples in sets, enums) falls back to str."""
    return json_bytes(value).decode()


def json_bytes(value: Any) -> bytes:
    """`dumps(value)` as UTF-8 bytes, as orjson writes them: what a proto field of an observation carries
    (no str made and encoded again, for ~3 kB a request)."""
    for options in (_ORJSON, _ORJSON_ANY_KEYS):
        try:
            return orjson.dumps(value, default=str, option=options)
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            continue
    return _COMPACT.encode(value).encode()


@mypyc_attr(allow_interpreted_subclasses=True)
class TypedCodec:
    """A game's typed codec: a subclass names its field of pb.Observation (`oneof`) and builds every
    field of its message but `json` (`typed`); the JSON of the whole dict is added here.

    `observation_bytes` is what the arena sends: the JSON (the largest field) is framed after the
    typed fields, neither copied into the typed message nor the typed message into an Observation.
    The keys are read when the codec is made, not set on the class: the codecs are compiled, and a
    compiled class's attributes cannot change after it is defined.
    """

    oneof: ClassVar[str] = ""

    def __init__(self) -> None:
        game_field = pb.Observation.DESCRIPTOR.fields_by_name.get(self.oneof)
        if game_field is None or game_field.message_type is None:
            raise TypeError(f"{type(self).__name__}.oneof is {self.oneof!r}: name the game's field of Observation, "
                            f"one of {sorted(pb.Observation.DESCRIPTOR.fields_by_name)}.")
        # The keys of the game's field in Observation, and of `json` in the game's message.
        self._oneof_tag = varint(game_field.number << 3 | 2)
        self._json_tag = varint(game_field.message_type.fields_by_name["json"].number << 3 | 2)

    def typed(self, obs: Observation) -> Message:
        """The game's observation message with every field but `json`."""
        raise NotImplementedError

    def observation(self, obs: Observation) -> pb.Observation:
        """The typed proto of an observation dict (full dict also in the game message's `json`), built as
        objects: what `observation_bytes` must parse as."""
        out = pb.Observation()
        game = getattr(out, self.oneof)
        game.CopyFrom(self.typed(obs))
        game.json = dumps(obs)
        return out

    def observation_bytes(self, obs: Observation) -> bytes:
        """`observation(obs)` serialized."""
        return self.framed(self.typed(obs).SerializeToString(), obs)

    def framed(self, typed: bytes, obs: Observation) -> bytes:
        """The Observation of the serialized typed fields `typed` and the JSON of `obs`."""
        return field(self._oneof_tag, typed + field(self._json_tag, json_bytes(obs)))


def action_fields(action: Action) -> dict[str, Any]:
    """An action as a plain dict: the game's own `to_json()` when it has one, else its dataclass fields."""
    to_json = getattr(action, "to_json", None)
    if callable(to_json):
        out = to_json()
        if isinstance(out, dict):
            return out
    if dataclasses.is_dataclass(action) and not isinstance(action, type):
        return {f.name: getattr(action, f.name) for f in dataclasses.fields(action)}
    return {}


def int_or(value: Any, default: int) -> int:
    """`value` as an int, or `default` when it is None or not a number (observations use None for 'none').

    Codecs fill proto fields with int32_or / uint32_or, which also clamp to the field's range.
    """
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    return default


_INT32_LOW, _INT32_HIGH = -(2**31), 2**31 - 1
_UINT32_HIGH = 2**32 - 1


def int32_or(value: Any, default: int) -> int:
    """Like int_or, clamped to an int32 field (times and sentinels may go beyond it, e.g. 2**62 for 'never')."""
    # A plain int in range is the common case by far: codecs call this once per field per decision.
    if type(value) is int and _INT32_LOW <= value <= _INT32_HIGH:
        return value
    return max(_INT32_LOW, min(_INT32_HIGH, int_or(value, default)))


def uint32_or(value: Any, default: int) -> int:
    """Like int_or, clamped to a uint32 field (real time's tick cap is 2**62: 'no cap')."""
    if type(value) is int and 0 <= value <= _UINT32_HIGH:
        return value
    return max(0, min(_UINT32_HIGH, int_or(value, default)))


def str_list(value: Any) -> list[str]:
    """A list of strings from a list (or nothing when the field is missing or not a list)."""
    if isinstance(value, list | tuple):
        return [v if type(v) is str else str(v) for v in value]
    return []


def int_list(value: Any) -> list[int]:
    """A list for a repeated int32 field from a list of numbers (non-numbers become 0)."""
    if isinstance(value, list | tuple):
        return [v if type(v) is int and _INT32_LOW <= v <= _INT32_HIGH else int32_or(v, 0) for v in value]
    return []


def uint_list(value: Any) -> list[int]:
    """A list for a repeated uint32 field from a list of numbers (non-numbers become 0)."""
    if isinstance(value, list | tuple):
        return [v if type(v) is int and 0 <= v <= _UINT32_HIGH else uint32_or(v, 0) for v in value]
    return []


class GenericCodec:
    """Any game without a typed message: observation and action as JSON only."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id

    def observation(self, obs: Observation) -> pb.Observation:
        return pb.Observation(generic=pb.GenericObservation(game=self.game_id, json=dumps(obs)))

    def action(self, action: Action) -> pb.Action:
        return pb.Action(
            label=action.label,
            generic=pb.GenericAction(kind=type(action).__name__, json=dumps(action_fields(action))),
        )
