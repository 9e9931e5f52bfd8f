"""Naruto: Ninja Arena as plain tables (spec §1, §9, §10).

Symbols are small ints so dice, requirements and matching stay cheap. The dice faces,
wound tracks, technique costs and recovery combos are reconstructed ([R], spec §9); the
damage numbers are from the rulebook (§10).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# --- dice symbols (§9.1) -------------------------------------------------------------------
# Final: the compiled rules read these as constants, not as module attributes.
BLANK: Final = 0
K: Final = 1  # kunai
S: Final = 2  # shuriken
R: Final = 3  # scroll
H: Final = 4  # seal
F: Final = 5  # fist
L: Final = 6  # leaf
W: Final = 7  # spiral (wildcard)
SYMBOL_LETTER: Final = {BLANK: ".", K: "K", S: "S", R: "R", H: "H", F: "F", L: "L", W: "W"}
LETTER_SYMBOL: Final = {v: k for k, v in SYMBOL_LETTER.items() if k != BLANK}

# Face number (1..6, the numbering injected dice use) -> symbol.
COLOURED_FACES: Final = (K, S, R, H, F, L)
BLACK_FACES: Final = (W, K, S, R, H, F)
DICE_PER_PLAYER: Final = 5  # index 0 is the black & white die, 1..4 the coloured dice
DIE_FACES: Final = (BLACK_FACES, COLOURED_FACES, COLOURED_FACES, COLOURED_FACES, COLOURED_FACES)

# --- table constants ---------------------------------------------------------------------
K_SPACES: Final = 4  # every wound track has 4 spaces before the KO space (§3.4)
MAX_PLAYERS_CORE: Final = 4
MAX_PLAYERS_GENIN: Final = 6
DEFAULT_TICK_CAP: Final = 3000
STITCH_TICKS: Final = 3  # Shadow Stitching: no ROLL for 3 ticks (§5.5)
SHADOW_TOKENS: Final = 3  # the Shadow token's load (§4.2 step 0)
LAST_HITTER_TOKENS: Final = 2  # §4.2 step 1
SAKURA_THRESHOLD: Final = 10  # Chakra Control (§10)
GATE_TOKENS: Final = 7  # Gate of Opening (§10)
BYAKUGAN_CHARGES: Final = 2
FAN_TOKENS: Final = 3
STREAM_TOKENS: Final = 3  # Stream His Chakra


# --- targeting shapes (§10.1) --------------------------------------------------------------
ONE: Final = "one"  # `target`: any conscious opponent gets n
NEIGHBOUR: Final = "neighbour"  # `target`: the left or right neighbour gets n
SIDES: Final = "sides"  # n to each side (both halves to one player when the neighbours coincide)
SPLIT: Final = "split"  # `allocation`: n shared among conscious opponents, each listed share >= min
ALL: Final = "all"  # every conscious opponent gets n
FOURS: Final = "fours"  # Kiba's All-Fours: `target` (a neighbour) gets 2, the other side 1; alone: 3


@dataclass(frozen=True, slots=True)
class Technique:
    """One regular technique. `variants` pairs each accepted requirement with its damage
    (only Rock Lee's Ferocious Fist has more than one: 2, 3 or 4 FIST dice)."""

    key: str  # "T1" | "T2" | "T3"
    name: str
    shape: str
    variants: tuple[tuple[tuple[int, ...], int], ...]
    split_min: int = 0


@dataclass(frozen=True, slots=True)
class Character:
    """A ninja board: wound track, techniques, Power and KO-side recovery combo."""

    name: str
    track: tuple[int, int, int, int]
    techniques: tuple[Technique, ...]
    power_name: str
    power: tuple[int, ...]
    recovery: tuple[int, ...]
    genin: bool  # from the Genin Pack expansion


def _t(key: str, name: str, shape: str, req: tuple[int, ...], n: int, split_min: int = 0) -> Technique:
    return Technique(key, name, shape, ((req, n),), split_min)


# §9.2 and §10.2. Effects beyond the shape (Rasengan, self-damage, stitches, ...) are rules.
CHARACTERS: Final[tuple[Character, ...]] = (
    Character("Naruto", (6, 6, 6, 5),
              (_t("T1", "Shadow Clone Jutsu", NEIGHBOUR, (H, H), 3),
               _t("T2", "Rasengan", ONE, (H, R, L), 2)),
              "Gamabunta", (H, H, H, L, L), (H, H, L, L), False),
    Character("Sakura", (5, 5, 5, 5),
              (_t("T1", "Substitution Jutsu", ONE, (F, H), 1),
               _t("T2", "Clone Jutsu", ONE, (H, H, F), 4)),
              "Chakra Control", (F, F, H, H, L), (F, F, H, L), False),
    Character("Sasuke", (6, 6, 5, 4),
              (_t("T1", "Lion's Barrage", ONE, (F, F), 2),
               _t("T2", "Chidori", SPLIT, (H, H, K), 6)),
              "Curse Mark", (H, K, K, S, S), (K, K, H, H), False),
    Character("Shikamaru", (5, 6, 6, 5),
              (_t("T1", "Shadow Possession Jutsu", ONE, (R, H), 2),
               _t("T2", "Shadow Stitching", ONE, (R, R, H), 3)),
              "Stream His Chakra", (R, R, H, H, L), (R, R, H, H), False),
    Character("RockLee", (7, 6, 6, 5),
              (Technique("T1", "Ferocious Fist", ONE, (((F, F), 1), ((F, F, F), 3), ((F, F, F, F), 5))),
               _t("T2", "Leaf Hurricane", SIDES, (F, L, L), 2)),
              "Gate of Opening", (F, F, F, L, L), (F, F, L, L), True),
    Character("Tenten", (5, 5, 6, 5),
              (_t("T1", "Twin Rising Dragons", SPLIT, (K, S), 3),
               _t("T2", "Tensasai", ALL, (K, K, S, S), 2)),
              "Dragon Bomb", (K, K, S, S, R), (K, S, S, R), True),
    Character("Hinata", (5, 5, 5, 6),
              (_t("T1", "Gentle Fist", ONE, (F, H), 2),
               _t("T2", "Eight Trigrams 64 Palms", SPLIT, (F, F, H, L), 5, split_min=1)),
              "Byakugan", (H, H, F, F, L), (H, F, L, L), True),
    Character("Kiba", (6, 6, 5, 5),
              (_t("T1", "All-Fours Jutsu", FOURS, (F, L), 3),
               _t("T2", "Tunneling Fang", ONE, (F, F, K), 2)),
              "Akamaru", (F, F, L, L, K), (F, L, L, K), True),
    Character("Temari", (5, 5, 5, 5),
              (_t("T1", "Wind Blade Jutsu", ONE, (S, L), 1),
               _t("T2", "Sea Dragon", SIDES, (S, S, L), 2)),
              "Blade Dance", (S, S, L, L, R), (S, S, L, R), True),
    Character("Gaara", (6, 5, 5, 4),
              (_t("T1", "Sand Shuriken", NEIGHBOUR, (R, R, S), 4),
               _t("T2", "Sand Prison", ONE, (R, H), 2),
               _t("T3", "Sand Burial", SPLIT, (R, R, R, S), 6)),
              "Sand Shield", (R, R, S, S, H), (R, R, S, H), True),
)

CHARACTER_INDEX: Final = {c.name: i for i, c in enumerate(CHARACTERS)}
NARUTO: Final = 0
SAKURA: Final = 1
SASUKE: Final = 2
SHIKAMARU: Final = 3
ROCK_LEE: Final = 4
TENTEN: Final = 5
HINATA: Final = 6
KIBA: Final = 7
TEMARI: Final = 8
GAARA: Final = 9
CORE_ROSTER: Final = (NARUTO, SAKURA, SASUKE, SHIKAMARU)
GENIN_ROSTER: Final = tuple(range(len(CHARACTERS)))

# Attack bonus of an active Power (§10.1): character -> tokens added once per T1/T2/T3/B1.
ATTACK_BONUS: Final = {NARUTO: 1, SASUKE: 2, ROCK_LEE: 1}


def letters(symbols: tuple[int, ...] | list[int]) -> str:
    """A symbol tuple as letters, e.g. (H, H) -> 'HH'; BLANK shows as '.'."""
    return "".join(SYMBOL_LETTER[s] for s in symbols)
