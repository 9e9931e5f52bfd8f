"""Maître Ninja's components as plain tables (spec §1, §5, §8).

Everything the game knows about cards lives here: the attack cards by level, each card's
parry code, the rank names, the parry supply and how many parries a defender lays against
each attacker rank. Rules read these tables; nothing else hard-codes a card.
"""

from __future__ import annotations

from itertools import permutations

# The three parry types, in the order used everywhere (legal-row order, supply tuples).
DO, BL, JU = "DO", "BL", "JU"
PARRY_TYPES: tuple[str, ...] = (DO, BL, JU)

# Attack cards by level (§1.1): one copy of each. Level 4 is the Katana alone; its code is the
# attacker-ordered triple of the three attack-parry cards.
KATANA = "Ka"
ATTACK_LEVELS: tuple[tuple[str, ...], ...] = (
    ("Fi", "Fo", "Te"),
    ("As", "Sh", "Ku"),
    ("Nu", "Jo", "Ni"),
    (KATANA,),
)
ATTACK_PARRY_CARDS: tuple[str, ...] = (DO, BL, JU)

# Parry codes (§1.2, reconstructed): the exact run of parries that stops each card.
PARRY_CODE: dict[str, tuple[str, ...]] = {
    "Fi": (BL,),
    "Fo": (JU,),
    "Te": (DO,),
    "As": (JU, DO),
    "Sh": (DO, BL),
    "Ku": (BL, JU),
    "Nu": (BL, JU, DO),
    "Jo": (JU, DO, BL),
    "Ni": (DO, BL, JU),
}

# The six orders a rank-4 attacker may give the attack-parries after the Katana, in a fixed order.
KATANA_ORDERS: tuple[tuple[str, ...], ...] = tuple(permutations(ATTACK_PARRY_CARDS))

CARD_NAMES: dict[str, str] = {
    "Fi": "fist",
    "Fo": "foot",
    "Te": "Tegaki",
    "As": "Ashiko",
    "Sh": "Shuriken",
    "Ku": "Kunai",
    "Nu": "Nunchaku",
    "Jo": "Jo staff",
    "Ni": "Ninjato",
    "Ka": "Katana",
}

# Ranks 1..5; 5 (Maître) is a status with no card (§8.2).
MAITRE = 5
RANK_NAMES: dict[int, str] = {1: "Apprenti", 2: "Junior", 3: "Disciple", 4: "Ninja", 5: "Maître Ninja"}

# The four elements, one per player; cosmetic (A10). Each owns 2 rank cards: A/J and D/N.
ELEMENTS: tuple[str, ...] = ("Air", "Terre", "Eau", "Feu")
RANK_CARDS_PER_ELEMENT = 2

# Parries the defender lays, by the ATTACKER's rank (A20), and the parry piles (A7, reconstructed).
PARRIES_BY_RANK: dict[int, int] = {1: 2, 2: 5, 3: 9, 4: 12}
PARRY_SUPPLY: dict[str, int] = {DO: 4, BL: 4, JU: 4}

FIGHT_CAP = 200
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def line_size(rank: int) -> int:
    """How many attack cards a rank-`rank` attacker lays (the Katana counts as one card)."""
    return min(rank, len(ATTACK_LEVELS))


def card_count() -> int:
    """All cards in the box: rank cards, attack cards, attack-parries and parries (33)."""
    attack = sum(len(level) for level in ATTACK_LEVELS)
    return (
        len(ELEMENTS) * RANK_CARDS_PER_ELEMENT
        + attack
        + len(ATTACK_PARRY_CARDS)
        + sum(PARRY_SUPPLY.values())
    )
