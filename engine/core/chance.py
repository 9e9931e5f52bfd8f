"""Seeded, named random streams, plus the test-injection hooks of the rules specs.

Every draw of chance in a match comes from a stream named for what it draws ("deal",
"dice/0", "pick/1", "tiebreak"). A stream's start is derived from (seed, name), so two
matches with the same seed and the seats swapped hand each player the other's luck: the
basis of duplicate matches. The generator is splitmix64: a single integer of state per
stream, which makes cloning a state (for search bots) a dict copy.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from mypy_extensions import i64 as i64  # exported: the games' compiled rules use machine integers too

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1  # Final: mypyc then inlines the constants instead of a global lookup per use
_GOLDEN: Final = 0x9E3779B97F4A7C15
_HALF: Final = 0xFFFFFFFF
# mypyc's ints are machine words only below 2**62, so the 64-bit formula runs on boxed big ints there;
# compiled, a draw goes through below_from_halves instead (measured 3 times faster). Interpreted, that
# version is 4 times slower than the plain formula, so only the extension (its __file__ is the .so) takes it.
_COMPILED: Final = not __file__.endswith(".py")
_HALVES_MAX_N: Final = 1 << 30  # keeps lo * n and hi * n below 2**62 in below_from_halves
_GOLDEN_HI: Final = _GOLDEN >> 32
_GOLDEN_LO: Final = _GOLDEN & _HALF


def _as_signed(state: int) -> int:
    """A 64-bit stream state as the signed integer of the same bits, as streams keep it: the compiled
    build then reads and writes it as one machine integer, with no big-integer arithmetic."""
    return state - (1 << 64) if state >> 63 else state


def _stepped(state: i64) -> tuple[i64, i64]:
    """The halves (hi, lo) of the stream state after `state` (signed, as kept), one step on: the
    state plus the golden gamma modulo 2**64, on 32-bit halves so that nothing overflows."""
    lo = (state & _HALF) + _GOLDEN_LO
    hi = ((state >> 32) + _GOLDEN_HI + (lo >> 32)) & _HALF
    return hi, lo & _HALF


def _kept(hi: i64, lo: i64) -> i64:
    """The state of halves hi and lo as kept (signed); the high half is made signed first, so the
    product stays inside an i64."""
    return (hi - ((hi >> 31) << 32)) * 4294967296 + lo


def stream_start(seed: int, name: str) -> int:
    """The 64-bit starting state of stream `name` for match seed `seed`."""
    digest = hashlib.sha256(f"{seed}/{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _xorshift(hi: i64, lo: i64, k: i64) -> tuple[i64, i64]:
    """z ^ (z >> k) for the 64-bit z = hi * 2**32 + lo, 0 < k < 32, as halves."""
    return hi ^ (hi >> k), lo ^ (lo >> k) ^ ((hi << (32 - k)) & _HALF)


def _times(hi: i64, lo: i64, k3: i64, k2: i64, k1: i64, k0: i64) -> tuple[i64, i64]:
    """z * k modulo 2**64 as halves, for z = hi * 2**32 + lo and the constant k of 16-bit digits k3..k0.

    Each product is a 32-bit half times a 16-bit digit, below 2**48, and each sum stays below 2**51, so
    nothing overflows an i64 (mypyc does not check, and an overflow there would be undefined behaviour).
    """
    a = lo * k0
    b = lo * k1
    low = (a & _HALF) + ((b & 0xFFFF) << 16)  # the low half of lo * (k1, k0), plus its carry bit
    high = (a >> 32) + (b >> 16) + (low >> 32)  # the rest of lo * (k1, k0)
    high += hi * k0 + ((hi * k1 & 0xFFFF) << 16)  # hi * (k1, k0), whose low half is all that stays
    high += lo * k2 + ((lo * k3 & 0xFFFF) << 16)  # lo * (k3, k2), likewise
    return high & _HALF, low & _HALF


def _mixed(hi: i64, lo: i64) -> tuple[i64, i64]:
    """splitmix64's output mix of the stream state hi * 2**32 + lo, as halves: the raw 64-bit value
    that state gives. On 32-bit halves every intermediate stays below 2**51, so compiled, every step
    is one machine operation on an i64 that cannot overflow."""
    hi, lo = _xorshift(hi, lo, 30)
    hi, lo = _times(hi, lo, 0xBF58, 0x476D, 0x1CE4, 0xE5B9)  # 0xBF58476D1CE4E5B9
    hi, lo = _xorshift(hi, lo, 27)
    hi, lo = _times(hi, lo, 0x94D0, 0x49BB, 0x1331, 0x11EB)  # 0x94D049BB133111EB
    return _xorshift(hi, lo, 31)


def below_from_halves(hi: i64, lo: i64, n: i64) -> i64:
    """The draw in 0..n-1 that the stream state hi * 2**32 + lo gives (0 < n < 2**30): splitmix64's
    output mix of the state, times n, over 2**64, exactly as Chance.below computes it on one int.
    """
    hi, lo = _mixed(hi, lo)
    # floor((hi * 2**32 + lo) * n / 2**64), with the low half's part floored first: the same value.
    return (hi * n + ((lo * n) >> 32)) >> 32


@dataclass
class Inject:
    """Forced chance outcomes for tests; each queue is used first, then the seeded streams.

    dice: forced die faces, in the game's own face numbering, used in roll order.
    deck_order: the initial draw pile (top first), replacing the first shuffle of "deal".
    shuffles: forced permutations; permutation p turns items into [items[i] for i in p].
    picks: forced random indices (e.g. a random card from a hand), in pick order.
    """

    dice: list[int] = field(default_factory=list)
    deck_order: list[Any] | None = None
    shuffles: list[list[int]] = field(default_factory=list)
    picks: list[int] = field(default_factory=list)

    def copy(self) -> Inject:
        return Inject(
            list(self.dice),
            None if self.deck_order is None else list(self.deck_order),
            [list(p) for p in self.shuffles],
            list(self.picks),
        )


class Chance:
    """All the randomness of one match."""

    __slots__ = ("seed", "_state", "inject")

    def __init__(self, seed: int, inject: Inject | None = None) -> None:
        self.seed = seed
        self._state: dict[str, int] = {}
        self.inject = inject.copy() if inject is not None else None

    def clone(self) -> Chance:
        twin = Chance(self.seed)
        twin._state = dict(self._state)
        twin.inject = self.inject.copy() if self.inject is not None else None
        return twin

    def reseed(self, seed: int) -> None:
        """Forget every stream's position and draw from `seed` instead (used by determinize)."""
        self.seed = seed
        self._state = {}
        self.inject = None

    def next64s(self, name: str, k: int) -> list[int]:
        """The next `k` raw 64-bit values of stream `name`, in order.

        Several at once because a deal draws dozens: one call instead of one per value.
        """
        s = self._position(name) & _MASK
        out = []
        for _ in range(k):
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            out.append(z ^ (z >> 31))
        self._state[name] = _as_signed(s)
        return out

    def next_halves(self, name: str, k: int) -> list[int]:
        """The next `k` raw 64-bit values of stream `name` as 2k 32-bit halves, each value's high half
        first: `next64s(name, k)` split. Compiled, the stream stays in machine integers (next64s works
        on big integers there), so a deal that needs 32-bit draws takes them from here."""
        if not _COMPILED:
            out = []
            for x in self.next64s(name, k):
                out.append(x >> 32)
                out.append(x & _HALF)
            return out
        kept: i64 = self._position(name)
        halves: list[int] = []
        for _ in range(k):
            hi, lo = _stepped(kept)
            kept = _kept(hi, lo)
            hi, lo = _mixed(hi, lo)
            halves.append(hi)
            halves.append(lo)
        self._state[name] = kept
        return halves

    def _position(self, name: str) -> int:
        """Stream `name`'s state as kept (signed), its start if it has not drawn yet."""
        s = self._state.get(name)
        return _as_signed(stream_start(self.seed, name)) if s is None else s

    def below(self, name: str, n: int) -> int:
        """A uniform integer in 0..n-1 from stream `name` (bias below 2**-50 for any n used here)."""
        # One next64s value, inlined: dice are drawn in every playout's inner loop.
        if _COMPILED and 0 < n < _HALVES_MAX_N:
            hi, lo = _stepped(self._position(name))
            self._state[name] = _kept(hi, lo)
            return below_from_halves(hi, lo, n)
        s = (self._position(name) + _GOLDEN) & _MASK
        self._state[name] = _as_signed(s)
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((s ^ (s >> 31)) * n) >> 64

    def _draws(self, name: str, count: int, first: int, step: int, offset: int = 0) -> list[int]:
        """`count` draws of stream `name`, the k-th in 0..first + k * step - 1 (plus `offset`): what as many
        `below` calls give one after another, with the stream's state read and written once (a roll of
        several dice or a shuffle is one call, and compiled, the state stays in machine integers between
        draws)."""
        if count <= 0:
            return []
        s = self._position(name)
        out: list[int] = []
        last = first + (count - 1) * step
        if _COMPILED and 0 < first < _HALVES_MAX_N and 0 < last < _HALVES_MAX_N:
            n: i64 = first
            kept: i64 = s
            shift: i64 = offset
            for _ in range(count):
                hi, lo = _stepped(kept)
                out.append(below_from_halves(hi, lo, n) + shift)
                kept = _kept(hi, lo)
                n += step
            self._state[name] = kept
            return out
        s &= _MASK
        m = first
        for _ in range(count):
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            out.append((((z ^ (z >> 31)) * m) >> 64) + offset)
            m += step
        self._state[name] = _as_signed(s)
        return out

    def roll(self, name: str, sides: int) -> int:
        """One die: a face in 1..sides, or the next injected face."""
        inj = self.inject
        if inj is not None and inj.dice:
            return inj.dice.pop(0)
        return self.below(name, sides) + 1

    def rolls(self, name: str, sides: int, count: int) -> list[int]:
        """`count` dice in one call: the faces `count` calls of `roll(name, sides)` give, injected ones
        first."""
        inj = self.inject
        if inj is not None and inj.dice:
            return [self.roll(name, sides) for _ in range(count)]
        return self._draws(name, count, sides, 0, 1)  # a face is the draw in 0..sides-1, plus one

    def pick(self, name: str, n: int) -> int:
        """A uniform index in 0..n-1 (e.g. a random card from a hand), or the next injected pick."""
        inj = self.inject
        if inj is not None and inj.picks:
            forced = inj.picks.pop(0)
            if not 0 <= forced < n:
                raise ValueError(f"injected pick {forced} is outside 0..{n - 1}")
            return forced
        return self.below(name, n)

    def shuffled(self, name: str, items: Sequence[T]) -> list[T]:
        """A uniformly shuffled copy of items (Fisher-Yates), or the next injected permutation."""
        inj = self.inject
        if inj is not None and inj.shuffles:
            perm = inj.shuffles.pop(0)
            if sorted(perm) != list(range(len(items))):
                raise ValueError(f"injected shuffle {perm} is not a permutation of {len(items)} items")
            return [items[i] for i in perm]
        out = list(items)
        # Fisher-Yates from the top: item i swaps with a draw in 0..i, for i = len - 1 down to 1.
        picks = self._draws(name, len(out) - 1, len(out), -1)
        for k in range(len(picks)):
            i = len(out) - 1 - k
            j = picks[k]
            out[i], out[j] = out[j], out[i]
        return out

    def initial_order(self, name: str, items: Sequence[T]) -> list[T]:
        """The opening order of a deck: the injected deck_order if any, else a shuffle."""
        inj = self.inject
        if inj is not None and inj.deck_order is not None:
            order = list(inj.deck_order)
            inj.deck_order = None
            return order
        return self.shuffled(name, items)
