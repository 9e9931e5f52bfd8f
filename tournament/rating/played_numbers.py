"""The schedule numbers a run has stored, kept as a bitmap: one bit a match, not a set of ints.

A run keeps every stored number to skip them when a round is planned again (a resume, the next
round of a Swiss) and to count progress. As a set of Python ints, 100,000 matches held ~7 MB to
the end of the run (issue 32: flat memory). Schedule numbers are dense from 0, so a bit per
number up to the largest one costs 12.5 KB there; a number far beyond what was planned (not
one of ours) is kept in a small set instead of growing the bitmap.
"""

from __future__ import annotations

from collections.abc import Iterable

# Numbers up to this many bits past the current bitmap grow it; beyond, they go to the set.
GROW_LIMIT = 1 << 20


class PlayedNumbers:
    """A set of non-negative schedule numbers: add, `in`, len."""

    def __init__(self, numbers: Iterable[int] = ()) -> None:
        self._bits = bytearray()
        self._outliers: set[int] = set()
        self._count = 0
        self.update(numbers)

    def add(self, number: int) -> None:
        """Record `number` (again: no change)."""
        self.add_new(number)

    def add_new(self, number: int) -> bool:
        """Record `number`; whether it was new (one look-up where `in` and `add` would take two: a run's
        written log asks for every match it keeps)."""
        byte, bit = divmod(number, 8)
        if number < 0 or byte >= len(self._bits) + GROW_LIMIT // 8:
            if number in self._outliers:
                return False
            self._outliers.add(number)
            self._count += 1
            return True
        if byte >= len(self._bits):
            self._bits.extend(bytes(byte + 1 - len(self._bits)))
        mask = 1 << bit
        if self._bits[byte] & mask:
            return False
        self._bits[byte] |= mask
        self._count += 1
        return True

    def update(self, numbers: Iterable[int]) -> None:
        """Record every number of `numbers`."""
        add_new = self.add_new
        for number in numbers:
            add_new(number)

    def __contains__(self, number: object) -> bool:
        if not isinstance(number, int):
            return False
        byte, bit = divmod(number, 8)
        if 0 <= byte < len(self._bits) and self._bits[byte] >> bit & 1:
            return True
        return number in self._outliers

    def __len__(self) -> int:
        return self._count
