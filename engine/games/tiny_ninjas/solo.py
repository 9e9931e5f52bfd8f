"""SOLO mode (spec §7.5, §8): one decision-making seat against the rulebook's scripted AI.

The interface keeps two seats so results rank like any other match: seat 0 is the HUMAN
(the bot under test), seat 1 is the AI. The AI is part of the environment: it never
appears in `to_act()`, has no hand and no tokens, and plays from the draw pile. Its dice
come from stream `dice/ai`, its random picks from `pick/ai`.

Decisions of the human: H1 (NONDAMAGE card | DECLARE_ATTACK | END_ROUND), H2 (the attacking
card, after the AI's defending card is drawn face up), H3 (= the standard D3 defence) and
REVIVE (= D2b).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from tourney.engine.core import Action
from tourney.engine.games.tiny_ninjas import actions as A
from tourney.engine.games.tiny_ninjas import rules as R
from tourney.engine.games.tiny_ninjas.data import (
    AB_DOOM,
    AB_GRAB,
    AB_INTEL,
    AB_LIFE_DRAIN,
    AB_PHANTOM,
    ATK_ABILITY,
    ATK_COLOUR,
    ATK_DICE,
    ATK_FACE,
    ATK_VALUE,
    BLUE,
    DEF_ABILITY,
    DEF_DICE,
    DEF_FACE,
    DEF_SHELL,
    DEF_SHIELD,
    DEF_VALUE,
    DIE_FACES,
    HEAL_AMOUNT,
    INSTANCE_TYPE,
    KW_COUNTER,
    KW_FREEZE,
    KW_SNEAK,
    NON_DAMAGE_TYPES,
    S_ROUNDS_ATT,
    SHELL_ALL,
    SHOWN_ID,
    SNEAK_LOSS,
    T_ANGEL,
    T_MEDIC,
    T_MONK,
    T_PRINCESS,
    T_WOLF,
    TOKEN_BLUE,
    TOKEN_RED,
    YELLOW,
)
from tourney.engine.games.tiny_ninjas.modes import Mode

if TYPE_CHECKING:
    from tourney.engine.games.tiny_ninjas.state import TinyNinjasState

HUMAN = 0
AI = 1
AI_ATTACKS = 3  # the AI always attacks exactly 3 times per AI_ROUND
PRINCESS_HEAL_AT = 6  # the AI's Princess heals at 6 HEALTH or lower, attacks at 7+
AI_MAX_HEALTH = 10
_SUBSETS = ((0,), (0, TOKEN_RED), (0, TOKEN_BLUE), (0, TOKEN_RED, TOKEN_BLUE, TOKEN_RED | TOKEN_BLUE))







def _ai_draw(s: TinyNinjasState) -> int:
    """One card off the draw pile for the AI (lazy reshuffle); -1 if there is none at all."""
    if not s.draw:
        if not s.discard:
            return -1
        s.log.append((-1, "reshuffle", list(s.discard)))
        s.draw = R.shuffle(s.chance, "deal", s.discard)
        s.draw.reverse()
        s.discard = []
    card = s.draw.pop()
    if not s.draw:
        s.empty_flag = True
    return card


def ai_defend(s: TinyNinjasState) -> None:
    """AI_DEFEND: the AI's drawn card answers the human's attack, with the difficulty's matching."""
    card = s.ai_card
    s.ai_card = -1
    amount = s.p_amount
    blocked = 0
    counter = 0
    if amount > 0:
        t = INSTANCE_TYPE[card]
        da = DEF_ABILITY[t]
        shield = DEF_SHIELD[t]
        value = 0
        if DEF_DICE[t] == 0:
            value = DEF_VALUE[t]  # Alien: flat Red 3, and never abducts here
        else:
            faces = DEF_FACE[t]
            rolled = R.roll2(s, "dice/ai", "ai") if DEF_DICE[t] == 2 else (R.roll(s, "dice/ai", "ai"),)
            for f in rolled:
                v = faces[f - 1]
                if v == KW_COUNTER:
                    counter += 1
                else:
                    value += v
        if da == DEF_SHELL and value >= SHELL_ALL:
            blocked = amount  # SHELL on White blocks everything at every difficulty
        else:
            difficulty = s.cfg["difficulty"]
            if difficulty == "hard" or shield == YELLOW or shield & s.p_colour:
                effective = value
            elif difficulty == "normal":
                effective = (value + 1) // 2  # a wrong shield at half strength, rounded up
            else:
                effective = 0
            blocked = min(effective, amount)
        s.log.append((-1, "defend", AI, card, False))
        s.log.append((-1, "shield", blocked, counter))
    s.discard.append(card)  # the AI's card is discarded, used or not (A25b)
    R.resolve(s, blocked, counter, -1)




