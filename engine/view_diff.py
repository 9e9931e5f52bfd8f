"""The change from one JSON view to the next, and back: how a public replay is sent as events.

A public replay is one public view per step, and most of a view does not move in a step (a long
match's views repeat the whole event log each time), so it is sent as the first view and then
each step's change. A change is plain JSON, built from the two views alone, so it tells nothing
the views do not:
- ["v", value]: the new value, whole;
- ["d", {key: change}, [removed keys]]: a dict with these keys changed, added or removed;
- ["i", {index: change}]: a list of the same length with these items changed;
- ["l", kept, [items]]: a list that keeps its first `kept` items and then has `items`.
"""

from __future__ import annotations

from typing import Any

Change = list[Any]


def change(old: Any, new: Any) -> Change:
    """The change that turns `old` into `new` (both JSON data: dicts, lists, scalars)."""
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {key: change(old[key], value) if key in old else ["v", value]
                   for key, value in new.items() if key not in old or old[key] != value}
        return ["d", changed, [key for key in old if key not in new]]
    if isinstance(old, list) and isinstance(new, list) and old:
        if len(old) == len(new):
            return ["i", {str(i): change(a, b) for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b}]
        kept = 0
        for a, b in zip(old, new, strict=False):
            if a != b:
                break
            kept += 1
        if kept:
            return ["l", kept, new[kept:]]
    return ["v", new]


def applied(old: Any, step: Change) -> Any:
    """`old` with `step` applied: a new value (`old` itself is left as it was)."""
    kind = step[0]
    if kind == "v":
        return step[1]
    if kind == "d":
        out = {key: value for key, value in old.items() if key not in step[2]}
        for key, sub in step[1].items():
            out[key] = applied(old[key], sub) if key in old else applied(None, sub)
        return out
    if kind == "i":
        out_list = list(old)
        for index, sub in step[1].items():
            out_list[int(index)] = applied(old[int(index)], sub)
        return out_list
    if kind == "l":
        return list(old[:step[1]]) + list(step[2])
    raise ValueError(f"unknown change kind {kind!r}")
