"""How values become column text: compact JSON for the *_json columns, packed replays."""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Mapping
from typing import Any


def dumps(value: Any) -> str:
    """Compact, stable JSON for the *_json columns."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def loads(text: str) -> dict[str, Any]:
    """A *_json column's object."""
    value: dict[str, Any] = json.loads(text)
    return value


def pack_replay(replay: Mapping[str, Any]) -> str:
    """A replay as compact JSON, zlib-compressed and base64-encoded ("z:" prefix): 5-10x smaller."""
    return "z:" + base64.b64encode(zlib.compress(dumps(replay).encode(), 6)).decode()


def unpack_replay(text: str) -> dict[str, Any]:
    """The replay dict from a stored replay column (compressed or plain JSON)."""
    if text.startswith("z:"):
        text = zlib.decompress(base64.b64decode(text[2:])).decode()
    return loads(text)
