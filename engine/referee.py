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
from collections.abc import Callable, Generator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tourney.engine.core import (
    Action,
    Decision,
    DecisionRequest,
    Game,
    Illegal,
    MatchResult,
    Replay,
    ReplayMismatch,
    Seat,
    SeatFault,
    SeatStats,
    State,
    Termination,
    fault_reason,
    forfeit,
    get_game,
    match_result,
    termination_of,
)
from tourney.engine.core.time_control import TimeControl

# The replay and the result live in engine.core; they are named here too, where a match is played.
__all__ = [
    "Answer", "Clock", "Decision", "MatchResult", "MatchSteps", "OnStep", "Replay", "SeatStats", "TimeControl",
    "ask_seat", "asks_together", "drive", "forfeit_result", "new_match", "play_match", "referee_steps", "replay_match",
]


Clock = Callable[[], float]
Answer = tuple[object, Termination | None, float]  # (what the seat returned, fault kind or None, seconds)
# The referee as a generator: it yields the requests to answer now (seat -> request) and is
# sent back their answers (seat -> Answer); it returns the MatchResult. Whoever drives it
# decides how seats are asked: one after another in a thread, or awaited on an event loop.
MatchSteps = Generator[dict[int, DecisionRequest], dict[int, Answer], MatchResult]
OnStep = Callable[[State, list[tuple[int, Action]]], None]


def new_match(game_id: str, seed: int, config: Mapping[str, Any] | None = None,
              players: int = 2) -> tuple[Game, State, Replay]:
    """The game, its first state and an empty replay for one match."""
    game = get_game(game_id)
    state = game.new_state(seed, players=players, config=config)
    return game, state, Replay(game_id, players, dict(config or {}), seed)


def play_match(
    game_id: str,
    seats: Sequence[Seat],
    seed: int,
    config: Mapping[str, Any] | None = None,
    players: int | None = None,
    time_control: TimeControl | None = None,
    clock: Clock = time.perf_counter,
    on_step: OnStep | None = None,
    on_decision: Callable[[str, Decision], None] | None = None,
) -> MatchResult:
    """Play one match of `game_id` between `seats` (seat i plays seat index i).

    on_step sees the state after every joint action (play-by-play); on_decision sees every
    seat's timed answer as it is given (live metrics).
    """
    n = players if players is not None else len(seats)
    if n != len(seats):
        raise ValueError(f"{len(seats)} seats given for a {n}-player match")
    game, state, replay = new_match(game_id, seed, config, n)
    return drive(referee_steps(game, state, replay, asks_together(seats), time_control, on_step, on_decision),
                 seats, clock)


def drive(steps: MatchSteps, seats: Sequence[Seat], clock: Clock = time.perf_counter) -> MatchResult:
    """Run the referee's steps to the end in this thread, asking `seats` as it requests."""
    answers: dict[int, Answer] | None = None
    while True:
        try:
            requests = steps.send(answers)  # type: ignore[arg-type]  # the first send must be None
        except StopIteration as done:
            result: MatchResult = done.value
            return result
        if len(requests) > 1:
            answers = _ask_together(seats, requests, clock)
        else:
            answers = {s: ask_seat(seats[s], r, clock) for s, r in requests.items()}


def referee_steps(
    game: Game,
    state: State,
    replay: Replay,
    together: Callable[[list[int]], bool],
    tc: TimeControl | None = None,
    on_step: OnStep | None = None,
    on_decision: Callable[[str, Decision], None] | None = None,
) -> MatchSteps:
    """The rules of refereeing, without any I/O: which seat is asked what, and what follows.

    At a simultaneous step, `together(acting)` says whether every acting seat is asked at
    once (one yield) or one after another (a yield per seat, so a forfeit stops the step).
    """
    stats = [SeatStats() for _ in range(state.num_players)]
    banks = [tc.bank_s if tc else 0.0 for _ in range(state.num_players)]
    move_s = None if tc is None else tc.move_s  # None: no clock
    while not state.is_over():
        joint: dict[int, Action] = {}
        step: list[Decision] = []
        acting = list(state.to_act())
        # Observations are built only for seats that read them (see DecisionRequest).
        requests = {s: DecisionRequest(game, s, None, state.legal_actions(s),
                                       None if move_s is None else move_s + banks[s], state)
                    for s in acting}
        answers = (yield requests) if together(acting) else {}
        for seat in acting:
            legal = requests[seat].legal
            limit = requests[seat].deadline_s
            index, fault, used = answers[seat] if seat in answers else (yield {seat: requests[seat]})[seat]
            if fault is None and limit is not None and used > limit:
                fault = Termination.TIMEOUT
            if fault is None and not (isinstance(index, int) and 0 <= index < len(legal)):
                fault = Termination.ILLEGAL_MOVE
            if tc is not None and move_s is not None and fault is None:
                banks[seat] = max(0.0, banks[seat] - max(0.0, used - move_s)) + tc.increment_s
            st = stats[seat]
            st.decisions += 1
            st.think_s += used
            # Kept to the microsecond the replay document holds, so a stored replay reads back equal; the
            # index as a plain int (a bot's True is 1, as the compiled Decision would make it anyway).
            decision = Decision(seat, int(index) if fault is None and isinstance(index, int) else -1,
                                round(used * 1000.0, 3), fault)
            step.append(decision)
            if on_decision is not None:
                on_decision(game.id, decision)
            if fault is not None:
                if not (game.handles_illegal_actions and fault == Termination.ILLEGAL_MOVE):
                    replay.steps.append(step)
                    return forfeit_result(replay, stats, seat, fault)
                st.faults[fault] = st.faults.get(fault, 0) + 1  # the game plays it as a Mistake
                joint[seat] = Illegal(raw=repr(index)[:40])
            else:
                assert isinstance(index, int)
                joint[seat] = legal[index]
        replay.steps.append(step)
        for request in requests.values():
            request.seal()
        state.apply(joint)
        if on_step is not None:
            on_step(state, sorted(joint.items()))
    outcome = state.outcome()
    return match_result(game.id, replay.seed, outcome, termination_of(outcome), stats, replay, outcome.details)


