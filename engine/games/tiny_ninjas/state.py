"""Tiny Ninjas rules: one battle (or one Champion series) as a flat, fast State.

The rules follow the spec's order of play (§1.4 setup, §3.1 decision points, §4 resolution,
§5 termination). Cards are instance ints (data.INSTANCE_TYPE gives the type); the draw pile
is stored bottom-first so the top card is `draw[-1]`. The legal list of a decision point is
built once and cached until the next `apply`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from engine.core import Action, Chance, ConfigError, IllegalAction, Inject, Observation, Outcome, State
from engine.games.tiny_ninjas import actions as A
from engine.games.tiny_ninjas import config as C
from engine.games.tiny_ninjas.data import (
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
    CARDS,
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
    RED,
    SHELL_ALL,
    SHOWN_ID,
    SNEAK_LOSS,
    T_ANGEL,
    T_LEGEND,
    T_PRINCESS,
    T_PYRO,
    TOKEN_BLUE,
    TOKEN_NAMES,
    TOKEN_RED,
    TOKEN_YELLOW,
    TYPE_BY_NAME,
    TYPE_INSTANCES,
    YELLOW,
)

if TYPE_CHECKING:
    from engine.core import Game

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

# Per-seat stats (§2.1, §9.6), indices into stats[p].
S_HEALED: Final = 0  # healing_received
S_LOST: Final = 1  # health_lost
S_YELLOW: Final = 2  # yellow_shields_used
S_VAMPIRE: Final = 3  # vampire_heal_total
S_ROUNDS_ATT: Final = 4  # rounds_as_attacker
S_PYRO_SAVES: Final = 5  # Pyro defences that avoided defeat
S_LEGEND_MAX: Final = 6  # best Legend defendable_amount
S_SURVIVOR_USED: Final = 7  # DOOM or HEAL_1 chosen in Survivor
S_ATTACKS: Final = 8  # cards played as Attacker
S_DEFENCES: Final = 9  # cards played as Defender
STAT_NAMES: Final = ("healing_received", "health_lost", "yellow_shields_used", "vampire_heal_total",
                     "rounds_as_attacker", "pyro_saves", "legend_best_attack", "survivor_options_used",
                     "attacks", "defences")
NUM_STATS: Final = len(STAT_NAMES)

_TO_ACT: Final = ((0,), (1,))
_BOTH: Final = (0, 1)
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

EVENTS_SHOWN: Final = 256  # the latest events a seat's observation carries (observe)


def first_copy(cards: Sequence[int], shown: int, skip: Sequence[int] = ()) -> int:
    """The card an action on `shown` moves: the first copy of its type in `cards` (§3.1),
    passing over the cards in `skip`."""
    kind = INSTANCE_TYPE[shown]
    for c in cards:
        if INSTANCE_TYPE[c] == kind and c not in skip:
            return c
    raise IllegalAction(f"there is no {INSTANCE_NAME[shown]} to move.")


def shown_ids(hand: Sequence[int]) -> list[int]:
    """The ids a hand is shown with: the k-th copy of a type gets that type's k-th id."""
    ranks: dict[int, int] = {}
    out = []
    for c in hand:
        kind = INSTANCE_TYPE[c]
        k = ranks.get(kind, 0)
        ranks[kind] = k + 1
        out.append(TYPE_INSTANCES[kind][k])
    return out

# Event formats: kind -> field names. Fields named in _CARD_FIELDS hold instance ids.
EVENT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "setup": ("chooser", "hand_sizes"),
    "draw": ("seat", "count"),  # public: how many cards a seat drew
    "drew": ("seat", "cards"),  # private to `seat`: which cards
    "choose": ("seat", "attack_first"),
    "discard": ("seat", "card"),
    "round": ("round", "attacker"),
    "play": ("seat", "card", "tokens", "mode"),
    "roll": ("seat", "faces"),
    "attack": ("colour", "amount", "undefendable", "frozen"),
    "defend": ("seat", "card", "yellow"),
    "no_defend": ("seat",),
    "shield": ("blocked", "counter"),
    "health": ("health",),
    "freeze": ("seat",),
    "revive": ("seat", "card"),
    "grab": ("seat", "card"),
    "doom": ("seat", "card"),
    "abduct": ("seat", "card"),
    "intel": ("seat", "cards"),
    "end_round": ("round",),
    "reshuffle": ("cards",),
    "survivor": ("seat", "option"),
    "mulligan": ("seat", "cards"),
    "battle_end": ("battle", "winner", "reason", "health"),
    "battle_start": ("battle", "levels", "chooser"),
    "ai_draw": ("card",),
    "ai_attack": ("attack", "card"),
    "skip_round": ("round", "attacker"),
    "end": ("reason", "ranking"),
}
_CARD_FIELDS: Final = frozenset({"card", "cards"})


