"""The engine's action for a legal action as the arena sends it (its kind and JSON fields).

A learner seated on an arena gets legal actions as proto messages; its action mask needs the
engine's actions (`Encoding.action_indices`). The fields are the codec's (`action_fields`): a
dataclass's own fields in JSON, lists for tuples; Maître Ninja's are typed fields alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tourney.engine.core import Action, Game
from tourney.engine.server import pb


def _tuples(value: Any) -> Any:
    """JSON lists back to the tuples the engine's frozen actions hold."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _subclasses(cls: type[Action]) -> list[type[Action]]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


def _typed(kind: type[Action]) -> Callable[[Any], Action] | None:
    """Maître Ninja's actions travel as typed fields only (line, ka_order, row), with no JSON."""
    if kind.__name__ == "AttackLine":
        return lambda m: kind(tuple(m.line), tuple(m.ka_order))  # type: ignore[call-arg]
    if kind.__name__ == "Parry":
        return lambda m: kind(m.row[0])  # type: ignore[call-arg]
    if kind.__name__ == "ParryRow":
        return lambda m: kind(tuple(m.row))  # type: ignore[call-arg]
    return None


def engine_action(game: Game, action: pb.Action) -> Action:
    """The engine action that `action` (one entry of an ActionRequest's legal list) stands for."""
    which = action.WhichOneof("game")
    message = getattr(action, which)
    package = type(game).__module__.rsplit(".", 1)[0] + "."
    kinds = {k.__name__: k for k in _subclasses(Action) if k.__module__.startswith(package)}
    kind = kinds[message.kind]
    build = _typed(kind)
    if build is not None:
        return build(message)
    return kind(**{k: _tuples(v) for k, v in json.loads(message.json or "{}").items()})
