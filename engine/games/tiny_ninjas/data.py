"""Tiny Ninjas components as plain tables (spec §1.2, §9.2, §9.3, §9.6).

The readable tables (`DIE_FACES`, `CARDS`) are written the way the spec prints them. Below
them, the same facts are compiled into flat per-type tuples indexed by small ints, which is
what the rules module reads in its hot loop. A card *instance* is an int 0..69: the base
deck in table order (Pirate copies first), then the expansion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

# --- The TN die (§1.2, reconstructed joint layout) ------------------------------------------
# Result sets a card can read. Faces are numbered 1..6 as in the spec.
BLADE: Final = 0
COLOUR: Final = 1
SHADE: Final = 2
DIE_FACES: Final[tuple[tuple[str, str, str], ...]] = (
    ("One", "Orange", "White"),  # face 1
    ("One", "Green", "Black"),  # face 2
    ("One", "Purple", "White"),  # face 3
    ("Two", "Orange", "Black"),  # face 4
    ("Two", "Green", "White"),  # face 5
    ("Three", "Purple", "Black"),  # face 6
)

# Damage colours and shield colours as bit masks: a shield blocks a damage colour when the
# masks intersect, so Yellow (RED|BLUE) blocks both (§1.3).
RED: Final = 1
BLUE: Final = 2
YELLOW: Final = 3
COLOUR_NAME: Final = {0: "", RED: "R", BLUE: "B", YELLOW: "Y"}
_COLOUR_CODE: Final = {"R": RED, "B": BLUE, "Y": YELLOW}

# Power-up token bits in tokens[p] (a 3-bit mask of the tokens still available).
TOKEN_RED: Final = 1
TOKEN_BLUE: Final = 2
TOKEN_YELLOW: Final = 4
ALL_TOKENS: Final = TOKEN_RED | TOKEN_BLUE | TOKEN_YELLOW
TOKEN_NAMES: Final = ((TOKEN_RED, "RED"), (TOKEN_BLUE, "BLUE"), (TOKEN_YELLOW, "YELLOW"))


@dataclass(frozen=True)
class Attack:
    """A card's attack section. kind: flat | roll | ability.

    table maps a die reading ("One", "Orange", "White"...) to damage or to a keyword;
    with dice=2 each die is looked up separately and the lookups are summed (§1.2).
    """

    kind: str
    colour: str = ""
    value: int = 0
    roll: int = BLADE
    dice: int = 0
    table: dict[str, int | str] = field(default_factory=dict)
    ability: str = ""


@dataclass(frozen=True)
class Defend:
    """A card's defend section. kind: flat | roll | ability (BITE_BACK, SHELL, ABDUCT).

    For BITE_BACK the table gives per die a shield amount or "COUNTER" (1 undefendable to
    the Attacker); for SHELL "ALL" blocks everything.
    """

    kind: str
    shield: str
    value: int = 0
    roll: int = BLADE
    dice: int = 0
    table: dict[str, int | str] = field(default_factory=dict)
    ability: str = ""


@dataclass(frozen=True)
class CardType:
    """One row of the card list: name, copies, set, attack and defend sections."""

    name: str
    count: int
    expansion: bool
    attack: Attack
    defend: Defend


def _flat(colour: str, value: int) -> Attack:
    return Attack("flat", colour=colour, value=value)


def _roll(colour: str, roll: int, table: dict[str, int | str], dice: int = 1, ability: str = "") -> Attack:
    return Attack("roll", colour=colour, roll=roll, dice=dice, table=table, ability=ability)


def _ability(name: str, roll: int = BLADE, dice: int = 0, table: dict[str, int | str] | None = None,
             colour: str = "", value: int = 0) -> Attack:
    return Attack("ability", colour=colour, value=value, roll=roll, dice=dice, table=table or {}, ability=name)


def _shield(shield: str, value: int) -> Defend:
    return Defend("flat", shield=shield, value=value)


def _shield_roll(shield: str, roll: int, table: dict[str, int | str], dice: int = 1) -> Defend:
    return Defend("roll", shield=shield, roll=roll, dice=dice, table=table)


ONE_TWO_THREE: Final[dict[str, int | str]] = {"One": 1, "Two": 2, "Three": 3}

# --- The cards (§9.2 base 58, §9.3 expansion 12) ---------------------------------------------
CARDS: Final[tuple[CardType, ...]] = (
    CardType("Pirate", 6, False, _roll("R", BLADE, {"One": 1, "Two": 2, "Three": 4}),
             _shield_roll("R", SHADE, {"White": 2, "Black": 3})),
    CardType("Trio", 5, False, _flat("R", 3), _shield_roll("R", BLADE, ONE_TWO_THREE)),
    CardType("Archer", 5, False, _roll("B", COLOUR, {"Orange": 1, "Green": 2, "Purple": 3}),
             _shield_roll("R", COLOUR, {"Orange": 0, "Green": 2, "Purple": 3})),
    CardType("Robot", 6, False, _roll("R", COLOUR, {"Orange": 2, "Green": 3, "Purple": 1}),
             _shield_roll("B", SHADE, {"White": 1, "Black": 3})),
    CardType("Shadow", 5, False, _roll("R", BLADE, {"One": 1, "Two": 2, "Three": "SNEAK_ATTACK"}),
             _shield_roll("R", SHADE, {"White": 1, "Black": 3})),
    CardType("Wolf", 3, False, _roll("B", BLADE, {"One": 2, "Two": 3, "Three": "DEEP_FREEZE"}),
             Defend("ability", shield="B", roll=BLADE, dice=2, ability="BITE_BACK",
                    table={"One": 1, "Two": 2, "Three": "COUNTER"})),
    CardType("Master", 2, False, _roll("B", BLADE, {"One": 1, "Two": 1, "Three": 2}, dice=2),
             _shield_roll("Y", BLADE, ONE_TWO_THREE)),
    CardType("Vampire", 3, False, _roll("R", BLADE, ONE_TWO_THREE, ability="LIFE_DRAIN"),
             _shield_roll("B", SHADE, {"White": 1, "Black": 2})),
    CardType("Grim", 2, False, _ability("DOOM", SHADE, 1, {"White": "NOTHING", "Black": "DOOM"}),
             _shield_roll("Y", SHADE, {"White": 1, "Black": 2})),
    CardType("Medic", 2, False, _ability("HEAL", value=3), _shield("R", 2)),
    CardType("Angel", 2, False, _ability("REVIVE"), _shield("Y", 2)),
    CardType("Solo", 4, False, _flat("B", 2), _shield_roll("R", SHADE, {"White": 1, "Black": 2})),
    CardType("Turtle", 3, False, _flat("R", 1),
             Defend("ability", shield="Y", roll=SHADE, dice=1, ability="SHELL", table={"White": "ALL", "Black": 1})),
    CardType("Alien", 1, False, _roll("B", COLOUR, {"Orange": 1, "Green": 2, "Purple": 3}),
             Defend("ability", shield="R", value=3, ability="ABDUCT")),
    CardType("Princess", 3, False, _ability("ROYAL_CHOICE", colour="B", value=2),
             _shield_roll("B", SHADE, {"White": 2, "Black": 3})),
    CardType("Baby", 2, False, _ability("GRAB", SHADE, 1, {"White": "GRAB", "Black": "NOTHING"}), _shield("Y", 1)),
    CardType("Legend", 1, False, _roll("R", BLADE, {"One": 0, "Two": 1, "Three": 5}, dice=2),
             _shield_roll("Y", BLADE, {"One": 2, "Two": 3, "Three": 4})),
    CardType("Pyro", 3, False, _roll("R", SHADE, {"White": 1, "Black": 3}),
             _shield_roll("Y", COLOUR, {"Orange": 0, "Green": 2, "Purple": 4})),
    # Expansion (§9.3), only with use_expansion=true.
    CardType("Samurai", 2, True, _roll("R", BLADE, {"One": 2, "Two": 3, "Three": 4}), _shield("R", 2)),
    CardType("Ghost", 2, True, _ability("PHANTOM", value=1), _shield_roll("Y", SHADE, {"White": 0, "Black": 3})),
    CardType("Monk", 2, True, _ability("MEDITATE", value=1), _shield("Y", 2)),
    CardType("Sumo", 2, True, _flat("R", 4), _shield("R", 1)),
    CardType("Dragon", 2, True, _roll("B", COLOUR, {"Orange": 2, "Green": 3, "Purple": 4}),
             _shield_roll("B", COLOUR, {"Orange": 1, "Green": 2, "Purple": 3})),
    CardType("Spy", 2, True, _ability("INTEL", colour="B", value=1),
             _shield_roll("B", SHADE, {"White": 1, "Black": 2})),
)

# Named per-card amounts that are not in a roll table (§9.1).
HEAL_AMOUNT: Final = {"Medic": 3, "Princess": 2, "Monk": 1}
SNEAK_LOSS: Final = 2  # SNEAK ATTACK: undefendable loss
SHELL_ALL: Final = 1000  # SHELL on White: blocks every point of defendable damage

# --- Achievements (§9.6): number -> short name ---------------------------------------------
ACHIEVEMENTS: Final[dict[int, str]] = {
    1: "win without healing",
    2: "win without losing health",
    3: "win with 1 health",
    4: "heal 6 from Vampire",
    5: "attack for 10 with Legend",
    6: "win without a Yellow shield",
    7: "fully deplete the draw pile",
    8: "win with cards revealed",
    9: "defend with Pyro to avoid defeat",
    10: "win with hand limit 4",
    11: "win within 3 rounds as attacker",
    12: "win in the first round as attacker",
    13: "win starting at 5 health",
    14: "win with health limit 8",
    15: "win 3 in a row vs the same opponent",
    16: "win 5 in a row vs the same opponent",
    17: "blitz tie",
    18: "survivor win without Grim or HEAL",
    19: "champion undefeated",
    20: "solo: win on NORMAL with 8 health",
    21: "solo: win on NORMAL with 6 health",
    22: "solo: win on NORMAL 3 times in a row",
    23: "solo: win on HARD with 8 health",
    24: "solo: win on HARD with 6 health",
    25: "solo: win on HARD 3 times in a row",
}

# =========================== compiled tables (derived, do not edit) ===========================
NUM_TYPES: Final = len(CARDS)
TYPE_NAMES: Final = tuple(c.name for c in CARDS)
TYPE_BY_NAME: Final = {c.name: i for i, c in enumerate(CARDS)}

# Keyword codes stored in per-face tables (all negative so numbers stay numbers).
KW_SNEAK: Final = -1
KW_FREEZE: Final = -2
KW_NOTHING: Final = -3
KW_DOOM: Final = -4
KW_GRAB: Final = -5
KW_COUNTER: Final = -6
_KEYWORDS: Final = {"SNEAK_ATTACK": KW_SNEAK, "DEEP_FREEZE": KW_FREEZE, "NOTHING": KW_NOTHING,
                    "DOOM": KW_DOOM, "GRAB": KW_GRAB, "COUNTER": KW_COUNTER, "ALL": SHELL_ALL}

# Attack kinds / abilities as small ints.
ATK_FLAT: Final = 0
ATK_ROLL: Final = 1
AB_NONE: Final = 0
AB_LIFE_DRAIN: Final = 1
AB_DOOM: Final = 2
AB_HEAL: Final = 3
AB_REVIVE: Final = 4
AB_ROYAL: Final = 5
AB_GRAB: Final = 6
AB_PHANTOM: Final = 7
AB_MEDITATE: Final = 8
AB_INTEL: Final = 9
_ATK_ABILITY: Final = {"": AB_NONE, "LIFE_DRAIN": AB_LIFE_DRAIN, "DOOM": AB_DOOM, "HEAL": AB_HEAL,
                       "REVIVE": AB_REVIVE, "ROYAL_CHOICE": AB_ROYAL, "GRAB": AB_GRAB, "PHANTOM": AB_PHANTOM,
                       "MEDITATE": AB_MEDITATE, "INTEL": AB_INTEL}
DEF_PLAIN: Final = 0
DEF_BITE_BACK: Final = 1
DEF_SHELL: Final = 2
DEF_ABDUCT: Final = 3
_DEF_ABILITY: Final = {"": DEF_PLAIN, "BITE_BACK": DEF_BITE_BACK, "SHELL": DEF_SHELL, "ABDUCT": DEF_ABDUCT}


def _faces(roll: int, table: dict[str, int | str]) -> tuple[int, ...]:
    """The table read on each face 1..6 (index 0..5), keywords as their codes."""
    out = []
    for face in DIE_FACES:
        v = table.get(face[roll], 0)
        out.append(_KEYWORDS[v] if isinstance(v, str) else v)
    return tuple(out)


ATK_KIND: Final = tuple(ATK_ROLL if c.attack.dice else ATK_FLAT for c in CARDS)
ATK_COLOUR: Final = tuple(_COLOUR_CODE.get(c.attack.colour, 0) for c in CARDS)
ATK_VALUE: Final = tuple(c.attack.value for c in CARDS)
ATK_DICE: Final = tuple(c.attack.dice for c in CARDS)
ATK_FACE: Final = tuple(_faces(c.attack.roll, c.attack.table) for c in CARDS)
ATK_ABILITY: Final = tuple(_ATK_ABILITY[c.attack.ability] for c in CARDS)
DEF_SHIELD: Final = tuple(_COLOUR_CODE[c.defend.shield] for c in CARDS)
DEF_VALUE: Final = tuple(c.defend.value for c in CARDS)
DEF_DICE: Final = tuple(c.defend.dice for c in CARDS)
DEF_FACE: Final = tuple(_faces(c.defend.roll, c.defend.table) for c in CARDS)
DEF_ABILITY: Final = tuple(_DEF_ABILITY[c.defend.ability] for c in CARDS)

# Types whose attack can never produce defendable damage (Solo mode's NONDAMAGE list, §8;
# Princess is listed separately because its HEAL mode is a choice).
NON_DAMAGE_TYPES: Final = frozenset(TYPE_BY_NAME[n] for n in ("Medic", "Angel", "Monk"))

# Instances: base deck first, in table order, then the expansion.
INSTANCE_TYPE: Final[tuple[int, ...]] = tuple(
    t for t, c in sorted(enumerate(CARDS), key=lambda tc: tc[1].expansion) for _ in range(c.count)
)
NUM_INSTANCES: Final = len(INSTANCE_TYPE)
BASE_INSTANCES: Final = tuple(i for i, t in enumerate(INSTANCE_TYPE) if not CARDS[t].expansion)
EXPANSION_INSTANCES: Final = tuple(i for i, t in enumerate(INSTANCE_TYPE) if CARDS[t].expansion)
INSTANCE_NAME: Final = tuple(TYPE_NAMES[t] for t in INSTANCE_TYPE)

# Copies of a type are interchangeable, so what a seat is shown names a copy by its type and
# its rank among that type's copies, never by which physical card it is: physical identity
# would let a seat follow a copy through hidden hands (§2.2). The k-th copy of type t in a
# hand is shown as TYPE_INSTANCES[t][k]; an action on the first copy of t carries SHOWN_ID.
TYPE_INSTANCES: Final = tuple(tuple(i for i, u in enumerate(INSTANCE_TYPE) if u == t) for t in range(len(CARDS)))
SHOWN_ID: Final = tuple(TYPE_INSTANCES[t][0] for t in INSTANCE_TYPE)

T_PIRATE: Final = TYPE_BY_NAME["Pirate"]
T_WOLF: Final = TYPE_BY_NAME["Wolf"]
T_GRIM: Final = TYPE_BY_NAME["Grim"]
T_MEDIC: Final = TYPE_BY_NAME["Medic"]
T_ANGEL: Final = TYPE_BY_NAME["Angel"]
T_TURTLE: Final = TYPE_BY_NAME["Turtle"]
T_ALIEN: Final = TYPE_BY_NAME["Alien"]
T_PRINCESS: Final = TYPE_BY_NAME["Princess"]
T_LEGEND: Final = TYPE_BY_NAME["Legend"]
T_PYRO: Final = TYPE_BY_NAME["Pyro"]
T_VAMPIRE: Final = TYPE_BY_NAME["Vampire"]
T_MONK: Final = TYPE_BY_NAME["Monk"]

assert sum(c.count for c in CARDS if not c.expansion) == 58
assert sum(c.count for c in CARDS if c.expansion) == 12
