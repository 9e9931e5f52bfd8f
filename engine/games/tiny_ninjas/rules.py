"""Tiny Ninjas rules (spec tiny-ninjas.md), as functions over a TinyNinjasState, in order of play.

§1.4 setup, §3.1 decision points, §4.1 an attack (abilities in a table, ability -> handler),
§4.2 a defence, §4.3 resolution, §4.4 the end of a Round, §5 the end of a battle, §7 the
modes' changes. Where a mode replaces the order of play (Solo, §8) the state's `Mode`
(modes.py) is called. Cards are instance ints (data.INSTANCE_TYPE gives the type); the draw pile is stored
bottom-first, so the top card is `draw[-1]`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from tourney.engine.core import Action, Chance, ConfigError, IllegalAction, Outcome
from tourney.engine.games.tiny_ninjas import actions as A
from tourney.engine.games.tiny_ninjas.achievements import battle_achievements
from tourney.engine.games.tiny_ninjas.data import (
    AB_DOOM,
    AB_GRAB,
    AB_HEAL,
    AB_INTEL,
    AB_LIFE_DRAIN,
    AB_MEDITATE,
    AB_NONE,
    AB_PHANTOM,
    AB_REVIVE,
    AB_ROYAL,
    ACHIEVEMENTS,
    ATK_ABILITY,
    ATK_COLOUR,
    ATK_DICE,
    ATK_FACE,
    ATK_VALUE,
    BASE_INSTANCES,
    BLUE,
    DEF_ABDUCT,
    DEF_ABILITY,
    DEF_DICE,
    DEF_FACE,
    DEF_SHELL,
    DEF_SHIELD,
    DEF_VALUE,
    DIE_FACES,
    EXPANSION_INSTANCES,
    HEAL_AMOUNT,
    INSTANCE_NAME,
    INSTANCE_TYPE,
    KW_COUNTER,
    KW_DOOM,
    KW_FREEZE,
    KW_GRAB,
    KW_SNEAK,
    NUM_STATS,
    RED,
    S_ATTACKS,
    S_DEFENCES,
    S_HEALED,
    S_LEGEND_MAX,
    S_LOST,
    S_PYRO_SAVES,
    S_ROUNDS_ATT,
    S_SURVIVOR_USED,
    S_VAMPIRE,
    S_YELLOW,
    SHELL_ALL,
    SHOWN_ID,
    SNEAK_LOSS,
    STAT_NAMES,
    T_ANGEL,
    T_LEGEND,
    T_PRINCESS,
    T_PYRO,
    TOKEN_BLUE,
    TOKEN_RED,
    TOKEN_YELLOW,
    TYPE_BY_NAME,
    YELLOW,
)

if TYPE_CHECKING:
    from tourney.engine.games.tiny_ninjas.state import TinyNinjasState

# Decision points (§3.1, §7, §8).
P_CHOOSE: Final = 0  # D0 chooser: attack first / defend first
P_DISCARD: Final = 1  # D1 first Defender's opening discard
P_PLAY: Final = 2  # D2 Attacker: PLAY | END_ROUND
P_REVIVE: Final = 3  # D2b Attacker: REVIVE target
P_DEFEND: Final = 4  # D3 Defender: DEFEND | NO_DEFEND
P_SURVIVOR: Final = 5  # SURVIVOR option at the start of an attacking Round
P_MULLIGAN: Final = 6  # BLITZ simultaneous mulligan
P_SOLO_H1: Final = 7  # SOLO H1: NONDAMAGE card | DECLARE_ATTACK | END_ROUND
P_SOLO_H2: Final = 8  # SOLO H2: attack card after the AI's card is drawn
P_OVER: Final = 9
PHASE_NAMES: Final = ("choose_role", "opening_discard", "attack", "revive", "defend", "survivor_option",
                      "mulligan", "solo_h1", "solo_h2", "over")

TO_ACT: Final = ((0,), (1,))  # a seat on its own, as to_act() gives it
BOTH: Final = (0, 1)  # both seats at once (the BLITZ mulligan)
_NOBODY: Final = ()
_DICE: Final = ("dice/0", "dice/1")
_PICK: Final = ("pick/0", "pick/1")
# Token subsets the Attacker may commit, by available RED|BLUE mask (§3.1: YELLOW never attacks).
_SUBSETS: Final = ((0,), (0, TOKEN_RED), (0, TOKEN_BLUE), (0, TOKEN_RED, TOKEN_BLUE, TOKEN_RED | TOKEN_BLUE))


def _play_rows() -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """PLAY_ROWS[card][red_blue_mask]: every PLAY of one card's type, in stable order."""
    rows = []
    for c in range(len(INSTANCE_TYPE)):
        per_mask = []
        shown = SHOWN_ID[c]
        for mask in range(4):
            subs = _SUBSETS[mask]
            if INSTANCE_TYPE[c] == T_PRINCESS:
                per_mask.append(tuple(A.PLAY_MODE[mi][shown][m] for mi in (0, 1) for m in subs))
            else:
                per_mask.append(tuple(A.PLAY[shown][m] for m in subs))
        rows.append(tuple(per_mask))
    return tuple(rows)