def _event_dict(ev: tuple[Any, ...]) -> dict[str, Any]:
    kind = ev[1]
    out: dict[str, Any] = {"type": kind}
    for name, value in zip(EVENT_FIELDS[kind], ev[2:], strict=True):
        if name in _CARD_FIELDS:
            value = INSTANCE_NAME[value] if isinstance(value, int) else [INSTANCE_NAME[c] for c in value]
        out[name] = value
    return out


_HALF = (1 << 32) - 1


def shuffle(chance: Chance, name: str, items: Sequence[int]) -> list[int]:
    """A uniform shuffle of items from stream `name` (an injected permutation first, if any).

    Fisher-Yates with two 32-bit indices per 64-bit draw, so a 58-card deal costs 29 draws
    instead of 57 (index bias below 2**-25 for decks this size): the deal is the costliest
    chance event of a random playout.
    """
    inj = chance.inject
    if inj is not None and inj.shuffles:
        return chance.shuffled(name, items)
    out = list(items)
    nxt = chance.next64
    spare = -1
    for i in range(len(out) - 1, 0, -1):
        if spare < 0:
            x = nxt(name)
            spare = x & _HALF
            j = ((x >> 32) * (i + 1)) >> 32
        else:
            j = (spare * (i + 1)) >> 32
            spare = -1
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


