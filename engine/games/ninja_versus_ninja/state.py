"""Ninja Versus Ninja: a position and the rules, in the order of a turn (spec §3.1).

A state always stands at a decision: the seat to move has rolled and has at least one
legal move. Rolling, passes (no legal move, §4.2.5) and the end of the game are resolved
inside `apply`, so bots and the referee only ever see real choices.

The board is two bitmasks (one per seat, bit = square index); a mission is four small
ints per seat. Cloning copies a dozen fields; the move log is a shared cons list.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Action, Chance, Game, IllegalAction, Observation, Outcome, State
from engine.games.ninja_versus_ninja.data import (
    COLOR_NAMES,
    DIE_SIDES,
    MISSION_TURNS,
    ROLLOFF_ATTEMPTS,
    SQUARE_NAMES,
    square_index,
)
from engine.games.ninja_versus_ninja.paths import CANDIDATES, IN_HOME, Group, Move

NO_SQUARE = -1
PASS = "pass"
# A move-log entry: (seat, (d1, d2), move label or "pass", what happened).
LogEntry = tuple[int, tuple[int, int], str, str]


def dice_stream(seat: int) -> str:
    """The chance stream holding `seat`'s roll-off dice and then its turn rolls (§3.2)."""
    return f"dice/{seat}"


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class NvnState(State):
    """A match of Ninja Versus Ninja in progress."""

    __slots__ = (
        "game", "num_players", "chance", "target", "cap",
        "occ", "score", "shadow", "m_sq", "m_turns", "m_rev", "m_depth",
        "to_move", "turn_number", "roll", "winner", "reason", "first_player",
        "_log", "_legal", "_groups",
    )

    def __init__(self, game: Game, chance: Chance, target: int, cap: int) -> None:
        self.game = game
        self.num_players = 2
        self.chance = chance
        self.target = target
        self.cap = cap
        self.occ = [0, 0]  # bitmask of each seat's Ninjas
        self.score = [0, 0]
        self.shadow = [0, 0]
        # The mission of each seat (§2): square (NO_SQUARE = none), turns used, reversal used, depth.
        self.m_sq = [NO_SQUARE, NO_SQUARE]
        self.m_turns = [0, 0]
        self.m_rev = [False, False]
        self.m_depth = [0, 0]
        self.to_move = 0
        self.turn_number = 0
        self.roll = (0, 0)
        self.winner: int | None = None  # set with reason when the game ends; None + reason = draw
        self.reason = ""
        self.first_player = 0
        self._log: tuple[Any, ...] | None = None  # cons list (previous, entry), newest first
        self._legal: list[Move] = []
        self._groups: list[Group] = []

    # ----------------------------------------------------------------- setup (§1.3)

    def roll_off(self) -> int:
        """Both seats roll 2d4 (seat 0 first); the higher total moves first; ties reroll (§1.3)."""
        for _ in range(ROLLOFF_ATTEMPTS):
            totals = [sum(self.roll_dice(seat)) for seat in (0, 1)]
            if totals[0] != totals[1]:
                return 0 if totals[0] > totals[1] else 1
        return 0

    def roll_dice(self, seat: int) -> tuple[int, int]:
        """Two four-sided dice from `seat`'s stream, die 1 then die 2."""
        name = dice_stream(seat)
        return (self.chance.roll(name, DIE_SIDES), self.chance.roll(name, DIE_SIDES))

    # ----------------------------------------------------------------- a turn (§3.1)

    def begin_turn(self) -> None:
        """Steps 1-2 for the seat to move: roll, list the moves, pass while there are none."""
        while self.winner is None and not self.reason:
            self.set_roll(self.roll_dice(self.to_move))
            if self._legal:
                return
            self.pass_turn()

    def set_roll(self, dice: tuple[int, int]) -> None:
        """Make `dice` the current roll of the seat to move and list its legal moves (§4)."""
        self.roll = dice
        self._generate(dice[0] + dice[1])

    def _generate(self, n: int) -> None:
        p = self.to_move
        own = self.occ[p]
        everyone = own | self.occ[1 - p]
        mission = self.m_sq[p]
        rev_ok = not self.m_rev[p]
        legal: list[Move] = []
        groups: list[Group] = []
        table = CANDIDATES[p][n]
        mask = own
        while mask:
            low = mask & -mask
            s = low.bit_length() - 1
            mask ^= low
            is_mission = s == mission
            others = everyone ^ low  # the mover's start square counts as empty once left
            for g in table[s]:
                if g.rev:
                    # A reversal: by the mission Ninja (once per mission) or to start a mission.
                    if is_mission:
                        if not rev_ok:
                            continue
                    elif mission != NO_SQUARE:
                        continue
                elif g.leaves_home and mission != NO_SQUARE and not is_mission:
                    continue  # one mission at a time (§4.2.4, A14)
                to = g.to
                if own & (1 << to) and to != s:
                    continue  # never onto one's own Ninja
                single = g.single
                if single >= 0:
                    if single & others:
                        continue
                    legal.append(g.paths[0])
                    groups.append(g)
                    continue
                for i, m in enumerate(g.masks):
                    if not m & others:
                        legal.append(g.paths[i])
                        groups.append(g)
                        break
        self._legal = legal
        self._groups = groups

    def play(self, group: Group, move: Move) -> None:
        """Steps 4-7 of a turn: move, capture, missions and scoring, wins, the clock, hand over."""
        p, q = self.to_move, 1 - self.to_move
        s, t = group.frm, group.to
        tbit = 1 << t
        self.occ[p] ^= 1 << s
        event = ""
        if self.occ[q] & tbit:  # capture (§5.1): no points; a captured mission ends
            self.occ[q] ^= tbit
            event = "captures"
            if self.m_sq[q] == t:
                self.m_sq[q] = NO_SQUARE
                self.shadow[q] = 0
                event = "captures the mission Ninja"
        self.occ[p] |= tbit
        # Mission bookkeeping (§5.2).
        if s != self.m_sq[p] and group.leaves_home:
            self.m_sq[p] = t
            self.m_turns[p] = 0
            self.m_rev[p] = group.rev
            self.m_depth[p] = group.depth
        elif s == self.m_sq[p]:
            self.m_sq[p] = t
            self.m_rev[p] = self.m_rev[p] or group.rev
            if group.depth > self.m_depth[p]:
                self.m_depth[p] = group.depth
        if self.m_sq[p] != NO_SQUARE:
            self.shadow[p] = self.m_depth[p]
            if self.m_sq[p] == t and IN_HOME[p][t]:  # the mission Ninja itself came home
                self.score[p] += self.m_depth[p]
                event = (event + ", " if event else "") + f"home +{self.m_depth[p]}"
                self.shadow[p] = 0
                self.m_sq[p] = NO_SQUARE
        self._record(move, event)
        self._check_wins(p)
        self._end_turn()

    def pass_turn(self) -> None:
        """A turn with no legal move (§4.2.5): the dice were rolled, the clock still runs."""
        self._record(PASS, "")
        self._end_turn()

    def _end_turn(self) -> None:
        p = self.to_move
        if self.winner is None and not self.reason and self.m_sq[p] != NO_SQUARE:
            # Step 6, the mission clock (§5.3).
            self.m_turns[p] += 1
            if self.m_turns[p] >= MISSION_TURNS:
                self.occ[p] ^= 1 << self.m_sq[p]
                self.m_sq[p] = NO_SQUARE
                self.shadow[p] = 0
                self._record(None, "mission Ninja lost to the clock")
                self._check_wins(p)
        self.to_move = 1 - p
        self.turn_number += 1
        if self.winner is None and not self.reason and self.turn_number >= self.cap:
            self._end_at_cap()
        self._legal = []
        self._groups = []

    def _check_wins(self, p: int) -> None:
        """The win checks of §6.1, for the seat that just moved."""
        if self.winner is not None:
            return
        if self.score[p] >= self.target:
            self.winner, self.reason = p, "points"
        elif self.occ[1 - p] == 0:
            self.winner, self.reason = p, "elimination"
        elif self.occ[p] == 0:
            self.winner, self.reason = 1 - p, "elimination"

    def _end_at_cap(self) -> None:
        """§6.2: higher score, then more Ninjas, else a draw."""
        self.reason = "cap"
        counts = [self.occ[0].bit_count(), self.occ[1].bit_count()]
        for key in (self.score, counts):
            if key[0] != key[1]:
                self.winner = 0 if key[0] > key[1] else 1
                return

    def _record(self, move: Move | str | None, event: str) -> None:
        # Moves are stored, not labels: building a label is too slow for search playouts.
        if move is not None:
            self._log = (self._log, (self.to_move, self.roll, move, event))
        elif self._log is not None:  # an event that belongs to the entry just written
            prev, (seat, dice, mv, ev) = self._log
            self._log = (prev, (seat, dice, mv, (ev + ", " if ev else "") + event))

    # ----------------------------------------------------------------- the State interface

    def to_act(self) -> Sequence[int]:
        """The seat to move, or nobody once the game is over."""
        return [] if self.is_over() else [self.to_move]

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The deduplicated legal moves, sorted by (from, to, uses_reversal, depth) (§3.3)."""
        if seat != self.to_move or self.is_over():
            return []
        return list(self._legal)

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move (the engine's own list; do not modify)."""
        return self._legal

    def legal_groups(self) -> list[Group]:
        """The action group behind each legal move (same order as `legal_moves`), for search."""
        return self._groups

    def find(self, action: Action) -> int:
        """The index of the legal move `action` stands for, or -1.

        Any clear path with the same (from, to, uses_reversal, depth) is the same action (§3.3).
        """
        for i, move in enumerate(self._legal):
            if move is action:
                return i
        if not isinstance(action, Move):
            return -1
        for i, move in enumerate(self._legal):
            if (move.frm, move.to, move.uses_reversal, move.depth) == (
                action.frm, action.to, action.uses_reversal, action.depth
            ):
                group = self._groups[i]
                others = (self.occ[0] | self.occ[1]) ^ (1 << group.frm)
                for path, mask in zip(group.paths, group.masks, strict=True):
                    if path.path == action.path and not mask & others:
                        return i
        return -1

    def apply(self, actions: Mapping[int, Action]) -> None:
        """Play the mover's action, then roll for the next seat (resolving any passes)."""
        if self.is_over():
            raise IllegalAction("the game is over: no more moves can be played.")
        if set(actions) != {self.to_move}:
            raise IllegalAction(f"it is seat {self.to_move}'s turn: send exactly one action for it.")
        action = actions[self.to_move]
        i = self.find(action)
        if i < 0:
            label = getattr(action, "label", action)
            raise IllegalAction(f"{label} is not a legal move: pick one from the legal list.")
        self.play(self._groups[i], self._legal[i])
        self.begin_turn()

    def apply_index(self, i: int) -> None:
        """Play legal move number i (fast path for playouts and search)."""
        self.play(self._groups[i], self._legal[i])
        self.begin_turn()

    def is_over(self) -> bool:
        """True once someone has won or the turn cap has been reached."""
        return self.winner is not None or bool(self.reason)

    def outcome(self) -> Outcome:
        """Winner first (or one tier for a draw at the cap); scores are the score tracks."""
        if not self.is_over():
            raise ValueError("the game is not over yet")
        ranking = ((0, 1),) if self.winner is None else ((self.winner,), (1 - self.winner,))
        details = {"ninjas": [self.occ[0].bit_count(), self.occ[1].bit_count()], "turns": self.turn_number}
        return Outcome(ranking, (float(self.score[0]), float(self.score[1])), self.reason, details)

    def clone(self) -> NvnState:
        """An independent copy (chance streams included; the move log is shared, it never changes)."""
        twin = NvnState.__new__(NvnState)
        twin.game = self.game
        twin.num_players = 2
        twin.chance = self.chance.clone()
        twin.target = self.target
        twin.cap = self.cap
        twin.occ = self.occ[:]
        twin.score = self.score[:]
        twin.shadow = self.shadow[:]
        twin.m_sq = self.m_sq[:]
        twin.m_turns = self.m_turns[:]
        twin.m_rev = self.m_rev[:]
        twin.m_depth = self.m_depth[:]
        twin.to_move = self.to_move
        twin.turn_number = self.turn_number
        twin.roll = self.roll
        twin.winner = self.winner
        twin.reason = self.reason
        twin.first_player = self.first_player
        twin._log = self._log
        twin._legal = self._legal  # replaced, never mutated, so sharing is safe
        twin._groups = self._groups
        return twin

    def determinize(self, seat: int, rng: random.Random) -> NvnState:
        """Perfect information: the same position, with fresh future dice drawn from rng."""
        twin = self.clone()
        twin.chance.reseed(rng.getrandbits(64))
        return twin

    def log(self) -> list[LogEntry]:
        """Every turn so far, oldest first: (seat, dice, move label or 'pass', events)."""
        out: list[LogEntry] = []
        node = self._log
        while node is not None:
            node, (seat, dice, move, event) = node
            out.append((seat, dice, move if isinstance(move, str) else move.label, event))
        out.reverse()
        return out

    def owner(self, square: int) -> int:
        """0 or 1 for the seat whose Ninja stands on `square`, -1 if it is empty."""
        bit = 1 << square
        return 0 if self.occ[0] & bit else 1 if self.occ[1] & bit else -1

    def mission(self, seat: int) -> dict[str, Any] | None:
        """The seat's mission as the spec writes it (§2), or None."""
        if self.m_sq[seat] == NO_SQUARE:
            return None
        return {
            "square": SQUARE_NAMES[self.m_sq[seat]],
            "turns_used": self.m_turns[seat],
            "reversal_used": self.m_rev[seat],
            "depth": self.m_depth[seat],
        }

    def public_view(self) -> Observation:
        """Everything on the table: perfect information, only future dice are unknown."""
        return {
            "ninjas": [[SQUARE_NAMES[q] for q in _bits(self.occ[p])] for p in (0, 1)],
            "colors": list(COLOR_NAMES),
            "score": self.score[:],
            "shadow": self.shadow[:],
            "mission": [self.mission(0), self.mission(1)],
            "to_move": None if self.is_over() else self.to_move,
            "turn_number": self.turn_number,
            "roll": list(self.roll),
            "first_player": self.first_player,
            "target_score": self.target,
            "turn_cap": self.cap,
            "log": [[seat, list(dice), label, event] for seat, dice, label, event in self.log()],
            "result": None if not self.is_over() else {"winner": self.winner, "reason": self.reason},
        }

    def observe(self, seat: int) -> Observation:
        """A seat sees the whole position (perfect information, §2)."""
        view = self.public_view()
        view["seat"] = seat
        return view


