"""The rules of one fight and of the match around it, in the order of play (spec §3, §4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tourney.engine.games.maitre_ninja.actions import AttackLine
from tourney.engine.games.maitre_ninja.data import KATANA, MAITRE, PARRY_CODE


def codes_of(line: AttackLine) -> list[tuple[str, ...]]:
    """The parry code of each attack card in the line; the Katana's is its attack-parry order."""
    return [line.ka_order if card == KATANA else PARRY_CODE[card] for card in line.cards]


@dataclass(frozen=True, slots=True)
class CardResult:
    """What happened to one flipped attack card: the parries burned before it, then its fate.

    parried_at is the row position where its code was matched, or None when the defender ran
    dry on it (then `burned` includes every card left in the row).
    """

    burned: tuple[int, ...]
    parried_at: int | None


@dataclass(frozen=True, slots=True)
class Resolution:
    """The trace of §3.2: one CardResult per flipped card, the winner, and the cards left unused."""

    cards: tuple[CardResult, ...]
    attacker_wins: bool
    unused: tuple[int, ...]

    @property
    def revealed(self) -> int:
        """How many attack cards were flipped (the rest stay face down forever)."""
        return len(self.cards)

    @property
    def burned(self) -> tuple[int, ...]:
        """Every burned parry position, in order."""
        return tuple(p for card in self.cards for p in card.burned)


def resolve(codes: Sequence[Sequence[str]], row: Sequence[str]) -> Resolution:
    """Flip, compare, burn on mismatch (§3.2).

    Each attack card in turn is compared with the window of the row starting at the next live
    parry; a match spends the window, a mismatch burns one parry. The attacker wins only when an
    attack is still unanswered and too few parries remain to answer it.
    """
    row = tuple(row)  # tuples, so that a window and a code compare directly
    m = len(row)
    j = 0
    results: list[CardResult] = []
    for code in map(tuple, codes):
        size = len(code)
        burned: list[int] = []
        while True:
            if j + size > m:
                burned.extend(range(j, m))
                results.append(CardResult(tuple(burned), None))
                return Resolution(tuple(results), True, ())
            if row[j : j + size] == code:
                results.append(CardResult(tuple(burned), j))
                j += size
                break
            burned.append(j)
            j += 1
    return Resolution(tuple(results), False, tuple(range(j, m)))


def left_of(seat: int, n: int) -> int:
    """The next seat clockwise (A12)."""
    return (seat + 1) % n


def final_queue(first_master: int, ranks: Sequence[int], attacks_made: Sequence[int]) -> list[int]:
    """Seats owed a last-chance fight (§4.2): rank 4 with one attack fewer than the first Maître,
    clockwise from the first Maître's left, stopping before the first Maître."""
    n = len(ranks)
    k = attacks_made[first_master]
    seats = [(first_master + step) % n for step in range(1, n)]
    return [s for s in seats if ranks[s] == MAITRE - 1 and attacks_made[s] == k - 1]


def ranking(ranks: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Tiers by rank, highest first; equal ranks share (§4.3, §4.4).

    Every Maître lands in the first tier; at the cap the highest rank shares first place.
    """
    tiers: dict[int, list[int]] = {}
    for seat, rank in enumerate(ranks):
        tiers.setdefault(rank, []).append(seat)
    return tuple(tuple(tiers[r]) for r in sorted(tiers, reverse=True))
