"""The Tiny Ninjas State: its fields, the Game/State interface, views, clone and determinize.

The rules themselves (what each action does, in order of play) are functions in rules.py;
the state dispatches a decision to them and shows the result. The legal list of a decision
point is built once and cached until the next `apply`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from tourney.engine.core import (
    Action,
    Chance,
    ConfigError,
    IllegalAction,
    Inject,
    Observation,
    Outcome,
    State,
    json_ready,
    view_delta,
)
from tourney.engine.games.tiny_ninjas import actions as A
from tourney.engine.games.tiny_ninjas import rules as R
from tourney.engine.games.tiny_ninjas.data import (
    BLUE,
    DIE_FACES,
    INSTANCE_NAME,
    INSTANCE_TYPE,
    RED,
    TOKEN_NAMES,
    TYPE_INSTANCES,
)
from tourney.engine.games.tiny_ninjas.modes import STANDARD, Mode
from tourney.engine.games.tiny_ninjas.solo import SOLO

if TYPE_CHECKING:
    from tourney.engine.core import Game


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

# Event formats: kind -> field names. Fields named "card" or "cards" hold instance ids.
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
EVENTS_SHOWN: Final = 256  # the latest events a seat's observation carries (observe)


def _container(value: object) -> bool:
    """Whether `value` is a list, tuple or dict (a tuple of types: mypyc tests each, building no union)."""
    return isinstance(value, (list, tuple, dict))


def _event_dict(ev: tuple[Any, ...]) -> dict[str, Any]:
    """Log entry `ev` as a view shows it: its fields by name, cards by name, containers copied (so that
    no view shares a list with the log) with every tuple turned into a list."""
    kind: str = ev[1]
    names = EVENT_FIELDS[kind]
    if len(names) != len(ev) - 2:
        raise ValueError(f"a '{kind}' event has the fields {names}, not {ev[2:]!r}")
    out: dict[str, Any] = {"type": kind}
    for k in range(len(names)):
        name = names[k]
        value = ev[k + 2]
        if name == "card" or name == "cards":  # an instance id or a list of them, shown by name
            out[name] = INSTANCE_NAME[value] if isinstance(value, int) else [INSTANCE_NAME[c] for c in value]
        elif _container(value):
            flat = not isinstance(value, dict)
            if flat:
                for item in value:
                    if _container(item):
                        flat = False
                        break
            out[name] = list(value) if flat else json_ready(value)
        else:  # a number, a string, a flag: json_ready would hand it back as it is
            out[name] = value
    return out


def _names(cards: Sequence[int]) -> list[str]:
    """The cards' names, in order (a fresh list: a view never shares one with the state)."""
    return [INSTANCE_NAME[c] for c in cards]


def _render(ev: tuple[Any, ...]) -> dict[str, Any]:
    """`_event_dict(ev)`, written out field by field for the kinds a battle logs most (a view renders the
    events it shows afresh, so that no view shares a dict with the state or with another view: this is
    its hot loop); the other kinds through `_event_dict`. Keys in EVENT_FIELDS's order."""
    kind: str = ev[1]
    if kind == "roll":
        faces: list[int] = ev[3]  # rules.roll and roll2 log a list
        return {"type": kind, "seat": ev[2], "faces": list(faces)}
    if kind == "attack":
        return {"type": kind, "colour": ev[2], "amount": ev[3], "undefendable": ev[4], "frozen": ev[5]}
    if kind == "play":
        tokens: tuple[str, ...] = ev[4]  # a Play action's tokens
        return {"type": kind, "seat": ev[2], "card": INSTANCE_NAME[ev[3]], "tokens": list(tokens), "mode": ev[5]}
    if kind == "health":
        health: list[int] = ev[2]
        return {"type": kind, "health": list(health)}
    if kind == "shield":
        return {"type": kind, "blocked": ev[2], "counter": ev[3]}
    if kind == "defend":
        return {"type": kind, "seat": ev[2], "card": INSTANCE_NAME[ev[3]], "yellow": ev[4]}
    if kind == "draw":
        return {"type": kind, "seat": ev[2], "count": ev[3]}
    if kind == "drew":
        cards: list[int] = ev[3]
        return {"type": kind, "seat": ev[2], "cards": _names(cards)}
    if kind == "round":
        return {"type": kind, "round": ev[2], "attacker": ev[3]}
    if kind == "end_round":
        return {"type": kind, "round": ev[2]}
    if kind == "no_defend":
        return {"type": kind, "seat": ev[2]}
    return _event_dict(ev)