def _end_human_round(s: TinyNinjasState) -> None:
    s.log.append((-1, "end_round", s.round))
    if s.round >= s.cfg["round_cap"]:
        R.finish_battle(s, "cap")
        return
    s.round += 1
    s.attacker = AI
    s.attacks = 0
    s.freeze = False
    s.log.append((-1, "round", s.round, AI))
    _ai_attack(s)


def _end_ai_round(s: TinyNinjasState) -> None:
    s.log.append((-1, "end_round", s.round))
    if s.round >= s.cfg["round_cap"]:
        R.finish_battle(s, "cap")
        return
    R.draw_cards(s, HUMAN, s.limit[HUMAN] - len(s.hands[HUMAN]))
    s.round += 1
    s.attacker = HUMAN
    s.attacks = 0
    s.freeze = False
    s.stats[HUMAN][S_ROUNDS_ATT] += 1
    s.log.append((-1, "round", s.round, HUMAN))
    if s.hands[HUMAN]:
        s.set_phase(R.P_SOLO_H1, (HUMAN,))
    else:
        _end_human_round(s)


def _ai_attack(s: TinyNinjasState) -> None:
    """AI_ATTACK for attack k = attacks + 1: draw a card face up onto the discard pile and resolve it."""
    k = s.attacks + 1
    card = _ai_draw(s)
    frozen = s.freeze  # a pending freeze is used up by this attack
    s.freeze = False
    if card < 0:  # nothing left to draw anywhere: the attack does nothing
        R.after_attack(s)
        return
    s.discard.append(card)
    s.log.append((-1, "ai_attack", k, card))
    colour, amount, undef, gain, drain, freeze = _ai_resolve(s, card, k)
    if frozen:
        undef += amount
        amount = 0
    if freeze:
        s.freeze = True
        s.log.append((-1, "freeze", AI))
    s.p_colour = colour
    s.p_amount = amount
    s.p_undef = undef
    s.p_gain = gain
    s.p_drain = drain
    if amount or undef:
        s.log.append((-1, "attack", colour, amount, undef, frozen))
    if amount > 0 and s.hands[HUMAN]:
        s.set_phase(R.P_DEFEND, (HUMAN,))
        return
    R.resolve(s, 0, 0, -1)


def _ai_resolve(s: TinyNinjasState, card: int, k: int) -> tuple[int, int, int, int, bool, bool]:
    """AI_RESOLVE: (colour, defendable amount, undefendable, AI heal, life drain?, sets freeze?).

    Sets s.p_card to the card whose section resolved (the revived card for Angel).
    """
    s.p_card = card
    t = INSTANCE_TYPE[card]
    if t == T_MEDIC:
        return 0, 0, 0, ATK_VALUE[t], False, False
    if t == T_ANGEL:
        pool = [c for c in s.discard if INSTANCE_TYPE[c] != T_ANGEL]
        if not pool:
            return 0, 0, 0, 0, False, False
        x = pool[s.chance.pick("pick/ai", len(pool))]
        s.log.append((-1, "revive", AI, x))
        return _ai_resolve(s, x, k)  # x stays in the discard pile; Angel + x are one attack
    if t == T_PRINCESS:
        if s.health[AI] <= PRINCESS_HEAL_AT:
            return 0, 0, 0, HEAL_AMOUNT["Princess"], False, False
        return BLUE, ATK_VALUE[t], 0, 0, False, False
    if t == T_MONK:
        return 0, 0, 0, ATK_VALUE[t], False, False  # MEDITATE's draw is ignored
    if t == T_WOLF:
        face = R.roll(s, "dice/ai", "ai")
        v = ATK_FACE[t][face - 1]
        if v == KW_FREEZE:
            return 0, 0, 0, 0, False, k < AI_ATTACKS  # on the 3rd attack the freeze fizzles
        return BLUE, v, 0, 0, False, False
    ab = ATK_ABILITY[t]
    colour = ATK_COLOUR[t]
    if ab == AB_PHANTOM:
        return 0, 0, ATK_VALUE[t], 0, False, False
    if ab == AB_INTEL:
        return BLUE, ATK_VALUE[t], 0, 0, False, False
    if ab in (AB_DOOM, AB_GRAB):  # only if a config puts Grim/Baby back into a Solo deck
        face = R.roll(s, "dice/ai", "ai")
        if ab == AB_DOOM and DIE_FACES[face - 1][2] == "Black" and s.hands[HUMAN]:
            hand = s.hands[HUMAN]
            c = hand[s.chance.pick("pick/ai", len(hand))]
            R.lose_card(s, HUMAN, c)
            s.discard.append(c)
            s.log.append((-1, "doom", HUMAN, c))
        return 0, 0, 0, 0, False, False
    amount = 0
    undef = 0
    if ATK_DICE[t] == 0:
        amount = ATK_VALUE[t]
    else:
        rolled = R.roll2(s, "dice/ai", "ai") if ATK_DICE[t] == 2 else (R.roll(s, "dice/ai", "ai"),)
        for f in rolled:
            v = ATK_FACE[t][f - 1]
            if v >= 0:
                amount += v
            elif v == KW_SNEAK:
                undef += SNEAK_LOSS
    return colour, amount, undef, 0, ab == AB_LIFE_DRAIN, False