def ask_seat(seat: Seat, request: DecisionRequest, clock: Clock = time.perf_counter) -> Answer:
    """One timed question to one seat; an exception becomes a fault, never escapes."""
    started = clock()
    index: object = -1
    fault: Termination | None = None
    try:
        # Called as returning object, not the protocol's int: the compiled referee would otherwise check
        # the answer's type on return and call a bot's wrong answer ("1", None) a crash, not illegal.
        act: Callable[[DecisionRequest], object] = seat.act
        index = act(request)
    except SeatFault as exc:
        fault = exc.kind
    except Exception:  # a bot's bug must end its match, not the referee
        fault = Termination.CRASH
    return index, fault, clock() - started


def asks_together(seats: Sequence[object]) -> Callable[[list[int]], bool]:
    """Ask at once when a simultaneous step involves seats that wait on the network.

    In-process bots are asked one after another (threads would only add overhead); remote
    seats mark themselves `networked = True` so a tick costs one round trip, not one per seat.
    """
    networked = [bool(getattr(seat, "networked", False)) for seat in seats]
    return lambda acting: len(acting) > 1 and any(networked[s] for s in acting)


def _ask_together(seats: Sequence[Seat], requests: Mapping[int, DecisionRequest], clock: Clock) -> dict[int, Answer]:
    with ThreadPoolExecutor(max_workers=len(requests), thread_name_prefix="referee-ask") as pool:
        futures = {s: pool.submit(ask_seat, seats[s], r, clock) for s, r in requests.items()}
        return {s: f.result() for s, f in futures.items()}


def forfeit_result(replay: Replay, stats: list[SeatStats], seat: int, fault: Termination, why: str = "",
                   details: Mapping[str, Any] | None = None) -> MatchResult:
    """The result of a match that `seat` forfeited by `fault`: it is ranked last, every other seat
    shares the place above it, and the fault is counted in its stats.

    Every path that ends a match by a seat's fault (the referee, real-time play, a program that
    never played) builds its result here. `why`, when given, is added to the stored reason.
    """
    stats[seat].faults[fault] = stats[seat].faults.get(fault, 0) + 1
    reason = fault_reason(seat, fault) + (f" ({why})" if why else "")
    outcome = forfeit(replay.players, (seat,), reason)
    return match_result(replay.game_id, replay.seed, outcome, fault, stats, replay, details, forfeit_seat=seat)


class _ReplaySeat:
    """A seat that answers from a recorded list of decisions."""

    def __init__(self, decisions: list[Decision]) -> None:
        self.decisions = decisions
        self.next = 0
        self.mismatch = False  # a decision that does not fit the game as it is now

    def act(self, request: DecisionRequest) -> int:
        if self.next >= len(self.decisions):
            return self._mismatched()
        decision = self.decisions[self.next]
        self.next += 1
        if decision.fault is not None:
            raise _RecordedFault(decision.fault)
        if not 0 <= decision.index < len(request.legal):
            # The referee records every out-of-range answer as a fault, so this replay was stored
            # by a version of the game whose legal actions differed (e.g. a whole parry row then).
            return self._mismatched()
        return decision.index

    def _mismatched(self) -> int:
        self.mismatch = True
        raise _RecordedFault(Termination.REPLAY_MISMATCH)  # ends the replayed match at once


class _RecordedFault(SeatFault):
    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = Termination(kind)


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
    game, state, fresh = new_match(replay.game_id, replay.seed, replay.config, replay.players)
    result = drive(referee_steps(game, state, fresh, lambda acting: False, None, on_step), seats)
    if any(seat.mismatch or seat.next != len(seat.decisions) for seat in seats):
        raise ReplayMismatch(
            f"this {replay.game_id} replay was stored by an earlier version of the game whose moves differ, "
            "so it cannot be played again move for move; its stored result is unchanged.")
    return result