class TinyNinjasState(State):
    """A Tiny Ninjas match in progress (a battle, or a Champion series of battles)."""

    __slots__ = (
        "game", "num_players", "cfg", "chance", "health", "maxh", "limit", "tokens", "hands", "draw",
        "discard", "known", "attacker", "round", "attacks", "freeze", "phase", "chooser", "p_card",
        "p_colour", "p_amount", "p_undef", "p_gain", "p_drain", "stats", "empty_flag", "log",
        "result", "_legal", "_to_act", "mull", "mull_done", "level", "wins", "battles", "battle",
        "last_loser", "solo", "ai_card",
    )

    def __init__(self, game: Game, seed: int, config: Mapping[str, Any] | None, inject: Inject | None) -> None:
        cfg = C.resolve_shared(config)
        self.game = game
        self.num_players = 2
        self.cfg = cfg
        self.chance = Chance(seed, inject)
        self.log: list[tuple[Any, ...]] = []
        self._event_dicts: list[dict[str, Any]] = []  # log[i] as a dict, built as views need them
        self.result: Outcome | None = None
        self._legal: list[Action] | None = None
        self._to_act: tuple[int, ...] = _NOBODY
        self.stats = [[0] * NUM_STATS, [0] * NUM_STATS]
        self.empty_flag = False
        self.level = [1, 1]
        self.wins = [0, 0]
        self.battles: list[dict[str, Any]] = []
        self.battle = 1
        self.last_loser = -1
        self.solo = cfg["mode"] == "solo"
        self.ai_card = -1
        self.chooser = -1
        self.mull: list[list[int]] = [[], []]
        self.mull_done = [False, False]
        self._new_battle()

    # ------------------------------------------------------------------ setup (§1.4)
    def _new_battle(self) -> None:
        cfg = self.cfg
        if cfg["series_wins"]:
            hp = [6 + 2 * (lv - 1) for lv in self.level]
            self.health = list(hp)
            self.maxh = list(hp)
        else:
            self.health = list(cfg["start_health"])
            self.maxh = list(cfg["max_health"])
        self.limit = list(cfg["hand_limit"])
        full = TOKEN_RED | TOKEN_BLUE | TOKEN_YELLOW if cfg["power_ups"] else 0
        self.tokens = [full, full]
        self.hands: list[list[int]] = [[], []]
        self.known: list[list[int]] = [[], []]
        self.discard: list[int] = []
        deck = build_deck(cfg)
        inj = self.chance.inject
        if inj is not None and inj.deck_order is not None:
            order = _to_instances(inj.deck_order, deck)
            inj.deck_order = None
        else:
            order = shuffle(self.chance, "deal", deck)
        order.reverse()  # stored bottom-first: the top card is draw[-1]
        self.draw = order
        self.attacker = 0
        self.round = 1
        self.attacks = 0
        self.freeze = False
        self.p_card = -1
        self.p_colour = 0
        self.p_amount = 0
        self.p_undef = 0
        self.p_gain = 0
        self.p_drain = False
        self.stats = [[0] * NUM_STATS, [0] * NUM_STATS]
        self.empty_flag = False
        self.mull = [[], []]
        self.mull_done = [False, False]
        if self.solo:
            from engine.games.tiny_ninjas import solo

            solo.setup(self)
            return
        initial = cfg["initial_hand"]
        for p in (0, 1):
            self._draw(p, min(5, self.limit[p]) if initial is None else initial)
        if cfg["series_wins"] and self.battles:
            self.log.append((-1, "battle_start", self.battle, list(self.level), self.last_loser))
        if cfg["mulligan"]:
            self._set_phase(P_MULLIGAN, _BOTH)
            return
        self._choose_chooser()

    def _choose_chooser(self) -> None:
        chooser = self.cfg["chooser"]
        if self.cfg["series_wins"] and self.battles:
            # A24: the previous loser chooses; a drawn battle is replayed with the same chooser.
            chooser = self.last_loser if self.battles[-1]["winner"] >= 0 else self.chooser
        elif chooser == "random":
            chooser = self.chance.below("tiebreak", 2)
        self.chooser = chooser
        self.log.append((-1, "setup", chooser, [len(self.hands[0]), len(self.hands[1])]))
        self._set_phase(P_CHOOSE, _TO_ACT[chooser])

    def _set_phase(self, phase: int, to_act: tuple[int, ...]) -> None:
        self.phase = phase
        self._to_act = to_act
        self._legal = None

    # ------------------------------------------------------------------ cards moving
    def _draw(self, p: int, n: int) -> None:
        """Seat p draws n cards (lazy reshuffle of the discard pile, §4.6; skipped if both are empty)."""
        if n <= 0:
            return
        hand = self.hands[p]
        got = []
        draw = self.draw
        for _ in range(n):
            if not draw:
                if not self.discard:
                    break
                self.log.append((-1, "reshuffle", list(self.discard)))
                draw = shuffle(self.chance, "deal", self.discard)
                draw.reverse()
                self.draw = draw
                self.discard = []
            c = draw.pop()
            if not draw:
                self.empty_flag = True
            hand.append(c)
            got.append(c)
        if got:
            self.log.append((p, "drew", p, got))
            self.log.append((-1, "draw", p, len(got)))

    def _gain(self, p: int, card: int) -> None:
        """A card enters p's hand publicly (REVIVE, GRAB, ABDUCT); overflow goes to the discard (§4.5)."""
        if len(self.hands[p]) >= self.limit[p]:
            self.discard.append(card)
            return
        self.hands[p].append(card)
        self.known[p].append(card)

    def _lose(self, p: int, card: int) -> None:
        """A card leaves p's hand face up; the opponent's knowledge of p's hand follows (§2.2)."""
        self.hands[p].remove(card)
        k = self.known[p]
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

    def _roll(self, stream: str, seat: int | str) -> int:
        face: int = self.chance.roll(stream, 6)
        self.log.append((-1, "roll", seat, [face]))
        return face

    def _roll2(self, stream: str, seat: int | str) -> tuple[int, int]:
        roll = self.chance.roll
        f1 = roll(stream, 6)
        f2 = roll(stream, 6)
        self.log.append((-1, "roll", seat, [f1, f2]))
        return f1, f2

    # ------------------------------------------------------------------ interface
    def to_act(self) -> Sequence[int]:
        """Seats that must choose now."""
        return self._to_act

    def is_over(self) -> bool:
        """True once the match has ended."""
        return self.phase == P_OVER

    def outcome(self) -> Outcome:
        """The result of a finished match."""
        if self.result is None:
            raise ValueError("the match is not over yet")
        return self.result

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Legal actions of `seat` now, in stable order (copies of one card type appear once)."""
        if seat not in self._to_act:
            return ()
        if self.phase == P_MULLIGAN:
            return self._mulligan_legal(seat)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._build_legal()
        return legal

    def _build_legal(self) -> list[Action]:
        phase = self.phase
        out: list[Action] = []
        if phase == P_PLAY:
            a = self.attacker
            tok = self.tokens[a] & 3
            seen = 0
            for c in self.hands[a]:
                bit = 1 << INSTANCE_TYPE[c]
                if not seen & bit:
                    seen |= bit
                    out.extend(PLAY_ROWS[c][tok])
            if self.attacks and not self.cfg["must_attack"]:
                out.append(A.END_ROUND)
        elif phase == P_DEFEND:
            d = 1 - self.attacker
            yellow = self.tokens[d] & TOKEN_YELLOW
            seen = 0
            for c in self.hands[d]:
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
            for c in self.discard:
                t = INSTANCE_TYPE[c]
                bit = 1 << t
                if t != T_ANGEL and not seen & bit:
                    seen |= bit
                    out.append(A.REVIVE[SHOWN_ID[c]])
        elif phase == P_CHOOSE:
            out = [A.CHOOSE_ATTACK, A.CHOOSE_DEFEND]
        elif phase == P_DISCARD:
            seen = 0
            for c in self.hands[1 - self.attacker]:
                bit = 1 << INSTANCE_TYPE[c]
                if not seen & bit:
                    seen |= bit
                    out.append(A.DISCARD[SHOWN_ID[c]])
        elif phase == P_SURVIVOR:
            out = [A.SURVIVOR_DOOM, A.SURVIVOR_HEAL, A.SURVIVOR_PASS]
        elif phase in (P_SOLO_H1, P_SOLO_H2):
            from engine.games.tiny_ninjas import solo

            out = solo.legal(self)
        return out

    def _mulligan_legal(self, seat: int) -> list[Action]:
        if self.mull_done[seat]:
            return [A.KEEP_HAND]
        marked = self.mull[seat]
        out: list[Action] = [A.KEEP_HAND]
        seen = 0
        for c in self.hands[seat]:
            if c in marked:
                continue
            bit = 1 << INSTANCE_TYPE[c]
            if not seen & bit:
                seen |= bit
                out.append(A.MULLIGAN[SHOWN_ID[c]])
        return out

    def apply(self, actions: Mapping[int, Action]) -> None:
        """Apply the acting seat's action (both seats' during the BLITZ mulligan) and resolve."""
        if self.phase == P_MULLIGAN:
            self._apply_mulligan(actions)
            return
        to_act = self._to_act
        if not to_act:
            raise IllegalAction("the match is over: no more actions can be applied.")
        seat = to_act[0]
        action = actions.get(seat)
        if action is None:
            raise IllegalAction(f"seat {seat} must act now but sent no action.")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._build_legal()
        for x in legal:
            if x is action:
                break
        else:
            if action not in legal:
                raise IllegalAction(f"'{action.label}' is not a legal action for seat {seat} now.")
        self._legal = None
        phase = self.phase
        if phase == P_PLAY:
            if action is A.END_ROUND:
                self._end_round()
            else:
                assert isinstance(action, A.Play)
                self._play(first_copy(self.hands[seat], action.card), A.TOKEN_MASK[action.tokens], action.mode)
        elif phase == P_DEFEND:
            if action is A.NO_DEFEND or not isinstance(action, A.Defend):
                self.log.append((-1, "no_defend", seat))
                self._resolve(0, 0, -1)
            else:
                self._defend(first_copy(self.hands[seat], action.card), action.yellow)
        elif phase == P_REVIVE:
            assert isinstance(action, A.Revive)
            self._revive(first_copy(self.discard, action.card))
        elif phase == P_CHOOSE:
            assert isinstance(action, A.ChooseRole)
            self._choose(seat, action.attack_first)
        elif phase == P_DISCARD:
            assert isinstance(action, A.Discard)
            card = first_copy(self.hands[seat], action.card)
            self._lose(seat, card)
            self.discard.append(card)
            self.log.append((-1, "discard", seat, card))
            self._start_round()
        elif phase == P_SURVIVOR:
            assert isinstance(action, A.SurvivorOption)
            self._survivor(action.option)
        else:
            from engine.games.tiny_ninjas import solo

            solo.apply(self, action)

    # ------------------------------------------------------------------ setup decisions
    def _choose(self, seat: int, attack_first: bool) -> None:
        self.log.append((-1, "choose", seat, attack_first))
        self.attacker = seat if attack_first else 1 - seat
        d = 1 - self.attacker
        self.round = 1
        if self.cfg["opening_discard"] and self.hands[d]:
            self._set_phase(P_DISCARD, _TO_ACT[d])
            return
        self._start_round()

    def _apply_mulligan(self, actions: Mapping[int, Action]) -> None:
        for seat in (0, 1):
            action = actions.get(seat)
            if action is None:
                raise IllegalAction(f"seat {seat} must choose its mulligan step but sent no action.")
            if action not in self._mulligan_legal(seat):
                raise IllegalAction(f"'{action.label}' is not a legal mulligan step for seat {seat} now.")
        for seat in (0, 1):
            action = actions[seat]
            if isinstance(action, A.Mulligan):
                self.mull[seat].append(first_copy(self.hands[seat], action.card, self.mull[seat]))
                if len(self.mull[seat]) >= self.cfg["mulligan"]:
                    self.mull_done[seat] = True
            else:
                self.mull_done[seat] = True
        self._legal = None
        if not (self.mull_done[0] and self.mull_done[1]):
            return
        # Both are done: discards face up, seat 0's first; then seat 0 redraws, then seat 1 (§7.1).
        for seat in (0, 1):
            for c in self.mull[seat]:
                self._lose(seat, c)
                self.discard.append(c)
            self.log.append((-1, "mulligan", seat, list(self.mull[seat])))
        for seat in (0, 1):
            self._draw(seat, len(self.mull[seat]))
        self.mull = [[], []]
        self._choose_chooser()

    # ------------------------------------------------------------------ rounds (§3.1, §4.4)
    def _start_round(self) -> None:
        """Round `self.round` begins with `self.attacker` attacking."""
        a = self.attacker
        self.attacks = 0
        self.freeze = False
        self.stats[a][S_ROUNDS_ATT] += 1
        self.log.append((-1, "round", self.round, a))
        if self.cfg["survivor"]:
            self._set_phase(P_SURVIVOR, _TO_ACT[a])
            return
        self._begin_attacks()

    def _begin_attacks(self) -> None:
        if self.hands[self.attacker]:
            self._set_phase(P_PLAY, _TO_ACT[self.attacker])
        else:
            # An empty-handed Attacker's Round ends at once (§3.1; BLITZ: skipped).
            self.log.append((-1, "skip_round", self.round, self.attacker))
            self._end_round()

    def _end_round(self) -> None:
        """The Round is over: end checks, the Defender replenishes, roles swap (§4.4, §5.2)."""
        while True:
            self.log.append((-1, "end_round", self.round))
            if self.cfg["end_when_hands_empty"] and not self.hands[0] and not self.hands[1]:
                self._finish_battle("cards_exhausted")
                return
            if self.round >= self.cfg["round_cap"]:
                self._finish_battle("cap")
                return
            d = 1 - self.attacker
            if self.cfg["replenish"]:
                self._draw(d, self.limit[d] - len(self.hands[d]))
            self.attacker = d
            self.round += 1
            self.attacks = 0
            self.freeze = False
            self.stats[d][S_ROUNDS_ATT] += 1
            self.log.append((-1, "round", self.round, d))
            if self.cfg["survivor"]:
                self._set_phase(P_SURVIVOR, _TO_ACT[d])
                return
            if self.hands[d]:
                self._set_phase(P_PLAY, _TO_ACT[d])
                return
            self.log.append((-1, "skip_round", self.round, d))

    def _survivor(self, option: str) -> None:
        """SURVIVOR (§7.2): DOOM (one shade die, Black discards a random Defender card), HEAL_1 or PASS."""
        a = self.attacker
        d = 1 - a
        self.log.append((-1, "survivor", a, option))
        if option == "DOOM":
            self.stats[a][S_SURVIVOR_USED] += 1
            face = self._roll(_DICE[a], a)
            if DIE_FACES[face - 1][2] == "Black" and self.hands[d]:
                self._doom(a, d)
        elif option == "HEAL_1":
            self.stats[a][S_SURVIVOR_USED] += 1
            self._heal(a, 1)
        self._begin_attacks()

    def _heal(self, p: int, amount: int) -> None:
        before = self.health[p]
        after = min(before + amount, self.maxh[p])
        self.health[p] = after
        self.stats[p][S_HEALED] += after - before
        self.log.append((-1, "health", list(self.health)))

    def _doom(self, a: int, d: int) -> None:
        hand = self.hands[d]
        c = hand[self.chance.pick(_PICK[a], len(hand))]
        self._lose(d, c)
        self.discard.append(c)
        self.log.append((-1, "doom", d, c))

    # ------------------------------------------------------------------ an attack (§4.1)
    def _play(self, card: int, tokmask: int, mode: str) -> None:
        a = self.attacker
        d = 1 - a
        self._lose(a, card)
        self.discard.append(card)
        self.stats[a][S_ATTACKS] += 1
        log = self.log
        log.append((-1, "play", a, card, A.PLAY[card][tokmask].tokens, mode))
        frozen = self.freeze  # step 0: every play uses up a pending freeze
        self.freeze = False
        self.tokens[a] &= ~tokmask
        t = INSTANCE_TYPE[card]
        ab = ATK_ABILITY[t]
        colour = ATK_COLOUR[t]
        amount = 0
        undef = 0
        gain = 0
        numeric = False
        new_freeze = False
        if ab in (AB_NONE, AB_LIFE_DRAIN):
            dice = ATK_DICE[t]
            if dice == 0:
                amount = ATK_VALUE[t]
                numeric = True
            else:
                faces = ATK_FACE[t]
                rolled = self._roll2(_DICE[a], a) if dice == 2 else (self._roll(_DICE[a], a),)
                for f in rolled:
                    v = faces[f - 1]
                    if v >= 0:
                        amount += v
                        numeric = True
                    elif v == KW_SNEAK:
                        undef += SNEAK_LOSS
                    elif v == KW_FREEZE:
                        new_freeze = True
        elif ab == AB_ROYAL:
            if mode == A.HEAL:
                gain = HEAL_AMOUNT["Princess"]
            else:
                amount = ATK_VALUE[t]
                numeric = True
        elif ab == AB_HEAL:
            gain = ATK_VALUE[t]
        elif ab == AB_REVIVE:
            if any(INSTANCE_TYPE[c] != T_ANGEL for c in self.discard):
                self._set_phase(P_REVIVE, _TO_ACT[a])
                return
        elif ab == AB_DOOM:
            face = self._roll(_DICE[a], a)
            if ATK_FACE[t][face - 1] == KW_DOOM and self.hands[d]:
                self._doom(a, d)
        elif ab == AB_GRAB:
            face = self._roll(_DICE[a], a)
            hand = self.hands[d]
            if ATK_FACE[t][face - 1] == KW_GRAB and hand:
                c = hand[self.chance.pick(_PICK[a], len(hand))]
                self._lose(d, c)
                self._gain(a, c)
                log.append((-1, "grab", a, c))
        elif ab == AB_PHANTOM:
            undef = ATK_VALUE[t]
        elif ab == AB_MEDITATE:
            gain = ATK_VALUE[t]
        elif ab == AB_INTEL:
            log.append((a, "intel", a, list(self.hands[d])))
            amount = ATK_VALUE[t]
            numeric = True
        # Step 4: a token adds 1 to numeric damage of its own colour.
        if numeric and tokmask and (colour == RED and tokmask & TOKEN_RED or colour == BLUE and tokmask & TOKEN_BLUE):
            amount += 1
        if t == T_LEGEND and amount > self.stats[a][S_LEGEND_MAX]:
            self.stats[a][S_LEGEND_MAX] = amount
        if frozen:  # step 5: a frozen attack cannot be defended
            undef += amount
            amount = 0
        if new_freeze:
            self.freeze = True
            log.append((-1, "freeze", a))
        self.p_card = card
        self.p_colour = colour
        self.p_amount = amount
        self.p_undef = undef
        self.p_gain = gain
        self.p_drain = ab == AB_LIFE_DRAIN
        if amount or undef:
            log.append((-1, "attack", colour, amount, undef, frozen))
        if amount > 0 and self.hands[d]:
            self._set_phase(P_DEFEND, _TO_ACT[d])
            return
        if self.solo and self.ai_card >= 0:  # SOLO H2: the AI's drawn card defends (§8)
            from engine.games.tiny_ninjas import solo

            solo.ai_defend(self)
            return
        self._resolve(0, 0, -1)

    def _revive(self, card: int) -> None:
        a = self.attacker
        self.discard.remove(card)
        self._gain(a, card)
        self.log.append((-1, "revive", a, card))
        self.p_card = -1
        self.p_amount = self.p_undef = self.p_gain = 0
        self.p_drain = False
        self._after_attack()

    # ------------------------------------------------------------------ a defence (§4.2)
    def _defend(self, card: int, yellow: bool) -> None:
        d = 1 - self.attacker
        self._lose(d, card)
        self.discard.append(card)
        self.stats[d][S_DEFENCES] += 1
        self.log.append((-1, "defend", d, card, yellow))
        if yellow:
            self.tokens[d] &= ~TOKEN_YELLOW
        t = INSTANCE_TYPE[card]
        da = DEF_ABILITY[t]
        shield = DEF_SHIELD[t]
        amount = self.p_amount
        counter = 0
        dice = DEF_DICE[t]
        if dice == 0:
            value = DEF_VALUE[t]
        else:
            faces = DEF_FACE[t]
            rolled = self._roll2(_DICE[d], d) if dice == 2 else (self._roll(_DICE[d], d),)
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
            if not shield & self.p_colour:
                blocked = 0
            if shield == YELLOW:  # a Yellow-shield card (SHELL on Black counts, §9.6 #6)
                self.stats[d][S_YELLOW] += 1
        if t == T_PYRO and amount + self.p_undef >= self.health[d] and amount - blocked + self.p_undef < self.health[d]:
            self.stats[d][S_PYRO_SAVES] += 1
        self.log.append((-1, "shield", blocked, counter))
        self._resolve(blocked, counter, card if da == DEF_ABDUCT else -1)

    # ------------------------------------------------------------------ resolution (§4.3)
    def _resolve(self, blocked: int, counter: int, abductor: int) -> None:
        """Apply the pending attack: all health changes at once, then the post-effects."""
        a = self.attacker
        d = 1 - a
        health = self.health
        st = self.stats
        amount = self.p_amount
        def_loss = amount - blocked + self.p_undef
        hd = health[d]
        lost_d = def_loss if def_loss < hd else hd
        gain = self.p_gain
        drain = 0
        if self.p_drain:
            drain = lost_d
            gain += lost_d
        ha = health[a]
        new_a = ha - counter + gain
        if new_a < 0:
            new_a = 0
        elif new_a > self.maxh[a]:
            new_a = self.maxh[a]
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
            self.log.append((-1, "health", list(health)))
        # Post-effects (§4.3): ABDUCT, MEDITATE.
        card = self.p_card
        if (abductor >= 0 and self.p_colour == RED and amount > 0 and amount - blocked == 0
                and card >= 0 and card in self.discard):
            self.discard.remove(card)
            self._gain(d, card)
            self.log.append((-1, "abduct", d, card))
        if card >= 0 and ATK_ABILITY[INSTANCE_TYPE[card]] == AB_MEDITATE and len(self.hands[a]) < self.limit[a]:
            self._draw(a, 1)
        self._after_attack()

    def _after_attack(self) -> None:
        self.attacks += 1
        health = self.health
        if health[0] == 0 or health[1] == 0:
            self._finish_battle("double_knockout" if health[0] == health[1] else "elimination")
            return
        if self.solo:
            from engine.games.tiny_ninjas import solo

            solo.after_attack(self)
            return
        a = self.attacker
        if not self.hands[a] or self.attacks >= self.cfg["attack_cap_per_round"] or self.cfg["single_attack_rounds"]:
            self._end_round()
            return
        self._set_phase(P_PLAY, _TO_ACT[a])

    # ------------------------------------------------------------------ the end (§5)
    def _finish_battle(self, reason: str) -> None:
        """A battle ended (elimination, double knockout, cap, cards exhausted)."""
        h = self.health
        winner = 0 if h[0] > h[1] else 1 if h[1] > h[0] else -1
        from engine.games.tiny_ninjas import achievements

        earned = achievements.battle_achievements(self, winner, reason)
        record = {
            "battle": self.battle,
            "winner": winner,
            "reason": reason,
            "health": list(h),
            "rounds": self.round,
            "levels": list(self.level),
            "stats": [dict(zip(STAT_NAMES, s, strict=True)) for s in self.stats],
            "drew_pile_empty": self.empty_flag,
            "achievements": earned,
        }
        self.battles.append(record)
        self.log.append((-1, "battle_end", self.battle, winner, reason, list(h)))
        if self.cfg["series_wins"]:
            if winner >= 0:
                self.wins[winner] += 1
                self.level[1 - winner] += 1
                self.last_loser = 1 - winner
            if max(self.wins) < self.cfg["series_wins"] and self.battle < self.cfg["series_cap"]:
                self.battle += 1
                self._new_battle()
                return
            self._finish_series()
            return
        ranking = ((0, 1),) if winner < 0 else ((winner,), (1 - winner,))
        details = {
            "mode": self.cfg["mode"],
            "rounds": self.round,
            "stats": record["stats"],
            "drew_pile_empty": self.empty_flag,
            "achievements": earned,
            "achievement_names": {p: [ACHIEVEMENTS[n] for n in earned[p]] for p in (0, 1)},
            "winner": winner,
        }
        if self.solo:
            details["difficulty"] = self.cfg["difficulty"]
        self._end(Outcome(ranking=ranking, scores=(float(h[0]), float(h[1])), reason=reason, details=details))

    def _finish_series(self) -> None:
        w = self.wins
        winner = 0 if w[0] > w[1] else 1 if w[1] > w[0] else -1
        reason = "series" if max(w) >= self.cfg["series_wins"] else "series_cap"
        earned: dict[int, list[int]] = {0: [], 1: []}
        for rec in self.battles:
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
            "mode": self.cfg["mode"],
            "battles": self.battles,
            "wins": list(w),
            "achievements": earned,
            "achievement_names": {p: [ACHIEVEMENTS[n] for n in earned[p]] for p in (0, 1)},
            "winner": winner,
        }
        self._end(Outcome(ranking=ranking, scores=(float(w[0]), float(w[1])), reason=reason, details=details))

    def _end(self, outcome: Outcome) -> None:
        self.result = outcome
        self.log.append((-1, "end", outcome.reason, [list(t) for t in outcome.ranking]))
        self._set_phase(P_OVER, _NOBODY)

    # ------------------------------------------------------------------ views
    def _view(self, seat: int) -> Observation:
        cfg = self.cfg
        reveal = cfg["reveal_hand"]
        hands = self.hands
        obs: Observation = {
            "game": "tiny-ninjas",
            "mode": cfg["mode"],
            "seat": seat,
            "phase": PHASE_NAMES[self.phase],
            "to_act": list(self._to_act),
            "round": self.round,
            "attacker": self.attacker,
            "defender": 1 - self.attacker,
            "attacks_this_round": self.attacks,
            "freeze_pending": self.freeze,
            "health": list(self.health),
            "max_health": list(self.maxh),
            "hand_limit": list(self.limit),
            "tokens": [[n for bit, n in TOKEN_NAMES if self.tokens[p] & bit] for p in (0, 1)],
            "hand_sizes": [len(hands[0]), len(hands[1])],
            "revealed_hands": {str(p): [INSTANCE_NAME[c] for c in hands[p]] for p in (0, 1) if reveal[p]},
            "known_cards": [[INSTANCE_NAME[c] for c in self.known[p]] for p in (0, 1)],
            "draw_pile_size": len(self.draw),
            "discard_pile": [INSTANCE_NAME[c] for c in self.discard],
            "pending_attack": None,
            "last_dice": None,
        }
        if self.phase == P_DEFEND:
            obs["pending_attack"] = {
                "card": INSTANCE_NAME[self.p_card],
                "colour": {RED: "RED", BLUE: "BLUE"}.get(self.p_colour, ""),
                "amount": self.p_amount,
                "undefendable": self.p_undef,
            }
        for ev in reversed(self.log):
            if ev[1] == "roll":
                obs["last_dice"] = {"seat": ev[2], "faces": list(ev[3]),
                                    "readings": [list(DIE_FACES[f - 1]) for f in ev[3]]}
                break
        if cfg["series_wins"]:
            obs["series"] = {"battle": self.battle, "wins": list(self.wins), "levels": list(self.level)}
        if self.solo:
            obs["difficulty"] = cfg["difficulty"]
            obs["ai_card"] = INSTANCE_NAME[self.ai_card] if self.ai_card >= 0 else None
        return obs

    def observe(self, seat: int) -> Observation:
        """Own hand, public facts and the latest EVENTS_SHOWN events of the public log plus this
        seat's private ones (§2.2); `events_total` counts them all, so a bot that keeps the
        events of earlier requests knows where this window starts. The window keeps every
        request small however long a Champion series runs."""
        obs = self._view(seat)
        obs["hand"] = [INSTANCE_NAME[c] for c in self.hands[seat]]
        obs["hand_ids"] = shown_ids(self.hands[seat])
        if self.phase == P_MULLIGAN:
            obs["mulligan_marked"] = [INSTANCE_NAME[c] for c in self.mull[seat]]
        events = self._events(seat)
        obs["events"] = events[-EVENTS_SHOWN:]
        obs["events_total"] = len(events)
        return obs

    def public_view(self) -> Observation:
        """What a spectator sees: no hidden hand, no private draw."""
        obs = self._view(-1)
        obs["events"] = self._events(-1)
        return obs

    def _events(self, seat: int) -> list[dict[str, Any]]:
        """The public events and `seat`'s private ones, as dicts.

        Each event is turned into a dict once and shared by every later view (views are
        read-only): a view is asked for on every decision and the log only grows.
        """
        done = self._event_dicts
        done.extend(_event_dict(ev) for ev in self.log[len(done):])
        return [d for ev, d in zip(self.log, done, strict=True) if ev[0] == -1 or ev[0] == seat]

    # ------------------------------------------------------------------ copies
    def clone(self) -> TinyNinjasState:
        """An independent copy, chance streams included (cheap: flat lists only)."""
        c = TinyNinjasState.__new__(TinyNinjasState)
        c.game = self.game
        c.num_players = 2
        c.cfg = self.cfg  # never mutated after construction
        c.chance = self.chance.clone()
        c.health = list(self.health)
        c.maxh = list(self.maxh)
        c.limit = self.limit
        c.tokens = list(self.tokens)
        c.hands = [list(self.hands[0]), list(self.hands[1])]
        c.draw = list(self.draw)
        c.discard = list(self.discard)
        c.known = [list(self.known[0]), list(self.known[1])]
        c.attacker = self.attacker
        c.round = self.round
        c.attacks = self.attacks
        c.freeze = self.freeze
        c.phase = self.phase
        c.chooser = self.chooser
        c.p_card = self.p_card
        c.p_colour = self.p_colour
        c.p_amount = self.p_amount
        c.p_undef = self.p_undef
        c.p_gain = self.p_gain
        c.p_drain = self.p_drain
        c.stats = [list(self.stats[0]), list(self.stats[1])]
        c.empty_flag = self.empty_flag
        c.log = list(self.log)
        c._event_dicts = []  # searches rarely look at a copy's events: it rebuilds them if asked
        c.result = self.result
        c._legal = self._legal
        c._to_act = self._to_act
        c.mull = [list(self.mull[0]), list(self.mull[1])]
        c.mull_done = list(self.mull_done)
        c.level = list(self.level)
        c.wins = list(self.wins)
        c.battles = list(self.battles)
        c.battle = self.battle
        c.last_loser = self.last_loser
        c.solo = self.solo
        c.ai_card = self.ai_card
        return c

    def determinize(self, seat: int, rng: random.Random) -> TinyNinjasState:
        """A state `seat` cannot tell apart from this one: the opponent's unknown cards and the
        draw pile order are resampled from the unseen cards, future chance is reseeded."""
        c = self.clone()
        opp = 1 - seat
        hidden_hand = not self.cfg["reveal_hand"][opp] and not self.solo
        pool = list(c.draw)
        if hidden_hand:
            known = list(c.known[opp])
            slots = []
            for i, card in enumerate(c.hands[opp]):
                if card in known:
                    known.remove(card)
                else:
                    slots.append(i)
                    pool.append(card)
            rng.shuffle(pool)
            for i in slots:
                c.hands[opp][i] = pool.pop()
            # The opponent's mulligan choices are hidden: let them choose again.
            if c.phase == P_MULLIGAN:
                c.mull[opp] = []
                c.mull_done[opp] = False
        else:
            rng.shuffle(pool)
        c.draw = pool
        c._legal = None
        c.chance.reseed(rng.getrandbits(63))
        return c


def check_players(players: int | None) -> None:
    """Tiny Ninjas is a 2-seat game (Solo keeps 2 seats: seat 1 is the engine's AI)."""
    if players is not None and players != 2:
        raise ConfigError(f"Tiny Ninjas is played by 2 seats, not {players}: pass --players 2.")


__all__ = ["CARDS", "TinyNinjasState", "build_deck", "check_players"]
