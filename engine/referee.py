"""Runs one match between seats: clocks, faults and the replay log.

The referee asks every seat in `to_act()` for an action, times it against the time
control, and applies the joint action. A seat that times out, answers with an index that
is not legal, raises, or disconnects forfeits (the taxonomy follows cutechess), unless the
game handles illegal actions itself (Ninja Arena's Mistake), in which case the game gets
an `Illegal` action and play goes on. Every decision is logged with the time it took, so
`replay` reproduces the result exactly without the bots.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine.core import (
    Action,
    DecisionRequest,
    Game,
    Illegal,
    Outcome,
    Seat,
    SeatFault,
    State,
    get_game,
)

# How a match ended. "normal" and "adjudication" come from the rules; the rest are faults.
NORMAL = "normal"
ADJUDICATION = "adjudication"  # the game's hard cap decided it
TIMEOUT = "timeout"
ILLEGAL_MOVE = "illegal_move"
CRASH = "crash"
DISCONNECTION = "disconnection"
FAULT_KINDS = (TIMEOUT, ILLEGAL_MOVE, CRASH, DISCONNECTION)


@dataclass(frozen=True)
class TimeControl:
    """Per-move limit, plus an optional bank that overruns draw on, refilled by an increment."""

    move_s: float | None = None
    bank_s: float = 0.0
    increment_s: float = 0.0

    @staticmethod
    def from_ms(move_ms: int | None) -> TimeControl:
        return TimeControl(move_s=None if move_ms is None else move_ms / 1000.0)


@dataclass(frozen=True)
class Decision:
    """One seat's answer at one step: the legal index (-1 when there was no usable answer)."""

    seat: int
    index: int
    ms: float
    fault: str | None = None


