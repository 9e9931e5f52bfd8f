"""The rules of one fight and of the match around it, in the order of play (spec §3, §4).

A fight's step (§3.1 F3-F5): `step` takes the attacker's face-down line and the defender's first
parry together (`open_fight`), then the defender's next parries one at a time (`lay`); the row's
last parry resolves the fight (`fight`: `resolve`, §3.2, and the promotion) and `advance` names the
next fight (§3.1 F5), starts the final round (§4.1-§4.2, `final_queue`) or ends the match at the cap
(§4.4); `ranking` orders the seats at the end (§4.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard

from tourney.engine.core import Action, IllegalAction
from tourney.engine.games.maitre_ninja.actions import (
    AttackLine,
    Parry,
    attack_line_index,
    attack_lines,
    next_parries,
)
from tourney.engine.games.maitre_ninja.data import KATANA, MAITRE, PARRY_CODE, PARRY_TYPES

if TYPE_CHECKING:
    from tourney.engine.games.maitre_ninja.state import MaitreNinjaState

NORMAL, FINAL_ROUND, OVER = "NORMAL", "FINAL_ROUND", "OVER"  # the match's phases (§3, §4.1, the end)
PARRY_SLOT: dict[str, int] = {kind: i for i, kind in enumerate(PARRY_TYPES)}  # a parry's place in a supply


def codes_of(line: AttackLine) -> list[tuple[str, ...]]:
    """The parry code of each attack card in the line; the Katana's is its attack-parry order."""
    return [line.ka_order if card == KATANA else PARRY_CODE[card] for card in line.cards]


# Every line an attacker of each rank may lay (index 0 unused; a Maître lays as a rank 4): a table,
# since the attacker's legal list is asked for every fight.
LINES_BY_RANK: tuple[tuple[AttackLine, ...], ...] = ((), *(attack_lines(rank) for rank in range(1, MAITRE + 1)))
# Each of those lines by identity: (the line, its rank, its codes). A bot answers with an object of
# its legal list, so a fight finds its line here without hashing a dataclass (a Python-level hash).
LINE_BY_ID: dict[int, tuple[AttackLine, int, list[tuple[str, ...]]]] = {
    id(line): (line, rank, codes_of(line)) for rank, lines in enumerate(LINES_BY_RANK) for line in lines
}


def known_line(line: Action) -> tuple[AttackLine, int, list[tuple[str, ...]]] | None:
    """`line`'s entry of LINE_BY_ID when it is that very object, else None."""
    entry = LINE_BY_ID.get(id(line))
    return entry if entry is not None and entry[0] is line else None


# The three records of a fight are never changed once made, though not declared frozen: mypyc compiles
# a plain dataclass into a native class, while a frozen one keeps a Python __init__ that sets each
# field through object.__setattr__, and one fight makes several of them (a tenth of a playout's time).
@dataclass(slots=True)
class CardResult:
    """What happened to one flipped attack card: the parries burned before it, then its fate.

    parried_at is the row position where its code was matched, or None when the defender ran
    dry on it (then `burned` includes every card left in the row).
    """

    burned: tuple[int, ...]
    parried_at: int | None


@dataclass(slots=True)
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


@dataclass(slots=True)
class FightRecord:
    """One finished fight. `line` is the full face-down line; only its first
    `resolution.revealed` cards were ever shown, and `public` holds just what everyone saw."""

    number: int
    attacker: int
    defender: int
    attacker_rank: int
    line: AttackLine
    row: tuple[str, ...]
    resolution: Resolution
    # What everyone saw of the fight (§7), built with the record (`public_face`): every observation
    # carries the latest faces, and one built when the fight ends is shared by every later view and
    # clone, so a view of a state never seen before only gathers references.
    public: dict[str, Any] = field(compare=False, repr=False)

    @property
    def face_down(self) -> int:
        """Attack cards that were never flipped (they go back unseen)."""
        return len(self.line.cards) - self.resolution.revealed


