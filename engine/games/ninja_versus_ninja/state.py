"""The Ninja Versus Ninja State: the position, the Game/State interface, views, clone, determinize.

The rules of a turn are functions in rules.py. The board is two bitmasks (one per seat,
bit = square index); a mission is four small ints per seat. Cloning copies a dozen fields;
the move log is a shared cons list.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from tourney.engine.core import Action, Chance, Game, IllegalAction, Observation, Outcome, State, view_delta
from tourney.engine.games.ninja_versus_ninja import rules as R
from tourney.engine.games.ninja_versus_ninja.actions import Move
from tourney.engine.games.ninja_versus_ninja.data import COLOR_NAMES, SQUARE_NAMES, square_index
from tourney.engine.games.ninja_versus_ninja.paths import IN_HOME, Group
from tourney.engine.games.ninja_versus_ninja.rules import NO_SQUARE

# A move-log entry: (seat, (d1, d2), move label or "pass", what happened).
LogEntry = tuple[int, tuple[int, int], str, str]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _row(entry: LogEntry) -> list[Any]:
    """A log entry as the view shows it: [seat, [d1, d2], label, events]."""
    seat, dice, label, event = entry
    return [seat, list(dice), label, event]


class NvnState(State):
    """A match of Ninja Versus Ninja in progress."""

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
        self.history: tuple[Any, ...] | None = None  # the move log: cons list (previous, LogEntry), newest first
        # The view's rows of every closed log entry (all but the newest, which an event may still
        # extend), oldest first: the first `rows_closed` of `rows` are this state's. Clones share the
        # list; one that grows a shared list past another's count copies its own part first
        # (`close_row`), so a view of a state never observed gathers the rows with one slice.
        self.rows: list[list[Any]] = []
        self.rows_closed = 0
        # The legal moves of the seat to move and the candidate group behind each (replaced,
        # never mutated); None until first asked for after a roll, since search often never asks.
        self._moves: list[Move] | None = []
        self._groups: list[Group] = []

    def _listed(self) -> tuple[list[Move], list[Group]]:
        if self._moves is None:
            self._moves, self._groups = R.list_moves(self, self.roll[0] + self.roll[1])
        return self._moves, self._groups

    @property
    def moves(self) -> list[Move]:
        """The legal moves of the seat to move, listed on first use after each roll."""
        return self._listed()[0]

    @property
    def groups(self) -> list[Group]:
        """The candidate group behind each legal move (same order as `moves`)."""
        return self._listed()[1]

    def set_moves(self, moves: list[Move], groups: list[Group]) -> None:
        """Fix the legal list (the rules clear it when a turn ends)."""
        self._moves, self._groups = moves, groups

    def close_row(self, entry: LogEntry) -> None:
        """Add the view's row of log entry `entry`, closed now that the next one is written."""
        rows = self.rows
        if len(rows) != self.rows_closed:  # another copy has grown the shared list: take our part
            rows = self.rows = rows[: self.rows_closed]
        rows.append(_row(entry))
        self.rows_closed += 1

    def forget_moves(self) -> None:
        """The position or roll changed: list the moves again when next asked."""
        self._moves, self._groups = None, []

    # ----------------------------------------------------------------- the State interface

    def to_act(self) -> Sequence[int]:
        """The seat to move, or nobody once the game is over."""
        return [] if self.is_over() else [self.to_move]

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The deduplicated legal moves, sorted by (from, to, uses_reversal, depth) (§3.3)."""
        if seat != self.to_move or self.is_over():
            return []
        return list(self._listed()[0])

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move (the engine's own list; do not modify)."""
        return self.moves

    def legal_groups(self) -> list[Group]:
        """The action group behind each legal move (same order as `legal_moves`), for search."""
        return self.groups

    def find(self, action: Action) -> int:
        """The index of the legal move `action` stands for, or -1.

        Any clear path with the same (from, to, uses_reversal, depth) is the same action (§3.3).
        """
        return self._index(action, *self._listed())

    def _index(self, action: Action, moves: list[Move], groups: list[Group]) -> int:
        # `find` on lists already in hand: apply, run for every decision, lists them only once.
        for i, move in enumerate(moves):
            if move is action:
                return i
        if not isinstance(action, Move):
            return -1
        for i, move in enumerate(moves):
            if (move.frm, move.to, move.uses_reversal, move.depth) == (
                action.frm, action.to, action.uses_reversal, action.depth
            ):
                group = groups[i]
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
        moves, groups = self._listed()
        i = self._index(action, moves, groups)
        if i < 0:
            label = getattr(action, "label", action)
            raise IllegalAction(f"{label} is not a legal move: pick one from the legal list.")
        R.play(self, groups[i], moves[i])
        R.begin_turn(self)

    def apply_index(self, i: int) -> None:
        """Play legal move number i (fast path for playouts and search)."""
        moves, groups = self._listed()
        R.play(self, groups[i], moves[i])
        R.begin_turn(self)

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
        return self.lookahead_copy(self.chance.clone())

    def lookahead_copy(self, chance: Chance | None = None) -> NvnState:
        """A copy for search that shares this state's chance streams unless given others.

        Search that sets the dice itself (`rules.set_roll`) and only plays moves never draws from
        them, and copying the streams is a fifth of a clone's cost."""
        # Through the cheap __init__: a compiled class's __new__ runs it anyway.
        twin = NvnState(self.game, self.chance if chance is None else chance, self.target, self.cap)
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
        twin.history = self.history
        twin.rows = self.rows  # shared: see close_row
        twin.rows_closed = self.rows_closed
        twin._moves = self._moves  # replaced, never mutated, so sharing is safe
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
        node = self.history
        while node is not None:
            node, entry = node
            out.append(entry)  # (seat, dice, label, events): rules.record logs labels
        out.reverse()
        return out

    def _log_rows(self, at: int = 0) -> list[list[Any]]:
        """The view's log from row `at` on: the closed rows, then the newest entry's as it stands."""
        rows = self.rows[at: self.rows_closed]
        if self.history is not None:
            rows.append(_row(self.history[1]))
        return rows

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
        return self._table(self._log_rows())

    def _table(self, log: list[list[Any]]) -> Observation:
        """The public view with `log` as its log."""
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
            "log": log,
            "result": None if not self.is_over() else {"winner": self.winner, "reason": self.reason},
        }

    def observe(self, seat: int) -> Observation:
        """A seat sees the whole position (perfect information, §2)."""
        view = self.public_view()
        view["seat"] = seat
        return view

    def observe_since(self, seat: int, mark: int) -> tuple[Observation, int]:
        """`observe(seat)` whose `log` holds only the rows from `mark` on (the rows closed by the last call;
        the open row is sent again, it may have grown), with its `view_delta`; and the mark to pass next.
        A mark past the closed rows (a log begun again) gets the whole log."""
        at = mark if mark <= self.rows_closed else 0
        view = self._table(self._log_rows(at))
        view["seat"] = seat
        view["view_delta"] = view_delta("log", at, 0)
        return view, self.rows_closed


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
    state.history = None
    state.rows, state.rows_closed = [], 0  # a new list: the old one may be shared with copies
    if dice is not None:
        R.set_roll(state, dice)
        if state.legal_moves():
            return state
        R.pass_turn(state)
    R.begin_turn(state)
    return state

