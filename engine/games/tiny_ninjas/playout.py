"""A fast playout policy for search: each decision read off the card tables, no look-ahead.

Search plays hundreds of playouts a decision, so a playout move may not copy the state (the
one-ply greedy move copies it once per legal action). Each card type gets two numbers from
the printed tables: what its attack is expected to deal and what its shield is expected to
block. The Attacker plays its strongest attack until it holds `keep` cards (1), then ends the
Round, so it has a shield left for the other seat's Round; the Defender answers a real threat
with the best shield that matches the attack's colour and lets small hits through (cards are
worth more than one HEALTH to a Defender, game.DEFENDER_CARD_VALUE). Every other decision is
random. `undominated` drops the plays whose tokens cannot add damage before a search compares
actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from tourney.engine.core import Action
from tourney.engine.games.tiny_ninjas import actions as A
from tourney.engine.games.tiny_ninjas.data import (
    AB_INTEL,
    AB_LIFE_DRAIN,
    AB_NONE,
    AB_PHANTOM,
    AB_ROYAL,
    ATK_ABILITY,
    ATK_COLOUR,
    ATK_DICE,
    ATK_FACE,
    ATK_VALUE,
    CARDS,
    DEF_DICE,
    DEF_FACE,
    DEF_SHIELD,
    DEF_VALUE,
    INSTANCE_TYPE,
    RED,
    SHELL_ALL,
    SHOWN_ID,
    T_PRINCESS,
)
from tourney.engine.games.tiny_ninjas.rules import P_DEFEND, P_PLAY
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState

# What a keyword face or a non-damage ability is worth in the playout, in HEALTH: roughly a
# hit's worth (a freeze, a doom, a grab, a heal all swing about one to two points).
KEYWORD_WORTH: Final = 1.5
ABILITY_WORTH: Final = 1.5
# A shield roll of SHELL's "ALL" blocks everything: count it as a big block.
SHELL_WORTH: Final = 4.0
# The Defender spends a card only on an attack at least this strong (or one that would kill).
DEFEND_FROM: Final = 2
# The playout Attacker ends its Round when it holds this many cards: they are its shields for the
# other seat's Round. Against greedy over the same 200 duplicate pairs at about 45 ms a decision:
# keeping 1 card scored 65.0% (320 playouts), 2 cards 60.5% (400 playouts, cheaper playouts);
# 3 cards scored 54% over 80 pairs.
KEEP_CARDS: Final = 1


def _mean_face(faces: Sequence[float], dice: int, keyword: float) -> float:
    per_die = sum(v if v >= 0 else keyword for v in faces) / len(faces)
    return per_die * dice


def _attack_worth(t: int) -> float:
    worth = _mean_face(ATK_FACE[t], ATK_DICE[t], KEYWORD_WORTH) if ATK_DICE[t] else float(ATK_VALUE[t])
    if ATK_ABILITY[t] not in (AB_NONE, AB_PHANTOM) and worth == 0:
        worth = ABILITY_WORTH
    return worth


def _shield_worth(t: int) -> float:
    if DEF_DICE[t]:
        faces = [SHELL_WORTH if v >= SHELL_ALL else v for v in DEF_FACE[t]]
        return _mean_face(faces, DEF_DICE[t], 0.0)
    return float(DEF_VALUE[t])


ATTACK_WORTH: Final = tuple(_attack_worth(t) for t in range(len(CARDS)))
SHIELD_WORTH: Final = tuple(_shield_worth(t) for t in range(len(CARDS)))


# A token adds 1 to numeric damage of its own colour (§4.1 step 4) and does nothing else: per
# card type, the one token set that can add damage to its attack, or None.
_DAMAGE_ABILITIES: Final = (AB_NONE, AB_LIFE_DRAIN, AB_ROYAL, AB_INTEL)
USEFUL_TOKENS: Final = tuple(
    (("RED",) if ATK_COLOUR[t] == RED else ("BLUE",)) if ATK_ABILITY[t] in _DAMAGE_ABILITIES and ATK_COLOUR[t] else None
    for t in range(len(CARDS))
)


def undominated(legal: Sequence[Action]) -> list[int]:
    """The indices of the actions worth comparing: a play with tokens that add no damage (a
    colour the card does not deal, both colours at once, a heal) is the same play with the
    tokens thrown away, so of each card only the bare play and the one with its own colour's
    token stay."""
    keep = []
    for i, action in enumerate(legal):
        if isinstance(action, A.Play) and action.tokens and (
                action.mode == A.HEAL or action.tokens != USEFUL_TOKENS[INSTANCE_TYPE[action.card]]):
            continue
        keep.append(i)
    return keep


def playout_action(state: TinyNinjasState, seat: int, rng: random.Random, epsilon: float,
                   keep: int = KEEP_CARDS) -> Action:
    """The playout's move for `seat`: a random legal one with probability `epsilon` (and at
    every decision but an attack or a defence), else the table's choice, read off the hand
    without building the legal list; an Attacker holding `keep` cards or fewer ends its Round
    when it may."""
    phase = state.phase
    if phase in (P_PLAY, P_DEFEND) and rng.random() >= epsilon:
        return _attack(state, seat, keep) if phase == P_PLAY else _defence(state, seat)
    legal = state.legal_actions(seat)
    return legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]


def _attack(state: TinyNinjasState, seat: int, keep: int) -> Action:
    """The strongest attack in the hand, without spending tokens (they are worth more kept,
    game.TOKEN_VALUE); END_ROUND once the hand is down to `keep` cards, if it is legal."""
    hand = state.hands[seat]
    if len(hand) <= keep and state.attacks and not state.cfg["must_attack"]:
        return A.END_ROUND
    best = hand[0]
    best_worth = -1.0
    for c in hand:
        worth = ATTACK_WORTH[INSTANCE_TYPE[c]]
        if worth > best_worth:
            best, best_worth = c, worth
    shown = SHOWN_ID[best]
    return A.PLAY_MODE[0][shown][0] if INSTANCE_TYPE[best] == T_PRINCESS else A.PLAY[shown][0]


def _defence(state: TinyNinjasState, seat: int) -> Action:
    """The best matching shield against a threat; no defence against a small hit."""
    threat = state.p_amount
    if threat < DEFEND_FROM and threat + state.p_undef < state.health[seat]:
        return A.NO_DEFEND
    colour = state.p_colour
    best = -1
    best_worth = 0.0
    for c in state.hands[seat]:
        t = INSTANCE_TYPE[c]
        if DEF_SHIELD[t] & colour and SHIELD_WORTH[t] > best_worth:
            best, best_worth = c, SHIELD_WORTH[t]
    return A.NO_DEFEND if best < 0 else A.DEFEND[SHOWN_ID[best]][0]