def public_face(number: int, attacker: int, defender: int, rank: int, line: AttackLine, row: tuple[str, ...],
                res: Resolution) -> dict[str, Any]:
    """A fight's public face (§7): only the flipped attack cards, the row, what burned and who won."""
    revealed = len(res.cards)
    shown = line.cards[:revealed]
    burned: list[int] = []  # loops, not Resolution.burned's generator: one face is built per fight
    parried: list[list[int]] = []
    for i in range(revealed):
        card = res.cards[i]
        burned.extend(card.burned)
        if card.parried_at is not None:
            parried.append([i, card.parried_at])
    return {
        "fight": number,
        "attacker": attacker,
        "defender": defender,
        "attacker_rank": rank,
        "attack": list(shown),
        "ka_order": list(line.ka_order) if KATANA in shown else [],
        "face_down": len(line.cards) - revealed,
        "row": list(row),
        "burned": burned,
        "parried": parried,
        "unused": list(res.unused),
        "winner": "attacker" if res.attacker_wins else "defender",
        "new_rank": rank + 1 if res.attacker_wins else rank,
    }


def resolve(codes: Sequence[tuple[str, ...]], row: Sequence[str]) -> Resolution:
    """Flip, compare, burn on mismatch (§3.2).

    Each attack card in turn is compared with the window of the row starting at the next live
    parry; a match spends the window, a mismatch burns one parry. The attacker wins only when an
    attack is still unanswered and too few parries remain to answer it.
    """
    row = tuple(row)
    m = len(row)
    j = 0
    results: list[CardResult] = []
    for code in codes:
        size = len(code)
        start = j  # the parries burned before this card's match are start..j-1: a mismatch burns one
        while True:
            if j + size > m:
                results.append(CardResult(tuple(range(start, m)), None))
                return Resolution(tuple(results), True, ())
            k = 0  # compared in place: every fight runs this, and a slice per window costs more
            while k < size and row[j + k] == code[k]:
                k += 1
            if k == size:
                results.append(CardResult(tuple(range(start, j)), j))
                j += size
                break
            j += 1
    return Resolution(tuple(results), False, tuple(range(j, m)))


def step(s: MaitreNinjaState, actions: Mapping[int, Action]) -> None:
    """One step of a fight: the line and the first parry together, or the defender's next parry alone;
    the row's last parry resolves the fight (§3.1 F3-F5, §4)."""
    if s.pending is None:
        open_fight(s, actions)
        return
    # Mid-row, the defender alone lays its next parry: most steps of a match are this one,
    # so it checks only what can differ from the previous step.
    if len(actions) != 1 or s.defender not in actions:
        raise wrong_seats(s, actions)
    parry = actions[s.defender]
    if not offers(parry, s.offered):
        raise bad_parry(s, parry, s.row_len)
    lay(s, parry)



def offers(parry: Action, offered: tuple[Parry, ...]) -> TypeGuard[Parry]:
    """Whether `parry` is one of the offered parries: by identity first (a bot answers with an object
    of the legal list), so the common case runs no dataclass __eq__."""
    for x in offered:
        if x is parry:
            return True
    return isinstance(parry, Parry) and parry in offered


def open_fight(s: MaitreNinjaState, actions: Mapping[int, Action]) -> None:
    """The fight's first step: the attacker's line and the defender's first parry, together."""
    if s.phase == OVER:
        raise IllegalAction("the match is over: no more actions can be applied.")
    if len(actions) != 2 or s.attacker not in actions or s.defender not in actions:  # two seats, never one
        raise wrong_seats(s, actions)
    length = s.row_length()
    offered = s.setup.openings[s.attacker_rank()]
    parry = actions[s.defender]
    if not offers(parry, offered):
        raise bad_parry(s, parry, length)
    line = actions[s.attacker]
    rank = s.attacker_rank()
    known = known_line(line)
    if not isinstance(line, AttackLine) or not (
        (known is not None and known[1] == rank) or line in attack_line_index(rank)
    ):
        raise IllegalAction(f"seat {s.attacker} sent {line!r}, which is not a rank-{rank} attack line.")
    s.pending, s.row_len, s.offered = line, length, offered
    lay(s, parry)


