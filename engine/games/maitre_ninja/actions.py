"""The two commitments of a fight and their legal lists (spec §3.1).

The defender lays its row card by card (§3.1 allows it): each decision is one `Parry` among
the types still in supply, at most 3 options, so no request lists the 34,650 rows of rank 4.
An attacker's legal list is small (at most 162 lines) and kept as a tuple per rank. A
defender's list reaches 34,650 rows at rank 4, so `RowList` is a lazy sequence: row number i is
computed by counting (the same lexicographic order as listing them all), and `index(row)` is
the inverse. One RowList exists per (row length, supply); states hand out that same object.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from math import factorial
from typing import ClassVar, overload

from tourney.engine.core import Action
from tourney.engine.games.maitre_ninja.data import ATTACK_LEVELS, KATANA, KATANA_ORDERS, PARRY_TYPES, line_size


@dataclass(frozen=True, slots=True)
class AttackLine(Action):
    """A face-down attack line in level order; `ka_order` is the Katana's attack-parries (rank 4)."""

    secret: ClassVar[bool] = True
    cards: tuple[str, ...]
    ka_order: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        text = "-".join(self.cards)
        if self.ka_order:
            text += "(" + ",".join(self.ka_order) + ")"
        return text

    def to_json(self) -> dict[str, list[str]]:
        """The spec's encoding: {"line": [...], "ka_order": [...]}."""
        return {"line": list(self.cards), "ka_order": list(self.ka_order)}


@dataclass(frozen=True, slots=True)
class ParryRow(Action):
    """A face-up row of parry cards, left to right."""

    row: tuple[str, ...]

    @property
    def label(self) -> str:
        return " ".join(self.row)

    def to_json(self) -> dict[str, list[str]]:
        """The spec's encoding: {"row": [...]}."""
        return {"row": list(self.row)}


@dataclass(frozen=True, slots=True)
class Parry(Action):
    """The next card of the defender's row, laid left to right (nothing is shown until the row is complete)."""

    secret: ClassVar[bool] = True
    parry: str

    @property
    def label(self) -> str:
        return f"parry {self.parry}"

    def to_json(self) -> dict[str, list[str]]:
        """The row's next card, as a one-card row: {"row": ["DO"]}."""
        return {"row": [self.parry]}


PARRIES: tuple[Parry, ...] = tuple(Parry(t) for t in PARRY_TYPES)


@cache
def next_parries(laid: tuple[str, ...], length: int, caps: tuple[int, ...]) -> tuple[Parry, ...]:
    """The parries that may follow `laid` in a row of `length` under supply `caps` (DO, BL, JU).

    A type is offered while its pile lasts and the row can still be completed after it.
    """
    left = [cap - laid.count(t) for t, cap in zip(PARRY_TYPES, caps, strict=True)]
    after = length - len(laid) - 1
    return tuple(p for t, p in enumerate(PARRIES) if left[t] > 0 and sum(left) - 1 >= after)


@cache
def attack_lines(rank: int) -> tuple[AttackLine, ...]:
    """Every line a rank-`rank` attacker may lay: one card per level, then a Katana order at rank 4."""
    levels = ATTACK_LEVELS[: line_size(rank)]
    out: list[AttackLine] = []
    for cards in product(*levels):
        if KATANA in cards:
            out.extend(AttackLine(cards, order) for order in KATANA_ORDERS)
        else:
            out.append(AttackLine(cards))
    return tuple(out)


@cache
def attack_line_index(rank: int) -> dict[AttackLine, int]:
    """Position of each legal line of `rank` in `attack_lines(rank)`."""
    return {line: i for i, line in enumerate(attack_lines(rank))}


@cache
def count_rows(length: int, caps: tuple[int, ...]) -> int:
    """How many rows of `length` parries use at most caps[t] cards of each type t."""
    total = 0

    def split(t: int, left: int, denominator: int) -> None:
        nonlocal total
        if t == len(caps) - 1:
            if left <= caps[t]:
                total += factorial(length) // (denominator * factorial(left))
            return
        for k in range(min(caps[t], left) + 1):
            split(t + 1, left - k, denominator * factorial(k))

    split(0, length, 1)
    return total


class RowList(Sequence[ParryRow]):
    """All legal parry rows of one length under one supply, in lexicographic type order, lazily."""

    __slots__ = ("length", "caps", "_len")

    def __init__(self, length: int, caps: tuple[int, ...]) -> None:
        self.length = length
        self.caps = caps
        self._len = count_rows(length, caps)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> ParryRow: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[ParryRow]: ...
    def __getitem__(self, i: int | slice) -> ParryRow | Sequence[ParryRow]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("row index out of range")
        caps = list(self.caps)
        row = []
        for pos in range(self.length - 1, -1, -1):
            # Skip whole blocks of rows that start with an earlier type at this position.
            for t, name in enumerate(PARRY_TYPES):
                if caps[t] == 0:
                    continue
                caps[t] -= 1
                block = count_rows(pos, tuple(caps))
                if i < block:
                    row.append(name)
                    break
                i -= block
                caps[t] += 1
        return ParryRow(tuple(row))

    def __iter__(self) -> Iterator[ParryRow]:
        for row in iter_rows(self.length, self.caps):
            yield ParryRow(row)

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, ParryRow) or len(value.row) != self.length:
            return False
        for t, name in enumerate(PARRY_TYPES):
            if value.row.count(name) > self.caps[t]:
                return False
        return all(p in PARRY_TYPES for p in value.row)

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """Position of a row in this list (the inverse of indexing); ValueError if it is illegal."""
        if value not in self:
            raise ValueError(f"{value!r} is not a legal parry row")
        assert isinstance(value, ParryRow)
        caps = list(self.caps)
        i = 0
        for pos, name in zip(range(self.length - 1, -1, -1), value.row, strict=True):
            chosen = PARRY_TYPES.index(name)
            for t in range(chosen):
                if caps[t]:
                    caps[t] -= 1
                    i += count_rows(pos, tuple(caps))
                    caps[t] += 1
            caps[chosen] -= 1
        if not start <= i < (self._len if stop is None else stop):
            raise ValueError(f"{value!r} is not in the requested slice")
        return i

    def count(self, value: object) -> int:
        return 1 if value in self else 0

    def __repr__(self) -> str:
        return f"RowList(length={self.length}, caps={self.caps}, len={self._len})"


def iter_rows(length: int, caps: tuple[int, ...]) -> Iterator[tuple[str, ...]]:
    """Every legal row as a tuple of type names, in RowList order (fast, no counting)."""
    left = list(caps)
    row: list[str] = []

    def rec(pos: int) -> Iterator[tuple[str, ...]]:
        if pos == length:
            yield tuple(row)
            return
        for t, name in enumerate(PARRY_TYPES):
            if left[t]:
                left[t] -= 1
                row.append(name)
                yield from rec(pos + 1)
                row.pop()
                left[t] += 1

    return rec(0)


@cache
def parry_rows(length: int, caps: tuple[int, ...]) -> RowList:
    """The shared lazy list of legal rows for a row length and a per-type supply (DO, BL, JU)."""
    return RowList(length, caps)