PLAY_ROWS: Final = _play_rows()


def first_copy(cards: Sequence[int], shown: int, skip: Sequence[int] = ()) -> int:
    """The card an action on `shown` moves: the first copy of its type in `cards` (§3.1),
    passing over the cards in `skip`."""
    kind = INSTANCE_TYPE[shown]
    for c in cards:
        if INSTANCE_TYPE[c] == kind and c not in skip:
            return c
    raise IllegalAction(f"there is no {INSTANCE_NAME[shown]} to move.")


def shuffle(chance: Chance, name: str, items: Sequence[int]) -> list[int]:
    """A uniform shuffle of items from stream `name` (an injected permutation first, if any).

    Fisher-Yates with a 32-bit index per swap, two per 64-bit value of the stream (each value's high
    half first), so a 58-card deal costs 29 values instead of 57 (index bias below 2**-25 for decks
    this size): the deal is the costliest chance event of a random playout.
    """
    inj = chance.inject
    if inj is not None and inj.shuffles:
        return chance.shuffled(name, items)
    out = list(items)
    n = len(out)
    words = chance.next_halves(name, n // 2)  # one per swap: n - 1 swaps
    for k in range(n - 1):
        i = n - 1 - k
        j = (words[k] * (i + 1)) >> 32
        out[i], out[j] = out[j], out[i]
    return out


def build_deck(cfg: Mapping[str, Any]) -> list[int]:
    """The instances in play for `cfg` (base, + expansion, minus the mode's removals, minus Survivor Grims)."""
    deck = list(BASE_INSTANCES) + (list(EXPANSION_INSTANCES) if cfg["use_expansion"] else [])
    for name, n in cfg["remove_cards"].items():
        t = TYPE_BY_NAME[name]
        copies = [c for c in deck if INSTANCE_TYPE[c] == t]
        for c in copies[len(copies) - n:]:  # the last copies leave the deck
            deck.remove(c)
    return deck


def _to_instances(order: Sequence[Any], deck: list[int]) -> list[int]:
    """An injected deck order (names or instance ids, top first) as instances, completed with the
    rest of the deck in table order when it is partial."""
    pool = list(deck)
    out: list[int] = []
    for item in order:
        if isinstance(item, str):
            t = TYPE_BY_NAME.get(item)
            pick = next((c for c in pool if INSTANCE_TYPE[c] == t), None)
            if pick is None:
                raise ConfigError(f"injected deck_order asks for more {item!r} cards than the deck holds.")
        else:
            pick = int(item)
            if pick not in pool:
                raise ConfigError(f"injected deck_order card {item!r} is not (or no longer) in the deck.")
        pool.remove(pick)
        out.append(pick)
    return out + pool


# ------------------------------------------------------------------ setup (§1.4)
def new_battle(s: TinyNinjasState) -> None:
    """A battle begins (§1.4): health, tokens, a fresh shuffled deck; the mode deals."""
    cfg = s.cfg
    if cfg["series_wins"]:
        hp = [6 + 2 * (lv - 1) for lv in s.level]
        s.health = list(hp)
        s.maxh = list(hp)
    else:
        s.health = list(cfg["start_health"])
        s.maxh = list(cfg["max_health"])
    s.limit = list(cfg["hand_limit"])
    full = TOKEN_RED | TOKEN_BLUE | TOKEN_YELLOW if cfg["power_ups"] else 0
    s.tokens = [full, full]
    s.hands = [[], []]
    s.known = [[], []]
    s.discard = []
    deck = build_deck(cfg)
    inj = s.chance.inject
    if inj is not None and inj.deck_order is not None:
        order = _to_instances(inj.deck_order, deck)
        inj.deck_order = None
    else:
        order = shuffle(s.chance, "deal", deck)
    order.reverse()  # stored bottom-first: the top card is draw[-1]
    s.draw = order
    s.attacker = 0
    s.round = 1
    s.attacks = 0
    s.freeze = False
    s.p_card = -1
    s.p_colour = 0
    s.p_amount = 0
    s.p_undef = 0
    s.p_gain = 0
    s.p_drain = False
    s.stats = [[0] * NUM_STATS, [0] * NUM_STATS]
    s.empty_flag = False
    s.mull = [[], []]
    s.mull_done = [False, False]
    s.mode.deal(s)


def choose_chooser(s: TinyNinjasState) -> None:
    """D0 (§1.4): who chooses the roles (config, a random seat, or the last loser in a series)."""
    chooser = s.cfg["chooser"]
    if s.cfg["series_wins"] and s.battles:
        # A24: the previous loser chooses; a drawn battle is replayed with the same chooser.
        chooser = s.last_loser if s.battles[-1]["winner"] >= 0 else s.chooser
    elif chooser == "random":
        chooser = s.chance.below("tiebreak", 2)
    s.chooser = chooser
    s.log.append((-1, "setup", chooser, [len(s.hands[0]), len(s.hands[1])]))
    s.set_phase(P_CHOOSE, TO_ACT[chooser])



# ------------------------------------------------------------------ cards moving
def draw_cards(s: TinyNinjasState, p: int, n: int) -> None:
    """Seat p draws n cards (lazy reshuffle of the discard pile, §4.6; skipped if both are empty)."""
    if n <= 0:
        return
    hand = s.hands[p]
    got = []
    draw = s.draw
    for _ in range(n):
        if not draw:
            if not s.discard:
                break
            s.log.append((-1, "reshuffle", list(s.discard)))
            draw = shuffle(s.chance, "deal", s.discard)
            draw.reverse()
            s.draw = draw
            s.discard = []
        c = draw.pop()
        if not draw:
            s.empty_flag = True
        hand.append(c)
        got.append(c)
    if got:
        s.log_private((p, "drew", p, got))
        s.log.append((-1, "draw", p, len(got)))


def gain_card(s: TinyNinjasState, p: int, card: int) -> None:
    """A card enters p's hand publicly (REVIVE, GRAB, ABDUCT); overflow goes to the discard (§4.5)."""
    if len(s.hands[p]) >= s.limit[p]:
        s.discard.append(card)
        return
    s.hands[p].append(card)
    s.known[p].append(card)


def lose_card(s: TinyNinjasState, p: int, card: int) -> None:
    """A card leaves p's hand face up; the opponent's knowledge of p's hand follows (§2.2)."""
    s.hands[p].remove(card)
    k = s.known[p]
    if not k:
        return
    if card in k:
        k.remove(card)
        return
    # Copies of a type look alike from outside (§3.1 plays the first in hand order): when a
    # hidden copy leaves, the opponent cannot tell it from the known one, so that one stops
    # being known; keeping it would tell the opponent a second copy was in the hand.
    kind = INSTANCE_TYPE[card]
    for i, c in enumerate(k):
        if INSTANCE_TYPE[c] == kind:
            del k[i]
            return


def roll(s: TinyNinjasState, stream: str, seat: int | str) -> int:
    """One TN die from `stream`, logged publicly."""
    face: int = s.chance.roll(stream, 6)
    ev = (-1, "roll", seat, [face])
    s.log.append(ev)
    s.last_roll = ev
    return face


def roll2(s: TinyNinjasState, stream: str, seat: int | str) -> tuple[int, int]:
    """Two TN dice from `stream`, logged publicly."""
    roll = s.chance.roll
    f1 = roll(stream, 6)
    f2 = roll(stream, 6)
    ev = (-1, "roll", seat, [f1, f2])
    s.log.append(ev)
    s.last_roll = ev
    return f1, f2



# ------------------------------------------------------------------ decision points (§3.1)
def legal(s: TinyNinjasState) -> list[Action]:
    """The legal actions at the current (sequential) decision point, in stable order."""
    phase = s.phase
    out: list[Action] = []
    if phase == P_PLAY:
        a = s.attacker
        tok = s.tokens[a] & 3
        seen = 0
        for c in s.hands[a]:
            bit = 1 << INSTANCE_TYPE[c]
            if not seen & bit:
                seen |= bit
                out.extend(PLAY_ROWS[c][tok])
        if s.attacks and not s.cfg["must_attack"]:
            out.append(A.END_ROUND)
    elif phase == P_DEFEND:
        d = 1 - s.attacker
        yellow = s.tokens[d] & TOKEN_YELLOW
        seen = 0
        for c in s.hands[d]:
            bit = 1 << INSTANCE_TYPE[c]
            if not seen & bit:
                seen |= bit
                pair = A.DEFEND[SHOWN_ID[c]]
                out.append(pair[0])
                if yellow:
                    out.append(pair[1])
        out.append(A.NO_DEFEND)
    elif phase == P_REVIVE:
        seen = 0
        for c in s.discard:
            t = INSTANCE_TYPE[c]
            bit = 1 << t
            if t != T_ANGEL and not seen & bit:
                seen |= bit
                out.append(A.REVIVE[SHOWN_ID[c]])
    elif phase == P_CHOOSE:
        out = [A.CHOOSE_ATTACK, A.CHOOSE_DEFEND]
    elif phase == P_DISCARD:
        seen = 0
        for c in s.hands[1 - s.attacker]:
            bit = 1 << INSTANCE_TYPE[c]
            if not seen & bit:
                seen |= bit
                out.append(A.DISCARD[SHOWN_ID[c]])
    elif phase == P_SURVIVOR:
        out = [A.SURVIVOR_DOOM, A.SURVIVOR_HEAL, A.SURVIVOR_PASS]
    elif phase in (P_SOLO_H1, P_SOLO_H2):
        out = s.mode.legal(s)
    return out


def mulligan_legal(s: TinyNinjasState, seat: int) -> list[Action]:
    """BLITZ mulligan (§7.1): keep the hand, or set one more card aside."""
    if s.mull_done[seat]:
        return [A.KEEP_HAND]
    marked = s.mull[seat]
    out: list[Action] = [A.KEEP_HAND]
    seen = 0
    for c in s.hands[seat]:
        if c in marked:
            continue
        bit = 1 << INSTANCE_TYPE[c]
        if not seen & bit:
            seen |= bit
            out.append(A.MULLIGAN[SHOWN_ID[c]])
    return out



# ------------------------------------------------------------------ setup decisions (§1.4, §7.1)
def choose_role(s: TinyNinjasState, seat: int, attack_first: bool) -> None:
    """D0: the chooser attacks or defends first; then D1 (opening discard) or the first Round."""
    s.log.append((-1, "choose", seat, attack_first))
    s.attacker = seat if attack_first else 1 - seat
    d = 1 - s.attacker
    s.round = 1
    if s.cfg["opening_discard"] and s.hands[d]:
        s.set_phase(P_DISCARD, TO_ACT[d])
        return
    start_round(s)


def apply_mulligan(s: TinyNinjasState, actions: Mapping[int, Action]) -> None:
    """BLITZ mulligan step (§7.1): both seats at once; when both are done, discard and redraw."""
    for seat in (0, 1):
        action = actions.get(seat)
        if action is None:
            raise IllegalAction(f"seat {seat} must choose its mulligan step but sent no action.")
        if action not in mulligan_legal(s, seat):
            raise IllegalAction(f"'{action.label}' is not a legal mulligan step for seat {seat} now.")
    for seat in (0, 1):
        action = actions[seat]
        if isinstance(action, A.Mulligan):
            s.mull[seat].append(first_copy(s.hands[seat], action.card, s.mull[seat]))
            if len(s.mull[seat]) >= s.cfg["mulligan"]:
                s.mull_done[seat] = True
        else:
            s.mull_done[seat] = True
    s._legal = None
    if not (s.mull_done[0] and s.mull_done[1]):
        return
    # Both are done: discards face up, seat 0's first; then seat 0 redraws, then seat 1 (§7.1).
    for seat in (0, 1):
        for c in s.mull[seat]:
            lose_card(s, seat, c)
            s.discard.append(c)
        s.log.append((-1, "mulligan", seat, list(s.mull[seat])))
    for seat in (0, 1):
        draw_cards(s, seat, len(s.mull[seat]))
    s.mull = [[], []]
    choose_chooser(s)


def opening_discard(s: TinyNinjasState, seat: int, card: int) -> None:
    """D1: the first Defender discards one card face up, then the first Round starts."""
    lose_card(s, seat, card)
    s.discard.append(card)
    s.log.append((-1, "discard", seat, card))
    start_round(s)


# ------------------------------------------------------------------ rounds (§3.1, §4.4)
def start_round(s: TinyNinjasState) -> None:
    """Round `s.round` begins with `s.attacker` attacking."""
    a = s.attacker
    s.attacks = 0
    s.freeze = False
    s.stats[a][S_ROUNDS_ATT] += 1
    s.log.append((-1, "round", s.round, a))
    if s.cfg["survivor"]:
        s.set_phase(P_SURVIVOR, TO_ACT[a])
        return
    begin_attacks(s)


def begin_attacks(s: TinyNinjasState) -> None:
    """D2 for the Attacker, or an empty-handed Attacker's Round ends at once (§3.1)."""
    if s.hands[s.attacker]:
        s.set_phase(P_PLAY, TO_ACT[s.attacker])
    else:
        # An empty-handed Attacker's Round ends at once (§3.1; BLITZ: skipped).
        s.log.append((-1, "skip_round", s.round, s.attacker))
        end_round(s)


def end_round(s: TinyNinjasState) -> None:
    """The Round is over: end checks, the Defender replenishes, roles swap (§4.4, §5.2)."""
    while True:
        s.log.append((-1, "end_round", s.round))
        if s.cfg["end_when_hands_empty"] and not s.hands[0] and not s.hands[1]:
            finish_battle(s, "cards_exhausted")
            return
        if s.round >= s.cfg["round_cap"]:
            finish_battle(s, "cap")
            return
        d = 1 - s.attacker
        if s.cfg["replenish"]:
            draw_cards(s, d, s.limit[d] - len(s.hands[d]))
        s.attacker = d
        s.round += 1
        s.attacks = 0
        s.freeze = False
        s.stats[d][S_ROUNDS_ATT] += 1
        s.log.append((-1, "round", s.round, d))
        if s.cfg["survivor"]:
            s.set_phase(P_SURVIVOR, TO_ACT[d])
            return
        if s.hands[d]:
            s.set_phase(P_PLAY, TO_ACT[d])
            return
        s.log.append((-1, "skip_round", s.round, d))


def survivor_option(s: TinyNinjasState, option: str) -> None:
    """SURVIVOR (§7.2): DOOM (one shade die, Black discards a random Defender card), HEAL_1 or PASS."""
    a = s.attacker
    d = 1 - a
    s.log.append((-1, "survivor", a, option))
    if option == "DOOM":
        s.stats[a][S_SURVIVOR_USED] += 1
        face = roll(s, _DICE[a], a)
        if DIE_FACES[face - 1][2] == "Black" and s.hands[d]:
            doom(s, a, d)
    elif option == "HEAL_1":
        s.stats[a][S_SURVIVOR_USED] += 1
        heal(s, a, 1)
    begin_attacks(s)


def heal(s: TinyNinjasState, p: int, amount: int) -> None:
    """Seat p gains up to `amount` HEALTH, never above its maximum (§4.3)."""
    before = s.health[p]
    after = min(before + amount, s.maxh[p])
    s.health[p] = after
    s.stats[p][S_HEALED] += after - before
    s.log.append((-1, "health", list(s.health)))


def doom(s: TinyNinjasState, a: int, d: int) -> None:
    """A random card of the Defender's hand is discarded face up (DOOM, §9.1)."""
    hand = s.hands[d]
    c = hand[s.chance.pick(_PICK[a], len(hand))]
    lose_card(s, d, c)
    s.discard.append(c)
    s.log.append((-1, "doom", d, c))


# ------------------------------------------------------------------ attack abilities (§4.1 step 2, §9.3)
# What an attack card does, by ability: (defendable amount, undefendable loss, heal for the
# Attacker, numeric damage?, sets a freeze?), or None when it opened a decision (REVIVE's
# target) and the attack goes on from there.
Effect = tuple[int, int, int, bool, bool] | None
AbilityHandler = Callable[["TinyNinjasState", int, int, int, str], Effect]
NO_EFFECT: Final = (0, 0, 0, False, False)


def _strike(s: TinyNinjasState, t: int, a: int, d: int, mode: str) -> Effect:
    """No ability, or LIFE_DRAIN (its heal comes at resolution): the printed value, or dice
    read for numbers, SNEAK (undefendable) and FREEZE."""
    dice = ATK_DICE[t]
    if dice == 0:
        return ATK_VALUE[t], 0, 0, True, False
    faces = ATK_FACE[t]
    rolled = roll2(s, _DICE[a], a) if dice == 2 else (roll(s, _DICE[a], a),)
    amount = undef = 0
    numeric = freeze = False
    for f in rolled:
        v = faces[f - 1]
        if v >= 0:
            amount += v
            numeric = True
        elif v == KW_SNEAK:
            undef += SNEAK_LOSS
        elif v == KW_FREEZE:
            freeze = True
    return amount, undef, 0, numeric, freeze


def _royal(s: TinyNinjasState, t: int, a: int, d: int, mode: str) -> Effect:
    """ROYAL (Princess): heal, or attack for the printed value, as the Attacker chose."""
    if mode == A.HEAL:
        return 0, 0, HEAL_AMOUNT["Princess"], False, False
    return ATK_VALUE[t], 0, 0, True, False


def _self_heal(s: TinyNinjasState, t: int, a: int, d: int, mode: str) -> Effect:
    """HEAL (Medic) and MEDITATE (Monk, whose draw comes after resolution): heal the Attacker."""
    return 0, 0, ATK_VALUE[t], False, False


def _revive_target(s: TinyNinjasState, t: int, a: int, d: int, mode: str) -> Effect:
    """REVIVE (Angel): the Attacker picks a non-Angel card from the discard pile (D2b)."""
    if any(INSTANCE_TYPE[c] != T_ANGEL for c in s.discard):
        s.set_phase(P_REVIVE, TO_ACT[a])
        return None
    return NO_EFFECT


def _doom_roll(s: TinyNinjasState, t: int, a: int, d: int, mode: str) -> Effect:
    """DOOM (Grim): on the DOOM face a random Defender card is discarded."""
    face = roll(s, _DICE[a], a)
    if ATK_FACE[t][face - 1] == KW_DOOM and s.hands[d]:
        doom(s, a, d)
    return NO_EFFECT


def _grab_roll(s: TinyNinjasState, t: int, a: int, d: int, mode: str) -> Effect:
    """GRAB (Baby): on the GRAB face a random Defender card moves to the Attacker's hand."""
    face = roll(s, _DICE[a], a)
    hand = s.hands[d]
    if ATK_FACE[t][face - 1] == KW_GRAB and hand:
        c = hand[s.chance.pick(_PICK[a], len(hand))]
        lose_card(s, d, c)
        gain_card(s, a, c)
        s.log.append((-1, "grab", a, c))
    return NO_EFFECT


def _phantom(s: TinyNinjasState, t: int, a: int, d: int, mode: str) -> Effect:
    """PHANTOM: the printed value as undefendable loss."""
    return 0, ATK_VALUE[t], 0, False, False


def _intel(s: TinyNinjasState, t: int, a: int, d: int, mode: str) -> Effect:
    """INTEL (Spy): the Attacker sees the Defender's hand, then attacks for the printed value."""
    s.log_private((a, "intel", a, list(s.hands[d])))
    return ATK_VALUE[t], 0, 0, True, False


ATTACK_ABILITIES: Final[dict[int, AbilityHandler]] = {
    AB_NONE: _strike,
    AB_LIFE_DRAIN: _strike,
    AB_ROYAL: _royal,
    AB_HEAL: _self_heal,
    AB_MEDITATE: _self_heal,
    AB_REVIVE: _revive_target,
    AB_DOOM: _doom_roll,
    AB_GRAB: _grab_roll,
    AB_PHANTOM: _phantom,
    AB_INTEL: _intel,
}


# ------------------------------------------------------------------ an attack (§4.1)
def play_card(s: TinyNinjasState, card: int, tokmask: int, mode: str) -> None:
    """D2 PLAY (§4.1): the card is discarded, tokens spent, its ability applied, then D3 or resolution."""
    a = s.attacker
    d = 1 - a
    lose_card(s, a, card)
    s.discard.append(card)
    s.stats[a][S_ATTACKS] += 1
    log = s.log
    log.append((-1, "play", a, card, A.PLAY[card][tokmask].tokens, mode))
    frozen = s.freeze  # step 0: every play uses up a pending freeze
    s.freeze = False
    s.tokens[a] &= ~tokmask
    t = INSTANCE_TYPE[card]
    ab = ATK_ABILITY[t]
    colour = ATK_COLOUR[t]
    effect = ATTACK_ABILITIES[ab](s, t, a, d, mode)
    if effect is None:  # the ability opened a decision (REVIVE's target); the attack ends there
        return
    amount, undef, gain, numeric, new_freeze = effect
    # Step 4: a token adds 1 to numeric damage of its own colour.
    if numeric and tokmask and (colour == RED and tokmask & TOKEN_RED or colour == BLUE and tokmask & TOKEN_BLUE):
        amount += 1
    if t == T_LEGEND and amount > s.stats[a][S_LEGEND_MAX]:
        s.stats[a][S_LEGEND_MAX] = amount
    if frozen:  # step 5: a frozen attack cannot be defended
        undef += amount
        amount = 0
    if new_freeze:
        s.freeze = True
        log.append((-1, "freeze", a))
    s.p_card = card
    s.p_colour = colour
    s.p_amount = amount
    s.p_undef = undef
    s.p_gain = gain
    s.p_drain = ab == AB_LIFE_DRAIN
    if amount or undef:
        log.append((-1, "attack", colour, amount, undef, frozen))
    if amount > 0 and s.hands[d]:
        s.set_phase(P_DEFEND, TO_ACT[d])
        return
    s.mode.undefended(s)


def revive(s: TinyNinjasState, card: int) -> None:
    """D2b REVIVE: the chosen discarded card returns to the Attacker's hand; the attack is over."""
    a = s.attacker
    s.discard.remove(card)
    gain_card(s, a, card)
    s.log.append((-1, "revive", a, card))
    s.p_card = -1
    s.p_amount = s.p_undef = s.p_gain = 0
    s.p_drain = False
    after_attack(s)


# ------------------------------------------------------------------ a defence (§4.2)
def defend(s: TinyNinjasState, card: int, yellow: bool) -> None:
    """D3 DEFEND (§4.2): the card's shield value (dice, YELLOW +1) blocks what matches the attack's colour."""
    d = 1 - s.attacker
    lose_card(s, d, card)
    s.discard.append(card)
    s.stats[d][S_DEFENCES] += 1
    s.log.append((-1, "defend", d, card, yellow))
    if yellow:
        s.tokens[d] &= ~TOKEN_YELLOW
    t = INSTANCE_TYPE[card]
    da = DEF_ABILITY[t]
    shield = DEF_SHIELD[t]
    amount = s.p_amount
    counter = 0
    dice = DEF_DICE[t]
    if dice == 0:
        value = DEF_VALUE[t]
    else:
        faces = DEF_FACE[t]
        rolled = roll2(s, _DICE[d], d) if dice == 2 else (roll(s, _DICE[d], d),)
        value = 0
        for f in rolled:
            v = faces[f - 1]
            if v == KW_COUNTER:
                counter += 1
            else:
                value += v
    if yellow:
        value += 1
    if da == DEF_SHELL and value >= SHELL_ALL:  # SHELL on White: everything is blocked
        blocked = amount
    else:
        blocked = value if value < amount else amount
        if not shield & s.p_colour:
            blocked = 0
        if shield == YELLOW:  # a Yellow-shield card (SHELL on Black counts, §9.6 #6)
            s.stats[d][S_YELLOW] += 1
    if t == T_PYRO and amount + s.p_undef >= s.health[d] and amount - blocked + s.p_undef < s.health[d]:
        s.stats[d][S_PYRO_SAVES] += 1
    s.log.append((-1, "shield", blocked, counter))
    resolve(s, blocked, counter, card if da == DEF_ABDUCT else -1)


def no_defence(s: TinyNinjasState, seat: int) -> None:
    """D3 NO_DEFEND: the whole attack lands."""
    s.log.append((-1, "no_defend", seat))
    resolve(s, 0, 0, -1)


# ------------------------------------------------------------------ resolution (§4.3)
def resolve(s: TinyNinjasState, blocked: int, counter: int, abductor: int) -> None:
    """Apply the pending attack: all health changes at once, then the post-effects."""
    a = s.attacker
    d = 1 - a
    health = s.health
    st = s.stats
    amount = s.p_amount
    def_loss = amount - blocked + s.p_undef
    hd = health[d]
    lost_d = def_loss if def_loss < hd else hd
    gain = s.p_gain
    drain = 0
    if s.p_drain:
        drain = lost_d
        gain += lost_d
    ha = health[a]
    new_a = ha - counter + gain
    if new_a < 0:
        new_a = 0
    elif new_a > s.maxh[a]:
        new_a = s.maxh[a]
    changed = lost_d or new_a != ha
    health[d] = hd - lost_d
    health[a] = new_a
    if lost_d:
        st[d][S_LOST] += lost_d
    if counter:
        st[a][S_LOST] += counter if counter < ha else ha
    if gain:
        healed = new_a - max(ha - counter, 0)
        if healed > 0:
            st[a][S_HEALED] += healed
            if drain:
                st[a][S_VAMPIRE] += min(drain, healed)
    if changed:
        s.log.append((-1, "health", list(health)))
    # Post-effects (§4.3): ABDUCT, MEDITATE.
    card = s.p_card
    if (abductor >= 0 and s.p_colour == RED and amount > 0 and amount - blocked == 0
            and card >= 0 and card in s.discard):
        s.discard.remove(card)
        gain_card(s, d, card)
        s.log.append((-1, "abduct", d, card))
    if card >= 0 and ATK_ABILITY[INSTANCE_TYPE[card]] == AB_MEDITATE and len(s.hands[a]) < s.limit[a]:
        draw_cards(s, a, 1)
    after_attack(s)


def after_attack(s: TinyNinjasState) -> None:
    """After every attack (§5.1): a knockout ends the battle, else the mode decides what follows."""
    s.attacks += 1
    health = s.health
    if health[0] == 0 or health[1] == 0:
        finish_battle(s, "double_knockout" if health[0] == health[1] else "elimination")
        return
    s.mode.after_attack(s)


# ------------------------------------------------------------------ the end (§5)
def finish_battle(s: TinyNinjasState, reason: str) -> None:
    """A battle ended (elimination, double knockout, cap, cards exhausted)."""
    h = s.health
    winner = 0 if h[0] > h[1] else 1 if h[1] > h[0] else -1
    earned = battle_achievements(s, winner, reason)
    record = {
        "battle": s.battle,
        "winner": winner,
        "reason": reason,
        "health": list(h),
        "rounds": s.round,
        "levels": list(s.level),
        "stats": [dict(zip(STAT_NAMES, s, strict=True)) for s in s.stats],
        "drew_pile_empty": s.empty_flag,
        "achievements": earned,
    }
    s.battles.append(record)
    s.log.append((-1, "battle_end", s.battle, winner, reason, list(h)))
    if s.cfg["series_wins"]:
        if winner >= 0:
            s.wins[winner] += 1
            s.level[1 - winner] += 1
            s.last_loser = 1 - winner
        if max(s.wins) < s.cfg["series_wins"] and s.battle < s.cfg["series_cap"]:
            s.battle += 1
            new_battle(s)
            return
        finish_series(s)
        return
    ranking = ((0, 1),) if winner < 0 else ((winner,), (1 - winner,))
    details = {
        "mode": s.cfg["mode"],
        "rounds": s.round,
        "stats": record["stats"],
        "drew_pile_empty": s.empty_flag,
        "achievements": earned,
        "achievement_names": {p: [ACHIEVEMENTS[n] for n in earned[p]] for p in (0, 1)},
        "winner": winner,
    }
    if s.solo:
        details["difficulty"] = s.cfg["difficulty"]
    end_match(s, Outcome(ranking=ranking, scores=(float(h[0]), float(h[1])), reason=reason, details=details))


def finish_series(s: TinyNinjasState) -> None:
    """CHAMPION (§7.3): the series is decided (wins, or the battle cap); #19 for an undefeated winner."""
    w = s.wins
    winner = 0 if w[0] > w[1] else 1 if w[1] > w[0] else -1
    reason = "series" if max(w) >= s.cfg["series_wins"] else "series_cap"
    earned: dict[int, list[int]] = {0: [], 1: []}
    for rec in s.battles:
        for seat in (0, 1):
            for n in rec["achievements"][seat]:
                if n not in earned[seat]:
                    earned[seat].append(n)
    if winner >= 0 and w[1 - winner] == 0:
        earned[winner].append(19)  # CHAMPION undefeated
    for seat in (0, 1):
        earned[seat].sort()
    ranking = ((0, 1),) if winner < 0 else ((winner,), (1 - winner,))
    details = {
        "mode": s.cfg["mode"],
        "battles": s.battles,
        "wins": list(w),
        "achievements": earned,
        "achievement_names": {p: [ACHIEVEMENTS[n] for n in earned[p]] for p in (0, 1)},
        "winner": winner,
    }
    end_match(s, Outcome(ranking=ranking, scores=(float(w[0]), float(w[1])), reason=reason, details=details))


def end_match(s: TinyNinjasState, outcome: Outcome) -> None:
    """The match is over with `outcome`."""
    s.result = outcome
    s.log.append((-1, "end", outcome.reason, [list(t) for t in outcome.ranking]))
    s.set_phase(P_OVER, _NOBODY)
