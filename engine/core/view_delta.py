"""The note that ends a view sent under Hello.view_delta: which of its lists holds only its newest items."""

from __future__ import annotations

from typing import Any


def view_delta(key: str, at: int, first: int) -> dict[str, Any]:
    """The view's `view_delta` entry: list `key` holds only its items numbered from `at` on (the seat was
    sent the earlier ones before), and the whole view's list starts at item number `first` (the items
    before it fell out of the game's window)."""
    return {"list": key, "at": at, "first": first}