class Solo(Mode):
    """SOLO (§8): the scripted AI takes over the deal, the human's H1/H2 decisions, the defence
    of the human's attacks and the Rounds; the standard rules do the rest."""

    def deal(self, s: TinyNinjasState) -> None:
        """SOLO_BATTLE setup: the human draws 5 and attacks first; the AI has health and nothing else."""
        s.health[AI] = s.cfg["ai_health"]
        s.maxh[AI] = AI_MAX_HEALTH
        s.tokens[AI] = 0
        s.limit = [s.limit[HUMAN], 0]
        R.draw_cards(s, HUMAN, min(5, s.limit[HUMAN]))
        s.attacker = HUMAN
        s.stats[HUMAN][S_ROUNDS_ATT] += 1
        s.log.append((-1, "round", s.round, HUMAN))
        s.set_phase(R.P_SOLO_H1, (HUMAN,))

    def legal(self, s: TinyNinjasState) -> list[Action]:
        """H1: non-damage plays, DECLARE_ATTACK, END_ROUND; H2: damage-capable plays with tokens."""
        out: list[Action] = []
        seen = 0
        if s.phase == R.P_SOLO_H1:
            can_attack = False
            for c in s.hands[HUMAN]:
                t = INSTANCE_TYPE[c]
                if seen & (1 << t):
                    continue
                seen |= 1 << t
                if t in NON_DAMAGE_TYPES:
                    out.append(A.PLAY[c][0])
                elif t == T_PRINCESS:
                    out.append(A.PLAY_MODE[1][c][0])
                    can_attack = True
                else:
                    can_attack = True
            if can_attack:
                out.append(A.DECLARE_ATTACK)
            if s.attacks:
                out.append(A.END_ROUND)
            return out
        subsets = _SUBSETS[s.tokens[HUMAN] & 3]
        for c in s.hands[HUMAN]:
            t = INSTANCE_TYPE[c]
            if seen & (1 << t) or t in NON_DAMAGE_TYPES:
                continue
            seen |= 1 << t
            row = A.PLAY_MODE[0][SHOWN_ID[c]] if t == T_PRINCESS else A.PLAY[SHOWN_ID[c]]
            out.extend(row[m] for m in subsets)
        return out

    def apply(self, s: TinyNinjasState, action: Action) -> None:
        """A human H1/H2 action."""
        if action is A.DECLARE_ATTACK:
            card = _ai_draw(s)
            s.ai_card = card
            if card >= 0:
                s.log.append((-1, "ai_draw", card))
            s.set_phase(R.P_SOLO_H2, (HUMAN,))
        elif action is A.END_ROUND:
            _end_human_round(s)
        else:
            assert isinstance(action, A.Play)
            R.play_card(s, R.first_copy(s.hands[HUMAN], action.card), A.TOKEN_MASK[action.tokens], action.mode)

    def undefended(self, s: TinyNinjasState) -> None:
        """H2: the AI's drawn card defends the human's attack (AI_DEFEND)."""
        if s.ai_card >= 0:
            ai_defend(s)
        else:
            R.resolve(s, 0, 0, -1)

    def after_attack(self, s: TinyNinjasState) -> None:
        """After a resolved attack (no one at 0): continue the human's or the AI's Round."""
        if s.attacker == HUMAN:
            if s.hands[HUMAN] and s.attacks < s.cfg["attack_cap_per_round"]:
                s.set_phase(R.P_SOLO_H1, (HUMAN,))
            else:
                _end_human_round(s)
            return
        if s.attacks < AI_ATTACKS:
            _ai_attack(s)
        else:
            _end_ai_round(s)


SOLO: Final = Solo()


__all__ = ["AI", "HUMAN", "SOLO", "Solo"]