@dataclass
class Replay:
    """Everything needed to replay a match: the inputs and every decision, step by step."""

    game_id: str
    players: int
    config: dict[str, Any]
    seed: int
    steps: list[list[Decision]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "players": self.players,
            "config": self.config,
            "seed": self.seed,
            "steps": [[[d.seat, d.index, round(d.ms, 3), d.fault] for d in step] for step in self.steps],
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Replay:
        steps = [[Decision(int(s), int(i), float(ms), f) for s, i, ms, f in step] for step in data["steps"]]
        return Replay(data["game"], int(data["players"]), dict(data["config"]), int(data["seed"]), steps)


@dataclass
class SeatStats:
    """Per-seat faults and thinking time over one match."""

    decisions: int = 0
    think_s: float = 0.0
    max_move_s: float = 0.0
    faults: dict[str, int] = field(default_factory=dict)


@dataclass
class MatchResult:
    """How a match ended, who placed where, and the replay that reproduces it."""

    game_id: str
    seed: int
    players: int
    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[float, ...]
    termination: str  # NORMAL, ADJUDICATION or a fault kind
    reason: str  # the game's own reason, or the fault with the seat that caused it
    seat_stats: list[SeatStats]
    replay: Replay
    details: Mapping[str, Any] = field(default_factory=dict)
    forfeit_seat: int | None = None

    def points(self, seat: int) -> float:
        return Outcome(self.ranking, self.scores, self.reason).points(seat)


Clock = Callable[[], float]


def play_match(
    game_id: str,
    seats: Sequence[Seat],
    seed: int,
    config: Mapping[str, Any] | None = None,
    players: int | None = None,
    time_control: TimeControl | None = None,
    clock: Clock = time.perf_counter,
    on_step: Callable[[State, list[tuple[int, Action]]], None] | None = None,
    on_decision: Callable[[str, Decision], None] | None = None,
) -> MatchResult:
    """Play one match of `game_id` between `seats` (seat i plays seat index i).

    on_step sees the state after every joint action (play-by-play); on_decision sees every
    seat's timed answer as it is given (live metrics).
    """
    game = get_game(game_id)
    n = players if players is not None else len(seats)
    if n != len(seats):
        raise ValueError(f"{len(seats)} seats given for a {n}-player match")
    state = game.new_state(seed, players=n, config=config)
    return _run(game, state, seats, Replay(game_id, n, dict(config or {}), seed), time_control, clock, on_step,
                on_decision)


def _run(
    game: Game,
    state: State,
    seats: Sequence[Seat],
    replay: Replay,
    tc: TimeControl | None,
    clock: Clock,
    on_step: Callable[[State, list[tuple[int, Action]]], None] | None,
    on_decision: Callable[[str, Decision], None] | None = None,
) -> MatchResult:
    stats = [SeatStats() for _ in seats]
    banks = [tc.bank_s if tc else 0.0 for _ in seats]
    while not state.is_over():
        joint: dict[int, Action] = {}
        step: list[Decision] = []
        acting = list(state.to_act())
        limits = {s: None if tc is None or tc.move_s is None else tc.move_s + banks[s] for s in acting}
        requests = {s: DecisionRequest(game, s, state.observe(s), state.legal_actions(s), limits[s], state)
                    for s in acting}
        answers = _ask_together(seats, requests, clock) if _concurrent(seats, acting) else None
        for seat in acting:
            legal = requests[seat].legal
            limit = limits[seat]
            index, fault, used = answers[seat] if answers is not None else _ask(seats[seat], requests[seat], clock)
            if fault is None and limit is not None and used > limit:
                fault = TIMEOUT
            if fault is None and not (isinstance(index, int) and 0 <= index < len(legal)):
                fault = ILLEGAL_MOVE
            if tc is not None and tc.move_s is not None and fault is None:
                banks[seat] = max(0.0, banks[seat] - max(0.0, used - tc.move_s)) + tc.increment_s
            st = stats[seat]
            st.decisions += 1
            st.think_s += used
            st.max_move_s = max(st.max_move_s, used)
            decision = Decision(seat, index if fault is None and isinstance(index, int) else -1, used * 1000.0, fault)
            step.append(decision)
            if on_decision is not None:
                on_decision(game.id, decision)
            if fault is not None:
                st.faults[fault] = st.faults.get(fault, 0) + 1
                if not (game.handles_illegal_actions and fault == ILLEGAL_MOVE):
                    replay.steps.append(step)
                    return _forfeit(game, state, replay, stats, seat, fault)
                joint[seat] = Illegal(raw=repr(index)[:40])
            else:
                assert isinstance(index, int)
                joint[seat] = legal[index]
        replay.steps.append(step)
        state.apply(joint)
        if on_step is not None:
            on_step(state, sorted(joint.items()))
    outcome = state.outcome()
    termination = ADJUDICATION if outcome.reason == "cap" else NORMAL
    return MatchResult(
        game.id, replay.seed, state.num_players, outcome.ranking, outcome.scores,
        termination, outcome.reason, stats, replay, outcome.details,
    )


Answer = tuple[object, str | None, float]  # (what the seat returned, fault kind or None, seconds)


def _ask(seat: Seat, request: DecisionRequest, clock: Clock) -> Answer:
    """One timed question to one seat; an exception becomes a fault, never escapes."""
    started = clock()
    index: object = -1
    fault: str | None = None
    try:
        index = seat.act(request)
    except SeatFault as exc:
        fault = exc.kind
    except Exception:  # a bot's bug must end its match, not the referee
        fault = CRASH
    return index, fault, clock() - started


def _concurrent(seats: Sequence[Seat], acting: list[int]) -> bool:
    """Ask at once when a simultaneous step involves seats that wait on the network.

    In-process bots are asked one after another (threads would only add overhead); remote
    seats mark themselves `networked = True` so a tick costs one round trip, not one per seat.
    """
    return len(acting) > 1 and any(getattr(seats[s], "networked", False) for s in acting)


def _ask_together(seats: Sequence[Seat], requests: Mapping[int, DecisionRequest], clock: Clock) -> dict[int, Answer]:
    with ThreadPoolExecutor(max_workers=len(requests), thread_name_prefix="referee-ask") as pool:
        futures = {s: pool.submit(_ask, seats[s], r, clock) for s, r in requests.items()}
        return {s: f.result() for s, f in futures.items()}


def _forfeit(
    game: Game, state: State, replay: Replay, stats: list[SeatStats], seat: int, fault: str
) -> MatchResult:
    """The faulty seat is ranked last; every other seat shares the place above it."""
    others = tuple(s for s in range(state.num_players) if s != seat)
    ranking = (others, (seat,))
    scores = tuple(1.0 if s != seat else 0.0 for s in range(state.num_players))
    return MatchResult(
        game.id, replay.seed, state.num_players, ranking, scores, fault,
        f"seat {seat} {fault.replace('_', ' ')}", stats, replay, {}, forfeit_seat=seat,
    )


class _ReplaySeat:
    """A seat that answers from a recorded list of decisions."""

    def __init__(self, decisions: list[Decision]) -> None:
        self.decisions = decisions
        self.next = 0

    def act(self, request: DecisionRequest) -> int:
        decision = self.decisions[self.next]
        self.next += 1
        if decision.fault is not None:
            raise _RecordedFault(decision.fault)
        return decision.index


class _RecordedFault(SeatFault):
    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def replay_match(
    replay: Replay, on_step: Callable[[State, list[tuple[int, Action]]], None] | None = None
) -> MatchResult:
    """Play a recorded match again from its inputs and decisions; the result is identical.

    on_step sees every step as in play_match, for a play-by-play of a stored match.
    """
    per_seat: list[list[Decision]] = [[] for _ in range(replay.players)]
    for step in replay.steps:
        for d in step:
            per_seat[d.seat].append(d)
    seats = [_ReplaySeat(ds) for ds in per_seat]
    game = get_game(replay.game_id)
    state = game.new_state(replay.seed, players=replay.players, config=replay.config)
    return _run(game, state, seats, Replay(replay.game_id, replay.players, replay.config, replay.seed), None,
                time.perf_counter, on_step)