def wrong_seats(s: MaitreNinjaState, actions: Mapping[int, Action]) -> IllegalAction:
    """The error for a step answered by other seats than the ones it asked."""
    seats = s.to_act()
    return IllegalAction(f"this step needs exactly one action from seats {list(seats)}, "
                         f"got seats {sorted(actions)}.")


def bad_parry(s: MaitreNinjaState, parry: Action, length: int) -> IllegalAction:
    """The error for a parry that cannot come next in the defender's row."""
    return IllegalAction(
        f"seat {s.defender} sent {parry!r}, which cannot follow {list(s.laid)} in a row of "
        f"{length} parries within the supply {dict(zip(PARRY_TYPES, s.setup.parry_supply, strict=True))}."
    )


def lay(s: MaitreNinjaState, parry: Parry) -> None:
    """Put down the defender's next (checked) parry; the row's last one resolves the fight."""
    kind = parry.parry
    laid = s.laid = s.laid + (kind,)
    supply = s.setup.parry_supply
    if len(laid) == s.row_len:
        line = s.pending
        assert line is not None
        s.pending, s.laid, s.offered = None, (), ()
        fight(s, line, laid)
    elif laid.count(kind) == supply[PARRY_SLOT[kind]]:
        # What may follow changes only when a pile runs out: next_parries's other condition,
        # room left to finish the row, is the same all along a row (each parry laid takes one
        # card from the row and one from the supply).
        s.offered = next_parries(laid, s.row_len, supply)


def fight(s: MaitreNinjaState, line: AttackLine, row: tuple[str, ...]) -> Resolution:
    """Resolve one fight (already validated) against the complete `row`, record it, promote, and
    set up the next one."""
    att, dfn = s.attacker, s.defender
    rank = s.ranks[att]
    known = known_line(line)
    res = resolve(codes_of(line) if known is None else known[2], row)
    s.fights += 1
    s.history.append(FightRecord(s.fights, att, dfn, rank, line, row, res,
                                 public_face(s.fights, att, dfn, rank, line, row, res)))
    if res.attacker_wins:
        s.ranks[att] = rank + 1
    s.attacks_made[att] += 1
    advance(s)
    return res


def advance(s: MaitreNinjaState) -> None:
    """Who attacks whom next (§3.1 F5), the final-round trigger (§4.1) and the cap (§4.4)."""
    n = s.num_players
    att = s.attacker
    if s.phase == NORMAL and s.ranks[att] == MAITRE:
        s.first_master = att
        s.queue = final_queue(att, s.ranks, s.attacks_made)
        s.phase = FINAL_ROUND
    if s.phase == FINAL_ROUND:
        if not s.queue:
            s.phase = OVER
            return
        s.attacker = s.queue.pop(0)
        s.defender = left_of(s.attacker, n)
        return
    if s.fights >= s.setup.fight_cap:
        s.phase = OVER
        return
    s.attacker = s.defender
    s.defender = left_of(s.attacker, n)


def left_of(seat: int, n: int) -> int:
    """The next seat clockwise (A12)."""
    return (seat + 1) % n


def final_queue(first_master: int, ranks: Sequence[int], attacks_made: Sequence[int]) -> list[int]:
    """Seats owed a last-chance fight (§4.2): rank 4 with one attack fewer than the first Maître,
    clockwise from the first Maître's left, stopping before the first Maître."""
    n = len(ranks)
    k = attacks_made[first_master]
    seats = [(first_master + offset) % n for offset in range(1, n)]
    return [s for s in seats if ranks[s] == MAITRE - 1 and attacks_made[s] == k - 1]


def ranking(ranks: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Tiers by rank, highest first; equal ranks share (§4.3, §4.4).

    Every Maître lands in the first tier; at the cap the highest rank shares first place.
    """
    tiers: dict[int, list[int]] = {}
    for seat, rank in enumerate(ranks):
        tiers.setdefault(rank, []).append(seat)
    return tuple(tuple(tiers[r]) for r in sorted(tiers, reverse=True))