def place(
    state: NvnState,
    black: Sequence[str],
    red: Sequence[str],
    to_move: int = 0,
    dice: tuple[int, int] | None = None,
    missions: Mapping[int, Mapping[str, Any]] | None = None,
    score: Sequence[int] = (0, 0),
) -> NvnState:
    """Set up an arbitrary position (puzzles and the spec's golden scenarios).

    missions maps a seat to {square, turns_used, reversal_used, depth}; shadow follows the
    depth. With `dice` the seat to move has rolled them and its legal moves are listed;
    without, it rolls from its own stream (passing if it must).
    """
    state.occ = [sum(1 << square_index(q) for q in black), sum(1 << square_index(q) for q in red)]
    if state.occ[0] & state.occ[1] or len(set(black)) != len(black) or len(set(red)) != len(red):
        raise ValueError("two Ninjas on one square")
    state.score = list(score)
    state.shadow = [0, 0]
    state.m_sq = [NO_SQUARE, NO_SQUARE]
    state.m_turns, state.m_rev, state.m_depth = [0, 0], [False, False], [0, 0]
    for seat, m in (missions or {}).items():
        sq = square_index(str(m["square"]))
        if not state.occ[seat] & (1 << sq) or IN_HOME[seat][sq]:
            raise ValueError(f"mission square {m['square']} must hold a seat-{seat} Ninja outside its home dojo")
        state.m_sq[seat] = sq
        state.m_turns[seat] = int(m.get("turns_used", 0))
        state.m_rev[seat] = bool(m.get("reversal_used", False))
        state.m_depth[seat] = int(m.get("depth", 0))
        state.shadow[seat] = state.m_depth[seat]
    for seat in (0, 1):
        outside = [q for q in _bits(state.occ[seat]) if not IN_HOME[seat][q] and q != state.m_sq[seat]]
        if outside:
            raise ValueError(f"seat {seat} has a Ninja outside home that is not its mission Ninja")
    state.to_move = to_move
    state.winner, state.reason = None, ""
    state._log = None
    if dice is not None:
        state.set_roll(dice)
        if state.legal_moves():
            return state
        state.pass_turn()
    state.begin_turn()
    return state