# The names of the tokens a mask holds, by mask (data.TOKEN_NAMES's order).
TOKEN_LISTS: Final = tuple(tuple(name for bit, name in TOKEN_NAMES if mask & bit) for mask in range(8))


class TypedOptions:
    """The options the state tensor reads, typed once per match and shared by its clones (cfg is a dict:
    compiled, each read of it is a hashed lookup and a generic truth test or index)."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        """Read from the match's resolved configuration."""
        self.mode_name: str = cfg["mode"]
        self.reveal0 = bool(cfg["reveal_hand"][0])  # seat 0 plays its hand face up (two fields: compiled,
        self.reveal1 = bool(cfg["reveal_hand"][1])  # a list would be two more objects to read)
        self.series = bool(cfg["series_wins"])
        self.difficulty = bool(cfg.get("difficulty"))


class TinyNinjasState(State):
    """A Tiny Ninjas match in progress (a battle, or a Champion series of battles).

    The fields are flat lists and ints so that clone() is cheap; rules.py changes them in
    order of play. `phase` names the decision point; `p_*` hold the attack waiting for its
    defence (§4.1-§4.3); `mode` is where Solo (§8) takes over from the standard battle.
    """

    # One battle's fields (§1.4): rules.new_battle sets them at the start of every battle.
    health: list[int]
    maxh: list[int]
    limit: list[int]
    tokens: list[int]
    hands: list[list[int]]
    known: list[list[int]]  # cards of each hand the opponent has seen (§2.2)
    draw: list[int]
    discard: list[int]
    attacker: int
    round: int
    attacks: int
    freeze: bool
    p_card: int
    p_colour: int
    p_amount: int
    p_undef: int
    p_gain: int
    p_drain: bool
    stats: list[list[int]]
    empty_flag: bool
    mull: list[list[int]]
    mull_done: list[bool]

    def __init__(self, game: Game, cfg: dict[str, Any], chance: Chance, options: TypedOptions | None = None) -> None:
        """The match's fields before its first battle: `new_match` deals that, `clone` copies over them
        (and hands over its `typed_options`)."""
        self.game = game
        self.num_players = 2
        self.cfg = cfg
        self.typed_options = options if options is not None else TypedOptions(cfg)
        self.mode: Mode = SOLO if cfg["mode"] == "solo" else STANDARD
        self.solo = self.mode is SOLO
        self.chance = chance
        self.log: list[tuple[Any, ...]] = []
        # How many events of the log only seat 0, and only seat 1, may see (log_private counts them):
        # so a view knows where its window starts and how many events it could see without a scan.
        self.private_counts = [0, 0]
        self.last_roll: tuple[Any, ...] | None = None  # the log's latest "roll" event (public: views show it)
        self.result: Outcome | None = None
        self._legal: list[Action] | None = None
        self._to_act: tuple[int, ...] = ()
        self.phase = R.P_CHOOSE
        # The series (§7.3) and Solo (§8).
        self.level = [1, 1]
        self.wins = [0, 0]
        self.battles: list[dict[str, Any]] = []
        self.battle = 1
        self.last_loser = -1
        self.ai_card = -1
        self.chooser = -1

    def log_private(self, event: tuple[Any, ...]) -> None:
        """Log `event`, which only the seat it names first may see (its drawn cards, a Spy's INTEL)."""
        self.log.append(event)
        seat: int = event[0]
        self.private_counts[seat] += 1

    def forget_log(self) -> None:
        """Drop the log (a search copy's playouts need no history: no rule reads the log back)."""
        self.log = []
        self.private_counts = [0, 0]

    def set_phase(self, phase: int, to_act: tuple[int, ...]) -> None:
        """Move to decision point `phase`, with `to_act` deciding (drops the cached legal list)."""
        self.phase = phase
        self._to_act = to_act
        self._legal = None

    # ------------------------------------------------------------------ interface
    def to_act(self) -> Sequence[int]:
        """Seats that must choose now."""
        return self._to_act

    def is_over(self) -> bool:
        """True once the match has ended."""
        return self.phase == R.P_OVER

    def outcome(self) -> Outcome:
        """The result of a finished match."""
        if self.result is None:
            raise ValueError("the match is not over yet")
        return self.result

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Legal actions of `seat` now, in stable order (copies of one card type appear once)."""
        if seat not in self._to_act:
            return ()
        if self.phase == R.P_MULLIGAN:
            return R.mulligan_legal(self, seat)
        legal = self._legal
        if legal is None:
            legal = self._legal = R.legal(self)
        return legal

    def apply(self, actions: Mapping[int, Action]) -> None:
        """Apply the acting seat's action (both seats' during the BLITZ mulligan) and resolve."""
        if self.phase == R.P_MULLIGAN:
            R.apply_mulligan(self, actions)
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
            legal = self._legal = R.legal(self)
        for x in legal:
            if x is action:
                break
        else:
            if action not in legal:
                raise IllegalAction(f"'{action.label}' is not a legal action for seat {seat} now.")
        self.apply_unchecked(seat, action)

    def apply_unchecked(self, seat: int, action: Action) -> None:
        """Apply `seat`'s action at a sequential decision point without checking it against the
        legal list: for a search's playouts, whose policy picks its moves from the hands and
        must not pay for building a list per move. The action must be one `legal_actions`
        would offer; anything else leaves the state undefined."""
        self._legal = None
        phase = self.phase
        if phase == R.P_PLAY:
            if action is A.END_ROUND:
                R.end_round(self)
            else:
                assert isinstance(action, A.Play)
                R.play_card(self, R.first_copy(self.hands[seat], action.card), A.TOKEN_MASK[action.tokens],
                            action.mode)
        elif phase == R.P_DEFEND:
            if isinstance(action, A.Defend):
                R.defend(self, R.first_copy(self.hands[seat], action.card), action.yellow)
            else:
                R.no_defence(self, seat)
        elif phase == R.P_REVIVE:
            assert isinstance(action, A.Revive)
            R.revive(self, R.first_copy(self.discard, action.card))
        elif phase == R.P_CHOOSE:
            assert isinstance(action, A.ChooseRole)
            R.choose_role(self, seat, action.attack_first)
        elif phase == R.P_DISCARD:
            assert isinstance(action, A.Discard)
            R.opening_discard(self, seat, R.first_copy(self.hands[seat], action.card))
        elif phase == R.P_SURVIVOR:
            assert isinstance(action, A.SurvivorOption)
            R.survivor_option(self, action.option)
        else:
            self.mode.apply(self, action)

    # ------------------------------------------------------------------ views
    def _view(self, seat: int) -> Observation:
        cfg = self.cfg
        reveal = cfg["reveal_hand"]
        hands = self.hands
        obs: Observation = {
            "game": "tiny-ninjas",
            "mode": cfg["mode"],
            "seat": seat,
            "phase": R.PHASE_NAMES[self.phase],
            "to_act": list(self._to_act),
            "round": self.round,
            "attacker": self.attacker,
            "defender": 1 - self.attacker,
            "attacks_this_round": self.attacks,
            "freeze_pending": self.freeze,
            "health": list(self.health),
            "max_health": list(self.maxh),
            "hand_limit": list(self.limit),
            "tokens": [list(TOKEN_LISTS[self.tokens[0]]), list(TOKEN_LISTS[self.tokens[1]])],
            "hand_sizes": [len(hands[0]), len(hands[1])],
            "revealed_hands": {str(p): _names(hands[p]) for p in (0, 1) if reveal[p]},
            "known_cards": [_names(self.known[0]), _names(self.known[1])],
            "draw_pile_size": len(self.draw),
            "discard_pile": _names(self.discard),
            "pending_attack": None,
            "last_dice": None,
        }
        if self.phase == R.P_DEFEND:
            obs["pending_attack"] = {
                "card": INSTANCE_NAME[self.p_card],
                "colour": "RED" if self.p_colour == RED else "BLUE" if self.p_colour == BLUE else "",
                "amount": self.p_amount,
                "undefendable": self.p_undef,
            }
        rolled = self.last_roll
        if rolled is not None:
            faces: list[int] = rolled[3]  # typed: mypyc cannot loop over an untyped value
            obs["last_dice"] = {"seat": rolled[2], "faces": list(faces),
                                "readings": [list(DIE_FACES[f - 1]) for f in faces]}
        if cfg["series_wins"]:
            obs["series"] = {"battle": self.battle, "wins": list(self.wins), "levels": list(self.level)}
        if self.solo:
            obs["difficulty"] = cfg["difficulty"]
            obs["ai_card"] = INSTANCE_NAME[self.ai_card] if self.ai_card >= 0 else None
        return obs

    def _seat_view(self, seat: int) -> Observation:
        """The seat's view without its events: public facts, own hand, mulligan marks."""
        obs = self._view(seat)
        hand = self.hands[seat]
        obs["hand"] = _names(hand)
        obs["hand_ids"] = shown_ids(hand)
        if self.phase == R.P_MULLIGAN:
            obs["mulligan_marked"] = _names(self.mull[seat])
        return obs

    def _window_start(self, seat: int, total: int) -> int:
        """The log index of the first event of `seat`'s window (it sees `total` events in all)."""
        if total <= EVENTS_SHOWN:
            return 0
        log = self.log
        other = 1 - seat
        first = len(log)
        shown = 0
        while shown < EVENTS_SHOWN and first > 0:  # walk back from the end, never over the whole log
            first -= 1
            viewer: int = log[first][0]
            if viewer != other:
                shown += 1
        return first

    def _events_from(self, seat: int, first: int) -> list[dict[str, Any]]:
        """The events of the log from index `first` on that `seat` may see, each rendered afresh: a dict
        kept and handed to every later view would let a caller that changes one view change the next
        (copying a kept dict costs about what rendering does)."""
        log = self.log
        other = 1 - seat  # this seat sees every event but the other seat's private ones
        events = []
        for i in range(first, len(log)):
            ev = log[i]
            viewer: int = ev[0]
            if viewer != other:
                events.append(_render(ev))
        return events

    def observe(self, seat: int) -> Observation:
        """Own hand, public facts and the latest EVENTS_SHOWN events of the public log plus this
        seat's private ones (§2.2); `events_total` counts them all, so a bot that keeps the
        events of earlier requests knows where this window starts. The window keeps every
        request small however long a Champion series runs."""
        obs = self._seat_view(seat)
        total = len(self.log) - self.private_counts[1 - seat]
        obs["events"] = self._events_from(seat, self._window_start(seat, total))
        obs["events_total"] = total
        return obs

    def observe_since(self, seat: int, mark: int) -> tuple[Observation, int]:
        """`observe(seat)` whose `events` holds only the events logged since `mark` (0, then what the last
        call returned), with its `view_delta` (State.observe_since); and the mark to pass next.

        Only the new events are rendered, so a seat's request no longer costs the whole window. The
        earlier events are the caller's to keep (Hello.view_delta); the mark is the log's length, never
        shown to anyone.
        """
        obs = self._seat_view(seat)
        log = self.log
        total = len(log) - self.private_counts[1 - seat]
        first = mark
        if len(log) - mark > EVENTS_SHOWN:  # more new entries than the window holds: start at the window
            first = max(mark, self._window_start(seat, total))
        events = self._events_from(seat, first)
        obs["events"] = events
        obs["events_total"] = total
        obs["view_delta"] = view_delta("events", total - len(events), max(0, total - EVENTS_SHOWN))
        return obs, len(log)

    def public_view(self) -> Observation:
        """What a spectator sees: no hidden hand, no private draw."""
        obs = self._view(-1)
        events = []
        for ev in self.log:
            viewer: int = ev[0]
            if viewer == -1:
                events.append(_render(ev))
        obs["events"] = events
        return obs

    # ------------------------------------------------------------------ copies
    def clone(self) -> TinyNinjasState:
        """An independent copy, chance streams included (cheap: flat lists only)."""
        # Through the light __init__ (cfg is never mutated, so shared): a compiled class's __new__ runs it anyway.
        c = TinyNinjasState(self.game, self.cfg, self.chance.clone(), self.typed_options)
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
        c.private_counts = list(self.private_counts)
        c.last_roll = self.last_roll
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
        c.mode = self.mode
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
            # Which unseen cards are in the hand and the pile's order are hidden: shuffle from a
            # sorted pool, so the sample is a function of the seat's view and the generator alone.
            pool.sort()
            rng.shuffle(pool)
            for i in slots:
                c.hands[opp][i] = pool.pop()
            # The opponent's mulligan choices are hidden: let them choose again.
            if c.phase == R.P_MULLIGAN:
                c.mull[opp] = []
                c.mull_done[opp] = False
        else:
            pool.sort()
            rng.shuffle(pool)
        c.draw = pool
        c._legal = None
        c.chance.reseed(rng.getrandbits(63))
        return c


def new_match(game: Game, seed: int, config: Mapping[str, Any] | None, inject: Inject | None) -> TinyNinjasState:
    """A fresh battle (or Champion series) for `config` merged over the standard configuration."""
    state = TinyNinjasState(game, game.options.resolve_shared(config), Chance(seed, inject))
    R.new_battle(state)
    return state


def check_players(players: int | None) -> None:
    """Tiny Ninjas is a 2-seat game (Solo keeps 2 seats: seat 1 is the engine's AI)."""
    if players is not None and players != 2:
        raise ConfigError(f"Tiny Ninjas is played by 2 seats, not {players}: pass --players 2.")


__all__ = ["TinyNinjasState", "check_players", "new_match", "shown_ids"]
